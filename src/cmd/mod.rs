//! The `c4` command: runs the mode the command line asks for ([`cli`]) on the process's standard
//! streams, and turns every way it can end into an exit status in one place ([`exit`]): 0 success,
//! 1 a failed command under `--strict`, a wrong benchmark score, a book that failed to verify, a
//! `c4 solve --checkpoint` line whose checkpoint could not be used, or an I/O error, 2 a usage
//! error or a file named on the command line that cannot be used. A closed standard output is
//! not an error. `c4 solve --checkpoint` stopped by a signal ends by that signal once its
//! progress is saved (`signals.rs`). `main.rs` only parses the arguments and calls these.

pub mod book;
pub mod cli;
#[cfg(unix)]
mod signals;
mod values;
pub use cli::{usage_error, Cli, Mode};

mod modes;
pub use modes::{exit, run, Done, Failure};
