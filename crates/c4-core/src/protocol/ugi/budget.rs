//! Time management for `go`: how long one move may think, from `movetime` or from the players'
//! clocks, with a reserve left on the clock, so that the move is sent well before the time runs
//! out. The budget is the search's `movetime`: perfect play's exact search takes three quarters
//! of it, and every search answers by its end (see [`crate::engine::choose`]).

use super::command::GoLimits;
use crate::rules::Game;

/// The most a clock's reserve (the time never planned for) holds, in milliseconds.
pub(crate) const MAX_RESERVE_MS: u64 = 250;

/// The most moves a clock's time is shared between: the first moves get more, since the
/// exact search finishes the later ones quickly.
pub(crate) const MAX_MOVES_PLANNED: u64 = 12;

/// The budget of a `go` in `game`, in milliseconds: from `movetime` (four fifths of it) and the
/// side to move's clock (see [`clock_share`]), the smaller when both are given; `None` when
/// neither is.
pub(crate) fn budget(limits: &GoLimits, game: &Game) -> Option<u64> {
    let side = usize::from(game.to_move().index() != 0);
    let moves_left = (game.board().empty_cells() as u64).div_ceil(2);
    let from_clock = limits.clock.time[side]
        .map(|left| clock_share(left, limits.clock.inc[side].unwrap_or(0), moves_left));
    let from_movetime = limits.bounds.movetime.map(|ms| ms - ms / 5);
    match (from_clock, from_movetime) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The time for one move, in milliseconds, with `left` on the clock, `inc` added per move and
/// `moves_left` moves at most still to play: a reserve of a quarter of the clock (at most
/// [`MAX_RESERVE_MS`]) is kept back, the rest is shared between the moves left (at least 2, at
/// most [`MAX_MOVES_PLANNED`]), three quarters of the increment are added, and no move takes
/// more than half of what is left after the reserve. The sum of all moves' shares therefore
/// never reaches the clock.
pub(crate) fn clock_share(left: u64, inc: u64, moves_left: u64) -> u64 {
    let usable = left - (left / 4).min(MAX_RESERVE_MS);
    let share = usable / moves_left.clamp(2, MAX_MOVES_PLANNED) + inc.saturating_mul(3) / 4;
    share.min(usable / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_shared_with_a_reserve() {
        // 200 ms: 50 kept back, 150 shared between 12 moves.
        assert_eq!(clock_share(200, 0, 21), 12);
        // Near the end, at most half of what is usable.
        assert_eq!(clock_share(200, 0, 1), 75);
        // The increment is mostly spent, but never past half.
        assert_eq!(clock_share(10_000, 1000, 21), 9750 / 12 + 750);
        assert_eq!(clock_share(100, 10_000, 3), 37);
        assert_eq!(clock_share(0, 0, 5), 0);
        assert_eq!(clock_share(60_000, 0, 21), (60_000 - 250) / 12);
    }

    #[test]
    fn the_side_to_move_s_clock_and_movetime() {
        let empty = Game::standard_after(&[]);
        let after_one = Game::standard_after(&[4]);
        let limits = GoLimits {
            clock: super::super::command::Clock {
                time: [Some(200), Some(2000)],
                inc: [None, None],
            },
            ..GoLimits::default()
        };
        assert_eq!(budget(&limits, &empty), Some(12));
        assert_eq!(budget(&limits, &after_one), Some(1750 / 12));
        let mut both = limits;
        both.bounds.movetime = Some(10);
        assert_eq!(budget(&both, &empty), Some(8));
        assert_eq!(budget(&GoLimits::default(), &empty), None);
    }
}
