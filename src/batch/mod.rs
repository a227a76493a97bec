//! Batch solving and the solver benchmark: move sequences in, scores out, over a reader and a
//! writer handed in; owns the line formats, not the search.
//!
//! Input, one position per line: column digits run together from the empty board of a
//! [`BatchBoard`] (`4453`; 1-based by default, 0-based as other solvers' test files have them,
//! up to 9 columns, or 10 from 0; letters `a`-`p` name columns on any board); an empty line is
//! the empty board. One score may follow the moves after a space or tab, and is ignored, so
//! that benchmark files (`MOVES SCORE`) can be fed as they are; anything else after the moves
//! gets an error line (`4 4 5` is not read as `4`). Output, one line per input line, in order, never
//! skipped (a checkpointed run asked to stop early answers the line it was searching and reads
//! no more):
//!
//! - [`BatchMode::Score`]: `MOVES SCORE`, the exact score from the side to move;
//! - [`BatchMode::Weak`]: `MOVES SIGN`, `1` (the side to move wins), `0` or `-1`;
//! - [`BatchMode::Analyze`]: `MOVES S1 S2 ... SW`, the score of each column for the side to move
//!   after playing it, `-` where the column is full or the game is over;
//! - [`BatchMode::AtLeast`]: `MOVES >=B` when the score is at least the bound B, `MOVES <B`
//!   when it is not; [`BatchMode::AtLeastOfLine`] the same, with the bound B each line gives
//!   after its moves (`MOVES B`: there the word after the moves is read, not ignored);
//! - an invalid line: `MOVES error: REASON`, e.g. `48 error: move 2 (column 8): the column is
//!   off the board (columns 1-7)`, with MOVES's control characters and line and paragraph
//!   separators escaped.
//!
//! A sequence that ends the game is a position like any other: a won game scores as the loser
//! to move (`4455667 -18`), a full board 0, and analysis shows every column `-`.
//!
//! This file only names the parts; each has a file:
//!
//! - `solve.rs`, `c4 solve`: [`run_batch_solve`] answers every line in the formats above;
//! - `shared_table.rs`: the file of a table that the runs of one machine share
//!   (`--shared-table`), made and checked before it is mapped ([`SharedTableError`]);
//! - `checkpointed.rs`: an exact score that saves its progress to a file as it goes and goes on
//!   from it in a later run ([`Checkpointing`]), and the early stop a signal asks for
//!   ([`EarlyStop`]);
//! - `bench.rs`, `c4 bench`: benchmark files and the empty board, solved and timed
//!   ([`run_bench`], [`run_empty_board_bench`]);
//! - `sizes.rs`: the table of board sizes that `c4 bench --sizes` checks ([`SizeOutcome`]);
//! - what they share: `board.rs`, the board the lines are played on ([`BatchBoard`]); `line.rs`,
//!   the text around a line's moves; `error.rs`, why a line holds no position ([`LineError`]);
//!   `table.rs`, the solver a run builds and the notes on its table.

mod bench;
mod board;
pub mod checkpoint;
mod checkpointed;
mod error;
mod line;
mod shared_table;
mod sizes;
mod solve;
mod table;

pub use bench::{
    run_bench, run_empty_board_bench, BenchError, BenchLog, BenchOptions, BenchReport, BenchSet,
    BenchTask,
};
pub use board::BatchBoard;
pub use checkpointed::{Checkpointing, EarlyStop};
pub use error::{BoardError, LineError, MoveProblem};
pub use line::{bound_of, BatchMode, MAX_BATCH_LINE_BYTES, MAX_BOUND, MIN_BOUND};
pub use shared_table::{shared_table_bits, SharedTableError};
pub use sizes::{SizeLineError, SizeOutcome};
pub use solve::{run_batch_solve, BatchOptions, BatchSummary};
pub use table::table_for_board;
