//! The one grammar of a computer level's words, `random`, `lookahead N [left|right|random]` or
//! `perfect`, read by the protocol (`go lookahead 4 right`, words between spaces) and by `c4 play`
//! (`--computer o=lookahead:4:right`, words between colons). Only the separator and the deepest
//! look-ahead differ between the two.

use nom::bytes::complete::take_till1;
use nom::character::complete::{char, space0, space1};
use nom::Parser;
use thiserror::Error;

use super::level::{Level, TieBreak};
use crate::notation::grammar::{fail, parse_whole, Failure, Parsed};

/// Why a level's words were refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LevelError {
    /// A first word that names no level.
    #[error("expected a level (random, lookahead, perfect), got '{0}'")]
    Unknown(String),
    /// `lookahead` with nothing after it.
    #[error("needs a depth after 'lookahead'")]
    MissingDepth,
    /// A depth that is not a number.
    #[error("lookahead depth must be a number, got '{0}'")]
    DepthNotANumber(String),
    /// A depth out of range.
    #[error("lookahead depth must be from 1 to {max}, got '{got}'")]
    DepthOutOfRange {
        /// The word found.
        got: String,
        /// The deepest look-ahead allowed.
        max: u32,
    },
}

/// How the words of a level are separated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Separator {
    /// Spaces or tabs, as in a protocol line; blanks before the first word are skipped.
    Blank,
    /// A colon, as in a command-line value.
    Colon,
}

/// A level's words, with look-aheads of at most `max_plies`. The tie-break is optional (left when
/// not given): a word after the depth that is not one is left for the caller.
pub(crate) fn level<'a>(
    separator: Separator,
    max_plies: u32,
) -> impl Parser<&'a str, Output = Level, Error = Failure<'a, LevelError>> {
    move |input: &'a str| -> Parsed<'a, Level, LevelError> {
        let (rest, name) = first_word(separator, input)?;
        match name {
            "random" => Ok((rest, Level::Random)),
            "perfect" => Ok((rest, Level::Perfect)),
            "lookahead" => {
                let Ok((rest, depth)) = next_word(separator, rest) else {
                    return fail(rest, LevelError::MissingDepth);
                };
                let plies = match depth.parse::<u32>() {
                    Ok(n) if (1..=max_plies).contains(&n) => n,
                    _ if depth.bytes().all(|b| b.is_ascii_digit()) => {
                        let got = depth.to_string();
                        return fail(
                            depth,
                            LevelError::DepthOutOfRange {
                                got,
                                max: max_plies,
                            },
                        );
                    }
                    _ => return fail(depth, LevelError::DepthNotANumber(depth.to_string())),
                };
                let (rest, tie_break) = match next_word(separator, rest) {
                    Ok((after, word)) => match TieBreak::from_name(word) {
                        Some(tie_break) => (after, tie_break),
                        None => (rest, TieBreak::Left),
                    },
                    Err(_) => (rest, TieBreak::Left),
                };
                Ok((rest, Level::Lookahead { plies, tie_break }))
            }
            other => fail(name, LevelError::Unknown(other.to_string())),
        }
    }
}

/// The words of `level`, as [`level`] reads them with `separator`.
pub(crate) fn level_words(level: Level, separator: Separator) -> String {
    let sep = match separator {
        Separator::Blank => " ",
        Separator::Colon => ":",
    };
    match level {
        Level::Random => "random".to_string(),
        Level::Perfect => "perfect".to_string(),
        Level::Lookahead { plies, tie_break } => {
            ["lookahead", &plies.to_string(), tie_break.name()].join(sep)
        }
        // Not a level anyone chooses by name: the search perfect play falls back on.
        Level::Heuristic { plies } => format!("heuristic{sep}{plies}"),
    }
}

/// The deepest look-ahead a level may have, in every front end: the protocol's `go lookahead
/// 12`, `c4 play --computer o=lookahead:12` and Python's `choose(board, "lookahead 12")`.
pub const MAX_LOOKAHEAD: u32 = 12;

/// A level as every front end reads a whole one: its words separated by blanks (`lookahead 4
/// right`, as the protocol writes them) or by colons (`lookahead:4:right`, one shell word),
/// look-aheads from 1 to [`MAX_LOOKAHEAD`].
///
/// # Errors
/// [`LevelError`], in the same words whichever separator the text uses.
pub fn parse_level(text: &str) -> Result<Level, LevelError> {
    let separator = if text.contains(':') {
        Separator::Colon
    } else {
        Separator::Blank
    };
    parse_whole(level(separator, MAX_LOOKAHEAD), text, |left| {
        LevelError::Unknown(left.to_string())
    })
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn first_word(separator: Separator, input: &str) -> Parsed<'_, &str, LevelError> {
    match separator {
        Separator::Blank => (space0, take_till1(is_blank)).map(|(_, w)| w).parse(input),
        Separator::Colon => take_till1(|c| c == ':').parse(input),
    }
}

fn next_word(separator: Separator, input: &str) -> Parsed<'_, &str, LevelError> {
    match separator {
        Separator::Blank => (space1, take_till1(is_blank)).map(|(_, w)| w).parse(input),
        Separator::Colon => (char(':'), take_till1(|c| c == ':'))
            .map(|(_, w)| w)
            .parse(input),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::grammar::parse_whole;

    fn read(text: &str, separator: Separator) -> Result<Level, String> {
        parse_whole(level(separator, 8), text, |left| {
            LevelError::Unknown(left.to_string())
        })
        .map_err(|e| e.to_string())
    }

    #[test]
    fn both_separators_read_the_same_levels() {
        let right = Level::Lookahead {
            plies: 4,
            tie_break: TieBreak::Right,
        };
        assert_eq!(read("lookahead 4 right", Separator::Blank), Ok(right));
        assert_eq!(read("lookahead:4:right", Separator::Colon), Ok(right));
        assert_eq!(
            read(" lookahead\t3", Separator::Blank),
            read("lookahead:3", Separator::Colon)
        );
        assert_eq!(read("random", Separator::Colon), Ok(Level::Random));
        assert_eq!(read("perfect", Separator::Blank), Ok(Level::Perfect));
        for level in [Level::Random, Level::Perfect, right] {
            for separator in [Separator::Blank, Separator::Colon] {
                assert_eq!(read(&level_words(level, separator), separator), Ok(level));
            }
        }
    }

    #[test]
    fn every_front_end_reads_a_level_with_blanks_or_colons_up_to_the_same_depth() {
        let deepest = Level::Lookahead {
            plies: MAX_LOOKAHEAD,
            tie_break: TieBreak::Right,
        };
        assert_eq!(parse_level("lookahead 12 right"), Ok(deepest));
        assert_eq!(parse_level("lookahead:12:right"), Ok(deepest));
        for text in ["lookahead 13", "lookahead:13"] {
            assert_eq!(
                parse_level(text).unwrap_err().to_string(),
                "lookahead depth must be from 1 to 12, got '13'"
            );
        }
        assert!(parse_level("lookahead 4 extra").is_err());
    }

    #[test]
    fn errors_say_which_word_was_wrong() {
        let colon = |text| read(text, Separator::Colon).unwrap_err();
        assert_eq!(colon("lookahead"), "needs a depth after 'lookahead'");
        assert_eq!(
            colon("lookahead:9"),
            "lookahead depth must be from 1 to 8, got '9'"
        );
        assert_eq!(
            colon("lookahead:x"),
            "lookahead depth must be a number, got 'x'"
        );
        assert_eq!(
            colon("best"),
            "expected a level (random, lookahead, perfect), got 'best'"
        );
        // A word the grammar leaves is the caller's to refuse.
        assert_eq!(
            colon("lookahead:4:up"),
            "expected a level (random, lookahead, perfect), got ':up'"
        );
    }
}
