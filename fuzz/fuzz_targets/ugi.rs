//! Fuzzes the UGI dialect with command sequences against a live session: no panic, only
//! well-formed reply lines, and exactly one `bestmove` per `go`. Each `go` is followed by `stop`,
//! which ends it at once (an early position off the book would otherwise take minutes, which is
//! not a hang), and `hash` is left out (its tables of up to 8 GiB pass libFuzzer's memory limit).
#![no_main]

use std::io::Cursor;

use c4_core::Trust;
use c4_core::{run_ugi, ugi_command_of, UgiCommand, UgiOpening};
use libfuzzer_sys::fuzz_target;

/// The first words of every line the dialect writes.
const REPLY_STARTS: [&str; 7] = [
    "id ",
    "option ",
    "ugiok",
    "readyok",
    "response ",
    "info ",
    "bestmove ",
];

fuzz_target!(|data: &[u8]| {
    let mut input = Vec::new();
    let mut gos = 0;
    for line in data.split(|&b| b == b'\n') {
        if String::from_utf8_lossy(line)
            .to_ascii_lowercase()
            .contains("hash")
        {
            continue;
        }
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
    run_ugi(Cursor::new(input), &mut out, UgiOpening::Fresh, Trust::Full)
        .expect("memory I/O cannot fail");
    let text = String::from_utf8(out).expect("replies are UTF-8");
    for line in text.lines() {
        assert!(
            REPLY_STARTS.iter().any(|start| line.starts_with(start)),
            "{line:?}"
        );
    }
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bestmove ")).count(),
        gos
    );
});
