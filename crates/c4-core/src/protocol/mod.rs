//! The line protocol: reads command lines, runs them on a [`Session`], writes framed replies.
//! Its one [`Driver`] takes input pushed in as it comes and hands out what is written; the
//! stdio loop ([`run`]) is a host of it, reading on threads, and so is the WebAssembly build.
//! The line reader and save files it shares with `c4 play` live in [`crate::textio`].
//! `protocol.md` at the repository root is its contract.

pub(crate) mod command;
mod driver;
mod input;
pub(crate) mod interpreter;
pub(crate) mod reply;
pub(crate) mod search;
pub(crate) mod session;
pub(crate) mod trust;
pub(crate) mod ugi;
pub use command::{parse_request, Command};
pub use driver::{Driver, DriverState, Host, ReadAhead};
pub use input::read_line;
pub use interpreter::{Exit, Interpreter, Options, Turn};
pub use reply::VERSION;
pub use session::{Session, Step};
pub use trust::Trust;

mod read_loop;
pub use read_loop::run;
