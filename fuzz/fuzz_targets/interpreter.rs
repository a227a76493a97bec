//! Fuzzes the whole interpreter with command sequences against a live session: no panic, and
//! every reply well framed. Searches are fuzzed too: each one is followed by `stop`, which ends it
//! within a millisecond (a solve of an early position, or a deep `perft`, would otherwise take
//! minutes, which is not a hang).
#![no_main]

use std::io::Cursor;

use c4_core::{run_protocol, ProtocolOptions};
use libfuzzer_sys::fuzz_target;

/// Commands that start a search, which `stop` ends.
const SEARCHES: [&str; 6] = ["go", "genmove", "solve", "analyze", "hint", "perft"];

/// The line as the fuzzer will feed it: `None` to leave it out, else the line and whether a
/// `stop` must follow it.
fn admit(line: &[u8]) -> Option<bool> {
    let text = String::from_utf8_lossy(line).to_ascii_lowercase();
    // The command as c4 reads it: everything from a `#` on is a comment (`go#x` is a `go`).
    let command_text = text.split('#').next().unwrap_or("");
    let mut words = command_text.split_ascii_whitespace().peekable();
    // A leading id (`7 solve`) is not the command: without this, a search with an id at the end
    // of the input would run to its end, minutes on an early position.
    if words
        .peek()
        .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
    {
        words.next();
    }
    let command = words.next().unwrap_or("");
    match command {
        // Keep saved files inside the temporary folder, whatever the fuzzer names.
        "save" | "load" if text.contains(['/', '\\']) => None,
        // A table of up to 8 GiB is the user's to ask for, but past the fuzzer's memory limit.
        "hash" => None,
        _ => Some(SEARCHES.contains(&command)),
    }
}

fuzz_target!(|data: &[u8]| {
    // `save` and `load` work on the current folder: keep their files out of the source tree.
    static FOLDER: std::sync::Once = std::sync::Once::new();
    FOLDER.call_once(|| {
        let folder = std::env::temp_dir().join("c4-fuzz-interpreter");
        std::fs::create_dir_all(&folder).expect("a temporary folder");
        std::env::set_current_dir(&folder).expect("the temporary folder");
    });
    // The smallest table: a session that searches makes one, for every input.
    let mut input = b"hash 2\n".to_vec();
    for line in data.split(|&b| b == b'\n') {
        if let Some(stop_after) = admit(line) {
            input.extend_from_slice(line);
            input.push(b'\n');
            if stop_after {
                input.extend_from_slice(b"stop\n");
            }
        }
    }
    let mut out = Vec::new();
    run_protocol(Cursor::new(input), &mut out, ProtocolOptions::default())
        .expect("memory I/O cannot fail");
    let text = String::from_utf8(out).expect("replies are UTF-8");
    for reply in text.split_terminator("\n\n") {
        assert!(
            reply.starts_with('=') || reply.starts_with('?'),
            "{reply:?}"
        );
    }
    assert!(text.is_empty() || text.ends_with("\n\n"));
});
