//! `c4`: a fast, exact, scriptable Connect Four engine: the program's front ends on top of the
//! core crate, [`c4_core`].
//!
//! Everything below the command line is the core's, reached through its API only (the names
//! [`c4_core`] re-exports at its root: rules, notation, the solver and the opening book, move
//! choice, files and the protocol's interpreter).
//! This crate adds the front ends that need a terminal, signals or the command line: [`play`]
//! (the terminal game), [`batch`] (solver batch mode, checkpoints and benchmark), [`split`] (a
//! solve split into jobs, as files for a cluster) and [`serve`] (the GUI's server: the page, and
//! a `c4 --untrusted` per WebSocket) → [`cmd`], the command line: its words, running
//! the mode asked for and the exit status, called by a thin `main.rs`.

pub mod batch;
pub mod cmd;
pub mod play;
pub mod serve;
pub mod split;
