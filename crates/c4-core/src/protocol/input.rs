//! A line of input before its command is parsed: read with a bound on its length (from a
//! stream, or from input that comes in pieces, [`Pending`]), then refused whole ([`LineError`])
//! or cut down to the text of its command.

use std::io::{self, BufRead};

use thiserror::Error;

use crate::rules::unfit_in_a_line;
use crate::textio::read_bounded_line;

/// The longest line accepted, in bytes without the line ending; longer ones are refused whole.
pub(crate) const MAX_LINE_BYTES: usize = 16 * 1024;

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

/// The most of an unfinished line that is kept: enough to know, once it ends, that it is too
/// long (a line of [`MAX_LINE_BYTES`] may still be followed by the `\r` of its ending).
const MAX_UNFINISHED_LINE: usize = MAX_LINE_BYTES + 2;

/// Input that comes in pieces cut anywhere: whole lines are taken out as they complete, and an
/// unfinished line past the longest accepted keeps only enough of itself to be refused whole
/// when it ends, however much more of it comes.
#[derive(Default)]
pub(super) struct Pending {
    /// Input not yet taken, from `taken` on: whole lines, then perhaps the start of one.
    bytes: Vec<u8>,
    /// How much of `bytes` has been taken out: dropped once per piece, not once per line, so
    /// that a long script is not moved once a line.
    taken: usize,
}

impl Pending {
    /// Adds the next piece of input.
    pub(super) fn push(&mut self, piece: &[u8]) {
        self.bytes.drain(..self.taken);
        self.taken = 0;
        let len = self.bytes.len();
        let newline = |b: &u8| *b == b'\n';
        let last_line = match piece.iter().rposition(newline) {
            Some(i) => len + i + 1,
            None => self.bytes.iter().rposition(newline).map_or(0, |i| i + 1),
        };
        let room = (last_line + MAX_UNFINISHED_LINE).saturating_sub(len);
        self.bytes
            .extend_from_slice(&piece[..piece.len().min(room)]);
    }

    /// The next line, taken out, if it is whole: ended by `\n`, or with `at_end` (the input has
    /// ended) the last one too.
    pub(super) fn take_line(&mut self, at_end: bool) -> Option<RawLine> {
        let rest = &self.bytes[self.taken..];
        let end = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => i + 1,
            None if at_end => rest.len(),
            None => return None,
        };
        // Reading from memory cannot fail.
        let line = read_line(&mut &rest[..end]).ok().flatten();
        self.taken += end;
        line
    }

    /// The next line that gets a reply, taken out with the blank and comment lines before it,
    /// if it is whole (as for [`Pending::take_line`]).
    pub(super) fn take_command(&mut self, at_end: bool) -> Option<RawLine> {
        loop {
            let line = self.take_line(at_end)?;
            if !matches!(line_text(&line), Ok(None)) {
                return Some(line);
            }
        }
    }

    /// The input not taken, for another reader.
    pub(super) fn into_rest(mut self) -> Vec<u8> {
        self.bytes.drain(..self.taken);
        self.bytes
    }

    /// How many bytes are kept.
    #[cfg(test)]
    pub(super) fn kept(&self) -> usize {
        self.bytes.len() - self.taken
    }
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
