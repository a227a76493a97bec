//! Batch solving, `c4 solve`: every line of a reader answered on a writer, in order, in the
//! formats the module's documentation gives; an exact score with a checkpoint is searched by
//! `checkpointed.rs`.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

use super::board::BatchBoard;
use super::checkpointed::{solve_checkpointed, Checkpointing};
use super::error::LineError;
use super::line::{
    analysis_text, at_least_text, first_field, printable, unread_after_moves, BatchMode,
    MAX_BATCH_LINE_BYTES,
};
use super::shared_table::{open_shared_table, SharedTableError, HEADER_BYTES};
use super::table::{configured, say_once, solver};
use c4_core::built_in_book;
use c4_core::read_bounded_line;
use c4_core::with_position;
use c4_core::Book;
use c4_core::{Bitboard, Limits, Position, Score, Solver, SolverError, TableSize};

/// What [`run_batch_solve`] tells its caller beside the lines it wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BatchSummary {
    /// Lines answered with an error because their checkpoint could not be used
    /// ([`LineError::is_unusable_checkpoint`]).
    pub checkpoint_failures: usize,
}

/// Settings for [`run_batch_solve`].
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// What to write per position.
    pub mode: BatchMode,
    /// The board the lines' moves are played on.
    pub board: BatchBoard,
    /// Transposition table size, as a power of two of entries.
    pub table_bits: u32,
    /// A larger table, as a power of two of entries, for a table picked for the board rather
    /// than asked for: each search starts in the table of `table_bits`, and the first that takes
    /// more than 2^20 nodes there starts again in this one, which the later lines
    /// then use, so that a small search never pays for the first writes of a large table's
    /// pages. Left out with a checkpoint (its saves name their table).
    pub larger_table_bits: Option<u32>,
    /// Threads per exact search.
    pub threads: usize,
    /// Whether every search folds mirror images in the table
    /// ([`Solver::set_fold_mirrors`]).
    pub fold_mirrors: bool,
    /// The opening book the solver consults: the built-in one by default, `None` for none.
    pub book: Option<Arc<Book>>,
    /// Where exact scores save their progress as they go, and resume from.
    pub checkpoint: Option<Checkpointing>,
    /// The folder of a table shared with the other runs of this machine that name it (see
    /// `shared_table.rs`); the table is then taken at once, at `table_bits`.
    pub shared_table: Option<PathBuf>,
    /// A line for the log before the first search, when the table suits the board poorly: left
    /// unsaid when no line needs a search (a finished checkpoint answers without one).
    pub table_note: Option<String>,
}

impl BatchOptions {
    /// The standard board and table, with `book`. (Unlike `..Default::default()`, this never
    /// touches the built-in book when another or none is chosen.)
    pub fn new(mode: BatchMode, threads: usize, book: Option<Arc<Book>>) -> BatchOptions {
        BatchOptions {
            mode,
            board: BatchBoard::standard(),
            table_bits: TableSize::BATCH.bits(),
            larger_table_bits: None,
            threads,
            fold_mirrors: false,
            book,
            checkpoint: None,
            shared_table: None,
            table_note: None,
        }
    }
}

impl Default for BatchOptions {
    fn default() -> BatchOptions {
        BatchOptions::new(BatchMode::Score, 1, built_in_book())
    }
}

/// Solves every line of `input` and writes one line per input line to `out`, flushing each
/// answer as soon as it is written. With the options' [`Checkpointing`], an exact score saves
/// its progress to the file at the interval asked for, with a line on `log` each time, and goes
/// on from the file's if it holds the same position (see `checkpointed::solve_checkpointed`); once its
/// [`EarlyStop`](super::checkpointed::EarlyStop) is requested, the search under way saves and
/// stops, its line says so, and no more lines are read. Returns how many lines failed for their
/// checkpoint.
///
/// # Errors
/// Only I/O errors of `input` or `out`; a bad line (not a position, not UTF-8, longer than
/// [`MAX_BATCH_LINE_BYTES`]) or a checkpoint that cannot be used becomes an error line.
pub fn run_batch_solve(
    mut input: impl BufRead,
    mut out: impl Write,
    opts: &BatchOptions,
    mut log: Option<&mut dyn Write>,
) -> io::Result<BatchSummary> {
    let mut summary = BatchSummary::default();
    let mut solver = batch_solver(opts.table_bits, opts, log.as_deref_mut())?;
    let mut table_note = opts.table_note.as_deref();
    let mut larger_table_bits = opts
        .larger_table_bits
        .filter(|_| opts.checkpoint.is_none() && opts.shared_table.is_none());
    while let Some(line) = read_bounded_line(&mut input, MAX_BATCH_LINE_BYTES)? {
        let text = String::from_utf8_lossy(&line.bytes);
        let moves = first_field(&text);
        let position = if line.cut {
            Err(LineError::TooLong)
        } else if std::str::from_utf8(&line.bytes).is_err() {
            Err(LineError::NotUtf8)
        } else if let Some(rest) = unread_after_moves(&text) {
            Err(LineError::AfterMoves(printable(rest)))
        } else {
            opts.board.position_of(moves).and_then(|position| {
                Ok((
                    opts.mode.of_line(&text).ok_or(LineError::NoBound)?,
                    position,
                ))
            })
        };
        // A checkpointed line says it once it knows that it searches.
        if position.is_ok() && !(opts.mode.is_checkpointed() && opts.checkpoint.is_some()) {
            say_once(&mut table_note, log.as_deref_mut());
        }
        let answer = position.and_then(|(mode, position)| {
            with_position!(position, |position| match (mode, &opts.checkpoint) {
                (mode @ (BatchMode::Score | BatchMode::AtLeast(_)), Some(plan)) => {
                    solve_checkpointed(
                        &mut solver,
                        &position,
                        mode,
                        plan,
                        &opts.board,
                        &mut table_note,
                        log.as_deref_mut(),
                    )
                }
                (mode, _) => Ok(answer(
                    &mut solver,
                    &mut larger_table_bits,
                    &position,
                    mode,
                    opts,
                    log.as_deref_mut(),
                )),
            })
        });
        match answer {
            Err(error) => {
                summary.checkpoint_failures += usize::from(error.is_unusable_checkpoint());
                writeln!(out, "{} error: {error}", printable(moves))?;
            }
            Ok(answer) => writeln!(out, "{moves} {answer}")?,
        }
        // A filter in a pipeline answers each line as soon as it can, not when the input ends.
        out.flush()?;
        if opts
            .checkpoint
            .as_ref()
            .is_some_and(|plan| plan.stop.is_requested())
        {
            break;
        }
    }
    Ok(summary)
}

/// The solver of a run of `opts` on a table of 2^`table_bits` entries: the one in
/// [`BatchOptions::shared_table`]'s folder if it names one (a table of its own, said on `log`,
/// when that file's file system has no room for it).
///
/// # Errors
/// The system refused the table's memory, or the shared table's file cannot be used.
fn batch_solver(
    table_bits: u32,
    opts: &BatchOptions,
    mut log: Option<&mut (impl Write + ?Sized)>,
) -> io::Result<Solver> {
    let shared = opts.shared_table.as_deref().map(|path| {
        open_shared_table(path, &opts.board, table_bits, opts.fold_mirrors).and_then(|file| {
            Solver::try_with_shared_table(table_bits, &file, HEADER_BYTES).map_err(|e| {
                SharedTableError::Io {
                    path: path.to_path_buf(),
                    source: io::Error::other(e),
                }
            })
        })
    });
    let mut solver = match shared {
        Some(Ok(solver)) => configured(solver, opts.threads, opts.book.as_ref(), log),
        Some(Err(no_room)) if no_room.is_no_room() => {
            if let Some(log) = log.as_deref_mut() {
                let _ = writeln!(log, "c4 solve: {no_room}");
            }
            solver(table_bits, opts.threads, opts.book.as_ref(), log)?
        }
        Some(Err(refused)) => return Err(io::Error::other(refused)),
        None => solver(table_bits, opts.threads, opts.book.as_ref(), log)?,
    };
    solver.set_fold_mirrors(opts.fold_mirrors);
    Ok(solver)
}

/// The nodes a search takes in the table a run starts with before it starts again in the larger
/// one picked for the board ([`BatchOptions::larger_table_bits`]): about 70 ms of search, past
/// which the first writes of a large table's pages (20 ms for 256 MiB) are small beside the search.
const GROWTH_NODES: u64 = 1 << 20;

/// The answer of `mode` for `position`, searched in `solver`. While `larger` holds the bits of a
/// larger table, the search is limited to [`GROWTH_NODES`] nodes; one that goes past them
/// replaces `solver` by one on the larger table (`larger` is then spent) and starts again there.
/// A larger table the system refuses is given up, and the search goes on in the one it has.
fn answer<B: Bitboard>(
    solver: &mut Solver,
    larger: &mut Option<u32>,
    position: &Position<B>,
    mode: BatchMode,
    opts: &BatchOptions,
    log: Option<&mut (impl Write + ?Sized)>,
) -> String {
    if let Some(bits) = *larger {
        let first_nodes = Limits {
            max_nodes: Some(GROWTH_NODES),
            ..Limits::default()
        };
        match answer_within(solver, position, mode, &first_nodes) {
            Err(SolverError::Interrupted { .. }) => {}
            answered => return answered.expect("only the node limit stops a search"),
        }
        *larger = None;
        if let Ok(grown) = batch_solver(bits, opts, log) {
            *solver = grown;
        }
    }
    answer_within(solver, position, mode, &Limits::default())
        .expect("a search without limits always finishes")
}

/// The answer of `mode` for `position`, unless `limits` stop its search first.
fn answer_within<B: Bitboard>(
    solver: &mut Solver,
    position: &Position<B>,
    mode: BatchMode,
    limits: &Limits,
) -> Result<String, SolverError> {
    Ok(match mode {
        BatchMode::Score => solver.solve_within(position, limits)?.to_string(),
        BatchMode::Weak => solver
            .solve_weak_within(position, limits)?
            .sign()
            .to_string(),
        BatchMode::Analyze => analysis_text(&solver.analyze_within(position, limits)?),
        BatchMode::AtLeast(bound) => {
            let below = Score::new(bound.value().saturating_sub(1));
            let at_most_below = solver.is_at_most_within(position, below, limits)?;
            at_least_text(bound, !at_most_below)
        }
        BatchMode::AtLeastOfLine => unreachable!("each line's bound is read before its search"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use c4_core::Counting;

    fn batch(input: &str, mode: BatchMode) -> String {
        let mut out = Vec::new();
        let opts = BatchOptions {
            mode,
            table_bits: 18,
            ..BatchOptions::default()
        };
        run_batch_solve(input.as_bytes(), &mut out, &opts, None).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_line_gets_an_answer_in_order() {
        let out = batch(
            "4455\n48\n1111111\n44x\n4455667\n44556671\n",
            BatchMode::Score,
        );
        assert_eq!(
            out,
            "4455 18\n\
             48 error: move 2 (column 8): the column is off the board (columns 1-7)\n\
             1111111 error: move 7 (column 1): the column is full\n\
             44x error: 'x' is not a column: expected a column number or a letter from a to p\n\
             4455667 -18\n\
             44556671 error: move 8 (column 1): the game is already over (x won)\n"
        );
    }

    #[test]
    fn a_score_may_follow_the_moves_and_nothing_else() {
        assert_eq!(
            batch("4455 18\n4455\t-3\n4 4 5\n4455 x\n", BatchMode::Score),
            "4455 18\n\
             4455 18\n\
             4 error: cannot read '4 5' after the moves: write a line's moves as one word (445), then at most a score\n\
             4455 error: cannot read 'x' after the moves: write a line's moves as one word (445), then at most a score\n"
        );
    }

    #[test]
    fn a_finished_game_is_answered_with_its_result() {
        // x connects with its 4th stone on ply 7: the loser to move scores -(22 - 4).
        assert_eq!(batch("4455667\n", BatchMode::Weak), "4455667 -1\n");
        assert_eq!(
            batch("4455667\n", BatchMode::Analyze),
            "4455667 - - - - - - -\n"
        );
        // A full board with no line is a draw.
        let opts = BatchOptions {
            board: BatchBoard::new(4, 1, Counting::FromOne).unwrap(),
            table_bits: 18,
            ..BatchOptions::default()
        };
        let mut out = Vec::new();
        run_batch_solve(&b"1234\n"[..], &mut out, &opts, None).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "1234 0\n");
    }

    #[test]
    fn lines_that_are_not_text_or_too_long_get_an_error_line_too() {
        let mut input = b"4455\n\xff4\n".to_vec();
        input.extend(std::iter::repeat_n(b'4', MAX_BATCH_LINE_BYTES + 1));
        input.extend(b"\n444444\n");
        let mut out = Vec::new();
        let opts = BatchOptions {
            table_bits: 18,
            ..BatchOptions::default()
        };
        run_batch_solve(&input[..], &mut out, &opts, None).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(lines[0], "4455 18");
        assert_eq!(lines[1], "\u{fffd}4 error: the line is not UTF-8 text");
        assert!(
            lines[2].ends_with("4 error: the line is longer than 1024 bytes"),
            "{}",
            lines[2]
        );
        assert_eq!(lines[3], "444444 1");
        let out = batch("44\u{1b}[2J55\n", BatchMode::Score);
        assert!(out.starts_with("44\\u{1b}[2J55 error: "), "{out}");
        // Nor can a line pass for two to a reader that ends lines at U+2028.
        let out = batch("44\u{2028}4455 18\n", BatchMode::Score);
        assert!(out.starts_with("44\\u{2028}4455 error: "), "{out}");
    }

    #[test]
    fn weak_mode_writes_the_sign_and_analyze_every_column() {
        assert_eq!(batch("4455 18\n", BatchMode::Weak), "4455 1\n");
        let out = batch("111111\n", BatchMode::Analyze);
        let fields: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(fields.len(), 8, "{out}");
        assert_eq!(&fields[..2], ["111111", "-"]);
    }

    #[test]
    fn at_least_writes_the_bound_asked_about_and_whether_the_score_reaches_it() {
        let at_least = |bound| batch("4455\n", BatchMode::AtLeast(Score::new(bound)));
        assert_eq!(at_least(18), "4455 >=18\n");
        assert_eq!(at_least(19), "4455 <19\n");
        assert_eq!(at_least(-5), "4455 >=-5\n");
        // A finished game: the loser to move scores -18.
        let finished = batch("4455667\n", BatchMode::AtLeast(Score::new(-18)));
        assert_eq!(finished, "4455667 >=-18\n");
    }

    #[test]
    fn at_least_of_line_reads_each_lines_bound_and_refuses_a_line_without_one() {
        let out = batch(
            "4455 18\n4455\t19\n4455 -5\n4455\n4455 65\n44x 3\n4455 18 1\n",
            BatchMode::AtLeastOfLine,
        );
        assert_eq!(
            out,
            "4455 >=18\n\
             4455 <19\n\
             4455 >=-5\n\
             4455 error: expected a bound from -64 to 64 after the moves (MOVES B), as --at-least line reads each line\n\
             4455 error: expected a bound from -64 to 64 after the moves (MOVES B), as --at-least line reads each line\n\
             44x error: 'x' is not a column: expected a column number or a letter from a to p\n\
             4455 error: cannot read '18 1' after the moves: write a line's moves as one word (445), then at most a score\n"
        );
    }

    #[test]
    fn a_search_that_outgrows_the_first_table_starts_again_in_the_larger_one() {
        // 5x5 from empty takes about 120k nodes: it stays in the small table. 4x8 takes about
        // 2.1M, past GROWTH_NODES: it is searched again in the larger table, which stays.
        let mut solver = super::solver(16, 1, None, None::<&mut Vec<u8>>).unwrap();
        let small_bytes = solver.table_bytes();
        let mut larger = Some(20);
        let opts = BatchOptions::new(BatchMode::Score, 1, None);
        let score = |solver: &mut Solver, larger: &mut Option<u32>, width, height| {
            let position = Position::<u64>::new(width, height).unwrap();
            answer(
                solver,
                larger,
                &position,
                BatchMode::Score,
                &opts,
                None::<&mut Vec<u8>>,
            )
        };
        assert_eq!(score(&mut solver, &mut larger, 5, 5), "0");
        assert_eq!((larger, solver.table_bytes()), (Some(20), small_bytes));
        assert_eq!(score(&mut solver, &mut larger, 4, 8), "0");
        assert_eq!(larger, None);
        assert!(solver.table_bytes() > small_bytes);
        // Weak and every column's answers grow the same way.
        let mut solver = super::solver(16, 1, None, None::<&mut Vec<u8>>).unwrap();
        let mut larger = Some(20);
        let position = Position::<u64>::new(4, 8).unwrap();
        let weak = answer(
            &mut solver,
            &mut larger,
            &position,
            BatchMode::Weak,
            &opts,
            None::<&mut Vec<u8>>,
        );
        assert_eq!((weak.as_str(), larger), ("0", None));
    }
}
