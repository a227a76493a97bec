//! Every search ends on time through the real binary, on the games where searching costs most
//! (16x16 with 8 players; 9x7 of connect 5 with 3 players): at a `stop` that follows it and at
//! its `movetime`, in the protocol and in UGI. Each run has a hang guard, so that a search that
//! no longer ends fails its test instead of hanging it; no test asserts a speed.

use std::time::Duration;

use assert_cmd::Command;

/// Far more than any of these runs takes, far less than the searches would without their end.
const HANG_GUARD: Duration = Duration::from_secs(20);

/// `c4 ARGS < input`'s standard output; it must exit with status 0 before the hang guard.
fn c4(args: &[&str], input: &str) -> String {
    let output = Command::cargo_bin("c4")
        .unwrap()
        .args(args)
        .write_stdin(input)
        .timeout(HANG_GUARD)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{input}: {:?}",
        output.status
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The protocol's replies to `input`, each without the empty line that ends it.
fn replies(input: &str) -> Vec<String> {
    c4(&[], input)
        .split_terminator("\n\n")
        .map(str::to_string)
        .collect()
}

/// Whether `reply` is `= bestmove N unproven` with N a column, then `rest`.
fn is_unproven_move(reply: &str, rest: &str) -> bool {
    reply
        .strip_prefix("= bestmove ")
        .and_then(|r| r.split_once(" unproven"))
        .is_some_and(|(column, after)| column.parse::<u32>().is_ok() && after == rest)
}

#[test]
fn stop_ends_perft_with_an_error_that_says_so() {
    assert_eq!(
        replies("new 16x16 players 8\nperft 12\nstop\n"),
        [
            "= ply 0, x to move",
            "? perft stopped before it finished depth 12",
            "="
        ]
    );
}

#[test]
fn movetime_ends_the_heuristic_search_and_the_look_ahead_with_a_move() {
    let out = replies(
        "new 16x16 players 8\ngo movetime 1\ngenmove perfect movetime 200\n\
         go lookahead 12 movetime 100\ngo depth 12 movetime 50\n",
    );
    assert_eq!(out.len(), 5, "{out:?}");
    assert!(is_unproven_move(&out[1], ""), "{out:?}");
    assert!(is_unproven_move(&out[2], "; ply 1, o to move"), "{out:?}");
    assert!(is_unproven_move(&out[3], ""), "{out:?}");
    assert!(is_unproven_move(&out[4], ""), "{out:?}");
}

#[test]
fn stop_ends_the_hint_and_the_streaming_analysis_of_a_game_the_solver_does_not_play() {
    let out = replies("new 16x16 players 8\nhint\nstop\nanalyze stream\nstop\n");
    assert_eq!(out.len(), 5, "{out:?}");
    assert_eq!(
        out[1].split_once(": ").map(|(_, why)| why),
        Some("stopped before it looked further than one move"),
        "{out:?}"
    );
    // The analysis answers `=`, then one `info` line per depth it finished (the first always).
    let stream: Vec<&str> = out[3].lines().collect();
    assert_eq!(stream[0], "=", "{out:?}");
    assert!(stream[1].starts_with("info depth 1 "), "{out:?}");
    assert_eq!(out[4], "=");
}

#[test]
fn movetime_ends_a_search_of_three_players_on_9x7() {
    let out = replies("new 9x7 connect 5 players 3\ngo lookahead 12 movetime 100\ngo movetime 1\n");
    assert!(is_unproven_move(&out[1], ""), "{out:?}");
    assert!(is_unproven_move(&out[2], ""), "{out:?}");
}

#[test]
fn ugi_answers_a_go_within_its_time_and_at_stop() {
    // The empty 16x16 board, which the solver does not play: the heuristic search chooses.
    let fen = ["16"; 16].join("/") + " x";
    let out = c4(
        &["ugi"],
        &format!("position fen {fen}\ngo movetime 100\ngo infinite\nstop\n"),
    );
    let bestmoves = out.lines().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(bestmoves, 2, "{out}");
}
