//! The command grammar: one input line → an optional id and a typed [`Command`], or a
//! [`CommandError`] that names the word at fault and what was expected there.
//!
//! Every verb is one row of [`verbs`]: its name, its arguments as `help` shows them, what it does,
//! and the nom parser of its arguments. The line's grammar is `[id] verb args`: the verb picks the
//! row, and after it the row's parser is `cut`, so that an error is about the arguments, and must
//! consume the whole line. `help`, `list_commands` and `known_command` read the same table, so a
//! verb cannot be listed without being parsed or parsed without being listed.
//!
//! Only syntax is checked here; move sequences and FEN are read by their own grammars in
//! [`crate::notation`], and whether a command is allowed now is the session's business.

use std::fmt;
use std::path::PathBuf;
use std::sync::LazyLock;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{all_consuming, cut, eof, opt, rest, success};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::Parser;
use thiserror::Error;

use crate::engine::{self, Level, LevelError, Separator, TieBreak};
use crate::notation::fen::fen;
use crate::notation::grammar::{fail, is_blank, whole_number, word, Failure, Parsed, WholeNumber};
use crate::notation::settings::settings;
use crate::notation::{
    parse_column, Fen, FenSyntaxError, MoveText, MovesError, SettingError, Settings, Style,
};
use crate::solver::MAX_THREADS;

/// The deepest look-ahead `go` accepts: deeper ones take hours on wide boards.
pub const MAX_GO_DEPTH: u32 = 12;

/// The longest `movetime` accepted: one day, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 86_400_000;

/// The most positions `nodes` accepts.
pub const MAX_NODES: u64 = u32::MAX as u64;

/// The smallest and largest transposition tables, in MiB.
pub const HASH_MIB: (u32, u32) = (2, 8192);

/// The deepest `perft` accepted: deeper counts take hours on the standard board.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// The most moves `undo` can take back at once (a 16x16 board holds 256 stones).
pub const MAX_UNDO: u32 = 256;

/// Bounds on perfect play's exact search; those left `None` do not bound it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bounds {
    /// Search exactly only when the game cannot last more than this many moves; otherwise look
    /// this many moves ahead with the heuristic.
    pub depth: Option<u32>,
    /// Stop the exact search after this many positions.
    pub nodes: Option<u64>,
    /// Stop the exact search after this many milliseconds.
    pub movetime: Option<u64>,
}

impl Bounds {
    /// Whether no bound is set.
    pub fn is_none(&self) -> bool {
        *self == Bounds::default()
    }
}

/// What `go` and `genmove` ask for: how to choose, and for perfect play its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoRequest {
    /// Perfect play (the default): the solver where it plays, else the heuristic search.
    Perfect(Bounds),
    /// Uniformly among the legal columns.
    Random,
    /// Look `plies` moves ahead telling only wins from losses; ties broken by `tie_break`.
    Lookahead {
        /// Moves to look ahead (1-12).
        plies: u32,
        /// How to choose among equal columns.
        tie_break: TieBreak,
    },
}

impl Default for GoRequest {
    fn default() -> Self {
        GoRequest::Perfect(Bounds::default())
    }
}

impl GoRequest {
    /// The engine's level for this request.
    pub fn level(&self) -> Level {
        match *self {
            GoRequest::Perfect(_) => Level::Perfect,
            GoRequest::Random => Level::Random,
            GoRequest::Lookahead { plies, tie_break } => Level::Lookahead { plies, tie_break },
        }
    }

    /// The bounds of perfect play; none for the other levels.
    pub fn bounds(&self) -> Bounds {
        match *self {
            GoRequest::Perfect(bounds) => bounds,
            _ => Bounds::default(),
        }
    }
}

/// The time between two `info` lines of `analyze stream` when `interval` does not say, in ms.
pub const DEFAULT_INTERVAL_MS: u64 = 1000;

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
    Hash(u32),
    /// `threads <n>`
    Threads(u32),
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

/// What is wrong with a command's arguments: the word at fault and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    /// The line ended where an argument was needed.
    #[error("needs {0}")]
    Missing(&'static str),
    /// A word that is not what the grammar expects at its place.
    #[error("expected {expected}, got '{got}'")]
    Expected {
        /// What the grammar expects, in words.
        expected: String,
        /// The word found.
        got: String,
    },
    /// A word that should be a number.
    #[error("{what} must be a number, got '{got}'")]
    NotANumber {
        /// The argument, e.g. `count`.
        what: &'static str,
        /// The word found.
        got: String,
    },
    /// A number outside the range the argument takes.
    #[error("{what} must be from {min} to {max}, got {got}")]
    OutOfRange {
        /// The argument, e.g. `count`.
        what: &'static str,
        /// The smallest value taken.
        min: u64,
        /// The largest value taken.
        max: u64,
        /// The number as written.
        got: String,
    },
    /// Arguments after a verb that takes none.
    #[error("takes no arguments, got '{0}'")]
    NoArguments(String),
    /// Words after the arguments are complete.
    #[error("expected the end of the line, got '{0}'")]
    Extra(String),
    /// A setting or option given twice.
    #[error("sets {0} twice")]
    Twice(&'static str),
    /// A word naming none of the verb's settings, options or styles.
    #[error("has no {kind} '{got}'{more}")]
    NoSuch {
        /// `setting`, `option`, `style`.
        kind: &'static str,
        /// The word found.
        got: String,
        /// What there is, if the message lists it (`; styles: grid dots`), else empty.
        more: String,
    },
    /// Arguments that do not go together.
    #[error("{0}")]
    Combination(&'static str),
    /// A `new` setting that is not well formed: reported in the settings' own words.
    #[error("{0}")]
    Setting(SettingError),
    /// A FEN whose syntax is wrong: reported in the FEN's own words.
    #[error("{0}")]
    Fen(FenSyntaxError),
    /// A move sequence whose syntax is wrong: reported in its own words.
    #[error("{0}")]
    Moves(MovesError),
}

/// A command line that is not well formed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommandError {
    /// The first word names no command.
    #[error("unknown command '{0}'; 'help' lists the commands")]
    Unknown(String),
    /// The arguments do not fit the command.
    #[error("{name} {problem}; usage: {usage}")]
    Usage {
        /// The command.
        name: &'static str,
        /// What is wrong.
        problem: Problem,
        /// The command with its arguments, from [`verbs`].
        usage: String,
    },
    /// A FEN argument that is not a FEN.
    #[error("{0}")]
    Fen(FenSyntaxError),
    /// A move-sequence argument that is not a move sequence.
    #[error("{0}")]
    Moves(MovesError),
    /// An id that is not a number that fits.
    #[error("id {0} is too large (at most {max})", max = u64::MAX)]
    IdTooLarge(String),
    /// The line has an id and nothing else.
    #[error("the line has an id but no command")]
    MissingCommand,
}

/// A parsed line: the id to echo, and the command or why it is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The numeric id written before the command, if any.
    pub id: Option<u64>,
    /// The command, or what was wrong with it.
    pub command: Result<Command, CommandError>,
}

/// What an argument parser returns.
pub(super) type Args<'a, T> = Parsed<'a, T, Problem>;

/// One verb of the protocol: how `help` shows it and how its arguments are read.
pub struct Verb {
    /// The command word.
    pub name: &'static str,
    /// Its arguments, as `help` and usage errors show them; empty for none.
    pub args: String,
    /// What it does, for `help`.
    pub about: &'static str,
    /// The nom parser of its arguments (the line after the verb), giving the command.
    parse: for<'a> fn(&'a str) -> Args<'a, Command>,
}

impl Verb {
    /// `name args`, or the name alone.
    pub fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }
}

/// Every verb, in the order `help` and `list_commands` give them.
pub fn verbs() -> &'static [Verb] {
    &VERBS
}

/// Whether `name` is a command of the protocol.
pub fn is_known(name: &str) -> bool {
    verbs().iter().any(|verb| verb.name == name)
}

static VERBS: LazyLock<Vec<Verb>> = LazyLock::new(|| {
    fn verb(
        name: &'static str,
        args: &str,
        about: &'static str,
        parse: for<'a> fn(&'a str) -> Args<'a, Command>,
    ) -> Verb {
        Verb {
            name,
            args: args.to_string(),
            about,
            parse,
        }
    }
    let styles: Vec<&str> = Style::ALL.iter().map(|s| s.name()).collect();
    vec![
        verb(
            "new",
            "[WxH] [width W] [height H] [connect K] [players N] [tokens T] [early-draw on|off]",
            "start a new game; settings not given keep their current values",
            new_args,
        ),
        verb(
            "position",
            "startpos|fen <FEN> [moves <seq>]",
            "set the position, optionally followed by moves",
            position_args,
        ),
        verb(
            "moves",
            "<seq>",
            "play a sequence of columns, all or none",
            |i| move_text.map(Command::Moves).parse(i),
        ),
        verb(
            "play",
            "<column>",
            "play one column for the side to move",
            |i| arg("a column", column).map(Command::Play).parse(i),
        ),
        verb(
            "undo",
            "[n]",
            "take back n moves (default 1), all or none",
            |i| {
                opt(arg("a count", number("count", 1, MAX_UNDO.into())))
                    .map(|n| Command::Undo(n.map_or(1, |n| n as u32)))
                    .parse(i)
            },
        ),
        verb(
            "status",
            "",
            "side to move, ply and result, with the winning line",
            |i| success(Command::Status).parse(i),
        ),
        verb(
            "show",
            &format!("[{}]", styles.join("|")),
            "draw the board",
            |i| opt(arg("a style", style)).map(Command::Show).parse(i),
        ),
        verb("fen", "", "the position as FEN", |i| {
            success(Command::Fen).parse(i)
        }),
        verb("legal", "", "the columns that can be played", |i| {
            success(Command::Legal).parse(i)
        }),
        verb("names", "", "every player's token and name", |i| {
            success(Command::Names).parse(i)
        }),
        verb(
            "name",
            "[<token> <name>]",
            "the engine's name; with a token and a name, set that player's name",
            name_args,
        ),
        verb("version", "", "the engine's version", |i| {
            success(Command::Version).parse(i)
        }),
        verb(
            "save",
            "<file>",
            "save the names and the position to a file",
            |i| file_name.map(Command::Save).parse(i),
        ),
        verb(
            "load",
            "<file>",
            "load names and a position saved with save",
            |i| file_name.map(Command::Load).parse(i),
        ),
        verb(
            "perft",
            "<depth>",
            "count the move sequences of a given length",
            |i| {
                arg("a depth", number("depth", 0, MAX_PERFT_DEPTH.into()))
                    .map(|n| Command::Perft(n as u32))
                    .parse(i)
            },
        ),
        verb(
            "solve",
            "[weak]",
            "the exact score for the side to move, in words, and every best column",
            |i| {
                opt(arg("'weak'", keyword("'weak'", "weak")))
                    .map(|weak| Command::Solve {
                        weak: weak.is_some(),
                    })
                    .parse(i)
            },
        ),
        verb(
            "analyze",
            "[stream [interval <ms>] [nodes <n>]]",
            "the exact score of every column for the side to move; with stream, info lines until the next command",
            analyze_args,
        ),
        verb(
            "go",
            "[random|lookahead <n> [left|right|random]|perfect] [depth <d>] [nodes <n>] [movetime <ms>]",
            "choose a move for the side to move",
            |i| go_args.map(Command::Go).parse(i),
        ),
        verb(
            "genmove",
            "[same as go]",
            "choose a move as go does, and play it",
            |i| go_args.map(Command::Genmove).parse(i),
        ),
        verb(
            "stop",
            "",
            "end the running search at once; it still replies",
            |i| success(Command::Stop).parse(i),
        ),
        verb(
            "hint",
            "",
            "the best column for the side to move, in words",
            |i| success(Command::Hint).parse(i),
        ),
        verb(
            "seed",
            "<n>",
            "seed the random choices of go, genmove and hint",
            |i| arg("a number", seed).map(Command::Seed).parse(i),
        ),
        verb(
            "hash",
            "<MiB>",
            "the size of the solver's transposition table (2-8192 MiB)",
            |i| {
                arg(
                    "a size in MiB",
                    number("size", HASH_MIB.0.into(), HASH_MIB.1.into()),
                )
                .map(|n| Command::Hash(n as u32))
                .parse(i)
            },
        ),
        verb(
            "threads",
            "<n>",
            "threads per exact search, sharing the table (1-64)",
            |i| {
                arg("a number of threads", number("count", 1, MAX_THREADS as u64))
                    .map(|n| Command::Threads(n as u32))
                    .parse(i)
            },
        ),
        verb(
            "book",
            "[on|off|load <file>]",
            "the opening book of exact scores: show it, use the built-in one, none, or a file",
            |i| book_args.map(Command::Book).parse(i),
        ),
        verb("help", "", "this list", |i| success(Command::Help).parse(i)),
        verb(
            "list_commands",
            "",
            "the command names, one per line",
            |i| success(Command::ListCommands).parse(i),
        ),
        verb(
            "known_command",
            "<name>",
            "true if the protocol has a command of that name, else false",
            known_command_args,
        ),
        verb("protocol_version", "", "the protocol version", |i| {
            success(Command::ProtocolVersion).parse(i)
        }),
        verb("quit", "", "end the session", |i| {
            success(Command::Quit).parse(i)
        }),
    ]
});

/// Parses one line (without its line ending, comments already removed, not blank).
pub fn parse_request(line: &str) -> Request {
    let line = line.trim();
    let (id, body) = match split_id(line) {
        Ok(split) => split,
        Err(e) => {
            return Request {
                id: None,
                command: Err(e),
            }
        }
    };
    let command = if body.is_empty() {
        Err(CommandError::MissingCommand)
    } else {
        parse_command(body)
    };
    Request { id, command }
}

/// Splits a leading numeric id (digits followed by a space or the end) from the rest.
fn split_id(line: &str) -> Result<(Option<u64>, &str), CommandError> {
    let parsed: nom::IResult<&str, &str> = terminated(digit1, alt((space1, eof))).parse(line);
    match parsed {
        Ok((body, digits)) => digits
            .parse::<u64>()
            .map(|id| (Some(id), body.trim_start()))
            .map_err(|_| CommandError::IdTooLarge(digits.to_string())),
        Err(_) => Ok((None, line)),
    }
}

/// Parses the verb and, `cut` after it, its arguments, all of the line.
fn parse_command(body: &str) -> Result<Command, CommandError> {
    let split: nom::IResult<&str, &str> = take_till1(is_blank).parse(body);
    let Ok((args, name)) = split else {
        return Err(CommandError::MissingCommand);
    };
    let Some(verb) = verbs().iter().find(|verb| verb.name == name) else {
        return Err(CommandError::Unknown(name.to_string()));
    };
    let usage = |problem| CommandError::Usage {
        name: verb.name,
        problem,
        usage: verb.usage(),
    };
    whole_arguments(args, !verb.args.is_empty(), verb.parse).map_err(|problem| match problem {
        Problem::Fen(e) => CommandError::Fen(e),
        Problem::Moves(e) => CommandError::Moves(e),
        problem => usage(problem),
    })
}

/// Runs a verb's argument parser, `cut`, over all of `args` (the line after the verb): the value,
/// or the problem. Words left over are [`Problem::Extra`], or [`Problem::NoArguments`] for a verb
/// that `takes_arguments` not.
pub(super) fn whole_arguments<'a, T>(
    args: &'a str,
    takes_arguments: bool,
    parse: impl Parser<&'a str, Output = T, Error = Failure<'a, Problem>>,
) -> Result<T, Problem> {
    match all_consuming(terminated(cut(parse), space0)).parse(args) {
        Ok((_, value)) => Ok(value),
        Err(
            nom::Err::Error(Failure { at, problem }) | nom::Err::Failure(Failure { at, problem }),
        ) => {
            Err(match problem {
                Some(problem) => problem,
                // Only `all_consuming` fails without a problem: words were left over.
                None if !takes_arguments => Problem::NoArguments(at.trim().to_string()),
                None => Problem::Extra(at.trim().to_string()),
            })
        }
        Err(nom::Err::Incomplete(_)) => Err(Problem::Extra(args.trim().to_string())),
    }
}

/// One argument: the next word, read whole by `read`. No word fails softly (so that `opt` can
/// skip an optional argument) with [`Problem::Missing`]; a word `read` refuses fails the parse.
pub(super) fn arg<'a, T>(
    missing: &'static str,
    read: impl Fn(&'a str) -> Result<T, Problem>,
) -> impl Parser<&'a str, Output = T, Error = Failure<'a, Problem>> {
    move |input: &'a str| -> Args<'a, T> {
        let Ok((rest, found)) = word::<Problem>(input) else {
            return Err(nom::Err::Error(Failure {
                at: input,
                problem: Some(Problem::Missing(missing)),
            }));
        };
        match read(found) {
            Ok(value) => Ok((rest, value)),
            Err(problem) => fail(found, problem),
        }
    }
}

/// Reads a whole decimal number from `min` to `max`; a minus sign makes it out of range.
pub(super) fn number(
    what: &'static str,
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<u64, Problem> {
    move |text: &str| {
        let numeric: nom::IResult<&str, _> = all_consuming((opt(char('-')), digit1)).parse(text);
        match (numeric, text.parse::<u64>()) {
            (Ok(_), Ok(n)) if (min..=max).contains(&n) => Ok(n),
            (Ok(_), _) => Err(Problem::OutOfRange {
                what,
                min,
                max,
                got: text.to_string(),
            }),
            (Err(_), _) => Err(Problem::NotANumber {
                what,
                got: text.to_string(),
            }),
        }
    }
}

/// Reads exactly the word `name`, as `expected` says it.
pub(super) fn keyword(
    expected: &'static str,
    name: &'static str,
) -> impl Fn(&str) -> Result<(), Problem> {
    move |text: &str| {
        let read: nom::IResult<&str, &str> = all_consuming(tag(name)).parse(text);
        read.map(|_| ()).map_err(|_| Problem::Expected {
            expected: expected.to_string(),
            got: text.to_string(),
        })
    }
}

/// A column: a number or a letter, not yet checked against the board.
fn column(text: &str) -> Result<u64, Problem> {
    parse_column(text).map_err(|e| match e {
        MovesError::NumberTooLarge(_) => Problem::Moves(e),
        _ => Problem::Expected {
            expected: "a column number or letter".to_string(),
            got: text.to_string(),
        },
    })
}

/// A board style by name.
fn style(text: &str) -> Result<Style, Problem> {
    Style::from_name(text).ok_or_else(|| Problem::NoSuch {
        kind: "style",
        got: text.to_string(),
        more: format!("; styles: {}", Style::ALL.map(Style::name).join(" ")),
    })
}

/// A seed: any number that fits 64 bits.
fn seed(text: &str) -> Result<u64, Problem> {
    match whole_number(text) {
        WholeNumber::Value(seed) => Ok(seed),
        WholeNumber::TooLarge | WholeNumber::NotANumber => Err(Problem::Expected {
            expected: format!("a number from 0 to {}", u64::MAX),
            got: text.to_string(),
        }),
    }
}

/// The rest of the line as a file name (it may hold spaces).
fn file_name(input: &str) -> Args<'_, PathBuf> {
    let (left, name) = preceded(space0, rest).parse(input)?;
    match name.trim_end() {
        "" => fail(input, Problem::Missing("a file name")),
        name => Ok((left, PathBuf::from(name))),
    }
}

/// The rest of the line as a move sequence.
fn move_text(input: &str) -> Args<'_, MoveText> {
    let (left, text) = rest(input)?;
    let text = text.trim();
    match MoveText::parse(text) {
        Ok(moves) => Ok((left, moves)),
        Err(e) => fail(text, Problem::Moves(e)),
    }
}

/// `book` arguments: nothing (which book is in use), `on`, `off`, or `load` and a file name (the
/// rest of the line).
fn book_args(input: &str) -> Args<'_, BookRequest> {
    let expected = "on, off or load <file>";
    let (rest, choice) = opt(arg(expected, |w: &str| Ok(w))).parse(input)?;
    match choice {
        None => Ok((rest, BookRequest::Show)),
        Some("on") => Ok((rest, BookRequest::On)),
        Some("off") => Ok((rest, BookRequest::Off)),
        Some("load") if rest.trim().is_empty() => {
            fail(rest, Problem::Missing("a file name after 'load'"))
        }
        Some("load") => file_name.map(BookRequest::Load).parse(rest),
        Some(other) => fail(
            other,
            Problem::Expected {
                expected: expected.to_string(),
                got: other.to_string(),
            },
        ),
    }
}

/// `position` arguments: `startpos` or `fen <FEN>`, then optionally `moves <seq>`.
fn position_args(input: &str) -> Args<'_, Command> {
    position_spec
        .map(|(start, moves)| Command::Position { start, moves })
        .parse(input)
}

/// Where a position starts and the moves after it: `startpos` or `fen <FEN>`, then optionally
/// `moves <seq>` (the arguments of `position`, in this protocol and in UGI).
pub(super) fn position_spec(input: &str) -> Args<'_, (Start, Option<MoveText>)> {
    let (rest, first) = arg("startpos or fen", |w: &str| Ok(w)).parse(input)?;
    let (rest, start) = match first {
        "startpos" => (rest, Start::StartPos),
        "fen" => {
            let (rest, _) = space0(rest)?;
            if rest.is_empty() {
                return fail(rest, Problem::Missing("a FEN after 'fen'"));
            }
            match fen(rest) {
                Ok((rest, fen)) => (rest, Start::Fen(fen)),
                Err(nom::Err::Error(f) | nom::Err::Failure(f)) => {
                    let problem = f.problem.unwrap_or(FenSyntaxError::NoSideToMove);
                    return fail(f.at, Problem::Fen(problem));
                }
                Err(nom::Err::Incomplete(_)) => {
                    return fail(rest, Problem::Fen(FenSyntaxError::NoSideToMove))
                }
            }
        }
        other => {
            return fail(
                first,
                Problem::Expected {
                    expected: "startpos or fen".to_string(),
                    got: other.to_string(),
                },
            )
        }
    };
    let (rest, moves) = opt(preceded(
        arg(
            "'moves'",
            keyword("'moves' or the end of the line", "moves"),
        ),
        move_text,
    ))
    .parse(rest)?;
    Ok((rest, (start, moves)))
}

/// `known_command <name>`: the rest of the line, whatever it is (a name with a space in it is
/// simply not a command), so that the answer is `true` or `false` and never a failure.
fn known_command_args(input: &str) -> Args<'_, Command> {
    match input.trim() {
        "" => fail(input, Problem::Missing("a command name")),
        name => Ok(("", Command::KnownCommand(name.to_string()))),
    }
}

/// `name` alone, or `name <token> <name>` with the name the rest of the line.
fn name_args(input: &str) -> Args<'_, Command> {
    if input.trim().is_empty() {
        return Ok((input, Command::EngineName));
    }
    let token = |text: &str| {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(Problem::Expected {
                expected: "a player's token (one character)".to_string(),
                got: text.to_string(),
            }),
        }
    };
    let (rest, token) = arg("a player's token", token).parse(input)?;
    match rest.trim() {
        "" => fail(rest, Problem::Missing("a name after the token")),
        name => Ok((
            "",
            Command::SetName {
                token,
                name: name.to_string(),
            },
        )),
    }
}

/// `analyze`, or `analyze stream` with its interval and node limit, each at most once, in any
/// order.
fn analyze_args(input: &str) -> Args<'_, Command> {
    let (rest, stream) = opt(arg("'stream'", keyword("'stream'", "stream"))).parse(input)?;
    if stream.is_none() {
        return Ok((rest, Command::Analyze));
    }
    let (rest, parts) = many0(stream_part).parse(rest)?;
    let (mut interval, mut nodes) = (None, None);
    for part in parts {
        let (slot, name, value) = match part {
            StreamPart::Interval(ms) => (&mut interval, "interval", ms),
            StreamPart::Nodes(n) => (&mut nodes, "nodes", n),
        };
        if slot.is_some() {
            return fail(input, Problem::Twice(name));
        }
        *slot = Some(value);
    }
    let request = StreamRequest {
        interval: interval.unwrap_or(DEFAULT_INTERVAL_MS),
        nodes,
    };
    Ok((rest, Command::AnalyzeStream(request)))
}

/// One option of `analyze stream`.
#[derive(Debug, Clone, Copy)]
enum StreamPart {
    Interval(u64),
    Nodes(u64),
}

/// Fails at `at`: `other` is no option of the command.
pub(super) fn no_such_option<'a, T>(at: &'a str, other: &str) -> Args<'a, T> {
    fail(
        at,
        Problem::NoSuch {
            kind: "option",
            got: other.to_string(),
            more: String::new(),
        },
    )
}

/// One `analyze stream` option and its number.
fn stream_part(input: &str) -> Args<'_, StreamPart> {
    let (rest, option) = word(input)?;
    let value = |missing, what, max| cut(arg(missing, number(what, 1, max)));
    match option {
        "interval" => value("a time in ms after 'interval'", "interval", MAX_MOVETIME_MS)
            .map(StreamPart::Interval)
            .parse(rest),
        "nodes" => value("a number after 'nodes'", "nodes", MAX_NODES)
            .map(StreamPart::Nodes)
            .parse(rest),
        other => no_such_option(option, other),
    }
}

/// A level grammar's failure in the words of every other argument error.
pub(super) fn level_failure(failure: Failure<'_, LevelError>) -> Failure<'_, Problem> {
    let problem = failure.problem.map(|e| match e {
        LevelError::MissingDepth => Problem::Missing("a depth after 'lookahead'"),
        LevelError::DepthNotANumber(got) => Problem::NotANumber {
            what: "lookahead depth",
            got,
        },
        LevelError::DepthOutOfRange { got, max } => Problem::OutOfRange {
            what: "lookahead depth",
            min: 1,
            max: max.into(),
            got,
        },
        LevelError::Unknown(got) => Problem::Expected {
            expected: "a level".to_string(),
            got,
        },
    });
    Failure {
        at: failure.at,
        problem,
    }
}

/// One part of the `go` arguments.
#[derive(Debug, Clone, Copy)]
enum GoPart {
    Level(GoRequest),
    Depth(u32),
    Nodes(u64),
    Movetime(u64),
}

/// One `go` option: a level (with its own arguments) or a bound with its number. A word that is
/// none of them fails the parse.
fn go_part(input: &str) -> Args<'_, GoPart> {
    let (rest, option) = word(input)?;
    // After an option's name its value is due: `cut`, so that `many0` does not stop quietly.
    let bound = |missing, what, max| cut(arg(missing, number(what, 1, max)));
    match option {
        "perfect" | "random" | "lookahead" => {
            let (rest, level) = engine::level(Separator::Blank, MAX_GO_DEPTH)
                .parse(input)
                .map_err(|e| e.map(level_failure))?;
            let request = match level {
                Level::Lookahead { plies, tie_break } => GoRequest::Lookahead { plies, tie_break },
                Level::Random => GoRequest::Random,
                Level::Perfect | Level::Heuristic { .. } => GoRequest::default(),
            };
            Ok((rest, GoPart::Level(request)))
        }
        "depth" => bound("a depth after 'depth'", "depth", MAX_GO_DEPTH.into())
            .map(|d| GoPart::Depth(d as u32))
            .parse(rest),
        "nodes" => bound("a number after 'nodes'", "nodes", MAX_NODES)
            .map(GoPart::Nodes)
            .parse(rest),
        "movetime" => bound("a time in ms after 'movetime'", "movetime", MAX_MOVETIME_MS)
            .map(GoPart::Movetime)
            .parse(rest),
        other => no_such_option(option, other),
    }
}

/// `go`/`genmove` arguments: an optional level, then bounds, each at most once, in any order;
/// bounds only with perfect play.
fn go_args(input: &str) -> Args<'_, GoRequest> {
    let (rest, parts) = many0(go_part).parse(input)?;
    let mut level: Option<GoRequest> = None;
    let mut bounds = Bounds::default();
    for part in parts {
        let twice = |what| fail(input, Problem::Twice(what));
        match part {
            GoPart::Level(_) if level.is_some() => return twice("the level"),
            GoPart::Level(l) => level = Some(l),
            GoPart::Depth(_) if bounds.depth.is_some() => return twice("depth"),
            GoPart::Depth(d) => bounds.depth = Some(d),
            GoPart::Nodes(_) if bounds.nodes.is_some() => return twice("nodes"),
            GoPart::Nodes(n) => bounds.nodes = Some(n),
            GoPart::Movetime(_) if bounds.movetime.is_some() => return twice("movetime"),
            GoPart::Movetime(t) => bounds.movetime = Some(t),
        }
    }
    match level.unwrap_or_default() {
        GoRequest::Perfect(_) => Ok((rest, GoRequest::Perfect(bounds))),
        _ if !bounds.is_none() => fail(
            input,
            Problem::Combination("takes depth, nodes and movetime only with perfect play"),
        ),
        other => Ok((rest, other)),
    }
}

/// `new` arguments: the settings grammar's, in its own words.
fn new_args(input: &str) -> Args<'_, Command> {
    let (rest, new) = settings(input).map_err(|e| {
        e.map(|failure| Failure {
            at: failure.at,
            problem: failure.problem.map(Problem::Setting),
        })
    })?;
    Ok((rest, Command::New(new)))
}

impl fmt::Display for Bounds {
    /// `depth D nodes N movetime MS`, the bounds that are set, each after a space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(t) = self.movetime {
            write!(f, " movetime {t}")?;
        }
        Ok(())
    }
}

impl fmt::Display for GoRequest {
    /// The arguments as `go` reads them, each after a space; nothing for plain perfect play.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoRequest::Perfect(bounds) => write!(f, "{bounds}"),
            GoRequest::Random => f.write_str(" random"),
            GoRequest::Lookahead { plies, tie_break } => {
                write!(f, " lookahead {plies} {}", tie_break.name())
            }
        }
    }
}

/// `position startpos|fen FEN [moves SEQ]`, as [`position_spec`] reads it after the verb.
pub(super) fn write_position(
    f: &mut fmt::Formatter<'_>,
    start: &Start,
    moves: Option<&MoveText>,
) -> fmt::Result {
    match start {
        Start::StartPos => f.write_str("position startpos")?,
        Start::Fen(fen) => write!(f, "position fen {fen}")?,
    }
    match moves {
        Some(moves) => write!(f, " moves {moves}"),
        None => Ok(()),
    }
}

impl fmt::Display for Command {
    /// The command as a line that parses back to it (without an id).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::New(settings) if settings.is_empty() => f.write_str("new"),
            Command::New(settings) => write!(f, "new {settings}"),
            Command::Position { start, moves } => write_position(f, start, moves.as_ref()),
            Command::Moves(moves) => write!(f, "moves {moves}"),
            Command::Play(column) => write!(f, "play {column}"),
            Command::Undo(n) => write!(f, "undo {n}"),
            Command::Status => f.write_str("status"),
            Command::Show(None) => f.write_str("show"),
            Command::Show(Some(style)) => write!(f, "show {}", style.name()),
            Command::Fen => f.write_str("fen"),
            Command::Legal => f.write_str("legal"),
            Command::Names => f.write_str("names"),
            Command::EngineName => f.write_str("name"),
            Command::SetName { token, name } => write!(f, "name {token} {name}"),
            Command::Version => f.write_str("version"),
            Command::Save(path) => write!(f, "save {}", path.display()),
            Command::Load(path) => write!(f, "load {}", path.display()),
            Command::Perft(depth) => write!(f, "perft {depth}"),
            Command::Solve { weak: false } => f.write_str("solve"),
            Command::Solve { weak: true } => f.write_str("solve weak"),
            Command::Analyze => f.write_str("analyze"),
            Command::AnalyzeStream(request) => {
                write!(f, "analyze stream interval {}", request.interval)?;
                match request.nodes {
                    Some(n) => write!(f, " nodes {n}"),
                    None => Ok(()),
                }
            }
            Command::Go(request) => write!(f, "go{request}"),
            Command::Genmove(request) => write!(f, "genmove{request}"),
            Command::Stop => f.write_str("stop"),
            Command::Hint => f.write_str("hint"),
            Command::Seed(seed) => write!(f, "seed {seed}"),
            Command::Hash(mib) => write!(f, "hash {mib}"),
            Command::Threads(n) => write!(f, "threads {n}"),
            Command::Book(BookRequest::Show) => f.write_str("book"),
            Command::Book(BookRequest::On) => f.write_str("book on"),
            Command::Book(BookRequest::Off) => f.write_str("book off"),
            Command::Book(BookRequest::Load(path)) => write!(f, "book load {}", path.display()),
            Command::Help => f.write_str("help"),
            Command::ListCommands => f.write_str("list_commands"),
            Command::KnownCommand(name) => write!(f, "known_command {name}"),
            Command::ProtocolVersion => f.write_str("protocol_version"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Result<Command, CommandError> {
        parse_request(line).command
    }

    fn message(line: &str) -> String {
        command(line).unwrap_err().to_string()
    }

    /// Lines that parse, at least one per verb; each must read back from its display.
    const SAMPLES: &[&str] = &[
        "new",
        "new 9x6 connect 5 tokens XYZ early-draw off",
        "new width 8 height 7 players 3",
        "position startpos",
        "position startpos moves 4453",
        "position startpos moves",
        "position fen 2x1oo1/2x4/7/7/7/7 x moves 10 11",
        "position fen 07/7/7/7/7/7   x",
        "moves DD,EC",
        "moves",
        "play 4",
        "play d",
        "undo",
        "undo 3",
        "status",
        "show",
        "show dots",
        "fen",
        "legal",
        "names",
        "name",
        "name x Ada Lovelace",
        "version",
        "save my game.txt",
        "load game.txt",
        "perft 5",
        "solve",
        "solve weak",
        "analyze",
        "analyze stream",
        "analyze stream nodes 5000 interval 250",
        "go",
        "go perfect depth 3 nodes 1000 movetime 500",
        "go random",
        "go lookahead 4 right",
        "genmove lookahead 3",
        "stop",
        "hint",
        "seed 18446744073709551615",
        "hash 16",
        "threads 2",
        "book",
        "book on",
        "book off",
        "book load my book.bin",
        "help",
        "list_commands",
        "known_command play",
        "known_command xyzzy",
        "known_command two words",
        "protocol_version",
        "quit",
    ];

    #[test]
    fn every_command_reads_back_from_its_display() {
        for line in SAMPLES {
            let parsed = command(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let written = parsed.to_string();
            assert_eq!(command(&written), Ok(parsed), "{line} -> {written}");
        }
    }

    #[test]
    fn every_verb_has_a_sample_and_is_listed_once() {
        for verb in verbs() {
            assert!(
                SAMPLES
                    .iter()
                    .any(|line| line.split(' ').next() == Some(verb.name)),
                "no sample for {}",
                verb.name
            );
            assert_eq!(
                verbs().iter().filter(|v| v.name == verb.name).count(),
                1,
                "{}",
                verb.name
            );
        }
        for line in SAMPLES {
            let written = command(line).unwrap().to_string();
            let name = written.split(' ').next().unwrap();
            assert!(is_known(name), "{line} displays as unknown verb {name}");
        }
        assert!(!is_known("jump"));
    }

    #[test]
    fn ids_are_split_off_and_echoed() {
        let r = parse_request("12 status");
        assert_eq!(r.id, Some(12));
        assert_eq!(r.command, Ok(Command::Status));
        assert_eq!(parse_request("status").id, None);
        // An id is a number, as protocol.md says: leading zeros are not part of it.
        assert_eq!(parse_request("007 status").id, Some(7));
        assert_eq!(
            parse_request("7").command,
            Err(CommandError::MissingCommand)
        );
        assert_eq!(
            parse_request("99999999999999999999 status").command,
            Err(CommandError::IdTooLarge("99999999999999999999".into()))
        );
    }

    #[test]
    fn simple_commands_refuse_arguments() {
        assert_eq!(command("fen"), Ok(Command::Fen));
        assert_eq!(
            message("fen now"),
            "fen takes no arguments, got 'now'; usage: fen"
        );
        assert_eq!(
            message("status  a b"),
            "status takes no arguments, got 'a b'; usage: status"
        );
    }

    #[test]
    fn unknown_commands_are_named() {
        assert_eq!(
            message("jump 3"),
            "unknown command 'jump'; 'help' lists the commands"
        );
        assert_eq!(
            message("PLAY 4"),
            "unknown command 'PLAY'; 'help' lists the commands"
        );
    }

    #[test]
    fn errors_name_the_word_and_what_was_expected() {
        let cases = [
            (
                "play 4x",
                "play expected a column number or letter, got '4x'; usage: play <column>",
            ),
            ("play", "play needs a column; usage: play <column>"),
            (
                "play 4 5",
                "play expected the end of the line, got '5'; usage: play <column>",
            ),
            (
                "play 99999999999999999999",
                "column number 99999999999999999999 is too large",
            ),
            (
                "undo 0",
                "undo count must be from 1 to 256, got 0; usage: undo [n]",
            ),
            (
                "undo -1",
                "undo count must be from 1 to 256, got -1; usage: undo [n]",
            ),
            (
                "undo x",
                "undo count must be a number, got 'x'; usage: undo [n]",
            ),
            (
                "solve strong",
                "solve expected 'weak', got 'strong'; usage: solve [weak]",
            ),
            (
                "show fancy",
                "show has no style 'fancy'; styles: grid dots letters pipes numbers; usage: show [grid|dots|letters|pipes|numbers]",
            ),
            (
                "name xy Bob",
                "name expected a player's token (one character), got 'xy'; usage: name [<token> <name>]",
            ),
            (
                "name x",
                "name needs a name after the token; usage: name [<token> <name>]",
            ),
            (
                "known_command",
                "known_command needs a command name; usage: known_command <name>",
            ),
            (
                "position",
                "position needs startpos or fen; usage: position startpos|fen <FEN> [moves <seq>]",
            ),
            (
                "position middle",
                "position expected startpos or fen, got 'middle'; usage: position startpos|fen <FEN> [moves <seq>]",
            ),
            (
                "position startpos 44",
                "position expected 'moves' or the end of the line, got '44'; usage: position startpos|fen <FEN> [moves <seq>]",
            ),
            ("save", "save needs a file name; usage: save <file>"),
            ("seed", "seed needs a number; usage: seed <n>"),
        ];
        for (line, expected) in cases {
            assert_eq!(message(line), expected, "{line}");
        }
    }

    #[test]
    fn fen_and_move_errors_are_the_notations_own() {
        assert_eq!(
            command("position fen 7/7/7/7/7/7"),
            Err(CommandError::Fen(FenSyntaxError::NoSideToMove))
        );
        assert_eq!(
            command("position fen 7/7/7/7/7/7 xo"),
            Err(CommandError::Fen(FenSyntaxError::ExtraText("o".into())))
        );
        assert_eq!(
            command("position fen 7/8 x"),
            Err(CommandError::Fen(FenSyntaxError::RaggedRow {
                row: 2,
                cells: 8,
                expected: 7
            }))
        );
        assert_eq!(
            command("moves 4D"),
            Err(CommandError::Moves(MovesError::MixedItem("4D".into())))
        );
        assert_eq!(
            command("position startpos moves 4?"),
            Err(CommandError::Moves(MovesError::NotAColumn('?')))
        );
    }

    #[test]
    fn typed_values() {
        assert_eq!(command("play d"), Ok(Command::Play(4)));
        assert_eq!(command("undo"), Ok(Command::Undo(1)));
        assert_eq!(command("show dots"), Ok(Command::Show(Some(Style::Dots))));
        assert_eq!(command("name"), Ok(Command::EngineName));
        assert_eq!(
            command("name x Ada Lovelace"),
            Ok(Command::SetName {
                token: 'x',
                name: "Ada Lovelace".into()
            })
        );
        assert_eq!(
            command("position fen 7/7/7/7/7/7 x moves 4"),
            Ok(Command::Position {
                start: Start::Fen(Fen::parse("7/7/7/7/7/7 x").unwrap()),
                moves: Some(MoveText::parse("4").unwrap()),
            })
        );
        assert_eq!(
            command("new 9x6 connect 5 tokens XYZ early-draw off"),
            Ok(Command::New(Settings {
                width: Some(9),
                height: Some(6),
                connect: Some(5),
                tokens: Some(vec!['X', 'Y', 'Z']),
                early_draw: Some(false),
                players: None,
            }))
        );
    }

    #[test]
    fn new_settings_are_checked() {
        assert!(message("new width 8 width 9").contains("sets width twice"));
        assert!(message("new 8x7 width 9").contains("sets width twice"));
        assert!(message("new colour red").contains("has no setting 'colour'"));
        assert!(message("new width").contains("needs a number after 'width'"));
        assert!(message("new early-draw").contains("needs on or off after 'early-draw'"));
        assert!(message("new width x").contains("expected a number after 'width', got 'x'"));
    }

    #[test]
    fn new_numbers_too_large_for_any_range_say_the_range() {
        let huge = "99999999999999999999999";
        for (setting, range) in [
            ("width", "a board width must be from 1 to 16"),
            ("height", "a board height must be from 1 to 16"),
            ("connect", "the connect length must be from 2 to 16"),
            ("players", "the number of players must be from 2 to 8"),
        ] {
            let said = message(&format!("new {setting} {huge}"));
            assert!(said.contains(&format!("{range}, got {huge}")), "{said}");
        }
        assert!(message(&format!("new {huge}x6")).contains("a board width must be from 1 to 16"));
        assert!(message(&format!("new 7x{huge}")).contains("a board height must be from 1 to 16"));
    }

    #[test]
    fn go_levels_and_bounds() {
        assert_eq!(command("go"), Ok(Command::Go(GoRequest::default())));
        assert_eq!(
            command("go lookahead 4 right"),
            Ok(Command::Go(GoRequest::Lookahead {
                plies: 4,
                tie_break: TieBreak::Right
            }))
        );
        assert_eq!(
            command("go lookahead 4 depth 2"),
            Err(CommandError::Usage {
                name: "go",
                problem: Problem::Combination(
                    "takes depth, nodes and movetime only with perfect play"
                ),
                usage: verbs().iter().find(|v| v.name == "go").unwrap().usage(),
            })
        );
        assert_eq!(
            command("genmove movetime 500 perfect nodes 1000"),
            Ok(Command::Genmove(GoRequest::Perfect(Bounds {
                movetime: Some(500),
                nodes: Some(1000),
                depth: None,
            })))
        );
        assert!(message("go random depth 3").contains("only with perfect play"));
        assert!(message("go lookahead").contains("needs a depth after 'lookahead'"));
        assert!(message("go lookahead 99").contains("from 1 to 12"));
        assert!(message("go random perfect").contains("sets the level twice"));
        assert!(message("go nodes 5 nodes 6").contains("sets nodes twice"));
        assert!(message("go fast").contains("has no option 'fast'"));
        assert!(message("go depth").contains("needs a depth after 'depth'"));
        assert!(message("go movetime 999999999").contains("from 1 to 86400000"));
    }

    #[test]
    fn book_takes_on_off_or_a_file() {
        assert_eq!(command("book"), Ok(Command::Book(BookRequest::Show)));
        assert_eq!(command("book on"), Ok(Command::Book(BookRequest::On)));
        assert_eq!(command("book off"), Ok(Command::Book(BookRequest::Off)));
        assert_eq!(
            command("book load my book.bin"),
            Ok(Command::Book(BookRequest::Load(PathBuf::from(
                "my book.bin"
            ))))
        );
        assert_eq!(
            message("book load"),
            "book needs a file name after 'load'; usage: book [on|off|load <file>]"
        );
        assert_eq!(
            message("book maybe"),
            "book expected on, off or load <file>, got 'maybe'; usage: book [on|off|load <file>]"
        );
        assert_eq!(
            message("book on off"),
            "book expected the end of the line, got 'off'; usage: book [on|off|load <file>]"
        );
    }

    #[test]
    fn analyze_streams_with_an_interval_and_a_node_limit() {
        assert_eq!(command("analyze"), Ok(Command::Analyze));
        assert_eq!(
            command("analyze stream"),
            Ok(Command::AnalyzeStream(StreamRequest::default()))
        );
        assert_eq!(
            command("analyze stream nodes 5000 interval 250"),
            Ok(Command::AnalyzeStream(StreamRequest {
                interval: 250,
                nodes: Some(5000)
            }))
        );
        assert!(message("analyze deep").contains("expected 'stream', got 'deep'"));
        assert!(message("analyze stream interval").contains("needs a time in ms after 'interval'"));
        assert!(message("analyze stream interval 0")
            .contains("interval must be from 1 to 86400000, got 0"));
        assert!(message("analyze stream nodes 1 nodes 2").contains("sets nodes twice"));
        assert!(message("analyze stream fast").contains("has no option 'fast'"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Any line parses or fails with a message, never a panic; what parses reads back.
        #[test]
        fn any_line_parses_or_fails_and_reads_back(
            verb in proptest::sample::select(verbs().iter().map(|v| v.name).collect::<Vec<_>>()),
            args in "[ a-z0-9x/,.-]{0,24}",
        ) {
            let line = format!("{verb} {args}");
            if let Ok(parsed) = command(&line) {
                proptest::prop_assert_eq!(command(&parsed.to_string()), Ok(parsed));
            }
        }
    }
}
