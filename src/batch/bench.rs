//! The solver benchmark, `c4 bench`: benchmark files solved and timed, each answer checked
//! against the file's (`MOVES SCORE` lines, every column's score with `--analyze`, the table of
//! board sizes with `--sizes`), and the empty board's single long solve (`--empty`).

use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

use super::board::BatchBoard;
use super::error::LineError;
use super::line::{analysis_text, first_field, printable};
use super::sizes::SizeOutcome;
use super::table::solver;
use c4_core::built_in_book;
use c4_core::describe_io_error;
use c4_core::with_position;
use c4_core::Book;
use c4_core::Counting;
use c4_core::{read_at_most, SizeLimit};
use c4_core::{AnyPosition, Score, TableSize};

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
    /// A note on the table for standard error, said before the first search (a table picked
    /// for the board, not asked for).
    pub table_note: Option<String>,
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
    /// (`9x4 2nd 36 -1`), each board reported as it is solved.
    Sizes,
}

impl Default for BenchOptions {
    fn default() -> BenchOptions {
        BenchOptions {
            step: 1,
            limit: None,
            table_bits: TableSize::BATCH.bits(),
            table_note: None,
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

/// The most of a benchmark file read: a million positions, far more than a run could time, fit
/// in it.
const BENCH_FILE: SizeLimit = SizeLimit {
    bytes: 64 << 20,
    holds: "a benchmark file",
};

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
            let refused = |reason| BenchError::Read {
                path: file.display().to_string(),
                reason,
            };
            let bytes =
                read_at_most(file, BENCH_FILE).map_err(|e| refused(describe_io_error(&e)))?;
            String::from_utf8(bytes).map_err(|_| refused("the file is not UTF-8 text".into()))
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
}
