//! Text in and out of streams and files, shared by the front ends (the protocol, `c4 play`,
//! `c4 solve`, `c4 bench` and `c4 book`): bounded line reading, saved games, book files, the
//! one way to open a file a user names and to write a file whole ([`files`]), and I/O errors in
//! words. Below it, the rules, notation, solver
//! and engine do no I/O at all.

pub(crate) mod book;
pub(crate) mod files;
mod lines;
pub(crate) mod savefile;
mod words;

pub use lines::read_bounded_line;
pub use words::describe;
