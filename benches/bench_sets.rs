//! The solver benchmark over the shared bench sets: `cargo bench --bench bench_sets -- [--step N]
//! [--limit N] [--bits N] [--empty] FILE...`; prints one summary line per file, and with
//! `--empty` the solve of the empty 7x6 board.

use std::path::PathBuf;

use std::time::Instant;

use c4::batch::{run_bench, BenchOptions};
use c4::solver::{Position, Solver};

fn main() -> std::io::Result<()> {
    let mut opts = BenchOptions::default();
    let mut files = Vec::new();
    let mut empty = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = || args.next().and_then(|v| v.parse::<usize>().ok());
        match arg.as_str() {
            "--step" => opts.step = number().expect("--step takes a number"),
            "--limit" => opts.limit = number(),
            "--bits" => opts.table_bits = number().expect("--bits takes a number") as u32,
            "--empty" => empty = true,
            "--bench" => {}
            file => files.push(PathBuf::from(file)),
        }
    }
    let report = run_bench(&files, std::io::stdout().lock(), &opts, None)?;
    for set in &report.sets {
        for line in set.mismatches.iter().take(5) {
            eprintln!("mismatch in {}: {line}", set.file.display());
        }
    }
    if empty {
        let mut solver = Solver::with_table_bits(opts.table_bits);
        let position = Position::new(7, 6).expect("7x6 fits");
        let start = Instant::now();
        let score = solver.solve(&position);
        let solved = start.elapsed();
        let nodes = solver.nodes();
        let (_, column) = solver.solve_best(&position);
        println!(
            "empty 7x6: score {score} in {:.2} s, {nodes} nodes, table {} MiB; best column {} \
             (found after {:.2} s in all)",
            solved.as_secs_f64(),
            solver.table_bytes() >> 20,
            column.map_or(0, |c| c + 1),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
