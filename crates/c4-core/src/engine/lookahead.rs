//! Depth-limited search on any variant (any size, connect length and number of players): the
//! pipes program's "look ahead N moves" player, and the heuristic search used where the exact
//! solver cannot go.
//!
//! Values are from one player's point of view, 0 to 100: 100 that player has won, 0 another player
//! has won, 50 a draw or (at the depth limit, plain evaluation) nothing known. With more than two
//! players the search is paranoid: every other player is assumed to play against the searcher.

use super::cutoff::{Cutoff, Watch};
use crate::rules::{Column, Game, Outcome, Player};

/// The value of a won game.
pub(crate) const WIN: i32 = 100;
/// The value of a lost game.
pub(crate) const LOSS: i32 = 0;
/// The value of a draw, or of a position the search did not see the end of.
pub(crate) const UNKNOWN: i32 = 50;

/// How a position at the depth limit is valued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Evaluation {
    /// Always [`UNKNOWN`]: the pipes program's player, which only tells wins and losses apart.
    Plain,
    /// Open windows: lines the searcher can still complete count for it, the others' against it,
    /// more the fuller they are; always strictly between [`LOSS`] and [`WIN`].
    Windows,
}

/// Window cells judged for the cost of one position played: a position at the depth limit
/// judged by its open windows costs its windows' cells over this, in the work a search counts
/// against its [`Cutoff`] (on a 16x16 board of connect 4, some 47 positions).
const CELLS_PER_POSITION: u64 = 64;

/// The value of each column for the side to move, searching `plies` moves deep (at least 1);
/// `None` for a column that cannot be played. The whole answer is `None` when `cutoff` ended
/// the search before it finished.
pub(crate) fn column_values(
    game: &Game,
    plies: u32,
    evaluation: Evaluation,
    cutoff: Cutoff<'_>,
) -> Option<Vec<Option<i32>>> {
    column_values_counted(game, plies, evaluation, cutoff).0
}

/// [`column_values`], and the number of positions the search looked at.
pub(crate) fn column_values_counted(
    game: &Game,
    plies: u32,
    evaluation: Evaluation,
    cutoff: Cutoff<'_>,
) -> (Option<Vec<Option<i32>>>, u64) {
    let judging = match evaluation {
        Evaluation::Plain => 0,
        Evaluation::Windows => {
            let connect = game.variant().connect();
            let cells = game.board().windows(connect).count() * connect;
            cells as u64 / CELLS_PER_POSITION
        }
    };
    let mut search = Search {
        me: game.to_move(),
        evaluation,
        watch: cutoff.watch(),
        leaf_work: 1 + judging,
        nodes: 0,
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
    ((!search.watch.is_cut()).then_some(values), search.nodes)
}

/// The values of every column (as [`column_values`] gives them) one move deep, then two, and
/// so on up to `plies`, each with the positions its search looked at: the deepening ends with
/// the first search that `cutoff` cuts short. The one-move look always finishes.
pub(crate) fn deepening<'a>(
    game: &'a Game,
    plies: u32,
    evaluation: Evaluation,
    cutoff: Cutoff<'a>,
) -> impl Iterator<Item = (u32, Vec<Option<i32>>, u64)> + 'a {
    (1..=plies.max(1)).map_while(move |depth| {
        let cutoff = if depth == 1 {
            Cutoff::default()
        } else {
            cutoff
        };
        match column_values_counted(game, depth, evaluation, cutoff) {
            (Some(values), nodes) => Some((depth, values, nodes)),
            (None, _) => None,
        }
    })
}

/// One look-ahead search.
struct Search<'a> {
    /// The player the values are for.
    me: Player,
    evaluation: Evaluation,
    /// The work done against the cutoff; once it is cut, every value means nothing.
    watch: Watch<'a>,
    /// The work of a position at the depth limit: playing it, and judging it.
    leaf_work: u64,
    nodes: u64,
}

impl Search<'_> {
    /// The value of `game` for `me`, looking `plies` more moves ahead.
    fn value(&mut self, game: &mut Game, plies: u32) -> i32 {
        self.nodes += 1;
        let work = if plies == 0 { self.leaf_work } else { 1 };
        if self.watch.spend(work) {
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
    use crate::clock::Instant;
    use crate::engine::cutoff::WORK_PER_LOOK;
    use crate::rules::Variant;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn sees_a_win_in_one() {
        let g = Game::standard_after(&[1, 2, 1, 2, 1, 2]);
        let v = column_values(&g, 1, Evaluation::Plain, Cutoff::default()).unwrap();
        assert_eq!(v[0], Some(WIN));
        assert_eq!(v[3], Some(UNKNOWN));
    }

    #[test]
    fn sees_that_not_blocking_loses() {
        // o threatens column 2; x must block.
        let g = Game::standard_after(&[1, 2, 1, 2, 7, 2]);
        let v = column_values(&g, 2, Evaluation::Plain, Cutoff::default()).unwrap();
        assert_eq!(v[1], Some(UNKNOWN));
        assert_eq!(v[3], Some(LOSS));
    }

    #[test]
    fn full_columns_have_no_value() {
        let g = Game::standard_after(&[1, 1, 1, 1, 1, 1]);
        assert_eq!(
            column_values(&g, 2, Evaluation::Windows, Cutoff::default()).unwrap()[0],
            None
        );
    }

    #[test]
    fn a_set_stop_flag_ends_the_search() {
        // Twelve moves deep on 16 columns would take years.
        let v = Variant::new(16, 16, 4, Variant::default_tokens(2).unwrap(), true).unwrap();
        let stop = AtomicBool::new(true);
        let cutoff = Cutoff {
            stop: Some(&stop),
            deadline: None,
        };
        assert_eq!(
            column_values(&Game::new(v), 12, Evaluation::Plain, cutoff),
            None
        );
    }

    #[test]
    fn a_passed_deadline_ends_the_costliest_search_at_its_first_look() {
        // Eight players on 16x16, every position at the limit judged by its open windows: five
        // moves deep takes seconds, twelve years.
        let v = Variant::new(16, 16, 4, Variant::default_tokens(8).unwrap(), false).unwrap();
        let game = Game::new(v);
        let cutoff = Cutoff {
            stop: None,
            deadline: Some(Instant::now()),
        };
        let (values, nodes) = column_values_counted(&game, 12, Evaluation::Windows, cutoff);
        assert_eq!(values, None);
        assert!(nodes <= WORK_PER_LOOK, "{nodes}");
        // Deepening gives every depth that finished: here the one-move look alone.
        let depths: Vec<u32> = deepening(&game, 12, Evaluation::Windows, cutoff)
            .map(|(depth, _, _)| depth)
            .collect();
        assert_eq!(depths, [1]);
    }

    #[test]
    fn deepening_without_a_cutoff_reaches_the_depth_asked_with_the_same_values() {
        let g = Game::standard_after(&[4, 4, 3]);
        let depths: Vec<_> = deepening(&g, 3, Evaluation::Windows, Cutoff::default()).collect();
        assert_eq!(depths.len(), 3);
        for (depth, values, nodes) in depths {
            let (direct, direct_nodes) =
                column_values_counted(&g, depth, Evaluation::Windows, Cutoff::default());
            assert_eq!((Some(values), nodes), (direct, direct_nodes));
        }
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
