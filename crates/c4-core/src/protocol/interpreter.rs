//! The protocol's answer to each line, without I/O: what the [`Driver`](super::Driver) does
//! with a line once it is whole, under the stdio loop and the WebAssembly build alike.

use thiserror::Error;

use super::command::{parse_request, CommandError, Request};
use super::input::{line_text, LineError, RawLine};
use super::reply::{frame, Response};
use super::search::{Finished, Search};
use super::session::{Flow, Session, SessionError, Step};
use super::trust::Trust;
use super::ugi;
use crate::rules::Variant;

/// Why a line was answered with `?`: the line itself, its command, or what the command asked
/// of the session. Its text is the reply's.
#[derive(Debug, Error)]
pub(crate) enum ReplyError {
    /// The line was refused whole (too long, not UTF-8, a character one line cannot hold).
    #[error(transparent)]
    Line(#[from] LineError),
    /// The command could not be read.
    #[error(transparent)]
    Command(#[from] CommandError),
    /// The session could not do what the command asked.
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// How the interpreter behaves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Stop at the first command that fails.
    pub strict: bool,
    /// What the client may do.
    pub trust: Trust,
}

/// Why the interpreter stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// `quit` was given.
    Quit,
    /// The input ended.
    EndOfInput,
    /// In strict mode, a command failed.
    Failed,
}

/// A session, and what the loop around it needs to know between lines.
pub struct Interpreter {
    session: Session,
    options: Options,
    /// Whether the loop has threads: then `ugi` as the first line switches to the UGI dialect
    /// (whose loop runs a search on a thread while it reads), and the session's tables are
    /// warmed by a thread off the clock ([`Session::keep_tables_warm`]).
    threaded: bool,
    /// Whether a line that gets a reply has come yet.
    started: bool,
}

/// What to do with a line.
pub enum Turn {
    /// Nothing: a blank or comment line.
    Silent,
    /// `ugi` was the first line: the rest of the input is in the UGI dialect ([`ugi::run`]).
    Ugi,
    /// Write this reply.
    Reply(Answer),
    /// Run this search (its command's id beside it), then answer with
    /// [`Interpreter::finish`]; a streaming one ([`Search::is_stream`]) writes
    /// `stream_head` first and is ended with [`Interpreter::end_stream`].
    Search(Option<u64>, Box<Search>),
}

/// A framed reply, and whether the interpreter stops after writing it.
pub struct Answer {
    /// The reply as written: marker, id, text and the empty line.
    pub framed: String,
    /// `Some` when this reply is the last: `quit`, or in strict mode a failure.
    pub exit: Option<Exit>,
}

impl Interpreter {
    /// For a loop with threads (the stdio loop).
    pub(crate) fn threaded(options: Options) -> Interpreter {
        Interpreter::new(options, true)
    }

    /// For a loop without threads (the WebAssembly build): `ugi` is an unknown command there,
    /// as it is anywhere but on the first line, and tables are not warmed.
    pub fn single_threaded(options: Options) -> Interpreter {
        Interpreter::new(options, false)
    }

    fn new(options: Options, threaded: bool) -> Interpreter {
        Interpreter {
            session: Session::with_trust(Variant::default(), options.trust),
            options,
            threaded,
            started: false,
        }
    }

    /// What to do with `line`.
    pub fn answer(&mut self, line: &RawLine) -> Turn {
        let text = match line_text(line) {
            Ok(None) => return Turn::Silent,
            Ok(Some(text)) => text,
            Err(message) => {
                self.started = true;
                return Turn::Reply(self.framed(None, Err(message.into()), Flow::Continue));
            }
        };
        let first = !self.started;
        self.started = true;
        if first && self.threaded {
            if ugi::is_greeting(text) {
                return Turn::Ugi;
            }
            // Not UGI: this session answers the searches, so its table is warmed now.
            self.session.keep_tables_warm();
        }
        let Request { id, command } = parse_request(text);
        match command.map(|c| self.session.execute(c)) {
            Err(e) => Turn::Reply(self.framed(id, Err(e.into()), Flow::Continue)),
            Ok(Step::Reply(result, flow)) => {
                Turn::Reply(self.framed(id, result.map_err(ReplyError::from), flow))
            }
            Ok(Step::Search(search)) => Turn::Search(id, search),
        }
    }

    /// The reply to a search that has run.
    pub fn finish(&mut self, id: Option<u64>, finished: Finished) -> Answer {
        let reply = self.session.finish(finished).map_err(ReplyError::from);
        self.framed(id, reply, Flow::Continue)
    }

    /// Takes back what a streaming analysis borrowed; its `info` lines are its reply.
    pub fn end_stream(&mut self, finished: Finished) {
        self.session.end_stream(finished);
    }

    fn framed(&self, id: Option<u64>, reply: Result<Response, ReplyError>, flow: Flow) -> Answer {
        let exit = match (flow, &reply) {
            (Flow::Quit, _) => Some(Exit::Quit),
            (Flow::Continue, Err(_)) if self.options.strict => Some(Exit::Failed),
            (Flow::Continue, _) => None,
        };
        Answer {
            framed: frame(id, &reply),
            exit,
        }
    }
}
