//! Move sequences as text: reading column lists typed by people or scripts, and writing them back.
//! Reading has two steps, as for FEN: the nom grammar turns text into a [`MoveText`] (syntax
//! only, no board needed), and [`MoveText::columns`] reads it against a board's width, which
//! decides what a run of digits means. Whether a column is on the board or playable is the rules'
//! decision.
//!
//! # Grammar
//!
//! - Items are separated by spaces and/or commas (any number; leading/trailing ones are ignored).
//!   An empty text is the empty sequence.
//! - A letter is always one column: `a`/`A` = 1 … `p`/`P` = 16, any case; letters may run
//!   together (`DDEC`).
//! - Digits: if the text has NO separator and every column of the board has a one-digit number
//!   (at most 9 wide, or 10 counting from zero), every digit is one column (`4453`, the public
//!   solvers' notation). Otherwise each run of digits is one column number (`10 11 3`,
//!   `10,11,3`, and `4 4 5 3` on any board).
//! - An item may not mix letters and digits (`4D`), and any other character is an error.
//! - Numbers count from 1, or from 0 as the pipes program counts them when the caller asks
//!   ([`MoveText::columns_counting`]); the columns read are 1-based either way.
//!
//! Leading and trailing separators do not count as "a separator" for the digit rule: ` 4453 `
//! is four columns on a 7-wide board; a separator between items means there are two items or
//! more. Columns past the board (`h` or `9` on 7 columns) are read as numbers larger than the
//! width and refused by the caller with the rules' own message.

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::{take_till1, take_while1};
use nom::character::complete::{anychar, digit1};
use nom::combinator::{all_consuming, map, map_opt, opt};
use nom::multi::{many1, separated_list0};
use nom::sequence::delimited;
use nom::Parser;
use thiserror::Error;

use super::grammar::{fail, parse_whole, Parsed};
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
    #[error(
        "'{}' is not a column: expected a column number or a letter from a to {}",
        .0.escape_debug(),
        letter(MAX_SIDE)
    )]
    NotAColumn(char),
    /// A run of digits too long to be any column.
    #[error("column number {0} is too large")]
    NumberTooLarge(String),
    /// More (or less) than the one column asked for.
    #[error("'{0}' is not one column: expected one number or one letter")]
    NotOneColumn(String),
}

/// The lowercase letter of 1-based column `number` (1 to 16).
fn letter(number: usize) -> char {
    (b'a' + (number - 1) as u8) as char
}

/// The 1-based column a letter names: `a`/`A` = 1 … `p`/`P` = 16; `None` for any other character.
fn letter_column(c: char) -> Option<u8> {
    let lower = c.to_ascii_lowercase();
    ('a'..=letter(MAX_SIDE))
        .contains(&lower)
        .then(|| lower as u8 - b'a' + 1)
}

/// A tab counts as a space, as it does between a line's words.
fn is_separator(c: char) -> bool {
    c == ' ' || c == '\t' || c == ','
}

/// Where written column numbers start. Letters always start at `a` = column 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    /// `1` is the leftmost column, as the grid and dots programs and the protocol count.
    FromOne,
    /// `0` is the leftmost column, as the pipes program counts.
    FromZero,
}

impl Counting {
    /// The number of the leftmost column.
    pub fn first(self) -> u64 {
        match self {
            Counting::FromOne => 1,
            Counting::FromZero => 0,
        }
    }

    /// The number that `column` (0: the leftmost) is written as.
    pub fn written(self, column: u64) -> u64 {
        column + self.first()
    }
}

/// A move sequence as written: its items, read but not yet given a board. Two texts that mean
/// the same on every board are equal (`DD,EC` and `dd ec`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveText {
    items: Vec<Item>,
}

/// One separator-free item of a sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    /// Letters, each one column (1-based).
    Letters(Vec<u8>),
    /// A run of digits as written: one number, or one column per digit (see [`MoveText::columns`]).
    Digits(String),
}

/// The parser of one item: a whole word of letters or of digits; anything else fails the parse
/// with the character or the mix at fault.
fn item(input: &str) -> Parsed<'_, Item, MovesError> {
    let (rest, word) = take_till1(is_separator).parse(input)?;
    let letters = map(many1(map_opt(anychar, letter_column)), Item::Letters);
    let digits = map(digit1, |d: &str| Item::Digits(d.to_string()));
    let read: Parsed<'_, Item, MovesError> = all_consuming(alt((letters, digits))).parse(word);
    match read {
        Ok((_, item)) => Ok((rest, item)),
        Err(_) => match word
            .chars()
            .find(|&c| !c.is_ascii_digit() && letter_column(c).is_none())
        {
            Some(c) => fail(word, MovesError::NotAColumn(c)),
            None => fail(word, MovesError::MixedItem(word.to_string())),
        },
    }
}

/// The parser of a whole sequence: items between separators, any number of each.
fn sequence(input: &str) -> Parsed<'_, MoveText, MovesError> {
    let separators = || take_while1(is_separator);
    map(
        delimited(
            opt(separators()),
            separated_list0(separators(), item),
            opt(separators()),
        ),
        |items| MoveText { items },
    )
    .parse(input)
}

impl MoveText {
    /// Reads a move sequence's syntax (the grammar in the module doc); no board is needed.
    pub fn parse(text: &str) -> Result<MoveText, MovesError> {
        parse_whole(sequence, text, |left| {
            // Only a character no item can start with is left over.
            MovesError::NotAColumn(left.chars().next().unwrap_or(' '))
        })
    }

    /// Whether the sequence has no moves.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The 1-based column numbers on a board `width` wide, in order: with one item and at most 9
    /// columns each digit is a column, otherwise each run of digits is one number. Numbers are
    /// not checked against the board: a caller passes each to `Game::column`.
    pub fn columns(&self, width: usize) -> Result<Vec<u64>, MovesError> {
        self.columns_counting(width, Counting::FromOne)
    }

    /// [`MoveText::columns`], with written numbers counted as `counting` says: from zero,
    /// `012345` is columns 1 to 6, and digits run together name one column each on boards up to
    /// 10 wide (`0123456789`). The columns given are 1-based either way.
    pub(crate) fn columns_counting(
        &self,
        width: usize,
        counting: Counting,
    ) -> Result<Vec<u64>, MovesError> {
        let offset = 1 - counting.first();
        let one_digit_columns = MAX_DIGIT_WIDTH + offset as usize;
        let digit_per_column = width <= one_digit_columns && self.items.len() <= 1;
        let mut columns = Vec::new();
        for item in &self.items {
            let too_large = || MovesError::NumberTooLarge(item.to_string());
            match item {
                Item::Letters(letters) => columns.extend(letters.iter().map(|&c| u64::from(c))),
                Item::Digits(digits) if digit_per_column => {
                    columns.extend(digits.bytes().map(|b| u64::from(b - b'0') + offset))
                }
                Item::Digits(digits) => columns.push(
                    digits
                        .parse::<u64>()
                        .ok()
                        .and_then(|n| n.checked_add(offset))
                        .ok_or_else(too_large)?,
                ),
            }
        }
        Ok(columns)
    }
}

impl fmt::Display for Item {
    /// Letters in lowercase, digits as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Letters(letters) => {
                for &c in letters {
                    write!(f, "{}", letter(usize::from(c)))?;
                }
                Ok(())
            }
            Item::Digits(digits) => f.write_str(digits),
        }
    }
}

impl fmt::Display for MoveText {
    /// The items separated by one space, letters in lowercase: it reads back as the same
    /// sequence (`DD,EC` is written `dd ec`, `4453` stays `4453`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, item) in self.items.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{item}")?;
        }
        Ok(())
    }
}

/// Reads a move sequence as 1-based column numbers, in order, following the grammar in the module
/// doc: [`MoveText::parse`], then [`MoveText::columns`] for a board `width` wide.
pub(crate) fn parse_moves(text: &str, width: usize) -> Result<Vec<u64>, MovesError> {
    MoveText::parse(text)?.columns(width)
}

/// Reads a move sequence as `parse_moves` does, with written numbers counted as `counting`
/// says: from zero, `012345` is columns 1 to 6.
pub fn parse_moves_counting(
    text: &str,
    width: usize,
    counting: Counting,
) -> Result<Vec<u64>, MovesError> {
    MoveText::parse(text)?.columns_counting(width, counting)
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

/// Plays a move sequence on `game`, stopping at the first move that cannot be played; the moves
/// before it stay played, so callers that need all or nothing play on a copy.
pub(crate) fn play_sequence(game: &mut Game, moves: &MoveText) -> Result<(), SequenceError> {
    for (i, column) in moves
        .columns(game.variant().width())?
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

/// `play_sequence` on a written sequence.
pub fn play_moves(game: &mut Game, text: &str) -> Result<(), SequenceError> {
    play_sequence(game, &MoveText::parse(text)?)
}

/// The parser of a column number: a run of digits, however long it is, as a number.
fn number(input: &str) -> Parsed<'_, u64, MovesError> {
    let (rest, digits) = digit1(input)?;
    match digits.parse::<u64>() {
        Ok(n) => Ok((rest, n)),
        Err(_) => fail(digits, MovesError::NumberTooLarge(digits.to_string())),
    }
}

/// The parser of exactly one column, as a single move takes it: a whole number (`12`, on any
/// board) or one letter (`d`). Column numbers are not checked against a board.
pub(crate) fn column_number(input: &str) -> Parsed<'_, u64, MovesError> {
    alt((number, map(map_opt(anychar, letter_column), u64::from))).parse(input)
}

/// Reads exactly one column with `column_number`, all of `text`.
pub fn parse_column(text: &str) -> Result<u64, MovesError> {
    parse_whole(column_number, text, |_| {
        MovesError::NotOneColumn(text.to_string())
    })
}

/// Writes a move sequence the way [`parse_moves`] reads it back: digits run together on boards up
/// to 9 wide (`4453`), space-separated numbers on wider ones (`10 11 3`), empty for no moves.
pub(crate) fn format_moves(columns: &[Column], width: usize) -> String {
    let separator = if width > MAX_DIGIT_WIDTH { " " } else { "" };
    columns
        .iter()
        .map(|column| column.number().to_string())
        .collect::<Vec<_>>()
        .join(separator)
}

/// Writes 0-based `columns` as one word that [`parse_moves`] reads back, for lines whose moves are
/// their first word (`c4 solve`'s): digits run together on boards up to 9 wide (`4453`), letters
/// on wider ones (`jjc`).
pub(crate) fn format_moves_word(columns: &[u8], width: usize) -> String {
    columns
        .iter()
        .map(|&column| {
            let number = usize::from(column) + 1;
            if width > MAX_DIGIT_WIDTH {
                letter(number)
            } else {
                char::from(b'0' + number as u8)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_word_of_moves_reads_back_on_narrow_and_wide_boards() {
        use super::{format_moves_word, parse_moves};
        assert_eq!(format_moves_word(&[3, 3, 4, 2], 7), "4453");
        assert_eq!(format_moves_word(&[9, 9, 2], 10), "jjc");
        assert_eq!(parse_moves("jjc", 10), Ok(vec![10, 10, 3]));
        assert_eq!(format_moves_word(&[], 12), "");
    }

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
        // Ten columns have one digit each from zero, not from one.
        assert_eq!(
            parse_moves_counting("0919", 10, Counting::FromZero),
            Ok(vec![1, 10, 2, 10])
        );
        assert_eq!(
            parse_moves_counting("1919", 10, Counting::FromOne),
            Ok(vec![1919])
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
        assert_eq!(super::parse_column("12"), Ok(12));
        assert_eq!(super::parse_column("D"), Ok(4));
        assert_eq!(
            super::parse_column("dd"),
            Err(super::MovesError::NotOneColumn("dd".into()))
        );
        assert_eq!(
            super::parse_column(""),
            Err(super::MovesError::NotOneColumn(String::new()))
        );
        assert_eq!(
            super::parse_column("4?"),
            Err(super::MovesError::NotOneColumn("4?".into()))
        );
        assert_eq!(
            super::parse_column("99999999999999999999"),
            Err(super::MovesError::NumberTooLarge(
                "99999999999999999999".into()
            ))
        );
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
        assert_eq!(parse_moves("4\t4,\t5", 7), Ok(vec![4, 4, 5]));
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
    fn the_syntax_is_read_without_a_board() {
        let moves = MoveText::parse("DD,EC 10").unwrap();
        assert_eq!(moves.to_string(), "dd ec 10");
        assert_eq!(moves.columns(16), Ok(vec![4, 4, 5, 3, 10]));
        let digits = MoveText::parse("4453").unwrap();
        assert_eq!(digits.columns(7), Ok(vec![4, 4, 5, 3]));
        assert_eq!(digits.columns(10), Ok(vec![4453]));
        assert_eq!(
            MoveText::parse("99999999999999999999").unwrap().columns(10),
            Err(MovesError::NumberTooLarge("99999999999999999999".into()))
        );
        assert!(MoveText::parse(" ,").unwrap().is_empty());
    }

    #[test]
    fn empty_texts_are_empty_sequences() {
        assert_eq!(parse_moves("", 7), Ok(vec![]));
        assert_eq!(parse_moves(" , ,", 16), Ok(vec![]));
    }

    #[test]
    fn errors_say_what_was_expected() {
        let message = |text: &str, width| parse_moves(text, width).unwrap_err().to_string();
        let expected = "expected a column number or a letter from a to p";
        assert_eq!(
            message("4d", 7),
            "'4d' mixes digits and letters; write each column as a number or as a letter"
        );
        assert_eq!(
            message("1 2 D4", 7),
            "'D4' mixes digits and letters; write each column as a number or as a letter"
        );
        assert_eq!(message("?", 7), format!("'?' is not a column: {expected}"));
        assert_eq!(
            message("ddq", 16),
            format!("'q' is not a column: {expected}")
        );
        assert_eq!(
            message("4;5", 7),
            format!("';' is not a column: {expected}")
        );
        assert_eq!(
            message("4\u{b}5", 7),
            format!("'\\u{{b}}' is not a column: {expected}")
        );
        assert_eq!(message("é", 1), format!("'é' is not a column: {expected}"));
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
        fn parse_then_display_round_trips(text in "[0-9a-pA-P ,]{0,30}") {
            if let Ok(moves) = MoveText::parse(&text) {
                let written = moves.to_string();
                prop_assert_eq!(MoveText::parse(&written), Ok(moves.clone()));
                for width in [7, 10] {
                    prop_assert_eq!(parse_moves(&written, width), parse_moves(&text, width));
                }
            }
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
