//! The known outcome of Connect Four on every board size (`fixtures/sizes/outcomes.txt`, from
//! Tromp's and Steininger's results tables, with c4's own scores): the table agrees with itself,
//! and the empty boards the tests have time for are solved again.

mod common;

use std::path::PathBuf;

use assert_cmd::Command;

use c4::batch::SizeOutcome;
use c4_core::built_in_book;
use c4_core::{Position, Solver};

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

#[test]
fn the_finished_runs_answer_from_their_checkpoints_with_the_scores_in_the_table() {
    // fixtures/checkpoints/WxH-solved.ckpt: the last save of each run that solved a board from
    // empty (docs/sizes.md), read by today's build: each answers at once with the score the
    // table records for its board.
    let folder = common::empty_folder("sizes", "checkpoints");
    let checkpoints = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/checkpoints");
    let mut read = Vec::new();
    for size in outcomes() {
        let name = format!("{}x{}", size.width, size.height);
        let saved = checkpoints.join(format!("{name}-solved.ckpt"));
        if !saved.exists() {
            continue;
        }
        let file = folder.join(format!("{name}.ckpt"));
        std::fs::copy(&saved, &file).unwrap();
        // A table too small for any search: the answer comes from the file.
        let output = Command::cargo_bin("c4")
            .unwrap()
            .args(["solve", "--board", &name, "--no-book", "--hash", "2"])
            .arg("--checkpoint")
            .arg(&file)
            .write_stdin("\n")
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        let solved = size
            .solved
            .unwrap_or_else(|| panic!("{name}: no score in the table"));
        assert_eq!(output.status.code(), Some(0), "{name}: {output:?}");
        assert_eq!(
            String::from_utf8(output.stdout).unwrap(),
            format!(" {solved}\n")
        );
        read.push(name);
    }
    std::fs::remove_dir_all(&folder).unwrap();
    let boards = [
        "4x10", "9x5", "5x9", "8x6", "6x8", "7x7", "10x4", "4x11", "5x10", "9x6", "4x12", "5x11",
        "4x13", "11x4",
    ];
    for board in boards {
        assert!(read.iter().any(|b| b == board), "{board}: {read:?}");
    }
}
