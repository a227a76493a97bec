//! The solver benchmark over the shared bench sets: `cargo bench --bench bench_sets -- [--step N]
//! [--limit N] [--bits N] FILE...`; prints one summary line per file.

use std::path::PathBuf;

use c4::batch::{run_bench, BenchOptions};

fn main() -> std::io::Result<()> {
    let mut opts = BenchOptions::default();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = || args.next().and_then(|v| v.parse::<usize>().ok());
        match arg.as_str() {
            "--step" => opts.step = number().expect("--step takes a number"),
            "--limit" => opts.limit = number(),
            "--bits" => opts.table_bits = number().expect("--bits takes a number") as u32,
            "--bench" => {}
            file => files.push(PathBuf::from(file)),
        }
    }
    let report = run_bench(&files, std::io::stdout().lock(), &opts)?;
    for set in &report.sets {
        for line in set.mismatches.iter().take(5) {
            eprintln!("mismatch in {}: {line}", set.file.display());
        }
    }
    Ok(())
}
