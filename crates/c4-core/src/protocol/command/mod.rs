//! The command grammar: one input line → an optional id and a typed [`Command`], or a
//! [`CommandError`] that names the word at fault and what was expected there. `commands.rs` holds
//! the commands and what they ask for; the grammar is split by role:
//!
//! - `verbs.rs`, the verb table: every verb is one row, its name, its arguments as `help` shows
//!   them, what it does, and the nom parser of its arguments. `help`, `list_commands` and
//!   `known_command` read the same table, so a verb cannot be listed without being parsed or
//!   parsed without being listed.
//! - `line.rs`, the line's grammar `[id] verb args`: the verb picks the row, and after it the
//!   row's parser is `cut`, so that an error is about the arguments, and must consume the whole
//!   line.
//! - `args.rs` and `go.rs`, the arguments' grammars and the readers they (and the UGI dialect's)
//!   are built from.
//! - `display.rs`, each command written back as a line that parses to it.
//!
//! Only syntax is checked here; move sequences, FEN and game settings are read by their own
//! grammars in [`crate::notation`], and whether a command is allowed now is the session's
//! business.

mod args;
mod display;
mod go;
mod line;
#[cfg(test)]
mod test_lines;
mod verbs;
pub(crate) use args::Problem;
pub(super) use args::{arg, keyword, no_such_option, number, position_spec, resource, Args};
pub(super) use display::write_position;
pub(super) use go::level_failure;
pub use line::parse_request;
pub(super) use line::whole_arguments;
pub(crate) use line::{CommandError, Request};
pub(crate) use verbs::{is_known, verbs};

mod commands;
pub use commands::Command;
pub(crate) use commands::{
    BookRequest, Bounds, GoRequest, Start, StreamRequest, DEFAULT_INTERVAL_MS, MAX_GO_DEPTH,
    MAX_MOVETIME_MS, MAX_NODES, MAX_PERFT_DEPTH, MAX_UNDO,
};
