//! The dots program: `Let's play Connect Four!`, the dotted board after every move, `X's turn: `
//! for whichever token moves (any number of players), and at a win `Player Y wins the game via
//! row 6`, `Congratulation: Player Y has won the game!` and `Goodbye!`.

use super::turns::{Table, Words};
use crate::play::conversation::winning_ways;
use c4_core::LayoutStyle;
use c4_core::{Column, DrawReason, Outcome, Player};

/// The dots program's words.
pub(super) struct Dots;

impl Words for Dots {
    fn welcome(&self) -> &'static str {
        "Let's play Connect Four!\nEnter column number like \"3\" for column 3.\n"
    }

    fn prompt(&self, table: &Table) -> String {
        format!("{}'s turn: ", table.token(table.game.to_move()))
    }

    fn moved(&self, table: &Table) -> String {
        table.board(LayoutStyle::Dots)
    }

    fn ended(&self, table: &Table) -> String {
        let game = &table.game;
        let result = match game.outcome() {
            Outcome::Win(winner) => {
                let token = table.token(winner);
                format!(
                    "Player {token} wins the game via {}\nCongratulation: Player {token} has won \
                     the game!\n",
                    winning_ways(game, |n| n.to_string())
                )
            }
            Outcome::Draw(DrawReason::BoardFull) => "The board is full: it's a tie!\n".to_string(),
            Outcome::Draw(DrawReason::NoLineLeft) => format!(
                "Nobody can connect {} any more: it's a tie!\n",
                game.variant().connect()
            ),
            Outcome::InProgress => unreachable!("ended is said at the end"),
        };
        format!("{}{result}Goodbye!\n", table.board(LayoutStyle::Dots))
    }

    /// The computer's column, as if typed after the prompt.
    fn computer_played(&self, table: &Table, mover: Player, column: Column) -> String {
        format!("{}'s turn: {}\n", table.token(mover), column.number())
    }
}
