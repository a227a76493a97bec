//! `c4.Board`: a game of any variant the rules allow, made from moves, a FEN or a 2-D array,
//! with play and undo, its result, and the planes reinforcement-learning code feeds a network.
//!
//! Python sees 0-based column indices everywhere (as PettingZoo's actions and NumPy's indices
//! are), and rows counted from the top (as a printed board and a NumPy array are); only move
//! strings and FENs are in the engine's notation (1-based columns, rows from the bottom).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use c4_core::SettingKey;
use c4_core::{fen_of, play_moves, Fen};
use c4_core::{render_indexed, Game};
use c4_core::{Column, MoveError, Outcome, Player, Variant, VariantError};
use c4_core::{STANDARD_CONNECT, STANDARD_HEIGHT, STANDARD_TOKENS, STANDARD_WIDTH};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::args::{argument_error, type_name, Int, Whole};
use crate::value_error;

/// A Connect Four game: the board, whose turn it is, the result, and the moves that `undo` can
/// take back.
///
/// Columns are 0-based indices; rows count from the top, as in `to_numpy()`. Move strings and
/// FENs are in the engine's notation: `"4455"` plays columns 4, 4, 5, 5 counted from 1.
///
/// Made from the empty board, after `moves`: a string in the engine's notation
/// (`"4455"`, 1-based columns) or a sequence of 0-based column indices (`[3, 3, 4, 4]`).
///
/// The rules default to the standard game: 7 columns, 6 rows, connect 4, two players. The
/// solver plays two players, connect 4, on boards with width x (height + 1) <= 128; the rules
/// allow 1-16 columns and rows, connect 2-16 and 2-8 players.
///
/// Raises ValueError for rules out of range or a move that cannot be played, naming the
/// argument or the move; TypeError for an argument of the wrong type.
#[pyclass(module = "c4", name = "Board")]
#[derive(Clone)]
pub struct Board {
    pub(crate) game: Game,
}

/// A board as pickle keeps it: width, height, connect, players, early draw, the FEN of the
/// position its moves start from, and those moves (0-based columns).
type PickleState = (usize, usize, usize, usize, bool, String, Vec<usize>);

/// The rules of a game: `players` take turns on a `width` x `height` board, `connect` in a row
/// wins, and with `early_draw` the game is drawn as soon as nobody can connect any more. A rule
/// out of range is a ValueError that names its argument.
fn variant(
    width: usize,
    height: usize,
    connect: usize,
    players: usize,
    early_draw: bool,
) -> PyResult<Variant> {
    let refused = |e: VariantError| {
        let argument = match e {
            VariantError::BadSide { side, .. } => side,
            VariantError::BadConnect(_) => SettingKey::Connect.word(),
            VariantError::BadPlayerCount(_) => SettingKey::Players.word(),
            // The tokens are the defaults, never refused.
            VariantError::BadToken(_) | VariantError::DuplicateToken(_) => return value_error(e),
        };
        argument_error(argument, e)
    };
    let tokens = Variant::default_tokens(players).map_err(refused)?;
    Variant::new(width, height, connect, tokens, early_draw).map_err(refused)
}

/// The rule `key` (a board side, the connect length, the players) from a Python int of any
/// size: one that no `usize` holds is out of the rules' range, in their words.
fn rule(key: SettingKey, value: &Int) -> PyResult<usize> {
    value.to(key.word(), |got| {
        key.out_of_range(got)
            .expect("the rules' numbers have a range")
            .to_string()
    })
}

/// The column at 0-based `index` of `game`'s board, or why there is none.
fn column_at(game: &Game, index: &Whole) -> Result<Column, String> {
    let width = game.variant().width();
    match index.value().and_then(|index| u64::try_from(index).ok()) {
        Some(index) if index < width as u64 => Ok(game
            .column(index + 1)
            .expect("an index below the width is a column")),
        _ => Err(format!(
            "column index {index} is off the board (indices 0-{})",
            width - 1
        )),
    }
}

/// Plays the column at 0-based `index`, or says why it cannot; on error nothing changes.
fn play_index(game: &mut Game, index: &Whole) -> Result<(), String> {
    let column = column_at(game, index)?;
    game.play(column).map(drop).map_err(|error| match error {
        // The engine names columns 1-based; Python gave a 0-based index.
        MoveError::ColumnFull(_) => format!("column index {index} is full"),
        other => other.to_string(),
    })
}

/// A NumPy int8 array of `shape` holding `values`, the caller's to write. NumPy is imported
/// here, at the first array asked for, so that `import c4` does not wait for it.
fn int8_array<'py>(
    py: Python<'py>,
    values: &[u8],
    shape: Vec<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    let int8 = numpy.getattr("int8")?;
    // frombuffer shares the bytes read-only; the copy is a writable array of its own.
    numpy
        .call_method1("frombuffer", (PyBytes::new(py, values), int8))?
        .call_method1("reshape", (shape,))?
        .call_method0("copy")
}

impl Board {
    /// The cells top row first, `None` for an empty one.
    fn grid(&self) -> Vec<Vec<Option<Player>>> {
        let board = self.game.board();
        (0..board.height())
            .rev()
            .map(|row| (0..board.width()).map(|c| board.at(row, c)).collect())
            .collect()
    }
}

/// The standard game's players: one per default token.
const STANDARD_PLAYERS: usize = STANDARD_TOKENS.len();

/// A default argument from the core's standard game. (The text signatures write the same values
/// out, since PyO3 takes only a literal there; the tests check that they agree.)
fn standard(value: usize) -> Int {
    Int::from(value as u64)
}

#[pymethods]
impl Board {
    // The constructor's documentation is the class's: Python shows that one.
    #[new]
    #[pyo3(
        signature = (moves = None, *, width = standard(STANDARD_WIDTH), height = standard(STANDARD_HEIGHT), connect = standard(STANDARD_CONNECT), players = standard(STANDARD_PLAYERS), early_draw = false),
        text_signature = "(moves=None, *, width=7, height=6, connect=4, players=2, early_draw=False)"
    )]
    fn new(
        moves: Option<&Bound<'_, PyAny>>,
        width: Int,
        height: Int,
        connect: Int,
        players: Int,
        early_draw: bool,
    ) -> PyResult<Board> {
        let rules = variant(
            rule(SettingKey::Width, &width)?,
            rule(SettingKey::Height, &height)?,
            rule(SettingKey::Connect, &connect)?,
            rule(SettingKey::Players, &players)?,
            early_draw,
        )?;
        let mut game = Game::new(rules);
        let Some(moves) = moves else {
            return Ok(Board { game });
        };
        if let Ok(text) = moves.cast::<PyString>() {
            play_moves(&mut game, text.to_str()?).map_err(value_error)?;
        } else {
            let indices: Vec<Int> = moves.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "moves must be a string such as '4455' or a sequence of 0-based column \
                     indices, not {}",
                    type_name(moves)
                ))
            })?;
            for (i, index) in indices.iter().enumerate() {
                let name = format!("move {}", i + 1);
                play_index(&mut game, index.whole(&name)?)
                    .map_err(|error| PyValueError::new_err(format!("{name}: {error}")))?;
            }
        }
        Ok(Board { game })
    }

    /// The position of a FEN such as `"2x1oo1/2x4/7/7/7/7 x"` (rows bottom first, then the side
    /// to move); the FEN sets the board's size, the other rules come from the arguments. Moves
    /// played after it can be taken back; the FEN's position cannot.
    ///
    /// Raises ValueError with the engine's reason for a FEN that does not parse or that play
    /// cannot reach.
    #[staticmethod]
    #[pyo3(
        signature = (fen, *, connect = standard(STANDARD_CONNECT), players = standard(STANDARD_PLAYERS), early_draw = false),
        text_signature = "(fen, *, connect=4, players=2, early_draw=False)"
    )]
    fn from_fen(fen: &str, connect: Int, players: Int, early_draw: bool) -> PyResult<Board> {
        let parsed = Fen::parse(fen).map_err(value_error)?;
        let rules = variant(
            parsed.width(),
            parsed.height(),
            rule(SettingKey::Connect, &connect)?,
            rule(SettingKey::Players, &players)?,
            early_draw,
        )?;
        let game = parsed.to_game(&rules).map_err(value_error)?;
        Ok(Board { game })
    }

    /// The position of a 2-D array (a NumPy array or nested sequences), top row first: 0 for an
    /// empty cell, 1 for the first player's stone, 2 for the second's, and so on. Its shape sets
    /// the board's size; the side to move follows from the number of stones.
    ///
    /// Raises ValueError for a ragged array, a value that is no player, or a position that play
    /// cannot reach (the engine's reason).
    #[staticmethod]
    #[pyo3(
        signature = (array, *, connect = standard(STANDARD_CONNECT), players = standard(STANDARD_PLAYERS), early_draw = false),
        text_signature = "(array, *, connect=4, players=2, early_draw=False)"
    )]
    fn from_array(
        array: &Bound<'_, PyAny>,
        connect: Int,
        players: Int,
        early_draw: bool,
    ) -> PyResult<Board> {
        let (connect, players) = (
            rule(SettingKey::Connect, &connect)?,
            rule(SettingKey::Players, &players)?,
        );
        let rows: Vec<Vec<Int>> = array.extract().map_err(|_| {
            PyValueError::new_err("the array must be 2-D: a sequence of rows of integers")
        })?;
        let height = rows.len();
        let width = rows.first().map_or(0, Vec::len);
        if let Some((i, row)) = rows.iter().enumerate().find(|(_, r)| r.len() != width) {
            return Err(PyValueError::new_err(format!(
                "row {i} of the array has {} cells, but row 0 has {width}",
                row.len()
            )));
        }
        let rules = variant(width, height, connect, players, early_draw)?;
        let mut grid = Vec::with_capacity(height);
        for (r, row) in rows.iter().enumerate() {
            let mut cells = Vec::with_capacity(width);
            for (c, value) in row.iter().enumerate() {
                let value = value.whole(&format!("the cell at row {r}, column {c}"))?;
                cells.push(match value.value() {
                    Some(0) => None,
                    Some(v) if (1..=players as i128).contains(&v) => {
                        Some(Player::from_index(v as usize - 1))
                    }
                    _ => {
                        return Err(PyValueError::new_err(format!(
                            "the cell at row {r}, column {c} holds {value}; expected 0 for empty or a player from 1 to {players}"
                        )))
                    }
                });
            }
            grid.push(cells);
        }
        Ok(Board {
            game: Game::from_grid(&rules, &grid).map_err(value_error)?,
        })
    }

    /// The number of columns.
    #[getter]
    fn width(&self) -> usize {
        self.game.variant().width()
    }

    /// The number of rows.
    #[getter]
    fn height(&self) -> usize {
        self.game.variant().height()
    }

    /// How many stones in a row win.
    #[getter]
    fn connect(&self) -> usize {
        self.game.variant().connect()
    }

    /// The number of players.
    #[getter]
    fn players(&self) -> usize {
        self.game.variant().players()
    }

    /// Whether the game is drawn as soon as nobody can connect any more.
    #[getter]
    fn early_draw(&self) -> bool {
        self.game.variant().early_draw()
    }

    /// The stones on the board.
    #[getter]
    fn ply(&self) -> usize {
        self.game.ply()
    }

    /// The player to move (0 moves first); once the game is over, the one who would be.
    #[getter]
    fn to_move(&self) -> usize {
        self.game.to_move().index()
    }

    /// The columns (0-based) played since the board was made from moves or a position, oldest
    /// first: what `undo` can take back.
    #[getter]
    fn moves(&self) -> Vec<usize> {
        self.game.history().iter().map(|c| c.index()).collect()
    }

    /// The position as a FEN, rows bottom first: `"7/7/7/7/7/7 x"` for the empty board.
    #[getter]
    fn fen(&self) -> String {
        fen_of(&self.game)
    }

    /// The player (0-based) who connected, or None.
    #[getter]
    fn winner(&self) -> Option<usize> {
        match self.game.outcome() {
            Outcome::Win(player) => Some(player.index()),
            _ => None,
        }
    }

    /// Whether the game is over: won, or drawn.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.outcome().is_over()
    }

    /// Whether the game ended in a draw.
    #[getter]
    fn is_draw(&self) -> bool {
        matches!(self.game.outcome(), Outcome::Draw(_))
    }

    /// The cells of the winner's lines as (row, column), rows from the top, sorted; empty
    /// unless the game is won.
    #[getter]
    fn winning_cells(&self) -> Vec<(usize, usize)> {
        let top = self.height() - 1;
        let mut cells: Vec<(usize, usize)> = self
            .game
            .winning_lines()
            .iter()
            .flat_map(|line| line.cells.iter().map(|cell| (top - cell.row, cell.column)))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// The columns (0-based) that can be played now, left to right; empty once the game is over.
    fn legal_moves(&self) -> Vec<usize> {
        self.game.legal_moves().iter().map(|c| c.index()).collect()
    }

    /// Whether column `column` (0-based) can be played now.
    ///
    /// Raises TypeError if `column` is not an int.
    fn is_legal(&self, column: Int) -> PyResult<bool> {
        let column = column.whole("column")?;
        Ok(column_at(&self.game, column).is_ok_and(|c| self.game.is_legal(c)))
    }

    /// Plays column `column` (0-based) for the side to move.
    ///
    /// Raises ValueError (and changes nothing) if the column is off the board or full, or the
    /// game is over; TypeError if `column` is not an int.
    fn play(&mut self, column: Int) -> PyResult<()> {
        play_index(&mut self.game, column.whole("column")?).map_err(PyValueError::new_err)
    }

    /// Takes back the last move and returns its column (0-based).
    ///
    /// Raises ValueError when no move was played since the board was made from moves or a
    /// position.
    fn undo(&mut self) -> PyResult<usize> {
        self.game.undo().map(|c| c.index()).ok_or_else(|| {
            PyValueError::new_err("nothing to undo: no move was played since the position was set")
        })
    }

    /// A copy that plays on independently.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// What pickle keeps: the rules, the FEN of the position the moves start from, and the
    /// moves (0-based), so that `undo` works on the copy too.
    fn __getstate__(&self) -> PickleState {
        let mut start = self.game.clone();
        while start.undo().is_some() {}
        (
            self.width(),
            self.height(),
            self.connect(),
            self.players(),
            self.early_draw(),
            fen_of(&start),
            self.moves(),
        )
    }

    /// Restores what `__getstate__` kept.
    fn __setstate__(&mut self, state: PickleState) -> PyResult<()> {
        let (width, height, connect, players, early_draw, fen, moves) = state;
        let rules = variant(width, height, connect, players, early_draw)?;
        let mut game = Fen::parse(&fen)
            .map_err(value_error)?
            .to_game(&rules)
            .map_err(value_error)?;
        for column in moves {
            play_index(&mut game, &Whole::Fits(column as i128)).map_err(PyValueError::new_err)?;
        }
        self.game = game;
        Ok(())
    }

    /// The board mirrored left to right, with the moves since its position mirrored too (so
    /// that `undo` takes them back as here).
    fn mirror(&self) -> Board {
        Board {
            game: self.game.mirrored(),
        }
    }

    /// The position as planes of 0 and 1 (int8), shape (height, width, players) with rows from
    /// the top: plane 0 holds the side to move's stones, plane 1 the next player's, and so on;
    /// PettingZoo's `connect_four_v3` observation on the standard board. With `channels_first`,
    /// shape (players, height, width).
    #[pyo3(signature = (*, channels_first = false))]
    fn to_numpy<'py>(&self, py: Python<'py>, channels_first: bool) -> PyResult<Bound<'py, PyAny>> {
        let (height, width, players) = (self.height(), self.width(), self.players());
        let mut planes = vec![0u8; height * width * players];
        let to_move = self.game.to_move().index();
        for (row, cells) in self.grid().iter().enumerate() {
            for (column, cell) in cells.iter().enumerate() {
                let Some(player) = cell else { continue };
                let plane = (player.index() + players - to_move) % players;
                let at = if channels_first {
                    (plane * height + row) * width + column
                } else {
                    (row * width + column) * players + plane
                };
                planes[at] = 1;
            }
        }
        let shape = if channels_first {
            vec![players, height, width]
        } else {
            vec![height, width, players]
        };
        int8_array(py, &planes, shape)
    }

    /// The legal columns as an int8 array of 0 and 1, one entry per column: PettingZoo's
    /// `action_mask`.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let legal = self.legal_moves();
        let mask: Vec<u8> = (0..self.width())
            .map(|c| u8::from(legal.contains(&c)))
            .collect();
        int8_array(py, &mask, vec![self.width()])
    }

    /// The same rules, stones and side to move (the moves that led there do not count).
    fn __eq__(&self, other: &Board) -> bool {
        self.game.variant() == other.game.variant() && self.fen() == other.fen()
    }

    /// A hash of the rules, stones and side to move, consistent with `==`. A board is mutable:
    /// do not play on one while it is a key of a dict or in a set.
    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        (self.connect(), self.players(), self.early_draw()).hash(&mut hasher);
        self.fen().hash(&mut hasher);
        hasher.finish()
    }

    /// The board as text, top row first: `.` for an empty cell, the players' tokens (`x`, `o`,
    /// then `a`, `b`, ...), and the column indices below.
    fn __str__(&self) -> String {
        let mut text = render_indexed(self.game.board(), self.game.variant());
        // Python's text has no final newline: print adds one.
        text.pop();
        text
    }

    /// `Board.from_fen(...)` with the rules that differ from the standard game's.
    fn __repr__(&self) -> String {
        let variant = self.game.variant();
        let mut rules = String::new();
        if self.connect() != 4 {
            rules.push_str(&format!(", connect={}", self.connect()));
        }
        if self.players() != 2 {
            rules.push_str(&format!(", players={}", self.players()));
        }
        if variant.early_draw() {
            rules.push_str(", early_draw=True");
        }
        format!("Board.from_fen({:?}{rules})", self.fen())
    }
}
