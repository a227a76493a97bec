//! Runs the real `c4 play --classic` on the original programs' sample sessions in
//! `fixtures/classic/` and compares each transcript byte for byte with the text cut from the
//! programs' documents; snapshots each program's scripted-input file (`testMeIn.txt`); and
//! checks the command-line errors of `--classic`.
//!
//! A sample is a folder `fixtures/classic/PROGRAM/NAME/` holding `input` (the bytes piped in),
//! `expected` (the whole output), optionally `flags` (more flags, split at spaces) and any
//! other files, which are copied into the folder the program runs in.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The programs, as `--classic` names them.
const PROGRAMS: [&str; 5] = ["grid", "dots", "letters", "numbers", "pipes"];
/// The files of a sample folder that are not copied into the run's folder.
const SAMPLE_FILES: [&str; 3] = ["input", "expected", "flags"];

fn classic_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/classic")
}

/// Every sample folder, sorted, as (program, sample name, folder).
fn samples() -> Vec<(String, String, PathBuf)> {
    let mut samples = Vec::new();
    for program in PROGRAMS {
        let folder = classic_fixtures().join(program);
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                samples.push((program.to_string(), name, path));
            }
        }
    }
    samples.sort();
    samples
}

/// What `c4 play --classic PROGRAM` writes, run in `folder` with `flags` on `input`; it must
/// exit with 0 and write nothing on stderr.
fn run_classic(program: &str, flags: &[String], input: Vec<u8>, folder: &Path) -> Vec<u8> {
    let mut args = vec!["play", "--classic", program];
    args.extend(flags.iter().map(String::as_str));
    let output = common::run_in(folder, &args, &input);
    assert_eq!(output.status.code(), Some(0), "{program}");
    output.stdout
}

/// Runs the sample in `sample` in a fresh folder holding copies of its other files; returns
/// the output and the folder, which the caller removes.
fn run_sample(program: &str, name: &str, sample: &Path) -> (Vec<u8>, PathBuf) {
    let folder = common::empty_folder("classic", &format!("{program}-{name}"));
    for entry in fs::read_dir(sample).unwrap() {
        let entry = entry.unwrap();
        if !SAMPLE_FILES.contains(&entry.file_name().to_str().unwrap()) {
            fs::copy(entry.path(), folder.join(entry.file_name())).unwrap();
        }
    }
    let flags: Vec<String> = fs::read_to_string(sample.join("flags"))
        .map(|text| text.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let input = fs::read(sample.join("input")).unwrap();
    let output = run_classic(program, &flags, input, &folder);
    (output, folder)
}

/// Where `actual` first differs from `expected`, in a sentence with the line and the text on
/// both sides; `None` when they are the same, byte for byte.
fn difference(actual: &[u8], expected: &[u8]) -> Option<String> {
    if actual == expected {
        return None;
    }
    let at = actual
        .iter()
        .zip(expected)
        .position(|(a, e)| a != e)
        .unwrap_or(actual.len().min(expected.len()));
    let line = expected[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let around = |text: &[u8]| {
        let start = at.saturating_sub(40);
        format!(
            "{:?}",
            String::from_utf8_lossy(&text[start.min(text.len())..(at + 40).min(text.len())])
        )
    };
    Some(format!(
        "first difference at byte {at} (line {line}): got {}, expected {}",
        around(actual),
        around(expected)
    ))
}

#[test]
fn every_sample_session_is_reproduced_byte_for_byte() {
    let samples = samples();
    let mut failures = Vec::new();
    for (program, name, sample) in &samples {
        let (output, folder) = run_sample(program, name, sample);
        fs::remove_dir_all(&folder).unwrap();
        let expected = fs::read(sample.join("expected")).unwrap();
        if let Some(why) = difference(&output, &expected) {
            failures.push(format!("{program}/{name}: {why}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for program in PROGRAMS {
        assert!(
            samples.iter().any(|(p, _, _)| p == program),
            "no sample for the {program} program"
        );
    }
}

#[test]
fn one_changed_character_is_a_difference() {
    let expected = fs::read(classic_fixtures().join("dots/sample/expected")).unwrap();
    assert_eq!(difference(&expected, &expected), None);
    let mut changed = expected.clone();
    let last_y = changed.iter().rposition(|&b| b == b'Y').unwrap();
    changed[last_y] = b'X';
    assert!(difference(&changed, &expected).is_some());
    assert!(difference(&expected[..expected.len() - 1], &expected).is_some());
    assert!(difference(&[expected.as_slice(), b"\n"].concat(), &expected).is_some());
}

#[test]
fn the_grid_program_saves_the_game_it_loaded() {
    let sample = classic_fixtures().join("grid/load_save");
    let (_, folder) = run_sample("grid", "saved", &sample);
    let saved = fs::read_to_string(folder.join("game1.txt")).unwrap();
    fs::remove_dir_all(&folder).unwrap();
    assert_eq!(saved, fs::read_to_string(sample.join("game1.txt")).unwrap());
}

#[test]
fn scripted_inputs() {
    insta::glob!("../fixtures/classic", "*/testMeIn.txt", |path| {
        let program = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        let folder = common::empty_folder("classic-script", program);
        let output = run_classic(program, &[], fs::read(path).unwrap(), &folder);
        fs::remove_dir_all(&folder).unwrap();
        insta::assert_snapshot!(String::from_utf8(output).unwrap());
    });
}

#[test]
fn classic_flags_are_checked() {
    let refusal = |args: &[&str]| {
        let output = Command::cargo_bin("c4")
            .unwrap()
            .arg("play")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
        let text = String::from_utf8(output.stderr).unwrap();
        text.lines().next().unwrap().to_string()
    };
    assert_eq!(
        refusal(&["--classic", "S0"]),
        "error: unknown program 'S0'; programs: grid, dots, letters, numbers, pipes"
    );
    assert_eq!(
        refusal(&["--classic", "grid", "--width", "9"]),
        "error: the grid program has no setting --width (it takes none but --classic)"
    );
    assert_eq!(
        refusal(&["--classic", "letters", "--names", "Ann"]),
        "error: the letters program has no setting --names (it takes --computer, --seed)"
    );
    assert_eq!(
        refusal(&["--classic", "letters", "--computer", "X=random"]),
        "error: the letters program's computer plays O, not X"
    );
    assert_eq!(
        refusal(&[
            "--classic",
            "dots",
            "--tokens",
            "XYZ",
            "--computer",
            "Y=perfect"
        ]),
        "error: the dots program's computer plays Z, not Y"
    );
    assert_eq!(
        refusal(&["--classic", "dots", "--moves", "4444444"]),
        "error: moves: move 7: column 4 is full"
    );
}

#[test]
fn the_dots_program_takes_its_constructor_settings() {
    let folder = common::empty_folder("classic", "dots-settings");
    let flags: Vec<String> = [
        "--tokens",
        "ABC",
        "--moves",
        "123",
        "--computer",
        "C=random",
    ]
    .map(String::from)
    .to_vec();
    let output = run_classic("dots", &flags, b"3\n5\n".to_vec(), &folder);
    fs::remove_dir_all(&folder).unwrap();
    let text = String::from_utf8(output).unwrap();
    assert!(
        text.contains("\n A  B  C  .  .  .  .\nA's turn: 3\n"),
        "{text}"
    );
    assert!(text.contains("\nB's turn: 5\n"), "{text}");
    // The computer's move is shown as if typed, then the board; then the input ends.
    let computer = text.split_once("\nC's turn: ").unwrap().1;
    assert!(computer.as_bytes()[0].is_ascii_digit(), "{text}");
    assert!(text.ends_with("\nA's turn: \n"), "{text}");
}
