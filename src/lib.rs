//! `c4`: a fast, exact, scriptable Connect Four engine.
//!
//! Layers, from the bottom: [`rules`] (board, moves, wins) → [`notation`] (move strings, FEN,
//! board layouts) → [`solver`] (exact two-player search) and [`engine`] (choosing moves) →
//! [`textio`] (bounded line reading, save files) → the front ends: [`protocol`] (the line
//! interpreter), [`play`] (the terminal game) and [`batch`] (solver batch mode and benchmark).
//! Only [`textio`] and the front ends do I/O; the layers below them do none. [`cli`] turns the
//! command line into the front ends' settings; `main.rs` runs them.

pub mod batch;
pub mod book;
pub mod cli;
pub mod engine;
pub mod notation;
pub mod play;
pub mod protocol;
pub mod rules;
pub mod solver;
pub mod textio;
