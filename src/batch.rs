//! Batch solving and the solver benchmark: move sequences in, scores out, over a reader and a
//! writer handed in; owns the line formats, not the search.
//!
//! Input, one position per line: 1-based column digits run together from the empty board
//! (`4453`); an empty line is the empty board. Anything after the first space or tab is ignored,
//! so benchmark files (`MOVES SCORE`) can be fed as they are. Output, one line per input line,
//! in order, never skipped:
//!
//! - [`BatchMode::Score`]: `MOVES SCORE`, the exact score from the side to move;
//! - [`BatchMode::Weak`]: `MOVES SIGN`, `1` (the side to move wins), `0` or `-1`;
//! - [`BatchMode::Analyze`]: `MOVES S1 S2 ... SW`, the score of each column for the side to move
//!   after playing it, `-` where the column is full or the game is over;
//! - an invalid line: `MOVES error: REASON`, e.g. `48 error: move 2: column 8 is off the board
//!   (columns 1-7)`.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::engine::perfect::{solver_position, SOLVER_CONNECT};
use crate::notation::play_moves;
use crate::rules::{Game, Variant};
use crate::solver::{Position, Solver, DEFAULT_TABLE_BITS};

/// The standard board the benchmark files are written for.
const BENCH_WIDTH: u32 = 7;
/// See [`BENCH_WIDTH`].
const BENCH_HEIGHT: u32 = 6;

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

/// Settings for [`run_batch_solve`].
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// What to write per position.
    pub mode: BatchMode,
    /// Board columns (at most 9, since columns are single digits).
    pub width: u32,
    /// Board rows.
    pub height: u32,
    /// Transposition table size, as a power of two of entries.
    pub table_bits: u32,
    /// Threads per exact search.
    pub threads: usize,
}

impl Default for BatchOptions {
    fn default() -> BatchOptions {
        BatchOptions {
            mode: BatchMode::Score,
            width: BENCH_WIDTH,
            height: BENCH_HEIGHT,
            table_bits: DEFAULT_TABLE_BITS,
            threads: 1,
        }
    }
}

/// Solves every line of `input` and writes one line per input line to `out`.
///
/// # Errors
/// Only I/O errors of `input` or `out`; a bad line becomes an error line.
pub fn run_batch_solve(
    input: impl BufRead,
    mut out: impl Write,
    opts: &BatchOptions,
) -> io::Result<()> {
    let mut solver = Solver::with_table_bits(opts.table_bits);
    solver.set_threads(opts.threads);
    for line in input.lines() {
        let line = line?;
        let moves = first_field(&line);
        match position_of(moves, opts.width, opts.height) {
            Err(error) => writeln!(out, "{moves} error: {error}")?,
            Ok(position) => match opts.mode {
                BatchMode::Score => writeln!(out, "{moves} {}", solver.solve(&position))?,
                BatchMode::Weak => {
                    writeln!(out, "{moves} {}", solver.solve_weak(&position).sign())?
                }
                BatchMode::Analyze => {
                    let scores: Vec<String> = solver
                        .analyze(&position)
                        .into_iter()
                        .map(|s| s.map_or_else(|| "-".to_string(), |s| s.to_string()))
                        .collect();
                    writeln!(out, "{moves} {}", scores.join(" "))?
                }
            },
        }
    }
    out.flush()
}

fn first_field(line: &str) -> &str {
    line.split([' ', '\t', '\r']).next().unwrap_or("")
}

/// The solver's position after a move sequence from the empty board, in the protocol's grammar
/// (`4453` on boards up to 9 wide); the error says which move failed and why.
pub fn position_of(moves: &str, width: u32, height: u32) -> Result<Position, String> {
    let tokens = Variant::default_tokens(2).map_err(|e| e.to_string())?;
    // The early draw rule is off: a drawn-out position is still one the solver can score.
    let variant = Variant::new(
        width as usize,
        height as usize,
        SOLVER_CONNECT,
        tokens,
        false,
    )
    .map_err(|e| e.to_string())?;
    let mut game = Game::new(variant);
    play_moves(&mut game, moves).map_err(|e| e.to_string())?;
    solver_position(&game).map_err(|e| e.to_string())
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
    /// Whether the solver consults the built-in opening book.
    pub book: bool,
}

impl Default for BenchOptions {
    fn default() -> BenchOptions {
        BenchOptions {
            step: 1,
            limit: None,
            table_bits: DEFAULT_TABLE_BITS,
            threads: 1,
            book: true,
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
    /// Lines whose score differed from the file's, or that did not parse, as written.
    pub mismatches: Vec<String>,
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

/// Solves the positions of benchmark files (7x6 lines `MOVES SCORE`), the table cleared before
/// each position outside the timing, and writes one summary line per file to `out`:
/// `FILE positions=N mean=µs max=µs nodes=MEAN exact=true|false`. With `progress`, a line
/// `FILE i/N` is rewritten there (with a carriage return) after each position, for terminals.
///
/// # Errors
/// A file cannot be read, or `out` fails.
pub fn run_bench(
    files: &[PathBuf],
    mut out: impl Write,
    opts: &BenchOptions,
    mut progress: Option<&mut dyn Write>,
) -> io::Result<BenchReport> {
    let mut solver = Solver::with_table_bits(opts.table_bits);
    solver.set_threads(opts.threads);
    if !opts.book {
        solver.set_book(None);
    }
    let mut report = BenchReport::default();
    for file in files {
        let text = std::fs::read_to_string(file)?;
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .step_by(opts.step.max(1))
            .take(opts.limit.unwrap_or(usize::MAX))
            .collect();
        let count = lines.len();
        let (mut total, mut max, mut nodes, mut positions) =
            (Duration::ZERO, Duration::ZERO, 0u64, 0);
        let mut mismatches = Vec::new();
        for line in lines {
            let mut fields = line.split_whitespace();
            let moves = fields.next().unwrap_or("");
            let expected = fields.next().and_then(|s| s.parse::<i8>().ok());
            let Ok(position) = position_of(moves, BENCH_WIDTH, BENCH_HEIGHT) else {
                mismatches.push(line.to_string());
                continue;
            };
            solver.reset();
            let start = Instant::now();
            let score = solver.solve(&position);
            let elapsed = start.elapsed();
            total += elapsed;
            max = max.max(elapsed);
            nodes += solver.nodes();
            positions += 1;
            if expected != Some(score.value()) {
                mismatches.push(format!("{line} (solved {score})"));
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
        report.sets.push(set);
    }
    Ok(report)
}

/// Solves the empty 7x6 board with a fresh table and writes its score, time, nodes, table size
/// and best column: the benchmark's longest single solve.
pub fn run_empty_board_bench(mut out: impl Write, opts: &BenchOptions) -> io::Result<()> {
    let mut solver = Solver::with_table_bits(opts.table_bits);
    solver.set_threads(opts.threads);
    if !opts.book {
        solver.set_book(None);
    }
    let position = Position::new(BENCH_WIDTH, BENCH_HEIGHT).map_err(io::Error::other)?;
    let start = Instant::now();
    let score = solver.solve(&position);
    let solved = start.elapsed();
    let nodes = solver.nodes();
    let (_, column) = solver.solve_best(&position);
    writeln!(
        out,
        "empty 7x6: score {score} in {:.2} s, {nodes} nodes, table {} MiB; best column {} \
         (found after {:.2} s in all)",
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
        run_batch_solve(input.as_bytes(), &mut out, &opts).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_line_gets_an_answer_in_order() {
        let out = batch("4455\n48\n1111111\n44x\n", BatchMode::Score);
        assert_eq!(
            out,
            "4455 18\n\
             48 error: move 2 (column 8): column 8 is off the board (columns 1-7)\n\
             1111111 error: move 7 (column 1): column 1 is full\n\
             44x error: 'x' is not a column: expected numbers 1-7 or letters a-g\n"
        );
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
