//! The `c4` Connect Four engine without its command line: what the `c4` program, the Python
//! package and the WebAssembly build all stand on.
//!
//! Layers, from the bottom: [`rules`] (board, moves, wins) → [`notation`] (move strings, FEN,
//! board layouts) → [`solver`] (exact two-player search, and the opening book's format and
//! lookup it consults) and [`engine`] (choosing moves) → [`textio`] (bounded line reading, save
//! files, book files and the built-in book) → [`protocol`] (the line interpreter: commands
//! parsed into a [`Command`](protocol::command::Command), carried out on a
//! [`protocol::Session`], answered in deterministic text; its [`Driver`] takes input as it comes
//! and hands out the replies, for each front end's I/O). Only [`textio`] and
//! [`protocol`] do I/O; the layers below them do none. The time they read is [`clock`]'s (the
//! host's, on WebAssembly). Nothing here reads the command line,
//! handles signals or needs a terminal; the table's huge pages are asked for on Linux only.
//!
//! The types most callers need are re-exported at the root:
//!
//! ```
//! use c4_core::engine::perfect::column_scores;
//! use c4_core::solver::Limits;
//! use c4_core::{Game, Solver, Variant};
//!
//! let mut game = Game::new(Variant::default());
//! for number in [4, 4, 3] {
//!     let column = game.column(number).unwrap();
//!     game.play(column).unwrap();
//! }
//! let mut solver = Solver::new();
//! // Every column's exact score for the side to move (None where the column is full).
//! let scores = column_scores(&game, &mut solver, &Limits::default()).unwrap();
//! assert_eq!(scores.len(), 7);
//! ```

pub mod clock;
pub mod engine;
pub mod notation;
pub mod protocol;
mod resources;
pub mod rules;
pub mod solver;
pub mod textio;

pub use protocol::{Driver, DriverState, Host, ReadAhead, Session, VERSION};
pub use resources::{ResourceError, ThreadCount};
pub use rules::{Column, Game, Variant};
pub use solver::{Score, Solver};
