//! The turn loop the five programs share: a game from its first board to its end, a person's
//! answers read and checked by the rules, the computer's moves chosen by the engine. What is
//! said at each step is the program's ([`Words`]).

use std::io::{BufRead, Write};

use super::dialogue::{Dialogue, Halt};
use crate::play::conversation::solver_for;
use crate::play::options::{PlayOptions, COMPUTER_NODE_LIMIT};
use c4_core::{choose, Level, Rng};
use c4_core::{render_board, LayoutStyle};
use c4_core::{Column, Game, MoveError, Player};
use c4_core::{Limits, Solver};

/// A game with its players' names (the grid program's; the others name players by token or
/// number).
pub(super) struct Table {
    pub game: Game,
    pub names: Vec<String>,
}

impl Table {
    /// A game whose players are called by their tokens.
    pub(super) fn unnamed(game: Game) -> Table {
        let names = game
            .variant()
            .tokens()
            .iter()
            .map(|t| t.to_string())
            .collect();
        Table { game, names }
    }

    /// The board in one of the layouts, as [`render`] draws it (ending with a newline).
    pub(super) fn board(&self, style: LayoutStyle) -> String {
        render_board(self.game.board(), self.game.variant(), style)
    }

    /// The token of `player`.
    pub(super) fn token(&self, player: Player) -> char {
        self.game.variant().token(player).as_char()
    }

    /// The number of columns.
    pub(super) fn width(&self) -> usize {
        self.game.variant().width()
    }
}

/// What a person's answer at a turn means to the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answer {
    /// A column, 1-based, not yet checked against the board.
    Column(u64),
    /// Something that is no column.
    NotAColumn,
    /// Stop playing (the grid program's `q`).
    Quit,
    /// Save the game (the grid program's `s`).
    Save,
}

/// Why a person's answer was not played, with the answer as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refusal<'a> {
    /// Not a column at all.
    NotAColumn(&'a str),
    /// A column off the board.
    OffBoard(&'a str),
    /// A column with no room left.
    Full(Column),
}

/// What one program says around the shared turn loop. Every text is written as it is, so each
/// carries its own line ends and blank lines.
///
/// The defaults are what the programs that number columns from 1 and show the board alone
/// after every move share (the dots and numbers programs).
pub(super) trait Words {
    /// The lines that open a session of one game (none by default).
    fn welcome(&self) -> &'static str {
        ""
    }
    /// Before the first turn: the board as the program first shows it.
    fn opening(&self, table: &Table) -> String {
        self.moved(table)
    }
    /// The question for a person's move.
    fn prompt(&self, table: &Table) -> String;
    /// What `text`, typed at a turn, means: by default a column number from 1.
    fn answer(&self, text: &str) -> Answer {
        number(text).map_or(Answer::NotAColumn, Answer::Column)
    }
    /// A refused answer; the same player is then asked again.
    fn refused(&self, table: &Table, refusal: Refusal) -> String {
        match refusal {
            Refusal::NotAColumn(text) | Refusal::OffBoard(text) => {
                not_a_column(text, &format!("a number from 1 to {}", table.width()))
            }
            Refusal::Full(column) => column_full(column.number()),
        }
    }
    /// After a move that leaves the game going.
    fn moved(&self, table: &Table) -> String;
    /// After the move that ends the game.
    fn ended(&self, table: &Table) -> String;
    /// Before [`Words::moved`] or [`Words::ended`] when the computer has played `column` for
    /// `mover`.
    fn computer_played(&self, _table: &Table, _mover: Player, _column: Column) -> String {
        String::new()
    }
    /// After [`Answer::Quit`], which only programs with a quit command give.
    fn quitting(&self) -> String {
        String::new()
    }
    /// Saves after [`Answer::Save`], asking what it needs, and returns what is then shown; only
    /// programs with a save command give that answer.
    fn save<R: BufRead, W: Write>(
        &self,
        _dialogue: &mut Dialogue<R, W>,
        _table: &Table,
    ) -> Result<String, Halt> {
        Ok(String::new())
    }
}

/// How a person's turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// A column was played.
    Played,
    /// The person quit.
    Quit,
}

/// The computer players of one run: their levels, their random choices and the solver.
pub(super) struct Computers {
    levels: Vec<(char, Level)>,
    rng: Rng,
    solver: Option<Solver>,
}

impl Computers {
    /// The computers `options` name, their random choices seeded by its seed (0 if none).
    pub(super) fn new(options: &PlayOptions) -> Computers {
        Computers {
            levels: options.computers.clone(),
            rng: Rng::new(options.seed.unwrap_or(0)),
            solver: None,
        }
    }

    /// The level of the player with `token`, if the computer plays it.
    fn level(&self, token: char) -> Option<Level> {
        self.levels
            .iter()
            .find(|&&(t, _)| t == token)
            .map(|&(_, level)| level)
    }

    /// The column the computer plays in `game`, still in progress, at `level`.
    fn choose(&mut self, game: &Game, level: Level) -> Column {
        let limits = Limits {
            max_nodes: Some(COMPUTER_NODE_LIMIT),
            ..Limits::default()
        };
        let solver = solver_for(&mut self.solver, game, level == Level::Perfect);
        choose(game, level, solver, &mut self.rng, &limits)
            .expect("a game in progress has a legal move")
            .column
    }
}

/// A typed column number: digits only, as the programs read numbers (no sign, no spaces).
pub(super) fn number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Digits too many for any number are still a number, far off the board.
    Some(text.parse().unwrap_or(u64::MAX))
}

/// The refusal of `text`, typed where a column was expected, naming what is expected instead
/// (`a number from 1 to 7`).
pub(super) fn not_a_column(text: &str, expected: &str) -> String {
    if text.is_empty() {
        format!("Nothing was entered: enter {expected}.\n")
    } else {
        format!("\"{text}\" is not a column: enter {expected}.\n")
    }
}

/// The refusal of a full column, named `label`.
pub(super) fn column_full(label: impl std::fmt::Display) -> String {
    format!("Column {label} is full: choose another column.\n")
}

/// A session of one game from the start `options` set (checked when they were read): the
/// program's welcome, then the game.
pub(super) fn one_game<R: BufRead, W: Write>(
    dialogue: &mut Dialogue<R, W>,
    words: &impl Words,
    options: &PlayOptions,
) -> Result<(), Halt> {
    let game = options.start().expect("checked with the options");
    dialogue.write(words.welcome())?;
    play(
        dialogue,
        words,
        &mut Table::unnamed(game),
        &mut Computers::new(options),
    )
}

/// Plays `table` from its opening to its end, or until a person quits or the input ends.
pub(super) fn play<R: BufRead, W: Write>(
    dialogue: &mut Dialogue<R, W>,
    words: &impl Words,
    table: &mut Table,
    computers: &mut Computers,
) -> Result<(), Halt> {
    dialogue.write(&words.opening(table))?;
    loop {
        if table.game.outcome().is_over() {
            return Ok(dialogue.write(&words.ended(table))?);
        }
        let mover = table.game.to_move();
        if let Some(level) = computers.level(table.token(mover)) {
            let column = computers.choose(&table.game, level);
            table
                .game
                .play(column)
                .expect("the engine chooses legal columns");
            dialogue.write(&words.computer_played(table, mover, column))?;
        } else if person_moves(dialogue, words, table)? == Turn::Quit {
            return Ok(dialogue.write(&words.quitting())?);
        }
        if !table.game.outcome().is_over() {
            dialogue.write(&words.moved(table))?;
        }
    }
}

/// Asks the person to move until they play a column or quit, refusing what cannot be played.
fn person_moves<R: BufRead, W: Write>(
    dialogue: &mut Dialogue<R, W>,
    words: &impl Words,
    table: &mut Table,
) -> Result<Turn, Halt> {
    loop {
        let text = dialogue.ask(&words.prompt(table))?;
        let refusal = match words.answer(&text) {
            Answer::Column(number) => {
                let played = table
                    .game
                    .column(number)
                    .and_then(|column| table.game.play(column));
                match played {
                    Ok(_) => return Ok(Turn::Played),
                    Err(MoveError::ColumnFull(column)) => Refusal::Full(column),
                    Err(MoveError::OffBoard { .. }) => Refusal::OffBoard(&text),
                    Err(MoveError::GameOver(_)) => unreachable!("asked only in a game going on"),
                }
            }
            Answer::NotAColumn => Refusal::NotAColumn(&text),
            Answer::Quit => return Ok(Turn::Quit),
            Answer::Save => {
                let shown = words.save(dialogue, table)?;
                dialogue.write(&shown)?;
                continue;
            }
        };
        dialogue.write(&words.refused(table, refusal))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_digits_only() {
        assert_eq!(number("3"), Some(3));
        assert_eq!(number("07"), Some(7));
        assert_eq!(number("99999999999999999999999"), Some(u64::MAX));
        for text in ["", "-1", "+3", "3a", "x", "3 4"] {
            assert_eq!(number(text), None, "{text}");
        }
    }

    #[test]
    fn refusals_say_what_was_typed_and_what_is_expected() {
        assert_eq!(
            not_a_column("x", "a number from 1 to 7"),
            "\"x\" is not a column: enter a number from 1 to 7.\n"
        );
        assert_eq!(
            not_a_column("", "a letter from A to G"),
            "Nothing was entered: enter a letter from A to G.\n"
        );
        assert_eq!(
            column_full('D'),
            "Column D is full: choose another column.\n"
        );
    }
}
