//! The line protocol: reads command lines, runs them on a [`Session`], writes framed replies.
//! It owns the protocol's I/O (the line loop, reading ahead during a search); the line reader
//! and save files it shares with `c4 play` live in [`crate::textio`]. `protocol.md` at the
//! repository root is its contract.

pub mod command;
mod input;
pub mod interpreter;
pub mod reply;
pub mod search;
pub mod session;
pub mod trust;
pub mod ugi;
pub use command::{parse_request, Command, CommandError, Request};
pub use input::{read_line, LineError, RawLine, MAX_LINE_BYTES};
pub use interpreter::{Answer, Exit, Interpreter, Options, ReplyError, Turn};
pub use reply::{frame, info_line, stream_head, Response, VERSION};
pub use search::{Finished, Search};
pub use session::{Flow, Session, SessionError, Step};
pub use trust::{Refusal, Trust};

mod read_loop;
pub use read_loop::{read_ahead, run};
