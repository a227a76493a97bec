//! The UGI dialect's grammar: one input line → a typed [`UgiCommand`], or a [`UgiError`] that
//! names the word at fault and what was expected there. The verbs are UGI's; their arguments
//! reuse the protocol's word parsers, its `position` grammar (FEN and move sequences) and the
//! engine's level grammar, each run over the whole line. Only syntax is checked here: whether a
//! position can be set is the session's business.

use std::fmt;

use nom::bytes::complete::take_till1;
use nom::combinator::verify;
use nom::multi::many1;
use nom::Parser;
use thiserror::Error;

use crate::engine::{self, level_words, Level, Separator};
use crate::notation::grammar::{fail, is_blank, word};
use crate::notation::{FenSyntaxError, MoveText, MovesError};
use crate::protocol::command::{
    arg, keyword, level_failure, no_such_option, number, position_spec, resource, whole_arguments,
    write_position, Args, Bounds, Problem, Start, MAX_GO_DEPTH, MAX_MOVETIME_MS, MAX_NODES,
};
use crate::resources::ResourceError;
use crate::resources::ThreadCount;
use crate::solver::TableSize;

/// The largest clock time or increment `go` accepts, in milliseconds (about 49 days).
pub(crate) const MAX_CLOCK_MS: u64 = u32::MAX as u64;

/// A line of the UGI dialect, well formed but not yet checked against the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UgiCommand {
    /// `ugi`: the engine's name, author and options, then `ugiok`.
    Ugi,
    /// `isready`: `readyok`.
    IsReady,
    /// `setoption name NAME value VALUE`
    SetOption(EngineOption),
    /// `uginewgame`: forget the game, back to the empty board.
    NewGame,
    /// `position startpos|fen FEN [moves SEQ]`
    Position {
        /// Where from.
        start: Start,
        /// Moves to play after it.
        moves: Option<MoveText>,
    },
    /// `query p1turn|gameover|result`
    Query(Query),
    /// `go ...`
    Go(GoLimits),
    /// `stop`
    Stop,
    /// `quit`
    Quit,
}

/// An option `setoption` sets, with its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineOption {
    /// `level`: how `go` chooses (the words of the protocol's `go` levels).
    Level(Level),
    /// `hash`: the transposition table's size in MiB.
    Hash(TableSize),
    /// `threads`: threads per exact search.
    Threads(ThreadCount),
    /// `book`: whether the built-in opening book is consulted.
    Book(bool),
}

impl EngineOption {
    /// Every option's name, as `ugi` declares them.
    pub const NAMES: [&'static str; 4] = ["level", "hash", "threads", "book"];
}

/// What `query` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// Whether the first player is to move.
    P1Turn,
    /// Whether the game is over.
    GameOver,
    /// The game's result so far.
    Result,
}

impl Query {
    /// The word `query` takes.
    pub fn name(self) -> &'static str {
        match self {
            Query::P1Turn => "p1turn",
            Query::GameOver => "gameover",
            Query::Result => "result",
        }
    }
}

/// The two players' clocks, in milliseconds; those not given are `None`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, first player then second (`p1time`, `p2time`).
    pub time: [Option<u64>; 2],
    /// Increment per move, first player then second (`p1inc`, `p2inc`).
    pub inc: [Option<u64>; 2],
}

/// What `go` asks for: clocks, bounds, and whether to search until `stop`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// The players' clocks.
    pub clock: Clock,
    /// `depth`, `nodes` and `movetime` (the whole time for this move), as the protocol's `go`
    /// reads them.
    pub bounds: Bounds,
    /// Search until `stop`, and only then send `bestmove`.
    pub infinite: bool,
}

/// A UGI line that is not well formed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UgiError {
    /// The first word names no command.
    #[error("unknown command '{0}'; expected one of: {list}", list = verb_list())]
    Unknown(String),
    /// The arguments do not fit the command.
    #[error("{name} {problem}")]
    Usage {
        /// The command.
        name: &'static str,
        /// What is wrong.
        problem: Problem,
    },
    /// A FEN argument that is not a FEN.
    #[error("{0}")]
    Fen(FenSyntaxError),
    /// A move-sequence argument that is not a move sequence.
    #[error("{0}")]
    Moves(MovesError),
    /// A table size or thread count that is not one, in the words every front end uses.
    #[error("{0}")]
    Resource(ResourceError),
}

/// One UGI verb: its name, whether it takes arguments, and the parser of its arguments.
struct UgiVerb {
    name: &'static str,
    takes_arguments: bool,
    parse: for<'a> fn(&'a str) -> Args<'a, UgiCommand>,
}

/// Every UGI verb, in the order the restatement gives them.
const VERBS: [UgiVerb; 9] = [
    UgiVerb {
        name: "ugi",
        takes_arguments: false,
        parse: |i| Ok((i, UgiCommand::Ugi)),
    },
    UgiVerb {
        name: "isready",
        takes_arguments: false,
        parse: |i| Ok((i, UgiCommand::IsReady)),
    },
    UgiVerb {
        name: "setoption",
        takes_arguments: true,
        parse: |i| set_option.map(UgiCommand::SetOption).parse(i),
    },
    UgiVerb {
        name: "uginewgame",
        takes_arguments: false,
        parse: |i| Ok((i, UgiCommand::NewGame)),
    },
    UgiVerb {
        name: "position",
        takes_arguments: true,
        parse: |i| {
            position_spec
                .map(|(start, moves)| UgiCommand::Position { start, moves })
                .parse(i)
        },
    },
    UgiVerb {
        name: "query",
        takes_arguments: true,
        parse: |i| arg(QUERIES, query).map(UgiCommand::Query).parse(i),
    },
    UgiVerb {
        name: "go",
        takes_arguments: true,
        parse: |i| go_limits.map(UgiCommand::Go).parse(i),
    },
    UgiVerb {
        name: "stop",
        takes_arguments: false,
        parse: |i| Ok((i, UgiCommand::Stop)),
    },
    UgiVerb {
        name: "quit",
        takes_arguments: false,
        parse: |i| Ok((i, UgiCommand::Quit)),
    },
];

/// The verbs, for the message about an unknown one.
fn verb_list() -> String {
    VERBS.map(|verb| verb.name).join(", ")
}

/// Parses one line as the dialect's loop hands it over: without its line ending, comments
/// already removed, not blank, and free of characters other than tab that one line cannot hold.
pub fn parse_ugi(line: &str) -> Result<UgiCommand, UgiError> {
    let line = line.trim();
    let split: nom::IResult<&str, &str> = take_till1(is_blank).parse(line);
    let Ok((args, name)) = split else {
        return Err(UgiError::Unknown(line.to_string()));
    };
    let Some(verb) = VERBS.iter().find(|verb| verb.name == name) else {
        return Err(UgiError::Unknown(name.to_string()));
    };
    whole_arguments(args, verb.takes_arguments, verb.parse).map_err(|problem| match problem {
        Problem::Fen(e) => UgiError::Fen(e),
        Problem::Moves(e) => UgiError::Moves(e),
        Problem::Resource(e) => UgiError::Resource(e),
        problem => UgiError::Usage {
            name: verb.name,
            problem,
        },
    })
}

/// What `query` takes, in words.
const QUERIES: &str = "p1turn, gameover or result";

/// A `query` word.
fn query(text: &str) -> Result<Query, Problem> {
    [Query::P1Turn, Query::GameOver, Query::Result]
        .into_iter()
        .find(|q| q.name() == text)
        .ok_or_else(|| Problem::Expected {
            expected: QUERIES.to_string(),
            got: text.to_string(),
        })
}

/// `setoption` arguments: `name`, the option's name (one or more words, any case), `value`, and
/// the value (the rest of the line, read by the option's own grammar).
fn set_option(input: &str) -> Args<'_, EngineOption> {
    let (rest, ()) = arg("'name'", keyword("'name'", "name")).parse(input)?;
    let (rest, words) = match many1(verify(word::<Problem>, |w: &str| w != "value")).parse(rest) {
        Ok(parsed) => parsed,
        Err(_) => return fail(rest, Problem::Missing("an option name after 'name'")),
    };
    let name = words.join(" ");
    let known = EngineOption::NAMES
        .into_iter()
        .find(|known| known.eq_ignore_ascii_case(&name));
    let Some(known) = known else {
        return fail(
            words[0],
            Problem::NoSuch {
                kind: "option",
                got: name,
                more: format!("; options: {}", EngineOption::NAMES.join(" ")),
            },
        );
    };
    // `many1` stopped at the word `value` or at the end of the line.
    let missing = "'value' and a value after the option's name";
    let rest = match word::<Problem>(rest) {
        Ok((after, _)) if !after.trim().is_empty() => after,
        _ => return fail(rest, Problem::Missing(missing)),
    };
    match known {
        "level" => engine::level(Separator::Blank, MAX_GO_DEPTH)
            .map(EngineOption::Level)
            .parse(rest)
            .map_err(|e| e.map(level_failure)),
        "hash" => arg("a size in MiB", resource::<TableSize>)
            .map(EngineOption::Hash)
            .parse(rest),
        "threads" => arg("a number of threads", resource::<ThreadCount>)
            .map(EngineOption::Threads)
            .parse(rest),
        _ => arg("true or false", boolean)
            .map(EngineOption::Book)
            .parse(rest),
    }
}

/// `true` or `false`, the values of a UCI check option.
fn boolean(text: &str) -> Result<bool, Problem> {
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(Problem::Expected {
            expected: "true or false".to_string(),
            got: other.to_string(),
        }),
    }
}

/// One part of the `go` arguments.
#[derive(Debug, Clone, Copy)]
enum GoPart {
    Time(usize, u64),
    Inc(usize, u64),
    Movetime(u64),
    Depth(u32),
    Nodes(u64),
    Infinite,
}

/// One `go` word and, for all but `infinite`, its number.
fn go_part(input: &str) -> Args<'_, GoPart> {
    let (rest, option) = word(input)?;
    let value =
        |missing, what, min, max| nom::combinator::cut(arg(missing, number(what, min, max)));
    match option {
        "p1time" | "p2time" => {
            let player = usize::from(option == "p2time");
            value(
                "a time in ms after the clock's name",
                "clock time",
                0,
                MAX_CLOCK_MS,
            )
            .map(|ms| GoPart::Time(player, ms))
            .parse(rest)
        }
        "p1inc" | "p2inc" => {
            let player = usize::from(option == "p2inc");
            value(
                "a time in ms after the increment's name",
                "increment",
                0,
                MAX_CLOCK_MS,
            )
            .map(|ms| GoPart::Inc(player, ms))
            .parse(rest)
        }
        "movetime" => value(
            "a time in ms after 'movetime'",
            "movetime",
            1,
            MAX_MOVETIME_MS,
        )
        .map(GoPart::Movetime)
        .parse(rest),
        "depth" => value("a depth after 'depth'", "depth", 1, MAX_GO_DEPTH.into())
            .map(|d| GoPart::Depth(d as u32))
            .parse(rest),
        "nodes" => value("a number after 'nodes'", "nodes", 1, MAX_NODES)
            .map(GoPart::Nodes)
            .parse(rest),
        "infinite" => Ok((rest, GoPart::Infinite)),
        other => no_such_option(option, other),
    }
}

/// `go` arguments: clocks, increments and bounds, each at most once, in any order.
fn go_limits(input: &str) -> Args<'_, GoLimits> {
    let (rest, parts) = nom::multi::many0(go_part).parse(input)?;
    let mut limits = GoLimits::default();
    for part in parts {
        fn set<T>(slot: &mut Option<T>, value: T) -> bool {
            slot.replace(value).is_none()
        }
        let (fresh, name) = match part {
            GoPart::Time(p, ms) => (set(&mut limits.clock.time[p], ms), CLOCK_NAMES[p]),
            GoPart::Inc(p, ms) => (set(&mut limits.clock.inc[p], ms), INC_NAMES[p]),
            GoPart::Movetime(ms) => (set(&mut limits.bounds.movetime, ms), "movetime"),
            GoPart::Depth(d) => (set(&mut limits.bounds.depth, d), "depth"),
            GoPart::Nodes(n) => (set(&mut limits.bounds.nodes, n), "nodes"),
            GoPart::Infinite => (!std::mem::replace(&mut limits.infinite, true), "infinite"),
        };
        if !fresh {
            return fail(input, Problem::Twice(name));
        }
    }
    Ok((rest, limits))
}

/// `p1time`, `p2time`.
const CLOCK_NAMES: [&str; 2] = ["p1time", "p2time"];
/// `p1inc`, `p2inc`.
const INC_NAMES: [&str; 2] = ["p1inc", "p2inc"];

impl fmt::Display for GoLimits {
    /// The arguments as `go` reads them, each after a space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let clocks = CLOCK_NAMES.iter().zip(self.clock.time);
        let incs = INC_NAMES.iter().zip(self.clock.inc);
        for (name, ms) in clocks.chain(incs) {
            if let Some(ms) = ms {
                write!(f, " {name} {ms}")?;
            }
        }
        write!(f, "{}", self.bounds)?;
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

impl fmt::Display for EngineOption {
    /// `name NAME value VALUE`, as `setoption` reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EngineOption::Level(level) => {
                write!(
                    f,
                    "name level value {}",
                    level_words(level, Separator::Blank)
                )
            }
            EngineOption::Hash(size) => write!(f, "name hash value {}", size.mib()),
            EngineOption::Threads(n) => write!(f, "name threads value {n}"),
            EngineOption::Book(on) => write!(f, "name book value {on}"),
        }
    }
}

impl fmt::Display for UgiCommand {
    /// The command as a line that parses back to it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UgiCommand::Ugi => f.write_str("ugi"),
            UgiCommand::IsReady => f.write_str("isready"),
            UgiCommand::SetOption(option) => write!(f, "setoption {option}"),
            UgiCommand::NewGame => f.write_str("uginewgame"),
            UgiCommand::Position { start, moves } => write_position(f, start, moves.as_ref()),
            UgiCommand::Query(query) => write!(f, "query {}", query.name()),
            UgiCommand::Go(limits) => write!(f, "go{limits}"),
            UgiCommand::Stop => f.write_str("stop"),
            UgiCommand::Quit => f.write_str("quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::TieBreak;

    fn message(line: &str) -> String {
        parse_ugi(line).unwrap_err().to_string()
    }

    #[test]
    fn every_command_reads_back_from_its_display() {
        let lines = [
            "ugi",
            "isready",
            "setoption name level value lookahead 4 right",
            "setoption name level value random",
            "setoption name hash value 16",
            "setoption name threads value 2",
            "setoption name book value false",
            "uginewgame",
            "position startpos",
            "position startpos moves 4 4 5",
            "position fen 2x1oo1/2x4/7/7/7/7 x moves 3",
            "query p1turn",
            "query gameover",
            "query result",
            "go",
            "go p1time 1000 p2time 900 p1inc 10 p2inc 0",
            "go movetime 50",
            "go depth 3 nodes 1000",
            "go infinite",
            "stop",
            "quit",
        ];
        for line in lines {
            let command = parse_ugi(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let written = command.to_string();
            assert_eq!(parse_ugi(&written), Ok(command), "{line} -> {written}");
        }
    }

    #[test]
    fn typed_values() {
        assert_eq!(
            parse_ugi("setoption name Hash value 16"),
            Ok(UgiCommand::SetOption(EngineOption::Hash(
                TableSize::from_mib(16)
            )))
        );
        assert_eq!(
            parse_ugi("setoption name LEVEL value lookahead 3"),
            Ok(UgiCommand::SetOption(EngineOption::Level(
                Level::Lookahead {
                    plies: 3,
                    tie_break: TieBreak::Left
                }
            )))
        );
        assert_eq!(
            parse_ugi("go p2inc 5 p1time 200 p2time 300"),
            Ok(UgiCommand::Go(GoLimits {
                clock: Clock {
                    time: [Some(200), Some(300)],
                    inc: [None, Some(5)],
                },
                ..GoLimits::default()
            }))
        );
        assert_eq!(
            parse_ugi("go infinite"),
            Ok(UgiCommand::Go(GoLimits {
                infinite: true,
                ..GoLimits::default()
            }))
        );
        assert_eq!(
            parse_ugi("  query\tresult  "),
            Ok(UgiCommand::Query(Query::Result))
        );
        assert!(matches!(
            parse_ugi("position startpos moves 4453"),
            Ok(UgiCommand::Position {
                start: Start::StartPos,
                moves: Some(_)
            })
        ));
    }

    #[test]
    fn every_error_says_what_was_expected() {
        let cases = [
            (
                "jump",
                "unknown command 'jump'; expected one of: ugi, isready, setoption, uginewgame, position, query, go, stop, quit",
            ),
            ("isready now", "isready takes no arguments, got 'now'"),
            ("quit 1", "quit takes no arguments, got '1'"),
            ("query", "query needs p1turn, gameover or result"),
            ("query turn", "query expected p1turn, gameover or result, got 'turn'"),
            ("query result now", "query expected the end of the line, got 'now'"),
            ("setoption", "setoption needs 'name'"),
            ("setoption hash 16", "setoption expected 'name', got 'hash'"),
            ("setoption name", "setoption needs an option name after 'name'"),
            ("setoption name value 3", "setoption needs an option name after 'name'"),
            (
                "setoption name Clear Hash",
                "setoption has no option 'Clear Hash'; options: level hash threads book",
            ),
            (
                "setoption name hash",
                "setoption needs 'value' and a value after the option's name",
            ),
            ("setoption name hash value big", "the table size must be a whole number of MiB from 2 to 524288, got 'big'"),
            ("setoption name hash value 1", "the table size must be a whole number of MiB from 2 to 524288, got '1'"),
            (
                "setoption name threads value 65",
                "the thread count must be a whole number from 1 to 64, got '65'",
            ),
            ("setoption name book value on", "setoption expected true or false, got 'on'"),
            (
                "setoption name level value best",
                "setoption expected a level, got 'best'",
            ),
            (
                "setoption name level value lookahead",
                "setoption needs a depth after 'lookahead'",
            ),
            (
                "setoption name level value lookahead 13",
                "setoption lookahead depth must be from 1 to 12, got 13",
            ),
            (
                "setoption name level value lookahead x",
                "setoption lookahead depth must be a number, got 'x'",
            ),
            (
                "setoption name level value random now",
                "setoption expected the end of the line, got 'now'",
            ),
            ("go wtime 100", "go has no option 'wtime'"),
            ("go p1time", "go needs a time in ms after the clock's name"),
            ("go p1inc", "go needs a time in ms after the increment's name"),
            ("go p1time -5", "go clock time must be from 0 to 4294967295, got -5"),
            ("go p2inc x", "go increment must be a number, got 'x'"),
            ("go movetime 0", "go movetime must be from 1 to 86400000, got 0"),
            ("go depth 13", "go depth must be from 1 to 12, got 13"),
            ("go nodes", "go needs a number after 'nodes'"),
            ("go depth 2 depth 3", "go sets depth twice"),
            ("go infinite infinite", "go sets infinite twice"),
            ("go p1time 5 p1time 6", "go sets p1time twice"),
            ("position", "position needs startpos or fen"),
            ("position start", "position expected startpos or fen, got 'start'"),
            ("position fen", "position needs a FEN after 'fen'"),
            (
                "position startpos 4",
                "position expected 'moves' or the end of the line, got '4'",
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(message(line), expected, "{line}");
        }
    }

    #[test]
    fn fen_and_move_errors_are_the_notations_own() {
        assert_eq!(
            message("position fen 8/7/7/7/7/7 x"),
            "fen row 2 has 7 cells, expected 8"
        );
        assert!(matches!(
            parse_ugi("position startpos moves 4D"),
            Err(UgiError::Moves(_))
        ));
    }
}
