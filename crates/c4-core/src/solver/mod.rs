//! Exact two-player solver: the bitboard [`Position`] (on a 64-bit or a 128-bit [`Bitboard`],
//! [`AnyPosition`] choosing at run time), the [`Score`] convention, the [`Solver`] search, and
//! the opening [`book`] a caller may hand it; no I/O, and nothing about more than two players or
//! other line lengths.
//!
//! Scores are from the side to move: a win on ply `p` (the stones on the board once the winning
//! one is down) scores `(width * height + 2 - p) / 2`, rounded down (22 minus the winner's stones
//! on 7x6), a loss the negative, a draw 0. Perfect play wins as fast and loses as slowly as
//! possible.

mod analyze;
mod any_position;
mod bitboard;
pub(crate) mod book;
mod error;
#[cfg(test)]
mod exhaustive;
mod keys;
mod limits;
mod negamax;
mod order;
mod parallel;
mod pool;
mod position;
mod proven;
mod root;
mod score;
mod split;
mod state;
mod table;
mod table_size;
mod threads;

pub(crate) use any_position::with_position;
pub use any_position::AnyPosition;
pub use bitboard::Bitboard;
pub use error::SolverError;
pub(crate) use limits::is_called_off;
pub use limits::Limits;
pub(crate) use parallel::MAX_THREADS;
pub use pool::analyze_many;
pub(crate) use pool::Pool;
pub use position::Position;
pub use proven::ProbeProgress;
pub use score::{Score, Verdict};
pub use split::{FailedPrediction, Job, QuickSearch, Split, SplitError, SplitSettings};
pub use state::Solver;
pub use table_size::TableSize;
