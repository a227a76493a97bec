//! The grid: which token is in which cell, how stones stack in columns, and the lines they form.
//! Turn order and game results are `game`'s business; this module only knows geometry.

use std::fmt;

use super::variant::{Player, MAX_PLAYERS, MAX_SIDE};

/// A column, 0-based inside the engine; written 1-based (or as a letter) on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(u8);

impl Column {
    /// The column at 0-based `index`. The caller checks `index` against the board width.
    pub(crate) fn from_index(index: usize) -> Column {
        debug_assert!(index < MAX_SIDE);
        Column(index as u8)
    }

    /// 0-based index, 0 = leftmost.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// 1-based number, as people and the protocol count.
    pub fn number(self) -> usize {
        self.index() + 1
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A cell: `row` 0 is the bottom row, `column` 0 the leftmost column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Row from the bottom, 0-based.
    pub row: usize,
    /// Column from the left, 0-based.
    pub column: usize,
}

impl fmt::Display for Cell {
    /// Column letter then 1-based row from the bottom: `a1` is the bottom-left cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column as u8) as char, self.row + 1)
    }
}

/// The four directions a line can run in, each named by how it is read left to right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Along a row.
    Horizontal,
    /// Up a column.
    Vertical,
    /// Rising to the right: `/`.
    DiagonalUp,
    /// Falling to the right: `\`.
    DiagonalDown,
}

impl Direction {
    /// All four, in the order lines are reported.
    pub const ALL: [Direction; 4] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::DiagonalUp,
        Direction::DiagonalDown,
    ];

    /// The step (rows, columns) that walks the line forward.
    pub fn step(self) -> (isize, isize) {
        match self {
            Direction::Horizontal => (0, 1),
            Direction::Vertical => (1, 0),
            Direction::DiagonalUp => (1, 1),
            Direction::DiagonalDown => (-1, 1),
        }
    }

    /// The protocol's word for it.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Horizontal => "horizontal",
            Direction::Vertical => "vertical",
            Direction::DiagonalUp => "diagonal-up",
            Direction::DiagonalDown => "diagonal-down",
        }
    }
}

/// A run of one player's stones at least the connect length long, cells in forward order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Line {
    /// Whose stones.
    pub player: Player,
    /// Which way it runs.
    pub direction: Direction,
    /// Every cell of the run, first to last along `direction.step()`.
    pub cells: Vec<Cell>,
}

const EMPTY: u8 = u8::MAX;

/// The grid of a board up to 16x16: cells and column heights, nothing about whose turn it is.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    /// Row-major from the bottom row, stride `MAX_SIDE`; `EMPTY` or a player index.
    cells: [u8; MAX_SIDE * MAX_SIDE],
    /// Stones in each column.
    heights: [u8; MAX_SIDE],
    stones: usize,
    /// Each player's stones along every line, for the win check after a move.
    lines: [LineMasks; MAX_PLAYERS],
}

/// Number of diagonals in one direction on a `MAX_SIDE` square.
const DIAGONALS: usize = 2 * MAX_SIDE - 1;

/// One player's stones as bit masks along each line family, so that a run of stones through a
/// cell is found with a few shifts instead of walking the grid:
///
/// ```text
/// rows[r]      bit c  = cell (r, c)     one mask per row
/// columns[c]   bit r  = cell (r, c)     one mask per column
/// rising[d]    bit c  = cell (r, c)     d = c - r + 15  (the `/` diagonal through the cell)
/// falling[d]   bit c  = cell (r, c)     d = c + r       (the `\` diagonal through the cell)
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LineMasks {
    rows: [u16; MAX_SIDE],
    columns: [u16; MAX_SIDE],
    rising: [u16; DIAGONALS],
    falling: [u16; DIAGONALS],
}

impl LineMasks {
    const EMPTY: LineMasks = LineMasks {
        rows: [0; MAX_SIDE],
        columns: [0; MAX_SIDE],
        rising: [0; DIAGONALS],
        falling: [0; DIAGONALS],
    };

    /// Sets or clears the bits of `cell` in all four families.
    fn toggle(&mut self, cell: Cell) {
        let (r, c) = (cell.row, cell.column);
        self.rows[r] ^= 1 << c;
        self.columns[c] ^= 1 << r;
        self.rising[c + MAX_SIDE - 1 - r] ^= 1 << c;
        self.falling[c + r] ^= 1 << c;
    }

    /// Whether any of the four lines through `cell` holds a run of `connect` stones.
    fn has_run_through(&self, cell: Cell, connect: usize) -> bool {
        let (r, c) = (cell.row, cell.column);
        [
            self.rows[r],
            self.columns[c],
            self.rising[c + MAX_SIDE - 1 - r],
            self.falling[c + r],
        ]
        .into_iter()
        .any(|mask| {
            // After k-1 shift-and-steps, a bit survives only where k ones stood in a row.
            let mut run = u32::from(mask);
            for _ in 1..connect {
                run &= run >> 1;
            }
            run != 0
        })
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}", self.width, self.height)?;
        for row in (0..self.height).rev() {
            for column in 0..self.width {
                match self.at(row, column) {
                    Some(p) => write!(f, "{}", p.index())?,
                    None => write!(f, ".")?,
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Board {
    /// An empty board. `width` and `height` come from a validated `Variant`.
    pub fn empty(width: usize, height: usize) -> Board {
        debug_assert!((1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height));
        Board {
            width,
            height,
            cells: [EMPTY; MAX_SIDE * MAX_SIDE],
            heights: [0; MAX_SIDE],
            stones: 0,
            lines: [LineMasks::EMPTY; MAX_PLAYERS],
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// Stones of `player` on the board.
    pub fn stones_of(&self, player: Player) -> usize {
        (0..self.height)
            .flat_map(|row| (0..self.width).map(move |column| (row, column)))
            .filter(|&(row, column)| self.at(row, column) == Some(player))
            .count()
    }

    /// Empty cells left.
    pub fn empty_cells(&self) -> usize {
        self.width * self.height - self.stones
    }

    /// Whether every cell is taken.
    pub fn is_full(&self) -> bool {
        self.empty_cells() == 0
    }

    /// Stones in `column`.
    pub fn column_height(&self, column: Column) -> usize {
        self.heights[column.index()] as usize
    }

    /// Whether `column` has room for one more stone.
    pub fn has_room(&self, column: Column) -> bool {
        self.column_height(column) < self.height
    }

    /// The stone at (`row`, `column`), 0-based from the bottom left; `None` if empty or outside.
    pub fn at(&self, row: usize, column: usize) -> Option<Player> {
        if row >= self.height || column >= self.width {
            return None;
        }
        match self.cells[row * MAX_SIDE + column] {
            EMPTY => None,
            p => Some(Player(p)),
        }
    }

    /// `player`'s stones in column `column` (0-based, on the board): bit `r` for row `r`.
    pub fn stones_in_column(&self, player: Player, column: usize) -> u16 {
        self.lines[player.0 as usize].columns[column]
    }

    /// The stone at `cell`.
    pub fn stone(&self, cell: Cell) -> Option<Player> {
        self.at(cell.row, cell.column)
    }

    /// Puts `player`'s stone in `cell` whatever is below it; for building a board from a FEN,
    /// whose validation checks gravity afterwards.
    pub(crate) fn set(&mut self, cell: Cell, player: Player) {
        let slot = &mut self.cells[cell.row * MAX_SIDE + cell.column];
        match *slot {
            EMPTY => self.stones += 1,
            old => self.lines[old as usize].toggle(cell),
        }
        *slot = player.0;
        self.lines[player.index()].toggle(cell);
        let h = &mut self.heights[cell.column];
        *h = (*h).max(cell.row as u8 + 1);
    }

    /// The lowest empty cell of a column; the column must have room.
    pub fn landing_cell(&self, column: Column) -> Cell {
        Cell {
            row: self.column_height(column),
            column: column.index(),
        }
    }

    /// Drops `player`'s stone into `column` and returns where it landed.
    ///
    /// # Panics
    /// In debug builds, if the column is full; callers check `has_room` first.
    pub(crate) fn drop_unchecked(&mut self, column: Column, player: Player) -> Cell {
        debug_assert!(self.has_room(column));
        let cell = self.landing_cell(column);
        self.cells[cell.row * MAX_SIDE + cell.column] = player.0;
        self.lines[player.index()].toggle(cell);
        self.heights[column.index()] += 1;
        self.stones += 1;
        cell
    }

    /// Takes the top stone off `column`; the column must not be empty.
    pub(crate) fn lift_unchecked(&mut self, column: Column) {
        debug_assert!(self.column_height(column) > 0);
        self.heights[column.index()] -= 1;
        let row = self.heights[column.index()] as usize;
        let slot = &mut self.cells[row * MAX_SIDE + column.index()];
        self.lines[*slot as usize].toggle(Cell {
            row,
            column: column.index(),
        });
        *slot = EMPTY;
        self.stones -= 1;
    }

    /// How many consecutive cells hold the same stone as (`row`, `column`), stepping by
    /// (`d_row`, `d_column`), not counting (`row`, `column`) itself. Zero for an empty start cell.
    pub fn pieces_in_direction(
        &self,
        row: usize,
        column: usize,
        d_row: isize,
        d_column: isize,
    ) -> usize {
        let Some(own) = self.at(row, column) else {
            return 0;
        };
        let (mut r, mut c) = (row as isize, column as isize);
        let mut count = 0;
        loop {
            r += d_row;
            c += d_column;
            if r < 0 || c < 0 || self.at(r as usize, c as usize) != Some(own) {
                return count;
            }
            count += 1;
        }
    }

    /// Every line of at least `connect` stones that runs through `cell`, whole.
    pub fn lines_through(&self, cell: Cell, connect: usize) -> Vec<Line> {
        let Some(player) = self.stone(cell) else {
            return Vec::new();
        };
        let mut lines = Vec::new();
        for direction in Direction::ALL {
            let (dr, dc) = direction.step();
            let back = self.pieces_in_direction(cell.row, cell.column, -dr, -dc);
            let forward = self.pieces_in_direction(cell.row, cell.column, dr, dc);
            if back + 1 + forward >= connect {
                let first = (
                    cell.row as isize - dr * back as isize,
                    cell.column as isize - dc * back as isize,
                );
                let cells = (0..(back + 1 + forward) as isize)
                    .map(|i| Cell {
                        row: (first.0 + dr * i) as usize,
                        column: (first.1 + dc * i) as usize,
                    })
                    .collect();
                lines.push(Line {
                    player,
                    direction,
                    cells,
                });
            }
        }
        lines
    }

    /// Whether the stone in `cell` is part of a line of at least `connect`: the same answer as
    /// `!lines_through(cell, connect).is_empty()`, without building the lines.
    pub fn completes_line(&self, cell: Cell, connect: usize) -> bool {
        self.stone(cell)
            .is_some_and(|p| self.lines[p.index()].has_run_through(cell, connect))
    }

    /// Every maximal line of at least `connect` stones anywhere on the board, each once.
    pub fn all_lines(&self, connect: usize) -> Vec<Line> {
        let mut lines: Vec<Line> = Vec::new();
        for row in 0..self.height {
            for column in 0..self.width {
                for line in self.lines_through(Cell { row, column }, connect) {
                    if !lines.contains(&line) {
                        lines.push(line);
                    }
                }
            }
        }
        lines
    }

    /// Every window of `connect` cells in a row, column or diagonal, top rows first (they fill
    /// last, so a search for an open window usually ends at once), with what each holds.
    pub fn windows(&self, connect: usize) -> impl Iterator<Item = Window> + '_ {
        let span = connect as isize - 1;
        (0..self.height).rev().flat_map(move |row| {
            (0..self.width).flat_map(move |column| {
                Direction::ALL.into_iter().filter_map(move |direction| {
                    let (dr, dc) = direction.step();
                    let end_row = row as isize + dr * span;
                    let end_column = column as isize + dc * span;
                    if end_row < 0
                        || end_row >= self.height as isize
                        || end_column >= self.width as isize
                    {
                        return None;
                    }
                    let mut window = Window {
                        owner: None,
                        stones: 0,
                        empty: 0,
                        mixed: false,
                    };
                    for i in 0..=span {
                        let cell = self.at(
                            (row as isize + dr * i) as usize,
                            (column as isize + dc * i) as usize,
                        );
                        match cell {
                            None => window.empty += 1,
                            Some(p) => {
                                window.mixed |= window.owner.is_some_and(|o| o != p);
                                window.owner = Some(p);
                                window.stones += 1;
                            }
                        }
                    }
                    Some(window)
                })
            })
        })
    }

    /// Whether some column has `connect` empty cells on top: an empty window that anyone with
    /// that many stones left can fill. A constant-time answer for most positions.
    pub fn has_open_column(&self, connect: usize) -> bool {
        self.heights[..self.width]
            .iter()
            .any(|&h| self.height - h as usize >= connect)
    }

    /// Whether any player could still fill some window of `connect` cells, given how many more
    /// stones each player can place (`remaining[p]`, by player index) before the board is full.
    /// A window counts if it holds no stone but one player's, and that player (any player, for an
    /// empty window) can still place at least as many stones as the window has empty cells.
    pub fn can_still_connect(&self, connect: usize, remaining: &[usize]) -> bool {
        let most = remaining.iter().copied().max().unwrap_or(0);
        if most >= connect && self.has_open_column(connect) {
            return true;
        }
        self.windows(connect).any(|w| match w.owner {
            _ if w.mixed => false,
            None => most >= w.empty,
            Some(p) => remaining[p.index()] >= w.empty,
        })
    }
}

/// What one window of connect-length cells holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The player whose stones are in it (the last one seen, if `mixed`).
    pub owner: Option<Player>,
    /// Stones in it.
    pub stones: usize,
    /// Empty cells in it.
    pub empty: usize,
    /// Whether it holds stones of more than one player.
    pub mixed: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_from_rows(rows_top_down: &[&str]) -> Board {
        let height = rows_top_down.len();
        let width = rows_top_down[0].len();
        let mut b = Board::empty(width, height);
        for (i, line) in rows_top_down.iter().enumerate() {
            for (column, ch) in line.chars().enumerate() {
                if let Some(d) = ch.to_digit(10) {
                    b.set(
                        Cell {
                            row: height - 1 - i,
                            column,
                        },
                        Player(d as u8),
                    );
                }
            }
        }
        b
    }

    #[test]
    fn pieces_in_direction_counts_neighbours_only() {
        let b = board_from_rows(&["....", "....", "....", "000."]);
        assert_eq!(b.pieces_in_direction(0, 0, 0, 1), 2);
        assert_eq!(b.pieces_in_direction(0, 1, 0, -1), 1);
        assert_eq!(b.pieces_in_direction(0, 2, 0, 1), 0);
        assert_eq!(b.pieces_in_direction(0, 3, 0, -1), 0, "empty start cell");
        assert_eq!(b.pieces_in_direction(0, 0, 1, 0), 0);
    }

    #[test]
    fn lines_report_every_cell_even_past_connect() {
        let b = board_from_rows(&[".....", "00000"]);
        let lines = b.lines_through(Cell { row: 0, column: 2 }, 4);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].direction, Direction::Horizontal);
        assert_eq!(lines[0].cells.len(), 5);
        assert_eq!(lines[0].cells[0], Cell { row: 0, column: 0 });
    }

    #[test]
    fn diagonals_run_left_to_right() {
        let up = board_from_rows(&["...0", "..01", ".011", "0111"]);
        let l = up.lines_through(Cell { row: 2, column: 2 }, 4);
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].direction, Direction::DiagonalUp);
        assert_eq!(l[0].cells.first(), Some(&Cell { row: 0, column: 0 }));
        let down = board_from_rows(&["0...", "10..", "110.", "1110"]);
        let l = down.lines_through(Cell { row: 3, column: 0 }, 4);
        assert_eq!(l[0].direction, Direction::DiagonalDown);
        assert_eq!(l[0].cells.last(), Some(&Cell { row: 0, column: 3 }));
    }

    #[test]
    fn one_stone_can_complete_two_lines() {
        let b = board_from_rows(&["0...", "0...", "0...", "0000"]);
        let lines = b.lines_through(Cell { row: 0, column: 0 }, 4);
        let dirs: Vec<_> = lines.iter().map(|l| l.direction).collect();
        assert_eq!(dirs, vec![Direction::Horizontal, Direction::Vertical]);
        assert_eq!(b.all_lines(4).len(), 2);
    }

    #[test]
    fn drop_and_lift_restore_the_grid() {
        let mut b = Board::empty(3, 2);
        let before = b.clone();
        let c = Column::from_index(1);
        assert_eq!(b.drop_unchecked(c, Player(0)), Cell { row: 0, column: 1 });
        assert_eq!(b.drop_unchecked(c, Player(1)), Cell { row: 1, column: 1 });
        assert!(!b.has_room(c));
        b.lift_unchecked(c);
        b.lift_unchecked(c);
        assert_eq!(b, before);
    }

    #[test]
    fn open_windows_depend_on_stones_left() {
        // 4x1 connect 2: "0 1 . ." - the last two cells form a window anyone may fill.
        let b = board_from_rows(&["01.."]);
        assert!(b.can_still_connect(2, &[1, 1]));
        assert!(!b.can_still_connect(2, &[1, 0]));
        // Each player owns a window needing one more stone: open while its owner has a stone left.
        let b = board_from_rows(&["0.1"]);
        assert!(b.can_still_connect(2, &[1, 0]));
        assert!(b.can_still_connect(2, &[0, 1]));
        assert!(!b.can_still_connect(2, &[0, 0]));
    }

    #[test]
    fn cells_print_as_letter_and_row() {
        assert_eq!(Cell { row: 0, column: 0 }.to_string(), "a1");
        assert_eq!(
            Cell {
                row: 15,
                column: 15
            }
            .to_string(),
            "p16"
        );
    }
}
