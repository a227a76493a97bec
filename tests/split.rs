//! `c4 split` through the real binary, the plan-file path of a solve split into jobs: plan,
//! run every line of the plan with GNU parallel (two at a time, as on a small cluster), merge,
//! again until the score is known, which must be the one `c4 solve` finds; and a run stopped
//! between rounds goes on without running a finished job again.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command as Process;

use c4::split::{RE_EXPANDED, RE_EXPANDED_HEADER};
use common::c4;

/// Runs every line of `folder`'s plan with `parallel -j2` where GNU parallel is installed (CI
/// installs it, and a CI run without it fails), else one after the other with `sh`.
fn run_plan(folder: &Path) {
    let plan = fs::File::open(folder.join("plan.txt")).unwrap();
    let has_parallel = Process::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    assert!(
        has_parallel || std::env::var_os("CI").is_none(),
        "CI runs the plan with GNU parallel: install it (apt-get install parallel)"
    );
    let status = if has_parallel {
        Process::new("parallel")
            .args(["-j2", "--halt", "now,fail=1"])
            .stdin(plan)
            .status()
    } else {
        Process::new("sh").stdin(plan).status()
    };
    assert!(status.unwrap().success());
}

/// Plans, runs and merges `moves` on `board` split `depth` plies deep until the score is
/// known: the score line, and how many rounds it took.
fn split_solve(name: &str, board: &str, moves: &str, depth: &str) -> (String, usize) {
    let folder = common::empty_folder("split", name).join("run");
    split_solve_in(&folder, &[board, moves, "--depth", depth])
}

/// [`split_solve`] in `folder`, planned with `arguments` (`BOARD MOVES`, then options).
fn split_solve_in(folder: &Path, arguments: &[&str]) -> (String, usize) {
    let (board, moves) = (arguments[0], arguments[1]);
    let folder_text = folder.to_str().unwrap();
    let mut plan = vec!["split", "plan", folder_text, moves, "--board", board];
    plan.extend(&arguments[2..]);
    let planned = c4(&plan, "");
    assert_eq!(planned.code, 0, "{}", planned.stderr);
    for round in 1..200 {
        if fs::read_to_string(folder.join("plan.txt"))
            .unwrap()
            .is_empty()
        {
            let last = planned
                .stdout
                .lines()
                .last()
                .unwrap_or_default()
                .to_string();
            return (last, round);
        }
        run_plan(folder);
        let merged = c4(&["split", "merge", folder_text], "");
        assert_eq!(merged.code, 0, "{}", merged.stderr);
        if fs::read_to_string(folder.join("plan.txt"))
            .unwrap()
            .is_empty()
        {
            let last = merged.stdout.lines().last().unwrap().to_string();
            return (last, round);
        }
    }
    panic!("{board} {moves}: no score after 200 rounds");
}

#[test]
fn a_split_solve_through_plan_files_finds_the_score_c4_solve_does() {
    for (board, moves, depth) in [("6x5", "", "2"), ("7x4", "4", "3"), ("5x6", "33", "2")] {
        let solved = c4(
            &["solve", "--board", board, "--no-book"],
            &format!("{moves}\n"),
        );
        assert_eq!(solved.code, 0);
        let (score_line, rounds) = split_solve(&format!("{board}-{moves}"), board, moves, depth);
        assert_eq!(score_line, solved.stdout.trim_end(), "{board} {moves}");
        assert!(rounds >= 1);
    }
}

#[test]
fn the_merge_names_the_positions_answered_against_their_prediction() {
    let folder = common::empty_folder("split", "failed").join("run");
    // 6x5 scores 0: expecting 2, the first questions go against the prediction.
    let (score_line, _) = split_solve_in(&folder, &["6x5", "", "--depth", "2", "--expect", "2"]);
    assert_eq!(score_line, " 0");
    let listed = fs::read_to_string(folder.join(RE_EXPANDED)).unwrap();
    let mut lines = listed.lines();
    assert_eq!(lines.next(), Some(RE_EXPANDED_HEADER));
    let failed: Vec<&str> = lines.collect();
    assert!(!failed.is_empty());
    // Each is the position's own answer, as c4 solve --at-least gives it.
    for line in failed {
        let (moves, answer) = line.split_once(' ').unwrap();
        let bound = answer.trim_start_matches(['>', '=', '<']);
        let solved = c4(
            &[
                "solve",
                "--board",
                "6x5",
                "--no-book",
                &format!("--at-least={bound}"),
            ],
            &format!("{moves}\n"),
        );
        assert_eq!(solved.stdout.trim_end(), line);
    }
}

#[test]
fn a_merge_goes_on_from_the_results_and_runs_no_finished_job_again() {
    let folder = common::empty_folder("split", "resume").join("run");
    let folder_text = folder.to_str().unwrap();
    let planned = c4(
        &[
            "split",
            "plan",
            folder_text,
            "--board",
            "6x5",
            "--depth",
            "2",
        ],
        "",
    );
    assert_eq!(planned.code, 0, "{}", planned.stderr);
    run_plan(&folder);
    let first = c4(&["split", "merge", folder_text], "");
    assert_eq!(first.code, 0, "{}", first.stderr);
    let results = fs::read_to_string(folder.join("results.txt")).unwrap();
    let answered: Vec<&str> = results.lines().skip(1).collect();
    assert!(!answered.is_empty());
    // Merged again, with the same answers in out/: nothing new, and the plan asks for none of
    // the jobs already answered.
    let again = c4(&["split", "merge", folder_text], "");
    assert!(
        again.stdout.starts_with("c4 split: 0 new answers"),
        "{}",
        again.stdout
    );
    let plan = fs::read_to_string(folder.join("plan.txt")).unwrap();
    for line in plan.lines() {
        // echo 'MOVES B' | c4 solve ... --at-least=line ...
        let question = line.split('\'').nth(1).unwrap();
        let (moves, bound) = question.split_once(' ').unwrap();
        assert!(
            !answered
                .iter()
                .any(|a| *a == format!("{moves} >={bound}") || *a == format!("{moves} <{bound}")),
            "{line}"
        );
    }
}

#[test]
fn a_started_folder_is_not_planned_again_and_bad_results_are_named() {
    let folder = common::empty_folder("split", "refusals").join("run");
    let folder_text = folder.to_str().unwrap();
    assert_eq!(
        c4(&["split", "plan", folder_text, "--board", "5x4"], "").code,
        0
    );
    let again = c4(&["split", "plan", folder_text, "--board", "5x4"], "");
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("already holds a split solve"),
        "{}",
        again.stderr
    );
    fs::write(folder.join("out").join("bad.txt"), "33 maybe\n").unwrap();
    let merged = c4(&["split", "merge", folder_text], "");
    assert_eq!(merged.code, 1);
    assert!(
        merged
            .stderr
            .contains("bad.txt, line 1: '33 maybe' is not a result"),
        "{}",
        merged.stderr
    );
    let missing = c4(&["split", "merge", "/nonexistent/c4-split"], "");
    assert_eq!(missing.code, 1);
    assert!(
        missing.stderr.contains("no such file or directory"),
        "{}",
        missing.stderr
    );
    let bad_root = c4(&["split", "plan", folder_text, "88", "--board", "5x4"], "");
    assert_eq!(bad_root.code, 2, "{}", bad_root.stderr);
}

#[test]
fn sampled_jobs_are_written_with_what_they_stand_for() {
    let run = c4(
        &[
            "split",
            "sample",
            "--board",
            "6x5",
            "--depth",
            "2",
            "--samples",
            "3",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", run.stdout);
    for line in &lines[..3] {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            (fields[0], fields[1].len(), fields[2]),
            ("3", 2, "1"),
            "{line}"
        );
    }
    assert_eq!(
        lines[3],
        "c4 split: about 3 jobs 2 plies deep (the mean of 3 paths)"
    );
}
