//! `c4.Solver`: the exact solver with its table, threads and opening book; perfect and
//! level-limited play; and `analyze_many`, which labels many positions on the core's threads
//! (`c4_core::analyze_many`). Every search runs with the GIL released, so that other Python
//! threads go on meanwhile, and stops at Ctrl-C.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use c4_core::read_book;
use c4_core::Book;
use c4_core::SettingError;
use c4_core::{analyze_many, with_position, ThreadCount};
use c4_core::{best_column, finished_score, solver_position, PerfectError};
use c4_core::{best_of, choose, parse_level, Rng, TieBreak};
use c4_core::{AnyPosition, Limits, Score, TableSize};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::args::{type_name, Int};
use crate::board::Board;
use crate::book::built_in_book;
use crate::value_error;

/// The exact solver for two players and connect 4, on boards with width x (height + 1) <= 128.
///
/// Scores are from the side to move: a win that leaves `p` stones on the board scores
/// `(width * height + 2 - p) // 2` (22 minus the winner's stones on 7x6: a win with the 4th
/// stone scores 18), a loss the negative, a draw 0. The table keeps what it learnt between calls.
///
/// One solver serves one Python thread at a time; each search releases the GIL, and Ctrl-C
/// stops it.
///
/// A solver with a transposition table of `table_mib` MiB (rounded down to a power of two),
/// searching each position on `threads` threads, consulting `book`: True for the built-in
/// opening book (7x6, every position of up to 13 stones), False or None for none, or the
/// path of a book file. `seed` starts the random tie-breaks and levels (None: a new seed).
///
/// Raises ValueError for settings out of range (naming the argument), a table the system
/// refuses, or a book file that cannot be read (the engine's reason); TypeError for an
/// argument of the wrong type.
#[pyclass(module = "c4", name = "Solver")]
pub struct Solver {
    solver: c4_core::Solver,
    /// The table's size, also that of each solver of `analyze_many`.
    table: TableSize,
    /// Draws random tie-breaks and the random levels' moves.
    rng: Rng,
    /// The book as it was chosen (`None`: none), which a pickle keeps.
    book: Option<BookChoice>,
}

/// What a pickled solver keeps ([`Solver::__getstate__`]): the table's size in MiB, the
/// threads, the book and the random generator's state.
type PickleState = (u64, u64, Option<BookChoice>, u64);

/// The book a `book` argument names: True for the built-in one (7x6, up to 13 stones), False
/// for none, or the path of a book file that `c4 book` wrote; None, for none, comes as `None`.
#[derive(IntoPyObject, Clone)]
enum BookChoice {
    BuiltIn(bool),
    File(PathBuf),
}

impl<'py> FromPyObject<'_, 'py> for BookChoice {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<BookChoice> {
        if let Ok(built_in) = obj.cast::<PyBool>() {
            return Ok(BookChoice::BuiltIn(built_in.is_true()));
        }
        // A str or an os.PathLike, as `open` takes them.
        obj.extract().map(BookChoice::File).map_err(|_| {
            PyTypeError::new_err(format!(
                "book must be True, False, None or the path of a book file (str or \
                 os.PathLike), not {}",
                type_name(&obj)
            ))
        })
    }
}

/// The book `choice` names, read.
fn book_of(choice: &Option<BookChoice>) -> PyResult<Option<Arc<Book>>> {
    match choice {
        None | Some(BookChoice::BuiltIn(false)) => Ok(None),
        Some(BookChoice::BuiltIn(true)) => Ok(built_in_book()),
        Some(BookChoice::File(path)) => read_book(path)
            .map(|book| Some(Arc::new(book)))
            .map_err(value_error),
    }
}

/// `threads` checked against what the solver runs, in the core's words.
fn checked_threads(threads: &Int) -> PyResult<usize> {
    threads.parse("threads").map(ThreadCount::get)
}

/// The score of `board` if its game is over (the engine's rule for a finished game), or the
/// engine's reason it cannot solve it.
fn finished(board: &Board) -> PyResult<Option<Score>> {
    finished_score(&board.game).map_err(value_error)
}

/// The solver's position for `board`, or the engine's reason it cannot solve it.
fn position_of(board: &Board) -> PyResult<AnyPosition> {
    solver_position(&board.game).map_err(value_error)
}

/// Python's view of a column's score: None for a full column.
fn values(scores: Vec<Option<Score>>) -> Vec<Option<i8>> {
    scores.into_iter().map(|s| s.map(Score::value)).collect()
}

/// How long a search runs on the calling thread before it goes on beside it, so that Ctrl-C
/// can stop it: the openings and most positions of a game are answered well within it, and
/// pay for no thread.
const ON_THE_CALLING_THREAD: Duration = Duration::from_millis(50);

/// How often a thread waiting for searches looks whether Python has a signal to handle.
const SIGNAL_INTERVAL: Duration = Duration::from_millis(20);

/// Waits until `is_done` (the searches wake this thread when they end), handling Python's
/// signals meanwhile: when a handler raises (KeyboardInterrupt from Ctrl-C), sets `stop`, so
/// that the searches stop soon after, and returns the exception.
fn wait_handling_signals(stop: &AtomicBool, is_done: impl Fn() -> bool) -> Option<PyErr> {
    while !is_done() {
        thread::park_timeout(SIGNAL_INTERVAL);
        if let Err(signalled) = Python::attach(|py| py.check_signals()) {
            stop.store(true, Ordering::Relaxed);
            return Some(signalled);
        }
    }
    None
}

/// Runs `search` on `solver` with the GIL released, so that Ctrl-C stops it: on this thread
/// for up to [`ON_THE_CALLING_THREAD`], then again beside this one ([`beside_the_signals`],
/// with the table's entries of the first try).
fn interruptible<T: Send>(
    py: Python<'_>,
    solver: &mut c4_core::Solver,
    search: impl Fn(&mut c4_core::Solver, &Limits) -> Result<T, PerfectError> + Sync,
) -> PyResult<T> {
    match py.detach(|| search(solver, &quick_limits())) {
        Err(PerfectError::Interrupted { .. }) => {}
        done => return done.map_err(value_error),
    }
    beside_the_signals(py, |limits| search(solver, limits))?.map_err(value_error)
}

/// The limits of a search's first try, on the calling thread: [`ON_THE_CALLING_THREAD`].
fn quick_limits() -> Limits {
    Limits {
        deadline: Some(Instant::now() + ON_THE_CALLING_THREAD),
        ..Limits::default()
    }
}

/// Runs `search` with the GIL released, on a thread beside this one, which meanwhile handles
/// Python's signals: when a handler raises (KeyboardInterrupt from Ctrl-C), the stop flag of
/// the limits `search` is given is set, and the exception is returned once `search` has
/// ended.
fn beside_the_signals<T: Send>(
    py: Python<'_>,
    search: impl FnOnce(&Limits) -> T + Send,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        stop: Some(Arc::clone(&stop)),
        ..Limits::default()
    };
    py.detach(|| {
        let waiting = thread::current();
        thread::scope(|scope| {
            let worker = scope.spawn(|| {
                let result = search(&limits);
                waiting.unpark();
                result
            });
            let signalled = wait_handling_signals(&stop, || worker.is_finished());
            let result = worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            match signalled {
                Some(signalled) => Err(signalled),
                None => Ok(result),
            }
        })
    })
}

/// Every column's score of `position` ([`interruptible`]).
fn analyze_interruptible(
    py: Python<'_>,
    solver: &mut c4_core::Solver,
    position: AnyPosition,
) -> PyResult<Vec<Option<Score>>> {
    interruptible(py, solver, |solver, limits| {
        Ok(with_position!(position, |p| solver.analyze_within(&p, limits))?)
    })
}

#[pymethods]
impl Solver {
    // The constructor's documentation is the class's: Python shows that one.
    #[new]
    #[pyo3(
        signature = (*, table_mib = Int::from(u64::from(TableSize::BATCH.mib())), threads = Int::from(ThreadCount::ONE.get() as u64), book = Some(BookChoice::BuiltIn(true)), seed = None),
        // TableSize::BATCH and ThreadCount::ONE written out: PyO3 takes only a literal here;
        // the tests check that they agree.
        text_signature = "(*, table_mib=2, threads=1, book=True, seed=None)"
    )]
    fn new(
        table_mib: Int,
        threads: Int,
        book: Option<BookChoice>,
        seed: Option<Int>,
    ) -> PyResult<Solver> {
        let table: TableSize = table_mib.parse("table_mib")?;
        let threads = checked_threads(&threads)?;
        let seed = match seed {
            Some(seed) => seed.to("seed", |got| {
                // The sentence of `c4 play --seed`.
                SettingError::OutOfRange {
                    what: "a seed",
                    min: 0,
                    max: u64::MAX,
                    got: got.to_string(),
                }
                .to_string()
            })?,
            None => RandomState::new().hash_one(0u8),
        };
        let mut solver = c4_core::Solver::try_with_table_bits(table.bits()).map_err(value_error)?;
        solver.set_threads(threads);
        let mut made = Solver {
            solver,
            table,
            rng: Rng::new(seed),
            book: None,
        };
        made.set_book(book)?;
        Ok(made)
    }

    /// The table's size in MiB: the size asked for, rounded down to a power of two.
    #[getter]
    fn table_mib(&self) -> u32 {
        self.table.mib()
    }

    /// Threads per search (settable; 1 to 64).
    #[getter]
    fn threads(&self) -> usize {
        self.solver.threads()
    }

    #[setter]
    fn set_threads(&mut self, threads: Int) -> PyResult<()> {
        self.solver.set_threads(checked_threads(&threads)?);
        Ok(())
    }

    /// The depth in stones of the book the solver consults, or None without one.
    #[getter]
    fn book_depth(&self) -> Option<u32> {
        self.solver.book().map(|book| book.depth())
    }

    /// The numbers of stones whose scores the book stores, or None without one. A ply up to
    /// its depth that is not listed is computed from the next ply's at each lookup: the
    /// built-in book stores every ply, book files may leave some out (`c4 book merge
    /// --leave-out`).
    #[getter]
    fn book_stored_plies(&self) -> Option<Vec<u32>> {
        let plies = self.solver.book()?.entries_per_ply();
        Some(
            (0..)
                .zip(plies)
                .filter(|(_, entries)| entries.is_some())
                .map(|(stones, _)| stones)
                .collect(),
        )
    }

    /// Consults `book` from now on: True for the built-in book, False or None for none, or the
    /// path of a book file.
    ///
    /// Raises ValueError when the file cannot be read or is not a book (the engine's reason).
    fn set_book(&mut self, book: Option<BookChoice>) -> PyResult<()> {
        self.solver.set_book(book_of(&book)?);
        self.book = book.filter(|choice| !matches!(choice, BookChoice::BuiltIn(false)));
        Ok(())
    }

    /// What a pickle keeps: the table's size, the threads, the book (a book file is read again
    /// when the copy is made) and the random state, so that the copy's random choices are the
    /// original's; not what the table learnt, which the copy learns again.
    fn __getstate__(&self) -> PickleState {
        (
            self.table.mib().into(),
            self.solver.threads() as u64,
            self.book.clone(),
            self.rng.state(),
        )
    }

    /// Restores what `__getstate__` kept.
    ///
    /// Raises ValueError as the constructor does (a book file that cannot be read).
    fn __setstate__(&mut self, state: PickleState) -> PyResult<()> {
        let (table_mib, threads, book, rng_state) = state;
        *self = Solver::new(
            table_mib.into(),
            threads.into(),
            book,
            Some(rng_state.into()),
        )?;
        Ok(())
    }

    /// Forgets what the table learnt.
    fn reset(&mut self) {
        self.solver.reset();
    }

    /// The exact score of `board` for the side to move; of a finished game, the score its last
    /// move left (the side to move has lost, or 0 for a draw).
    ///
    /// Raises ValueError when the solver does not play its rules.
    fn solve(&mut self, py: Python<'_>, board: &Board) -> PyResult<i8> {
        if let Some(score) = finished(board)? {
            return Ok(score.value());
        }
        let position = position_of(board)?;
        let score = interruptible(py, &mut self.solver, |solver, limits| {
            Ok(with_position!(position, |p| solver.solve_within(&p, limits))?)
        })?;
        Ok(score.value())
    }

    /// Who wins `board` with perfect play, from the side to move: 1, 0 (a draw) or -1 (as for a
    /// finished game won by the other side). Much faster than `solve` on positions far from the
    /// end.
    ///
    /// Raises ValueError when the solver does not play its rules.
    fn weak_solve(&mut self, py: Python<'_>, board: &Board) -> PyResult<i8> {
        if let Some(score) = finished(board)? {
            return Ok(score.value().signum());
        }
        let position = position_of(board)?;
        let outcome = interruptible(py, &mut self.solver, |solver, limits| {
            Ok(with_position!(position, |p| solver.solve_weak_within(&p, limits))?)
        })?;
        Ok(outcome.sign())
    }

    /// The exact score of every column for the side to move, after playing it: a list with one
    /// entry per column, None for a column that cannot be played (full, or every column once the
    /// game is over).
    ///
    /// Raises ValueError when the solver does not play its rules.
    fn analyze(&mut self, py: Python<'_>, board: &Board) -> PyResult<Vec<Option<i8>>> {
        if finished(board)?.is_some() {
            return Ok(vec![None; board.game.variant().width()]);
        }
        let position = position_of(board)?;
        analyze_interruptible(py, &mut self.solver, position).map(values)
    }

    /// A best column (0-based) for the side to move: among the columns of the best score, the
    /// one `tie_break` picks: "centre" (nearest the centre, then the left one; the fastest, as
    /// it stops at the first column found to keep the score), "left", "right" or "random".
    ///
    /// Raises ValueError when the game is over, the solver does not play its rules, or the
    /// tie-break is none of these.
    #[pyo3(signature = (board, *, tie_break = "centre"))]
    fn best_move(&mut self, py: Python<'_>, board: &Board, tie_break: &str) -> PyResult<usize> {
        if finished(board)?.is_some() {
            let summary = board.game.outcome_summary();
            return Err(value_error(PerfectError::NoMove(summary)));
        }
        let position = position_of(board)?;
        if matches!(tie_break, "centre" | "center") {
            let game = &board.game;
            let (column, _) = interruptible(py, &mut self.solver, |solver, limits| {
                best_column(game, solver, limits)
            })?;
            return Ok(column.index());
        }
        let rule = TieBreak::from_name(tie_break).ok_or_else(|| {
            PyValueError::new_err(format!(
                "tie_break must be centre, left, right or random, got '{tie_break}'"
            ))
        })?;
        let scores = analyze_interruptible(py, &mut self.solver, position)?;
        Ok(rule.pick(&best_of(&scores), &mut self.rng).index())
    }

    /// A column (0-based) chosen at `level`, the engine's level words: "perfect" (`best_move`
    /// with the centre tie-break where the solver plays the rules, a 5-ply heuristic search
    /// elsewhere), "random", or "lookahead N [left|right|random]" (looks N plies ahead, from 1
    /// to 12, and tells only wins from losses; ties go left unless it says otherwise); the words
    /// may be joined by colons instead, as `c4 play` takes them ("lookahead:4:right"). Ctrl-C
    /// stops the search.
    ///
    /// Raises ValueError when the game is over or the level is none of these.
    #[pyo3(signature = (board, level = "perfect"))]
    fn choose(&mut self, py: Python<'_>, board: &Board, level: &str) -> PyResult<usize> {
        let chosen = parse_level(level).map_err(value_error)?;
        let game = &board.game;
        if game.outcome().is_over() {
            return Err(value_error(PerfectError::NoMove(game.outcome_summary())));
        }
        // A choice cut short by the first try's deadline is made again, beside the signals,
        // from the same random state: it does not depend on how long the first try had.
        let rng_before = self.rng.clone();
        let (solver, rng) = (&mut self.solver, &mut self.rng);
        let mut choice = py.detach(|| choose(game, chosen, Some(solver), rng, &quick_limits()));
        if choice.is_some_and(|c| c.cut_short.is_some() || c.is_fallback(chosen, game)) {
            *rng = rng_before;
            choice =
                beside_the_signals(py, |limits| choose(game, chosen, Some(solver), rng, limits))?;
        }
        Ok(choice
            .expect("a game in progress has a legal move")
            .column
            .index())
    }

    /// Every column's score (as `analyze`) for each of `boards`, in order, on `threads`
    /// threads (default: this solver's `threads`) with the GIL released: for labelling data
    /// sets. Each thread has a table of `table_mib` and this solver's book; this solver's own
    /// table is left as it was. A finished game's columns are all None, as `analyze` gives them.
    ///
    /// Raises ValueError, naming the board, when the solver does not play its rules; then
    /// nothing is searched.
    #[pyo3(signature = (boards, *, threads = None))]
    fn analyze_many(
        &self,
        py: Python<'_>,
        boards: Vec<PyRef<'_, Board>>,
        threads: Option<Int>,
    ) -> PyResult<Vec<Vec<Option<i8>>>> {
        let threads = match threads {
            Some(threads) => checked_threads(&threads)?,
            None => self.solver.threads(),
        };
        let named = |i: usize, e: PerfectError| PyValueError::new_err(format!("board {i}: {e}"));
        // The games in progress are searched; a finished one's row is known.
        let mut in_progress = Vec::new();
        let mut positions = Vec::new();
        for (i, board) in boards.iter().enumerate() {
            if finished_score(&board.game)
                .map_err(|e| named(i, e))?
                .is_none()
            {
                in_progress.push(i);
                positions.push(solver_position(&board.game).map_err(|e| named(i, e))?);
            }
        }
        let (table, book) = (self.table, self.solver.book().cloned());
        let scores = beside_the_signals(py, |limits| {
            analyze_many(&positions, threads, table, book, limits.stop.clone())
        })?
        .map_err(value_error)?;
        let mut rows: Vec<Vec<Option<i8>>> = boards
            .iter()
            .map(|board| vec![None; board.game.variant().width()])
            .collect();
        for (i, columns) in in_progress.into_iter().zip(scores) {
            rows[i] = values(columns);
        }
        Ok(rows)
    }
}
