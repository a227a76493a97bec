//! The pipes program (`hostGame` of the `Board` class): `Welcome to Connect Four!`, the board
//! between blank lines, `X's choice: ` and `O's choice: ` with 0-based columns, and at a win
//! `X wins -- Congratulations!` before the final board. A column it cannot take is asked for
//! again without a word, as its `allowsMove` loop does.

use super::turns::{number, Answer, Refusal, Table, Words};
use c4_core::LayoutStyle;
use c4_core::Outcome;

/// The rule under the rows, as the document prints it whatever the width.
const RULE: &str = "-----";

/// The pipes program's words.
pub(super) struct Pipes;

impl Pipes {
    /// The board as `__str__` returns it in the document: the `|X|O| |` rows, the rule, and the
    /// 0-based labels from the line's first character; then the blank line `print` adds.
    fn board(&self, table: &Table) -> String {
        let pipes = table.board(LayoutStyle::Pipes);
        let rows = pipes.lines().take(table.game.variant().height());
        let labels: Vec<String> = (0..table.width()).map(|c| (c % 10).to_string()).collect();
        let mut text = String::new();
        for line in rows.chain([RULE, &labels.join(" ")]) {
            text.push_str(line);
            text.push('\n');
        }
        text.push('\n');
        text
    }
}

impl Words for Pipes {
    /// The line that opens the session, and the blank line after it.
    fn welcome(&self) -> &'static str {
        "Welcome to Connect Four!\n\n"
    }

    fn opening(&self, table: &Table) -> String {
        self.board(table)
    }

    fn prompt(&self, table: &Table) -> String {
        format!("{}'s choice: ", table.token(table.game.to_move()))
    }

    /// A 0-based column number.
    fn answer(&self, text: &str) -> Answer {
        number(text).map_or(Answer::NotAColumn, |n| Answer::Column(n.saturating_add(1)))
    }

    fn refused(&self, _table: &Table, _refusal: Refusal) -> String {
        String::new()
    }

    fn moved(&self, table: &Table) -> String {
        format!("\n{}", self.board(table))
    }

    fn ended(&self, table: &Table) -> String {
        let result = match table.game.outcome() {
            Outcome::Win(winner) => format!("{} wins -- Congratulations!", table.token(winner)),
            _ => "Tie game -- the board is full!".to_string(),
        };
        format!("\n{result}\n\n{}", self.board(table))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::PlayOptions;

    #[test]
    fn the_board_is_the_documents_str_with_the_blank_line_print_adds() {
        let game = PlayOptions::default().start().unwrap();
        let expected = format!("{}-----\n0 1 2 3 4 5 6\n\n", "| | | | | | | |\n".repeat(6));
        assert_eq!(Pipes.board(&Table::unnamed(game)), expected);
    }

    #[test]
    fn columns_count_from_zero() {
        assert_eq!(Pipes.answer("0"), Answer::Column(1));
        assert_eq!(Pipes.answer("6"), Answer::Column(7));
        assert_eq!(Pipes.answer("-1"), Answer::NotAColumn);
    }
}
