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
mod order;
mod parallel;
mod position;
mod search;
mod table;

pub(crate) use any_position::with_position;
pub use any_position::AnyPosition;
pub use bitboard::Bitboard;
pub use position::Position;
pub use search::{
    table_bits_for_mib, table_mib, Limits, Solver, DEFAULT_TABLE_BITS, MAX_THREADS,
    PARALLEL_MIN_NODES,
};

use std::fmt;

/// Everything the solver can refuse or fail at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// The board's cells and sentinels do not fit the bitboard, or a side is zero.
    #[error(
        "the solver handles boards with width x (height + 1) <= {cells}, got {width}x{height}"
    )]
    BoardTooLarge {
        /// Columns asked for.
        width: u32,
        /// Rows asked for.
        height: u32,
        /// The bits of the bitboard it was asked for: 64, or 128 for [`AnyPosition`].
        cells: u32,
    },
    /// A side longer than the solver's (and the rules') 16.
    #[error("the solver handles boards of at most 16 columns and 16 rows, got {width}x{height}")]
    SideTooLong {
        /// Columns asked for.
        width: u32,
        /// Rows asked for.
        height: u32,
    },
    /// A column number past the right edge (1-based in the message).
    #[error("column {column} is off the board (columns 1-{width})")]
    ColumnOffBoard {
        /// The 1-based column asked for.
        column: u32,
        /// The number of columns.
        width: u32,
    },
    /// A move into a full column (1-based in the message).
    #[error("column {column} is full")]
    ColumnFull {
        /// The 1-based column asked for.
        column: u32,
    },
    /// A character that is not a column number.
    #[error("'{found}' is not a column (columns 1-{width})")]
    NotAColumn {
        /// What was found instead.
        found: char,
        /// The number of columns.
        width: u32,
    },
    /// A move after four in a row.
    #[error("the game is already over")]
    GameOver,
    /// One move of a sequence was refused.
    #[error("move {move_number}: {reason}")]
    InvalidMove {
        /// The 1-based index of the refused move in the sequence.
        move_number: usize,
        /// Why it was refused.
        reason: Box<SolverError>,
    },
    /// Raw stone masks that do not describe a reachable, unfinished position.
    #[error("invalid stones: {reason}")]
    InvalidStones {
        /// The rule that failed.
        reason: &'static str,
    },
    /// The system refused the memory for a table.
    #[error("the system refused the memory for a table of {mib} MiB; ask for a smaller one")]
    TableMemory {
        /// The table's size.
        mib: u64,
    },
    /// Proven entries that cannot be put into this solver's table.
    #[error("the saved entries of a table of {saved} words cannot be put into this solver's table of {words} words")]
    TableSize {
        /// The saved table's words.
        saved: u64,
        /// This solver's.
        words: u64,
    },
    /// A bounded search hit its node limit, deadline or stop flag first.
    #[error("the search was stopped before the exact score was found (it lies between {lower} and {upper})")]
    Interrupted {
        /// The score is at least this.
        lower: Score,
        /// The score is at most this.
        upper: Score,
    },
}

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

/// An exact score from the side to move (see the module doc for the convention).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i8);

impl Score {
    /// The draw score.
    pub const DRAW: Score = Score(0);

    /// A score of `value` (positive: the side to move wins).
    pub fn new(value: i8) -> Score {
        Score(value)
    }

    /// The score as a number.
    pub fn value(self) -> i8 {
        self.0
    }

    /// Win, draw or loss for the side to move.
    pub fn outcome(self) -> Outcome {
        match self.0 {
            v if v > 0 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }

    /// The same score seen by the other side.
    pub fn flipped(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The result of a weak solve: who wins with perfect play, not how fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Outcome {
    /// `1`, `0` or `-1`: the sign of every score with this outcome.
    pub fn sign(self) -> i8 {
        match self {
            Outcome::Win => 1,
            Outcome::Draw => 0,
            Outcome::Loss => -1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages_say_what_was_expected() {
        assert_eq!(
            SolverError::BoardTooLarge {
                width: 12,
                height: 12,
                cells: 128
            }
            .to_string(),
            "the solver handles boards with width x (height + 1) <= 128, got 12x12"
        );
        assert_eq!(
            SolverError::ColumnOffBoard {
                column: 8,
                width: 7
            }
            .to_string(),
            "column 8 is off the board (columns 1-7)"
        );
    }

    #[test]
    fn outcomes_follow_the_sign() {
        assert_eq!(Score::new(3).outcome(), Outcome::Win);
        assert_eq!(Score::new(-1).outcome(), Outcome::Loss);
        assert_eq!(Score::DRAW.outcome().sign(), 0);
    }
}
