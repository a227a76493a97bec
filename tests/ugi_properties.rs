//! Property tests of the UGI dialect on random lines (valid, invalid and hostile): it never
//! panics, writes nothing but well-formed reply lines, and answers every `go` with exactly one
//! `bestmove`. The stable-toolchain stand-in for fuzzing the dialect, run on every CI build.

use std::io::Cursor;

use c4_core::Trust;
use c4_core::{run_ugi, ugi_command_of, UgiCommand, UgiOpening};
use proptest::prelude::*;

/// Command words, arguments and junk to build lines from. `hash` is left out: a table of up to
/// 8 GiB is the user's to ask for, not a test's.
fn word() -> impl Strategy<Value = String> {
    let words = [
        "ugi",
        "isready",
        "setoption",
        "name",
        "value",
        "level",
        "threads",
        "book",
        "true",
        "false",
        "uginewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "query",
        "p1turn",
        "gameover",
        "result",
        "go",
        "p1time",
        "p2time",
        "p1inc",
        "p2inc",
        "movetime",
        "depth",
        "nodes",
        "infinite",
        "stop",
        "random",
        "lookahead",
        "perfect",
        "7/7/7/7/7/7",
        "2x1oo1/2x4/7/7/7/7",
        "x",
        "o",
    ];
    prop_oneof![
        prop::sample::select(words.to_vec()).prop_map(str::to_string),
        "[0-9]{1,3}",
        "[1-7]{1,8}",
        "-[0-9]{1,3}",
        "[0-9]{19,24}",
        "[ -~]{0,6}",
        "\\PC{0,4}",
    ]
}

/// A well-formed command, so that searches and positions are reached as often as junk.
fn command_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "go (depth [1-4]|nodes [0-9]{1,5}|movetime [1-9]|infinite)?",
        "go p1time [0-9]{1,4} p2time [0-9]{1,4}( p1inc [0-9]{1,3} p2inc [0-9]{1,3})?",
        "position startpos( moves [1-7]{0,12})?",
        "query (p1turn|gameover|result)",
        "setoption name (level|Level) value (random|perfect|lookahead [1-4])",
        "setoption name book value (true|false)",
        "(isready|uginewgame|stop|ugi)",
    ]
}

/// A line: a well-formed command or one to five words, sometimes with a comment, a CR or a bad
/// byte.
fn line() -> impl Strategy<Value = Vec<u8>> {
    (
        prop_oneof![
            command_text().prop_map(|text| vec![text]),
            prop::collection::vec(word(), 1..6)
        ],
        prop::option::of(prop_oneof![
            Just(b"\r".to_vec()),
            Just(b" # note".to_vec()),
            Just(vec![0u8]),
            Just(vec![0xff])
        ]),
    )
        .prop_map(|(words, tail)| {
            let mut bytes = words.join(" ").into_bytes();
            if let Some(tail) = tail {
                bytes.extend_from_slice(&tail);
            }
            bytes
        })
}

/// Whether `line` is one of the lines the dialect writes.
fn is_reply_line(line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    let is_number = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    match words.as_slice() {
        ["ugiok"] | ["readyok"] => true,
        ["id", "name" | "author", ..] | ["option", "name", ..] => true,
        ["response", answer] => {
            ["true", "false", "p1win", "p2win", "draw", "none"].contains(answer)
        }
        ["bestmove", column] => *column == "none" || is_number(column),
        ["info", "string", _, ..] => true,
        ["info", rest @ ..] => {
            let rest = match rest {
                ["depth", depth, rest @ ..] if is_number(depth) => rest,
                rest => rest,
            };
            let rest = match rest {
                ["nodes", nodes, rest @ ..] if is_number(nodes) => rest,
                _ => return false,
            };
            let pv = match rest {
                ["score", "cp", "0", "pv", pv @ ..] | ["pv", pv @ ..] => pv,
                ["score", "mate", moves, "pv", pv @ ..]
                    if moves.trim_start_matches('-').parse::<u32>().is_ok() =>
                {
                    pv
                }
                _ => return false,
            };
            !pv.is_empty() && pv.iter().all(|c| is_number(c))
        }
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_go_gets_one_bestmove_and_every_line_is_well_formed(
        lines in prop::collection::vec(line(), 1..30)
    ) {
        // Every `go` is followed by `stop`: an early position off the book, a deep look-ahead or
        // `go infinite` would otherwise run for minutes.
        let mut input = Vec::new();
        let mut gos = 0;
        for line in &lines {
            input.extend_from_slice(line);
            input.push(b'\n');
            match ugi_command_of(line) {
                Some(UgiCommand::Go(_)) => {
                    gos += 1;
                    input.extend_from_slice(b"stop\n");
                }
                Some(UgiCommand::Quit) => break,
                _ => {}
            }
        }
        let mut out = Vec::new();
        run_ugi(Cursor::new(input), &mut out, UgiOpening::Fresh, Trust::Full).expect("memory I/O cannot fail");
        let out = String::from_utf8(out).expect("replies are UTF-8");
        for reply in out.lines() {
            prop_assert!(is_reply_line(reply), "{:?} in {}", reply, out);
        }
        let bestmoves = out.lines().filter(|l| l.starts_with("bestmove ")).count();
        prop_assert_eq!(bestmoves, gos, "{}", out);
    }
}
