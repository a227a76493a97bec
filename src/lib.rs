//! `c4`: a fast, exact, scriptable Connect Four engine.
//!
//! Layers, from the bottom: [`rules`] (board, moves, wins) → [`notation`] (move strings, FEN,
//! board layouts) → [`solver`] (exact two-player search) → [`protocol`] (the line interpreter).
//! Nothing below [`protocol`] does I/O.

pub mod batch;
pub mod solver;
