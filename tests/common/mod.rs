//! Helpers shared by the integration tests that run the real binary on fixture scripts.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

/// A new empty folder named after `suite` and `name`.
pub(crate) fn empty_folder(suite: &str, name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("c4-{suite}-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&folder);
    fs::create_dir_all(&folder).unwrap();
    folder
}

/// The names in `folder`, sorted.
#[allow(dead_code, reason = "not every test binary lists a folder")]
pub(crate) fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A new empty folder named after `suite` and `name`, holding copies of `fixtures/files/`, for
/// scripts that save and load.
#[allow(
    dead_code,
    reason = "not every test binary runs scripts that save and load"
)]
pub(crate) fn scratch_folder(suite: &str, name: &str) -> PathBuf {
    let folder = empty_folder(suite, name);
    let files = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/files");
    for entry in fs::read_dir(files).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), folder.join(entry.file_name())).unwrap();
    }
    folder
}

/// What `c4 ARGS` does in `folder` with `input` on stdin; it must write nothing on stderr.
#[allow(dead_code, reason = "not every test binary runs c4 in a folder")]
pub(crate) fn run_in(folder: &Path, args: &[&str], input: &[u8]) -> Output {
    let output = Command::cargo_bin("c4")
        .unwrap()
        .current_dir(folder)
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(
        output.stderr.is_empty(),
        "c4 {}: stderr: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// What one run of `c4 ARGS < input` gave.
#[allow(dead_code, reason = "not every test binary reads every part")]
pub(crate) struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `c4 ARGS < input` where the tests run, stderr allowed.
#[allow(dead_code, reason = "not every test binary runs c4 this way")]
pub(crate) fn c4(args: &[&str], input: &str) -> Run {
    let output = Command::cargo_bin("c4")
        .unwrap()
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    Run {
        code: output.status.code().expect("c4 exits, not killed"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}
