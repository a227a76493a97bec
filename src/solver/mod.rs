//! Exact two-player solver: the bitboard [`Position`] (on a 64-bit or a 128-bit [`Bitboard`],
//! [`AnyPosition`] choosing at run time), the [`Score`] convention, the [`Solver`] search, and
//! the opening [`book`] a caller may hand it; no I/O, and nothing about more than two players or
//! other line lengths.
//!
//! Scores are from the side to move: a win on ply `p` (the stones on the board once the winning
//! one is down) scores `(width * height + 2 - p) / 2`, rounded down (22 minus the winner's stones
//! on 7x6), a loss the negative, a draw 0. Perfect play wins as fast and loses as slowly as
//! possible.

mod any_position;
mod bitboard;
pub mod book;
mod error;
mod order;
mod parallel;
mod position;
mod score;
mod search;
mod table;

pub(crate) use any_position::with_position;
pub use any_position::AnyPosition;
pub use bitboard::Bitboard;
pub use error::SolverError;
pub use position::Position;
pub use score::{Outcome, Score};
pub use search::{
    table_bits_for_mib, table_mib, Limits, Solver, DEFAULT_TABLE_BITS, MAX_THREADS,
    PARALLEL_MIN_NODES,
};

/// How far a stopped search got in its last probe ([`Solver::probe_progress`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeProgress {
    /// The probe asked whether the score is above this.
    pub above: Score,
    /// The columns (bit 0: the leftmost) whose moves are known to score no more than `above`.
    pub ruled_out: u32,
    /// The columns that can be played.
    pub playable: u32,
}

impl ProbeProgress {
    /// The columns ruled out, leftmost first, numbered from 0.
    pub fn ruled_out_columns(&self) -> impl Iterator<Item = u32> + '_ {
        (0..u32::BITS).filter(|column| self.ruled_out >> column & 1 == 1)
    }
}
