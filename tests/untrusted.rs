//! `c4 --untrusted`, the mode `c4 serve` starts for pages in a browser: runs the real binary on
//! every script in `fixtures/untrusted/` (`*.c4` as `c4 --untrusted`, `*.ugi` as `c4 ugi
//! --untrusted`), snapshots each transcript, and checks that the folder it ran in, holding copies
//! of `fixtures/files/`, is exactly as it was: no file read into the game, written or added.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use assert_cmd::Command;

/// Every file in `folder` with its contents.
fn contents(folder: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(folder)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, fs::read(entry.path()).unwrap())
        })
        .collect()
}

#[test]
fn untrusted_fixtures() {
    insta::glob!("../fixtures/untrusted", "*.*", |path| {
        let name = path.file_stem().unwrap().to_str().unwrap();
        let folder = common::scratch_folder("untrusted", name);
        let before = contents(&folder);
        let args: &[&str] = match path.extension().and_then(|e| e.to_str()) {
            Some("ugi") => &["ugi", "--untrusted"],
            _ => &["--untrusted"],
        };
        let output = Command::cargo_bin("c4")
            .unwrap()
            .current_dir(&folder)
            .args(args)
            .write_stdin(fs::read(path).unwrap())
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        let after = contents(&folder);
        fs::remove_dir_all(&folder).unwrap();
        assert!(output.status.success(), "{}: {output:?}", path.display());
        assert!(output.stderr.is_empty(), "{}: {output:?}", path.display());
        assert_eq!(
            before.keys().collect::<Vec<_>>(),
            after.keys().collect::<Vec<_>>(),
            "{}: files were added or removed",
            path.display()
        );
        assert!(before == after, "{}: a file changed", path.display());
        insta::assert_snapshot!(String::from_utf8(output.stdout).unwrap());
    });
}

/// The same script without `--untrusted` does save and load: the refusals above come from the
/// mode, not from the files.
#[test]
fn the_same_commands_work_when_trusted() {
    let folder = common::scratch_folder("untrusted", "trusted");
    let output = Command::cargo_bin("c4")
        .unwrap()
        .current_dir(&folder)
        .write_stdin("moves 4453\nsave new.c4save\nload good.c4save\nhash 128\nthreads 8\n")
        .output()
        .unwrap();
    let saved = folder.join("new.c4save").exists();
    fs::remove_dir_all(&folder).unwrap();
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(saved, "{out}");
    assert!(!out.contains("\n? ") && !out.starts_with("? "), "{out}");
}
