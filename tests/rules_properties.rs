//! Property tests of the rules on random variants and random games: undo restores positions
//! exactly, and the fast win check agrees with a naive scan of the whole board.

use c4_core::{Game, Outcome, Variant};
use proptest::prelude::*;

/// A random variant (1-16 wide and high, connect 2-6, 2-8 players, early draw on or off) and
/// random choices that pick among the legal columns at each move.
fn game_inputs() -> impl Strategy<Value = (Variant, Vec<usize>)> {
    (
        1usize..=16,
        1usize..=16,
        2usize..=6,
        2usize..=8,
        any::<bool>(),
        prop::collection::vec(any::<usize>(), 0..300),
    )
        .prop_map(|(w, h, k, n, early, picks)| {
            let variant =
                Variant::new(w, h, k, Variant::default_tokens(n).unwrap(), early).unwrap();
            (variant, picks)
        })
}

/// Whether `player` has `connect` in a row anywhere, by looking at every cell and direction.
fn naive_has_line(game: &Game, player: c4_core::Player) -> bool {
    let b = game.board();
    let k = game.variant().connect() as isize;
    for row in 0..b.height() as isize {
        for column in 0..b.width() as isize {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (-1, 1)] {
                let all = (0..k).all(|i| {
                    let (r, c) = (row + dr * i, column + dc * i);
                    r >= 0 && c >= 0 && b.at(r as usize, c as usize) == Some(player)
                });
                if all {
                    return true;
                }
            }
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn undo_restores_every_position((variant, picks) in game_inputs()) {
        let mut game = Game::new(variant);
        let mut seen = vec![game.clone()];
        for pick in picks {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            game.play(legal[pick % legal.len()]).unwrap();
            seen.push(game.clone());
        }
        while let Some(expected) = seen.pop() {
            prop_assert_eq!(&game, &expected);
            game.undo();
        }
        prop_assert_eq!(game.undo(), None);
    }

    #[test]
    fn wins_agree_with_a_naive_scan((variant, picks) in game_inputs()) {
        let mut game = Game::new(variant);
        for pick in picks {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mover = game.to_move();
            game.play(legal[pick % legal.len()]).unwrap();
            let won = game.outcome() == Outcome::Win(mover);
            prop_assert_eq!(won, naive_has_line(&game, mover), "after {:?}", game.history());
            if won {
                // The reported lines are real runs of the winner, at least connect long.
                for line in game.winning_lines() {
                    prop_assert!(line.cells.len() >= game.variant().connect());
                    prop_assert!(line.cells.iter().all(|&c| game.board().stone(c) == Some(mover)));
                }
            }
        }
    }

    #[test]
    fn an_early_draw_is_never_declared_while_a_line_can_still_be_made((variant, picks) in game_inputs()) {
        // Play on past an early draw with the rule off: nobody may win after the rule said so.
        let ruled = Variant::new(variant.width(), variant.height(), variant.connect(), variant.tokens().to_vec(), true).unwrap();
        let free = Variant::new(variant.width(), variant.height(), variant.connect(), variant.tokens().to_vec(), false).unwrap();
        let (mut with_rule, mut without) = (Game::new(ruled), Game::new(free));
        let mut drawn_at = None;
        for pick in picks {
            let legal = without.legal_moves();
            if legal.is_empty() {
                break;
            }
            let column = legal[pick % legal.len()];
            if drawn_at.is_none() && with_rule.outcome() == Outcome::Draw(c4_core::DrawReason::NoLineLeft) {
                drawn_at = Some(with_rule.ply());
            }
            if drawn_at.is_none() {
                with_rule.play(column).unwrap();
            }
            without.play(column).unwrap();
            if drawn_at.is_some() {
                prop_assert!(!matches!(without.outcome(), Outcome::Win(_)), "a win after the early draw at ply {:?}", drawn_at);
            }
        }
    }
}
