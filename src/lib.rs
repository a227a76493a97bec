//! `c4`: a fast, exact, scriptable Connect Four engine.
//!
//! Layers, from the bottom: [`rules`] (board, moves, wins) → [`notation`] (move strings, FEN,
//! board layouts) → [`solver`] (exact two-player search, and the opening book's format and
//! lookup it consults) and [`engine`] (choosing moves) → [`textio`] (bounded line reading, save
//! files, book files and the built-in book) → the front ends: [`protocol`] (the line
//! interpreter), [`play`] (the terminal game), [`batch`] (solver batch mode and benchmark) and
//! [`bookbuild`] (building and checking books) → [`cmd`], the command line: its words, running
//! the mode asked for and the exit status, called by a thin `main.rs`. Only [`textio`], the front
//! ends and [`cmd`] do I/O; the layers below them do none. The solver consults the book a front
//! end hands it, if any.

pub mod batch;
pub mod bookbuild;
pub mod cmd;
pub mod engine;
pub mod notation;
pub mod play;
pub mod protocol;
pub mod rules;
pub mod solver;
pub mod textio;
