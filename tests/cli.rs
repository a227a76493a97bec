//! The command line through the real binary: help and version on every subcommand, usage
//! errors (the reason, then a pointer to `--help`), and the exit statuses docs/cli.md documents
//! (0 success; 1 a failed command under `--strict`, a wrong benchmark score or an I/O error; 2 a
//! usage error or an unreadable file; a checkpointed solve stopped by a signal ends by it).

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use common::c4;

/// A fresh folder for the files of this test.
fn scratch(name: &str) -> PathBuf {
    common::empty_folder("cli", name)
}

const SUBCOMMANDS: [&[&str]; 8] = [
    &[],
    &["play"],
    &["solve"],
    &["bench"],
    &["book"],
    &["book", "build"],
    &["ugi"],
    &["serve"],
];

#[test]
fn help_is_on_stdout_with_status_0_for_c4_and_every_subcommand() {
    for sub in SUBCOMMANDS {
        let usage = ["Usage: c4", &sub.join(" ")].join(" ");
        for flag in ["--help", "-h"] {
            let args = [sub, &[flag]].concat();
            let run = c4(&args, "");
            assert_eq!(run.code, 0, "{args:?}");
            assert!(run.stderr.is_empty(), "{args:?}: {}", run.stderr);
            assert!(
                run.stdout.contains(usage.trim_end()),
                "{args:?}: {}",
                run.stdout
            );
        }
    }
    let top = c4(&["--help"], "").stdout;
    for word in [
        "--strict",
        "play",
        "solve",
        "bench",
        "ugi",
        "Exit status: 0",
    ] {
        assert!(top.contains(word), "{word}: {top}");
    }
    let bench = c4(&["bench", "--help"], "").stdout;
    for word in [
        "--step",
        "--limit",
        "--hash <MIB>",
        "--threads",
        "--empty",
        "fixtures/bench",
    ] {
        assert!(bench.contains(word), "{word}: {bench}");
    }
    // The table has one spelling in the help: --bits, the first, works hidden.
    assert!(!bench.contains("--bits"), "{bench}");
    let solve = c4(&["solve", "--help"], "").stdout;
    for word in ["--weak", "--analyze", "--threads", "--no-book"] {
        assert!(solve.contains(word), "{word}: {solve}");
    }
    let run = c4(&["solve", "--no-book"], "4455\n");
    assert_eq!((run.code, run.stdout.as_str()), (0, "4455 18\n"));
    let ugi = c4(&["ugi", "--help"], "").stdout;
    assert!(ugi.contains("UGI"), "{ugi}");
    let run = c4(&["ugi"], "isready\nquit\n");
    assert_eq!((run.code, run.stdout.as_str()), (0, "readyok\n"));
}

/// Whether `stderr` is exactly the note of `c4 MODE` picking a table for the 9x5 board (`c4
/// solve` takes it once a search outgrows the default), and, if the table was made (`made`) at 1
/// GiB or more, the note of the pages it lies on. Its size depends on the free memory (1024 MiB
/// where half of it is that much or more), so only its form is fixed: a power of two of MiB
/// above the 2 MiB default and at most 1024.
fn is_picked_table_note(mode: &str, stderr: &str, made: bool) -> bool {
    let (picked, rest) = stderr.split_once('\n').unwrap_or((stderr, ""));
    let when = if mode == "solve" {
        ", once a search outgrows the default"
    } else {
        ""
    };
    let suffix = format!(
        " MiB, picked for the 9x5 board and the free memory{when} (--hash MIB sets another)"
    );
    let Some(mib) = picked
        .strip_prefix(&format!("c4 {mode}: table: "))
        .and_then(|rest| rest.strip_suffix(&suffix))
        .and_then(|mib| mib.parse::<u32>().ok())
        .filter(|mib| mib.is_power_of_two() && (4..=1024).contains(mib))
    else {
        return false;
    };
    let pages = [
        format!("table: {mib} MiB on 1 GiB pages\n"),
        format!(
            "table: {mib} MiB, not on 1 GiB pages (reserved by the system for the whole table, \
             they would be faster: docs/solver.md, \"Big boards and long searches\")\n"
        ),
    ];
    if made && mib >= 1024 {
        pages.iter().any(|line| line == rest)
    } else {
        rest.is_empty()
    }
}

#[test]
fn solve_picks_a_table_for_boards_past_7x6_and_says_so() {
    // Said once, before the first search: the answers of the later lines follow it.
    // From the peer's 9x5 endgame file (fixtures/bench/9x5/endgame_L1.txt, its first line).
    let endgame = "5751150535167886240132331372246";
    let run = c4(
        &["solve", "--board", "9x5", "--columns", "0"],
        &format!("x\n{endgame}\n"),
    );
    let answers = format!(
        "x error: 'x' is not a column: expected a column number or a letter from a to p\n\
         {endgame} 3\n"
    );
    assert_eq!((run.code, run.stdout), (0, answers));
    // The endgame's search is small: the picked table is never made.
    assert!(
        is_picked_table_note("solve", &run.stderr, false),
        "{}",
        run.stderr
    );
    // With no line to search, nothing to say; nor with a table asked for, nor where the
    // default is picked (boards up to 7x6's size).
    let run = c4(&["solve", "--board", "9x5"], "");
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    for (args, line) in [
        (
            &["solve", "--board", "9x5", "--columns", "0", "--hash", "4"][..],
            endgame,
        ),
        (&["solve"], "4"),
        (&["solve", "--board", "6x7", "--columns", "0"], "0011225344"),
    ] {
        let run = c4(args, &format!("{line}\n"));
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{args:?}");
    }
}

#[test]
fn bench_picks_a_table_for_boards_past_7x6_and_says_so() {
    let folder = scratch("bench-note");
    let file = folder.join("9x5.txt");
    // From the peer's 9x5 endgame file (fixtures/bench/9x5/endgame_L1.txt, its first line).
    fs::write(&file, "5751150535167886240132331372246 3\n").unwrap();
    let file = file.to_str().unwrap();
    let bench = |extra: &[&str]| {
        let args = [
            &["bench", "--columns", "0", "--board", "9x5"][..],
            extra,
            &[file],
        ]
        .concat();
        c4(&args, "")
    };
    let run = bench(&[]);
    assert_eq!(run.code, 0);
    assert!(
        is_picked_table_note("bench", &run.stderr, true),
        "{}",
        run.stderr
    );
    for extra in [&["--hash", "4"][..], &["--bits", "19"]] {
        let run = bench(extra);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{extra:?}");
    }
    // --sizes takes its boards from its file, whatever --board says.
    let sizes = ["bench", "--sizes", "--board", "9x5", "--limit", "1"];
    let run = c4(&[&sizes[..], &["fixtures/sizes/outcomes.txt"]].concat(), "");
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "--sizes");
    let small = folder.join("6x7.txt");
    fs::write(&small, "0011225344 -3\n").unwrap();
    let small = small.to_str().unwrap();
    let run = c4(&["bench", "--board", "6x7", "--columns", "0", small], "");
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "a 6x7 board");
}

#[test]
fn version_is_the_same_for_c4_and_every_subcommand() {
    let expected = format!("c4 {}\n", env!("CARGO_PKG_VERSION"));
    for sub in SUBCOMMANDS {
        for flag in ["--version", "-V"] {
            let args = [sub, &[flag]].concat();
            let run = c4(&args, "");
            assert_eq!(
                (run.code, run.stdout.as_str()),
                (0, expected.as_str()),
                "{args:?}"
            );
        }
    }
}

/// The version in the repository's Cargo.toml, under `[workspace.package]`: the one the
/// Python package's `c4.__version__` is also tested against (crates/c4-python/tests).
fn workspace_version() -> String {
    let manifest = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("the workspace's Cargo.toml is readable");
    let section = manifest
        .split("\n[")
        .find(|section| section.starts_with("workspace.package]"))
        .expect("Cargo.toml has a [workspace.package] section");
    let line = section
        .lines()
        .find_map(|line| line.strip_prefix("version = "))
        .expect("[workspace.package] has a version");
    line.trim_matches('"').to_string()
}

#[test]
fn the_program_and_the_protocol_say_the_workspace_version() {
    let version = workspace_version();
    let run = c4(&["--version"], "");
    assert_eq!(run.stdout, format!("c4 {version}\n"));
    let run = c4(&[], "version\n");
    assert_eq!((run.code, run.stdout), (0, format!("= {version}\n\n")));
}

#[test]
fn usage_errors_exit_2_with_the_reason_on_stderr() {
    let cases: [(&[&str], &str); 29] = [
        (&["--bogus"], "error: unexpected argument '--bogus' found"),
        (&["bogus"], "error: unrecognized subcommand 'bogus'"),
        (&["--strict", "solve"], "error: the subcommand 'solve' cannot be used with '--strict'"),
        (&["solve", "--weak", "--analyze"], "error: the argument '--weak' cannot be used with '--analyze'"),
        (&["solve", "--threads", "0"], "error: invalid value '0' for '--threads <N>': the thread count must be a whole number from 1 to 64, got '0'"),
        (&["solve", "extra"], "error: unexpected argument 'extra' found"),
        (&["solve", "--weak", "--checkpoint", "x"], "error: the argument '--weak' cannot be used with '--checkpoint <FILE>'"),
        (&["solve", "--checkpoint-every", "5"], "error: the following required arguments were not provided:"),
        (&["bench"], "error: c4 bench needs at least one file of 'MOVES SCORE' lines, e.g. c4 bench fixtures/bench/*.txt (or --empty for the empty board)"),
        (&["bench", "--empty", "a.txt"], "error: the argument '--empty' cannot be used with '[FILE]...'"),
        (&["bench", "--step", "x", "a.txt"], "error: invalid value 'x' for '--step <N>': expected a whole number from 1"),
        (&["bench", "--bits", "99", "a.txt"], "error: invalid value '99' for '--bits <N>': 99 is not in 10..=30"),
        (&["solve", "--hash", "524289"], "error: invalid value '524289' for '--hash <MIB>': the table size must be a whole number of MiB from 2 to 524288, got '524289'"),
        (&["play", "--width"], "error: a value is required for '--width <N>' but none was supplied"),
        (&["play", "--width", "17"], "error: a board width must be from 1 to 16, got 17"),
        (&["play", "--board", "17x6"], "error: a board width must be from 1 to 16, got 17"),
        (&["play", "--players", "3", "--tokens", "xo"], "error: --players 3 and --tokens xo disagree"),
        (&["play", "--human", "z"], "error: --human: no player has the token 'z' (tokens: xo)"),
        (&["play", "--letters", "--from-zero"], "error: the argument '--letters' cannot be used with '--from-zero'"),
        (&["ugi", "--strict"], "error: unexpected argument '--strict' found"),
        (&["solve", "--at-least", "65"], "error: invalid value '65' for '--at-least <B>': expected a whole number from -64 to 64, or line for each line's own bound after its moves"),
        (&["solve", "--at-least", "lines"], "error: invalid value 'lines' for '--at-least <B>': expected a whole number from -64 to 64, or line for each line's own bound after its moves"),
        (&["solve", "--columns", "letters"], "error: invalid value 'letters' for '--columns <NAMING>': letters a-p are read in every line already: expected numbers or from-zero, the numbering of the digits"),
        (&["bench", "--columns", "2", "a.txt"], "error: invalid value '2' for '--columns <NAMING>': expected numbers (from 1) or from-zero (from 0)"),
        (&["book", "verify", "--sample", "x"], "error: invalid value 'x' for '--sample <SAMPLE>': expected a whole number"),
        (&["book", "build", "--depth", "99", "--dir", "/nonexistent/c4"], "error: the depth must be at most 16, got 99"),
        (&["book", "build", "--depth", "3", "--width", "20", "--dir", "/nonexistent/c4"], "error: the solver handles boards with width x (height + 1) <= 64, got 20x6"),
        (&["book", "build", "--depth", "3", "--board", "7x6", "--width", "7"], "error: the argument '--board <WxH>' cannot be used with '--width <WIDTH>'"),
        (&["book", "verify", "--ply", "99"], "error: ply 99 is past this book, which holds plies 0 to 13"),
    ];
    for (args, first_line) in cases {
        let run = c4(args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
        assert_eq!(run.stderr.lines().next(), Some(first_line), "{args:?}");
        assert!(
            run.stderr
                .ends_with("\n\nFor more information, try '--help'.\n"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_checkpointed_solve_saves_its_score_and_answers_from_it_next_time() {
    let folder = scratch("checkpoint");
    let file = folder.join("run.ckpt");
    let file_arg = file.to_str().unwrap();
    let args = ["solve", "--no-book", "--checkpoint", file_arg];
    let first = c4(&args, "4455\n");
    assert_eq!((first.code, first.stdout.as_str()), (0, "4455 18\n"));
    assert!(
        first
            .stderr
            .starts_with(&format!("checkpoint {file_arg}: score 18 after ")),
        "{}",
        first.stderr
    );
    // The saved score answers at once, whatever the table; a finished checkpoint gives way to
    // another position's.
    let again = c4(&[&args[..], &["--hash", "16"]].concat(), "4455\n");
    assert_eq!(again.stdout, "4455 18\n");
    let other = c4(&args, "44\n");
    assert_eq!(other.stdout, "44 1\n");
    assert!(
        other.stderr.contains(": score 1 after "),
        "{}",
        other.stderr
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn solves_sharing_a_table_answer_as_alone_and_refuse_a_file_others_may_use() {
    let folder = scratch("shared-table").join("tables");
    let folder_arg = folder.to_str().unwrap();
    let args = [
        "solve",
        "--board",
        "6x5",
        "--no-book",
        "--at-least",
        "line",
        "--shared-table",
        folder_arg,
    ];
    let questions = "333 0\n333 1\n3334 1\n";
    let alone = c4(&args[..6], questions);
    let first = c4(&args, questions);
    let second = c4(&args, questions);
    assert_eq!((first.code, second.code), (0, 0), "{}", first.stderr);
    assert_eq!(first.stdout, alone.stdout);
    assert_eq!(second.stdout, alone.stdout);
    let table = folder.join("6x5-2^18-apart-layout2.table");
    let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&table), 0o600);
    fs::set_permissions(&table, fs::Permissions::from_mode(0o640)).unwrap();
    let refused = c4(&args, questions);
    assert_eq!((refused.code, refused.stdout.as_str()), (1, ""));
    assert_eq!(
        refused.stderr,
        format!(
            "c4: the shared table {} may be read or written by other users (its mode must be \
             0600): name another file, or remove it\n",
            table.display()
        )
    );
    fs::remove_dir_all(folder.parent().unwrap()).unwrap();
}

#[test]
fn the_finished_9x6_run_still_answers_from_its_checkpoint() {
    // The last save of the 9x6 run in docs/solver.md ("Big boards and long searches"): 47,025 s
    // of search, 665.9G nodes, ending in the published score, -2 (the second player wins on ply
    // 52; fixtures/sizes/outcomes.txt). A file it refuses fails at once; one read without its
    // finished score would start a search of hours, so the run is given a minute.
    let folder = scratch("solved-9x6");
    let file = folder.join("9x6.ckpt");
    fs::copy("fixtures/checkpoints/9x6-solved.ckpt", &file).unwrap();
    let output = Command::cargo_bin("c4")
        .unwrap()
        .args([
            "solve",
            "--board",
            "9x6",
            "--no-book",
            "--hash",
            "2",
            "--checkpoint",
        ])
        .arg(&file)
        .write_stdin("\n")
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(String::from_utf8(output.stdout).unwrap(), " -2\n");
    // No search, so no note that the default table is too small for one.
    assert_eq!(String::from_utf8(output.stderr).unwrap(), "");
    fs::remove_dir_all(&folder).unwrap();
}

/// A running `c4`, killed if a test fails before it ends.
#[cfg(target_os = "linux")]
struct Running {
    child: std::process::Child,
    /// Its standard input, until closed.
    input: Option<std::process::ChildStdin>,
    answers: std::io::BufReader<std::process::ChildStdout>,
}

#[cfg(target_os = "linux")]
impl Running {
    /// `program ARGS` with its three streams piped, given `input` and left waiting for more.
    fn start(program: &Path, args: &[&str], input: &[u8]) -> Running {
        use std::io::Write;
        use std::process::Stdio;
        let mut child = std::process::Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input).unwrap();
        let answers = std::io::BufReader::new(child.stdout.take().unwrap());
        Running {
            child,
            input: Some(stdin),
            answers,
        }
    }

    /// The next line of standard output.
    fn answer(&mut self) -> String {
        use std::io::BufRead;
        let mut line = String::new();
        self.answers.read_line(&mut line).unwrap();
        line
    }

    /// Sends the signal `name` (`INT`, `TERM`, `HUP`), through kill(1), as a user would.
    fn signal(&self, name: &str) {
        let sent = std::process::Command::new("kill")
            .args(["-s", name, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Waits for the end, at most a minute: the status, the rest of standard output and
    /// standard error.
    fn end(&mut self) -> (std::process::ExitStatus, String, String) {
        use std::io::Read;
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(start.elapsed().as_secs() < 60, "c4 did not end");
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let (mut out, mut log) = (String::new(), String::new());
        self.answers.read_to_string(&mut out).unwrap();
        let stderr = self.child.stderr.as_mut().unwrap();
        stderr.read_to_string(&mut log).unwrap();
        (status, out, log)
    }
}

#[cfg(target_os = "linux")]
impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether this process ignores SIGINT (and so the processes it starts do too): its `SigIgn`
/// mask in `/proc/self/status`.
#[cfg(target_os = "linux")]
fn is_sigint_ignored() -> bool {
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let mask = status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .map(|mask| u64::from_str_radix(mask.trim(), 16).unwrap())
        .unwrap();
    mask >> 1 & 1 == 1
}

#[test]
#[cfg(target_os = "linux")]
fn a_signal_stops_a_checkpointed_solve_once_its_progress_is_saved() {
    use std::os::unix::process::ExitStatusExt;

    let folder = scratch("signal");
    let file = folder.join("run.ckpt");
    let file_arg = file.to_str().unwrap();
    let c4 = assert_cmd::cargo::cargo_bin("c4");
    let args = ["solve", "--no-book", "--checkpoint", file_arg];
    // Waiting for input, with no search under way, c4 ends by the signal at once. A test run
    // started as a background job of a shell inherits SIGINT ignored, and c4 then leaves it
    // ignored, as it does SIGHUP under nohup: SIGTERM ends it instead.
    let mut waiting = Running::start(&c4, &args, b"4455\n");
    assert_eq!(waiting.answer(), "4455 18\n");
    waiting.signal("INT");
    if is_sigint_ignored() {
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(
            waiting.child.try_wait().unwrap().is_none(),
            "an ignored SIGINT ended c4"
        );
        waiting.signal("TERM");
        assert_eq!(waiting.end().0.signal(), Some(15));
    } else {
        assert_eq!(waiting.end().0.signal(), Some(2));
    }
    // In a long search (the first move, seconds even with the release build), the first signal
    // saves the progress, and the line says where it is; the next lines are not read. The
    // file is written first thing in the search, once the signals are answered.
    fs::remove_file(&file).unwrap();
    let mut searching = Running::start(&c4, &args, b"4\n4455\n");
    let begun = std::time::Instant::now();
    while !fs::read(&file).is_ok_and(|bytes| !bytes.is_empty()) {
        assert!(begun.elapsed().as_secs() < 60, "no checkpoint file");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    searching.signal("TERM");
    let (status, out, log) = searching.end();
    assert_eq!(status.signal(), Some(15), "{log}");
    assert_eq!(
        out,
        format!(
            "4 error: stopped before the end; the progress is saved in {file_arg}: run this \
             line again with the same --board and --checkpoint to go on\n"
        )
    );
    assert!(
        log.contains(&format!(
            "c4 solve: SIGTERM: stopping once the progress is saved to {file_arg}"
        )) && log.contains(&format!("checkpoint {file_arg}: score between ")),
        "{log}"
    );
    // Nothing is left beside the checkpoint: no lock file, no new file of a save.
    assert_eq!(common::names(&folder), ["run.ckpt"]);
    // Resumed, and sent two SIGTERMs, c4 ends at once on the second, during the first's save or
    // after it: still nothing is left.
    let mut twice = Running::start(&c4, &args, b"4\n");
    std::thread::sleep(std::time::Duration::from_millis(500));
    twice.signal("TERM");
    twice.signal("TERM");
    assert_eq!(twice.end().0.signal(), Some(15));
    assert_eq!(common::names(&folder), ["run.ckpt"]);
    // Started with SIGHUP ignored (nohup), c4 leaves it ignored.
    let other = folder.join("other.ckpt");
    let other_args = [
        "solve",
        "--no-book",
        "--checkpoint",
        other.to_str().unwrap(),
    ];
    let nohup_args = [&[c4.to_str().unwrap()], &other_args[..]].concat();
    let mut nohup = Running::start(Path::new("nohup"), &nohup_args, b"4455\n");
    assert_eq!(nohup.answer(), "4455 18\n");
    nohup.signal("HUP");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(nohup.child.try_wait().unwrap().is_none(), "SIGHUP ended c4");
    nohup.input = None;
    assert_eq!(nohup.end().0.code(), Some(0));
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn every_play_flag_form_still_works() {
    let game = |args: &[&str]| {
        let args = [&["play"], args].concat();
        let run = c4(&args, "q\n");
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert!(
            run.stdout.ends_with("Thanks for playing!\n"),
            "{args:?}: {}",
            run.stdout
        );
    };
    game(&["--players", "02", "--tokens", "xo"]);
    game(&["--width=9", "--height", "7", "--connect=5"]);
    game(&["--letters"]);
    game(&["--from-zero", "--style", "pipes"]);
    game(&["--columns", "letters", "--early-draw", "off", "--seed", "3"]);
    game(&[
        "--players",
        "3",
        "--computer",
        "o=random",
        "--computer=a=lookahead:2:right",
    ]);
    game(&[
        "--names",
        "Ann,Ben",
        "--computer",
        "o=perfect",
        "--human",
        "o",
    ]);
    game(&["--fen", "7/7/7/7/7/7 x", "--moves", "4453"]);
    game(&["--start", "off"]);
    game(&["--start=off", "--seed", "1"]);
}

#[test]
fn the_protocol_exits_1_on_a_failure_only_under_strict() {
    let script = "play 9\nfen\n";
    let relaxed = c4(&[], script);
    assert_eq!(relaxed.code, 0);
    assert_eq!(
        relaxed.stdout.matches('\n').count(),
        4,
        "{}",
        relaxed.stdout
    );
    let strict = c4(&["--strict"], script);
    assert_eq!(strict.code, 1);
    assert_eq!(
        strict.stdout,
        "? column 9 is off the board (columns 1-7)\n\n"
    );
    assert_eq!(c4(&["--strict"], "play 4\nfen\n").code, 0);
}

#[test]
fn bench_exits_0_when_every_score_matches_and_1_when_one_does_not() {
    let folder = scratch("bench");
    let good = folder.join("good.txt");
    let bad = folder.join("bad.txt");
    // The first two lines of the end-easy set; the second with its score changed in `bad`.
    fs::write(
        &good,
        "6656121765165112214223425456774 -5\n243331165617225415252273643137 -3\n",
    )
    .unwrap();
    fs::write(
        &bad,
        "6656121765165112214223425456774 -5\n243331165617225415252273643137 3\n",
    )
    .unwrap();
    let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());

    let run = c4(&["bench", good], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with(&format!("{good} positions=2 ")),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with(" exact=true\n"), "{}", run.stdout);

    let run = c4(&["bench", good, bad], "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
    assert!(run.stdout.ends_with(" exact=false\n"), "{}", run.stdout);
    // Each line that did not match is named, and so is one that is not a position.
    assert_eq!(
        run.stderr,
        format!("c4 bench: {bad}: no match: 243331165617225415252273643137 3 (solved -3)\n")
    );
    let garbled = folder.join("garbled.txt");
    fs::write(&garbled, "# a comment\n").unwrap();
    let garbled = garbled.to_str().unwrap();
    let run = c4(&["bench", garbled], "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(&format!(
            "c4 bench: {garbled}: no match: # a comment (not a position: "
        )),
        "{}",
        run.stderr
    );
    fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn bench_runs_the_repository_samples_by_name() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/bench/end-easy.txt");
    let run = c4(&["bench", "--limit", "3", sample], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(" positions=3 "), "{}", run.stdout);
}

#[test]
fn an_unreadable_bench_file_exits_2_before_anything_is_solved() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/bench/end-easy.txt");
    let run = c4(&["bench", sample, "missing.txt"], "");
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert_eq!(
        run.stderr,
        "c4 bench: cannot read missing.txt: no such file or directory\n"
    );
}

/// Writing to a full disk is an I/O error: status 1, and the reason on stderr.
#[cfg(target_os = "linux")]
#[test]
fn an_output_error_exits_1() {
    use std::io::Write;
    use std::process::Stdio;

    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_c4"))
        .arg("solve")
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"4455\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "c4: no space left on the device\n"
    );
    // Help that cannot be written is an output error too.
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_c4"))
        .arg("--help")
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "c4: no space left on the device\n"
    );
}

/// docs/cli.md's rule for a finished game, at the command line and the protocol: its value
/// answered (the score its last move left, and the core's `finished_score` agrees), no column,
/// a move refused in the core's words.
#[test]
fn a_finished_game_is_answered_and_has_no_move() {
    let mut game = c4_core::Game::new(c4_core::Variant::default());
    for number in [4, 4, 5, 5, 6, 6, 7] {
        game.play(game.column(number).unwrap()).unwrap();
    }
    let score = c4_core::finished_score(&game).unwrap().unwrap();
    assert_eq!(score.value(), -18);
    assert_eq!(c4(&["solve"], "4455667\n").stdout, "4455667 -18\n");
    assert_eq!(
        c4(&["solve", "--analyze"], "4455667\n").stdout,
        "4455667 - - - - - - -\n"
    );
    assert_eq!(
        c4(&[], "moves 4455667\nsolve\nanalyze\ngo\n").stdout,
        "= ply 7, x wins: horizontal d1 e1 f1 g1\n\n\
         = over; x won with its 4th stone, on ply 7\n\n\
         = over; x won with its 4th stone, on ply 7\n\n\
         ? the game is over (x won); there is no move to choose\n\n"
    );
}
