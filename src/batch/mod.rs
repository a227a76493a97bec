//! Batch solving and the solver benchmark: move sequences in, scores out, over a reader and a
//! writer handed in; owns the line formats, not the search.
//!
//! Input, one position per line: column digits run together from the empty board of a
//! [`BatchBoard`] (`4453`; 1-based by default, 0-based as other solvers' test files have them,
//! up to 9 columns, or 10 from 0; letters `a`-`p` name columns on any board); an empty line is
//! the empty board. Anything after the first space or tab is ignored, so benchmark files
//! (`MOVES SCORE`) can be fed as they are. Output, one line per input line, in order, never
//! skipped (a checkpointed run asked to stop early answers the line it was searching and reads
//! no more):
//!
//! - [`BatchMode::Score`]: `MOVES SCORE`, the exact score from the side to move;
//! - [`BatchMode::Weak`]: `MOVES SIGN`, `1` (the side to move wins), `0` or `-1`;
//! - [`BatchMode::Analyze`]: `MOVES S1 S2 ... SW`, the score of each column for the side to move
//!   after playing it, `-` where the column is full or the game is over;
//! - an invalid line: `MOVES error: REASON`, e.g. `48 error: move 2 (column 8): the column is
//!   off the board (columns 1-7)`, with MOVES's control characters escaped.
//!
//! A sequence that ends the game is a position like any other: a won game scores as the loser
//! to move (`4455667 -18`), a full board 0, and analysis shows every column `-`.

use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::notation::Counting;
use crate::solver::book::Book;
use crate::solver::{with_position, AnyPosition, Score, DEFAULT_TABLE_BITS};
use crate::textio::book::built_in_book;
use crate::textio::files::open_regular;
use crate::textio::{describe, read_bounded_line};

mod board;
mod checkpointed;
mod error;
mod line;
mod sizes;
mod table;

use checkpointed::solve_checkpointed;
use line::{analysis_text, first_field, printable};
use table::{say_once, solver};

pub use board::BatchBoard;
pub use checkpointed::{Checkpointing, EarlyStop};
pub use error::{BoardError, LineError, MoveProblem};
pub use line::MAX_BATCH_LINE_BYTES;
pub use sizes::{SizeLineError, SizeOutcome};

/// What [`run_batch_solve`] writes for each position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchMode {
    /// The exact score.
    Score,
    /// Only who wins.
    Weak,
    /// The exact score of every column.
    Analyze,
}

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
    /// Threads per exact search.
    pub threads: usize,
    /// The opening book the solver consults: the built-in one by default, `None` for none.
    pub book: Option<Arc<Book>>,
    /// Where exact scores save their progress as they go, and resume from.
    pub checkpoint: Option<Checkpointing>,
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
            table_bits: DEFAULT_TABLE_BITS,
            threads,
            book,
            checkpoint: None,
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
/// on from the file's if it holds the same position (see [`solve_checkpointed`]); once its
/// [`EarlyStop`] is requested, the search under way saves and stops, its line says so, and no
/// more lines are read. Returns how many lines failed for their checkpoint.
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
    let mut solver = solver(
        opts.table_bits,
        opts.threads,
        opts.book.as_ref(),
        log.as_deref_mut(),
    )?;
    let mut table_note = opts.table_note.as_deref();
    while let Some(line) = read_bounded_line(&mut input, MAX_BATCH_LINE_BYTES)? {
        let text = String::from_utf8_lossy(&line.bytes);
        let moves = first_field(&text);
        let position = if line.cut {
            Err(LineError::TooLong)
        } else if std::str::from_utf8(&line.bytes).is_err() {
            Err(LineError::NotUtf8)
        } else {
            opts.board.position_of(moves)
        };
        // A checkpointed line says it once it knows that it searches.
        if position.is_ok() && !(opts.mode == BatchMode::Score && opts.checkpoint.is_some()) {
            say_once(&mut table_note, log.as_deref_mut());
        }
        let answer = position.and_then(|position| {
            with_position!(position, |position| match (opts.mode, &opts.checkpoint) {
                (BatchMode::Score, Some(plan)) => {
                    solve_checkpointed(
                        &mut solver,
                        &position,
                        plan,
                        &opts.board,
                        &mut table_note,
                        log.as_deref_mut(),
                    )
                    .map(|score| score.to_string())
                }
                (BatchMode::Score, None) => Ok(solver.solve(&position).to_string()),
                (BatchMode::Weak, _) => Ok(solver.solve_weak(&position).sign().to_string()),
                (BatchMode::Analyze, _) => Ok(analysis_text(&solver.analyze(&position))),
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

/// One line per number of stones played: `  ply=P positions=N p50=µs p90=µs max=µs`.
fn write_plies(out: &mut impl Write, set: &BenchSet) -> io::Result<()> {
    let mut plies: Vec<u32> = set.times.iter().map(|&(ply, _)| ply).collect();
    plies.sort_unstable();
    plies.dedup();
    for ply in plies {
        let mut times: Vec<Duration> = set
            .times
            .iter()
            .filter(|&&(p, _)| p == ply)
            .map(|&(_, t)| t)
            .collect();
        times.sort_unstable();
        let micros = |t: Duration| t.as_secs_f64() * 1e6;
        writeln!(
            out,
            "  ply={ply} positions={} p50={:.2}µs p90={:.2}µs max={:.2}µs",
            times.len(),
            micros(percentile(&times, 50)),
            micros(percentile(&times, 90)),
            micros(times[times.len() - 1]),
        )?;
    }
    Ok(())
}

/// The nearest-rank `p`-th percentile of sorted, non-empty `times`.
fn percentile(times: &[Duration], p: usize) -> Duration {
    let rank = (p * times.len()).div_ceil(100).max(1);
    times[rank - 1]
}

/// Where [`run_bench`] writes what is not its results.
pub struct BenchLog<'a> {
    /// Notes, and the progress when asked for.
    pub to: &'a mut dyn Write,
    /// Whether to write the progress: a line rewritten after each position, for terminals.
    pub progress: bool,
}

/// Settings for [`run_bench`].
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Use every `step`-th line of each file (1: all of them).
    pub step: usize,
    /// Stop after this many positions per file.
    pub limit: Option<usize>,
    /// Transposition table size, as a power of two of entries.
    pub table_bits: u32,
    /// Threads per search.
    pub threads: usize,
    /// What is timed per position.
    pub task: BenchTask,
    /// The opening book the solver consults: the built-in one by default, `None` for none.
    pub book: Option<Arc<Book>>,
    /// The board the files' moves are played on.
    pub board: BatchBoard,
}

/// What [`run_bench`] times per position, and so what its files hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchTask {
    /// The exact score: lines `MOVES SCORE`.
    Solve,
    /// Every column's exact score, as a GUI shows them: lines `MOVES S1 ... S7` as
    /// `c4 solve --analyze` writes them (`-` for a full column); reported per ply as well.
    Analyze,
    /// The exact score of empty boards of every size: lines of a [`SizeOutcome`] table
    /// (`9x4 2nd 36`), each board reported as it is solved.
    Sizes,
}

impl Default for BenchOptions {
    fn default() -> BenchOptions {
        BenchOptions {
            step: 1,
            limit: None,
            table_bits: DEFAULT_TABLE_BITS,
            threads: 1,
            task: BenchTask::Solve,
            book: built_in_book(),
            board: BatchBoard::standard(),
        }
    }
}

/// The benchmark result of one file.
#[derive(Debug, Clone)]
pub struct BenchSet {
    /// The file read.
    pub file: PathBuf,
    /// Positions solved.
    pub positions: usize,
    /// Mean solve time per position.
    pub mean: Duration,
    /// Longest solve time.
    pub max: Duration,
    /// Mean nodes searched per position.
    pub mean_nodes: f64,
    /// Lines whose score differed from the file's, or that did not parse, as written (control
    /// characters escaped).
    pub mismatches: Vec<String>,
    /// Each position's stones played and time, in file order.
    pub times: Vec<(u32, Duration)>,
}

impl BenchSet {
    /// Whether every score matched the file.
    pub fn is_exact(&self) -> bool {
        self.mismatches.is_empty()
    }
}

/// The benchmark result of every file.
#[derive(Debug, Clone, Default)]
pub struct BenchReport {
    /// One entry per file, in the order given.
    pub sets: Vec<BenchSet>,
}

/// Why [`run_bench`] stopped.
#[derive(Debug, Error)]
pub enum BenchError {
    /// A benchmark file cannot be read; nothing was solved.
    #[error("cannot read {path}: {reason}")]
    Read {
        /// The file as given.
        path: String,
        /// What went wrong, in words.
        reason: String,
    },
    /// Writing the summary or the progress failed.
    #[error(transparent)]
    Output(#[from] io::Error),
}

/// Solves the positions of benchmark files (lines `MOVES SCORE` on the options' board, 7x6 by
/// default, or what the options' [`BenchTask`] reads; a size table's lines starting with `#` are
/// comments), the
/// table cleared before each position outside the timing, and writes (and flushes) one summary
/// line per file to `out`: `FILE positions=N mean=µs max=µs nodes=MEAN exact=true|false`; for
/// [`BenchTask::Sizes`], a line `  WxH score=S time=SECONDSs nodes=N exact=true|false` before
/// it as each board is solved. On `log`, if any, goes the note of which pages a table of 1 GiB
/// or more lies on and, when [`BenchLog::progress`] is set (for terminals), a line `FILE i/N`
/// rewritten (with a carriage return) after each position. Every file is read before the first
/// position is solved.
///
/// # Errors
/// A file cannot be read (before anything is solved), or `out` or the log fails.
pub fn run_bench(
    files: &[PathBuf],
    mut out: impl Write,
    opts: &BenchOptions,
    mut log: Option<BenchLog>,
) -> Result<BenchReport, BenchError> {
    let texts = files
        .iter()
        .map(|file| {
            let mut text = String::new();
            open_regular(file)
                .and_then(|mut opened| opened.read_to_string(&mut text))
                .map_err(|e| BenchError::Read {
                    path: file.display().to_string(),
                    reason: describe(&e),
                })?;
            Ok(text)
        })
        .collect::<Result<Vec<String>, BenchError>>()?;
    let notes = log.as_mut().map(|log| &mut *log.to);
    let mut solver = solver(opts.table_bits, opts.threads, opts.book.as_ref(), notes)?;
    let mut progress = log.and_then(|log| log.progress.then_some(log.to));
    let mut report = BenchReport::default();
    for (file, text) in files.iter().zip(&texts) {
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .filter(|l| opts.task != BenchTask::Sizes || !l.trim_start().starts_with('#'))
            .step_by(opts.step.max(1))
            .take(opts.limit.unwrap_or(usize::MAX))
            .collect();
        let count = lines.len();
        let (mut total, mut max, mut nodes, mut positions) =
            (Duration::ZERO, Duration::ZERO, 0u64, 0);
        let mut mismatches = Vec::new();
        let mut times = Vec::with_capacity(count);
        for line in lines {
            let (position, expected) = match bench_case(line, opts) {
                Ok(case) => case,
                Err(e) => {
                    mismatches.push(format!("{} (not a position: {e})", printable(line)));
                    continue;
                }
            };
            solver.reset();
            let start = Instant::now();
            let answer = with_position!(position, |position| match opts.task {
                BenchTask::Solve | BenchTask::Sizes => Answer::Score(solver.solve(&position)),
                BenchTask::Analyze => Answer::Columns(solver.analyze(&position)),
            });
            let elapsed = start.elapsed();
            total += elapsed;
            max = max.max(elapsed);
            nodes += solver.nodes();
            positions += 1;
            times.push((position.moves_played(), elapsed));
            let exact = answer.meets(&expected);
            if !exact {
                mismatches.push(format!("{} (solved {answer})", printable(line)));
            }
            if let Expected::Size(size) = expected {
                writeln!(
                    out,
                    "  {}x{} score={answer} time={:.2}s nodes={} exact={exact}",
                    size.width,
                    size.height,
                    elapsed.as_secs_f64(),
                    solver.nodes()
                )?;
                out.flush()?;
            }
            if let Some(p) = progress.as_mut() {
                write!(p, "\r{} {positions}/{count}", file.display())?;
                p.flush()?;
            }
        }
        if let Some(p) = progress.as_mut() {
            write!(p, "\r\x1b[K")?;
        }
        let set = BenchSet {
            file: file.clone(),
            positions,
            mean: total / positions.max(1) as u32,
            max,
            mean_nodes: nodes as f64 / positions.max(1) as f64,
            mismatches,
            times,
        };
        writeln!(
            out,
            "{} positions={} mean={:.2}µs max={:.2}µs nodes={:.1} exact={}",
            set.file.display(),
            set.positions,
            set.mean.as_secs_f64() * 1e6,
            set.max.as_secs_f64() * 1e6,
            set.mean_nodes,
            set.is_exact()
        )?;
        if opts.task == BenchTask::Analyze {
            write_plies(&mut out, &set)?;
        }
        out.flush()?;
        report.sets.push(set);
    }
    Ok(report)
}

/// What a benchmark line says its position's answer is.
enum Expected {
    /// The answer's text, as [`Answer`] writes it.
    Text(String),
    /// An empty board's outcome.
    Size(SizeOutcome),
}

/// What the solver answered for a benchmark position.
enum Answer {
    /// The position's exact score.
    Score(Score),
    /// Every column's.
    Columns(Vec<Option<Score>>),
}

impl Answer {
    fn meets(&self, expected: &Expected) -> bool {
        match (expected, self) {
            (Expected::Size(size), Answer::Score(score)) => size.is_met_by(*score),
            (Expected::Text(text), answer) => *text == answer.to_string(),
            (Expected::Size(_), Answer::Columns(_)) => false,
        }
    }
}

impl fmt::Display for Answer {
    /// The score, or the columns' as [`analysis_text`] writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Score(score) => write!(f, "{score}"),
            Answer::Columns(scores) => f.write_str(&analysis_text(scores)),
        }
    }
}

/// The position of a benchmark line and what the line says of it, for the options' task.
fn bench_case(line: &str, opts: &BenchOptions) -> Result<(AnyPosition, Expected), LineError> {
    if opts.task == BenchTask::Sizes {
        let size = SizeOutcome::parse(line)?;
        let board = BatchBoard::new(size.width, size.height, Counting::FromOne)?;
        return Ok((board.position_of("")?, Expected::Size(size)));
    }
    let moves = first_field(line);
    let expected = line[moves.len()..]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    Ok((opts.board.position_of(moves)?, Expected::Text(expected)))
}

/// Solves the empty board of the options (7x6 by default) with a fresh table and writes its
/// score, time, nodes, table size and best column: the benchmark's longest single solve. On
/// `log`, if any, goes the note of which pages a table of 1 GiB or more lies on.
pub fn run_empty_board_bench(
    mut out: impl Write,
    opts: &BenchOptions,
    log: Option<&mut dyn Write>,
) -> io::Result<()> {
    let mut solver = solver(opts.table_bits, opts.threads, opts.book.as_ref(), log)?;
    let (width, height) = (opts.board.width(), opts.board.height());
    let position = AnyPosition::new(width, height).map_err(io::Error::other)?;
    let start = Instant::now();
    let (score, solved, nodes, column) = with_position!(position, |position| {
        let score = solver.solve(&position);
        let (solved, nodes) = (start.elapsed(), solver.nodes());
        let (_, column) = solver.solve_best(&position);
        (score, solved, nodes, column)
    });
    writeln!(
        out,
        "empty {width}x{height}: score {score} in {:.2} s, {nodes} nodes, table {} MiB; best \
         column {} (found after {:.2} s in all)",
        solved.as_secs_f64(),
        solver.table_bytes() >> 20,
        column.map_or(0, |c| c + 1),
        start.elapsed().as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn analyze_bench_checks_every_column_and_reports_each_ply() {
        let file = std::env::temp_dir().join(format!("c4-analyze-bench-{}", std::process::id()));
        // Two lines of fixtures/bench/analyze/plies.txt, then one with a wrong score.
        let right = "65643664554511644574 -11 -11 -11 - -3 -11 -11\n\
                     4455 -4 -3 18 2 2 18 -3\n";
        std::fs::write(&file, format!("{right}4455 -4 -3 18 2 2 17 -3\n")).unwrap();
        let opts = BenchOptions {
            task: BenchTask::Analyze,
            table_bits: 18,
            ..BenchOptions::default()
        };
        let mut out = Vec::new();
        let report = run_bench(std::slice::from_ref(&file), &mut out, &opts, None).unwrap();
        std::fs::remove_file(&file).unwrap();
        let set = &report.sets[0];
        assert_eq!(set.positions, 3);
        assert_eq!(
            set.mismatches,
            ["4455 -4 -3 18 2 2 17 -3 (solved -4 -3 18 2 2 18 -3)"]
        );
        let out = String::from_utf8(out).unwrap();
        let plies: Vec<String> = out
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("ply="))
            .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
            .collect();
        assert_eq!(plies, ["4 positions=2", "20 positions=1"], "{out}");
    }

    #[test]
    fn weak_mode_writes_the_sign_and_analyze_every_column() {
        assert_eq!(batch("4455 18\n", BatchMode::Weak), "4455 1\n");
        let out = batch("111111\n", BatchMode::Analyze);
        let fields: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(fields.len(), 8, "{out}");
        assert_eq!(&fields[..2], ["111111", "-"]);
    }
}
