//! The [`Solver`]: null-window negamax with alpha-beta over [`Position`]s, a transposition table
//! of bounds, and the limits that let a caller stop a search; owns no board rules of its own.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use super::bitboard::Bitboard;
use super::book::Book;
use super::error::SolverError;
use super::order::{centre_out, MoveList, MAX_WIDTH};
use super::parallel::{Claim, Crew, Probe, Shared};
use super::position::Position;
use super::position::{has_stacked_threats_over, Geometry};
use super::score::{Outcome, Score};
use super::table::{Bounds, Table};
use super::ProbeProgress;

/// The default table: 2^18 entries, 2 MiB. With the 1 MiB near-leaf table most probes hit the
/// processor's caches, which pays for the positions a larger table would keep. Against 2^20
/// entries with a 2^19 near-leaf table, in alternating runs: 6% more nodes on every 25th
/// begin-hard line, yet 12% less time there, 28% less on every 20th begin-medium line, 30% less
/// on middle-easy, and the empty board in 29.1 s instead of 31.2 s.
pub const DEFAULT_TABLE_BITS: u32 = 18;

/// The table bits of a table of `mib` MiB, rounded down to a power of two (2^17 entries of 8
/// bytes are 1 MiB), as the protocol's `hash` and the command line's `--hash` ask for it.
pub fn table_bits_for_mib(mib: u32) -> u32 {
    17 + mib.max(1).ilog2()
}

/// The MiB of a table of `2^bits` entries (at least 2^17): the inverse of
/// [`table_bits_for_mib`].
pub fn table_mib(bits: u32) -> u64 {
    1 << bits.saturating_sub(17)
}

/// The most threads one search uses.
pub const MAX_THREADS: usize = 64;

/// Nodes an exact search takes on its own before helper threads join it: waking them and
/// stopping them again costs about as much as searching a few hundred nodes, so small searches
/// stay on one thread.
pub const PARALLEL_MIN_NODES: u64 = 20_000;

/// How many nodes pass between two looks at the limits; small enough to stop within about a
/// millisecond, large enough to cost nothing.
const CHECK_INTERVAL: u64 = 4096;

/// How many nodes pass between two looks at whether another thread has answered the probe: a
/// thread that goes on searching an answered probe wastes its time.
const TEAM_CHECK_INTERVAL: u64 = 1024;

/// Positions with at least this many empty cells are split between the threads of a probe
/// (their moves after the first are searched by one thread at a time); below it, marking
/// positions as busy, which takes the busy table's cache lines from the other threads, would
/// cost more than it saves.
const SPLIT_MIN_EMPTY: i32 = 22;

/// While threads search a probe together, each keeps the positions with at most this many empty
/// cells in its own near-leaf table, and only those above in the shared one: the threads
/// mostly search apart, and every line one of them writes in the shared table is taken from
/// the other's cache.
const TEAM_NEAR_LEAF_EMPTY: i32 = 18;

// The moves a thread leaves for later are answered in the shared table.
const _: () = assert!(TEAM_NEAR_LEAF_EMPTY < SPLIT_MIN_EMPTY - 1);

/// Enhanced transposition cutoffs (probing every child for a refutation before searching any)
/// are tried only with more than this many empty cells: near the leaves the probes cost more
/// than the searches they save.
const ETC_MIN_EMPTY: i32 = 12;

/// The root probes the sign first once the score is known to lie in a range this wide around
/// zero (28% fewer nodes on begin-hard, 11% more on begin-medium than halving alone).
const SIGN_FIRST_RANGE: i32 = 16;

/// Once the sign is known and the score lies in a range this narrow, the root probes the score
/// nearest zero first instead of halving (13% fewer nodes on the empty board, 3% fewer on
/// begin-hard, 1% more on begin-medium; 2 to 8 were tried).
const NEAREST_FIRST_RANGE: i32 = 4;

/// Positions with at most this many empty cells are checked for sides that can no longer
/// complete any line, and so cannot win.
const OPEN_LINES_EMPTY: i32 = 12;

/// Positions with at most this many empty cells go to the small near-leaf table.
const NEAR_LEAF_EMPTY: i32 = 12;

/// The near-leaf table: 2^17 entries, 1 MiB (see [`DEFAULT_TABLE_BITS`]).
const NEAR_LEAF_BITS: u32 = 17;

/// The near-leaf table of each thread of a solver with more than one: 2^18 entries, 2 MiB,
/// since in a search with others it holds the positions of up to [`TEAM_NEAR_LEAF_EMPTY`]
/// empty cells.
const PARALLEL_NEAR_LEAF_BITS: u32 = 18;

/// Bounds on one search. The default has none: the search runs to the exact score.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after about this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop soon after this flag becomes true (checked every few thousand nodes).
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop soon after this instant.
    pub deadline: Option<Instant>,
}

impl Limits {
    fn is_unbounded(&self) -> bool {
        self.max_nodes.is_none() && self.stop.is_none() && self.deadline.is_none()
    }
}

/// An exact Connect Four solver with its own transposition table.
///
/// The table survives between calls (so analysing the children of a solved position is cheap)
/// until [`reset`](Self::reset).
pub struct Solver {
    /// Positions with more empty cells than go to `near_leaf`: few, costly to search again.
    /// Shared with the helper threads of a search.
    table: Arc<Table>,
    /// Positions near the leaves: very many, cheap, short-lived; a small table that stays in
    /// cache saves a memory miss on most nodes. Each thread of a search has its own.
    near_leaf: Arc<Table>,
    /// Threads per exact search, this one included.
    threads: usize,
    /// The helper threads of this solver's searches, started at the first search that needs
    /// them.
    helpers: Option<Helpers>,
    /// Set while this thread searches a probe with others.
    team: Option<Team>,
    /// The probe this thread is searching (on the 128-bit bitboard, which holds every board),
    /// for helpers that join it midway.
    probe: Option<(Position<u128>, i32, i32)>,
    /// The position (its key) and score of the last probe this thread started, kept after it
    /// stops, for [`probe_progress`](Self::probe_progress).
    last_probe: Option<(u128, i32)>,
    /// The node count at which the helpers join this search.
    parallel_from: u64,
    /// Set when the helpers were called in during a probe, which this thread then starts again.
    restart: bool,
    /// Positions with at most this many empty cells go to `near_leaf`: [`NEAR_LEAF_EMPTY`], or
    /// [`TEAM_NEAR_LEAF_EMPTY`] while this thread searches with others.
    near_leaf_empty: i32,
    nodes: u64,
    limits: Limits,
    limits_start: u64,
    next_check: u64,
    interrupted: bool,
    /// Whether table keys are folded with their mirror image (set per search).
    mirror: bool,
    /// The board of the last search: keys only identify positions of one board size (and are
    /// stored in one-word or two-word entries by size), so the tables are cleared when it
    /// changes.
    board: Option<Board>,
    /// Exact scores of the opening, consulted before searching a position it holds: the book
    /// the caller handed in, none until then.
    book: Option<Arc<Book>>,
    /// The book's depth when it is for the board of this search, else -1: positions with more
    /// stones skip the book at the cost of one comparison.
    book_depth: i32,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver with the default table ([`DEFAULT_TABLE_BITS`]).
    pub fn new() -> Solver {
        Solver::with_table_bits(DEFAULT_TABLE_BITS)
    }

    /// A solver whose table holds about `2^bits` entries of 8 bytes (clamped to 16..=36).
    ///
    /// # Panics
    /// When the system refuses the table's memory; for a size the user chooses, see
    /// [`try_with_table_bits`](Self::try_with_table_bits).
    pub fn with_table_bits(bits: u32) -> Solver {
        Solver::try_with_table_bits(bits).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`with_table_bits`](Self::with_table_bits), for a table size the user asked for.
    ///
    /// # Errors
    /// [`SolverError::TableMemory`]: the system refused the table's memory (the table's pages
    /// are only taken as the search first writes them, so a table the system grants may still
    /// outgrow the memory free later).
    pub fn try_with_table_bits(bits: u32) -> Result<Solver, SolverError> {
        let table = Table::try_with_bits(bits).ok_or(SolverError::TableMemory {
            mib: table_mib(bits.clamp(16, 36)),
        })?;
        Ok(Solver::on_tables(
            Arc::new(table),
            Arc::new(Table::with_bits(NEAR_LEAF_BITS)),
            None,
            None,
        ))
    }

    fn on_tables(
        table: Arc<Table>,
        near_leaf: Arc<Table>,
        board: Option<Board>,
        book: Option<Arc<Book>>,
    ) -> Solver {
        Solver {
            table,
            near_leaf,
            threads: 1,
            helpers: None,
            team: None,
            probe: None,
            last_probe: None,
            parallel_from: u64::MAX,
            restart: false,
            near_leaf_empty: NEAR_LEAF_EMPTY,
            nodes: 0,
            limits: Limits::default(),
            limits_start: 0,
            next_check: u64::MAX,
            interrupted: false,
            mirror: false,
            board,
            book,
            book_depth: -1,
        }
    }

    /// Looks positions up in `book` (or in none) before searching them. A new solver consults
    /// none: which book, if any, is the caller's choice (the front ends hand in the one built
    /// into the binary unless told otherwise).
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The book this solver consults, if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The score of `position` in the book this solver consults, when the book holds it.
    pub fn known_score<B: Bitboard>(&self, position: &Position<B>) -> Option<Score> {
        self.book_score(position)
    }

    /// The book's score of `position` when the book holds it.
    #[inline(never)]
    fn book_score<B: Bitboard>(&self, position: &Position<B>) -> Option<Score> {
        self.book.as_ref()?.score(&position.narrowed()?)
    }

    /// The least score of `position` that the book's scores of its parents allow
    /// ([`Book::floor`]).
    fn known_floor<B: Bitboard>(&self, position: &Position<B>) -> Option<Score> {
        self.book.as_ref()?.floor(&position.narrowed()?)
    }

    /// Searches exact scores ([`solve`](Self::solve), [`analyze`](Self::analyze) and the like)
    /// with `threads` threads sharing the table (1, the default, to [`MAX_THREADS`]). Helpers
    /// join a search only once it has taken [`PARALLEL_MIN_NODES`] nodes, so small searches stay
    /// on one thread; they are started then and kept, asleep, for the next searches.
    /// [`analyze`](Self::analyze) instead solves its columns side by side once it has taken as
    /// many nodes ([`solve_side_by_side`](Self::solve_side_by_side)).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, MAX_THREADS);
        if threads != self.threads {
            self.helpers = None;
            self.near_leaf = Arc::new(Table::with_bits(near_leaf_bits(threads)));
        }
        self.threads = threads;
    }

    /// Threads per exact search ([`set_threads`](Self::set_threads)).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The solver of thread `index` of a search side by side: the same table, the near-leaf
    /// table of this solver (thread 0) or of helper `index - 1`, its own counters. Starts the
    /// helpers if need be, for their tables.
    fn side_by_side_solver(&mut self, index: usize) -> Solver {
        let near_leaf = match index.checked_sub(1) {
            None => Arc::clone(&self.near_leaf),
            Some(helper) => Arc::clone(&self.helpers().near_leaf[helper]),
        };
        Solver::on_tables(
            Arc::clone(&self.table),
            near_leaf,
            self.board,
            self.book.clone(),
        )
    }

    /// This solver's helpers, started if need be.
    fn helpers(&mut self) -> &Helpers {
        self.helpers
            .get_or_insert_with(|| Helpers::start(self.threads - 1, &self.table))
    }

    /// The tables' size in bytes, the near-leaf table of every thread included.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes() + self.threads * self.near_leaf.bytes()
    }

    /// Whether the shared table is large enough to ask for 1 GiB pages.
    pub fn is_table_for_giga_pages(&self) -> bool {
        self.table.is_for_giga_pages()
    }

    /// Whether the shared table lies on 1 GiB pages, which only tables of 1 GiB or more ask for
    /// and only a system with that many of them reserved and free gives.
    pub fn is_table_on_giga_pages(&self) -> bool {
        self.table.is_on_giga_pages()
    }

    /// Positions searched since the last [`reset`](Self::reset).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The size in words of the table that [`proven_entries`](Self::proven_entries) reads.
    pub fn table_words(&self) -> u64 {
        self.table.words() as u64
    }

    /// The version of the table's entry words that [`proven_entries`](Self::proven_entries)
    /// gives.
    pub fn table_layout(&self) -> u64 {
        super::table::LAYOUT
    }

    /// Whether [`restore_proven`](Self::restore_proven) reads entries of version `layout`: this
    /// build's, and version 1, which differs only in which boards' keys took two-word entries.
    pub fn reads_table_layout(&self, layout: u64) -> bool {
        layout == 1 || layout == super::table::LAYOUT
    }

    /// What the searches of `position` have proven so far that took about 2^`min_work` nodes or
    /// more: entries of the shared table, as (word index, word) pairs in rising order of index,
    /// read as they are taken, for [`restore_proven`](Self::restore_proven) in a later process,
    /// so that a search stopped by its limits can go on where it was. Reading a large table
    /// takes a moment (about a second per GiB).
    pub fn proven_entries<B: Bitboard>(
        &self,
        position: &Position<B>,
        min_work: u32,
    ) -> Box<dyn Iterator<Item = (u64, u64)> + '_> {
        if self.key_form(position.geometry()) == KeyForm::TwoWord {
            Box::new(self.table.proven_words::<u128>(min_work))
        } else {
            Box::new(self.table.proven_words::<u64>(min_work))
        }
    }

    /// How far the last probe of `position` got, once stopped: the score the probe asked to
    /// beat, and which moves cannot beat it, as the tables and the threats show (moves that let
    /// the opponent complete four at once among them). A probe that finds no better move must
    /// rule out every move, so on a long search this is its progress. `None` if this solver's
    /// last probe was of another position.
    pub fn probe_progress<B: Bitboard>(&self, position: &Position<B>) -> Option<ProbeProgress> {
        let (key, alpha) = self.last_probe?;
        if key != position.key().to_u128() {
            return None;
        }
        let candidates = position.non_losing_moves(Threats::of(position).opponent);
        let mut progress = ProbeProgress {
            above: Score::new(alpha as i8),
            ruled_out: 0,
            playable: 0,
        };
        for column in 0..position.geometry().width {
            let cell = position.cell_in(column);
            if cell == B::ZERO {
                continue;
            }
            progress.playable |= 1 << column;
            let mut child = *position;
            child.play_unchecked(cell);
            // A move scores minus its child's score, so at most minus the child's lower bound.
            if candidates & cell == B::ZERO || -self.known_bounds(&child).0 <= alpha {
                progress.ruled_out |= 1 << column;
            }
        }
        Some(progress)
    }

    /// The bounds on `position`'s score, lower and upper, that a search of it finds before it
    /// enters any move, as [`negamax`](Self::negamax) does: a score that the threats decide, the
    /// child's through a single move (such positions take no table entry), a move that wins with
    /// the stone after next, the follow-up bound after a move, the odd-threat bound of the
    /// position and after a move, a side left with no line to complete, and the tables' bounds.
    /// Needs that the side to move cannot win at once.
    fn known_bounds<B: Bitboard>(&self, position: &Position<B>) -> (i32, i32) {
        let area = position.geometry().area() as i32;
        let moves = position.moves_played() as i32;
        let threats = Threats::of(position);
        let candidates = position.non_losing_moves(threats.opponent);
        if let Some(score) = decided_at_once(position, threats, candidates) {
            return (score, score);
        }
        let win_after_next = (area - 1 - moves) / 2;
        let mut lower = -(area - 2 - moves) / 2;
        let mut upper = win_after_next;
        for column in 0..position.geometry().width {
            let cell = candidates & position.cell_in(column);
            if cell == B::ZERO {
                continue;
            }
            let created = position.winning_cells_after(cell);
            if position.leaves_two_playable_threats(cell, created) {
                return (win_after_next, win_after_next);
            }
            let mut child = *position;
            child.play_unchecked(cell);
            if candidates == cell {
                let (child_lower, child_upper) = self.known_bounds(&child);
                return (-child_upper, -child_lower);
            }
            if let Some(bound) = child.follow_up_bound() {
                lower = lower.max(-bound);
            }
            if let Some(bound) = child.odd_threat_bound(created) {
                lower = lower.max(-bound);
            }
        }
        if let Some(bound) = position.odd_threat_bound(threats.opponent) {
            upper = upper.min(bound);
        }
        if !position.has_open_line(true) {
            upper = upper.min(0);
        }
        if !position.has_open_line(false) {
            lower = lower.max(0);
        }
        if let Some(stored) = self.stored_bounds(position) {
            lower = lower.max(stored.lower);
            upper = upper.min(stored.upper);
        }
        (lower, upper)
    }

    /// What either table holds for `position`, each looked up with the keys it takes.
    fn stored_bounds<B: Bitboard>(&self, position: &Position<B>) -> Option<Bounds> {
        let key = self
            .table_key(position.geometry(), position.key())
            .0
            .to_u128();
        match self.key_form(position.geometry()) {
            KeyForm::OneWord => self.stored_bounds_of::<OneWordKeys>(key),
            KeyForm::OneWordShared => self.stored_bounds_of::<OneWordSharedKeys>(key),
            KeyForm::TwoWord => self.stored_bounds_of::<TwoWordKeys>(key),
        }
    }

    /// [`stored_bounds`](Self::stored_bounds) of `key`, in the tables' keys `K`.
    fn stored_bounds_of<K: Keys>(&self, key: u128) -> Option<Bounds> {
        let shared = self.table.probe(K::Shared::from_u128(key));
        shared.or_else(|| self.near_leaf.probe(K::NearLeaf::from_u128(key)))
    }

    /// Puts entries that [`proven_entries`](Self::proven_entries) of a build with table layout
    /// `layout` took for `position` (with a table of `table_words` words) back into this
    /// solver's table, emptied first, for searches of `position`. A table of another size, or
    /// whose entries take the keys in another form, takes them entry by entry, as a search
    /// stores them (a smaller one keeps what its buckets hold).
    ///
    /// # Errors
    /// [`SolverError::TableSize`]: the entries are not those of a table of `table_words` words
    /// and layout `layout` (one that [`reads_table_layout`](Self::reads_table_layout)), or
    /// their keys cannot be moved to a table of another size (a board of over 116 cells and
    /// sentinels saved from a table of under 2 GiB); the table is left empty.
    pub fn restore_proven<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        layout: u64,
        table_words: u64,
        entries: impl IntoIterator<Item = (u64, u64)>,
    ) -> Result<(), SolverError> {
        let words = self.table_words();
        self.clear_tables();
        let key_bits = position.geometry().key_bits();
        let wide = self.key_form(position.geometry()) == KeyForm::TwoWord;
        // The saved table chose the keys' form from its own size, as `key_form` does; version 1
        // also took two-word entries for every key longer than its near-leaf table's 56 bits (57
        // with threads, a length no board's keys have).
        let saved_wide = Table::exact_key_bits_of(table_words)
            .filter(|_| self.reads_table_layout(layout))
            .map(|exact| match layout {
                1 => key_bits > exact.min(56),
                _ => takes_two_words(key_bits, exact),
            });
        let table = &self.table;
        let restored = match (saved_wide, wide) {
            (None, _) => false,
            (Some(false), false) => table.restore::<u64, u64>(entries, table_words, key_bits),
            (Some(false), true) => table.restore::<u64, u128>(entries, table_words, key_bits),
            (Some(true), false) => table.restore::<u128, u64>(entries, table_words, key_bits),
            (Some(true), true) => table.restore::<u128, u128>(entries, table_words, key_bits),
        };
        if !restored {
            self.clear_tables();
            return Err(SolverError::TableSize {
                saved: table_words,
                words,
            });
        }
        self.board = Some(Board::of(position));
        Ok(())
    }

    /// Empties the table and zeroes the node counter.
    pub fn reset(&mut self) {
        self.clear_tables();
        self.nodes = 0;
    }

    /// Empties the tables of this solver and of its helpers.
    fn clear_tables(&self) {
        self.table.clear();
        self.near_leaf.clear();
        if let Some(helpers) = &self.helpers {
            for table in &helpers.near_leaf {
                table.clear();
            }
        }
    }

    /// The exact score of `position`.
    pub fn solve<B: Bitboard>(&mut self, position: &Position<B>) -> Score {
        self.solve_within(position, &Limits::default())
            .expect("a search without limits always finishes")
    }

    /// The exact score of `position`, unless `limits` stop the search first.
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] with the bounds proven so far.
    pub fn solve_within<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        limits: &Limits,
    ) -> Result<Score, SolverError> {
        self.solve_between(position, Score::new(i8::MIN), Score::new(i8::MAX), limits)
    }

    /// [`solve_within`](Self::solve_within) for a position whose score is already known to lie
    /// in `known_lower..=known_upper` (from an interrupted search): the search skips the windows
    /// outside. Bounds that are wrong give a wrong score. The book's scores of the position's
    /// parents raise the floor too ([`known_floor`](Self::known_floor)).
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] with the bounds proven so far.
    pub fn solve_between<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        known_lower: Score,
        known_upper: Score,
        limits: &Limits,
    ) -> Result<Score, SolverError> {
        self.solve_range(position, known_lower, known_upper, None, limits)
    }

    /// [`solve_within`](Self::solve_within) for a position known to score at least `floor`
    /// and likely exactly that, as minus a parent's score is (the parent's best move leads
    /// here): the floor is probed first, as the book's own floors are. A wrong floor gives a
    /// wrong score.
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] with the bounds proven so far.
    pub fn solve_above<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        floor: Score,
        limits: &Limits,
    ) -> Result<Score, SolverError> {
        let (lowest, highest) = (Score::new(i8::MIN), Score::new(i8::MAX));
        self.solve_range(position, lowest, highest, Some(floor), limits)
    }

    /// The search of [`solve_between`](Self::solve_between) and
    /// [`solve_above`](Self::solve_above), `likely_floor` being the latter's floor.
    fn solve_range<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        known_lower: Score,
        known_upper: Score,
        likely_floor: Option<Score>,
        limits: &Limits,
    ) -> Result<Score, SolverError> {
        let (mut lower, mut upper) = match terminal_score(position) {
            Some(score) => return Ok(Score::new(score as i8)),
            None => root_bounds(position),
        };
        if let Some(score) = self.book_score(position) {
            return Ok(score);
        }
        // The book's floor is often the score itself (a parent's best move leads here), so when
        // it is the bound that binds it is probed first. Measured on `analyze` of 60 ply-9
        // positions with the depth-9 book: the floor took 9% of the nodes off, probing it first
        // 8% more; on solving ply-10 positions 22-27% and then -3% to +0.5%.
        let floor = self
            .known_floor(position)
            .max(likely_floor)
            .filter(|&f| f > known_lower);
        let known_lower = floor.unwrap_or(known_lower);
        lower = lower.max(i32::from(known_lower.value())).min(upper);
        let mut floor_first = floor.is_some_and(|f| i32::from(f.value()) == lower);
        upper = upper.min(i32::from(known_upper.value())).max(lower);
        self.arm(position, limits);
        while lower < upper {
            // Pons' probe order: halve towards zero from the far ends first, since windows far
            // from the score are cheap and rule out fast wins and losses...
            let mut middle = lower + (upper - lower) / 2;
            if middle <= 0 && lower / 2 < middle {
                middle = lower / 2;
            } else if middle >= 0 && upper / 2 > middle {
                middle = upper / 2;
            }
            // ...but once the score is known to be small, prove its sign first: near-draw
            // positions spend most of their search there, and every later window reuses it.
            if lower <= 0 && upper >= 1 && upper - lower <= SIGN_FIRST_RANGE {
                middle = 0;
            } else if upper - lower <= NEAREST_FIRST_RANGE {
                // The sign is known and the score is small: try the bound nearest zero, where
                // the scores of such positions gather.
                middle = if lower >= 1 { lower } else { upper - 1 };
            }
            if floor_first {
                middle = lower;
                floor_first = false;
            }
            let result = self.probe(position, middle, middle + 1);
            if self.interrupted {
                self.dismiss_helpers();
                return Err(SolverError::Interrupted {
                    lower: Score::new(lower as i8),
                    upper: Score::new(upper as i8),
                });
            }
            if result <= middle {
                upper = result;
            } else {
                lower = result;
            }
        }
        self.dismiss_helpers();
        Ok(Score::new(lower as i8))
    }

    /// Whether the side to move scores at most `bound`: one null-window search, much cheaper than
    /// the exact score, for checking that a move keeps a known score.
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] when `limits` end the search first.
    pub fn is_at_most_within<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        bound: Score,
        limits: &Limits,
    ) -> Result<bool, SolverError> {
        let bound = i32::from(bound.value());
        if let Some(score) = terminal_score(position) {
            return Ok(score <= bound);
        }
        let (lower, upper) = root_bounds(position);
        if bound >= upper {
            return Ok(true);
        }
        if bound < lower {
            return Ok(false);
        }
        if let Some(score) = self.book_score(position) {
            return Ok(i32::from(score.value()) <= bound);
        }
        if self
            .known_floor(position)
            .is_some_and(|floor| i32::from(floor.value()) > bound)
        {
            return Ok(false);
        }
        self.arm(position, limits);
        let result = self.probe(position, bound, bound + 1);
        self.dismiss_helpers();
        if self.interrupted {
            return Err(SolverError::Interrupted {
                lower: Score::new(lower as i8),
                upper: Score::new(upper as i8),
            });
        }
        Ok(result <= bound)
    }

    /// Who wins `position` with perfect play; faster than [`solve`](Self::solve).
    pub fn solve_weak<B: Bitboard>(&mut self, position: &Position<B>) -> Outcome {
        self.solve_weak_within(position, &Limits::default())
            .expect("a search without limits always finishes")
    }

    /// Who wins `position`, unless `limits` stop the search first.
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] with the bounds proven so far (the full range: a weak search
    /// is a single probe).
    pub fn solve_weak_within<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        limits: &Limits,
    ) -> Result<Outcome, SolverError> {
        if let Some(score) = terminal_score(position) {
            return Ok(Score::new(score as i8).outcome());
        }
        if let Some(score) = self.book_score(position) {
            return Ok(score.outcome());
        }
        let (lower, upper) = root_bounds(position);
        self.arm(position, limits);
        let result = self.probe(position, -1, 1);
        self.dismiss_helpers();
        if self.interrupted {
            return Err(SolverError::Interrupted {
                lower: Score::new(lower as i8),
                upper: Score::new(upper as i8),
            });
        }
        Ok(Score::new(result.signum() as i8).outcome())
    }

    /// The exact score of every column for the side to move, after playing it (`None` where the
    /// column is full or the game is over).
    pub fn analyze<B: Bitboard>(&mut self, position: &Position<B>) -> Vec<Option<Score>> {
        self.analyze_within(position, &Limits::default())
            .expect("a search without limits always finishes")
    }

    /// [`analyze`](Self::analyze), unless `limits` stop the search first; the limits apply to
    /// the whole analysis. With more than one thread ([`set_threads`](Self::set_threads)) and no
    /// node limit, once the analysis has taken [`PARALLEL_MIN_NODES`] nodes the columns left are
    /// solved side by side, a column to a thread.
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] with the bounds of the leftmost column whose search was
    /// stopped.
    pub fn analyze_within<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        limits: &Limits,
    ) -> Result<Vec<Option<Score>>, SolverError> {
        let finished = position.is_won() || position.is_full();
        let area = position.geometry().area() as i32;
        let moves = position.moves_played() as i32;
        let mut scores = vec![None; position.width() as usize];
        let mut searched = Vec::new();
        // Centre first: there the searches are usually longest, so that threads side by side
        // end together, and their table entries serve the other columns.
        let columns = centre_out(position.width()).iter().map(|&c| u32::from(c));
        for column in columns.filter(|&c| !finished && position.can_play(c)) {
            scores[column as usize] = if position.is_winning_move(column) {
                Some(Score::new(((area + 1 - moves) / 2) as i8))
            } else {
                let mut child = *position;
                child.play_unchecked(position.cell_in(column));
                // A child whose mover wins at once needs no search, nor a thread.
                let known = if child.can_win_next() {
                    Some(Score::new(-((area - moves) / 2) as i8))
                } else {
                    self.book_score(&child).map(Score::flipped)
                };
                if known.is_none() {
                    searched.push((column, child));
                }
                known
            };
        }
        let mut found = if self.threads > 1 && limits.max_nodes.is_none() {
            self.solve_columns_side_by_side(&searched, limits)
        } else {
            self.solve_in_turn(&searched, limits)
        };
        found.sort_by_key(|&(column, _)| column);
        for (column, result) in found {
            let score = result.map_err(|e| match e {
                SolverError::Interrupted { lower, upper } => SolverError::Interrupted {
                    lower: upper.flipped(),
                    upper: lower.flipped(),
                },
                other => other,
            })?;
            scores[column as usize] = Some(score.flipped());
        }
        Ok(scores)
    }

    /// The scores of `children` (each with the column that reaches it): in turn on this thread
    /// up to [`PARALLEL_MIN_NODES`] nodes in all, so that small analyses start no thread; then
    /// the one whose search that budget stopped and the ones after it side by side, or the last
    /// one with the helpers.
    fn solve_columns_side_by_side<B: Bitboard>(
        &mut self,
        children: &[(u32, Position<B>)],
        limits: &Limits,
    ) -> Vec<(u32, Result<Score, SolverError>)> {
        let until = self.nodes + PARALLEL_MIN_NODES;
        let (lowest, highest) = (Score::new(i8::MIN), Score::new(i8::MAX));
        let mut found = Vec::with_capacity(children.len());
        let mut left = Vec::new();
        for &(column, child) in children {
            let budget = Limits {
                max_nodes: Some(until.saturating_sub(self.nodes)),
                ..limits.clone()
            };
            // Stopped by the budget (or by the limits: then it stops again at once side by
            // side), a search goes on side by side within the bounds it has proven.
            match left.is_empty().then(|| self.solve_within(&child, &budget)) {
                Some(Err(SolverError::Interrupted { lower, upper })) => {
                    left.push((column, (child, lower, upper)));
                }
                Some(result) => found.push((column, result)),
                None => left.push((column, (child, lowest, highest))),
            }
        }
        if let [(column, (child, lower, upper))] = left[..] {
            found.push((column, self.solve_between(&child, lower, upper, limits)));
        } else if !left.is_empty() {
            let searches: Vec<_> = left.iter().map(|&(_, search)| search).collect();
            self.solve_side_by_side(&searches, &|| limits.clone(), |index, result, _| {
                let solved = result.is_ok();
                found.push((left[index].0, result));
                solved
            });
        }
        found
    }

    /// The scores of `children` (each with the column that reaches it), one after the other,
    /// within one budget of nodes, up to the first that fails.
    fn solve_in_turn<B: Bitboard>(
        &mut self,
        children: &[(u32, Position<B>)],
        limits: &Limits,
    ) -> Vec<(u32, Result<Score, SolverError>)> {
        let start = self.nodes;
        let mut found = Vec::with_capacity(children.len());
        for (column, child) in children {
            let shared = Limits {
                max_nodes: limits
                    .max_nodes
                    .map(|n| n.saturating_sub(self.nodes - start)),
                ..limits.clone()
            };
            let result = self.solve_within(child, &shared);
            let failed = result.is_err();
            found.push((*column, result));
            if failed {
                break;
            }
        }
        found
    }

    /// Solves `searches` (each a position with the least and the greatest score it is known to
    /// have) on this solver's threads at once: each thread takes the next search when it has
    /// finished one, all on the shared table, each search within the limits `limits` gives as it
    /// starts. `found` gets, on this thread, each search's index and result as it comes, with
    /// this solver's node count so far, and says whether to start more: once it has said no,
    /// none starts. (For `analyze`, helpers joining each column's search in turn did no better:
    /// on 20 begin-hard positions without the book, 76 / 95 ms against 76 / 74 ms side by side,
    /// two runs each.) A panic in a search is a bug: it reaches the caller once the other threads
    /// have finished theirs.
    pub fn solve_side_by_side<B: Bitboard>(
        &mut self,
        searches: &[(Position<B>, Score, Score)],
        limits: &(dyn Fn() -> Limits + Sync),
        mut found: impl FnMut(usize, Result<Score, SolverError>, u64) -> bool,
    ) {
        let Some((first, ..)) = searches.first() else {
            return;
        };
        // Settles the board first, so that no thread clears the shared table under another.
        self.arm(first, &limits());
        let next = AtomicUsize::new(0);
        let stopped = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let (sender, results) = mpsc::channel();
            for index in 0..self.threads.min(searches.len()) {
                let mut helper = self.side_by_side_solver(index);
                let sender = sender.clone();
                let (next, stopped) = (&next, &stopped);
                let work = move || {
                    while !stopped.load(Ordering::Relaxed) {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(position, lower, upper)) = searches.get(index) else {
                            break;
                        };
                        let before = helper.nodes;
                        let result = helper.solve_between(&position, lower, upper, &limits());
                        let nodes = helper.nodes - before;
                        // Each result waits for `found`'s answer before the next search starts,
                        // so that none starts after a no; a caller gone without answering
                        // (it panicked) is a no.
                        let (answer, answered) = mpsc::channel();
                        if sender.send((index, result, nodes, answer)).is_err()
                            || !answered.recv().unwrap_or(false)
                        {
                            break;
                        }
                    }
                };
                // A thread the system refuses is not started: the others, or this thread
                // below, take its searches.
                let _ = std::thread::Builder::new().spawn_scoped(scope, work);
            }
            drop(sender);
            for (index, result, nodes, answer) in results {
                self.nodes += nodes;
                let more = found(index, result, self.nodes);
                if !more {
                    stopped.store(true, Ordering::Relaxed);
                }
                let _ = answer.send(more);
            }
        });
        while !stopped.load(Ordering::Relaxed) {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(position, lower, upper)) = searches.get(index) else {
                break;
            };
            let result = self.solve_between(&position, lower, upper, &limits());
            if !found(index, result, self.nodes) {
                break;
            }
        }
    }

    /// The exact score of `position` and one column (0-based) that reaches it, `None` if the
    /// game is over. The column comes from the search's own table when it proved the score,
    /// else from [`analyze`](Self::analyze).
    pub fn solve_best<B: Bitboard>(&mut self, position: &Position<B>) -> (Score, Option<u32>) {
        let score = self.solve(position);
        if position.is_won() || position.is_full() {
            return (score, None);
        }
        if let Some(column) = (0..position.width()).find(|&c| position.is_winning_move(c)) {
            return (score, Some(column));
        }
        let proven = match self.key_form(position.geometry()) {
            KeyForm::OneWord => self.proven_column::<B, OneWordKeys>(position, score),
            KeyForm::OneWordShared => self.proven_column::<B, OneWordSharedKeys>(position, score),
            KeyForm::TwoWord => self.proven_column::<B, TwoWordKeys>(position, score),
        };
        // The table's move proved the score's lower bound; one more (mostly cached) solve
        // confirms it rather than trusting that no later store replaced it.
        if let Some(column) = proven {
            let mut child = *position;
            child.play_unchecked(position.cell_in(column));
            if self.solve(&child).flipped() == score {
                return (score, Some(column));
            }
        }
        (score, self.best_columns(position).first().copied())
    }

    /// The column the table holds for `position`, under keys of form `K`, when its bounds prove
    /// `score`.
    fn proven_column<B: Bitboard, K: Keys>(
        &self,
        position: &Position<B>,
        score: Score,
    ) -> Option<u32> {
        let geometry = position.geometry();
        let (table_key, flipped) = self.table_key(geometry, position.key());
        let empty = (geometry.area() - position.moves_played()) as i32;
        let known = self.known::<B, K>(empty, table_key)?;
        let column = known.best?;
        let column = if flipped {
            geometry.width - 1 - column
        } else {
            column
        };
        (known.lower == i32::from(score.value())).then_some(column)
    }

    /// The columns (0-based) that reach the best score, left to right; empty if the game is over.
    pub fn best_columns<B: Bitboard>(&mut self, position: &Position<B>) -> Vec<u32> {
        let scores = self.analyze(position);
        let best = scores.iter().flatten().max().copied();
        (0..position.width())
            .filter(|&c| best.is_some() && scores[c as usize] == best)
            .collect()
    }

    fn arm<B: Bitboard>(&mut self, position: &Position<B>, limits: &Limits) {
        // Left over only by a search that panicked.
        self.dismiss_helpers();
        let board = Board::of(position);
        if self.board != Some(board) {
            self.clear_tables();
            self.board = Some(board);
        }
        // Mirror images meet often only below a symmetric root (the empty board, `44`...);
        // elsewhere folding keys costs more time than the few transpositions it finds.
        self.mirror = position.geometry().mirror_key(position.key()) == position.key();
        self.book_depth = match (&self.book, position.narrowed()) {
            (Some(book), Some(narrow)) if book.fits(&narrow) => book.depth() as i32,
            _ => -1,
        };
        self.interrupted = false;
        self.limits = limits.clone();
        self.limits_start = self.nodes;
        self.parallel_from = if self.threads > 1 {
            self.nodes + PARALLEL_MIN_NODES
        } else {
            u64::MAX
        };
        self.next_check = if limits.is_unbounded() {
            u64::MAX
        } else {
            self.nodes + CHECK_INTERVAL
        }
        .min(self.parallel_from);
    }

    /// Whether a limit has been reached or another thread has answered the probe; sets
    /// `interrupted` if so. Calls the helpers in once the search is long enough.
    #[cold]
    fn check_limits(&mut self) -> bool {
        let limits = &self.limits;
        self.interrupted = limits
            .max_nodes
            .is_some_and(|n| self.nodes - self.limits_start >= n)
            || limits
                .stop
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || limits.deadline.is_some_and(|d| Instant::now() >= d)
            || self.team.as_ref().is_some_and(Team::is_answered);
        if !self.interrupted && self.team.is_none() && self.nodes >= self.parallel_from {
            self.parallel_from = u64::MAX;
            self.call_helpers();
            // The probe starts again with the helpers, so that this thread marks its path as
            // busy too; what it has proven so far is in the table.
            self.restart = self.team.is_some();
            self.interrupted = self.restart;
        }
        self.next_check = self.nodes
            + if self.team.is_some() {
                TEAM_CHECK_INTERVAL
            } else {
                CHECK_INTERVAL
            };
        self.interrupted
    }

    /// Searches `position` in the window `alpha..beta`, with the helpers once the search has
    /// taken [`PARALLEL_MIN_NODES`] nodes; `interrupted` afterwards only if the limits stopped it.
    fn probe<B: Bitboard>(&mut self, position: &Position<B>, alpha: i32, beta: i32) -> i32 {
        self.probe = Some((position.widened(), alpha, beta));
        self.last_probe = Some((position.key().to_u128(), alpha));
        if self.team.is_some() {
            self.call_helpers();
        }
        let mut result = self.search(position, alpha, beta);
        if std::mem::take(&mut self.restart) {
            self.interrupted = false;
            result = self.search(position, alpha, beta);
        }
        let Some(team) = &self.team else {
            return result;
        };
        if !self.interrupted {
            team.shared.answer(team.generation, result);
            result
        } else if let Some(answer) = team.shared.answer_of(team.generation) {
            // A helper finished first.
            self.interrupted = false;
            answer
        } else {
            result
        }
    }

    /// Hands the probe this thread is searching to the helpers, starting them if need be.
    fn call_helpers(&mut self) {
        let Some((position, alpha, beta)) = self.probe else {
            return;
        };
        let (mirror, book, book_depth) = (self.mirror, self.book.clone(), self.book_depth);
        let helpers = self.helpers();
        let generation = helpers.crew.publish(Probe {
            position,
            alpha,
            beta,
            mirror,
            book,
            book_depth,
        });
        self.team = Some(Team {
            shared: Arc::clone(helpers.crew.shared()),
            generation,
        });
        self.near_leaf_empty = TEAM_NEAR_LEAF_EMPTY;
    }

    /// Stops the helpers' search, waits until they have left the tables, and counts their
    /// nodes in.
    fn dismiss_helpers(&mut self) {
        self.near_leaf_empty = NEAR_LEAF_EMPTY;
        if let (Some(team), Some(helpers)) = (self.team.take(), &self.helpers) {
            self.nodes += helpers.crew.finish(team.generation);
        }
        self.probe = None;
    }

    /// A helper thread's life: searches each probe handed out, until the crew is dropped.
    fn serve(mut self, shared: &Arc<Shared>) {
        let mut seen = 0;
        while let Some(turn) = shared.next_probe(&mut seen) {
            let probe = &turn.probe;
            let (position, alpha, beta) = (probe.position, probe.alpha, probe.beta);
            self.board = Some(Board::of(&position));
            self.mirror = probe.mirror;
            self.book = probe.book.clone();
            self.book_depth = probe.book_depth;
            self.team = Some(Team {
                shared: Arc::clone(shared),
                generation: turn.generation,
            });
            self.near_leaf_empty = TEAM_NEAR_LEAF_EMPTY;
            self.interrupted = false;
            self.next_check = self.nodes + TEAM_CHECK_INTERVAL;
            let before = self.nodes;
            let result = self.search(&position, alpha, beta);
            let score = (!self.interrupted).then_some(result);
            turn.done(score, self.nodes - before);
        }
    }

    /// Marks the position of `key` as this thread's in the probe's busy table.
    #[inline]
    fn claim<K: Bitboard>(&self, key: K) -> Claim {
        self.team.as_ref().map_or(Claim::Unmarked, |team| {
            team.shared.busy.claim(busy_key(key))
        })
    }

    /// Unmarks a position this thread [`claim`](Self::claim)ed.
    #[inline]
    fn release<K: Bitboard>(&self, key: K) {
        if let Some(team) = &self.team {
            team.shared.busy.release(busy_key(key));
        }
    }

    /// [`negamax`](Self::negamax) compiled for the position's board: the standard board gets its
    /// own copy with the shape built in (a fifth fewer instructions), every other board the
    /// general one of the 64-bit bitboard where its keys fit 64 bits, with the [`KeyForm`] its
    /// keys take, else the one of its own bitboard with two-word keys.
    fn search<B: Bitboard>(&mut self, position: &Position<B>, alpha: i32, beta: i32) -> i32 {
        let narrow = position.narrowed();
        let form = self.key_form(position.geometry());
        if let Some(standard) = narrow.filter(|p| *p.geometry() == Geometry::STANDARD) {
            debug_assert_eq!(form, KeyForm::OneWord, "7x6 keys fit the smallest tables");
            const STANDARD_WIDTH: usize = Geometry::STANDARD.width as usize;
            self.search_from::<u64, StandardShape, OneWordKeys, STANDARD_WIDTH>(
                &standard, alpha, beta,
            )
        } else if let Some(narrow) = narrow.filter(|_| form == KeyForm::OneWord) {
            self.search_from::<u64, AnyShape, OneWordKeys, MAX_WIDTH>(&narrow, alpha, beta)
        } else if let Some(narrow) = narrow.filter(|_| form == KeyForm::OneWordShared) {
            self.search_from::<u64, AnyShape, OneWordSharedKeys, MAX_WIDTH>(&narrow, alpha, beta)
        } else {
            debug_assert_eq!(
                form,
                KeyForm::TwoWord,
                "keys of up to 64 bits have a 64-bit board"
            );
            self.search_from::<B, AnyShape, TwoWordKeys, MAX_WIDTH>(position, alpha, beta)
        }
    }

    /// [`negamax`](Self::negamax) from `position`, in the copy that splits its moves between
    /// threads when it has enough empty cells.
    fn search_from<B: Bitboard, S: Shape<B>, K: Keys, const WIDTH: usize>(
        &mut self,
        position: &Position<B>,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let threats = Threats::of(position);
        let empty = (position.geometry().area() - position.moves_played()) as i32;
        if empty >= SPLIT_MIN_EMPTY {
            self.negamax::<B, S, K, WIDTH, true>(position, threats, alpha, beta)
        } else {
            self.negamax::<B, S, K, WIDTH, false>(position, threats, alpha, beta)
        }
    }

    /// The form in which the tables take keys of `geometry`'s board, each table as its size
    /// allows: 7x6 keys always fit one-word entries, as do 9x5, 8x6 and 7x7 ones (56 bits) with
    /// the near-leaf table's 2^15 buckets; 9x6 and 8x7 ones (63 and 64 bits) fit those of a
    /// shared table of 128 or 256 MiB or more, but never the near-leaf table's.
    fn key_form<B: Bitboard>(&self, geometry: &Geometry<B>) -> KeyForm {
        let bits = geometry.key_bits();
        if takes_two_words(bits, self.table.exact_key_bits()) {
            KeyForm::TwoWord
        } else if bits > self.near_leaf.exact_key_bits() {
            KeyForm::OneWordShared
        } else {
            KeyForm::OneWord
        }
    }

    /// The score of `position` if it lies strictly between `alpha` and `beta`; otherwise a bound
    /// on the same side of the window (at most `alpha`, or at least `beta`). `S`: the board's
    /// [`Shape`]; `K`: the tables' keys; `WIDTH`: at least the board's width; `SPLIT`: the
    /// position has at least [`SPLIT_MIN_EMPTY`] empty cells, so that threads searching it
    /// together split its moves (a copy of its own, so that the many positions below pay
    /// nothing for it); `threats`: the cells where each side would complete four.
    ///
    /// Requires that the side to move cannot win at once (every caller checks that first, and
    /// children are only ever reached through moves that do not allow an immediate win).
    fn negamax<B: Bitboard, S: Shape<B>, K: Keys, const WIDTH: usize, const SPLIT: bool>(
        &mut self,
        position: &Position<B>,
        threats: Threats<B>,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let position = &S::shaped(position);
        self.nodes += 1;
        if self.nodes >= self.next_check && self.check_limits() {
            return 0;
        }
        let geometry = *position.geometry();
        let area = geometry.area() as i32;
        let moves = position.moves_played() as i32;
        if moves <= self.book_depth {
            if let Some(score) = self.book_score(position) {
                return i32::from(score.value());
            }
        }

        let candidates = position.non_losing_moves(threats.opponent);
        if let Some(score) = decided_at_once(position, threats, candidates) {
            return score;
        }
        // The opponent cannot win with its next stone, and we cannot win with this one.
        let mut lower = -(area - 2 - moves) / 2;
        let mut upper = (area - 1 - moves) / 2;
        // A side that can no longer complete any line cannot win. Only the side the window
        // asks about is tested: the other answer could not cut.
        if area - moves <= OPEN_LINES_EMPTY {
            if alpha >= 0 && !position.has_open_line(true) {
                return upper.min(0);
            }
            if beta <= 0 && !position.has_open_line(false) {
                return lower.max(0);
            }
        }

        // When the opponent can answer every move in the same column, the side to move may be
        // unable to win, or even to draw, whatever it plays.
        if alpha >= -1 {
            if let Some(bound) = position.follow_up_bound() {
                if alpha >= bound {
                    return upper.min(bound);
                }
            }
        }
        // With an odd number of empty cells, the opponent's winning cell in an odd column may
        // force a loss by zugzwang.
        if let Some(bound) = position.odd_threat_bound(threats.opponent) {
            if alpha >= bound {
                return upper.min(bound);
            }
        }

        // A single move (the one block, or the one move that does not lose at once) scores what
        // its child scores: the child's table entry serves, and this position takes none.
        if candidates & (candidates - B::ONE) == B::ZERO {
            let created = position.winning_cells_after(candidates);
            if position.leaves_two_playable_threats(candidates, created) {
                return (area - 1 - moves) / 2;
            }
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            let (alpha, beta) = (alpha.max(lower), beta.min(upper));
            return self.play::<B, S, K, WIDTH, SPLIT>(
                position, candidates, created, threats, alpha, beta,
            );
        }

        let (table_key, flipped) = self.table_key(&geometry, position.key());
        let orient = |column: u32| {
            if flipped {
                geometry.width - 1 - column
            } else {
                column
            }
        };
        let mut hint = None;
        let empty = area - moves;
        if let Some(known) = self.known::<B, K>(empty, table_key) {
            lower = lower.max(known.lower);
            upper = upper.min(known.upper);
            hint = known.best.map(orient);
        }
        if lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        if lower == upper {
            return lower;
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let alpha_in = alpha;

        // After a move from an odd number of empty cells the opponent may face our follow-up
        // strategy; only a bound of at least `beta` cuts, and the bound is at most 1.
        let check_children = beta <= 1 && empty % 2 == 1;
        // After a move from an even number, we may have such a winning cell ourselves.
        let check_odd_children = empty % 2 == 0;
        let mut list = MoveList::<B, B, WIDTH>::new();
        for &column in centre_out(geometry.width) {
            let column = u32::from(column);
            let cell = candidates & position.cell_in(column);
            if cell != B::ZERO {
                // Such a move refutes this position without any search.
                if check_children {
                    let mut child = *position;
                    child.play_unchecked(cell);
                    if let Some(bound) = child.follow_up_bound() {
                        if -bound >= beta {
                            return -bound;
                        }
                    }
                }
                let child_key = self.table_key(&geometry, position.key_after(cell)).0;
                self.prefetch::<B, K>(empty - 1, child_key);
                let created = position.winning_cells_after(cell);
                // A move that wins by zugzwang refutes this position without any search.
                if check_odd_children {
                    let mut child = *position;
                    child.play_unchecked(cell);
                    if let Some(bound) = child.odd_threat_bound(created) {
                        if -bound >= beta {
                            return -bound;
                        }
                    }
                }
                if position.leaves_two_playable_threats(cell, created) {
                    return (area - 1 - moves) / 2;
                }
                // Moves that make more threats first. A threat right above one of the
                // opponent's is not counted: the opponent's is filled first. A move right under
                // one of the mover's own threats lets the opponent block it, so it counts as one
                // threat less.
                let weight = if hint == Some(column) {
                    u32::MAX
                } else {
                    (created & !(threats.opponent << 1)).count_ones()
                        + u32::from((cell << 1) & threats.own == B::ZERO)
                };
                list.push(cell, column, child_key, created, weight);
            }
        }
        if area - moves > ETC_MIN_EMPTY {
            for (_, column, child_key, _) in list.iter() {
                if let Some(child) = self.known::<B, K>(empty - 1, child_key) {
                    if -child.upper >= beta {
                        let bounds = Bounds {
                            lower: -child.upper,
                            upper,
                            best: Some(orient(column)),
                        };
                        self.remember::<B, K>(empty, table_key, bounds, 0);
                        return -child.upper;
                    }
                }
            }
        }

        let nodes_in = self.nodes;
        let mut best_score = i32::MIN;
        let mut best_column = None;
        // With other threads on the probe, a move that another thread is searching waits for a
        // second pass, by which time the table mostly holds its answer. The first move too:
        // probes have null windows (a weak solve's -1..1 holds one score), so the moves after
        // it need no bound from it, and two threads in the same first move would search the
        // same tree (3% more nodes on the empty board and 2.5% on begin-hard than leaving it to
        // both).
        let split = SPLIT && self.team.is_some();
        let mut deferred = 0u64;
        let mut second_pass = false;
        'passes: loop {
            for (index, (cell, column, child_key, created)) in list.iter().enumerate() {
                if second_pass && deferred >> index & 1 == 0 {
                    continue;
                }
                let claim = if split && !second_pass {
                    self.claim(child_key)
                } else {
                    Claim::Unmarked
                };
                if claim == Claim::Busy {
                    deferred |= 1 << index;
                    continue;
                }
                let score = self
                    .play::<B, S, K, WIDTH, SPLIT>(position, cell, created, threats, alpha, beta);
                if claim == Claim::Taken {
                    self.release(child_key);
                }
                if self.interrupted {
                    return 0;
                }
                if score > best_score {
                    best_score = score;
                    best_column = Some(column);
                }
                if score >= beta {
                    break 'passes;
                }
                alpha = alpha.max(score);
            }
            if second_pass || deferred == 0 {
                break;
            }
            second_pass = true;
        }

        let bounds = if best_score >= beta {
            Bounds {
                lower: best_score,
                upper,
                best: best_column.map(orient),
            }
        } else if best_score > alpha_in {
            Bounds {
                lower: best_score,
                upper: best_score,
                best: best_column.map(orient),
            }
        } else {
            Bounds {
                lower,
                upper: best_score,
                best: None,
            }
        };
        let work = 64 - (self.nodes - nodes_in).leading_zeros();
        self.remember::<B, K>(empty, table_key, bounds, work);
        best_score
    }
}

impl Solver {
    /// The score of playing `cell` from `position` (whose threats are `threats`; `created`: the
    /// mover's winning cells after it), from the child's search in the window `alpha..beta`
    /// turned around, with the copy of [`negamax`](Self::negamax) for the child's empty cells.
    #[inline(always)]
    fn play<B: Bitboard, S: Shape<B>, K: Keys, const WIDTH: usize, const SPLIT: bool>(
        &mut self,
        position: &Position<B>,
        cell: B,
        created: B,
        threats: Threats<B>,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut child = *position;
        child.play_unchecked(cell);
        // The mover's threats are the child's opponent's, and the opponent's the child's mover's,
        // less the cell just filled.
        let child_threats = Threats {
            own: threats.opponent & !cell,
            opponent: created,
        };
        let empty = (position.geometry().area() - position.moves_played()) as i32;
        if SPLIT && empty > SPLIT_MIN_EMPTY {
            -self.negamax::<B, S, K, WIDTH, true>(&child, child_threats, -beta, -alpha)
        } else {
            -self.negamax::<B, S, K, WIDTH, false>(&child, child_threats, -beta, -alpha)
        }
    }

    /// The bounds that the table for positions with `empty` empty cells holds for `key`.
    #[inline(always)]
    fn known<B: Bitboard, K: Keys>(&self, empty: i32, key: B) -> Option<Bounds> {
        if empty <= self.near_leaf_empty {
            self.near_leaf.probe(K::NearLeaf::from_u128(key.to_u128()))
        } else {
            self.table.probe(K::Shared::from_u128(key.to_u128()))
        }
    }

    /// Records `bounds` for `key` in the table for positions with `empty` empty cells, after a
    /// search of about `2^work` nodes.
    #[inline(always)]
    fn remember<B: Bitboard, K: Keys>(&self, empty: i32, key: B, bounds: Bounds, work: u32) {
        if empty <= self.near_leaf_empty {
            self.near_leaf
                .store(K::NearLeaf::from_u128(key.to_u128()), bounds, work);
        } else {
            self.table
                .store(K::Shared::from_u128(key.to_u128()), bounds, work);
        }
    }

    /// Starts loading the entry of `key` in the table for positions with `empty` empty cells.
    #[inline(always)]
    fn prefetch<B: Bitboard, K: Keys>(&self, empty: i32, key: B) {
        if empty <= self.near_leaf_empty {
            self.near_leaf
                .prefetch(K::NearLeaf::from_u128(key.to_u128()));
        } else {
            self.table.prefetch(K::Shared::from_u128(key.to_u128()));
        }
    }

    /// The key under which `key`'s position is stored, and whether it is the mirror image.
    #[inline]
    fn table_key<B: Bitboard>(&self, geometry: &Geometry<B>, key: B) -> (B, bool) {
        if self.mirror {
            let mirrored = geometry.mirror_key(key);
            (mirrored.min(key), mirrored < key)
        } else {
            (key, false)
        }
    }
}

/// The cells where each side would complete four, handed from a node to its children so that
/// neither is computed twice.
#[derive(Clone, Copy)]
struct Threats<B> {
    /// The side to move's.
    own: B,
    /// The opponent's.
    opponent: B,
}

impl<B: Bitboard> Threats<B> {
    /// The threats of a position the search starts from.
    fn of(position: &Position<B>) -> Threats<B> {
        Threats {
            own: position.own_winning_cells(),
            opponent: position.opponent_winning_cells(),
        }
    }
}

/// The score of `position` when its threats decide it before any search (`candidates`: its
/// non-losing moves): every move lets the opponent complete four next, the board is all but full,
/// or a move goes under two stacked winning cells of the mover's. Needs that the side to move
/// cannot win at once.
#[inline(always)]
fn decided_at_once<B: Bitboard>(
    position: &Position<B>,
    threats: Threats<B>,
    candidates: B,
) -> Option<i32> {
    let area = position.geometry().area() as i32;
    let moves = position.moves_played() as i32;
    if candidates == B::ZERO {
        // Every move lets the opponent complete four with its next stone.
        Some(-(area - moves) / 2)
    } else if moves >= area - 2 {
        Some(0)
    } else if has_stacked_threats_over(candidates, threats.own) {
        Some((area - 1 - moves) / 2)
    } else {
        None
    }
}

/// How [`Solver::negamax`] learns the board it searches: compiled in, or from the position.
trait Shape<B: Bitboard> {
    /// `position`, with its geometry where the compiler can see it.
    fn shaped(position: &Position<B>) -> Position<B>;
}

/// The standard 7x6 board, every shift and mask a constant.
struct StandardShape;

impl Shape<u64> for StandardShape {
    #[inline(always)]
    fn shaped(position: &Position<u64>) -> Position<u64> {
        position.on_standard_board()
    }
}

/// Any board, its geometry read from the position.
struct AnyShape;

impl<B: Bitboard> Shape<B> for AnyShape {
    #[inline(always)]
    fn shaped(position: &Position<B>) -> Position<B> {
        *position
    }
}

/// How each table stores a board's keys (see [`Table`]): in one-word entries where their
/// buckets and checks tell the keys apart exactly, else in two-word entries, so that no two
/// positions ever share an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyForm {
    /// One word in both tables.
    OneWord,
    /// One word in the shared table, which is large enough; two in the near-leaf table.
    OneWordShared,
    /// Two words in both.
    TwoWord,
}

/// A [`KeyForm`] as types, for the copies of the search compiled for each: the key types of
/// the shared and the near-leaf table.
trait Keys {
    type Shared: Bitboard;
    type NearLeaf: Bitboard;
}

/// [`KeyForm::OneWord`].
struct OneWordKeys;
/// [`KeyForm::OneWordShared`].
struct OneWordSharedKeys;
/// [`KeyForm::TwoWord`].
struct TwoWordKeys;

impl Keys for OneWordKeys {
    type Shared = u64;
    type NearLeaf = u64;
}

impl Keys for OneWordSharedKeys {
    type Shared = u64;
    type NearLeaf = u128;
}

impl Keys for TwoWordKeys {
    type Shared = u128;
    type NearLeaf = u128;
}

/// Whether keys of `key_bits` bits take two-word entries in a table whose one-word entries tell
/// apart keys of up to `exact` bits: those longer, and every key past 64 bits.
fn takes_two_words(key_bits: u32, exact: u32) -> bool {
    key_bits > exact.min(u64::BITS)
}

/// What identifies a board for the tables: its size (which decides how keys are stored, see
/// [`Solver::key_form`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Board {
    width: u32,
    height: u32,
}

impl Board {
    fn of<B: Bitboard>(position: &Position<B>) -> Board {
        Board {
            width: position.width(),
            height: position.height(),
        }
    }
}

/// The probe a thread is searching with others, and what they share.
struct Team {
    shared: Arc<Shared>,
    generation: u64,
}

impl Team {
    fn is_answered(&self) -> bool {
        self.shared.is_answered(self.generation)
    }
}

/// The busy table's key of a table key: a `u128` key folded into 64 bits (two positions whose
/// keys fold alike only wait for each other once in a while).
#[inline]
fn busy_key<K: Bitboard>(key: K) -> u64 {
    let key = key.to_u128();
    key as u64 ^ (key >> 64) as u64
}

/// A solver's helper threads, each with its own near-leaf table: those positions are cheap to
/// search again, and sharing them would have the threads fight over the cache lines they write
/// most often.
struct Helpers {
    crew: Crew,
    near_leaf: Vec<Arc<Table>>,
}

impl Helpers {
    /// Starts `count` helpers sharing `table`.
    fn start(count: usize, table: &Arc<Table>) -> Helpers {
        let near_leaf: Vec<Arc<Table>> = (0..count)
            .map(|_| Arc::new(Table::with_bits(PARALLEL_NEAR_LEAF_BITS)))
            .collect();
        let crew = Crew::start(count, |index| {
            let solver =
                Solver::on_tables(Arc::clone(table), Arc::clone(&near_leaf[index]), None, None);
            move |shared: Arc<Shared>| solver.serve(&shared)
        });
        Helpers { crew, near_leaf }
    }
}

/// The bits of each near-leaf table of a solver with `threads` threads.
fn near_leaf_bits(threads: usize) -> u32 {
    if threads > 1 {
        PARALLEL_NEAR_LEAF_BITS
    } else {
        NEAR_LEAF_BITS
    }
}

/// The score of a position without search: finished, or won with the next stone.
fn terminal_score<B: Bitboard>(position: &Position<B>) -> Option<i32> {
    let area = position.geometry().area() as i32;
    let moves = position.moves_played() as i32;
    if position.is_won() {
        // The side that just moved won on ply `moves` (see the module's score convention).
        Some(-((area + 2 - moves) / 2))
    } else if position.is_full() {
        Some(0)
    } else if position.can_win_next() {
        Some((area + 1 - moves) / 2)
    } else {
        None
    }
}

/// The widest score range of a position the side to move cannot win at once.
fn root_bounds<B: Bitboard>(position: &Position<B>) -> (i32, i32) {
    let area = position.geometry().area() as i32;
    let moves = position.moves_played() as i32;
    (-(area - moves) / 2, (area + 1 - moves) / 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::book::canonical_key;
    use crate::solver::table::LAYOUT;
    use proptest::prelude::*;
    use std::collections::HashMap;

    impl Solver {
        /// Whether no other thread is searching on this solver's tables: the only other holders
        /// are its helpers, asleep.
        fn is_alone_on_tables(&self) -> bool {
            let (helpers, searching) = self
                .helpers
                .as_ref()
                .map_or((0, 0), |h| (h.crew.helpers(), h.crew.searching()));
            Arc::strong_count(&self.table) == 1 + helpers && searching == 0
        }
    }

    /// Plain minimax over every move: no pruning, no table, no move ordering.
    fn exhaustive<B: Bitboard>(position: &Position<B>) -> i32 {
        let area = position.geometry().area() as i32;
        let moves = position.moves_played() as i32;
        if position.is_full() {
            return 0;
        }
        (0..position.width())
            .filter(|&c| position.can_play(c))
            .map(|c| {
                if position.is_winning_move(c) {
                    (area + 1 - moves) / 2
                } else {
                    let mut child = *position;
                    child.play_column(c).unwrap();
                    -exhaustive(&child)
                }
            })
            .max()
            .unwrap()
    }

    /// Plays `columns` (taken modulo the width) from the empty board, skipping full columns and
    /// winning moves, until `stones` stones are down.
    fn position_from<B: Bitboard>(
        width: u32,
        height: u32,
        columns: &[u8],
        stones: u32,
    ) -> Position<B> {
        let mut position = Position::new(width, height).unwrap();
        for &c in columns {
            let column = u32::from(c) % width;
            if position.moves_played() == stones {
                break;
            }
            if position.can_play(column) && !position.is_winning_move(column) {
                position.play_column(column).unwrap();
            }
        }
        position
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn scores_on_4x4_match_exhaustive_search(
            columns in proptest::collection::vec(0u8..4, 40),
            stones in 4u32..12,
        ) {
            let position: Position = position_from(4, 4, &columns, stones);
            let mut solver = Solver::with_table_bits(18);
            let expected = exhaustive(&position);
            prop_assert_eq!(i32::from(solver.solve(&position).value()), expected);
            prop_assert_eq!(solver.solve_weak(&position).sign(), expected.signum() as i8);
        }

        #[test]
        fn scores_on_5x4_match_exhaustive_search(
            columns in proptest::collection::vec(0u8..5, 60),
            stones in 11u32..18,
        ) {
            let position: Position = position_from(5, 4, &columns, stones);
            let mut solver = Solver::with_table_bits(18);
            prop_assert_eq!(i32::from(solver.solve(&position).value()), exhaustive(&position));
            let scores = solver.analyze(&position);
            for column in 0..5u32 {
                let expected = position.can_play(column).then(|| {
                    if position.is_winning_move(column) {
                        (20 + 1 - position.moves_played() as i32) / 2
                    } else {
                        let mut child = position;
                        child.play_column(column).unwrap();
                        -exhaustive(&child)
                    }
                });
                prop_assert_eq!(scores[column as usize].map(|s| i32::from(s.value())), expected);
            }
        }
    }

    /// Calls `visit` on every position, up to a win or a full board, of `games` random games
    /// on a `width` x `height` board (a fixed xorshift sequence from `seed`).
    fn random_games<B: Bitboard>(
        width: u32,
        height: u32,
        games: usize,
        seed: u64,
        mut visit: impl FnMut(&Position<B>),
    ) {
        let mut state = seed;
        for _ in 0..games {
            let mut position = Position::new(width, height).unwrap();
            while !position.is_full() && !position.can_win_next() {
                visit(&position);
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let columns: Vec<u32> = (0..width).filter(|&c| position.can_play(c)).collect();
                let column = columns[(state % columns.len() as u64) as usize];
                position.play_column(column).unwrap();
            }
        }
    }

    #[test]
    fn the_wide_bitboard_scores_as_the_narrow_one() {
        // Positions of random games on boards of both parities, solved and analysed on each
        // bitboard: every score agrees.
        for (width, height, stones) in [(5, 4, 6), (6, 5, 12), (4, 6, 8)] {
            let mut positions: Vec<Position> = Vec::new();
            random_games(width, height, 12, 0x7f4a_7c15, |p| {
                if p.moves_played() == stones {
                    positions.push(*p);
                }
            });
            assert!(positions.len() >= 6, "{width}x{height}");
            let (mut narrow, mut wide) = (Solver::with_table_bits(16), Solver::with_table_bits(16));
            for position in &positions {
                let widened = position.widened();
                assert_eq!(wide.solve(&widened), narrow.solve(position), "{position:?}");
                assert_eq!(wide.analyze(&widened), narrow.analyze(position));
                assert_eq!(wide.solve_weak(&widened), narrow.solve_weak(position));
            }
        }
    }

    /// Checks the solver against exhaustive search on random positions of a `width` x `height`
    /// board on bitboard `B` with ten empty cells, made by random moves that do not complete
    /// four (many tries end earlier, where every move left completes four).
    fn check_ends_of_games<B: Bitboard>(width: u32, height: u32, seed: u64) {
        let mut state = seed;
        let mut solver = Solver::with_table_bits(16);
        let mut solved = 0;
        for _ in 0..200 {
            let columns: Vec<u8> = (0..2000)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % 251) as u8
                })
                .collect();
            let stones = width * height - 10;
            let position: Position<B> = position_from(width, height, &columns, stones);
            if position.moves_played() == stones {
                let expected = exhaustive(&position);
                assert_eq!(i32::from(solver.solve(&position).value()), expected);
                solved += 1;
            }
        }
        assert!(solved >= 10, "{width}x{height}: {solved}");
    }

    #[test]
    fn scores_on_boards_of_long_keys_match_exhaustive_search() {
        // 9x7 (72 bits), 8x8 (72) and 16x7 (128 bits: every bit of the key in use) on the 128-bit
        // bitboard; 8x7 (64) and 9x6 (63) on the 64-bit one with the 128-bit keys their length
        // needs.
        for (width, height) in [(9, 7), (8, 8), (16, 7)] {
            check_ends_of_games::<u128>(width, height, 0x9e37_79b9);
        }
        for (width, height) in [(8, 7), (9, 6)] {
            let solver = Solver::with_table_bits(16);
            let board = Position::<u64>::new(width, height).unwrap();
            assert_eq!(solver.key_form(board.geometry()), KeyForm::TwoWord);
            check_ends_of_games::<u64>(width, height, 0x2545_f491);
        }
        let solver = Solver::with_table_bits(16);
        let board = Position::<u64>::new(9, 5).unwrap();
        assert_eq!(solver.key_form(board.geometry()), KeyForm::OneWord);
    }

    /// Up to 24 positions with `empty` empty cells on a `width` x `height` board, each of
    /// random moves that do not complete four (a fixed xorshift sequence from `seed`).
    fn positions_with_empty(width: u32, height: u32, empty: u32, seed: u64) -> Vec<Position> {
        let mut state = seed;
        let mut column = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 251) as u8
        };
        let stones = width * height - empty;
        (0..24)
            .map(|_| {
                let columns: Vec<u8> = (0..1000).map(|_| column()).collect();
                position_from(width, height, &columns, stones)
            })
            .filter(|position| position.moves_played() == stones)
            .collect()
    }

    #[test]
    fn a_large_shared_table_takes_one_word_keys_that_the_near_leaf_table_cannot() {
        // 6x9 keys have 60 bits: one-word entries tell them apart in tables of 2^21 words (2^19
        // buckets and 41 bits of check) but not in the near-leaf table; 9x6 keys (63 bits) need
        // 2^24 words.
        let key_form = |bits: u32, width: u32, height: u32| {
            let board = Position::<u64>::new(width, height).unwrap();
            Solver::with_table_bits(bits).key_form(board.geometry())
        };
        assert_eq!(key_form(21, 6, 9), KeyForm::OneWordShared);
        assert_eq!(key_form(20, 6, 9), KeyForm::TwoWord);
        assert_eq!(key_form(24, 9, 6), KeyForm::OneWordShared);
        assert_eq!(key_form(23, 9, 6), KeyForm::TwoWord);
        assert_eq!(key_form(16, 7, 6), KeyForm::OneWord);
        // Positions of 30 and 24 empty cells search both tables: every score and column
        // agrees with two-word keys throughout.
        let (mut one_word, mut two_word) =
            (Solver::with_table_bits(21), Solver::with_table_bits(16));
        let mut positions = positions_with_empty(6, 9, 30, 0x51ed_270b);
        positions.extend(positions_with_empty(6, 9, 24, 0x2545_f491));
        assert!(positions.len() >= 20, "{}", positions.len());
        for position in &positions {
            assert_eq!(
                one_word.solve(position),
                two_word.solve(position),
                "{position:?}"
            );
            assert_eq!(one_word.analyze(position), two_word.analyze(position));
        }
        assert!(one_word.nodes() > 100_000, "{}", one_word.nodes());
    }

    #[test]
    fn proven_entries_move_between_key_forms_and_layouts() {
        // 6x9: two-word keys in a table of 2^16 words, one-word ones in the shared table of 2^21.
        // The first position of 22 empty cells that takes a search of some length.
        let mut two_word = Solver::with_table_bits(16);
        let (position, score, fresh_nodes) = positions_with_empty(6, 9, 30, 0x9e37_79b9)
            .into_iter()
            .find_map(|position| {
                two_word.reset();
                let score = two_word.solve(&position);
                (two_word.nodes() > 10_000).then(|| (position, score, two_word.nodes()))
            })
            .expect("a position that takes a search");
        let two_word_words: Vec<_> = two_word.proven_entries(&position, 0).collect();
        // A resumed search finds the root's bounds and most of what lies below in its table.
        let resumes = |solver: &mut Solver, layout: u64, table_words: u64, words: &[(u64, u64)]| {
            solver
                .restore_proven(&position, layout, table_words, words.iter().copied())
                .unwrap();
            assert_eq!(solver.solve(&position), score);
            assert!(
                solver.nodes() < fresh_nodes / 4,
                "{} of {fresh_nodes}",
                solver.nodes()
            );
        };
        let mut one_word = Solver::with_table_bits(21);
        resumes(&mut one_word, LAYOUT, 1 << 16, &two_word_words);
        let one_word_words: Vec<_> = one_word.proven_entries(&position, 0).collect();
        resumes(
            &mut Solver::with_table_bits(16),
            LAYOUT,
            1 << 21,
            &one_word_words,
        );
        resumes(
            &mut Solver::with_table_bits(21),
            LAYOUT,
            1 << 21,
            &one_word_words,
        );
        // Layout 1 kept these keys in two-word entries even in a table of 2^21 words: such
        // words come back as what they are, in either form.
        let layout_1 = Table::with_bits(21);
        assert!(layout_1.restore::<u128, u128>(two_word_words.iter().copied(), 1 << 16, 60));
        let layout_1_words: Vec<_> = layout_1.proven_words::<u128>(0).collect();
        resumes(
            &mut Solver::with_table_bits(21),
            1,
            1 << 21,
            &layout_1_words,
        );
        resumes(
            &mut Solver::with_table_bits(16),
            1,
            1 << 21,
            &layout_1_words,
        );
        assert!(!one_word.reads_table_layout(LAYOUT + 1));
    }

    /// Checks a rule that claims a win with the stone after next: in random games on three
    /// small boards, wherever `applies` (given the position and its non-losing moves) with at
    /// most ten empty cells, exhaustive search finds exactly that win.
    fn check_win_after_next(seed: u64, applies: impl Fn(&Position, u64) -> bool) {
        for (width, height) in [(5, 4), (4, 5), (5, 5)] {
            let area = (width * height) as i32;
            let mut seen = 0;
            random_games(width, height, 400, seed, |position| {
                let moves = position.moves_played() as i32;
                let candidates = position.non_losing_moves(position.opponent_winning_cells());
                if area - moves <= 10 && applies(position, candidates) {
                    assert_eq!(exhaustive(position), (area - 1 - moves) / 2, "{position:?}");
                    seen += 1;
                }
            });
            assert!(seen > 0, "{width}x{height}: the rule never applied");
        }
    }

    #[test]
    fn stacked_threats_over_a_safe_move_win_with_the_stone_after_next() {
        check_win_after_next(0x9e37_79b9_7f4a_7c15, |position, candidates| {
            has_stacked_threats_over(candidates, position.own_winning_cells())
        });
    }

    #[test]
    fn a_safe_move_leaving_two_playable_threats_wins_with_the_stone_after_next() {
        check_win_after_next(0xd1b5_4a32_d192_ed03, |position, candidates| {
            (0..position.width()).any(|column| {
                let cell = candidates & position.cell_in(column);
                cell != 0
                    && position
                        .leaves_two_playable_threats(cell, position.winning_cells_after(cell))
            })
        });
    }

    #[test]
    fn the_follow_up_bound_holds_and_is_used() {
        // Random games on boards of even and odd height: wherever the bound applies with at most
        // ten empty cells, the exact score respects it.
        for (width, height) in [(5, 4), (4, 5)] {
            let mut seen = [0usize; 2];
            random_games(
                width,
                height,
                300,
                0x2545_f491_4f6c_dd1d,
                |position: &Position| {
                    let empty = width * height - position.moves_played();
                    if let Some(bound) = position.follow_up_bound().filter(|_| empty <= 10) {
                        assert!(exhaustive(position) <= bound, "{position:?}");
                        seen[(-bound) as usize] += 1;
                    }
                },
            );
            assert!(seen[0] > 0 && seen[1] > 0, "{width}x{height}: {seen:?}");
        }
    }

    #[test]
    fn the_odd_threat_bound_holds() {
        // Random games on boards of even and odd height: wherever the bound applies with at most
        // eleven empty cells, the exact score respects it, and some positions score exactly it.
        for (width, height) in [(5, 4), (4, 5), (6, 4)] {
            let (mut seen, mut exact) = (0, 0);
            random_games(
                width,
                height,
                600,
                0x9e37_79b9_7f4a_7c15,
                |position: &Position| {
                    let empty = width * height - position.moves_played();
                    let threats = position.opponent_winning_cells();
                    if let Some(bound) = position.odd_threat_bound(threats).filter(|_| empty <= 11)
                    {
                        let score = exhaustive(position);
                        assert!(score <= bound, "{position:?}: {score} > {bound}");
                        seen += 1;
                        exact += usize::from(score == bound);
                    }
                },
            );
            assert!(seen > 20 && exact > 0, "{width}x{height}: {seen} {exact}");
        }
    }

    #[test]
    fn a_won_position_scores_by_the_convention_on_boards_of_either_parity() {
        // x connects with its 4th stone on ply 7: 18 on 7x6 (42 cells), 10 on 5x5 (25 cells),
        // as a win one stone earlier scores for the side about to make it.
        for (width, height, score) in [(7, 6, 18), (5, 5, 10)] {
            let mut position = Position::<u64>::new(width, height).unwrap();
            for column in [0, 1, 0, 1, 0, 1] {
                position.play_column(column).unwrap();
            }
            let mut solver = Solver::with_table_bits(16);
            assert_eq!(i32::from(solver.solve(&position).value()), score);
            position.play_column(0).unwrap();
            assert_eq!(i32::from(solver.solve(&position).value()), -score);
        }
    }

    #[test]
    fn known_bounds_and_a_book_score_narrow_the_search_not_the_answer() {
        // 5x4 positions with ten stones from random games, scored exhaustively: solving inside
        // any bounds that hold finds the same score, and so does analysing them with a book
        // that holds them (each column then starts at the floor its parents' scores give).
        let mut positions = Vec::new();
        random_games(5, 4, 60, 0x5851_f42d_4c95_7f2d, |position| {
            if position.moves_played() == 10 {
                positions.push((*position, exhaustive(position)));
            }
        });
        assert!(positions.len() >= 20, "{}", positions.len());
        let entries = positions
            .iter()
            .map(|(p, score)| (canonical_key(p), Score::new(*score as i8)));
        let book = Arc::new(Book::from_scores(5, 4, 10, entries.collect::<Vec<_>>()).unwrap());
        let (mut analyzed, mut analyzed_plain) = (0, 0);
        let (mut bounded_nodes, mut floor_first_nodes) = (0, 0);
        for (position, score) in &positions {
            for (below, above) in [(0, 0), (3, 0), (0, 2), (1, 1), (20, 20)] {
                let mut solver = Solver::with_table_bits(16);
                let found = solver.solve_between(
                    position,
                    Score::new((score - below) as i8),
                    Score::new((score + above) as i8),
                    &Limits::default(),
                );
                assert_eq!(found.unwrap().value() as i32, *score, "{position:?}");
                let mut solver = Solver::with_table_bits(16);
                let floor = Score::new((score - below) as i8);
                let found = solver.solve_above(position, floor, &Limits::default());
                assert_eq!(found.unwrap().value() as i32, *score, "{position:?}");
            }
            // A floor that is the score is probed first: one search proves it.
            let exact = Score::new(*score as i8);
            let mut bounded = Solver::with_table_bits(16);
            bounded
                .solve_between(position, exact, Score::new(i8::MAX), &Limits::default())
                .unwrap();
            let mut from_floor = Solver::with_table_bits(16);
            from_floor
                .solve_above(position, exact, &Limits::default())
                .unwrap();
            bounded_nodes += bounded.nodes();
            floor_first_nodes += from_floor.nodes();
            let mut plain = Solver::with_table_bits(16);
            let mut with_book = Solver::with_table_bits(16);
            with_book.set_book(Some(Arc::clone(&book)));
            assert_eq!(
                with_book.analyze(position),
                plain.analyze(position),
                "{position:?}"
            );
            analyzed += with_book.nodes();
            analyzed_plain += plain.nodes();
            for column in (0..5).filter(|&c| position.can_play(c) && !position.is_winning_move(c)) {
                let mut child = *position;
                child.play_column(column).unwrap();
                let floor = with_book
                    .known_floor(&child)
                    .expect("the position is a parent");
                assert!(floor.value() as i32 >= -score, "{child:?}");
                assert!(floor.value() as i32 <= exhaustive(&child), "{child:?}");
                // A bound under the floor is answered without a search.
                let nodes = with_book.nodes();
                let below = Score::new(floor.value() - 1);
                assert_eq!(
                    with_book.is_at_most_within(&child, below, &Limits::default()),
                    Ok(false)
                );
                assert_eq!(with_book.nodes(), nodes);
            }
        }
        assert!(
            floor_first_nodes < bounded_nodes,
            "{floor_first_nodes} nodes from the floor, {bounded_nodes} merely bounded by it"
        );
        // The floors narrowed the columns' searches.
        assert!(
            analyzed < analyzed_plain,
            "{analyzed} nodes with the book, {analyzed_plain} without"
        );
    }

    #[test]
    fn a_new_solver_consults_no_book_until_one_is_handed_in() {
        let empty = Position::<u64>::new(7, 6).unwrap();
        let fresh = Solver::new();
        assert!(fresh.book().is_none());
        assert_eq!(fresh.known_score(&empty), None);
        let book = Book::from_scores(7, 6, 0, [(canonical_key(&empty), Score::new(1))]).unwrap();
        let mut solver = Solver::new();
        solver.set_book(Some(Arc::new(book)));
        assert_eq!(solver.solve(&empty).value(), 1);
        assert_eq!(solver.nodes(), 0, "answered by the book, not searched");
        assert_eq!(solver.known_score(&empty), Some(Score::new(1)));
        solver.set_book(None);
        assert!(solver.book().is_none());
        assert_eq!(solver.known_score(&empty), None);
    }

    #[test]
    fn a_new_board_size_does_not_read_the_last_ones_table() {
        // The same key means different positions on 4x5 and 5x4.
        let mut fresh = Solver::with_table_bits(18);
        let expected = fresh.analyze(&Position::<u64>::new(5, 4).unwrap());
        let mut reused = Solver::with_table_bits(18);
        reused.analyze(&Position::<u64>::new(4, 5).unwrap());
        assert_eq!(
            reused.analyze(&Position::<u64>::new(5, 4).unwrap()),
            expected
        );
    }

    #[test]
    fn helpers_join_a_long_search_and_stop_with_it() {
        // `36641613257` from the begin-medium set: score 6, about 150,000 nodes alone without
        // the book (which holds it).
        let columns: Vec<u8> = b"36641613257".iter().map(|c| c - b'1').collect();
        let position = Position::<u64>::from_moves(7, 6, &columns).unwrap();
        let mut alone = Solver::with_table_bits(20);
        let expected = alone.solve(&position);
        assert_eq!(expected.value(), 6);
        let mut pair = Solver::with_table_bits(20);
        pair.set_threads(2);
        assert_eq!(pair.solve(&position), expected);
        assert!(pair.nodes() > PARALLEL_MIN_NODES);
        // Single probes take the helpers too.
        pair.reset();
        assert_eq!(pair.solve_weak(&position), Outcome::Win);
        for bound in [5, 6] {
            pair.reset();
            let at_most = pair.is_at_most_within(&position, Score::new(bound), &Limits::default());
            assert_eq!(at_most, Ok(bound >= 6));
            assert!(pair.is_alone_on_tables());
        }

        pair.reset();
        // Just past the helpers' start: with 50,000 more, a loaded machine once let the helpers
        // fill the table so fast that the main thread finished first.
        let few_nodes = Limits {
            max_nodes: Some(PARALLEL_MIN_NODES + 1_000),
            ..Limits::default()
        };
        assert!(pair.solve_within(&position, &few_nodes).is_err());
        // The helpers have stopped: no other thread is on the tables.
        assert!(pair.is_alone_on_tables());
        assert_eq!(pair.solve(&position), expected);
    }

    #[test]
    fn columns_solved_side_by_side_score_as_one_thread_does() {
        // Positions of 14 and 15 stones from the bench samples and one with a full column and
        // a winning move, searched without the book so that both threads search, and 5x4
        // positions.
        let standard = |moves: &str| {
            let columns: Vec<u8> = moves.bytes().map(|c| c - b'1').collect();
            Position::from_moves(7, 6, &columns).unwrap()
        };
        let mut positions: Vec<Position> = [
            "55345757726261",
            "215663252132132",
            "236377362432737",
            "444444121212",
        ]
        .map(standard)
        .to_vec();
        random_games(5, 4, 10, 0x9e37_79b9, |p| positions.push(*p));
        for position in &positions {
            let mut alone = Solver::with_table_bits(18);
            let mut pair = Solver::with_table_bits(18);
            pair.set_threads(2);
            assert_eq!(
                pair.analyze(position),
                alone.analyze(position),
                "{position:?}"
            );
            // Both threads are done with the tables.
            assert!(pair.is_alone_on_tables());
        }
        let full = &positions[3];
        assert!(!full.can_play(3) && full.is_winning_move(0));
        // Inside the book nothing is searched, on any thread: a book of every child of `44`
        // (a mirror pair shares an entry; the scores do not matter here) answers each column.
        let opening = standard("44");
        let children: HashMap<u64, Score> = (0..7)
            .map(|column| {
                let mut child = opening;
                child.play_column(column).unwrap();
                (canonical_key(&child), Score::DRAW)
            })
            .collect();
        let mut pair = Solver::new();
        pair.set_book(Some(Arc::new(
            Book::from_scores(7, 6, 3, children).unwrap(),
        )));
        pair.set_threads(2);
        assert_eq!(pair.analyze(&opening), vec![Some(Score::DRAW); 7]);
        assert_eq!(pair.nodes(), 0);

        // Once a column's search is stopped, no other column starts: each of the two threads
        // searches one column until it looks at its limits.
        let mut pair = Solver::with_table_bits(18);
        pair.set_threads(2);
        let stopped = Limits {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..Limits::default()
        };
        let opening = Position::<u64>::from_moves(7, 6, &[3, 3]).unwrap();
        match pair.analyze_within(&opening, &stopped) {
            Err(SolverError::Interrupted { lower, upper }) => assert!(lower <= upper),
            other => panic!("expected an interruption, got {other:?}"),
        }
        assert!(pair.nodes() <= 3 * CHECK_INTERVAL, "{}", pair.nodes());
        assert!(pair.is_alone_on_tables());
    }

    #[test]
    fn searches_side_by_side_keep_their_bounds_and_stop_when_told() {
        // Positions of 5x4 games with few stones, each a search of some length.
        let mut positions = Vec::new();
        random_games(5, 4, 8, 0x51de, |p| {
            if p.moves_played() == 3 {
                positions.push(*p);
            }
        });
        let mut alone = Solver::with_table_bits(18);
        let exact: Vec<Score> = positions.iter().map(|p| alone.solve(p)).collect();
        let around = |score: Score, below: i8, above: i8| {
            (
                Score::new(score.value() - below),
                Score::new(score.value() + above),
            )
        };
        let mut searches: Vec<(Position, Score, Score)> = positions
            .iter()
            .zip(&exact)
            .map(|(p, &s)| {
                let (lower, upper) = around(s, 2, 1);
                (*p, lower, upper)
            })
            .collect();
        // Bounds that are wrong give a wrong score: this one shows that they are used.
        let (wrong, _) = around(exact[0], -1, 0);
        searches[0] = (positions[0], wrong, wrong);
        let mut pair = Solver::with_table_bits(18);
        pair.set_threads(2);
        let mut found = vec![None; searches.len()];
        let mut last_nodes = 0;
        pair.solve_side_by_side(&searches, &Limits::default, |index, result, nodes| {
            assert!(nodes >= last_nodes);
            last_nodes = nodes;
            found[index] = Some(result.unwrap());
            true
        });
        let mut expected: Vec<Option<Score>> = exact.iter().copied().map(Some).collect();
        expected[0] = Some(wrong);
        assert_eq!(found, expected);
        assert_eq!(pair.nodes(), last_nodes);
        assert!(last_nodes > 0);
        // Told to stop at the first result, no search starts after it: each thread finishes at
        // most the one it had started (the searches are short, so without the wait for the
        // answer the threads would have raced through most of them).
        let mut quick: Vec<(Position, Score, Score)> = Vec::new();
        random_games(5, 4, 40, 0x9a1e, |p| {
            if p.moves_played() == 10 {
                quick.push((*p, Score::new(i8::MIN), Score::new(i8::MAX)));
            }
        });
        let mut pair = Solver::with_table_bits(18);
        pair.set_threads(2);
        let mut results = 0;
        pair.solve_side_by_side(&quick, &Limits::default, |_, _, _| {
            results += 1;
            false
        });
        assert!((1..=2).contains(&results), "{results}");
        assert!(pair.is_alone_on_tables());
    }

    #[test]
    fn the_4x4_board_is_a_draw() {
        let mut solver = Solver::with_table_bits(18);
        assert_eq!(
            solver.solve(&Position::<u64>::new(4, 4).unwrap()),
            Score::DRAW
        );
    }

    #[test]
    fn scores_follow_the_convention() {
        let mut solver = Solver::with_table_bits(18);
        let pos = |moves: &[u8]| Position::<u64>::from_moves(7, 6, moves).unwrap();
        // `4455`: the first player wins with its fourth stone.
        assert_eq!(solver.solve(&pos(&[3, 3, 4, 4])).value(), 18);
        // Three stones in column 1: win at once with the fourth.
        assert_eq!(solver.solve(&pos(&[0, 1, 0, 1, 0, 1])).value(), 18);
        let (score, column) = solver.solve_best(&pos(&[0, 1, 0, 1, 0, 1]));
        assert_eq!((score.value(), column), (18, Some(0)));
        assert_eq!(solver.best_columns(&pos(&[0, 1, 0, 1, 0, 1])), [0]);
        // After a win the side to move has lost: 22 - 4 stones.
        assert_eq!(solver.solve(&pos(&[0, 1, 0, 1, 0, 1, 0])).value(), -18);
        assert_eq!(solver.analyze(&pos(&[0, 1, 0, 1, 0, 1, 0])), vec![None; 7]);
    }

    #[test]
    fn a_stopped_search_rules_out_only_moves_that_cannot_beat_its_probe() {
        // begin-medium's first line (score -3), with every column's exact score.
        let moves = [3, 1, 6, 0, 1, 5, 1, 1, 5, 4, 2];
        let position = Position::<u64>::from_moves(7, 6, &moves).unwrap();
        let column_scores = [-7, -11, -4, -3, -4, -11, -11];
        let mut most = 0;
        for max_nodes in [
            2_000, 10_000, 30_000, 60_000, 100_000, 150_000, 200_000, 250_000,
        ] {
            let mut solver = Solver::with_table_bits(18);
            let limits = Limits {
                max_nodes: Some(max_nodes),
                ..Limits::default()
            };
            assert!(solver.solve_within(&position, &limits).is_err());
            let progress = solver.probe_progress(&position).unwrap();
            let above = i32::from(progress.above.value());
            assert_eq!(progress.playable, 0b111_1111);
            for column in progress.ruled_out_columns() {
                let score = column_scores[column as usize];
                assert!(score <= above, "{max_nodes}: {progress:?}");
            }
            most = most.max(progress.ruled_out.count_ones());
        }
        assert!(most >= 3, "{most}");
        // A probe that finds no move above -3 refutes every move, each in the table.
        let mut solver = Solver::with_table_bits(18);
        let (lower, upper) = (Score::new(-3), Score::new(-2));
        let score = solver.solve_between(&position, lower, upper, &Limits::default());
        assert_eq!(score.unwrap().value(), -3);
        let all = ProbeProgress {
            above: lower,
            ruled_out: 0b111_1111,
            playable: 0b111_1111,
        };
        assert_eq!(solver.probe_progress(&position), Some(all));
        // A solver that has not searched knows of no probe.
        assert_eq!(Solver::with_table_bits(18).probe_progress(&position), None);
    }

    #[test]
    fn bounds_known_before_any_move_hold_the_exact_score() {
        // With empty tables, only the rules that need no search bound the score.
        let solver = Solver::with_table_bits(16);
        for (width, height) in [(5, 4), (4, 5), (5, 5)] {
            let area = (width * height) as i32;
            let mut narrowed = 0;
            random_games(
                width,
                height,
                300,
                0xbf58_476d_1ce4_e5b9,
                |position: &Position| {
                    let moves = position.moves_played() as i32;
                    if area - moves > 10 {
                        return;
                    }
                    let (lower, upper) = solver.known_bounds(position);
                    let score = exhaustive(position);
                    assert!(
                        lower <= score && score <= upper,
                        "{position:?}: {lower}..{upper}"
                    );
                    let (widest_lower, widest_upper) =
                        (-(area - 2 - moves) / 2, (area - 1 - moves) / 2);
                    if lower != upper && (lower > widest_lower || upper < widest_upper) {
                        narrowed += 1;
                    }
                },
            );
            assert!(narrowed > 0, "{width}x{height}: no bound narrowed");
        }
    }

    #[test]
    fn a_probe_that_fails_rules_out_every_move_on_a_board_past_64_bits_too() {
        // 8x8 keys take two-word entries in both tables.
        let mut positions: Vec<Position<u128>> = Vec::new();
        random_games(8, 8, 400, 0x2545_f491_4f6c_dd1d, |p| {
            if p.moves_played() == 26 {
                positions.push(*p);
            }
        });
        let mut checked = 0;
        for position in positions.iter().take(4) {
            let mut reference = Solver::with_table_bits(18);
            let score = reference.solve(position);
            let columns = reference.analyze(position);
            // A probe above the best win the side to move can still make is settled unsearched.
            let moves = position.moves_played() as i8;
            if score.value() >= (64 - 1 - moves) / 2 {
                continue;
            }
            // The one probe between the score and the next, whether it is above the score, alone
            // in a fresh table.
            let next = Score::new(score.value() + 1);
            let mut solver = Solver::with_table_bits(18);
            let found = solver.solve_between(position, score, next, &Limits::default());
            assert_eq!(found.unwrap(), score);
            let progress = solver.probe_progress(position).unwrap();
            let playable = columns.iter().enumerate().filter(|(_, s)| s.is_some());
            let playable = playable.fold(0, |bits, (column, _)| bits | 1 << column);
            let all = ProbeProgress {
                above: score,
                ruled_out: playable,
                playable,
            };
            assert_eq!(progress, all, "{position:?} {columns:?}");
            checked += 1;
        }
        assert!(checked >= 3, "{checked}");
    }

    #[test]
    fn limits_interrupt_a_long_search() {
        let position = Position::<u64>::from_moves(7, 6, &[3, 3]).unwrap();
        let mut solver = Solver::with_table_bits(18);
        // The opening book would answer at once: the search is what is under test.
        let few_nodes = Limits {
            max_nodes: Some(10_000),
            ..Limits::default()
        };
        match solver.solve_within(&position, &few_nodes) {
            Err(SolverError::Interrupted { lower, upper }) => assert!(lower <= upper),
            other => panic!("expected an interruption, got {other:?}"),
        }
        assert!(solver.nodes() < 20_000);

        let stop = Arc::new(AtomicBool::new(true));
        let stopped = Limits {
            stop: Some(stop),
            ..Limits::default()
        };
        assert!(solver.solve_weak_within(&position, &stopped).is_err());
        let past = Limits {
            deadline: Some(Instant::now()),
            ..Limits::default()
        };
        assert!(solver.analyze_within(&position, &past).is_err());

        // A finished limit leaves the solver usable for an exact search.
        let easy = Position::<u64>::from_moves(7, 6, &[3, 3, 4, 4]).unwrap();
        assert_eq!(solver.solve(&easy).value(), 18);
    }

    #[test]
    fn what_a_search_proved_goes_on_in_a_table_of_another_size() {
        let position = Position::<u64>::from_moves(7, 6, &[3, 3, 2, 4, 4]).unwrap();
        let mut fresh = Solver::with_table_bits(20);
        let score = fresh.solve(&position);
        let whole = fresh.nodes();
        let mut stopped = Solver::with_table_bits(20);
        let limits = Limits {
            max_nodes: Some(whole * 3 / 4),
            ..Limits::default()
        };
        let Err(SolverError::Interrupted { lower, upper }) =
            stopped.solve_within(&position, &limits)
        else {
            panic!(
                "a search of {whole} nodes went through in {}",
                whole * 3 / 4
            );
        };
        let entries: Vec<_> = stopped.proven_entries(&position, 0).collect();
        // Into a table four times the size, or a quarter: the score comes out right, and in a
        // table big enough to hold them all, for fewer nodes than a search from nothing.
        for bits in [22, 18] {
            let mut resumed = Solver::with_table_bits(bits);
            resumed
                .restore_proven(
                    &position,
                    LAYOUT,
                    stopped.table_words(),
                    entries.iter().copied(),
                )
                .unwrap();
            let again = resumed.solve_between(&position, lower, upper, &Limits::default());
            assert_eq!(again, Ok(score), "{bits} bits");
            if bits == 22 {
                assert!(
                    resumed.nodes() < whole / 2,
                    "{} of {whole}",
                    resumed.nodes()
                );
            }
        }
        // Words that are not a table's are refused, even after many good ones, and leave the
        // table empty: the search takes as many nodes as from nothing.
        let words = stopped.table_words();
        let outside = entries.iter().copied().chain([(words, 0)]);
        for (saved, entries) in [(3 << 17, entries.clone()), (words, outside.collect())] {
            let mut resumed = Solver::with_table_bits(20);
            let refused = resumed.restore_proven(&position, LAYOUT, saved, entries);
            assert!(matches!(refused, Err(SolverError::TableSize { .. })));
            resumed.solve(&position);
            assert_eq!(resumed.nodes(), whole);
        }
    }
}
