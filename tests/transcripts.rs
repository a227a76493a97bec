//! Runs the real `c4` binary on every protocol script in `fixtures/protocol/` (and, as `c4 ugi`,
//! every UGI script in `fixtures/ugi/`) and snapshots the whole transcript (one snapshot per
//! fixture), plus the exit-status behaviour the scripts cannot show.

mod common;

use std::fs;
use std::path::Path;

use assert_cmd::Command;

fn transcript(input: &[u8], args: &[&str]) -> (String, i32) {
    transcript_in(&std::env::temp_dir(), input, args)
}

/// Runs `c4` in `folder` with `input` on stdin; returns stdout and the exit status.
fn transcript_in(folder: &Path, input: &[u8], args: &[&str]) -> (String, i32) {
    let output = common::run_in(folder, args, input);
    (
        String::from_utf8(output.stdout).unwrap(),
        output.status.code().unwrap(),
    )
}

#[test]
fn protocol_fixtures() {
    insta::glob!("../fixtures/protocol", "*.c4", |path| {
        let input = fs::read(path).unwrap();
        let folder = common::scratch_folder("test", path.file_stem().unwrap().to_str().unwrap());
        let (out, code) = transcript_in(&folder, &input, &[]);
        fs::remove_dir_all(&folder).unwrap();
        assert_eq!(code, 0, "{} exited with {code}", path.display());
        insta::assert_snapshot!(out);
    });
}

#[test]
fn ugi_fixtures() {
    insta::glob!("../fixtures/ugi", "*.ugi", |path| {
        let input = fs::read(path).unwrap();
        let (out, code) = transcript(&input, &["ugi"]);
        assert_eq!(code, 0, "{} exited with {code}", path.display());
        insta::assert_snapshot!(out);
    });
}

/// The `ugi` examples of protocol.md: each block's `> ` lines are sent to `c4 ugi`, and its other
/// lines are what it must write.
#[test]
fn ugi_examples_in_protocol_md() {
    let doc =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md")).unwrap();
    let mut blocks = 0;
    for block in doc.split("```ugi\n").skip(1) {
        let block = block.split("```").next().unwrap();
        let (mut input, mut expected) = (String::new(), String::new());
        for line in block.lines() {
            match line.strip_prefix("> ") {
                Some(sent) => input.push_str(&format!("{sent}\n")),
                None => expected.push_str(&format!("{line}\n")),
            }
        }
        let (out, code) = transcript(input.as_bytes(), &["ugi"]);
        assert_eq!((out.as_str(), code), (expected.as_str(), 0), "{block}");
        blocks += 1;
    }
    assert_eq!(blocks, 3, "protocol.md should have three ugi examples");
}

#[test]
fn strict_mode_exits_1_after_the_first_failure() {
    let (out, code) = transcript(b"play 4\nplay 0\nfen\n", &["--strict"]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "= ply 1, o to move\n\n? column 0 is off the board (columns 1-7)\n\n"
    );
}

#[test]
fn quit_stops_reading() {
    let (out, code) = transcript(b"quit\nfen\n", &[]);
    assert_eq!((out.as_str(), code), ("=\n\n", 0));
}

#[test]
fn unknown_arguments_exit_2_with_usage_on_stderr() {
    let output = Command::cargo_bin("c4")
        .unwrap()
        .arg("--bogus")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: unexpected argument '--bogus' found"),
        "{stderr}"
    );
    assert!(stderr.contains("Usage: c4 [OPTIONS]\n"), "{stderr}");
}

#[test]
fn stop_ends_a_running_search_and_every_line_is_answered() {
    use std::io::Write;
    let mut child = spawn_c4();
    let mut stdin = child.stdin.take().unwrap();
    // The empty board takes minutes to solve without the opening book: only `stop` can end
    // this search soon.
    stdin.write_all(b"book off\n1 solve\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    stdin.write_all(b"2 stop\n3 fen\n").unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(
        out.starts_with("= book off\n\n?1 the search stopped before it found the exact score"),
        "{out}"
    );
    assert!(out.ends_with("=2\n\n=3 7/7/7/7/7/7 x\n\n"), "{out}");
}

#[test]
fn end_of_input_during_a_search_still_gets_its_reply() {
    let (out, code) = transcript(b"position startpos moves 4455\ngo", &[]);
    assert_eq!(code, 0);
    assert_eq!(out, "= ply 4, x to move\n\n= bestmove 3 proven\n\n");
}

#[test]
fn a_line_of_several_megabytes_is_refused_and_the_session_goes_on() {
    let mut input = b"play 4\n".to_vec();
    input.extend(std::iter::repeat_n(b'7', 5 << 20));
    input.extend_from_slice(b"\nfen\n");
    let (out, code) = transcript(&input, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "= ply 1, o to move\n\n\
         ? the line is longer than 16384 bytes and was ignored\n\n\
         = 3x3/7/7/7/7/7 o\n\n"
    );
}

#[test]
fn a_closed_stdout_ends_c4_quietly() {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("c4"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 4];
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"fen\n").unwrap();
    stdout.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"= 7/");
    drop(stdout);
    // Far more replies than a pipe buffer holds: c4 must notice the closed pipe and stop.
    let writer = std::thread::spawn(move || {
        for _ in 0..200_000 {
            if stdin.write_all(b"show\n").is_err() {
                return;
            }
        }
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_streaming_analysis_writes_info_lines_until_the_next_command() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = spawn_c4();
    let mut stdin = child.stdin.take().unwrap();
    // The empty board takes minutes to solve: the stream goes on until `fen` arrives.
    stdin
        .write_all(b"hash 2\n1 analyze stream interval 50\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut lines = Vec::new();
    // The hash reply, then `=1` at once and info lines as they come, before any other command.
    while lines.len() < 6 {
        line.clear();
        stdout.read_line(&mut line).unwrap();
        lines.push(line.trim_end().to_string());
    }
    assert_eq!(lines[..3], ["= hash 2 MiB", "", "=1"], "{lines:?}");
    assert!(
        lines[3..].iter().all(|l| l.starts_with("info nodes ")),
        "{lines:?}"
    );
    stdin.write_all(b"2 fen\n").unwrap();
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    child.wait().unwrap();
    // More info lines, perhaps, then the empty line that ends the reply, then `fen`'s reply.
    let (stream, after) = rest.split_once("=2 ").unwrap();
    let body = stream.strip_suffix('\n').unwrap();
    assert!(body.is_empty() || body.ends_with('\n'), "{rest}");
    assert!(body.lines().all(|l| l.starts_with("info nodes ")), "{rest}");
    assert_eq!(after, "7/7/7/7/7/7 x\n\n");
}

/// The `info` lines `c4` writes for `script`, which ends with `analyze stream`.
fn stream_lines(script: &str) -> Vec<String> {
    let output = Command::cargo_bin("c4")
        .unwrap()
        .write_stdin(script)
        .output()
        .unwrap();
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("info "))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_streaming_analysis_on_two_threads_ends_as_on_one() {
    // Past the book (13 stones): the threads solve the columns side by side, so the node counts
    // and the order in which columns are proven vary, but not the last line's scores and line.
    let position = "position startpos moves 2743556562377\n";
    let script = |threads: u32, limit: &str| {
        format!("threads {threads}\n{position}analyze stream{limit} interval 86400000\n")
    };
    let without_nodes = |line: &str| line.split_once(" scores ").unwrap().1.to_string();
    let one = stream_lines(&script(1, ""));
    let two = stream_lines(&script(2, ""));
    assert!(two.len() > 1, "{two:?}");
    assert_eq!(
        without_nodes(two.last().unwrap()),
        without_nodes(one.last().unwrap())
    );
    assert!(!one.last().unwrap().contains(".."), "every column proven");
    // A node limit is shared out between the threads: it ends the analysis within a check of
    // the limits (4,096 nodes) a column.
    let limited = stream_lines(&script(2, " nodes 30000"));
    let last = limited.last().unwrap();
    let nodes: u64 = last.split(' ').nth(2).unwrap().parse().unwrap();
    assert!(nodes <= 30_000 + 7 * 4096, "{last}");
    assert!(
        last.contains(".."),
        "stopped before every column was proven: {last}"
    );
}

/// `c4` running with piped standard input and output, for tests that talk to it line by line.
fn spawn_c4() -> std::process::Child {
    use std::process::Stdio;
    std::process::Command::new(assert_cmd::cargo::cargo_bin("c4"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}
