//! Fuzzes the whole interpreter with command sequences against a live session: no panic, and
//! every reply well framed. Lines that could start a long search are left out (a solve of an
//! early position or a deep perft takes minutes, which is not a hang).
#![no_main]

use std::io::Cursor;

use c4::protocol::{run, Options};
use libfuzzer_sys::fuzz_target;

const SLOW: [&str; 5] = ["go", "genmove", "solve", "analyze", "perft"];

fuzz_target!(|data: &[u8]| {
    // `save` and `load` work on the current folder: keep their files out of the source tree.
    static FOLDER: std::sync::Once = std::sync::Once::new();
    FOLDER.call_once(|| {
        let folder = std::env::temp_dir().join("c4-fuzz-interpreter");
        std::fs::create_dir_all(&folder).expect("a temporary folder");
        std::env::set_current_dir(&folder).expect("the temporary folder");
    });
    let input: Vec<u8> = data
        .split(|&b| b == b'\n')
        .filter(|line| {
            let text = String::from_utf8_lossy(line);
            !SLOW.iter().any(|w| text.contains(w)) && !text.contains("hint")
        })
        .flat_map(|line| line.iter().copied().chain(std::iter::once(b'\n')))
        .collect();
    let mut out = Vec::new();
    run(Cursor::new(input), &mut out, Options::default()).expect("memory I/O cannot fail");
    let text = String::from_utf8(out).expect("replies are UTF-8");
    for reply in text.split_terminator("\n\n") {
        assert!(
            reply.starts_with('=') || reply.starts_with('?'),
            "{reply:?}"
        );
    }
    assert!(text.is_empty() || text.ends_with("\n\n"));
});
