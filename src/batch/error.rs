//! The errors solving, checkpointed runs and the benchmark share: why a line holds no position
//! to solve (its text, a move, the solver, its checkpoint), and why a board is not a batch's.

use std::path::PathBuf;

use thiserror::Error;

use super::checkpoint::CheckpointError;
use super::line::{MAX_BATCH_LINE_BYTES, MAX_BOUND, MIN_BOUND};
use super::sizes::SizeLineError;
use c4_core::MovesError;
use c4_core::SolverError;
use c4_core::VariantError;

/// Why a board cannot be a [`BatchBoard`](super::board::BatchBoard).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The rules have no such board.
    #[error(transparent)]
    Rules(#[from] VariantError),
    /// The solver does not play on it.
    #[error(transparent)]
    Solver(#[from] SolverError),
}

/// Why a batch or benchmark line holds no position to solve.
#[derive(Debug, Error)]
pub enum LineError {
    /// Longer than [`MAX_BATCH_LINE_BYTES`].
    #[error("the line is longer than {MAX_BATCH_LINE_BYTES} bytes")]
    TooLong,
    /// Not text.
    #[error("the line is not UTF-8 text")]
    NotUtf8,
    /// Not a move sequence.
    #[error(transparent)]
    Moves(#[from] MovesError),
    /// Words after the moves that are not a score.
    #[error("cannot read '{0}' after the moves: write a line's moves as one word (445), then at most a score")]
    AfterMoves(String),
    /// `--at-least line` and no bound after the moves.
    #[error("expected a bound from {MIN_BOUND} to {MAX_BOUND} after the moves (MOVES B), as --at-least line reads each line")]
    NoBound,
    /// A move of the sequence cannot be played; `index` counts from 1, `column` is as written.
    #[error("move {index} (column {column}): {problem}")]
    Move {
        /// Which move.
        index: usize,
        /// Its column, numbered as the line numbers them.
        column: u64,
        /// Why it cannot be played.
        problem: MoveProblem,
    },
    /// The solver refused the position.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// Not a line of a board-size table.
    #[error(transparent)]
    Size(#[from] SizeLineError),
    /// A board-size table's board that the rules or the solver do not take.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The checkpoint file cannot be read or written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The checkpoint file is another position's, which it would overwrite.
    #[error("{} holds the checkpoint of another position; name another file", .0.display())]
    OtherCheckpoint(PathBuf),
    /// The checkpoint's table entries cannot be put into this run's table.
    #[error("the checkpoint's table of {saved} MiB cannot be moved into this run's table of {table} MiB; run it with --hash {saved}")]
    CheckpointTable {
        /// The checkpoint's table.
        saved: u64,
        /// This run's.
        table: u64,
    },
    /// The run was asked to stop early; the search's progress is in the checkpoint file.
    #[error("stopped before the end; the progress is saved in {}: run this line again with the same --board and --checkpoint to go on", .0.display())]
    Stopped(PathBuf),
    /// The run was asked to stop early, and its last save failed: the file holds the one
    /// before.
    #[error("stopped before the end, and the last progress could not be saved in {} ({reason}): run this line again with the same --board and --checkpoint to go on from the save before", file.display())]
    StoppedUnsaved {
        /// The checkpoint file.
        file: PathBuf,
        /// Why the last save failed.
        reason: String,
    },
    /// The checkpoint was saved by a build whose table entries differ.
    #[error(
        "the checkpoint was saved by a build of c4 with other table entries; it cannot be resumed"
    )]
    CheckpointLayout,
}

impl LineError {
    /// Whether the line failed because its checkpoint file could not be used: not read, not
    /// written, damaged, another position's, or saved with a table or by a build this run
    /// cannot go on from. (Not a stop asked for, which ends the run its own way.)
    pub fn is_unusable_checkpoint(&self) -> bool {
        matches!(
            self,
            LineError::Checkpoint(_)
                | LineError::OtherCheckpoint(_)
                | LineError::CheckpointTable { .. }
                | LineError::CheckpointLayout
        )
    }
}

/// Why a move of a batch line cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveProblem {
    /// No such column.
    #[error("the column is off the board (columns {first}-{last})")]
    OffBoard {
        /// The first column's number as the line counts.
        first: u64,
        /// The last column's.
        last: u64,
    },
    /// No room in the column.
    #[error("the column is full")]
    Full,
    /// An earlier move ended the game.
    #[error("the game is already over ({0})")]
    GameOver(String),
}
