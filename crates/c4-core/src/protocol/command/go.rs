//! The grammars of the arguments that ask for a search: `go` and `genmove` (a level and the
//! bounds of perfect play) and `analyze` (`stream`, an interval and a node limit), options in any
//! order, each at most once.

use nom::combinator::{cut, opt};
use nom::multi::many0;
use nom::Parser;

use super::args::{arg, keyword, no_such_option, number, Args, Problem};
use super::{
    Bounds, Command, GoRequest, StreamRequest, DEFAULT_INTERVAL_MS, MAX_GO_DEPTH, MAX_MOVETIME_MS,
    MAX_NODES,
};
use crate::engine::{self, Level, LevelError, Separator};
use crate::notation::grammar::{fail, word, Failure};

/// `analyze`, or `analyze stream` with its interval and node limit, each at most once, in any
/// order.
pub(super) fn analyze_args(input: &str) -> Args<'_, Command> {
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
pub(in crate::protocol) fn level_failure(failure: Failure<'_, LevelError>) -> Failure<'_, Problem> {
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
    Level(Level),
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
            Ok((rest, GoPart::Level(level)))
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
/// `depth` and `nodes` only with perfect play.
pub(super) fn go_args(input: &str) -> Args<'_, GoRequest> {
    let (rest, parts) = many0(go_part).parse(input)?;
    let mut level: Option<Level> = None;
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
    let level = level.unwrap_or(Level::Perfect);
    if level != Level::Perfect && (bounds.depth.is_some() || bounds.nodes.is_some()) {
        return fail(
            input,
            Problem::Combination("takes depth and nodes only with perfect play"),
        );
    }
    Ok((rest, GoRequest::at(level, bounds)))
}

#[cfg(test)]
mod tests {
    use super::super::test_lines::{command, message};
    use super::super::{verbs, CommandError};
    use super::*;
    use crate::engine::TieBreak;

    #[test]
    fn go_levels_and_bounds() {
        assert_eq!(command("go"), Ok(Command::Go(GoRequest::default())));
        assert_eq!(
            command("go lookahead 4 right"),
            Ok(Command::Go(GoRequest::Lookahead {
                plies: 4,
                tie_break: TieBreak::Right,
                movetime: None,
            }))
        );
        assert_eq!(
            command("go movetime 100 lookahead 12"),
            Ok(Command::Go(GoRequest::Lookahead {
                plies: 12,
                tie_break: TieBreak::Left,
                movetime: Some(100),
            }))
        );
        assert_eq!(
            command("genmove random movetime 5"),
            Ok(Command::Genmove(GoRequest::Random { movetime: Some(5) }))
        );
        assert_eq!(
            command("go lookahead 4 depth 2"),
            Err(CommandError::Usage {
                name: "go",
                problem: Problem::Combination("takes depth and nodes only with perfect play"),
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
        assert!(message("go lookahead 3 nodes 9").contains("only with perfect play"));
        assert!(message("go lookahead").contains("needs a depth after 'lookahead'"));
        assert!(message("go lookahead 99").contains("from 1 to 12"));
        assert!(message("go random perfect").contains("sets the level twice"));
        assert!(message("go nodes 5 nodes 6").contains("sets nodes twice"));
        assert!(message("go fast").contains("has no option 'fast'"));
        assert!(message("go depth").contains("needs a depth after 'depth'"));
        assert!(message("go movetime 999999999").contains("from 1 to 86400000"));
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
}
