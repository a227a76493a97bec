//! Property tests of the interpreter on random command sequences (valid, invalid and hostile):
//! it never panics, answers every command line exactly once, and a failed command leaves the
//! game exactly as it was. The stable-toolchain stand-in for fuzzing, run on every CI build.

use std::io::Cursor;

use c4_core::{run_protocol, ProtocolOptions};
use c4_core::{ugi_command_of, UgiCommand};
use proptest::prelude::*;

/// Command words, arguments and junk to build lines from.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("play".to_string()),
        Just("moves".to_string()),
        Just("undo".to_string()),
        Just("new".to_string()),
        Just("position".to_string()),
        Just("startpos".to_string()),
        Just("fen".to_string()),
        Just("status".to_string()),
        Just("show".to_string()),
        Just("legal".to_string()),
        Just("perft".to_string()),
        Just("go".to_string()),
        Just("random".to_string()),
        Just("lookahead".to_string()),
        Just("seed".to_string()),
        Just("name".to_string()),
        Just("names".to_string()),
        Just("version".to_string()),
        Just("known_command".to_string()),
        Just("tokens".to_string()),
        Just("connect".to_string()),
        Just("players".to_string()),
        Just("early-draw".to_string()),
        Just("x".to_string()),
        Just("o".to_string()),
        Just("7/7/7/7/7/7".to_string()),
        Just("2x1oo1/2x4/7/7/7/7".to_string()),
        "[0-9]{1,3}",
        "[1-9]{1,8}",
        "[a-hA-H]{1,3}",
        "[0-9]{1,2}x[0-9]{1,2}",
        "-[0-9]{1,3}",
        "[0-9]{19,24}",
        "[ -~]{0,6}",
        "\\PC{0,4}",
    ]
}

/// A line of one to five words, sometimes with an id, a comment, a CR or a control byte.
fn line() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::option::of(0u64..1000),
        prop::collection::vec(word(), 1..6),
        prop::option::of(prop_oneof![
            Just(b"\r".to_vec()),
            Just(b" # note".to_vec()),
            Just(vec![0u8]),
            Just(vec![0xff])
        ]),
    )
        .prop_map(|(id, words, tail)| {
            let mut bytes = Vec::new();
            if let Some(id) = id {
                bytes.extend_from_slice(format!("{id} ").as_bytes());
            }
            bytes.extend_from_slice(words.join(" ").as_bytes());
            if let Some(tail) = tail {
                bytes.extend_from_slice(&tail);
            }
            bytes
        })
}

/// Runs `lines` through the interpreter and returns the transcript.
fn transcript(lines: &[Vec<u8>]) -> String {
    let mut input = Vec::new();
    for l in lines {
        input.extend_from_slice(l);
        input.push(b'\n');
    }
    let mut out = Vec::new();
    run_protocol(Cursor::new(input), &mut out, ProtocolOptions::default())
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("replies are UTF-8")
}

/// Whether the interpreter answers a line, worked out as protocol.md says: a final CR is
/// dropped; a line that is not UTF-8 or holds a control character (comment included) is
/// refused; otherwise it is ignored if what comes before `#` is blank.
fn is_answered(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let Ok(text) = std::str::from_utf8(line) else {
        return true;
    };
    let before_comment = text.split('#').next().unwrap_or("");
    text.chars().any(|c| c.is_control() && c != '\t') || !before_comment.trim().is_empty()
}

/// Whether a line may start a long search (kept out: the empty board takes minutes to solve).
fn is_slow(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    (text.contains("go") || text.contains("perft")) && !text.contains("random")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_line_gets_exactly_one_well_formed_reply(lines in prop::collection::vec(line(), 1..40)) {
        // Searches on the empty board can take minutes: keep random sequences to quick commands.
        // A first line `ugi` would switch to the UGI dialect, whose replies are not framed.
        let lines: Vec<Vec<u8>> = lines
            .into_iter()
            .filter(|l| !is_slow(l) && !matches!(ugi_command_of(l), Some(UgiCommand::Ugi)))
            .collect();
        let out = transcript(&lines);
        let replies: Vec<&str> = out.split_terminator("\n\n").collect();
        let expected = lines.iter().filter(|l| is_answered(l)).count();
        prop_assert_eq!(replies.len(), expected, "{}", out);
        for reply in replies {
            prop_assert!(reply.starts_with('=') || reply.starts_with('?'), "{}", reply);
            prop_assert!(!reply.contains("\n\n"));
            if reply.starts_with('?') {
                prop_assert_eq!(reply.lines().count(), 1, "{}", reply);
            }
        }
    }

    #[test]
    fn a_failed_command_changes_nothing(setup in "[1-7]{0,12}", line in line()) {
        prop_assume!(!is_slow(&line));
        // The position before, the line, then the position after.
        let before = format!("moves {setup}").into_bytes();
        let out = transcript(&[before, b"fen".to_vec(), b"status".to_vec(), line.clone(), b"fen".to_vec(), b"status".to_vec()]);
        let replies: Vec<&str> = out.split_terminator("\n\n").collect();
        if replies.len() == 6 && replies[3].starts_with('?') {
            prop_assert_eq!(replies[1], replies[4]);
            prop_assert_eq!(replies[2], replies[5]);
        }
    }
}
