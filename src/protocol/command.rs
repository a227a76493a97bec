//! The command grammar: one input line → an optional id and a [`Command`], or a [`CommandError`].
//! Only syntax is checked here; whether a command is allowed now is the session's business.

use std::path::PathBuf;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{all_consuming, map, opt, rest, value};
use nom::sequence::{preceded, terminated};
use nom::IResult;
use thiserror::Error;

use crate::engine::{Level, TieBreak};
use crate::notation::Style;
use crate::solver::MAX_THREADS;

/// Every command: its name, its arguments as `help` shows them, and what it does.
/// `help`, `list_commands` and usage errors all read this one table.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    (
        "new",
        "[WxH] [width W] [height H] [connect K] [players N] [tokens T] [early-draw on|off]",
        "start a new game; settings not given keep their current values",
    ),
    (
        "position",
        "startpos|fen <FEN> [moves <seq>]",
        "set the position, optionally followed by moves",
    ),
    ("moves", "<seq>", "play a sequence of columns, all or none"),
    ("play", "<column>", "play one column for the side to move"),
    ("undo", "[n]", "take back n moves (default 1), all or none"),
    (
        "status",
        "",
        "side to move, ply and result, with the winning line",
    ),
    ("show", "[grid|dots|letters|pipes|numbers]", "draw the board"),
    ("fen", "", "the position as FEN"),
    ("legal", "", "the columns that can be played"),
    ("names", "", "every player's token and name"),
    ("name", "<token> <name>", "set a player's name"),
    (
        "save",
        "<file>",
        "save the names and the position to a file",
    ),
    (
        "load",
        "<file>",
        "load names and a position saved with save",
    ),
    (
        "perft",
        "<depth>",
        "count the move sequences of a given length",
    ),
    ("solve", "[weak]", "the exact score for the side to move, in words, and every best column"),
    ("analyze", "", "the exact score of every column for the side to move"),
    ("go", "[random|lookahead <n> [left|right|random]|perfect] [depth <d>] [nodes <n>] [movetime <ms>]", "choose a move for the side to move"),
    ("genmove", "[same as go]", "choose a move as go does, and play it"),
    ("stop", "", "end the running search at once; it still replies"),
    ("hint", "", "the best column for the side to move, in words"),
    ("seed", "<n>", "seed the random choices of go, genmove and hint"),
    ("hash", "<MiB>", "the size of the solver's transposition table (2-8192 MiB)"),
    ("threads", "<n>", "threads per exact search, sharing the table (1-64)"),
    (
        "book",
        "[on|off|load <file>]",
        "the opening book of exact scores: show it, use the built-in one, none, or a file",
    ),
    ("help", "", "this list"),
    ("list_commands", "", "the command names, one per line"),
    ("protocol_version", "", "the protocol version"),
    ("quit", "", "end the session"),
];

/// The deepest look-ahead `go` accepts: deeper ones take hours on wide boards.
pub const MAX_GO_DEPTH: u32 = 12;

/// The longest `movetime` accepted: one day, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 86_400_000;

/// The smallest and largest transposition tables, in MiB.
pub const HASH_MIB: (u32, u32) = (2, 8192);

/// What `go` and `genmove` ask for: a level (by default perfect where the solver plays) and
/// bounds on the search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GoRequest {
    /// How to choose; `None` is perfect play.
    pub level: Option<Level>,
    /// For perfect play: search at most this many moves ahead.
    pub depth: Option<u32>,
    /// For perfect play: stop the exact search after this many positions.
    pub nodes: Option<u64>,
    /// For perfect play: stop the exact search after this many milliseconds.
    pub movetime: Option<u64>,
}

/// The deepest `perft` accepted: deeper counts take hours on the standard board.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// The most moves `undo` can take back at once (a 16x16 board holds 256 stones).
pub const MAX_UNDO: u32 = 256;

/// Where `position` starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// The empty board of the current variant.
    StartPos,
    /// A FEN, as written (validated by the session).
    Fen(String),
}

/// Settings for `new`; those left `None` keep their current values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewGame {
    /// Board width.
    pub width: Option<usize>,
    /// Board height.
    pub height: Option<usize>,
    /// Connect length.
    pub connect: Option<usize>,
    /// Number of players, with default tokens.
    pub players: Option<usize>,
    /// Tokens in turn order (sets the number of players).
    pub tokens: Option<Vec<char>>,
    /// Whether the early draw rule is on.
    pub early_draw: Option<bool>,
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
    /// `new ...`
    New(NewGame),
    /// `position startpos|fen <FEN> [moves <seq>]`
    Position {
        /// Where from.
        start: Start,
        /// Moves to play after it, as written.
        moves: Option<String>,
    },
    /// `moves <seq>`
    Moves(String),
    /// `play <column>`
    Play(String),
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
    /// `name <token> <name>`
    Name {
        /// The player's token.
        token: char,
        /// The new name.
        name: String,
    },
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
    /// `protocol_version`
    ProtocolVersion,
    /// `quit`
    Quit,
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
        /// What is wrong, e.g. `takes no arguments`.
        problem: String,
        /// The command with its arguments, from [`COMMANDS`].
        usage: String,
    },
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
    let parsed: IResult<&str, &str> = terminated(digit1, alt((space1, nom::combinator::eof)))(line);
    match parsed {
        Ok((body, digits)) => digits
            .parse::<u64>()
            .map(|id| (Some(id), body.trim_start()))
            .map_err(|_| CommandError::IdTooLarge(digits.to_string())),
        Err(_) => Ok((None, line)),
    }
}

fn usage_of(name: &str) -> String {
    COMMANDS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(n, args, _)| {
            if args.is_empty() {
                n.to_string()
            } else {
                format!("{n} {args}")
            }
        })
        .unwrap_or_default()
}

fn usage(name: &'static str, problem: impl Into<String>) -> CommandError {
    CommandError::Usage {
        name,
        problem: problem.into(),
        usage: usage_of(name),
    }
}

/// Parses the command word and its arguments.
fn parse_command(body: &str) -> Result<Command, CommandError> {
    let (word, args) = match body.split_once([' ', '\t']) {
        Some((w, a)) => (w, a.trim()),
        None => (body, ""),
    };
    let Some(&(name, _, _)) = COMMANDS.iter().find(|(n, _, _)| *n == word) else {
        return Err(CommandError::Unknown(word.to_string()));
    };
    let no_args = |command: Command| {
        if args.is_empty() {
            Ok(command)
        } else {
            Err(usage(name, format!("takes no arguments, got '{args}'")))
        }
    };
    match name {
        "new" => parse_new(args).map(Command::New),
        "position" => parse_position(args),
        "moves" => Ok(Command::Moves(args.to_string())),
        "play" => match args {
            "" => Err(usage(name, "needs a column")),
            a if a.contains([' ', '\t', ',']) => {
                Err(usage(name, format!("takes one column, got '{a}'")))
            }
            a => Ok(Command::Play(a.to_string())),
        },
        "undo" => match args {
            "" => Ok(Command::Undo(1)),
            a => bounded_number(name, "count", a, 1, MAX_UNDO).map(Command::Undo),
        },
        "status" => no_args(Command::Status),
        "show" => match args {
            "" => Ok(Command::Show(None)),
            a => Style::from_name(a)
                .map(|s| Command::Show(Some(s)))
                .ok_or_else(|| {
                    usage(
                        name,
                        format!("has no style '{a}'; styles: grid dots letters pipes numbers"),
                    )
                }),
        },
        "fen" => no_args(Command::Fen),
        "legal" => no_args(Command::Legal),
        "names" => no_args(Command::Names),
        "name" => parse_name(args),
        "save" | "load" if args.is_empty() => Err(usage(name, "needs a file name")),
        "save" => Ok(Command::Save(PathBuf::from(args))),
        "load" => Ok(Command::Load(PathBuf::from(args))),
        "perft" => match args {
            "" => Err(usage(name, "needs a depth")),
            a => bounded_number(name, "depth", a, 0, MAX_PERFT_DEPTH).map(Command::Perft),
        },
        "solve" => match args {
            "" => Ok(Command::Solve { weak: false }),
            "weak" => Ok(Command::Solve { weak: true }),
            a => Err(usage(name, format!("takes only 'weak', got '{a}'"))),
        },
        "analyze" => no_args(Command::Analyze),
        "go" => parse_go(name, args).map(Command::Go),
        "genmove" => parse_go(name, args).map(Command::Genmove),
        "stop" => no_args(Command::Stop),
        "hint" => no_args(Command::Hint),
        "seed" => match args {
            "" => Err(usage(name, "needs a number")),
            a => a
                .parse::<u64>()
                .ok()
                .filter(|_| a.bytes().all(|b| b.is_ascii_digit()))
                .map(Command::Seed)
                .ok_or_else(|| {
                    usage(
                        name,
                        format!("needs a number from 0 to {}, got '{a}'", u64::MAX),
                    )
                }),
        },
        "hash" => match args {
            "" => Err(usage(name, "needs a size in MiB")),
            a => bounded_number(name, "size", a, HASH_MIB.0, HASH_MIB.1).map(Command::Hash),
        },
        "threads" => match args {
            "" => Err(usage(name, "needs a number of threads")),
            a => bounded_number(name, "count", a, 1, MAX_THREADS as u32).map(Command::Threads),
        },
        "book" => match args.split_once([' ', '\t']) {
            _ if args.is_empty() => Ok(Command::Book(BookRequest::Show)),
            None if args == "on" => Ok(Command::Book(BookRequest::On)),
            None if args == "off" => Ok(Command::Book(BookRequest::Off)),
            None if args == "load" => Err(usage(name, "load needs a file name")),
            Some(("load", file)) => {
                Ok(Command::Book(BookRequest::Load(PathBuf::from(file.trim()))))
            }
            _ => Err(usage(
                name,
                format!("takes on, off or load <file>, got '{args}'"),
            )),
        },
        "help" => no_args(Command::Help),
        "list_commands" => no_args(Command::ListCommands),
        "protocol_version" => no_args(Command::ProtocolVersion),
        "quit" => no_args(Command::Quit),
        _ => unreachable!("every name in COMMANDS is matched above"),
    }
}

/// A whole decimal number from `min` to `max`.
fn bounded_number(
    name: &'static str,
    what: &str,
    text: &str,
    min: u32,
    max: u32,
) -> Result<u32, CommandError> {
    let parsed: IResult<&str, &str> = all_consuming(digit1)(text);
    let out_of_range = || {
        usage(
            name,
            format!("{what} must be from {min} to {max}, got {text}"),
        )
    };
    match parsed {
        Ok(_) => match text.parse::<u64>() {
            Ok(n) if (min as u64..=max as u64).contains(&n) => Ok(n as u32),
            _ => Err(out_of_range()),
        },
        Err(_)
            if text.starts_with('-')
                && text[1..].bytes().all(|b| b.is_ascii_digit())
                && text.len() > 1 =>
        {
            Err(out_of_range())
        }
        Err(_) => Err(usage(
            name,
            format!("{what} must be a number, got '{text}'"),
        )),
    }
}

/// `go`/`genmove` arguments: an optional level, then bounds, each at most once.
fn parse_go(name: &'static str, args: &str) -> Result<GoRequest, CommandError> {
    let mut request = GoRequest::default();
    let mut words = args.split_whitespace().peekable();
    let once = |seen: bool, what: &str| {
        if seen {
            Err(usage(name, format!("sets {what} twice")))
        } else {
            Ok(())
        }
    };
    while let Some(word) = words.next() {
        match word {
            "random" | "perfect" | "lookahead" => {
                once(request.level.is_some(), "the level")?;
                request.level = Some(match word {
                    "random" => Level::Random,
                    "perfect" => Level::Perfect,
                    _ => {
                        let plies = words
                            .next()
                            .ok_or_else(|| usage(name, "needs a depth after 'lookahead'"))?;
                        let plies =
                            bounded_number(name, "lookahead depth", plies, 1, MAX_GO_DEPTH)?;
                        let tie_break = match words.peek().and_then(|w| TieBreak::from_name(w)) {
                            Some(t) => {
                                words.next();
                                t
                            }
                            None => TieBreak::Left,
                        };
                        Level::Lookahead { plies, tie_break }
                    }
                });
            }
            "depth" => {
                once(request.depth.is_some(), "depth")?;
                let d = words.next().unwrap_or("");
                request.depth = Some(bounded_number(name, "depth", d, 1, MAX_GO_DEPTH)?);
            }
            "nodes" => {
                once(request.nodes.is_some(), "nodes")?;
                let n = words.next().unwrap_or("");
                request.nodes = Some(bounded_number(name, "nodes", n, 1, u32::MAX)? as u64);
            }
            "movetime" => {
                once(request.movetime.is_some(), "movetime")?;
                let t = words.next().unwrap_or("");
                request.movetime = Some(bounded_number(name, "movetime", t, 1, u32::MAX)? as u64);
            }
            other => return Err(usage(name, format!("has no option '{other}'"))),
        }
    }
    let bounded = request.depth.is_some() || request.nodes.is_some() || request.movetime.is_some();
    if bounded && !matches!(request.level, None | Some(Level::Perfect)) {
        return Err(usage(
            name,
            "takes depth, nodes and movetime only with perfect play",
        ));
    }
    if request.movetime.is_some_and(|t| t > MAX_MOVETIME_MS) {
        return Err(usage(
            name,
            format!("movetime must be at most {MAX_MOVETIME_MS} ms"),
        ));
    }
    Ok(request)
}

/// `position startpos [moves ...]` or `position fen <rows> <side> [moves ...]`.
fn parse_position(args: &str) -> Result<Command, CommandError> {
    let moves_clause = |input| -> IResult<&str, Option<&str>> {
        opt(preceded(
            terminated(tag("moves"), alt((space1, nom::combinator::eof))),
            rest,
        ))(input)
    };
    let startpos = preceded(
        terminated(tag("startpos"), space0),
        map(moves_clause, |m: Option<&str>| (Start::StartPos, m)),
    );
    let fen_body = take_while1(|c: char| c != ' ' && c != '\t');
    let fen = preceded(
        terminated(tag("fen"), space1),
        map(
            nom::sequence::tuple((&fen_body, space1, &fen_body, space0, moves_clause)),
            |(rows, _, side, _, m): (&str, &str, &str, &str, Option<&str>)| {
                (Start::Fen(format!("{rows} {side}")), m)
            },
        ),
    );
    let parsed: IResult<&str, (Start, Option<&str>)> = all_consuming(alt((startpos, fen)))(args);
    match parsed {
        Ok((_, (start, moves))) => Ok(Command::Position {
            start,
            moves: moves.map(|m| m.trim().to_string()),
        }),
        Err(_) => Err(usage(
            "position",
            match args.split_whitespace().next() {
                None => "needs startpos or fen".to_string(),
                Some("fen") => {
                    "needs a FEN of rows and a side to move, then optionally 'moves' and a sequence"
                        .to_string()
                }
                Some("startpos") => "takes only 'moves' and a sequence after startpos".to_string(),
                Some(other) => format!("starts from startpos or fen, not '{other}'"),
            },
        )),
    }
}

/// `name <token> <name...>`: the name is the rest of the line.
fn parse_name(args: &str) -> Result<Command, CommandError> {
    let parsed: IResult<&str, (char, &str)> =
        nom::sequence::separated_pair(nom::character::complete::anychar, space1, rest)(args);
    match parsed {
        Ok((_, (token, name))) if !name.trim().is_empty() => Ok(Command::Name {
            token,
            name: name.trim().to_string(),
        }),
        _ => Err(usage("name", "needs a player's token and a name")),
    }
}

/// `new` settings: any of `WxH`, `width W`, `height H`, `connect K`, `players N`, `tokens T`,
/// `early-draw on|off`, in any order, each at most once.
fn parse_new(args: &str) -> Result<NewGame, CommandError> {
    let mut settings = NewGame::default();
    let mut words = args.split_whitespace();
    let number = |key: &str, value: Option<&str>| -> Result<usize, CommandError> {
        let value = value.ok_or_else(|| usage("new", format!("needs a number after '{key}'")))?;
        let parsed: IResult<&str, &str> = all_consuming(digit1)(value);
        parsed
            .ok()
            .and_then(|_| value.parse::<usize>().ok())
            .ok_or_else(|| {
                usage(
                    "new",
                    format!("needs a number after '{key}', got '{value}'"),
                )
            })
    };
    fn set<T>(slot: &mut Option<T>, key: &str, value: T) -> Result<(), CommandError> {
        if slot.is_some() {
            return Err(usage("new", format!("sets {key} twice")));
        }
        *slot = Some(value);
        Ok(())
    }
    while let Some(key) = words.next() {
        match key {
            "width" => set(&mut settings.width, "width", number(key, words.next())?)?,
            "height" => set(&mut settings.height, "height", number(key, words.next())?)?,
            "connect" => set(&mut settings.connect, "connect", number(key, words.next())?)?,
            "players" => set(&mut settings.players, "players", number(key, words.next())?)?,
            "tokens" => {
                let value = words
                    .next()
                    .ok_or_else(|| usage("new", "needs tokens after 'tokens', e.g. tokens XYZ"))?;
                set(&mut settings.tokens, "tokens", value.chars().collect())?
            }
            "early-draw" => {
                let parsed: IResult<&str, bool> = all_consuming(alt((
                    value(true, tag("on")),
                    value(false, tag("off")),
                )))(words.next().unwrap_or(""));
                let on = parsed
                    .map(|(_, v)| v)
                    .map_err(|_| usage("new", "needs on or off after 'early-draw'"))?;
                set(&mut settings.early_draw, "early-draw", on)?
            }
            size => {
                let parsed: IResult<&str, (&str, char, &str)> =
                    all_consuming(nom::sequence::tuple((digit1, char('x'), digit1)))(size);
                let Ok((_, (w, _, h))) = parsed else {
                    return Err(usage("new", format!("has no setting '{size}'")));
                };
                let w = number("width", Some(w))?;
                let h = number("height", Some(h))?;
                set(&mut settings.width, "width", w)?;
                set(&mut settings.height, "height", h)?;
            }
        }
    }
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Result<Command, CommandError> {
        parse_request(line).command
    }

    #[test]
    fn ids_are_split_off_and_echoed() {
        let r = parse_request("12 status");
        assert_eq!(r.id, Some(12));
        assert_eq!(r.command, Ok(Command::Status));
        assert_eq!(parse_request("status").id, None);
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
            command("book load").unwrap_err().to_string(),
            "book load needs a file name; usage: book [on|off|load <file>]"
        );
        assert_eq!(
            command("book maybe").unwrap_err().to_string(),
            "book takes on, off or load <file>, got 'maybe'; usage: book [on|off|load <file>]"
        );
        assert!(command("book on off").is_err());
    }

    #[test]
    fn simple_commands_refuse_arguments() {
        assert_eq!(command("fen"), Ok(Command::Fen));
        let e = command("fen now").unwrap_err();
        assert_eq!(
            e.to_string(),
            "fen takes no arguments, got 'now'; usage: fen"
        );
    }

    #[test]
    fn unknown_commands_are_named() {
        assert_eq!(
            command("jump 3").unwrap_err().to_string(),
            "unknown command 'jump'; 'help' lists the commands"
        );
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            command("position startpos"),
            Ok(Command::Position {
                start: Start::StartPos,
                moves: None
            })
        );
        assert_eq!(
            command("position startpos moves 4453"),
            Ok(Command::Position {
                start: Start::StartPos,
                moves: Some("4453".into())
            })
        );
        assert_eq!(
            command("position fen 7/7/7/7/7/7 x moves 10 11"),
            Ok(Command::Position {
                start: Start::Fen("7/7/7/7/7/7 x".into()),
                moves: Some("10 11".into())
            })
        );
        assert_eq!(
            command("position fen 7/7/7/7/7/7   x"),
            Ok(Command::Position {
                start: Start::Fen("7/7/7/7/7/7 x".into()),
                moves: None
            })
        );
        assert!(command("position fen 7/7/7/7/7/7").is_err());
        assert!(command("position startpos 44").is_err());
        assert!(command("position").is_err());
    }

    #[test]
    fn numbers_are_bounded() {
        assert_eq!(command("undo"), Ok(Command::Undo(1)));
        assert_eq!(command("undo 3"), Ok(Command::Undo(3)));
        assert_eq!(
            command("undo 0").unwrap_err().to_string(),
            "undo count must be from 1 to 256, got 0; usage: undo [n]"
        );
        assert!(command("undo -1")
            .unwrap_err()
            .to_string()
            .contains("must be from 1 to 256, got -1"));
        assert!(command("perft 99999999999999999999999")
            .unwrap_err()
            .to_string()
            .contains("from 0 to 12"));
        assert!(command("perft x")
            .unwrap_err()
            .to_string()
            .contains("must be a number, got 'x'"));
    }

    #[test]
    fn new_settings() {
        assert_eq!(
            command("new 9x6 connect 5 tokens XYZ early-draw off"),
            Ok(Command::New(NewGame {
                width: Some(9),
                height: Some(6),
                connect: Some(5),
                tokens: Some(vec!['X', 'Y', 'Z']),
                early_draw: Some(false),
                players: None,
            }))
        );
        assert_eq!(command("new"), Ok(Command::New(NewGame::default())));
        assert!(command("new width 8 width 9")
            .unwrap_err()
            .to_string()
            .contains("sets width twice"));
        assert!(command("new colour red")
            .unwrap_err()
            .to_string()
            .contains("has no setting 'colour'"));
        assert!(command("new width")
            .unwrap_err()
            .to_string()
            .contains("needs a number after 'width'"));
    }

    #[test]
    fn show_styles_and_names() {
        assert_eq!(command("show dots"), Ok(Command::Show(Some(Style::Dots))));
        assert!(command("show fancy").is_err());
        assert_eq!(
            command("name x Ada Lovelace"),
            Ok(Command::Name {
                token: 'x',
                name: "Ada Lovelace".into()
            })
        );
        assert!(command("name x").is_err());
    }

    #[test]
    fn go_levels_and_bounds() {
        assert_eq!(command("go"), Ok(Command::Go(GoRequest::default())));
        assert_eq!(
            command("go lookahead 4 right"),
            Ok(Command::Go(GoRequest {
                level: Some(Level::Lookahead {
                    plies: 4,
                    tie_break: TieBreak::Right
                }),
                ..GoRequest::default()
            }))
        );
        assert_eq!(
            command("genmove perfect movetime 500 nodes 1000"),
            Ok(Command::Genmove(GoRequest {
                level: Some(Level::Perfect),
                movetime: Some(500),
                nodes: Some(1000),
                depth: None,
            }))
        );
        assert!(command("go random depth 3")
            .unwrap_err()
            .to_string()
            .contains("only with perfect play"));
        assert!(command("go lookahead")
            .unwrap_err()
            .to_string()
            .contains("needs a depth"));
        assert!(command("go lookahead 99")
            .unwrap_err()
            .to_string()
            .contains("from 1 to 12"));
        assert!(command("go random perfect")
            .unwrap_err()
            .to_string()
            .contains("sets the level twice"));
        assert!(command("go fast")
            .unwrap_err()
            .to_string()
            .contains("has no option 'fast'"));
        assert!(command("go movetime 999999999")
            .unwrap_err()
            .to_string()
            .contains("at most 86400000"));
    }

    #[test]
    fn play_takes_one_column() {
        assert_eq!(command("play 4"), Ok(Command::Play("4".into())));
        assert!(command("play").is_err());
        assert!(command("play 4 5").is_err());
    }
}
