//! `c4`: a fast, exact, scriptable Connect Four engine: the program's front ends on top of the
//! core crate, [`c4_core`].
//!
//! The core holds the layers that do no process-level work: [`rules`] (board, moves, wins) →
//! [`notation`] (move strings, FEN, board layouts) → [`solver`] (exact two-player search, and
//! the opening book's format and lookup) and [`engine`] (choosing moves) → [`textio`] (bounded
//! line reading, save files, book files and the built-in book) → [`protocol`] (the line
//! interpreter's session and its stdio loop). They are re-exported here under the same names.
//! This crate adds the front ends that need a terminal, signals or the command line: [`play`]
//! (the terminal game), [`batch`] (solver batch mode, checkpoints and benchmark), [`split`] (a
//! solve split into jobs, as files for a cluster),
//! [`bookbuild`] (building and checking books) and [`serve`] (the GUI's server: the page, and a
//! `c4 --untrusted` per WebSocket) → [`cmd`], the command line: its words, running
//! the mode asked for and the exit status, called by a thin `main.rs`.

pub use c4_core::{engine, notation, protocol, rules, solver, textio};

pub mod batch;
pub mod bookbuild;
pub mod cmd;
pub mod play;
pub mod serve;
pub mod split;
