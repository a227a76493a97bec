//! Fuzzes the text parsers: command lines, move sequences and FEN never panic on any input.
#![no_main]

use c4::notation::{parse_moves, Fen};
use c4::protocol::parse_request;
use c4::rules::Variant;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_request(text);
        for width in [1, 7, 9, 10, 16] {
            let _ = parse_moves(text, width);
        }
        if let Ok(fen) = Fen::parse(text) {
            let _ = fen.to_game(&Variant::default());
        }
    }
});
