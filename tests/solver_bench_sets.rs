//! Exact scores on samples of the benchmark sets, kept in the repository as
//! `fixtures/bench/*.txt`, and of another solver's test files on other boards,
//! `fixtures/bench/9x5/` and `10x6/` (see `fixtures/bench/README.md` for where the lines come
//! from).

use std::path::PathBuf;

use c4::batch::{run_bench, BatchBoard, BenchOptions};
use c4_core::built_in_book;
use c4_core::Counting;

/// The samples and how many positions each holds.
const SAMPLES: [(&str, usize); 6] = [
    ("end-easy.txt", 50),
    ("middle-easy.txt", 50),
    ("begin-easy.txt", 50),
    ("middle-medium.txt", 50),
    ("begin-medium.txt", 40),
    ("begin-hard.txt", 5),
];

/// The samples of other boards whose positions take little time, each with its board and how
/// many positions it holds. Their columns count from 0. 9x5 fits the 64-bit bitboard, 10x6
/// needs the 128-bit one. (The opening samples take seconds each: `c4 bench` times them.)
const OTHER_BOARDS: [(&str, u32, u32, usize); 4] = [
    ("9x5/endgame_L1.txt", 9, 5, 20),
    ("9x5/midgame_L1.txt", 9, 5, 20),
    ("9x5/midgame_L2.txt", 9, 5, 20),
    ("10x6/midgame_L1.txt", 10, 6, 20),
];

/// Checks every sample with `threads` threads, with the built-in book or (`book` false)
/// without any: the sets start at ply 8, so the book answers many of their positions itself.
fn check_samples(threads: usize, book: bool) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench");
    for (file, count) in SAMPLES {
        let path = dir.join(file);
        let opts = BenchOptions {
            table_bits: 22,
            threads,
            book: if book { built_in_book() } else { None },
            ..BenchOptions::default()
        };
        let mut summary = Vec::new();
        let report = run_bench(&[path], &mut summary, &opts, None).expect("the set is readable");
        let set = &report.sets[0];
        assert_eq!(
            set.positions, count,
            "{file}: wrong number of positions read"
        );
        assert!(set.is_exact(), "{file}: wrong scores: {:?}", set.mismatches);
    }
}

/// Checks the samples of other boards with `threads` threads.
fn check_other_boards(threads: usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench");
    for (file, width, height, count) in OTHER_BOARDS {
        let opts = BenchOptions {
            table_bits: 22,
            threads,
            board: BatchBoard::new(width, height, Counting::FromZero).expect("a solver board"),
            ..BenchOptions::default()
        };
        let mut summary = Vec::new();
        let report =
            run_bench(&[dir.join(file)], &mut summary, &opts, None).expect("the set is readable");
        let set = &report.sets[0];
        assert_eq!(
            set.positions, count,
            "{file}: wrong number of positions read"
        );
        assert!(set.is_exact(), "{file}: wrong scores: {:?}", set.mismatches);
    }
}

#[test]
fn sampled_bench_positions_get_their_exact_scores() {
    check_samples(1, true);
    check_samples(1, false);
}

#[test]
fn samples_of_other_boards_get_their_exact_scores() {
    check_other_boards(1);
}

/// Helper threads write the shared table while the main thread reads it, and split the work
/// through the table of busy positions: the scores must not change. Without the book, the
/// medium and hard samples take more than enough nodes for helpers to start; three threads
/// (more than the development machine's two cores) also meet three at a time.
#[test]
fn more_threads_get_the_same_exact_scores() {
    check_samples(2, false);
    check_other_boards(2);
    check_samples(3, false);
    check_other_boards(3);
}
