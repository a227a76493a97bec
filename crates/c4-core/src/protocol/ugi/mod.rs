//! The UGI dialect (the Universal Game Interface of the `cutegames` match runner), beside the
//! protocol: `c4 ugi`, or `ugi` as the protocol's first line. It owns the dialect's line loop
//! and how a `go` runs while input is read: the search (the protocol's [`Search`], a `go` or a
//! streaming analysis) runs on a thread of its own and writes its `info` and `bestmove` lines,
//! while this thread reads on, answers `isready` at once and stops the search on `stop`. (The
//! protocol runs a search on the interpreter's thread and reads ahead only the one line that
//! may stop it; UGI must answer every `isready` during a search, so here the reader stays on
//! this thread and the search moves, and the protocol's [`Driver`], built for a reader that
//! hands over one line during a search, is not used.) Lines are read and cleaned as the
//! protocol's are; the grammar is [`command`], the state [`session`], the replies [`reply`].
//! `protocol.md` ("The UGI dialect") is its contract.
//!
//! [`Search`]: crate::protocol::Search
//! [`Driver`]: crate::protocol::Driver

pub(crate) mod budget;
pub(crate) mod command;
pub(crate) mod reply;
pub(crate) mod session;
pub use command::{parse_ugi, UgiCommand};

mod ugi_loop;
pub use ugi_loop::{command_of, run, Opening};
pub(crate) use ugi_loop::{is_greeting, End};
