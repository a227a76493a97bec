//! The line protocol: reads command lines, runs them on a [`Session`], writes framed replies.
//! This is the only layer that does I/O; `protocol.md` at the repository root is its contract.

pub mod command;
pub mod reply;
pub mod savefile;
pub mod session;

use std::io::{self, BufRead, Write};

pub use command::{parse_request, Command, CommandError, Request};
pub use reply::{frame, Response};
pub use session::{Flow, Session, SessionError};

/// The longest line accepted, in bytes without the line ending; longer ones are refused whole.
pub const MAX_LINE_BYTES: usize = 16 * 1024;

/// How the interpreter behaves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Stop at the first command that fails.
    pub strict: bool,
}

/// Why the interpreter stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// `quit` was given.
    Quit,
    /// The input ended.
    EndOfInput,
    /// In strict mode, a command failed.
    Failed,
}

/// One line as read: its bytes, or the fact that it was too long.
enum RawLine {
    Bytes(Vec<u8>),
    TooLong,
}

/// Reads up to and including the next `\n`, keeping at most `MAX_LINE_BYTES` in memory;
/// `None` at end of input. A last line without `\n` still counts.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<RawLine>> {
    let mut line = Vec::new();
    let mut too_long = false;
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
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], i + 1),
            None => (buffer, buffer.len()),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE_BYTES + 1 {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let found_newline = done > chunk.len();
        input.consume(done);
        if found_newline {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if too_long || line.len() > MAX_LINE_BYTES {
        return Ok(Some(RawLine::TooLong));
    }
    Ok(Some(RawLine::Bytes(line)))
}

/// Turns raw bytes into the text of a command: refuses what is not UTF-8 or holds control
/// characters, drops a `#` comment, and gives `None` for a line with nothing left.
fn clean_line(bytes: &[u8]) -> Result<Option<&str>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "the line is not valid UTF-8 (byte 0x{:02x} at column {})",
            bytes[e.valid_up_to()],
            e.valid_up_to() + 1
        )
    })?;
    let text = text.split('#').next().unwrap_or("");
    if let Some((i, c)) = text
        .char_indices()
        .find(|&(_, c)| c.is_control() && c != '\t')
    {
        return Err(format!(
            "the line contains the control character U+{:04X} at column {}; commands are printable text",
            c as u32,
            text[..i].chars().count() + 1
        ));
    }
    let text = text.trim();
    Ok((!text.is_empty()).then_some(text))
}

/// Runs the interpreter until `quit`, end of input, or (strict) the first failure. Every reply
/// is flushed as soon as it is written.
pub fn run(mut input: impl BufRead, mut output: impl Write, options: Options) -> io::Result<Exit> {
    let mut session = Session::default();
    while let Some(raw) = read_line(&mut input)? {
        let (id, reply, flow) = match raw {
            RawLine::TooLong => (
                None,
                Err(format!(
                    "the line is longer than {MAX_LINE_BYTES} bytes and was ignored"
                )),
                Flow::Continue,
            ),
            RawLine::Bytes(bytes) => match clean_line(&bytes) {
                Ok(None) => continue,
                Ok(Some(text)) => answer(&mut session, text),
                Err(message) => (None, Err(message), Flow::Continue),
            },
        };
        output.write_all(frame(id, &reply).as_bytes())?;
        output.flush()?;
        if flow == Flow::Quit {
            return Ok(Exit::Quit);
        }
        if options.strict && reply.is_err() {
            return Ok(Exit::Failed);
        }
    }
    Ok(Exit::EndOfInput)
}

/// Parses and executes one command line.
fn answer(session: &mut Session, text: &str) -> (Option<u64>, Result<Response, String>, Flow) {
    let Request { id, command } = parse_request(text);
    match command {
        Err(e) => (id, Err(e.to_string()), Flow::Continue),
        Ok(command) => {
            let (result, flow) = session.execute(command);
            (id, result.map_err(|e| e.to_string()), flow)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(input: &[u8]) -> String {
        let mut out = Vec::new();
        run(input, &mut out, Options::default()).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn blank_and_comment_lines_get_no_reply() {
        assert_eq!(
            transcript(b"\n   \n# note\nfen # trailing comment\n"),
            "= 7/7/7/7/7/7 x\n\n"
        );
    }

    #[test]
    fn crlf_and_a_missing_final_newline_work() {
        assert_eq!(
            transcript(b"play 4\r\nfen"),
            "= ply 1, o to move\n\n= 3x3/7/7/7/7/7 o\n\n"
        );
    }

    #[test]
    fn bad_bytes_are_refused_by_position() {
        assert_eq!(
            transcript(b"fe\xffn\n"),
            "? the line is not valid UTF-8 (byte 0xff at column 3)\n\n"
        );
        assert_eq!(
            transcript(b"fen\x00\n"),
            "? the line contains the control character U+0000 at column 4; commands are printable text\n\n"
        );
    }

    #[test]
    fn over_long_lines_are_refused_and_the_next_line_still_runs() {
        let mut input = vec![b'a'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\nprotocol_version\n");
        assert_eq!(
            transcript(&input),
            format!("? the line is longer than {MAX_LINE_BYTES} bytes and was ignored\n\n= 1\n\n")
        );
    }

    #[test]
    fn strict_mode_stops_at_the_first_failure() {
        let mut out = Vec::new();
        let exit = run(&b"play 9\nfen\n"[..], &mut out, Options { strict: true }).unwrap();
        assert_eq!(exit, Exit::Failed);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "? column 9 is off the board (columns 1-7)\n\n"
        );
    }
}
