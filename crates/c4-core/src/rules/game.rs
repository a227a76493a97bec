//! A game in play: the board, whose turn it is, the result, and the moves that can be taken back.
//! This is where turn order, legality, wins, draws and early draws are decided.

use std::fmt;

use thiserror::Error;

use super::board::{Board, Cell, Column, Line};
use super::variant::{Player, Token, Variant, MAX_PLAYERS};

/// Why the game ended in a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawReason {
    /// Every cell is taken and nobody has a line.
    BoardFull,
    /// Cells are left, but no player can complete a line with the stones they can still place.
    NoLineLeft,
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Moves can still be played.
    InProgress,
    /// `Player` has a line; the lines themselves come from [`Game::winning_lines`].
    Win(Player),
    /// Nobody won.
    Draw(DrawReason),
}

impl Outcome {
    /// Whether no more moves can be played.
    pub fn is_over(self) -> bool {
        self != Outcome::InProgress
    }
}

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// A column number outside the board (as given, 1-based).
    #[error("column {column} is off the board (columns 1-{width})")]
    OffBoard { column: u64, width: usize },
    /// No room left in the column.
    #[error("column {0} is full")]
    ColumnFull(Column),
    /// The game has ended.
    #[error("the game is over ({0}); no more moves can be played")]
    GameOver(String),
}

/// Why a set-up position is not one a game can reach.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A stone with an empty cell below it.
    #[error("the stone at column {}, row {} floats above an empty cell", .0.column + 1, .0.row + 1)]
    FloatingStone(Cell),
    /// Stone counts that no game in turn order produces.
    #[error("stone counts {counts} cannot arise when {first} moves first and players take turns")]
    StoneCounts { counts: String, first: Token },
    /// The side to move does not follow from the stone counts.
    #[error("it cannot be {given}'s turn: after {stones} stone{} it is {expected}'s turn", if *.stones == 1 { "" } else { "s" })]
    WrongSideToMove {
        given: Token,
        expected: Token,
        stones: usize,
    },
    /// Lines for more than one player.
    #[error("both {0} and {1} have a line; a game ends at the first one")]
    TwoWinners(Token, Token),
    /// The winner is not the player who moved last.
    #[error("{winner} has a line but {last} moved last; the game would have ended when {winner} connected")]
    WinnerDidNotMoveLast { winner: Token, last: Token },
    /// Lines that no single last stone could have completed together.
    #[error("{0} has lines that no single last move could have completed together")]
    LinesNotFromOneMove(Token),
}

/// A game: variant, board, side to move, result, and the moves played since it was set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    variant: Variant,
    board: Board,
    to_move: Player,
    outcome: Outcome,
    /// Moves played since the position was set, oldest first: what `undo` can take back.
    history: Vec<Column>,
}

impl Game {
    /// The empty board of `variant`, first player to move.
    pub fn new(variant: Variant) -> Game {
        let board = Board::empty(variant.width(), variant.height());
        let mut game = Game {
            variant,
            board,
            to_move: Player::FIRST,
            outcome: Outcome::InProgress,
            history: Vec::new(),
        };
        game.outcome = game.settle_without_last_move();
        game
    }

    /// A game set up from a board and a side to move, checked to be reachable by play: no
    /// floating stones, counts that fit turn order and the side to move, at most one winner who
    /// moved last with lines one stone could have completed. `board` must match `variant`'s size.
    pub(crate) fn from_position(
        variant: Variant,
        board: Board,
        to_move: Player,
    ) -> Result<Game, PositionError> {
        debug_assert_eq!(
            (board.width(), board.height()),
            (variant.width(), variant.height())
        );
        for column in 0..board.width() {
            for row in 0..board.height() {
                if board.at(row, column).is_some() && row > 0 && board.at(row - 1, column).is_none()
                {
                    return Err(PositionError::FloatingStone(Cell { row, column }));
                }
            }
        }
        let n = variant.players();
        let stones = board.stones();
        let mut counts = vec![0usize; n];
        for row in 0..board.height() {
            for column in 0..board.width() {
                if let Some(p) = board.at(row, column) {
                    counts[p.index()] += 1;
                }
            }
        }
        let fits_turn_order = (0..n).all(|p| counts[p] == stones / n + usize::from(p < stones % n));
        if !fits_turn_order {
            let counts = (0..n)
                .map(|p| format!("{}={}", variant.token(Player(p as u8)), counts[p]))
                .collect::<Vec<_>>()
                .join(" ");
            return Err(PositionError::StoneCounts {
                counts,
                first: variant.token(Player::FIRST),
            });
        }
        let expected = Player((stones % n) as u8);
        if to_move != expected {
            return Err(PositionError::WrongSideToMove {
                given: variant.token(to_move),
                expected: variant.token(expected),
                stones,
            });
        }
        let lines = board.all_lines(variant.connect());
        let mut game = Game {
            variant,
            board,
            to_move,
            outcome: Outcome::InProgress,
            history: Vec::new(),
        };
        if let Some(first) = lines.first() {
            let winner = first.player;
            if let Some(other) = lines.iter().find(|l| l.player != winner) {
                return Err(PositionError::TwoWinners(
                    game.variant.token(winner),
                    game.variant.token(other.player),
                ));
            }
            let last = game.variant.previous(to_move);
            if winner != last {
                return Err(PositionError::WinnerDidNotMoveLast {
                    winner: game.variant.token(winner),
                    last: game.variant.token(last),
                });
            }
            let one_last_stone = lines[0].cells.iter().any(|&cell| {
                cell.row + 1 == game.board.column_height(Column::from_index(cell.column))
                    && lines.iter().all(|l| l.cells.contains(&cell))
            });
            if !one_last_stone {
                return Err(PositionError::LinesNotFromOneMove(
                    game.variant.token(winner),
                ));
            }
            game.outcome = Outcome::Win(winner);
        } else {
            game.outcome = game.settle_without_last_move();
        }
        Ok(game)
    }

    /// The variant being played.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The grid.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose turn it is (after the game ends: whose turn it would be).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Where the game stands.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// Moves played since the position was set, oldest first.
    pub fn history(&self) -> &[Column] {
        &self.history
    }

    /// Moves played on the board in all, counting those before the position was set.
    pub fn ply(&self) -> usize {
        self.board.stones()
    }

    /// The winner's lines, each whole; empty unless the game is won.
    pub fn winning_lines(&self) -> Vec<Line> {
        match self.outcome {
            Outcome::Win(winner) => self
                .board
                .all_lines(self.variant.connect())
                .into_iter()
                .filter(|l| l.player == winner)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The column with 1-based `number`, if it is on the board.
    pub fn column(&self, number: u64) -> Result<Column, MoveError> {
        let width = self.variant.width();
        match number {
            1.. if number <= width as u64 => Ok(Column::from_index(number as usize - 1)),
            _ => Err(MoveError::OffBoard {
                column: number,
                width,
            }),
        }
    }

    /// Whether `column` can be played now.
    pub fn is_legal(&self, column: Column) -> bool {
        !self.outcome.is_over() && self.board.has_room(column)
    }

    /// The columns that can be played now, left to right.
    pub fn legal_moves(&self) -> Vec<Column> {
        (0..self.variant.width())
            .map(Column::from_index)
            .filter(|&c| self.is_legal(c))
            .collect()
    }

    /// Plays `column` for the side to move; on error nothing changes.
    pub fn play(&mut self, column: Column) -> Result<Outcome, MoveError> {
        if self.outcome.is_over() {
            return Err(MoveError::GameOver(self.outcome_summary()));
        }
        if column.index() >= self.variant.width() {
            return Err(MoveError::OffBoard {
                column: column.number() as u64,
                width: self.variant.width(),
            });
        }
        if !self.board.has_room(column) {
            return Err(MoveError::ColumnFull(column));
        }
        self.play_unchecked(column);
        Ok(self.outcome)
    }

    /// Plays `column` without checking it.
    ///
    /// # Panics
    /// In debug builds if the game is over or the column is full or off the board; callers
    /// pick from [`Game::legal_moves`] or check [`Game::is_legal`].
    pub(crate) fn play_unchecked(&mut self, column: Column) {
        debug_assert!(self.is_legal(column));
        let mover = self.to_move;
        let cell = self.board.drop_unchecked(column, mover);
        self.history.push(column);
        self.to_move = self.variant.next(mover);
        self.outcome = if self.board.completes_line(cell, self.variant.connect()) {
            Outcome::Win(mover)
        } else {
            self.settle_without_last_move()
        };
    }

    /// The game reflected left to right: the position it was set up from mirrored, then every
    /// move played since mirrored (column `c` of `w` becomes `w - 1 - c`), so that `undo` takes
    /// them back as here.
    pub fn mirrored(&self) -> Game {
        let mut start = self.clone();
        while start.undo().is_some() {}
        let (width, height) = (self.board.width(), self.board.height());
        let mirror = |column: usize| width - 1 - column;
        let mut board = Board::empty(width, height);
        for row in 0..height {
            for column in 0..width {
                if let Some(player) = start.board.at(row, column) {
                    let column = mirror(column);
                    board.set(Cell { row, column }, player);
                }
            }
        }
        let mut game = Game::from_position(start.variant, board, start.to_move)
            .expect("a reflected position is reachable as its original is");
        for column in &self.history {
            game.play_unchecked(Column::from_index(mirror(column.index())));
        }
        game
    }

    /// Takes back the last move played since the position was set; `None` if there is none.
    pub fn undo(&mut self) -> Option<Column> {
        let column = self.history.pop()?;
        self.board.lift_unchecked(column);
        self.to_move = self.variant.previous(self.to_move);
        // A move was played from this position, so it was still in progress.
        self.outcome = Outcome::InProgress;
        Some(column)
    }

    /// The number of move sequences of exactly `depth` moves from here; a finished game has none.
    /// `go_on` is asked before each move played that has more than one move after it (so that
    /// between two questions at most one move and the board's width of others are played):
    /// once it says no, the count ends with `None`, and the game is as it was.
    pub fn perft(&mut self, depth: usize, go_on: &mut impl FnMut() -> bool) -> Option<u64> {
        if depth <= 2 || self.outcome.is_over() {
            return Some(self.count_sequences(depth));
        }
        let mut total = 0;
        for c in 0..self.variant.width() {
            let column = Column::from_index(c);
            if !self.board.has_room(column) {
                continue;
            }
            if !go_on() {
                return None;
            }
            self.play_unchecked(column);
            let count = self.perft(depth - 1, go_on);
            self.undo();
            total += count?;
        }
        Some(total)
    }

    /// [`Game::perft`]'s count, asking nothing: for the last moves, where it runs fastest.
    fn count_sequences(&mut self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.outcome.is_over() {
            return 0;
        }
        let width = self.variant.width();
        if depth == 1 {
            return (0..width)
                .filter(|&c| self.board.has_room(Column::from_index(c)))
                .count() as u64;
        }
        let mut total = 0;
        for c in 0..width {
            let column = Column::from_index(c);
            if self.board.has_room(column) {
                self.play_unchecked(column);
                total += self.count_sequences(depth - 1);
                self.undo();
            }
        }
        total
    }

    /// Short words for the result, as used in messages: `x won`, `drawn`, `in progress`.
    pub fn outcome_summary(&self) -> String {
        match self.outcome {
            Outcome::InProgress => "in progress".to_string(),
            Outcome::Win(p) => format!("{} won", self.variant.token(p)),
            Outcome::Draw(_) => "drawn".to_string(),
        }
    }

    /// How many more stones each player can place before the board is full (zero past the
    /// last player): the empty cells shared out in turn from the side to move.
    fn stones_left_by_player(&self) -> [usize; MAX_PLAYERS] {
        let n = self.variant.players();
        let empty = self.board.empty_cells();
        let (each, extra) = (empty / n, empty % n);
        let mut left = [0; MAX_PLAYERS];
        let mut player = self.to_move.index();
        for offset in 0..n {
            left[player] = each + usize::from(offset < extra);
            player = if player + 1 == n { 0 } else { player + 1 };
        }
        left
    }

    /// Whether some player can still complete a line: a window of connect-length cells holding
    /// stones of at most one player, who can still place as many stones as it has empty cells
    /// before the board is full. `false` is what the early draw rule ends a game on; with the
    /// rule off the game goes on to a full board, and this is only information.
    pub(crate) fn can_anyone_connect(&self) -> bool {
        // The side to move has the most stones left: if it can fill an empty column window,
        // a line is possible, without counting everyone's stones.
        let most = self.board.empty_cells().div_ceil(self.variant.players());
        let connect = self.variant.connect();
        if most >= connect && self.board.has_open_column(connect) {
            return true;
        }
        let remaining = self.stones_left_by_player();
        self.board
            .can_still_connect(connect, &remaining[..self.variant.players()])
    }

    /// The result of a position with no new line: a draw if the board is full, or if the early
    /// draw rule is on and nobody can complete a line any more; otherwise in progress.
    fn settle_without_last_move(&self) -> Outcome {
        if self.board.is_full() {
            Outcome::Draw(DrawReason::BoardFull)
        } else if self.variant.early_draw() && !self.can_anyone_connect() {
            Outcome::Draw(DrawReason::NoLineLeft)
        } else {
            Outcome::InProgress
        }
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::BoardFull => "board-full",
            DrawReason::NoLineLeft => "no-line-left",
        })
    }
}

#[cfg(test)]
impl Game {
    /// The standard 7x6 game after `numbers` (1-based columns), for tests across the crate.
    pub(crate) fn standard_after(numbers: &[u64]) -> Game {
        let mut game = Game::new(Variant::default());
        for &n in numbers {
            let column = game.column(n).unwrap();
            game.play(column).unwrap();
        }
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Direction;

    fn standard() -> Game {
        Game::new(Variant::default())
    }

    fn play_all(game: &mut Game, numbers: &[u64]) {
        for &n in numbers {
            let c = game.column(n).unwrap();
            game.play(c).unwrap();
        }
    }

    #[test]
    fn stones_fall_and_turns_alternate() {
        let mut g = standard();
        play_all(&mut g, &[4, 4]);
        assert_eq!(g.board().at(0, 3), Some(Player(0)));
        assert_eq!(g.board().at(1, 3), Some(Player(1)));
        assert_eq!(g.to_move(), Player(0));
        assert_eq!(g.ply(), 2);
    }

    #[test]
    fn each_illegal_move_has_its_own_error() {
        let mut g = standard();
        assert_eq!(
            g.column(8),
            Err(MoveError::OffBoard {
                column: 8,
                width: 7
            })
        );
        assert_eq!(
            g.column(0),
            Err(MoveError::OffBoard {
                column: 0,
                width: 7
            })
        );
        play_all(&mut g, &[1, 1, 1, 1, 1, 1]);
        let before = g.clone();
        assert_eq!(
            g.play(Column::from_index(0)),
            Err(MoveError::ColumnFull(Column::from_index(0)))
        );
        assert_eq!(g, before);
    }

    #[test]
    fn vertical_win_ends_the_game() {
        let mut g = standard();
        play_all(&mut g, &[1, 2, 1, 2, 1, 2, 1]);
        assert_eq!(g.outcome(), Outcome::Win(Player(0)));
        let lines = g.winning_lines();
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].direction, Direction::Vertical);
        assert_eq!(
            g.play(Column::from_index(2)),
            Err(MoveError::GameOver("x won".into()))
        );
    }

    #[test]
    fn undo_restores_exactly_and_stops_at_the_start() {
        let mut g = standard();
        let start = g.clone();
        play_all(&mut g, &[1, 2, 1, 2, 1, 2, 1]);
        for _ in 0..7 {
            assert!(g.undo().is_some());
        }
        assert_eq!(g, start);
        assert_eq!(g.undo(), None);
    }

    #[test]
    fn a_mirrored_game_reflects_its_start_and_its_moves() {
        // Set up from a position (x on 1, o on 2), then 1 and 3 played.
        let mut start = Game::standard_after(&[1, 2]);
        start.history.clear();
        let mut game = start.clone();
        play_all(&mut game, &[1, 3]);
        let mirrored = game.mirrored();
        let expected_start = {
            let mut g = Game::standard_after(&[7, 6]);
            g.history.clear();
            g
        };
        let mut expected = expected_start.clone();
        play_all(&mut expected, &[7, 5]);
        assert_eq!(mirrored, expected);
        let mut back = mirrored.clone();
        back.undo();
        back.undo();
        assert_eq!((back.undo(), back), (None, expected_start));
        assert_eq!(game.mirrored().mirrored(), game);
    }

    #[test]
    fn stones_left_follow_turn_order() {
        // 3 players on 2x2: 4 empty cells, x to move gets 2, o 1, a 1.
        let v = Variant::new(2, 2, 2, Variant::default_tokens(3).unwrap(), false).unwrap();
        let g = Game::new(v);
        assert_eq!(g.stones_left_by_player()[..3], [2, 1, 1]);
    }

    #[test]
    fn early_draw_when_no_line_can_be_completed() {
        // 3x1 connect 2: after x1 o2, the only window left (2-3) holds o and o has no stone left
        // to place (the last empty cell is x's), and window 1-2 is blocked.
        let v = Variant::new(3, 1, 2, Variant::default_tokens(2).unwrap(), true).unwrap();
        let mut g = Game::new(v.clone());
        play_all(&mut g, &[1]);
        assert_eq!(g.outcome(), Outcome::InProgress);
        play_all(&mut g, &[2]);
        assert_eq!(g.outcome(), Outcome::Draw(DrawReason::NoLineLeft));
        // The same moves with the rule off play on to a full board.
        // The same moves with the rule off play on to a full board, though no line is left.
        let v = Variant::new(3, 1, 2, Variant::default_tokens(2).unwrap(), false).unwrap();
        let mut g = Game::new(v);
        play_all(&mut g, &[1, 2]);
        assert_eq!(g.outcome(), Outcome::InProgress);
        assert!(!g.can_anyone_connect());
        play_all(&mut g, &[3]);
        assert_eq!(g.outcome(), Outcome::Draw(DrawReason::BoardFull));
    }

    #[test]
    fn the_standard_game_is_drawn_only_on_a_full_board() {
        // One cell left at ply 41 and no line possible: other engines play the 42nd move.
        let moves: Vec<u64> = "44766416373514565233524116653351422122777"
            .bytes()
            .map(|b| u64::from(b - b'0'))
            .collect();
        let mut g = standard();
        play_all(&mut g, &moves);
        assert_eq!((g.ply(), g.outcome()), (41, Outcome::InProgress));
        assert!(!g.can_anyone_connect());
        play_all(&mut g, &[7]);
        assert_eq!(g.outcome(), Outcome::Draw(DrawReason::BoardFull));
    }

    #[test]
    fn unreachable_connect_length_is_an_immediate_early_draw() {
        let v = Variant::new(3, 3, 4, Variant::default_tokens(2).unwrap(), true).unwrap();
        assert_eq!(
            Game::new(v).outcome(),
            Outcome::Draw(DrawReason::NoLineLeft)
        );
    }

    #[test]
    fn perft_of_the_standard_board() {
        let mut g = standard();
        let counts: Vec<u64> = (1..=6).map(|d| g.perft(d, &mut || true).unwrap()).collect();
        assert_eq!(counts, vec![7, 49, 343, 2401, 16807, 117649]);
        assert_eq!(g, standard());
        // Told to stop after 100 moves played, it leaves the game as it was.
        let mut moves = 0;
        let mut hundred = || {
            moves += 1;
            moves <= 100
        };
        assert_eq!(g.perft(6, &mut hundred), None);
        assert_eq!(g, standard());
    }

    #[test]
    fn set_positions_are_validated() {
        let v = Variant::default();
        let mut b = Board::empty(7, 6);
        b.set(Cell { row: 1, column: 0 }, Player(0));
        assert_eq!(
            Game::from_position(v.clone(), b, Player(1)),
            Err(PositionError::FloatingStone(Cell { row: 1, column: 0 }))
        );
        let mut b = Board::empty(7, 6);
        b.set(Cell { row: 0, column: 0 }, Player(1));
        assert!(matches!(
            Game::from_position(v.clone(), b.clone(), Player(0)),
            Err(PositionError::StoneCounts { .. })
        ));
        let mut b = Board::empty(7, 6);
        b.set(Cell { row: 0, column: 0 }, Player(0));
        assert!(matches!(
            Game::from_position(v.clone(), b, Player(0)),
            Err(PositionError::WrongSideToMove { .. })
        ));
    }

    #[test]
    fn set_positions_with_a_winner() {
        let v = Variant::default();
        // x x x x on row 1, o o o on row 2: x won and moved last, o to move.
        let mut b = Board::empty(7, 6);
        for c in 0..4 {
            b.set(Cell { row: 0, column: c }, Player(0));
        }
        for c in 0..3 {
            b.set(Cell { row: 1, column: c }, Player(1));
        }
        let g = Game::from_position(v.clone(), b.clone(), Player(1)).unwrap();
        assert_eq!(g.outcome(), Outcome::Win(Player(0)));
        // The same with one more o stone elsewhere is x to move: winner did not move last.
        let mut b2 = b.clone();
        b2.set(Cell { row: 0, column: 6 }, Player(1));
        assert!(matches!(
            Game::from_position(v.clone(), b2, Player(0)),
            Err(PositionError::WinnerDidNotMoveLast { .. })
        ));
        // Two separate x lines (row 1 and column 7) cannot come from one last stone.
        let mut b3 = Board::empty(7, 6);
        for i in 0..4 {
            b3.set(Cell { row: 0, column: i }, Player(0));
            b3.set(Cell { row: i, column: 6 }, Player(0));
        }
        for (row, column) in [(1, 0), (1, 1), (1, 3), (0, 4), (0, 5), (1, 4), (2, 0)] {
            b3.set(Cell { row, column }, Player(1));
        }
        assert_eq!(
            Game::from_position(v, b3, Player(1)),
            Err(PositionError::LinesNotFromOneMove(Token::new('x').unwrap()))
        );
    }
}
