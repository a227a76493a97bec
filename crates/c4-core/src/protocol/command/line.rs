//! One input line → a [`Request`]: the line's grammar `[id] verb args`. The id is split off,
//! the verb picks its row of the verb table, and the row's argument parser is run `cut` over the
//! rest of the line, so that an error is about the arguments and names the verb's usage.

use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, cut, eof};
use nom::sequence::terminated;
use nom::Parser;
use thiserror::Error;

use super::args::Problem;
use super::verbs::verbs;
use super::Command;
use crate::notation::grammar::{is_blank, Failure};
use crate::notation::{FenSyntaxError, MovesError};
use crate::resources::ResourceError;

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
    /// A table size or thread count that is not one, in the words every front end uses.
    #[error("{0}")]
    Resource(ResourceError),
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

/// Parses one line as the interpreter hands it over: without its line ending, comments already
/// removed, not blank, and free of characters other than tab that one line cannot hold (the
/// interpreter refuses such a line whole before parsing it).
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
        Problem::Resource(e) => CommandError::Resource(e),
        problem => usage(problem),
    })
}

/// Runs a verb's argument parser, `cut`, over all of `args` (the line after the verb): the value,
/// or the problem. Words left over are [`Problem::Extra`], or [`Problem::NoArguments`] for a verb
/// that `takes_arguments` not.
pub(in crate::protocol) fn whole_arguments<'a, T>(
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

#[cfg(test)]
mod tests {
    use super::super::test_lines::{command, message};
    use super::*;

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
}
