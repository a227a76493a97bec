//! `c4`: a fast, exact, scriptable Connect Four engine.
//!
//! Layers, from the bottom: [`rules`] (board, moves, wins) → [`notation`] (move strings, FEN,
//! board layouts) → [`solver`] (exact two-player search) and [`engine`] (choosing moves) →
//! [`protocol`] (the line interpreter) and [`batch`] (solver batch mode and benchmark).
//! Nothing below [`protocol`] and [`batch`] does I/O of its own.

pub mod batch;
pub mod book;
pub mod engine;
pub mod notation;
pub mod play;
pub mod protocol;
pub mod rules;
pub mod solver;
