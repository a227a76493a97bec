//! Files that `c4` is told to read or write, through the real binary: nothing planted at a name
//! it writes through is followed or removed, a file that is not a regular one (a pipe, a device,
//! `/dev/stdin`) or a huge one is refused at once, and a checkpointed run leaves no lock behind
//! and fails on a checkpoint it cannot use.
#![cfg(unix)]

mod common;

use std::fs;
use std::io::Write;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;

/// Long enough for any of these runs; a run that waits for good fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(20);

/// The refusal of anything but a regular file, after the file's name.
const NOT_REGULAR: &str = "it is not a regular file (a pipe, a device or a socket)";

/// A fresh folder for this test.
fn scratch(name: &str) -> PathBuf {
    common::empty_folder("files", name)
}

/// A named pipe at `path`, which no process writes to.
fn fifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success(), "mkfifo {}", path.display());
}

/// What one run of `c4 ARGS < input` in `folder` gave: status, stdout, stderr.
fn c4_in(folder: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    let output = Command::cargo_bin("c4")
        .unwrap()
        .current_dir(folder)
        .args(args)
        .write_stdin(input)
        .timeout(PATIENCE)
        .output()
        .unwrap();
    (
        output.status.code().expect("c4 ends by itself, in time"),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// Waits for `child` to end, at most [`PATIENCE`].
fn wait(child: &mut Child) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("c4 did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn save_never_writes_through_a_link_planted_where_it_writes() {
    let folder = scratch("save-links");
    let victim = folder.join("victim");
    fs::write(&victim, "precious\n").unwrap();
    let target = folder.join("game.txt");
    for existing in [false, true] {
        if existing {
            fs::write(&target, "old\n").unwrap();
        }
        // Started first, so that its process number, part of the name earlier versions wrote
        // through, is known before it is asked to save.
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_c4"))
            .current_dir(&folder)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let planted = [
            format!(".game.txt.c4-{}.tmp", child.id()),
            "game.txt.tmp".to_string(),
            ".game.txt.tmp".to_string(),
            // Shaped like this version's names, which are random.
            ".game.txt.AbCdEf.tmp".to_string(),
        ];
        for name in &planted {
            symlink(&victim, folder.join(name)).unwrap();
        }
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"play 4\nsave game.txt\n").unwrap();
        drop(input);
        assert!(wait(&mut child).success());
        let mut out = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
        assert_eq!(out, "= ply 1, o to move\n\n= saved game.txt\n\n");
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
        assert_eq!(
            fs::read_to_string(&target).unwrap(),
            "Player 1\nPlayer 2\n3x3/7/7/7/7/7 o\n"
        );
        for name in &planted {
            let link = fs::symlink_metadata(folder.join(name)).unwrap();
            assert!(link.file_type().is_symlink(), "{name}");
            fs::remove_file(folder.join(name)).unwrap();
        }
        assert_eq!(common::names(&folder), ["game.txt", "victim"]);
        fs::remove_file(&target).unwrap();
    }
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn book_build_leaves_an_unrelated_notes_tmp_alone() {
    let folder = scratch("book-notes");
    fs::write(folder.join("notes.tmp"), "mine\n").unwrap();
    let build = [
        "book", "build", "--width", "5", "--height", "4", "--depth", "6", "--dir", "progress",
        "-o", "notes",
    ];
    let (code, out, err) = c4_in(&folder, &build, "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\nnotes: depth 6, "), "{out}");
    assert_eq!(
        fs::read_to_string(folder.join("notes.tmp")).unwrap(),
        "mine\n"
    );
    assert_eq!(common::names(&folder), ["notes", "notes.tmp", "progress"]);
    assert_eq!(
        common::names(&folder.join("progress")),
        ["depth6-shard0-of1.progress"]
    );
    // On a disk that takes no more than 512 bytes of a file (the book is about 2,000), the
    // write fails, and leaves neither its own file nor a changed one.
    fs::remove_file(folder.join("notes")).unwrap();
    let limited = format!(
        "trap '' XFSZ; ulimit -f 1; exec '{}' \"$@\"",
        env!("CARGO_BIN_EXE_c4")
    );
    let output = Command::new("sh")
        .current_dir(&folder)
        .args(["-c", &limited, "sh"])
        .args(build)
        .timeout(PATIENCE)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "c4 book: notes: file too large\n"
    );
    assert_eq!(
        fs::read_to_string(folder.join("notes.tmp")).unwrap(),
        "mine\n"
    );
    assert_eq!(common::names(&folder), ["notes.tmp", "progress"]);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_protocol_refuses_a_pipe_or_a_device_and_reads_the_commands_after_it() {
    let folder = scratch("protocol-pipe");
    fifo(&folder.join("pipe"));
    // Standard input is a pipe, so /dev/stdin is one too: read as a file, it would swallow the
    // commands after it.
    let script = "load pipe\nbook load pipe\nload /dev/stdin\nbook load /dev/stdin\n\
                  load /dev/zero\nplay 4\nfen\n";
    let (code, out, err) = c4_in(&folder, &[], script);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        format!(
            "? cannot load pipe: {NOT_REGULAR}\n\n\
             ? cannot load book pipe: {NOT_REGULAR}\n\n\
             ? cannot load /dev/stdin: {NOT_REGULAR}\n\n\
             ? cannot load book /dev/stdin: {NOT_REGULAR}\n\n\
             ? cannot load /dev/zero: {NOT_REGULAR}\n\n\
             = ply 1, o to move\n\n\
             = 3x3/7/7/7/7/7 o\n\n"
        )
    );
    // `c4 play` loads through the same reader.
    let (code, out, _) = c4_in(&folder, &["play"], "l\npipe\nq\n");
    assert_eq!(code, 0);
    assert!(out.contains(NOT_REGULAR), "{out}");
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_huge_file_is_refused_by_its_size_at_every_door() {
    let folder = scratch("huge");
    // 10 GiB, all of it a hole: each reader refuses it by the size the system gives, where
    // reading up to its limit took a book's reader seconds and 1 GiB.
    fs::File::create(folder.join("huge"))
        .unwrap()
        .set_len(10 << 30)
        .unwrap();
    let book = "the file has more than 1073741824 bytes, too many for a book";
    let (code, out, err) = c4_in(
        &folder,
        &[],
        "book load huge
load huge
fen
",
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        format!(
            "? cannot load book huge: {book}\n\n\
             ? cannot load huge: the file has more than 16384 bytes, too many for a saved game\n\n\
             = 7/7/7/7/7/7 x\n\n"
        )
    );
    let cases: [(&[&str], String); 5] = [
        (
            &["solve", "--book", "huge"],
            format!("c4 solve: cannot load book huge: {book}\n"),
        ),
        (
            &["bench", "huge"],
            "c4 bench: cannot read huge: the file has more than 67108864 bytes, too many for a \
             benchmark file\n"
                .into(),
        ),
        (
            &["bench", "--book", "huge", "--empty"],
            format!("c4 bench: cannot load book huge: {book}\n"),
        ),
        (
            &["book", "info", "huge"],
            format!("c4 book: huge: {book}\n"),
        ),
        (
            &["book", "verify", "huge"],
            format!("c4 book: huge: {book}\n"),
        ),
    ];
    for (args, said) in cases {
        let (code, out, err) = c4_in(&folder, args, "");
        assert_eq!((code, out.as_str(), err), (2, "", said), "{args:?}");
    }
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_command_line_refuses_a_pipe_named_as_a_file_at_once() {
    let folder = scratch("cli-pipe");
    fifo(&folder.join("pipe"));
    let cases: [(&[&str], i32, String); 7] = [
        (
            &["solve", "--book", "pipe"],
            2,
            format!("c4 solve: cannot load book pipe: {NOT_REGULAR}\n"),
        ),
        (
            &["bench", "pipe"],
            2,
            format!("c4 bench: cannot read pipe: {NOT_REGULAR}\n"),
        ),
        (
            &["bench", "--book", "pipe", "--empty"],
            2,
            format!("c4 bench: cannot load book pipe: {NOT_REGULAR}\n"),
        ),
        (
            &["book", "info", "pipe"],
            2,
            format!("c4 book: pipe: {NOT_REGULAR}\n"),
        ),
        (
            &["book", "verify", "pipe"],
            2,
            format!("c4 book: pipe: {NOT_REGULAR}\n"),
        ),
        (
            &["book", "merge", "pipe", "-o", "merged"],
            1,
            format!("c4 book: pipe: {NOT_REGULAR}\n"),
        ),
        (
            &[
                "book", "build", "--width", "5", "--height", "4", "--depth", "2", "--dir", "p",
                "-o", "built", "--import", "pipe",
            ],
            1,
            format!("c4 book: pipe: {NOT_REGULAR}\n"),
        ),
    ];
    for (args, status, said) in cases {
        let (code, out, err) = c4_in(&folder, args, "");
        assert_eq!((code, out.as_str(), err), (status, "", said), "{args:?}");
    }
    // Nor is a pipe replaced by a book, and that is said before any solving: nothing solved,
    // the progress file the `--import` case above began (its header) left as it was.
    let progress = folder.join("p").join("depth2-shard0-of1.progress");
    let begun = fs::read(&progress).unwrap();
    let build = [
        "book", "build", "--width", "5", "--height", "4", "--depth", "2", "--dir", "p", "-o",
        "pipe",
    ];
    let (code, out, err) = c4_in(&folder, &build, "");
    assert_eq!(
        (code, out.as_str(), err),
        (1, "", format!("c4 book: pipe: {NOT_REGULAR}\n"))
    );
    let pipe = fs::symlink_metadata(folder.join("pipe")).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&pipe.file_type()));
    assert_eq!(common::names(&folder), ["p", "pipe"]);
    assert_eq!(fs::read(&progress).unwrap(), begun);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_checkpoint_that_is_not_a_regular_file_fails_at_once_without_a_lock() {
    let folder = scratch("checkpoint-pipe");
    fifo(&folder.join("pipe"));
    let dev_null_lock = Path::new("/dev/null.lock").exists();
    for file in ["pipe", "/dev/null"] {
        let (code, out, err) = c4_in(&folder, &["solve", "--checkpoint", file], "4455\n44\n");
        assert_eq!(code, 1, "{err}");
        assert_eq!(
            out,
            format!("4455 error: {file}: {NOT_REGULAR}\n44 error: {file}: {NOT_REGULAR}\n")
        );
    }
    assert_eq!(common::names(&folder), ["pipe"]);
    assert_eq!(Path::new("/dev/null.lock").exists(), dev_null_lock);
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_checkpointed_run_leaves_no_lock_and_fails_on_a_damaged_checkpoint() {
    let folder = scratch("checkpoint-lock");
    let args = ["solve", "--no-book", "--checkpoint", "run.ckpt"];
    let (code, out, err) = c4_in(&folder, &args, "4455\n44\n");
    assert_eq!((code, out.as_str()), (0, "4455 18\n44 1\n"), "{err}");
    assert_eq!(common::names(&folder), ["run.ckpt"]);
    // Cut short by a byte, the checkpoint is refused, and so is the run, with no lock left.
    let whole = fs::read(folder.join("run.ckpt")).unwrap();
    fs::write(folder.join("run.ckpt"), &whole[..whole.len() - 1]).unwrap();
    let damaged = "run.ckpt: not a c4 checkpoint file, or cut short or damaged";
    let (code, out, _) = c4_in(&folder, &args, "44\n");
    assert_eq!((code, out), (1, format!("44 error: {damaged}\n")));
    // Another file altogether, likewise; lines that need no checkpoint are still answered.
    fs::write(folder.join("run.ckpt"), "notes\n").unwrap();
    let (code, out, _) = c4_in(&folder, &args, "44\n48\n");
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!(
            "44 error: {damaged}\n48 error: move 2 (column 8): the column is off the board \
             (columns 1-7)\n"
        )
    );
    assert_eq!(common::names(&folder), ["run.ckpt"]);
    // A lock file that is not c4's is used and left as it was.
    fs::write(folder.join("run.ckpt.lock"), "mine\n").unwrap();
    fs::remove_file(folder.join("run.ckpt")).unwrap();
    let (code, _, _) = c4_in(&folder, &args, "4455\n");
    assert_eq!(code, 0);
    assert_eq!(common::names(&folder), ["run.ckpt", "run.ckpt.lock"]);
    assert_eq!(
        fs::read_to_string(folder.join("run.ckpt.lock")).unwrap(),
        "mine\n"
    );
    fs::remove_dir_all(&folder).unwrap();
}
