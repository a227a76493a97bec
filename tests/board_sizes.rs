//! The known outcome of Connect Four on every board size (`fixtures/sizes/outcomes.txt`, from
//! Tromp's and Steininger's results tables, with c4's own scores): the table agrees with itself,
//! and the empty boards the tests have time for are solved again.

use std::path::PathBuf;

use c4::batch::SizeOutcome;
use c4::solver::{Position, Solver};
use c4::textio::book::built_in_book;

/// The board with width + height <= 13 that takes as long as the 20 others together (37 s in
/// the test build, 22 s in the release build): it has a test of its own, so that the two run
/// side by side.
const SLOWEST: &str = "8x5";

fn outcomes() -> Vec<SizeOutcome> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/sizes/outcomes.txt");
    let text = std::fs::read_to_string(path).expect("the table is readable");
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| SizeOutcome::parse(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect()
}

#[test]
fn the_table_lists_every_board_it_names() {
    let sizes = outcomes();
    assert_eq!(sizes.len(), 52);
    // Every board with width + height <= 13 comes first.
    let small = sizes
        .iter()
        .take_while(|s| s.width + s.height <= 13)
        .count();
    assert_eq!(small, 21);
}

#[test]
fn every_score_c4_found_is_the_published_outcome() {
    let sizes = outcomes();
    for size in &sizes {
        if let Some(score) = size.solved {
            assert!(size.is_published_outcome(score), "{size:?}");
        }
    }
    // Every board with width + height <= 14 has been solved here (docs/sizes.md).
    let unsolved: Vec<String> = sizes
        .iter()
        .filter(|s| s.width + s.height <= 14 && s.solved.is_none())
        .map(|s| format!("{}x{}", s.width, s.height))
        .collect();
    assert!(unsolved.is_empty(), "{unsolved:?}");
}

/// Solves the empty board of every size with width + height <= 13 that `wanted` takes (by its
/// name, `9x4`), checks its outcome, last move and the score recorded for it, and gives how many
/// it solved.
fn check_small_boards(wanted: impl Fn(&str) -> bool) -> usize {
    let mut solver = Solver::with_table_bits(22);
    // The built-in book knows 7x6 (a search of its own would take a minute in the test build).
    solver.set_book(built_in_book());
    let mut solved = 0;
    for size in outcomes() {
        let name = format!("{}x{}", size.width, size.height);
        if size.width + size.height > 13 || !wanted(&name) {
            continue;
        }
        solver.reset();
        // Every board this small fits the 64-bit bitboard.
        let empty = Position::<u64>::new(size.width, size.height).expect("a 64-bit board");
        let score = solver.solve(&empty);
        assert!(
            size.is_met_by(score),
            "{name}: score {score}, expected {size:?}"
        );
        solved += 1;
    }
    solved
}

#[test]
fn boards_up_to_width_plus_height_13_have_their_known_outcome_and_last_move() {
    assert_eq!(check_small_boards(|name| name != SLOWEST), 20);
}

#[test]
fn the_slowest_small_board_8x5_too() {
    assert_eq!(check_small_boards(|name| name == SLOWEST), 1);
}
