//! Fuzzes the text parsers: command lines (of the protocol and of the UGI dialect), move
//! sequences and FEN never panic on any input, and what parses reads back the same from its
//! display. The input is parsed whole and line by line,
//! so that every line of the protocol scripts seeds the parsers (a script with one bad byte still
//! gives its other lines).
#![no_main]

use c4_core::parse_request;
use c4_core::parse_ugi;
use c4_core::{unfit_in_a_line, Variant};
use c4_core::{Fen, MoveText};
use libfuzzer_sys::fuzz_target;

fn parse_all(text: &str) {
    // Command lines reach the parsers only once the interpreter has refused those with a
    // character one line cannot hold (a tab aside): `new tokens \0\u{b}` never parses there,
    // and would not read back the same (the display's trailing `\u{b}` is trimmed as a blank).
    let command_line = !text
        .chars()
        .any(|c| c != '\t' && unfit_in_a_line(c).is_some());
    if let Some(command) = command_line
        .then(|| parse_request(text).command.ok())
        .flatten()
    {
        let written = command.to_string();
        assert_eq!(parse_request(&written).command, Ok(command), "{written:?}");
    }
    if let Some(command) = command_line.then(|| parse_ugi(text).ok()).flatten() {
        let written = command.to_string();
        assert_eq!(parse_ugi(&written), Ok(command), "{written:?}");
    }
    if let Ok(moves) = MoveText::parse(text) {
        for width in [1, 7, 9, 10, 16] {
            let _ = moves.columns(width);
        }
        assert_eq!(MoveText::parse(&moves.to_string()), Ok(moves));
    }
    if let Ok(fen) = Fen::parse(text) {
        let _ = fen.to_game(&Variant::default());
        assert_eq!(Fen::parse(&fen.to_string()), Ok(fen));
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        parse_all(text);
    }
    if data.contains(&b'\n') {
        for line in data.split(|&b| b == b'\n') {
            if let Ok(text) = std::str::from_utf8(line) {
                parse_all(text);
            }
        }
    }
});
