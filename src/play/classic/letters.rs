//! The letters program: `Welcome to CONNECT FOUR` and its menu (`p` play, `q` quit) at the start
//! and after every game; the person is `X` and types columns `A`-`G`, the computer is `O` and
//! picks a random column (or plays at the level `--computer O=LEVEL` gives it, with the same
//! words); the board after every piece.

use std::io::{BufRead, Write};

use super::dialogue::{Dialogue, Halt};
use super::turns::{self, column_full, not_a_column, Answer, Computers, Refusal, Table, Words};
use crate::play::options::PlayOptions;
use c4_core::LayoutStyle;
use c4_core::Outcome;

/// The welcome and the menu, shown at the start and after every game.
const MENU: &str = "Welcome to CONNECT FOUR\nEnter p to play. Enter q to quit.\n";

/// The menu until `q`, a game for each `p`.
pub(super) fn session<R: BufRead, W: Write>(
    dialogue: &mut Dialogue<R, W>,
    options: &PlayOptions,
) -> Result<(), Halt> {
    let mut computers = Computers::new(options);
    dialogue.write(MENU)?;
    loop {
        let choice = dialogue.ask("")?;
        match choice.to_ascii_lowercase().as_str() {
            "p" => {
                let game = options.start().expect("checked with the options");
                turns::play(
                    dialogue,
                    &Letters,
                    &mut Table::unnamed(game),
                    &mut computers,
                )?;
                dialogue.write(MENU)?;
            }
            "q" => return Ok(()),
            _ => dialogue.write("Enter p to play. Enter q to quit.\n")?,
        }
    }
}

/// The letters program's words.
struct Letters;

/// The letter of 1-based column `number`: `A` for 1.
fn letter(number: usize) -> char {
    (b'A' + (number - 1) as u8) as char
}

impl Words for Letters {
    fn prompt(&self, table: &Table) -> String {
        format!("Enter a column (A-{}): ", letter(table.width()))
    }

    /// One letter, either case; a letter past the board's last column is off the board.
    fn answer(&self, text: &str) -> Answer {
        match text.as_bytes() {
            [c] if c.is_ascii_alphabetic() => {
                Answer::Column(u64::from(c.to_ascii_uppercase() - b'A') + 1)
            }
            _ => Answer::NotAColumn,
        }
    }

    fn refused(&self, table: &Table, refusal: Refusal) -> String {
        match refusal {
            Refusal::NotAColumn(text) | Refusal::OffBoard(text) => not_a_column(
                text,
                &format!("a letter from A to {}", letter(table.width())),
            ),
            Refusal::Full(column) => column_full(letter(column.number())),
        }
    }

    fn moved(&self, table: &Table) -> String {
        table.board(LayoutStyle::Letters)
    }

    fn ended(&self, table: &Table) -> String {
        let result = match table.game.outcome() {
            Outcome::Win(winner) if table.token(winner) == 'X' => "You win!",
            Outcome::Win(_) => "The computer wins!",
            _ => "It's a draw: the board is full.",
        };
        format!("{}{result}\n", table.board(LayoutStyle::Letters))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_letters_of_either_case() {
        assert_eq!(Letters.answer("A"), Answer::Column(1));
        assert_eq!(Letters.answer("g"), Answer::Column(7));
        // Past G: a column off the board, refused as no column.
        assert_eq!(Letters.answer("H"), Answer::Column(8));
        for text in ["", "1", "AB", "é"] {
            assert_eq!(Letters.answer(text), Answer::NotAColumn, "{text}");
        }
    }
}
