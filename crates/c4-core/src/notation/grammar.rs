//! The nom plumbing every text grammar shares (move sequences, FEN, settings, protocol
//! commands): a parse error that carries the grammar's own error type, so that what a user reads
//! is always our message and never nom's, the step that runs a grammar over a whole text, and the
//! words and numbers the word-based grammars read.

use std::str::FromStr;

use nom::bytes::complete::take_till1;
use nom::character::complete::{digit1, space0};
use nom::combinator::all_consuming;
use nom::error::{ErrorKind, ParseError};
use nom::sequence::preceded;
use nom::{IResult, Parser};

/// How a grammar's nom parser fails: where it stopped and, once a rule of the grammar has said
/// what was wrong, that rule's error. `problem` is `None` only while a nom built-in (a `tag`, a
/// `digit1`) has failed and no rule has explained it yet; [`parse_whole`] explains it then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure<'a, E> {
    /// The input that was left where parsing stopped.
    pub at: &'a str,
    /// The grammar's own error, once known.
    pub problem: Option<E>,
}

impl<'a, E> ParseError<&'a str> for Failure<'a, E> {
    fn from_error_kind(at: &'a str, _: ErrorKind) -> Self {
        Failure { at, problem: None }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

/// What a grammar's parser returns: the input left and the value, or a [`Failure`].
pub(crate) type Parsed<'a, T, E> = IResult<&'a str, T, Failure<'a, E>>;

/// Fails the whole parse at `at` with the grammar's error `problem`: an `Err::Failure`, as after
/// `cut`, so that no `alt` tries another branch and the message stays the one given here.
pub(crate) fn fail<'a, T, E>(at: &'a str, problem: E) -> Parsed<'a, T, E> {
    Err(nom::Err::Failure(Failure {
        at,
        problem: Some(problem),
    }))
}

/// Runs `parser` over all of `text`. A failure that carries the grammar's error gives it; one
/// that does not (a nom built-in failed, or input was left over) is explained by `unexplained`,
/// given the input left where parsing stopped.
pub(crate) fn parse_whole<'a, T, E>(
    mut parser: impl Parser<&'a str, Output = T, Error = Failure<'a, E>>,
    text: &'a str,
    unexplained: impl FnOnce(&'a str) -> E,
) -> Result<T, E> {
    match parser.parse(text) {
        Ok(("", value)) => Ok(value),
        Ok((left, _)) => Err(unexplained(left)),
        Err(nom::Err::Error(failure) | nom::Err::Failure(failure)) => {
            Err(failure.problem.unwrap_or_else(|| unexplained(failure.at)))
        }
        // Only streaming parsers ask for more input, and every grammar here is complete.
        Err(nom::Err::Incomplete(_)) => Err(unexplained("")),
    }
}

/// Whether `c` separates words: a space or a tab.
pub(crate) fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// The next word, after any spaces or tabs. None left fails softly (an `Error`, not a
/// `Failure`), so that a repeated word ends there.
pub(crate) fn word<E>(input: &str) -> Parsed<'_, &str, E> {
    preceded(space0, take_till1(is_blank)).parse(input)
}

/// A whole number written as plain decimal digits (no sign, no spaces), read as a `T`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WholeNumber<T> {
    /// The number.
    Value(T),
    /// Digits only, but too large for `T`: the caller names the range.
    TooLarge,
    /// Anything else.
    NotANumber,
}

/// Reads `text` as a [`WholeNumber`].
pub fn whole_number<T: FromStr>(text: &str) -> WholeNumber<T> {
    let digits: IResult<&str, &str> = all_consuming(digit1).parse(text);
    match (digits, text.parse()) {
        (Err(_), _) => WholeNumber::NotANumber,
        (Ok(_), Ok(n)) => WholeNumber::Value(n),
        (Ok(_), Err(_)) => WholeNumber::TooLarge,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_plain_digits() {
        assert_eq!(whole_number::<u8>("042"), WholeNumber::Value(42));
        assert_eq!(whole_number::<u8>("256"), WholeNumber::TooLarge);
        for text in ["", "+3", "-3", " 3", "3x"] {
            assert_eq!(whole_number::<u8>(text), WholeNumber::NotANumber, "{text}");
        }
    }

    #[test]
    fn explains_left_over_input_and_keeps_a_rules_error() {
        let digits = |text| parse_whole(digit1, text, |left: &str| format!("left '{left}'"));
        assert_eq!(digits("42"), Ok("42"));
        assert_eq!(digits("42x"), Err("left 'x'".to_string()));
        assert_eq!(digits("x"), Err("left 'x'".to_string()));
        let refuse = |text| fail::<(), _>(text, "refused".to_string());
        assert_eq!(
            parse_whole(refuse, "abc", |_| "unexplained".to_string()),
            Err("refused".to_string())
        );
    }
}
