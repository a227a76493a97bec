//! The arguments' grammars: the readers every verb's arguments are built from (one word read
//! whole, a number in a range, a keyword, the rest of the line as a file name or moves), the
//! grammars of the verbs that set up a game (`position`, `new`, `name`, `book`,
//! `known_command`), and [`Problem`], what is wrong with a command's arguments.

use std::path::PathBuf;
use std::str::FromStr;

use nom::bytes::complete::tag;
use nom::character::complete::{char, digit1, space0};
use nom::combinator::{all_consuming, opt, rest};
use nom::sequence::preceded;
use nom::Parser;
use thiserror::Error;

use super::{BookRequest, Command, Start};
use crate::notation::fen::fen;
use crate::notation::grammar::{fail, whole_number, word, Failure, Parsed, WholeNumber};
use crate::notation::settings::settings;
use crate::notation::{parse_column, FenSyntaxError, MoveText, MovesError, SettingError, Style};
use crate::resources::ResourceError;

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
    /// A table size or thread count that is not one: reported in the words every front end
    /// uses for it.
    #[error("{0}")]
    Resource(ResourceError),
}

/// What an argument parser returns.
pub(in crate::protocol) type Args<'a, T> = Parsed<'a, T, Problem>;

/// One argument: the next word, read whole by `read`. No word fails softly (so that `opt` can
/// skip an optional argument) with [`Problem::Missing`]; a word `read` refuses fails the parse.
pub(in crate::protocol) fn arg<'a, T>(
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
pub(in crate::protocol) fn number(
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

/// Reads a table size or a thread count, refused in the words every front end uses for it.
pub(in crate::protocol) fn resource<T: FromStr<Err = ResourceError>>(
    text: &str,
) -> Result<T, Problem> {
    text.parse().map_err(Problem::Resource)
}

/// Reads exactly the word `name`, as `expected` says it.
pub(in crate::protocol) fn keyword(
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
pub(super) fn column(text: &str) -> Result<u64, Problem> {
    parse_column(text).map_err(|e| match e {
        MovesError::NumberTooLarge(_) => Problem::Moves(e),
        _ => Problem::Expected {
            expected: "a column number or letter".to_string(),
            got: text.to_string(),
        },
    })
}

/// A board style by name.
pub(super) fn style(text: &str) -> Result<Style, Problem> {
    Style::from_name(text).ok_or_else(|| Problem::NoSuch {
        kind: "style",
        got: text.to_string(),
        more: format!("; styles: {}", Style::ALL.map(Style::name).join(" ")),
    })
}

/// A seed: any number that fits 64 bits.
pub(super) fn seed(text: &str) -> Result<u64, Problem> {
    match whole_number(text) {
        WholeNumber::Value(seed) => Ok(seed),
        WholeNumber::TooLarge | WholeNumber::NotANumber => Err(Problem::Expected {
            expected: format!("a number from 0 to {}", u64::MAX),
            got: text.to_string(),
        }),
    }
}

/// The rest of the line as a file name (it may hold spaces).
pub(super) fn file_name(input: &str) -> Args<'_, PathBuf> {
    let (left, name) = preceded(space0, rest).parse(input)?;
    match name.trim_end() {
        "" => fail(input, Problem::Missing("a file name")),
        name => Ok((left, PathBuf::from(name))),
    }
}

/// The rest of the line as a move sequence.
pub(super) fn move_text(input: &str) -> Args<'_, MoveText> {
    let (left, text) = rest(input)?;
    let text = text.trim();
    match MoveText::parse(text) {
        Ok(moves) => Ok((left, moves)),
        Err(e) => fail(text, Problem::Moves(e)),
    }
}

/// `book` arguments: nothing (which book is in use), `on`, `off`, or `load` and a file name (the
/// rest of the line).
pub(super) fn book_args(input: &str) -> Args<'_, BookRequest> {
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
pub(super) fn position_args(input: &str) -> Args<'_, Command> {
    position_spec
        .map(|(start, moves)| Command::Position { start, moves })
        .parse(input)
}

/// Where a position starts and the moves after it: `startpos` or `fen <FEN>`, then optionally
/// `moves <seq>` (the arguments of `position`, in this protocol and in UGI).
pub(in crate::protocol) fn position_spec(input: &str) -> Args<'_, (Start, Option<MoveText>)> {
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
pub(super) fn known_command_args(input: &str) -> Args<'_, Command> {
    match input.trim() {
        "" => fail(input, Problem::Missing("a command name")),
        name => Ok(("", Command::KnownCommand(name.to_string()))),
    }
}

/// `name` alone, or `name <token> <name>` with the name the rest of the line.
pub(super) fn name_args(input: &str) -> Args<'_, Command> {
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

/// Fails at `at`: `other` is no option of the command.
pub(in crate::protocol) fn no_such_option<'a, T>(at: &'a str, other: &str) -> Args<'a, T> {
    fail(
        at,
        Problem::NoSuch {
            kind: "option",
            got: other.to_string(),
            more: String::new(),
        },
    )
}

/// `new` arguments: the settings grammar's, in its own words.
pub(super) fn new_args(input: &str) -> Args<'_, Command> {
    let (rest, new) = settings(input).map_err(|e| {
        e.map(|failure| Failure {
            at: failure.at,
            problem: failure.problem.map(Problem::Setting),
        })
    })?;
    Ok((rest, Command::New(new)))
}

#[cfg(test)]
mod tests {
    use super::super::test_lines::{command, message};
    use super::super::CommandError;
    use super::*;
    use crate::notation::{Fen, Settings};

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
                "show has no style 'fancy'; styles: grid dots letters pipes numbers tabs; usage: show [grid|dots|letters|pipes|numbers|tabs]",
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
}
