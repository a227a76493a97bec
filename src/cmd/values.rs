//! The values of the command line's flags, read as clap calls for them (`WIDTHxHEIGHT`, whole
//! numbers, column numberings), with the reasons clap shows for a value refused; shared by
//! `c4 solve`, `c4 bench`, `c4 split`, `c4 serve` (cli.rs) and `c4 book` (book.rs).

use std::str::FromStr;

use crate::batch::{bound_of, BatchBoard, BatchMode, MAX_BOUND, MIN_BOUND};
use c4_core::Counting;
use c4_core::{whole_number, WholeNumber};

/// How `c4 solve`'s and `c4 bench`'s lines number columns, in `c4 play`'s words (`numbers`,
/// `from-zero`); `1` and `0`, their first spellings, are kept.
pub(super) fn column_numbering(text: &str) -> Result<Counting, String> {
    match text {
        "numbers" | "1" => Ok(Counting::FromOne),
        "from-zero" | "0" => Ok(Counting::FromZero),
        "letters" => Err(
            "letters a-p are read in every line already: expected numbers or \
            from-zero, the numbering of the digits"
                .to_string(),
        ),
        _ => Err("expected numbers (from 1) or from-zero (from 0)".to_string()),
    }
}

/// A whole number, in words rather than the standard library's (`invalid digit found in
/// string`), for the flags whose range the command checks after reading them.
pub(super) fn whole<T: FromStr>(text: &str) -> Result<T, String> {
    match whole_number::<T>(text) {
        WholeNumber::Value(n) => Ok(n),
        WholeNumber::TooLarge => Err("the number is too large".to_string()),
        WholeNumber::NotANumber => Err("expected a whole number".to_string()),
    }
}

/// `c4 solve --at-least`'s value: a bound from [`MIN_BOUND`] to [`MAX_BOUND`], or `line` for
/// the bound each line gives after its moves.
pub(super) fn at_least_mode(text: &str) -> Result<BatchMode, String> {
    if text == "line" {
        return Ok(BatchMode::AtLeastOfLine);
    }
    bound_of(text).map(BatchMode::AtLeast).ok_or_else(|| {
            format!("expected a whole number from {MIN_BOUND} to {MAX_BOUND}, or line for each line's own bound after its moves")
        })
}

/// A whole number from 1.
pub(super) fn positive(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("expected a whole number from 1".to_string()),
    }
}

/// A time in seconds, fractions allowed, from 0.1 to a day.
pub(super) fn seconds(text: &str) -> Result<std::time::Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.1..=86400.0).contains(&s) => Ok(std::time::Duration::from_secs_f64(s)),
        _ => Err("expected a number of seconds from 0.1 to 86400".to_string()),
    }
}

/// `WIDTHxHEIGHT`: a board the rules and the solver take.
pub(super) fn board_size(text: &str) -> Result<BatchBoard, String> {
    let (width, height) = board_sides(text)?;
    BatchBoard::new(width, height, Counting::FromOne).map_err(|e| e.to_string())
}

/// `WIDTHxHEIGHT` read as two whole numbers, for the command that checks the board itself.
pub(super) fn board_sides(text: &str) -> Result<(u32, u32), String> {
    let side = |side: &str| match whole_number::<u32>(side) {
        WholeNumber::Value(n) => Some(n),
        _ => None,
    };
    let sides = text.split_once(['x', 'X']);
    sides
        .and_then(|(w, h)| side(w).zip(side(h)))
        .ok_or_else(|| "expected WIDTHxHEIGHT, e.g. 9x5".to_string())
}
