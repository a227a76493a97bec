//! The commands of the protocol as values: [`Command`] and what its variants carry.

use std::path::PathBuf;

use crate::engine::{Level, TieBreak};
use crate::notation::{Fen, MoveText, Settings, Style};
use crate::resources::ThreadCount;
use crate::solver::TableSize;

/// The deepest look-ahead `go` accepts, and its deepest `depth`: the engine's
/// [`MAX_LOOKAHEAD`](crate::engine::MAX_LOOKAHEAD), since deeper ones take hours on wide boards.
pub(crate) const MAX_GO_DEPTH: u32 = crate::engine::MAX_LOOKAHEAD;

/// The longest `movetime` accepted: one day, in milliseconds.
pub(crate) const MAX_MOVETIME_MS: u64 = 86_400_000;

/// The most positions `nodes` accepts.
pub(crate) const MAX_NODES: u64 = u32::MAX as u64;

/// The deepest `perft` accepted: deeper counts take hours on the standard board.
pub(crate) const MAX_PERFT_DEPTH: u32 = 12;

/// The most moves `undo` can take back at once (a 16x16 board holds 256 stones).
pub(crate) const MAX_UNDO: u32 = 256;

/// Bounds on a `go`: `depth` and `nodes` bound perfect play only, `movetime` every level; those
/// left `None` do not bound it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bounds {
    /// Search exactly only when the game cannot last more than this many moves; otherwise look
    /// this many moves ahead with the heuristic.
    pub depth: Option<u32>,
    /// Stop the exact search after this many positions.
    pub nodes: Option<u64>,
    /// Answer within this many milliseconds.
    pub movetime: Option<u64>,
}

impl Bounds {
    /// Whether no bound is set.
    pub fn is_none(&self) -> bool {
        *self == Bounds::default()
    }
}

/// What `go` and `genmove` ask for: how to choose, and its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoRequest {
    /// Perfect play (the default): the solver where it plays, else the heuristic search.
    Perfect(Bounds),
    /// Uniformly among the legal columns.
    Random {
        /// Answer within this many milliseconds.
        movetime: Option<u64>,
    },
    /// Look `plies` moves ahead telling only wins from losses; ties broken by `tie_break`.
    Lookahead {
        /// Moves to look ahead (1-12).
        plies: u32,
        /// How to choose among equal columns.
        tie_break: TieBreak,
        /// Answer within this many milliseconds.
        movetime: Option<u64>,
    },
}

impl Default for GoRequest {
    fn default() -> Self {
        GoRequest::Perfect(Bounds::default())
    }
}

impl GoRequest {
    /// The request to choose at `level` within `bounds`; the levels other than perfect play
    /// take only its `movetime`. (Perfect play with a `depth` becomes [`Level::Heuristic`] when
    /// it searches, so that level is asked for as perfect play.)
    pub fn at(level: Level, bounds: Bounds) -> GoRequest {
        let movetime = bounds.movetime;
        match level {
            Level::Perfect | Level::Heuristic { .. } => GoRequest::Perfect(bounds),
            Level::Random => GoRequest::Random { movetime },
            Level::Lookahead { plies, tie_break } => GoRequest::Lookahead {
                plies,
                tie_break,
                movetime,
            },
        }
    }

    /// The engine's level for this request.
    pub fn level(&self) -> Level {
        match *self {
            GoRequest::Perfect(_) => Level::Perfect,
            GoRequest::Random { .. } => Level::Random,
            GoRequest::Lookahead {
                plies, tie_break, ..
            } => Level::Lookahead { plies, tie_break },
        }
    }

    /// The bounds: perfect play's, or the other levels' `movetime` alone.
    pub fn bounds(&self) -> Bounds {
        match *self {
            GoRequest::Perfect(bounds) => bounds,
            GoRequest::Random { movetime } | GoRequest::Lookahead { movetime, .. } => Bounds {
                movetime,
                ..Bounds::default()
            },
        }
    }
}

/// The time between two `info` lines of `analyze stream` when `interval` does not say, in ms.
pub(crate) const DEFAULT_INTERVAL_MS: u64 = 1000;

/// What `analyze stream` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamRequest {
    /// Milliseconds between two `info` lines (besides those written when a score is proven).
    pub interval: u64,
    /// Stop the exact search after this many positions.
    pub nodes: Option<u64>,
}

impl Default for StreamRequest {
    fn default() -> Self {
        StreamRequest {
            interval: DEFAULT_INTERVAL_MS,
            nodes: None,
        }
    }
}

/// Where `position` starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// The empty board of the current variant.
    StartPos,
    /// A FEN, its syntax read; whether it is a position of the game is the session's business.
    Fen(Fen),
}

/// What `book` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookRequest {
    /// `book`: which book is in use.
    Show,
    /// `book on`: the book built into c4.
    On,
    /// `book off`: no book, every score searched.
    Off,
    /// `book load <file>`: a book file made by `c4 book`.
    Load(PathBuf),
}

/// A command, well formed but not yet checked against the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `new [settings]`: the settings given, syntax read; whether they make a game is the
    /// session's business.
    New(Settings),
    /// `position startpos|fen <FEN> [moves <seq>]`
    Position {
        /// Where from.
        start: Start,
        /// Moves to play after it.
        moves: Option<MoveText>,
    },
    /// `moves <seq>`
    Moves(MoveText),
    /// `play <column>`: a 1-based column number, not yet checked against the board.
    Play(u64),
    /// `undo [n]`
    Undo(u32),
    /// `status`
    Status,
    /// `show [style]`
    Show(Option<Style>),
    /// `fen`
    Fen,
    /// `legal`
    Legal,
    /// `names`
    Names,
    /// `name` alone: the engine's name.
    EngineName,
    /// `name <token> <name>`: a player's name.
    SetName {
        /// The player's token.
        token: char,
        /// The new name.
        name: String,
    },
    /// `version`
    Version,
    /// `save <file>`
    Save(PathBuf),
    /// `load <file>`
    Load(PathBuf),
    /// `perft <depth>`
    Perft(u32),
    /// `solve [weak]`
    Solve {
        /// Only win, draw or loss.
        weak: bool,
    },
    /// `analyze`
    Analyze,
    /// `analyze stream [interval <ms>] [nodes <n>]`
    AnalyzeStream(StreamRequest),
    /// `go ...`
    Go(GoRequest),
    /// `genmove ...`
    Genmove(GoRequest),
    /// `stop`
    Stop,
    /// `hint`
    Hint,
    /// `seed <n>`
    Seed(u64),
    /// `hash <MiB>`
    Hash(TableSize),
    /// `threads <n>`
    Threads(ThreadCount),
    /// `book [on|off|load <file>]`
    Book(BookRequest),
    /// `help`
    Help,
    /// `list_commands`
    ListCommands,
    /// `known_command <name>`
    KnownCommand(String),
    /// `protocol_version`
    ProtocolVersion,
    /// `quit`
    Quit,
}
