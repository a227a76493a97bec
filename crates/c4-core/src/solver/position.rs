//! The solver's bitboard [`Position`]: two players, connect four, any board with
//! `width * (height + 1)` cells and sentinels within its [`Bitboard`] (64 or 128 bits) and sides
//! of at most [`MAX_SIDE`]; owns move generation and win detection, nothing about search.

use super::bitboard::Bitboard;
use super::error::SolverError;

/// The number of stones in a row that wins.
const CONNECT: u32 = 4;

/// The most columns, and rows, of a solver board: as many as the rules allow. The table's
/// entries count on it (a column in 5 bits, and scores of at most 60 cells on 64-bit boards).
pub(crate) const MAX_SIDE: u32 = 16;

/// A Connect Four position for the solver, as two masks of type `B` (`u64` or `u128`).
///
/// Bit layout, column-major, one spare "sentinel" bit on top of every column (here 7x6; bit
/// index = `column * (height + 1) + row`, row 0 at the bottom):
///
/// ```text
///   .  .  .  .  .  .  .     <- sentinel row, never set in `current` or `mask`
///   5 12 19 26 33 40 47
///   4 11 18 25 32 39 46
///   3 10 17 24 31 38 45
///   2  9 16 23 30 37 44
///   1  8 15 22 29 36 43
///   0  7 14 21 28 35 42     <- row 0, the bottom
///   c0 c1 c2 c3 c4 c5 c6
/// ```
///
/// The sentinel row keeps the shifts used for win detection from wrapping from the top of one
/// column into the bottom of the next, and makes `current + mask` (the [`key`](Self::key)) unique:
/// adding a column's bits never carries past its sentinel.
///
/// `current` holds the stones of the side to move, `mask` every stone. The position is never
/// finished: playing a winning move is the caller's business to detect first with
/// `is_winning_move`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<B = u64> {
    current: B,
    mask: B,
    moves: u32,
    geometry: Geometry<B>,
}

/// The board size and the masks derived from it, shared by every position of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Geometry<B> {
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// One bit at the bottom of every column.
    pub(crate) bottom: B,
    /// Every playable cell (sentinels excluded).
    pub(crate) board: B,
    /// The cells in rows of the same parity as the row under the top one (even rows on a board
    /// of even height): in a column with an even number of empty cells, the side to move plays
    /// these and its opponent the others when it answers every move in the same column.
    pub(crate) first_player_rows: B,
    /// Whether lines other than vertical ones fit on the board; also keeps the horizontal and
    /// diagonal shifts below the bitboard's width on tall, narrow boards.
    pub(crate) has_rows: bool,
}

/// A geometry's masks, as `u128`: computed by a `const fn` so that the standard board's are
/// constants, and cut to the bitboard's width by [`Geometry::of`].
struct Masks {
    bottom: u128,
    board: u128,
    first_player_rows: u128,
}

impl Masks {
    /// The masks of a `width` x `height` board that fits 128 bits.
    const fn of(width: u32, height: u32) -> Masks {
        let mut bottom = 0u128;
        let mut column = 0;
        while column < width {
            bottom |= 1 << (column * (height + 1));
            column += 1;
        }
        let mut first_player_rows = 0u128;
        let mut row = height % 2;
        while row < height {
            first_player_rows |= bottom << row;
            row += 2;
        }
        Masks {
            bottom,
            board: bottom * ((1u128 << height) - 1),
            first_player_rows,
        }
    }
}

impl Geometry<u64> {
    /// The `width` x `height` board (one that fits 64 bits), as a constant so that searches on
    /// it can be compiled with every shift and mask known in advance.
    pub(crate) const fn fixed(width: u32, height: u32) -> Geometry<u64> {
        let masks = Masks::of(width, height);
        Geometry {
            width,
            height,
            bottom: masks.bottom as u64,
            board: masks.board as u64,
            first_player_rows: masks.first_player_rows as u64,
            has_rows: width >= CONNECT,
        }
    }
}

impl<B: Bitboard> Geometry<B> {
    fn new(width: u32, height: u32) -> Result<Geometry<B>, SolverError> {
        if width == 0
            || height == 0
            || u64::from(width) * (u64::from(height) + 1) > u64::from(B::BITS)
        {
            return Err(SolverError::BoardTooLarge {
                width,
                height,
                cells: B::BITS,
            });
        }
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(SolverError::SideTooLong { width, height });
        }
        Ok(Geometry::of(width, height))
    }

    /// The geometry of a board that fits (`width * (height + 1) <= B::BITS`, both non-zero).
    fn of(width: u32, height: u32) -> Geometry<B> {
        let masks = Masks::of(width, height);
        Geometry {
            width,
            height,
            bottom: B::from_u128(masks.bottom),
            board: B::from_u128(masks.board),
            first_player_rows: B::from_u128(masks.first_player_rows),
            has_rows: width >= CONNECT,
        }
    }

    /// The number of cells on the board.
    pub(crate) fn area(&self) -> u32 {
        self.width * self.height
    }

    /// The bits a key of this board can have set: `width * (height + 1)`.
    pub(crate) fn key_bits(&self) -> u32 {
        self.width * (self.height + 1)
    }

    fn column_mask(&self, column: u32) -> B {
        ((B::ONE << self.height) - B::ONE) << (column * (self.height + 1))
    }

    fn top_cell(&self, column: u32) -> B {
        B::ONE << (self.height - 1 + column * (self.height + 1))
    }

    /// The key of the left-right mirror image of the position whose key is `key`.
    pub(crate) fn mirror_key(&self, key: B) -> B {
        let stride = self.height + 1;
        let column_bits = (B::ONE << stride) - B::ONE;
        let mut mirrored = B::ZERO;
        for c in 0..self.width {
            let bits = (key >> (c * stride)) & column_bits;
            mirrored = mirrored | bits << ((self.width - 1 - c) * stride);
        }
        mirrored
    }

    /// Every empty cell that would complete a line of four for the owner of `stones`.
    #[inline(always)]
    pub(crate) fn winning_cells(&self, stones: B, mask: B) -> B {
        let p = stones;
        // Vertical: only the cell right above three stones.
        let mut r = (p << 1) & (p << 2) & (p << 3);
        if self.has_rows {
            for shift in [self.height + 1, self.height, self.height + 2] {
                let pair = (p << shift) & (p << (2 * shift));
                r = r | (pair & (p << (3 * shift)));
                r = r | (pair & (p >> shift));
                let pair = (p >> shift) & (p >> (2 * shift));
                r = r | (pair & (p << shift));
                r = r | (pair & (p >> (3 * shift)));
            }
        }
        r & (self.board ^ mask)
    }

    /// The same geometry on a 64-bit bitboard; for a board that fits one.
    #[inline(always)]
    fn narrowed(&self) -> Geometry<u64> {
        let narrow = |bits: B| bits.to_u128() as u64;
        Geometry {
            width: self.width,
            height: self.height,
            bottom: narrow(self.bottom),
            board: narrow(self.board),
            first_player_rows: narrow(self.first_player_rows),
            has_rows: self.has_rows,
        }
    }
}

impl<B: Bitboard> Position<B> {
    /// The empty board, `width` columns by `height` rows.
    ///
    /// # Errors
    /// [`SolverError::BoardTooLarge`] unless `width * (height + 1)` fits the bitboard and both
    /// are non-zero, [`SolverError::SideTooLong`] past 16 columns or rows.
    pub fn new(width: u32, height: u32) -> Result<Position<B>, SolverError> {
        Ok(Position {
            current: B::ZERO,
            mask: B::ZERO,
            moves: 0,
            geometry: Geometry::new(width, height)?,
        })
    }

    /// The position reached by playing `columns` (0-based) from the empty board.
    ///
    /// # Errors
    /// The board does not fit, or a column is off the board, full, or played after the game was
    /// already won; the error names the 1-based move number.
    pub fn from_moves(width: u32, height: u32, columns: &[u8]) -> Result<Position<B>, SolverError> {
        let mut position = Position::new(width, height)?;
        for (index, &column) in columns.iter().enumerate() {
            position
                .play_column(u32::from(column))
                .map_err(|error| SolverError::InvalidMove {
                    move_number: index + 1,
                    reason: Box::new(error),
                })?;
        }
        Ok(position)
    }

    /// A position from raw stone masks, as the rules layer holds them.
    ///
    /// `current` are the stones of the side to move, `opponent` the other side's; bit index is
    /// `column * (height + 1) + row` with row 0 at the bottom (see the diagram on [`Position`]).
    /// Every column must be filled from the bottom without gaps, sentinel bits clear, the stone
    /// counts must fit the side to move (the side to move has as many stones as the other side,
    /// or one fewer), and neither side may already have four in a row.
    ///
    /// # Errors
    /// [`SolverError::BoardTooLarge`] or [`SolverError::InvalidStones`] saying which rule failed.
    pub(crate) fn from_stones(
        width: u32,
        height: u32,
        current: B,
        opponent: B,
    ) -> Result<Position<B>, SolverError> {
        let geometry = Geometry::<B>::new(width, height)?;
        let invalid = |reason: &'static str| Err(SolverError::InvalidStones { reason });
        if current & opponent != B::ZERO {
            return invalid("a cell holds stones of both sides");
        }
        let mask = current | opponent;
        if mask & !geometry.board != B::ZERO {
            return invalid("a stone lies outside the board");
        }
        // A column without gaps is a run of ones from its bottom bit: adding the bottom bit
        // carries through the whole run and leaves exactly one bit.
        for c in 0..width {
            let column = mask & geometry.column_mask(c);
            let filled = column + (B::ONE << (c * (height + 1)));
            if filled & (filled - B::ONE) != B::ZERO {
                return invalid("a column has a gap under a stone");
            }
        }
        let (mine, theirs) = (current.count_ones(), opponent.count_ones());
        if mine != theirs && mine + 1 != theirs {
            return invalid(
                "the side to move must have as many stones as the other side or one fewer",
            );
        }
        if has_four(&geometry, current) || has_four(&geometry, opponent) {
            return invalid("the game is already won");
        }
        Ok(Position {
            current,
            mask,
            moves: mine + theirs,
            geometry,
        })
    }

    /// The number of columns.
    pub fn width(&self) -> u32 {
        self.geometry.width
    }

    /// The number of rows.
    pub fn height(&self) -> u32 {
        self.geometry.height
    }

    pub(crate) fn geometry(&self) -> &Geometry<B> {
        &self.geometry
    }

    /// Whether the position is its own left-right mirror image.
    pub(crate) fn is_symmetric(&self) -> bool {
        self.geometry.mirror_key(self.key()) == self.key()
    }

    /// The same position on a 64-bit bitboard, if its board fits one (the opening book's boards
    /// all do). Free for a position that already is on one.
    #[inline(always)]
    pub(crate) fn narrowed(&self) -> Option<Position<u64>> {
        (self.geometry.key_bits() <= u64::BITS).then(|| Position {
            current: self.current.to_u128() as u64,
            mask: self.mask.to_u128() as u64,
            moves: self.moves,
            geometry: self.geometry.narrowed(),
        })
    }

    /// The same position on the 128-bit bitboard.
    pub(crate) fn widened(&self) -> Position<u128> {
        Position::from_stones(
            self.width(),
            self.height(),
            self.current.to_u128(),
            (self.current ^ self.mask).to_u128(),
        )
        .expect("every board fits 128 bits")
    }

    /// The number of stones on the board.
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    /// Whether every cell is filled.
    pub(crate) fn is_full(&self) -> bool {
        self.moves == self.geometry.area()
    }

    /// Whether `column` (0-based) is on the board and not full.
    pub fn can_play(&self, column: u32) -> bool {
        column < self.geometry.width && self.mask & self.geometry.top_cell(column) == B::ZERO
    }

    /// Whether playing `column` (0-based, playable) makes four in a row for the side to move.
    pub(crate) fn is_winning_move(&self, column: u32) -> bool {
        self.can_play(column)
            && self.winning_cells(self.current)
                & self.possible()
                & self.geometry.column_mask(column)
                != B::ZERO
    }

    /// Whether the side to move has a winning move.
    pub fn can_win_next(&self) -> bool {
        self.winning_cells(self.current) & self.possible() != B::ZERO
    }

    /// Plays `column` (0-based) for the side to move.
    ///
    /// # Errors
    /// The column is off the board or full, or the game is already over (a side has won, or the
    /// board is full). A move that wins is allowed; the position is finished afterwards and
    /// refuses further moves.
    pub fn play_column(&mut self, column: u32) -> Result<(), SolverError> {
        if column >= self.geometry.width {
            return Err(SolverError::ColumnOffBoard {
                column: column + 1,
                width: self.geometry.width,
            });
        }
        if !self.can_play(column) {
            return Err(SolverError::ColumnFull { column: column + 1 });
        }
        if self.is_won() {
            return Err(SolverError::GameOver);
        }
        self.play_unchecked(self.possible() & self.geometry.column_mask(column));
        Ok(())
    }

    /// Whether the side that just moved has four in a row.
    pub(crate) fn is_won(&self) -> bool {
        has_four(&self.geometry, self.current ^ self.mask)
    }

    /// Plays the stone `cell` for the side to move.
    ///
    /// Invariant: `cell` is a single bit of [`possible`](Self::possible) (the lowest empty cell
    /// of a column) and the game is not over. Nothing is checked: breaking the invariant leaves a
    /// position that means nothing.
    #[inline(always)]
    pub(crate) fn play_unchecked(&mut self, cell: B) {
        self.current = self.current ^ self.mask;
        self.mask = self.mask | cell;
        self.moves += 1;
    }

    /// The unique key of the position: `current + mask`, below `2^(width * (height + 1))`.
    #[inline(always)]
    pub fn key(&self) -> B {
        self.current + self.mask
    }

    /// The lowest empty cell of every column that is not full.
    #[inline(always)]
    pub(crate) fn possible(&self) -> B {
        (self.mask + self.geometry.bottom) & self.geometry.board
    }

    #[inline(always)]
    pub(crate) fn winning_cells(&self, stones: B) -> B {
        self.geometry.winning_cells(stones, self.mask)
    }

    /// The cells where the opponent would complete four.
    #[inline(always)]
    pub(crate) fn opponent_winning_cells(&self) -> B {
        self.winning_cells(self.current ^ self.mask)
    }

    /// The playable cells that do not let the opponent win at once, assuming the side to move
    /// cannot win at once: the forced block if there is one, nothing if two blocks are needed,
    /// and never the cell under an opponent's winning cell. `opponent_threats` are the
    /// [`opponent_winning_cells`](Self::opponent_winning_cells), which the search already knows
    /// from the parent's move ordering.
    #[inline(always)]
    pub(crate) fn non_losing_moves(&self, opponent_threats: B) -> B {
        let mut possible = self.possible();
        let forced = possible & opponent_threats;
        if forced != B::ZERO {
            if forced & (forced - B::ONE) != B::ZERO {
                return B::ZERO;
            }
            possible = forced;
        }
        possible & !(opponent_threats >> 1)
    }

    /// The cells where the side to move would complete four after playing `cell`: the move
    /// ordering counts them, and they are the opponent's threats in the position after it.
    #[inline(always)]
    pub(crate) fn winning_cells_after(&self, cell: B) -> B {
        self.geometry
            .winning_cells(self.current | cell, self.mask | cell)
    }

    /// Whether playing `cell`, one of the side to move's non-losing moves, leaves it two cells
    /// where it completes four with its next stone (`created`: its winning cells after the
    /// move): the opponent can fill only one, so the move wins with the stone after next.
    /// Needs that neither side can win at once.
    #[inline(always)]
    pub(crate) fn leaves_two_playable_threats(&self, cell: B, created: B) -> bool {
        let playable = (self.possible() ^ cell) | ((cell << 1) & self.geometry.board);
        let ready = created & playable;
        ready & ready.wrapping_sub(B::ONE) != B::ZERO
    }

    /// Whether the side to move (`mover`) or the opponent still has a line of four that its
    /// own stones and the empty cells could complete: a side without one cannot win.
    #[inline(always)]
    pub(crate) fn has_open_line(&self, mover: bool) -> bool {
        let stones = if mover {
            self.current
        } else {
            self.current ^ self.mask
        };
        has_four(&self.geometry, stones | (self.geometry.board ^ self.mask))
    }

    /// An upper bound on the score of the side to move from a follow-up strategy of the
    /// opponent's ("claimeven"), when an even number of cells is empty. The opponent answers a
    /// move in a column with an even number of empty cells on top of it, and the first move into
    /// a column with an odd number by the first move into another such column (they come in
    /// pairs), after which that column is even. So the side to move gets at most the cells in
    /// rows of the parity of [`Geometry::first_player_rows`] and the lowest empty cell of every
    /// odd column, and the opponent every other empty cell. If the side to move cannot make four
    /// with its stones and those cells, it cannot win (bound 0); if the opponent then makes four
    /// with its own, the side to move loses (bound -1). `None` when an odd number of cells is
    /// empty or the side to move keeps a line.
    #[inline(always)]
    pub(crate) fn follow_up_bound(&self) -> Option<i32> {
        let geometry = &self.geometry;
        if (geometry.area() - self.moves) % 2 == 1 {
            return None;
        }
        let empty = geometry.board ^ self.mask;
        let mover_cells =
            (empty & geometry.first_player_rows) | (self.possible() & !geometry.first_player_rows);
        if has_four(geometry, self.current | mover_cells) {
            return None;
        }
        let opponent = self.current ^ self.mask;
        Some(if has_four(geometry, opponent | (empty & !mover_cells)) {
            -1
        } else {
            0
        })
    }

    /// An upper bound on the score of the side to move from a follow-up strategy of the
    /// opponent's around one of its winning cells ("odd threat" and zugzwang), when an odd number
    /// of cells is empty: `opponent_threats` are the opponent's winning cells. Take a column `T`
    /// with an odd number of empty cells and an opponent's winning cell `t` in it, in a row of
    /// the parity of [`Geometry::first_player_rows`]. The opponent answers every move in `T` or
    /// in a column with an even number of empty cells on top of it, and the first move into any
    /// other odd column by the first move into another such column (they come in pairs). So the
    /// side to move gets at most those rows and the lowest empty cell of every odd column but
    /// `T`, and in `T` only the cells below `t` in the other rows: it must fill the cell right
    /// under `t` at last, and the opponent completes four there, before `T` is full. If the side
    /// to move cannot make four with its stones and those cells, it loses, with at least the
    /// cells above `t` still empty. `None` when an even number of cells is empty or no such `t`
    /// is found.
    #[inline(always)]
    pub(crate) fn odd_threat_bound(&self, opponent_threats: B) -> Option<i32> {
        let geometry = &self.geometry;
        if (geometry.area() - self.moves).is_multiple_of(2) {
            return None;
        }
        let rows = geometry.first_player_rows;
        let odd_lowest = self.possible() & !rows;
        let mut candidates = opponent_threats & rows;
        if candidates == B::ZERO || odd_lowest == B::ZERO {
            return None;
        }
        let empty = geometry.board ^ self.mask;
        let others = (empty & rows) | odd_lowest;
        // Lowest first: the lower `t`, the fewer cells the side to move gets below it, and the
        // more stay empty above it.
        while candidates != B::ZERO {
            let threat = candidates & !candidates.wrapping_sub(B::ONE);
            candidates = candidates ^ threat;
            let index = B::BITS - 1 - threat.leading_zeros();
            let column = geometry.column_mask(index / (geometry.height + 1));
            if odd_lowest & column == B::ZERO {
                continue;
            }
            let below = threat.wrapping_sub(B::ONE) & column;
            let mover_cells = (others & !column) | (empty & below & !rows);
            if !has_four(geometry, self.current | mover_cells) {
                let above = (column & !below & !threat).count_ones() as i32;
                return Some(-(above + 2) / 2);
            }
        }
        None
    }

    /// The cells where the side to move would complete four.
    #[inline(always)]
    pub(crate) fn own_winning_cells(&self) -> B {
        self.winning_cells(self.current)
    }

    /// The key of the position after playing `cell`.
    #[inline(always)]
    pub(crate) fn key_after(&self, cell: B) -> B {
        (self.current ^ self.mask) + (self.mask | cell)
    }

    /// The cell a move in `column` would fill, if the column has room.
    #[inline(always)]
    pub(crate) fn cell_in(&self, column: u32) -> B {
        self.possible() & self.geometry.column_mask(column)
    }

    /// The positions one move earlier from which a move reaches this one: one for every column
    /// whose top stone is the last mover's, without that stone. (Of a won position, some may be
    /// won already: only a position still in play has only positions in play as parents.)
    pub fn parents(&self) -> impl Iterator<Item = Position<B>> {
        let position = *self;
        let last_mover = position.current ^ position.mask;
        (0..position.geometry.width).filter_map(move |column| {
            let geometry = &position.geometry;
            let stones = position.mask & geometry.column_mask(column);
            // A column is a run of ones from its bottom bit: adding that bit carries to the cell
            // above the run, and the cell under that is the top stone (of an empty column, a
            // cell no stone is in).
            let top = (stones + (geometry.bottom & geometry.column_mask(column))) >> 1;
            (top & last_mover != B::ZERO).then(|| Position {
                current: last_mover ^ top,
                mask: position.mask ^ top,
                moves: position.moves - 1,
                geometry: position.geometry,
            })
        })
    }
}

impl Position<u64> {
    /// The stones of the position, the side to move's and all: with
    /// [`from_stones_on`](Self::from_stones_on), all that a search on a board known in advance
    /// needs to pass on.
    #[inline(always)]
    pub(crate) fn stones(&self) -> (u64, u64) {
        (self.current, self.mask)
    }

    /// The position on `geometry` with `current` the side to move's stones and `mask` every
    /// stone, as [`stones`](Self::stones) gives them: for the search on a board known in
    /// advance, its geometry a constant ([`Geometry::fixed`]) that the compiler sees.
    #[inline(always)]
    pub(crate) fn from_stones_on(
        geometry: Geometry<u64>,
        (current, mask): (u64, u64),
    ) -> Position<u64> {
        Position {
            current,
            mask,
            moves: mask.count_ones(),
            geometry,
        }
    }
}

/// Whether the side to move, whose winning cells are `own_threats`, has two of them stacked
/// right above one of `candidates` (its non-losing moves): playing there forces the opponent to
/// block the lower one, and the upper one then wins. Needs that neither side can win at once.
#[inline(always)]
pub(crate) fn has_stacked_threats_over<B: Bitboard>(candidates: B, own_threats: B) -> bool {
    candidates & (own_threats >> 1) & (own_threats >> 2) != B::ZERO
}

#[inline(always)]
fn has_four<B: Bitboard>(geometry: &Geometry<B>, stones: B) -> bool {
    let lines = [1, geometry.height + 1, geometry.height, geometry.height + 2];
    let directions = if geometry.has_rows {
        &lines[..]
    } else {
        &lines[..1]
    };
    directions.iter().any(|&s| {
        let pair = stones & (stones >> s);
        pair & (pair >> (2 * s)) != B::ZERO
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(moves: &str) -> Position {
        let columns: Vec<u8> = moves.bytes().map(|b| b - b'1').collect();
        Position::from_moves(7, 6, &columns).unwrap()
    }

    #[test]
    fn boards_that_do_not_fit_are_refused() {
        assert!(Position::<u64>::new(8, 8).is_err());
        assert!(Position::<u64>::new(0, 6).is_err());
        for (w, h) in [
            (7, 6),
            (6, 7),
            (8, 7),
            (9, 6),
            (5, 4),
            (4, 4),
            (1, 16),
            (16, 3),
        ] {
            assert!(Position::<u64>::new(w, h).is_ok(), "{w}x{h}");
        }
        for (w, h) in [(1, 17), (17, 1), (4, 15)] {
            let refused = Position::<u128>::new(w, h).is_err();
            assert_eq!(refused, w > 16 || h > 16, "{w}x{h}");
        }
    }

    #[test]
    fn vertical_horizontal_and_diagonal_wins_are_seen() {
        assert!(pos("121212").is_winning_move(0));
        assert!(pos("112233").is_winning_move(3));
        assert!(!pos("112233").is_winning_move(4));
        // Rising diagonal 1-2-3-4 for the first player.
        let p = pos("1223343446");
        assert!(p.is_winning_move(3));
    }

    #[test]
    fn full_columns_and_finished_games_refuse_moves() {
        let mut p = pos("111111");
        assert_eq!(p.play_column(0), Err(SolverError::ColumnFull { column: 1 }));
        assert_eq!(
            p.play_column(7),
            Err(SolverError::ColumnOffBoard {
                column: 8,
                width: 7
            })
        );
        let mut won = pos("1212121");
        assert!(won.is_won());
        assert_eq!(won.play_column(3), Err(SolverError::GameOver));
    }

    #[test]
    fn from_stones_matches_from_moves_and_checks_its_input() {
        let p = pos("4453");
        let opponent = p.current ^ p.mask;
        assert_eq!(Position::from_stones(7, 6, p.current, opponent), Ok(p));
        assert!(Position::<u64>::from_stones(7, 6, 0b100, 0).is_err(), "gap");
        assert!(
            Position::<u64>::from_stones(7, 6, 0b1, 0b1).is_err(),
            "overlap"
        );
        assert!(
            Position::<u64>::from_stones(7, 6, 0b11, 0).is_err(),
            "stone counts"
        );
    }

    #[test]
    fn mirror_key_flips_columns() {
        let a = pos("1123");
        let b = pos("7765");
        assert_eq!(a.geometry().mirror_key(a.key()), b.key());
    }

    #[test]
    fn parents_are_the_positions_a_move_comes_from() {
        let mut rng = crate::engine::Rng::new(7);
        for (width, height) in [(7, 6), (4, 3), (1, 5)] {
            for _ in 0..200 {
                let mut position = Position::new(width, height).unwrap();
                while !position.is_won() && !position.is_full() {
                    let playable: Vec<u32> = (0..width).filter(|&c| position.can_play(c)).collect();
                    let before = position;
                    position
                        .play_column(playable[rng.below(playable.len())])
                        .unwrap();
                    let parents: Vec<Position> = position.parents().collect();
                    assert!(parents.contains(&before), "{position:?}");
                    for parent in &parents {
                        let reaches = (0..width).filter(|&c| {
                            let mut child = *parent;
                            child.play_column(c).is_ok() && child == position
                        });
                        assert_eq!(reaches.count(), 1, "{parent:?} -> {position:?}");
                    }
                    // One parent for each column whose top stone the last mover played.
                    let last_mover = position.current ^ position.mask;
                    let tops = (0..width).filter(|&c| {
                        let stones = position.mask & position.geometry.column_mask(c);
                        stones != 0 && last_mover & (1 << (63 - stones.leading_zeros())) != 0
                    });
                    assert_eq!(parents.len(), tops.count(), "{position:?}");
                }
            }
        }
        assert_eq!(pos("").parents().count(), 0);
    }
}
