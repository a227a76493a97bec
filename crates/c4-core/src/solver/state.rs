//! The [`Solver`] itself: its tables, threads, book and counters, how one is made and set up.
//! What it does lives beside it: root.rs (the probes of a position), negamax.rs (the search),
//! analyze.rs (every column), threads.rs (its helpers), keys.rs (its tables' keys), proven.rs
//! (what a stopped search leaves for the next).

use std::sync::Arc;

use super::bitboard::Bitboard;
use super::book::Book;
use super::error::SolverError;
use super::limits::Limits;
use super::parallel::{Helpers, Team, MAX_THREADS, PARALLEL_NEAR_LEAF_BITS};
use super::position::Position;
use super::score::Score;
use super::table::Table;
use super::table_size::TableSize;

/// Positions with at most this many empty cells go to the small near-leaf table.
pub(super) const NEAR_LEAF_EMPTY: i32 = 12;

/// The near-leaf table: 2^17 entries, 1 MiB (see [`TableSize::BATCH`]).
const NEAR_LEAF_BITS: u32 = 17;

/// An exact Connect Four solver with its own transposition table.
///
/// The table survives between calls (so analysing the children of a solved position is cheap)
/// until [`reset`](Self::reset).
pub struct Solver {
    /// Positions with more empty cells than go to `near_leaf`: few, costly to search again.
    /// Shared with the helper threads of a search.
    pub(super) table: Arc<Table>,
    /// Positions near the leaves: very many, cheap, short-lived; a small table that stays in
    /// cache saves a memory miss on most nodes. Each thread of a search has its own.
    pub(super) near_leaf: Arc<Table>,
    /// Threads per exact search, this one included.
    pub(super) threads: usize,
    /// The helper threads of this solver's searches, started at the first search that needs
    /// them.
    pub(super) helpers: Option<Helpers>,
    /// Set while this thread searches a probe with others.
    pub(super) team: Option<Team>,
    /// The probe this thread is searching (on the 128-bit bitboard, which holds every board),
    /// for helpers that join it midway.
    pub(super) probe: Option<(Position<u128>, i32, i32)>,
    /// The position (its key) and score of the last probe this thread started, kept after it
    /// stops, for [`probe_progress`](Self::probe_progress).
    pub(super) last_probe: Option<(u128, i32)>,
    /// The node count at which the helpers join this search.
    pub(super) parallel_from: u64,
    /// Set when the helpers were called in during a probe, which this thread then starts again.
    pub(super) restart: bool,
    /// Positions with at most this many empty cells go to `near_leaf`: [`NEAR_LEAF_EMPTY`], or
    /// [`TEAM_NEAR_LEAF_EMPTY`](super::parallel::TEAM_NEAR_LEAF_EMPTY) while this thread
    /// searches with others.
    pub(super) near_leaf_empty: i32,
    pub(super) nodes: u64,
    pub(super) limits: Limits,
    pub(super) limits_start: u64,
    pub(super) next_check: u64,
    pub(super) interrupted: bool,
    /// Whether table keys are folded with their mirror image (set per search).
    pub(super) mirror: bool,
    /// Whether every search folds its keys, not only a symmetric position's
    /// ([`set_fold_mirrors`](Solver::set_fold_mirrors)).
    pub(super) fold_mirrors: bool,
    /// The board of the last search: keys only identify positions of one board size (and are
    /// stored in one-word or two-word entries by size), so the tables are cleared when it
    /// changes.
    pub(super) board: Option<Board>,
    /// Exact scores of the opening, consulted before searching a position it holds: the book
    /// the caller handed in, none until then.
    pub(super) book: Option<Arc<Book>>,
    /// The book's depth when it is for the board of this search, else -1: positions with more
    /// stones skip the book at the cost of one comparison.
    pub(super) book_depth: i32,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver with the batch modes' table ([`TableSize::BATCH`]).
    pub fn new() -> Solver {
        Solver::with_table_bits(TableSize::BATCH.bits())
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
            mib: TableSize::mib_of_bits(bits),
        })?;
        Ok(Solver::on_table(table))
    }

    /// A solver whose table (about `2^bits` entries) lies in `file` from byte `offset` on,
    /// shared with every process that maps the same file, as the threads of one search share
    /// theirs; it is never cleared. The caller makes sure that the file holds such a table for
    /// the board searched (the same size, board, build and mirror folding) or zeros.
    ///
    /// # Errors
    /// [`SolverError::SharedTable`]: the file is too short or cannot be mapped.
    pub fn try_with_shared_table(
        bits: u32,
        file: &std::fs::File,
        offset: u64,
    ) -> Result<Solver, SolverError> {
        let table = Table::mapped(bits, file, offset).map_err(|e| SolverError::SharedTable {
            reason: e.to_string(),
        })?;
        Ok(Solver::on_table(table))
    }

    /// A solver on `table` and a near-leaf table of its own, for any board.
    fn on_table(table: Table) -> Solver {
        Solver::on_tables(
            Arc::new(table),
            Arc::new(Table::with_bits(NEAR_LEAF_BITS)),
            None,
            None,
        )
    }

    pub(super) fn on_tables(
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
            fold_mirrors: false,
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
    pub(crate) fn known_score<B: Bitboard>(&self, position: &Position<B>) -> Option<Score> {
        self.book_score(position)
    }

    /// The book's score of `position` when the book holds it.
    #[inline(never)]
    pub(super) fn book_score<B: Bitboard>(&self, position: &Position<B>) -> Option<Score> {
        self.book.as_ref()?.score(&position.narrowed()?)
    }

    /// [`book_score`](Self::book_score) of each of `positions`, looked up side by side
    /// ([`Book::score_each`]), handed to `found` with the tag it comes with when the book holds
    /// it.
    #[inline]
    pub(super) fn book_score_each<T: Copy, B: Bitboard>(
        &self,
        positions: impl IntoIterator<Item = (T, Position<B>)>,
        mut found: impl FnMut(T, Score),
    ) {
        if let Some(book) = &self.book {
            // Positions too large for the book's keys are in no book: all of a board's are.
            let narrowed = positions
                .into_iter()
                .map_while(|(tag, position)| Some((tag, position.narrowed()?)));
            book.score_each(narrowed, |tag, score| {
                if let Some(score) = score {
                    found(tag, score);
                }
            });
        }
    }

    /// The least score of `position` that the book's scores of its parents allow
    /// ([`Book::floor`]).
    pub(super) fn known_floor<B: Bitboard>(&self, position: &Position<B>) -> Option<Score> {
        self.book.as_ref()?.floor(&position.narrowed()?)
    }

    /// Searches exact scores ([`solve`](Self::solve), [`analyze`](Self::analyze) and the like)
    /// with `threads` threads sharing the table (1, the default, to `MAX_THREADS`). Helpers
    /// join a search only once it has taken `PARALLEL_MIN_NODES`
    /// nodes, so small searches stay on one thread; they are started then and kept, asleep, for
    /// the next searches. [`analyze`](Self::analyze) instead solves its columns side by side
    /// once it has taken as many nodes (`solve_side_by_side`).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, MAX_THREADS);
        if threads != self.threads {
            self.helpers = None;
            self.near_leaf = Arc::new(Table::with_bits(near_leaf_bits(threads)));
        }
        self.threads = threads;
    }

    /// Folds the table keys of every search with their mirror image, and not only a symmetric
    /// position's: worth it for many searches below one symmetric position (the jobs a solve of
    /// the empty board is split into), whose mirror images meet across searches as they do
    /// within one search of the symmetric position. Elsewhere folding costs more time than the
    /// few transpositions it finds, so it is off by default.
    pub fn set_fold_mirrors(&mut self, fold: bool) {
        self.fold_mirrors = fold;
    }

    /// Threads per exact search ([`set_threads`](Self::set_threads)).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Has a thread write every page of the tables once, off the clock of the searches to
    /// come: the first write of a page can stall for tens of milliseconds (the system finding
    /// and zeroing memory, or on a virtual machine its host doing so), and a search under a
    /// 1 ms `movetime` that met such pages answered up to 150 ms late. The thread stops early
    /// once the solver has let go of the tables (a new `hash`). `None` when no thread could
    /// be started: the pages are then taken as searches first write them, as without this.
    pub(crate) fn warm_tables(&self) -> Option<std::thread::JoinHandle<()>> {
        let tables = [Arc::clone(&self.table), Arc::clone(&self.near_leaf)];
        std::thread::Builder::new()
            .name("c4-table-warmer".into())
            .spawn(move || {
                for table in &tables {
                    // Only this thread still holds a table the solver has replaced.
                    table.touch_pages(|| Arc::strong_count(table) > 1);
                }
            })
            .ok()
    }

    /// The tables' size in bytes, the near-leaf table of every thread included.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes() + self.threads * self.near_leaf.bytes()
    }

    /// Whether the shared table is large enough to ask for 1 GiB pages.
    pub fn is_table_for_giga_pages(&self) -> bool {
        self.table.is_for_giga_pages()
    }

    /// Whether the table lies in a file shared with other processes
    /// ([`try_with_shared_table`](Self::try_with_shared_table)): it is then never cleared.
    pub fn is_table_shared(&self) -> bool {
        self.table.is_shared()
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

    /// Empties the table and zeroes the node counter.
    pub fn reset(&mut self) {
        self.clear_tables();
        self.nodes = 0;
    }

    /// Empties the tables of this solver and of its helpers; a table shared with other
    /// processes is left as it is (what it holds is theirs too, and holds for any search of
    /// its board).
    pub(super) fn clear_tables(&self) {
        if !self.table.is_shared() {
            self.table.clear();
        }
        self.near_leaf.clear();
        if let Some(helpers) = &self.helpers {
            for table in &helpers.near_leaf {
                table.clear();
            }
        }
    }
}

/// What identifies a board for the tables: its size (which decides how keys are stored, see
/// [`Solver::key_form`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Board {
    width: u32,
    height: u32,
}

impl Board {
    pub(super) fn of<B: Bitboard>(position: &Position<B>) -> Board {
        Board {
            width: position.width(),
            height: position.height(),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::book::canonical_key;

    #[cfg(unix)]
    #[test]
    fn a_table_mapped_from_a_file_is_shared_by_every_solver_that_maps_it_and_never_cleared() {
        const OFFSET: u64 = 4096;
        let file = tempfile::tempfile().unwrap();
        file.set_len(OFFSET + (8 << 18)).unwrap();
        // 6x4 from empty: about 10^5 nodes, a draw.
        let empty = Position::<u64>::new(6, 4).unwrap();
        let mut first = Solver::try_with_shared_table(18, &file, OFFSET).unwrap();
        let score = first.solve(&empty);
        // A second mapping (another process's, as far as the table knows) finds it proven.
        let mut second = Solver::try_with_shared_table(18, &file, OFFSET).unwrap();
        assert_eq!(second.solve(&empty), score);
        assert!(
            second.nodes() * 100 < first.nodes(),
            "{} nodes after {}",
            second.nodes(),
            first.nodes()
        );
        // Reset forgets the counter, not what the others proved.
        second.reset();
        assert_eq!(second.solve(&empty), score);
        assert!(second.nodes() * 100 < first.nodes());
        // A table of its own knows nothing of it.
        let mut private = Solver::with_table_bits(18);
        assert_eq!(private.solve(&empty), score);
        assert_eq!(private.nodes(), first.nodes());
        // A file too short for the table is refused.
        let short = tempfile::tempfile().unwrap();
        short.set_len(OFFSET + (8 << 17)).unwrap();
        assert!(matches!(
            Solver::try_with_shared_table(18, &short, OFFSET),
            Err(SolverError::SharedTable { .. })
        ));
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
}
