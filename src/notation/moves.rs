//! Move sequences as text: reading column lists typed by people or scripts, and writing them back.
//! Only syntax lives here; whether a column is on the board or playable is the rules' decision.
//!
//! # Grammar
//!
//! - Items are separated by spaces and/or commas (any number; leading/trailing ones are ignored).
//!   An empty text is the empty sequence.
//! - A letter is always one column: `a`/`A` = 1 … `p`/`P` = 16, any case; letters may run
//!   together (`DDEC`).
//! - Digits: if the text has NO separator and the board is at most 9 wide, every digit is one
//!   column (`4453`, the public solvers' notation). Otherwise each run of digits is one column
//!   number (`10 11 3`, `10,11,3`, and `4 4 5 3` on any board).
//! - An item may not mix letters and digits (`4D`), and any other character is an error.
//! - Numbers count from 1, or from 0 as S4 counts them when the caller asks
//!   ([`parse_moves_counting`]); the columns read are 1-based either way.
//!
//! Leading and trailing separators do not count as "a separator" for the digit rule: ` 4453 `
//! is four columns on a 7-wide board. Columns past the board (`h` or `9` on 7 columns) are read
//! as numbers larger than the width and refused by the caller with the rules' own message.

use thiserror::Error;

use crate::rules::variant::MAX_SIDE;
use crate::rules::{Column, Game, MoveError};

/// Widest board on which a move list is written as bare digits (`4453`).
const MAX_DIGIT_WIDTH: usize = 9;

/// Why a text is not a sequence of columns.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MovesError {
    /// One item holds both digits and letters.
    #[error("'{0}' mixes digits and letters; write each column as a number or as a letter")]
    MixedItem(String),
    /// A character that names no column: punctuation, a letter past `p`, a non-ASCII character.
    #[error("'{}' is not a column: expected {}", .found.escape_debug(), expected_columns(*.width))]
    NotAColumn {
        /// The offending character.
        found: char,
        /// The board width, to name the columns that exist.
        width: usize,
    },
    /// A run of digits too long to be any column.
    #[error("column number {0} is too large")]
    NumberTooLarge(String),
    /// More (or less) than the one column asked for.
    #[error("'{0}' is not one column: expected one number or one letter")]
    NotOneColumn(String),
}

/// The columns of a board in both spellings, for error messages: `numbers 1-7 or letters a-g`.
fn expected_columns(width: usize) -> String {
    if width <= 1 {
        "the number 1 or the letter a".to_string()
    } else {
        format!(
            "numbers 1-{width} or letters a-{}",
            letter(width.min(MAX_SIDE))
        )
    }
}

/// The lowercase letter of 1-based column `number` (1 to 16).
fn letter(number: usize) -> char {
    (b'a' + (number - 1) as u8) as char
}

/// The 1-based column a letter names: `a`/`A` = 1 … `p`/`P` = 16; `None` for any other character.
fn letter_column(c: char) -> Option<u64> {
    let lower = c.to_ascii_lowercase();
    ('a'..=letter(MAX_SIDE))
        .contains(&lower)
        .then(|| u64::from(lower as u8 - b'a') + 1)
}

fn is_separator(c: char) -> bool {
    c == ' ' || c == ','
}

/// Where written column numbers start. Letters always start at `a` = column 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    /// `1` is the leftmost column, as S0, S1 and the protocol count.
    FromOne,
    /// `0` is the leftmost column, as S4 counts.
    FromZero,
}

/// Reads a move sequence as 1-based column numbers, in order, following the grammar in the module
/// doc. `width` decides whether a run of digits is one column or one column per digit, and names
/// the columns in error messages. Numbers are not checked against the board: a caller passes each
/// to `Game::column`.
pub fn parse_moves(text: &str, width: usize) -> Result<Vec<u64>, MovesError> {
    parse_moves_counting(text, width, Counting::FromOne)
}

/// Reads a move sequence as [`parse_moves`] does, with written numbers counted as `counting`
/// says: from zero, `012345` is columns 1 to 6.
pub fn parse_moves_counting(
    text: &str,
    width: usize,
    counting: Counting,
) -> Result<Vec<u64>, MovesError> {
    let text = text.trim_matches(is_separator);
    let digit_per_column = width <= MAX_DIGIT_WIDTH && !text.contains(is_separator);
    let mut columns = Vec::new();
    for item in text.split(is_separator).filter(|item| !item.is_empty()) {
        let numbers_from = columns.len();
        let is_number = parse_item(item, width, digit_per_column, &mut columns)?;
        if is_number && counting == Counting::FromZero {
            for column in &mut columns[numbers_from..] {
                *column = column
                    .checked_add(1)
                    .ok_or_else(|| MovesError::NumberTooLarge(item.to_string()))?;
            }
        }
    }
    Ok(columns)
}

/// Why a written move sequence cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SequenceError {
    /// The text is not a move sequence.
    #[error("{0}")]
    Syntax(#[from] MovesError),
    /// A move of the sequence cannot be played; `index` counts from 1.
    #[error("move {index} (column {column}): {source}")]
    Move {
        index: usize,
        column: u64,
        source: MoveError,
    },
}

/// Plays a written move sequence on `game`, stopping at the first move that cannot be played;
/// the moves before it stay played, so callers that need all or nothing play on a copy.
pub fn play_moves(game: &mut Game, text: &str) -> Result<(), SequenceError> {
    for (i, column) in parse_moves(text, game.variant().width())?
        .into_iter()
        .enumerate()
    {
        let fail = |source| SequenceError::Move {
            index: i + 1,
            column,
            source,
        };
        let checked = game.column(column).map_err(fail)?;
        game.play(checked).map_err(fail)?;
    }
    Ok(())
}

/// Reads exactly one column, as a single move takes it: a whole number (`12`, on any board) or
/// one letter (`d`).
pub fn parse_column(text: &str, width: usize) -> Result<u64, MovesError> {
    let mut columns = Vec::new();
    if !text.is_empty() {
        parse_item(text, width, false, &mut columns)?;
    }
    match columns.as_slice() {
        [one] => Ok(*one),
        _ => Err(MovesError::NotOneColumn(text.to_string())),
    }
}

/// Appends the columns of one separator-free item to `columns`, numbers as written; true when
/// the item is digits, false when it is letters.
fn parse_item(
    item: &str,
    width: usize,
    digit_per_column: bool,
    columns: &mut Vec<u64>,
) -> Result<bool, MovesError> {
    if let Some(found) = item
        .chars()
        .find(|&c| !c.is_ascii_digit() && letter_column(c).is_none())
    {
        return Err(MovesError::NotAColumn { found, width });
    }
    let has_digits = item.chars().any(|c| c.is_ascii_digit());
    let has_letters = item.chars().any(|c| !c.is_ascii_digit());
    if has_digits && has_letters {
        return Err(MovesError::MixedItem(item.to_string()));
    }
    if has_letters {
        columns.extend(item.chars().filter_map(letter_column));
    } else if digit_per_column {
        columns.extend(item.bytes().map(|b| u64::from(b - b'0')));
    } else {
        let number = item
            .bytes()
            .try_fold(0u64, |n, b| {
                n.checked_mul(10)?.checked_add(u64::from(b - b'0'))
            })
            .ok_or_else(|| MovesError::NumberTooLarge(item.to_string()))?;
        columns.push(number);
    }
    Ok(has_digits)
}

/// Writes a move sequence the way [`parse_moves`] reads it back: digits run together on boards up
/// to 9 wide (`4453`), space-separated numbers on wider ones (`10 11 3`), empty for no moves.
pub fn format_moves(columns: &[Column], width: usize) -> String {
    let separator = if width > MAX_DIGIT_WIDTH { " " } else { "" };
    columns
        .iter()
        .map(|column| column.number().to_string())
        .collect::<Vec<_>>()
        .join(separator)
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_can_count_from_zero() {
        use super::{parse_moves_counting, Counting};
        assert_eq!(
            parse_moves_counting("012345", 7, Counting::FromZero),
            Ok(vec![1, 2, 3, 4, 5, 6])
        );
        assert_eq!(
            parse_moves_counting("0 d 10", 16, Counting::FromZero),
            Ok(vec![1, 4, 11])
        );
        assert_eq!(
            parse_moves_counting("0 d", 7, Counting::FromOne),
            Ok(vec![0, 4])
        );
        assert_eq!(
            parse_moves_counting("18446744073709551615", 16, Counting::FromZero),
            Err(super::MovesError::NumberTooLarge(
                "18446744073709551615".into()
            ))
        );
    }

    #[test]
    fn one_column_is_a_whole_number_or_one_letter() {
        assert_eq!(super::parse_column("12", 7), Ok(12));
        assert_eq!(super::parse_column("D", 7), Ok(4));
        assert_eq!(
            super::parse_column("dd", 7),
            Err(super::MovesError::NotOneColumn("dd".into()))
        );
        assert_eq!(
            super::parse_column("", 7),
            Err(super::MovesError::NotOneColumn(String::new()))
        );
        assert!(super::parse_column("4?", 7).is_err());
    }

    use proptest::prelude::*;

    use super::*;

    fn columns(numbers: &[usize]) -> Vec<Column> {
        numbers.iter().map(|&n| Column::from_index(n - 1)).collect()
    }

    #[test]
    fn digits_run_together_on_narrow_boards() {
        assert_eq!(parse_moves("4453", 7), Ok(vec![4, 4, 5, 3]));
        assert_eq!(parse_moves("  4453 ,", 7), Ok(vec![4, 4, 5, 3]));
        assert_eq!(parse_moves("10", 9), Ok(vec![1, 0]));
        assert_eq!(
            parse_moves("8", 7),
            Ok(vec![8]),
            "range is the caller's job"
        );
    }

    #[test]
    fn separated_digits_are_numbers_on_any_board() {
        assert_eq!(parse_moves("4 4 5 3", 7), Ok(vec![4, 4, 5, 3]));
        assert_eq!(parse_moves("10 11 3", 7), Ok(vec![10, 11, 3]));
        assert_eq!(parse_moves("10,11,3", 16), Ok(vec![10, 11, 3]));
        assert_eq!(parse_moves(" ,10 ,, 11  3, ", 16), Ok(vec![10, 11, 3]));
        assert_eq!(parse_moves("4453", 10), Ok(vec![4453]));
        assert_eq!(parse_moves("007", 16), Ok(vec![7]));
    }

    #[test]
    fn letters_are_single_columns_in_any_case() {
        assert_eq!(parse_moves("DDEC", 7), Ok(vec![4, 4, 5, 3]));
        assert_eq!(parse_moves("d d, e c", 7), Ok(vec![4, 4, 5, 3]));
        assert_eq!(parse_moves("aP", 16), Ok(vec![1, 16]));
        assert_eq!(
            parse_moves("h", 7),
            Ok(vec![8]),
            "range is the caller's job"
        );
        assert_eq!(parse_moves("dd 10", 16), Ok(vec![4, 4, 10]));
    }

    #[test]
    fn empty_texts_are_empty_sequences() {
        assert_eq!(parse_moves("", 7), Ok(vec![]));
        assert_eq!(parse_moves(" , ,", 16), Ok(vec![]));
    }

    #[test]
    fn errors_say_what_was_expected() {
        let message = |text: &str, width| parse_moves(text, width).unwrap_err().to_string();
        assert_eq!(
            message("4d", 7),
            "'4d' mixes digits and letters; write each column as a number or as a letter"
        );
        assert_eq!(
            message("1 2 D4", 7),
            "'D4' mixes digits and letters; write each column as a number or as a letter"
        );
        assert_eq!(
            message("?", 7),
            "'?' is not a column: expected numbers 1-7 or letters a-g"
        );
        assert_eq!(
            message("ddq", 16),
            "'q' is not a column: expected numbers 1-16 or letters a-p"
        );
        assert_eq!(
            message("4;5", 7),
            "';' is not a column: expected numbers 1-7 or letters a-g"
        );
        assert_eq!(
            message("4\t5", 7),
            "'\\t' is not a column: expected numbers 1-7 or letters a-g"
        );
        assert_eq!(
            message("é", 1),
            "'é' is not a column: expected the number 1 or the letter a"
        );
        assert_eq!(
            message("3 99999999999999999999", 7),
            "column number 99999999999999999999 is too large"
        );
    }

    #[test]
    fn formats_per_width() {
        assert_eq!(format_moves(&columns(&[4, 4, 5, 3]), 7), "4453");
        assert_eq!(format_moves(&columns(&[9, 1]), 9), "91");
        assert_eq!(format_moves(&columns(&[10, 11, 3]), 16), "10 11 3");
        assert_eq!(format_moves(&columns(&[3]), 10), "3");
        assert_eq!(format_moves(&[], 7), "");
        assert_eq!(format_moves(&[], 16), "");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn format_then_parse_round_trips(
            (width, numbers) in (1..=MAX_SIDE).prop_flat_map(|w| {
                (Just(w), prop::collection::vec(1..=w, 0..40))
            })
        ) {
            let text = format_moves(&columns(&numbers), width);
            let expected: Vec<u64> = numbers.iter().map(|&n| n as u64).collect();
            prop_assert_eq!(parse_moves(&text, width), Ok(expected));
        }

        #[test]
        fn any_text_parses_or_fails_without_panicking(
            text in "[0-9a-zA-Z ,?é\t]{0,30}|\\PC{0,30}",
            width in 1..=MAX_SIDE,
        ) {
            let _ = parse_moves(&text, width);
        }
    }
}
