//! The line protocol: reads command lines, runs them on a [`Session`], writes framed replies.
//! Its one [`Driver`] takes input pushed in as it comes and hands out what is written; the
//! stdio loop ([`run`]) is a host of it, reading on threads, and so is the WebAssembly build.
//! The line reader and save files it shares with `c4 play` live in [`crate::textio`].
//! `protocol.md` at the repository root is its contract.

pub mod command;
mod driver;
mod input;
pub mod interpreter;
pub mod reply;
pub mod search;
pub mod session;
pub mod trust;
pub mod ugi;
pub use command::{parse_request, Command, CommandError, Request};
pub use driver::{Driver, DriverState, Host, ReadAhead};
pub use input::{read_line, LineError, RawLine, MAX_LINE_BYTES};
pub use interpreter::{Answer, Exit, Interpreter, Options, ReplyError, Turn};
pub use reply::{frame, info_line, stream_head, Response, VERSION};
pub use search::{Finished, Search};
pub use session::{Flow, Session, SessionError, Step};
pub use trust::{Refusal, Trust};

mod read_loop;
pub use read_loop::run;
