//! Exact scores on samples of the shared benchmark sets (`../shared/bench/*.txt` beside the
//! repository); fails, rather than skips, when the sets are missing.

use std::path::PathBuf;

use c4::batch::{run_bench, BenchOptions};

/// The sample per file: `(file, every n-th line, how many lines)`.
const SAMPLES: [(&str, usize, usize); 6] = [
    ("end-easy.txt", 1, 50),
    ("middle-easy.txt", 1, 50),
    ("begin-easy.txt", 1, 50),
    ("middle-medium.txt", 1, 50),
    ("begin-medium.txt", 1, 40),
    ("begin-hard.txt", 30, 5),
];

fn bench_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench");
    assert!(
        dir.is_dir(),
        "the benchmark sets are missing: expected them in {} (clone the shared folder beside \
         the repository)",
        dir.display()
    );
    dir
}

fn check_samples(threads: usize) {
    let dir = bench_dir();
    for (file, step, limit) in SAMPLES {
        let path = dir.join(file);
        assert!(path.is_file(), "missing benchmark set {}", path.display());
        let opts = BenchOptions {
            step,
            limit: Some(limit),
            table_bits: 22,
            threads,
            ..BenchOptions::default()
        };
        let mut summary = Vec::new();
        let report = run_bench(&[path], &mut summary, &opts, None).expect("the set is readable");
        let set = &report.sets[0];
        assert_eq!(set.positions, limit, "{file}: too few positions read");
        assert!(set.is_exact(), "{file}: wrong scores: {:?}", set.mismatches);
    }
}

#[test]
fn sampled_bench_positions_get_their_exact_scores() {
    check_samples(1);
}

/// Helper threads write the shared table while the main thread reads it: the scores must not
/// change. The medium and hard samples take more than enough nodes for helpers to start.
#[test]
fn two_threads_get_the_same_exact_scores() {
    check_samples(2);
}
