//! The opening book from outside: the book built into the binary checked against live search,
//! and `c4 book` run as a command (verify, info, merge, bad arguments).

use std::path::PathBuf;

use assert_cmd::Command;
use c4_core::built_in_book;
use c4_core::sample_entries;
use c4_core::{book_checksum, canonical_key, position_of_key, Book};
use c4_core::{Limits, Position, Score, Solver, SolverError};

/// Entries of the built-in book at its deepest ply that a search without the book confirms
/// within this many nodes each; the others are skipped, so the test stays quick.
const NODE_BUDGET: u64 = 300_000;
/// How many such entries must be confirmed.
const CONFIRMED: usize = 24;

#[test]
fn the_built_in_book_agrees_with_live_search() {
    let book = built_in_book().expect("the built-in book loads");
    let deepest = sample_entries(&book, usize::MAX, Some(book.depth()), 11).unwrap();
    assert!(
        deepest.len() >= CONFIRMED,
        "too few entries at the deepest ply"
    );
    let mut solver = Solver::new();
    let limits = Limits {
        max_nodes: Some(NODE_BUDGET),
        ..Limits::default()
    };
    let (mut confirmed, mut tried) = (0, 0);
    for (position, score) in &deepest {
        tried += 1;
        match solver.solve_within(position, &limits) {
            Ok(found) => {
                assert_eq!(found, *score, "book entry {:#x}", canonical_key(position));
                confirmed += 1;
            }
            Err(SolverError::Interrupted { lower, upper }) => {
                assert!(
                    lower <= *score && *score <= upper,
                    "book entry {:#x}: {score} outside the proven {lower}..{upper}",
                    canonical_key(position)
                );
            }
            Err(other) => panic!("unexpected error {other}"),
        }
        if confirmed == CONFIRMED {
            break;
        }
    }
    assert_eq!(
        confirmed, CONFIRMED,
        "only {confirmed} of {tried} entries solved within {NODE_BUDGET} nodes"
    );
}

#[test]
fn every_shallower_entry_is_the_best_of_its_children() {
    // The scores below the deepest ply were computed from the deepest ones: each must be the
    // negamax of its children's, which the book holds too.
    let book = built_in_book().expect("the built-in book loads");
    let area = (book.width() * book.height()) as i32;
    let mut checked = 0;
    for (key, score) in book.entries() {
        let position = position_of_key(book.width(), book.height(), key).unwrap();
        if position.moves_played() == book.depth() {
            continue;
        }
        let moves = position.moves_played() as i32;
        let best = (0..book.width())
            .filter(|&c| position.can_play(c))
            .map(|c| {
                let mut child = position;
                child.play_column(c).unwrap();
                if child.can_win_next() {
                    -((area - moves) / 2)
                } else {
                    -i32::from(
                        book.score(&child)
                            .expect("the child is in the book")
                            .value(),
                    )
                }
            })
            .max()
            .unwrap();
        assert_eq!(i32::from(score.value()), best, "entry {key:#x}");
        checked += 1;
    }
    assert!(checked > 0);
}

fn pos(moves: &str) -> Position {
    let columns: Vec<u8> = moves.bytes().map(|b| b - b'1').collect();
    Position::from_moves(7, 6, &columns).unwrap()
}

/// An empty scratch folder; a test removes it once it has passed (a failed one leaves it to
/// look at).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("c4-book-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn c4(args: &[&str]) -> (String, String, i32) {
    let output = Command::cargo_bin("c4")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        output.status.code().unwrap(),
    )
}

#[test]
fn verify_exits_1_on_a_wrong_entry() {
    let dir = scratch("verify");
    // Two 12-stone positions of the analyze fixtures, scores 2 and 9; the second one wrong.
    let right = pos("111442242613");
    let wrong = pos("623535225567");
    let entries = [
        (canonical_key(&right), Score::new(2)),
        (canonical_key(&wrong), Score::new(10)),
    ];
    let path = dir.join("wrong.book");
    let book = Book::from_scores(7, 6, 12, entries).unwrap();
    std::fs::write(&path, book.to_bytes()).unwrap();
    let (out, _, code) = c4(&["book", "verify", path.to_str().unwrap(), "--sample", "10"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("book 10, search 9"), "{out}");
    assert!(out.ends_with("verified 2 entries: 1 mismatches\n"), "{out}");

    let right_only = Book::from_scores(7, 6, 12, [entries[0]]).unwrap();
    std::fs::write(&path, right_only.to_bytes()).unwrap();
    let (out, _, code) = c4(&["book", "verify", path.to_str().unwrap()]);
    assert_eq!(
        (out.as_str(), code),
        ("verified 1 entries: 0 mismatches\n", 0)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_and_bench_consult_the_book_file_they_are_given() {
    let dir = scratch("flag");
    // A 12-stone position of score 9 and a book that says 8: the book's answer shows that the
    // file was consulted, and bench then finds a wrong score.
    let moves = "623535225567";
    let path = dir.join("wrong.book");
    let book = Book::from_scores(7, 6, 12, [(canonical_key(&pos(moves)), Score::new(8))]).unwrap();
    std::fs::write(&path, book.to_bytes()).unwrap();
    let file = path.to_str().unwrap();
    let solve = |args: &[&str]| {
        let output = Command::cargo_bin("c4")
            .unwrap()
            .args(args)
            .write_stdin(format!("{moves}\n"))
            .output()
            .unwrap();
        (
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
            output.status.code().unwrap(),
        )
    };
    assert_eq!(solve(&["solve", "--book", file]).0, format!("{moves} 8\n"));
    assert_eq!(solve(&["solve"]).0, format!("{moves} 9\n"));
    assert_eq!(solve(&["solve", "--no-book"]).0, format!("{moves} 9\n"));
    // Its columns start at the floor the book gives them, minus 8: too high for the two
    // columns that keep the score 9, so they are given as 8.
    let (out, _, _) = solve(&["solve", "--analyze", "--book", file]);
    assert_eq!(out, format!("{moves} -2 0 8 0 -2 8 -2\n"));
    let (out, _, _) = solve(&["solve", "--analyze"]);
    assert_eq!(out, format!("{moves} -2 0 9 0 -2 9 -2\n"));

    let bench = dir.join("bench.txt");
    std::fs::write(&bench, format!("{moves} 9\n")).unwrap();
    let (out, _, code) = c4(&["bench", "--book", file, bench.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let (out, _, code) = c4(&["bench", bench.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");

    let missing = dir.join("missing.book");
    let (out, err, code) = solve(&["solve", "--book", missing.to_str().unwrap()]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert_eq!(
        err,
        format!(
            "c4 solve: cannot load book {}: no such file or directory\n",
            missing.display()
        )
    );
    let (_, err, code) = c4(&["bench", "--book", bench.to_str().unwrap(), "--empty"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a c4 book file"), "{err}");
    let (_, err, code) = c4(&["bench", "--book", file, "--no-book", "--empty"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_format_1_book_is_read_and_described_as_such() {
    let dir = scratch("format1");
    // Format 1: the header, then `key << 8 | score` per entry, sorted.
    let mut entries: Vec<u64> = [("", 1), ("4", -1), ("44", 0)]
        .iter()
        .map(|&(moves, score)| canonical_key(&pos(moves)) << 8 | u64::from(score as i8 as u8))
        .collect();
    entries.sort_unstable();
    let mut header = b"c4-book\n".to_vec();
    header.extend(1u32.to_le_bytes());
    header.extend([7, 6, 2, 0]);
    header.extend((entries.len() as u64).to_le_bytes());
    let body: Vec<u8> = entries.iter().flat_map(|e| e.to_le_bytes()).collect();
    header.extend(book_checksum(&header, &body).to_le_bytes());
    header.extend(body);
    let path = dir.join("old.book");
    std::fs::write(&path, &header).unwrap();
    let (out, err, code) = c4(&["book", "info", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("3 entries, ") && out.contains("(the file, in format 1: 56 bytes)"),
        "{out}"
    );
    let book = Book::from_bytes(&header).unwrap();
    assert_eq!(book.score(&pos("")), Some(Score::new(1)));
    assert_eq!(book.score(&pos("44")), Some(Score::new(0)));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_files_and_arguments_are_reported_not_crashed_on() {
    let dir = scratch("errors");
    let path = dir.join("bad.book");
    std::fs::write(&path, b"c4-book\nthis is not a book at all").unwrap();
    // A book file that cannot be used is status 2, as for `c4 solve --book` and `c4 bench`.
    let (_, err, code) = c4(&["book", "info", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("book format version"), "{err}");
    let missing = dir.join("missing.book");
    let (_, err, code) = c4(&["book", "verify", missing.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.ends_with("missing.book: no such file or directory\n"),
        "{err}"
    );
    let (_, err, code) = c4(&["book", "merge", "-o", "x.book", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("not a c4 shard progress file"), "{err}");
    let (_, err, code) = c4(&["book", "build", "--depth", "3", "--shard", "2/2"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("expected I/N with 0 <= I < N, got '2/2'"),
        "{err}"
    );
    let (out, _, code) = c4(&["book", "info"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("7x6 book, complete to depth"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_small_build_in_two_shards_merges_into_a_book() {
    let dir = scratch("shards");
    let dir_arg = dir.to_str().unwrap();
    for shard in ["0/2", "1/2"] {
        let (_, err, code) = c4(&[
            "book", "build", "--width", "5", "--height", "4", "--depth", "5", "--shard", shard,
            "--dir", dir_arg,
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let out_book = dir.join("small.book");
    let shards: Vec<String> = ["depth5-shard0-of2", "depth5-shard1-of2"]
        .iter()
        .map(|name| dir.join(format!("{name}.progress")).display().to_string())
        .collect();
    let (out, err, code) = c4(&[
        "book",
        "merge",
        "-o",
        out_book.to_str().unwrap(),
        &shards[0],
        &shards[1],
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("depth 5"), "{out}");
    let (out, _, code) = c4(&[
        "book",
        "verify",
        out_book.to_str().unwrap(),
        "--sample",
        "40",
    ]);
    assert_eq!(
        (out.as_str(), code),
        ("verified 40 entries: 0 mismatches\n", 0)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn builds_and_merges_write_into_the_data_folder_unless_told_otherwise() {
    let dir = scratch("data-folder");
    let (data, cwd) = (dir.join("data"), dir.join("cwd"));
    std::fs::create_dir_all(&cwd).unwrap();
    // c4 book run from `cwd`, with only the environment variables given of those that name the
    // data folder.
    let c4_in = |vars: &[(&str, &std::path::Path)], args: &[&str]| {
        let mut command = Command::cargo_bin("c4").unwrap();
        command
            .current_dir(&cwd)
            .env_remove("XDG_DATA_HOME")
            .env_remove("HOME");
        for (name, value) in vars {
            command.env(name, value);
        }
        let output = command.args(args).output().unwrap();
        (
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
            output.status.code().unwrap(),
        )
    };
    let small = [
        "book", "build", "--width", "5", "--height", "4", "--depth", "3",
    ];
    let folder = data.join("c4/book");
    let (out, err, code) = c4_in(&[("XDG_DATA_HOME", &data)], &small);
    assert_eq!(code, 0, "{err}");
    let progress = folder.join("depth3-shard0-of1.progress");
    let book = folder.join("c4.book");
    assert!(
        out.starts_with(&format!("{}: shard 0/1 of depth 3", progress.display()))
            && out.contains(&format!("\n{}: depth 3, ", book.display())),
        "{out}"
    );
    let built = std::fs::read(&book).unwrap();
    std::fs::remove_file(&book).unwrap();
    // --board and --hash, as c4 solve spells them, give the same book (from the same progress).
    let spelled = [
        "book", "build", "--board", "5x4", "--hash", "2", "--depth", "3",
    ];
    let (_, err, code) = c4_in(&[("XDG_DATA_HOME", &data)], &spelled);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&book).unwrap(), built);
    std::fs::remove_file(&book).unwrap();
    // HOME's .local/share when XDG_DATA_HOME is not set; a merge writes there too.
    let home = dir.join("home");
    let folder = home.join(".local/share/c4/book");
    let (out, err, code) = c4_in(
        &[("HOME", &home)],
        &["book", "merge", progress.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&folder.join("c4.book").display().to_string()));
    assert_eq!(std::fs::read(folder.join("c4.book")).unwrap(), built);
    assert_eq!(
        std::fs::read_dir(&cwd).unwrap().count(),
        0,
        "nothing in cwd"
    );

    // Without either, only what is named is written, and nothing is solved first.
    let (_, err, code) = c4_in(&[], &small);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "c4 book: there is no per-user data folder to write to (neither XDG_DATA_HOME nor HOME \
         is set): give the folder with --dir and the book with -o\n"
    );
    let named = dir.join("named");
    let dir_arg = named.to_str().unwrap();
    let (_, err, code) = c4_in(&[], &[&small[..], &["--dir", dir_arg]].concat());
    assert_eq!(code, 1);
    assert!(err.contains("give the folder with --dir and the book with -o"));
    assert!(!named.exists(), "refused before solving");
    let (_, err, code) = c4_in(
        &[],
        &[&small[..], &["--dir", dir_arg, "--shard", "0/1"]].concat(),
    );
    assert_eq!(code, 0, "{err}");
    let out_book = named.join("small.book");
    let (_, err, code) = c4_in(
        &[],
        &[
            &small[..],
            &["--dir", dir_arg, "-o", out_book.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&out_book).unwrap(), built);
    std::fs::remove_dir_all(&dir).unwrap();
}
