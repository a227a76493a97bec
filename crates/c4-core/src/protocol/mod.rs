//! The line protocol: reads command lines, runs them on a [`Session`], writes framed replies.
//! It owns the protocol's I/O (the line loop, reading ahead during a search); the line reader
//! and save files it shares with `c4 play` live in [`crate::textio`]. `protocol.md` at the
//! repository root is its contract.

pub(crate) mod command;
mod input;
pub(crate) mod interpreter;
pub(crate) mod reply;
pub(crate) mod search;
pub(crate) mod session;
pub(crate) mod trust;
pub(crate) mod ugi;
pub use command::{parse_request, Command};
pub use input::{read_line, RawLine, MAX_LINE_BYTES};
pub use interpreter::{Exit, Interpreter, Options, Turn};
pub use reply::{info_line, stream_head, VERSION};
pub use session::{Session, Step};
pub use trust::Trust;

mod read_loop;
pub use read_loop::{read_ahead, run};
