//! Depth-limited search on any variant (any size, connect length and number of players): the
//! S4 "look ahead N moves" player, and the heuristic search used where the exact solver cannot go.
//!
//! Values are from one player's point of view, 0 to 100: 100 that player has won, 0 another player
//! has won, 50 a draw or (at the depth limit, plain evaluation) nothing known. With more than two
//! players the search is paranoid: every other player is assumed to play against the searcher.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::rules::{Column, Game, Outcome, Player};

/// The value of a won game.
pub const WIN: i32 = 100;
/// The value of a lost game.
pub const LOSS: i32 = 0;
/// The value of a draw, or of a position the search did not see the end of.
pub const UNKNOWN: i32 = 50;

/// How a position at the depth limit is valued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evaluation {
    /// Always [`UNKNOWN`]: the S4 player, which only tells wins and losses apart.
    Plain,
    /// Open windows: lines the searcher can still complete count for it, the others' against it,
    /// more the fuller they are; always strictly between [`LOSS`] and [`WIN`].
    Windows,
}

/// Positions searched between two looks at the stop flag: often enough to stop within a
/// millisecond, rarely enough to cost nothing.
const STOP_CHECK: u64 = 1024;

/// The value of each column for the side to move, searching `plies` moves deep (at least 1);
/// `None` for a column that cannot be played. The whole answer is `None` when `stop` was set
/// before the search finished.
pub fn column_values(
    game: &Game,
    plies: u32,
    evaluation: Evaluation,
    stop: Option<&AtomicBool>,
) -> Option<Vec<Option<i32>>> {
    column_values_counted(game, plies, evaluation, stop).0
}

/// [`column_values`], and the number of positions the search looked at.
pub fn column_values_counted(
    game: &Game,
    plies: u32,
    evaluation: Evaluation,
    stop: Option<&AtomicBool>,
) -> (Option<Vec<Option<i32>>>, u64) {
    let mut search = Search {
        me: game.to_move(),
        evaluation,
        stop,
        nodes: 0,
        stopped: false,
    };
    let mut game = game.clone();
    let values = (0..game.variant().width())
        .map(|c| {
            let column = Column::from_index(c);
            game.is_legal(column).then(|| {
                game.play_unchecked(column);
                let v = search.value(&mut game, plies.saturating_sub(1));
                game.undo();
                v
            })
        })
        .collect();
    ((!search.stopped).then_some(values), search.nodes)
}

/// One look-ahead search.
struct Search<'a> {
    /// The player the values are for.
    me: Player,
    evaluation: Evaluation,
    stop: Option<&'a AtomicBool>,
    nodes: u64,
    /// Set once `stop` was seen: every value after that means nothing.
    stopped: bool,
}

impl Search<'_> {
    /// The value of `game` for `me`, looking `plies` more moves ahead.
    fn value(&mut self, game: &mut Game, plies: u32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(STOP_CHECK) {
            self.stopped |= self.stop.is_some_and(|flag| flag.load(Ordering::Relaxed));
        }
        if self.stopped {
            return UNKNOWN;
        }
        match game.outcome() {
            Outcome::Win(p) if p == self.me => return WIN,
            Outcome::Win(_) => return LOSS,
            Outcome::Draw(_) => return UNKNOWN,
            Outcome::InProgress => {}
        }
        if plies == 0 {
            return match self.evaluation {
                Evaluation::Plain => UNKNOWN,
                Evaluation::Windows => windows(game, self.me),
            };
        }
        let maximise = game.to_move() == self.me;
        let mut best = if maximise { LOSS - 1 } else { WIN + 1 };
        for column in game.legal_moves() {
            game.play_unchecked(column);
            let v = self.value(game, plies - 1);
            game.undo();
            best = if maximise { best.max(v) } else { best.min(v) };
            // Nothing beats a certain result: stop looking.
            if (maximise && best == WIN) || (!maximise && best == LOSS) {
                break;
            }
        }
        best
    }
}

/// Open-window evaluation of an unfinished position for `me`, in 1..=99: each window held by one
/// player alone counts its stones squared, for `me` or against.
fn windows(game: &Game, me: Player) -> i32 {
    let total: i64 = game
        .board()
        .windows(game.variant().connect())
        .filter(|w| !w.mixed)
        .filter_map(|w| {
            let weight = (w.stones * w.stones) as i64;
            w.owner.map(|p| if p == me { weight } else { -weight })
        })
        .sum();
    (UNKNOWN as i64 + total.clamp(-49, 49)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn sees_a_win_in_one() {
        let g = Game::standard_after(&[1, 2, 1, 2, 1, 2]);
        let v = column_values(&g, 1, Evaluation::Plain, None).unwrap();
        assert_eq!(v[0], Some(WIN));
        assert_eq!(v[3], Some(UNKNOWN));
    }

    #[test]
    fn sees_that_not_blocking_loses() {
        // o threatens column 2; x must block.
        let g = Game::standard_after(&[1, 2, 1, 2, 7, 2]);
        let v = column_values(&g, 2, Evaluation::Plain, None).unwrap();
        assert_eq!(v[1], Some(UNKNOWN));
        assert_eq!(v[3], Some(LOSS));
    }

    #[test]
    fn full_columns_have_no_value() {
        let g = Game::standard_after(&[1, 1, 1, 1, 1, 1]);
        assert_eq!(
            column_values(&g, 2, Evaluation::Windows, None).unwrap()[0],
            None
        );
    }

    #[test]
    fn a_set_stop_flag_ends_the_search() {
        // Twelve moves deep on 16 columns would take years.
        let v = Variant::new(16, 16, 4, Variant::default_tokens(2).unwrap(), true).unwrap();
        let stop = AtomicBool::new(true);
        assert_eq!(
            column_values(&Game::new(v), 12, Evaluation::Plain, Some(&stop)),
            None
        );
    }

    #[test]
    fn windows_favour_the_side_with_more_open_lines() {
        let g = Game::standard_after(&[4]);
        let me = crate::rules::Player::FIRST;
        assert!(windows(&g, me) > UNKNOWN);
        let v = Variant::new(7, 6, 4, Variant::default_tokens(3).unwrap(), true).unwrap();
        let mut g3 = Game::new(v);
        g3.play(Column::from_index(3)).unwrap();
        assert!(windows(&g3, me) > UNKNOWN);
    }
}
