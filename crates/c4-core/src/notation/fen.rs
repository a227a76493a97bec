//! FEN, the one-line text form of a position, read in two steps as the best chess libraries do:
//! the nom grammar turns text into plain data ([`Fen`]) or a [`FenSyntaxError`]; then
//! [`Fen::to_game`] validates that data against a variant into a playable [`Game`], or says which
//! rule it breaks ([`FenPositionError`]). Whether a position is reachable is the rules' decision.
//!
//! Grammar: rows from the bottom row (row 1) to the top, separated by `/`; within a row, columns
//! left to right, each cell either a token character or a run of N empty cells written as the
//! decimal number N (`16` on a 16-wide board; never `0`); then whitespace and the token of the
//! side to move, and nothing after it. The empty standard board is `7/7/7/7/7/7 x`.

use std::fmt;
use std::str::FromStr;

use nom::bytes::complete::{take_till, take_till1};
use nom::character::complete::{anychar, char, digit1, multispace1, satisfy};
use nom::combinator::{map, opt};
use nom::multi::{many1, separated_list1};
use nom::sequence::preceded;
use nom::Parser;
use thiserror::Error;

use super::grammar::{fail, parse_whole, Parsed};
use super::settings::token_list;
use crate::rules::variant::MAX_SIDE;
use crate::rules::{Board, Cell, Game, Player, PositionError, Variant};

/// Why a text is not a FEN: its syntax, before any variant is known.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenSyntaxError {
    /// Nothing but whitespace.
    #[error("fen is empty")]
    Empty,
    /// Rows without a side to move after them.
    #[error("fen has no side to move: expected rows, a space and a token, e.g. 7/7/7/7/7/7 x")]
    NoSideToMove,
    /// Anything after the side to move.
    #[error("fen has extra text after the side to move: '{0}'")]
    ExtraText(String),
    /// More rows than a board can have.
    #[error("fen has {0} rows; a board is at most {MAX_SIDE} high")]
    TooManyRows(usize),
    /// Two `/` with nothing between them, or one at either end.
    #[error("fen row {0} is empty")]
    EmptyRow(usize),
    /// A run of zero empty cells.
    #[error("fen row {0} has an empty-cell count of 0")]
    ZeroCount(usize),
    /// A run of empty cells longer than any board is wide.
    #[error(
        "fen row {row} has an empty-cell count of {count}; a board is at most {MAX_SIDE} wide"
    )]
    CountTooLarge {
        /// Row, from 1 at the bottom.
        row: usize,
        /// The count as written.
        count: String,
    },
    /// The first row is wider than any board.
    #[error("fen row {row} has {cells} cells; a board is at most {MAX_SIDE} wide")]
    TooManyCells {
        /// Row, from 1 at the bottom.
        row: usize,
        /// Cells in the row.
        cells: usize,
    },
    /// A row whose width differs from the first row's.
    #[error("fen row {row} has {cells} cells, expected {expected}")]
    RaggedRow {
        /// Row, from 1 at the bottom.
        row: usize,
        /// Cells in the row.
        cells: usize,
        /// Cells in row 1.
        expected: usize,
    },
}

/// Why a well-formed FEN is not a position of the variant.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenPositionError {
    /// A cell holding a character that is no player's token.
    #[error(
        "fen row {row}, column {column}: '{}' is not a player's token (tokens: {tokens})",
        .token.escape_debug()
    )]
    UnknownToken {
        /// Row, from 1 at the bottom.
        row: usize,
        /// Column, from 1 at the left.
        column: usize,
        /// The character found.
        token: char,
        /// The variant's tokens, space-separated.
        tokens: String,
    },
    /// A side to move that is no player's token.
    #[error(
        "fen side to move '{}' is not a player's token (tokens: {tokens})",
        .token.escape_debug()
    )]
    UnknownSideToMove {
        /// The character found.
        token: char,
        /// The variant's tokens, space-separated.
        tokens: String,
    },
    /// Well-formed, but not a position a game can reach.
    #[error("fen is not a reachable position: {0}")]
    Position(#[from] PositionError),
}

/// Either step of reading a FEN failed: for callers that take text to a game in one go.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// The text is not a FEN.
    #[error("{0}")]
    Syntax(#[from] FenSyntaxError),
    /// The FEN is not a position of the variant.
    #[error("{0}")]
    Position(#[from] FenPositionError),
}

/// A parsed but unvalidated FEN: a rectangle of cells from 1x1 to 16x16 and a side-to-move
/// character. Tokens are not checked until [`Fen::to_game`] is given a variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fen {
    /// Bottom row first; `None` is an empty cell.
    rows: Vec<Vec<Option<char>>>,
    side: char,
}

/// The cells of row `row` (1-based): runs of empty cells as counts, and token characters.
fn row_cells(row: usize) -> impl FnMut(&str) -> Parsed<'_, Vec<Option<char>>, FenSyntaxError> {
    move |input: &str| {
        let count = move |input| -> Parsed<'_, Vec<Option<char>>, FenSyntaxError> {
            let (rest, digits) = digit1(input)?;
            match digits.parse::<usize>() {
                Ok(0) => fail(digits, FenSyntaxError::ZeroCount(row)),
                Ok(n) if n <= MAX_SIDE => Ok((rest, vec![None; n])),
                _ => fail(
                    digits,
                    FenSyntaxError::CountTooLarge {
                        row,
                        count: digits.to_string(),
                    },
                ),
            }
        };
        let token = map(satisfy(|c| !c.is_ascii_digit()), |c| vec![Some(c)]);
        if input.is_empty() {
            return fail(input, FenSyntaxError::EmptyRow(row));
        }
        map(many1(nom::branch::alt((count, token))), |runs| {
            runs.concat()
        })
        .parse(input)
    }
}

/// The board part of a FEN: rows separated by `/`, each as wide as the first.
fn board(input: &str) -> Parsed<'_, Vec<Vec<Option<char>>>, FenSyntaxError> {
    let (rest, texts) = separated_list1(char('/'), take_till(|c| c == '/')).parse(input)?;
    if texts.len() > MAX_SIDE {
        return fail(input, FenSyntaxError::TooManyRows(texts.len()));
    }
    let mut rows: Vec<Vec<Option<char>>> = Vec::with_capacity(texts.len());
    for (i, text) in texts.into_iter().enumerate() {
        let row = i + 1;
        let (_, cells) = nom::combinator::all_consuming(row_cells(row)).parse(text)?;
        match rows.first() {
            None if cells.len() > MAX_SIDE => {
                return fail(
                    text,
                    FenSyntaxError::TooManyCells {
                        row,
                        cells: cells.len(),
                    },
                )
            }
            Some(first) if cells.len() != first.len() => {
                return fail(
                    text,
                    FenSyntaxError::RaggedRow {
                        row,
                        cells: cells.len(),
                        expected: first.len(),
                    },
                )
            }
            _ => rows.push(cells),
        }
    }
    Ok((rest, rows))
}

/// The nom parser of a FEN inside a longer text (as `position fen … moves …` has it): the rows,
/// whitespace, and the side to move, which must end its word. What follows is left to the caller.
pub(crate) fn fen(input: &str) -> Parsed<'_, Fen, FenSyntaxError> {
    let (rest, board_text) = take_till1(char::is_whitespace).parse(input)?;
    let (rest, side) = match opt(preceded(multispace1, anychar)).parse(rest)? {
        (rest, Some(side)) if !side.is_whitespace() => (rest, side),
        _ => return fail(rest, FenSyntaxError::NoSideToMove),
    };
    let (after, extra) = take_till(char::is_whitespace).parse(rest)?;
    if !extra.is_empty() {
        return fail(extra, FenSyntaxError::ExtraText(extra.to_string()));
    }
    let (left, rows) = board(board_text)?;
    if !left.is_empty() {
        // `board` reads every row up to the whitespace; nothing can be left.
        return fail(left, FenSyntaxError::NoSideToMove);
    }
    Ok((after, Fen { rows, side }))
}

impl Fen {
    /// Reads a FEN's syntax; errors say which row went wrong and how. Whitespace around the FEN
    /// and any amount of spaces or tabs before the side to move are accepted.
    pub fn parse(text: &str) -> Result<Fen, FenSyntaxError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(FenSyntaxError::Empty);
        }
        parse_whole(fen, text, |left| {
            FenSyntaxError::ExtraText(left.trim().to_string())
        })
    }

    /// The FEN of `rows` (bottom row first, each left to right, `None` for an empty cell) and
    /// the side to move `side`: a board that a front end holds as an array, read as a position
    /// with [`to_game`](Self::to_game). The rows are checked as [`parse`](Self::parse) checks a
    /// FEN's (tokens only by `to_game`).
    ///
    /// # Errors
    /// No rows or more than 16, an empty row, a first row wider than 16, or a row of another
    /// width than the first.
    pub(crate) fn from_rows(
        rows: Vec<Vec<Option<char>>>,
        side: char,
    ) -> Result<Fen, FenSyntaxError> {
        let Some(first) = rows.first() else {
            return Err(FenSyntaxError::Empty);
        };
        if rows.len() > MAX_SIDE {
            return Err(FenSyntaxError::TooManyRows(rows.len()));
        }
        let width = first.len();
        if width > MAX_SIDE {
            return Err(FenSyntaxError::TooManyCells {
                row: 1,
                cells: width,
            });
        }
        for (i, cells) in rows.iter().enumerate() {
            let row = i + 1;
            if cells.is_empty() {
                return Err(FenSyntaxError::EmptyRow(row));
            }
            if cells.len() != width {
                return Err(FenSyntaxError::RaggedRow {
                    row,
                    cells: cells.len(),
                    expected: width,
                });
            }
        }
        Ok(Fen { rows, side })
    }

    /// Rows, bottom row first; each row left to right, `None` for an empty cell.
    pub fn rows(&self) -> &[Vec<Option<char>>] {
        &self.rows
    }

    /// The side-to-move character as written.
    pub fn side(&self) -> char {
        self.side
    }

    /// Number of columns (1 to 16).
    pub fn width(&self) -> usize {
        self.rows[0].len()
    }

    /// Number of rows (1 to 16).
    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// The position as a game of `variant` resized to the FEN's board: the connect length,
    /// players and early-draw rule come from `variant`. Fails if a character is no player's
    /// token or the rules find the position unreachable.
    pub fn to_game(&self, variant: &Variant) -> Result<Game, FenPositionError> {
        let variant = variant
            .with_size(self.width(), self.height())
            .expect("Fen::parse admits only sizes from 1 to 16, and only the size changes");
        let tokens = || token_list(variant.tokens());
        let mut board = Board::empty(self.width(), self.height());
        for (row, cells) in self.rows.iter().enumerate() {
            for (column, &cell) in cells.iter().enumerate() {
                let Some(token) = cell else { continue };
                let player =
                    variant
                        .player_of(token)
                        .ok_or_else(|| FenPositionError::UnknownToken {
                            row: row + 1,
                            column: column + 1,
                            token,
                            tokens: tokens(),
                        })?;
                board.set(Cell { row, column }, player);
            }
        }
        let to_move =
            variant
                .player_of(self.side)
                .ok_or_else(|| FenPositionError::UnknownSideToMove {
                    token: self.side,
                    tokens: tokens(),
                })?;
        Ok(Game::from_position(variant, board, to_move)?)
    }
}

impl fmt::Display for Fen {
    /// The canonical FEN: runs of empty cells merged into one count, one space before the side.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.rows.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some(token) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{token}")?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        write!(f, " {}", self.side)
    }
}

impl FromStr for Fen {
    type Err = FenSyntaxError;

    /// The same as [`Fen::parse`].
    fn from_str(text: &str) -> Result<Fen, FenSyntaxError> {
        Fen::parse(text)
    }
}

impl From<&Game> for Fen {
    /// The current position of `game` as plain FEN data.
    fn from(game: &Game) -> Fen {
        let board = game.board();
        let variant = game.variant();
        let rows = (0..board.height())
            .map(|row| {
                (0..board.width())
                    .map(|column| board.at(row, column).map(|p| variant.token(p).as_char()))
                    .collect()
            })
            .collect();
        Fen {
            rows,
            side: variant.token(game.to_move()).as_char(),
        }
    }
}

impl Game {
    /// A game of `variant` set up from a grid of cells, top row first (as a picture of the board
    /// or an array has them), the side to move following from the stone count; checked as a FEN
    /// of those rows would be, and refused in the FEN's words.
    ///
    /// # Errors
    /// [`FenError`]: a grid no FEN could hold (empty, ragged, over 16 cells a side), or a
    /// position the variant cannot reach.
    pub fn from_grid(variant: &Variant, grid: &[Vec<Option<Player>>]) -> Result<Game, FenError> {
        let token = |player: Player| variant.token(player).as_char();
        // A FEN lists the bottom row first.
        let rows = grid
            .iter()
            .rev()
            .map(|row| row.iter().map(|cell| cell.map(token)).collect())
            .collect();
        let stones = grid.iter().flatten().flatten().count();
        let to_move = Player::from_index(stones % variant.players());
        Ok(Fen::from_rows(rows, token(to_move))?.to_game(variant)?)
    }
}

/// The canonical FEN of `game`'s current position: the empty standard board is `7/7/7/7/7/7 x`.
pub fn fen_of(game: &Game) -> String {
    Fen::from(game).to_string()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rules::Outcome;

    const EMPTY_STANDARD: &str = "7/7/7/7/7/7 x";

    fn game_of(fen: &str) -> Result<Game, FenError> {
        Ok(Fen::parse(fen)?.to_game(&Variant::default())?)
    }

    #[test]
    fn a_grid_top_row_first_is_the_game_of_its_fen() {
        let (x, o) = (Some(Player::from_index(0)), Some(Player::from_index(1)));
        let mut grid = vec![vec![None; 7]; 6];
        grid[5][3] = x;
        grid[5][4] = x;
        grid[4][3] = o;
        let game = Game::from_grid(&Variant::default(), &grid).unwrap();
        assert_eq!(fen_of(&game), "3xx2/3o3/7/7/7/7 o");
        grid[3][0] = x;
        assert_eq!(
            Game::from_grid(&Variant::default(), &grid)
                .unwrap_err()
                .to_string(),
            game_of("3xx2/3o3/x6/7/7/7 x").unwrap_err().to_string()
        );
    }

    #[test]
    fn rows_make_the_fen_that_parses_to_them() {
        let (x, o) = (Some('x'), Some('o'));
        let rows = vec![vec![None, x, o], vec![None, None, x], vec![None; 3]];
        let fen = Fen::from_rows(rows.clone(), 'o').unwrap();
        assert_eq!(fen.to_string(), "1xo/2x/3 o");
        assert_eq!(Fen::parse("1xo/2x/3 o").unwrap(), fen);
        assert_eq!(fen.rows(), &rows[..]);
        assert!(fen.to_game(&Variant::default()).is_ok());
        assert_eq!(Fen::from_rows(Vec::new(), 'x'), Err(FenSyntaxError::Empty));
        assert_eq!(
            Fen::from_rows(vec![vec![None; 2], vec![None]], 'x'),
            Err(FenSyntaxError::RaggedRow {
                row: 2,
                cells: 1,
                expected: 2
            })
        );
        assert_eq!(
            Fen::from_rows(vec![Vec::new()], 'x'),
            Err(FenSyntaxError::EmptyRow(1))
        );
        assert_eq!(
            Fen::from_rows(vec![vec![None; 17]], 'x'),
            Err(FenSyntaxError::TooManyCells { row: 1, cells: 17 })
        );
        assert_eq!(
            Fen::from_rows(vec![vec![None]; 17], 'x'),
            Err(FenSyntaxError::TooManyRows(17))
        );
    }

    fn message(fen: &str) -> String {
        game_of(fen).unwrap_err().to_string()
    }

    fn play(game: &mut Game, numbers: &[u64]) {
        for &n in numbers {
            let column = game.column(n).unwrap();
            game.play(column).unwrap();
        }
    }

    #[test]
    fn empty_standard_board() {
        let fen: Fen = EMPTY_STANDARD.parse().unwrap();
        assert_eq!((fen.width(), fen.height(), fen.side()), (7, 6, 'x'));
        assert!(fen.rows().iter().flatten().all(Option::is_none));
        let game = fen.to_game(&Variant::default()).unwrap();
        assert_eq!(game, Game::new(Variant::default()));
        assert_eq!(fen_of(&game), EMPTY_STANDARD);
    }

    #[test]
    fn source_example_matches_play() {
        let mut played = Game::new(Variant::default());
        play(&mut played, &[3, 5, 3, 6]);
        assert_eq!(fen_of(&played), "2x1oo1/2x4/7/7/7/7 x");
        let parsed = game_of("2x1oo1/2x4/7/7/7/7 x").unwrap();
        assert_eq!(parsed.board(), played.board());
        assert_eq!(parsed.to_move(), Player::FIRST);
        assert_eq!(parsed.board().at(1, 2), Some(Player::FIRST));
        assert_eq!(parsed.board().at(0, 5), Some(Player(1)));
    }

    #[test]
    fn size_comes_from_the_fen() {
        let game = game_of("16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16 x").unwrap();
        assert_eq!((game.variant().width(), game.variant().height()), (16, 16));
        assert_eq!(game.variant().connect(), 4);
        let game = game_of("1 x").unwrap();
        assert_eq!((game.variant().width(), game.variant().height()), (1, 1));
        let game = game_of("x1o/3 x").unwrap();
        assert_eq!(fen_of(&game), "x1o/3 x");
    }

    #[test]
    fn whitespace_is_lenient_and_output_canonical() {
        let game = game_of("  2x1oo1/2x4/7/7/7/7 \t x  ").unwrap();
        assert_eq!(fen_of(&game), "2x1oo1/2x4/7/7/7/7 x");
        // Leading zeros are read but not written.
        let game = game_of("07/7/7/7/7/7 x").unwrap();
        assert_eq!(fen_of(&game), EMPTY_STANDARD);
    }

    #[test]
    fn tokens_and_players_come_from_the_variant() {
        let tokens = ['X', 'Y', 'Z'].map(|c| crate::rules::Token::new(c).unwrap());
        let variant = Variant::new(7, 6, 4, tokens.to_vec(), true).unwrap();
        let game = Fen::parse("XYZ4/7/7/7/7/7 X")
            .unwrap()
            .to_game(&variant)
            .unwrap();
        assert_eq!(game.board().at(0, 2), Some(Player(2)));
        assert_eq!(fen_of(&game), "XYZ4/7/7/7/7/7 X");
        assert_eq!(
            Fen::parse("xYZ4/7/7/7/7/7 X")
                .unwrap()
                .to_game(&variant)
                .unwrap_err()
                .to_string(),
            "fen row 1, column 1: 'x' is not a player's token (tokens: X Y Z)"
        );
    }

    #[test]
    fn a_won_position_keeps_its_result() {
        let game = game_of("xxxx3/ooo4/7/7/7/7 o").unwrap();
        assert_eq!(game.outcome(), Outcome::Win(Player::FIRST));
        assert_eq!(fen_of(&game), "xxxx3/ooo4/7/7/7/7 o");
    }

    #[test]
    fn syntax_errors_say_where() {
        let cases = [
            ("", "fen is empty"),
            (" \t ", "fen is empty"),
            (
                "7/7/7/7/7/7",
                "fen has no side to move: expected rows, a space and a token, e.g. 7/7/7/7/7/7 x",
            ),
            (
                "7/7/7/7/7/7 x 0 1",
                "fen has extra text after the side to move: '0 1'",
            ),
            (
                "7/7/7/7/7/7 xo",
                "fen has extra text after the side to move: 'o'",
            ),
            ("7/7/8/7/7/7 x", "fen row 3 has 8 cells, expected 7"),
            ("7/7/6/7/7/7 x", "fen row 3 has 6 cells, expected 7"),
            ("7/x0o5/7 x", "fen row 2 has an empty-cell count of 0"),
            ("7/00/7 x", "fen row 2 has an empty-cell count of 0"),
            ("7//7 x", "fen row 2 is empty"),
            ("/7 x", "fen row 1 is empty"),
            ("7/ x", "fen row 2 is empty"),
            (
                "1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1 x",
                "fen has 17 rows; a board is at most 16 high",
            ),
            (
                "17 x",
                "fen row 1 has an empty-cell count of 17; a board is at most 16 wide",
            ),
            (
                "99999999999999999999 x",
                "fen row 1 has an empty-cell count of 99999999999999999999; a board is at most 16 wide",
            ),
            ("16x x", "fen row 1 has 17 cells; a board is at most 16 wide"),
            ("9/16x x", "fen row 2 has 17 cells, expected 9"),
        ];
        for (fen, expected) in cases {
            assert_eq!(
                Fen::parse(fen).unwrap_err().to_string(),
                expected,
                "{fen:?}"
            );
        }
    }

    #[test]
    fn position_errors_name_the_rule() {
        assert_eq!(
            message("2z4/7/7/7/7/7 o"),
            "fen row 1, column 3: 'z' is not a player's token (tokens: x o)"
        );
        assert_eq!(
            message("7/7/7/7/7/7 z"),
            "fen side to move 'z' is not a player's token (tokens: x o)"
        );
        assert_eq!(
            message("7/7/7/7/7/7 /"),
            "fen side to move '/' is not a player's token (tokens: x o)"
        );
        assert!(matches!(
            game_of("7/x6/7/7/7/7 o"),
            Err(FenError::Position(FenPositionError::Position(
                PositionError::FloatingStone(_)
            )))
        ));
        assert!(message("x6/7/7/7/7/7 x").starts_with("fen is not a reachable position: "));
    }

    /// A random variant and a random legal game in it.
    fn random_game() -> impl Strategy<Value = Game> {
        (
            1..=MAX_SIDE,
            1..=MAX_SIDE,
            2usize..=8,
            2usize..=6,
            any::<bool>(),
            prop::collection::vec(any::<prop::sample::Index>(), 0..200),
        )
            .prop_map(|(width, height, players, connect, early_draw, picks)| {
                let tokens = Variant::default_tokens(players).unwrap();
                let variant = Variant::new(width, height, connect, tokens, early_draw).unwrap();
                let mut game = Game::new(variant);
                for pick in picks {
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    game.play_unchecked(*pick.get(&moves));
                }
                game
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn games_round_trip_through_fen(game in random_game()) {
            let text = fen_of(&game);
            let back = Fen::parse(&text).unwrap().to_game(game.variant()).unwrap();
            prop_assert_eq!(back.board(), game.board());
            prop_assert_eq!(back.to_move(), game.to_move());
            prop_assert_eq!(back.outcome(), game.outcome());
            prop_assert_eq!(back.variant(), game.variant());
            prop_assert_eq!(fen_of(&back), text);
        }

        #[test]
        fn mangled_fens_never_panic(
            game in random_game(),
            edits in prop::collection::vec(
                (any::<prop::sample::Index>(), 0..3u8, prop::sample::select(
                    "0123456789/ \txoabz.".chars().collect::<Vec<_>>()
                )),
                1..6,
            ),
        ) {
            let mut chars: Vec<char> = fen_of(&game).chars().collect();
            for (at, op, c) in edits {
                let i = at.index(chars.len() + 1);
                match op {
                    0 => chars.insert(i, c),
                    1 if i < chars.len() => { chars.remove(i); }
                    _ if i < chars.len() => chars[i] = c,
                    _ => chars.push(c),
                }
            }
            let text: String = chars.into_iter().collect();
            if let Ok(fen) = Fen::parse(&text) {
                if let Ok(parsed) = fen.to_game(game.variant()) {
                    let again = game_of_variant(&fen_of(&parsed), parsed.variant());
                    prop_assert_eq!(again.board(), parsed.board());
                }
            }
        }

        #[test]
        fn garbage_never_panics(text in "\\PC{0,40}|[0-9/ xo.]{0,60}") {
            if let Ok(fen) = Fen::parse(&text) {
                let _ = fen.to_game(&Variant::default());
            }
        }
    }

    fn game_of_variant(fen: &str, variant: &Variant) -> Game {
        Fen::parse(fen).unwrap().to_game(variant).unwrap()
    }
}
