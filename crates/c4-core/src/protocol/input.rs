//! A line of input before its command is parsed: read with a bound on its length, then refused
//! whole ([`LineError`]) or cut down to the text of its command.

use std::io::{self, BufRead};

use thiserror::Error;

use crate::rules::unfit_in_a_line;
use crate::textio::read_bounded_line;

/// The longest line accepted, in bytes without the line ending; longer ones are refused whole.
pub const MAX_LINE_BYTES: usize = 16 * 1024;

/// Why a line is refused whole, before its command is read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub(crate) enum LineError {
    /// Longer than [`MAX_LINE_BYTES`].
    #[error("the line is longer than {MAX_LINE_BYTES} bytes and was ignored")]
    TooLong,
    /// Not UTF-8: the first byte that is not, and its column from 1.
    #[error("the line is not valid UTF-8 (byte 0x{byte:02x} at column {column})")]
    NotUtf8 { byte: u8, column: usize },
    /// A character other than tab that one line cannot hold ([`unfit_in_a_line`]): what it
    /// is, its code point and its column from 1.
    #[error(
        "the line contains the {kind} U+{code:04X} at column {column}; commands are printable text"
    )]
    NotOneLine {
        kind: &'static str,
        code: u32,
        column: usize,
    },
}

/// One line as read: its bytes, or the fact that it was too long.
pub enum RawLine {
    Bytes(Vec<u8>),
    TooLong,
}

/// The next protocol line; a line over `MAX_LINE_BYTES` is refused whole.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<RawLine>> {
    Ok(
        read_bounded_line(input, MAX_LINE_BYTES)?.map(|line| match line.cut {
            true => RawLine::TooLong,
            false => RawLine::Bytes(line.bytes),
        }),
    )
}

/// Turns raw bytes into the text of a command: refuses what is not UTF-8 or holds a character
/// other than tab that one line cannot hold (a control character, U+2028 or U+2029, which a
/// client may take for a line break, and so for a reply of its own), drops a `#` comment, and
/// gives `None` for a line with nothing left.
pub(super) fn clean_line(bytes: &[u8]) -> Result<Option<&str>, LineError> {
    let text = std::str::from_utf8(bytes).map_err(|e| LineError::NotUtf8 {
        byte: bytes[e.valid_up_to()],
        column: e.valid_up_to() + 1,
    })?;
    // The whole line, comment included, as for UTF-8: a refused line is refused whole.
    let unfit = |(i, c)| Some((i, c, unfit_in_a_line(c).filter(|_| c != '\t')?));
    if let Some((i, c, kind)) = text.char_indices().find_map(unfit) {
        return Err(LineError::NotOneLine {
            kind,
            code: u32::from(c),
            column: text[..i].chars().count() + 1,
        });
    }
    let text = text.split('#').next().unwrap_or("").trim();
    Ok((!text.is_empty()).then_some(text))
}

/// The text of a line that gets a reply, `None` for a blank or comment line, or why the line is
/// refused whole (too long, not UTF-8, a character one line cannot hold).
pub(super) fn line_text(line: &RawLine) -> Result<Option<&str>, LineError> {
    match line {
        RawLine::TooLong => Err(LineError::TooLong),
        RawLine::Bytes(bytes) => clean_line(bytes),
    }
}
