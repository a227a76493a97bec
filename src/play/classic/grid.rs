//! The grid program: a start menu (`L` load, `P` play), two named players `x` and `o`, each
//! turn the boxed board, a blank line, `Enter: the column to move, q to quit, s to save` and
//! `NAME enter your move: `; `ILLEGAL MOVE: Try again`; saving and loading the classic save file;
//! the winner's line before the final board.

use std::io::{BufRead, Write};
use std::path::Path;

use super::dialogue::{Dialogue, Halt};
use super::turns::{self, number, Answer, Computers, Refusal, Table, Words};
use crate::play::conversation::sentence;
use crate::play::options::PlayOptions;
use c4_core::LayoutStyle;
use c4_core::{check_name, Game, Outcome};
use c4_core::{load_game, save_game};

/// The start menu; `P` or `p` plays, any other entry loads a game.
const MENU: &str = "Enter L to load a game, or P to play: ";
/// The question for a file to load or save to.
const FILENAME: &str = "Enter the filename: ";

/// The whole session: the menu, a new or loaded game, and its end. A file that cannot be loaded
/// is said and the menu asked again.
pub(super) fn session<R: BufRead, W: Write>(
    dialogue: &mut Dialogue<R, W>,
    options: &PlayOptions,
) -> Result<(), Halt> {
    let mut table = loop {
        if dialogue.ask(MENU)?.eq_ignore_ascii_case("p") {
            break new_game(dialogue, options)?;
        }
        let file = dialogue.ask(FILENAME)?;
        match load_game(Path::new(&file)) {
            Ok((names, game)) => break Table { game, names },
            Err(e) => dialogue.write(&format!("{}\n", sentence(&e.to_string())))?,
        }
    };
    turns::play(dialogue, &Grid, &mut table, &mut Computers::new(options))
}

/// Asks both players' names and starts the empty board.
fn new_game<R: BufRead, W: Write>(
    dialogue: &mut Dialogue<R, W>,
    options: &PlayOptions,
) -> Result<Table, Halt> {
    let game = Game::new(
        options
            .variant()
            .expect("the grid program's game is standard"),
    );
    let mut names = Vec::new();
    for number in 1..=game.variant().players() {
        names.push(ask_name(dialogue, number)?);
    }
    Ok(Table { game, names })
}

/// Asks player `number`'s name until it is one a save file can hold.
fn ask_name<R: BufRead, W: Write>(
    dialogue: &mut Dialogue<R, W>,
    number: usize,
) -> Result<String, Halt> {
    let prompt = format!("Player {number}, enter your name: ");
    loop {
        let name = dialogue.ask(&prompt)?;
        match check_name(&name) {
            Ok(()) => return Ok(name),
            Err(e) => dialogue.write(&format!("{}\n", sentence(&e.to_string())))?,
        }
    }
}

/// The grid program's words.
struct Grid;

impl Grid {
    /// The board and the blank line under it, as every turn starts.
    fn board(&self, table: &Table) -> String {
        format!("{}\n", table.board(LayoutStyle::Grid))
    }
}

impl Words for Grid {
    fn opening(&self, table: &Table) -> String {
        self.board(table)
    }

    fn prompt(&self, table: &Table) -> String {
        let name = &table.names[table.game.to_move().index()];
        format!("Enter: the column to move, q to quit, s to save\n{name} enter your move: ")
    }

    /// `q` and `s` in lower case only: the menu's is the only entry the document reads in
    /// either case.
    fn answer(&self, text: &str) -> Answer {
        match text {
            "q" => Answer::Quit,
            "s" => Answer::Save,
            _ => number(text).map_or(Answer::NotAColumn, Answer::Column),
        }
    }

    fn refused(&self, table: &Table, _refusal: Refusal) -> String {
        format!("ILLEGAL MOVE: Try again\n{}", self.board(table))
    }

    fn moved(&self, table: &Table) -> String {
        format!("\n{}", self.board(table))
    }

    fn ended(&self, table: &Table) -> String {
        let result = match table.game.outcome() {
            Outcome::Win(winner) => {
                format!("Congratulations {}! You won!", table.names[winner.index()])
            }
            _ => "Draw!".to_string(),
        };
        format!("\n{result}\n{}", table.board(LayoutStyle::Grid))
    }

    fn quitting(&self) -> String {
        "Thanks for playing!\n".to_string()
    }

    /// Saves to the file named, then shows the board again for the same player; a file that
    /// cannot be written is said first.
    fn save<R: BufRead, W: Write>(
        &self,
        dialogue: &mut Dialogue<R, W>,
        table: &Table,
    ) -> Result<String, Halt> {
        let file = dialogue.ask(FILENAME)?;
        let problem = match save_game(Path::new(&file), &table.names, &table.game) {
            Ok(()) => String::new(),
            Err(e) => format!("{}\n", sentence(&e.to_string())),
        };
        Ok(format!("{problem}{}", self.board(table)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_lower_case_q_and_s_are_commands() {
        assert_eq!(Grid.answer("q"), Answer::Quit);
        assert_eq!(Grid.answer("s"), Answer::Save);
        assert_eq!(Grid.answer("3"), Answer::Column(3));
        for text in ["Q", "S", "x", "", "3x"] {
            assert_eq!(Grid.answer(text), Answer::NotAColumn, "{text}");
        }
    }
}
