//! The numbers program: the board as a grid of `0` (empty), `1` and `2` after every move, players
//! 1 and 2 asked for a column in turn, and the game's end: a win or, at 42 moves, a draw. Its
//! document gives none of its words, so these are `c4`'s own, in its manner.

use super::turns::{Table, Words};
use c4_core::LayoutStyle;
use c4_core::Outcome;

/// The numbers program's words.
pub(super) struct Numbers;

impl Words for Numbers {
    fn prompt(&self, table: &Table) -> String {
        let player = table.game.to_move().index() + 1;
        format!("Player {player}, choose a column (1-{}): ", table.width())
    }

    fn moved(&self, table: &Table) -> String {
        table.board(LayoutStyle::Numbers)
    }

    fn ended(&self, table: &Table) -> String {
        let result = match table.game.outcome() {
            Outcome::Win(winner) => format!("Player {} wins!", winner.index() + 1),
            _ => "It's a draw: the board is full.".to_string(),
        };
        format!("{}{result}\n", table.board(LayoutStyle::Numbers))
    }
}
