//! Runs the real `c4 play` on every answer script in `fixtures/play/` and snapshots the whole
//! session, plus the command-line errors the scripts cannot show.
//!
//! A script is the answers typed, one per line. Lines starting with `#` are comments for the
//! reader and are not sent; a first line `# flags: --computer o=random --seed 7` gives the flags
//! (split at spaces; a `_` in a flag stands for a space). Each script runs in a fresh folder
//! holding copies of `fixtures/files/`.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use assert_cmd::Command;

/// The flags and the input of a script.
fn read_script(text: &str) -> (Vec<String>, String) {
    let flags = text
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("# flags:"))
        .map(|flags| {
            flags
                .split_whitespace()
                .map(|f| f.replace('_', " "))
                .collect()
        })
        .unwrap_or_default();
    let input = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| format!("{line}\n"))
        .collect();
    (flags, input)
}

/// Runs the script at `path` through `c4 play` in a fresh folder (named after `suite` and the
/// script) and checks that it exits with 0 and writes nothing on stderr.
fn run_script(suite: &str, path: &Path) -> Output {
    let (flags, input) = read_script(&fs::read_to_string(path).unwrap());
    let folder = common::scratch_folder(suite, path.file_stem().unwrap().to_str().unwrap());
    let output = Command::cargo_bin("c4")
        .unwrap()
        .current_dir(&folder)
        .env_remove("NO_COLOR")
        .arg("play")
        .args(&flags)
        .write_stdin(input)
        .output()
        .unwrap();
    fs::remove_dir_all(&folder).unwrap();
    assert!(
        output.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(output.status.code(), Some(0), "{}", path.display());
    output
}

#[test]
fn play_fixtures() {
    insta::glob!("../fixtures/play", "*.txt", |path| {
        let output = run_script("play", path);
        insta::assert_snapshot!(String::from_utf8(output.stdout).unwrap());
    });
}

#[test]
fn an_answer_file_gives_the_same_transcript_on_every_run() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/play/start_computer.txt");
    let first = run_script("rerun", &path);
    assert_eq!(first.stdout, run_script("rerun", &path).stdout);
}

#[test]
fn bad_flags_exit_2_and_say_why_on_stderr() {
    let output = Command::cargo_bin("c4")
        .unwrap()
        .args(["play", "--computer", "z=perfect"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: no player has the token 'z' (tokens: xo)\n\nUsage: c4 play [OPTIONS]\n\n\
         For more information, try '--help'.\n"
    );
}

#[test]
fn help_lists_the_settings() {
    let output = Command::cargo_bin("c4")
        .unwrap()
        .args(["play", "--help"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    for flag in [
        "--width",
        "--computer",
        "--style",
        "--letters",
        "--seed",
        "--fen",
    ] {
        assert!(text.contains(flag), "{flag}");
    }
}
