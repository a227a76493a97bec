//! [`SolverError`]: everything the solver can refuse or fail at, as the messages a user reads;
//! which part refuses what is where each variant is made.

use super::score::Score;

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
        /// The bits of the bitboard it was asked for: 64, or 128 for
        /// [`AnyPosition`](super::AnyPosition).
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
    /// A table shared through a file could not be mapped.
    #[error("the shared table could not be mapped: {reason}")]
    SharedTable {
        /// Why not, as the system says.
        reason: String,
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
}
