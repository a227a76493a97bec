//! Reading text a line at a time from an untrusted stream without holding more than a bounded
//! number of bytes, whatever the stream sends: the protocol's command lines and `c4 play`'s
//! answers.

use std::io::{self, BufRead};

/// One line as read by [`read_bounded_line`]: at most the bytes asked for, without the line
/// ending (`\n` or `\r\n`), and whether more was cut off.
pub struct BoundedLine {
    /// The line's first bytes.
    pub bytes: Vec<u8>,
    /// Whether the line was longer than the bytes kept.
    pub cut: bool,
}

/// Reads up to and including the next `\n`, keeping at most `max` bytes in memory however long
/// the line is; `None` at end of input. A last line without `\n` still counts.
pub fn read_bounded_line(input: &mut impl BufRead, max: usize) -> io::Result<Option<BoundedLine>> {
    let mut bytes = Vec::new();
    let mut cut = false;
    let mut read_any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            break;
        }
        read_any = true;
        let (chunk, used) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], i + 1),
            None => (buffer, buffer.len()),
        };
        // One byte more than `max` is kept so that a `\r` ending a full-length line still fits.
        let room = (max + 1).saturating_sub(bytes.len());
        cut |= chunk.len() > room;
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let found_newline = used > chunk.len();
        input.consume(used);
        if found_newline {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    if !cut && bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    cut |= bytes.len() > max;
    bytes.truncate(max);
    Ok(Some(BoundedLine { bytes, cut }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<(String, bool)> {
        let mut input = io::BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        while let Some(line) = read_bounded_line(&mut input, max).unwrap() {
            out.push((String::from_utf8(line.bytes).unwrap(), line.cut));
        }
        out
    }

    #[test]
    fn line_endings_and_a_last_line_without_one() {
        assert_eq!(
            lines(b"ab\r\n\ncd", 8),
            [
                ("ab".into(), false),
                ("".into(), false),
                ("cd".into(), false)
            ]
        );
    }

    #[test]
    fn long_lines_keep_their_start_and_say_they_were_cut() {
        assert_eq!(
            lines(b"abcdefgh\nabcd\r\nxy\n", 4),
            [
                ("abcd".into(), true),
                ("abcd".into(), false),
                ("xy".into(), false)
            ]
        );
    }
}
