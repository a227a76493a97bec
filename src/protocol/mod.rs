//! The line protocol: reads command lines, runs them on a [`Session`], writes framed replies.
//! This is the only layer that does I/O; `protocol.md` at the repository root is its contract.

pub mod command;
pub mod reply;
pub mod savefile;
pub mod search;
pub mod session;

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

pub use command::{parse_request, Command, CommandError, Request};
pub use reply::{frame, Response};
pub use search::{Finished, Search};
pub use session::{Flow, Session, SessionError, Step};

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

/// The next protocol line; a line over `MAX_LINE_BYTES` is refused whole.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<RawLine>> {
    Ok(
        read_bounded_line(input, MAX_LINE_BYTES)?.map(|line| match line.cut {
            true => RawLine::TooLong,
            false => RawLine::Bytes(line.bytes),
        }),
    )
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

/// The most lines read ahead while a search runs; past that, reading waits for the search.
pub const MAX_PENDING_LINES: usize = 1024;

/// What the reading thread passes on.
enum Input {
    Lines(Vec<RawLine>),
    End,
    Failed(io::Error),
}

/// The most lines passed on at once.
const BATCH_LINES: usize = 256;

/// Reads lines on their own thread so that `stop` is seen while a search runs. Lines already
/// waiting in the buffer go on together (a script is not slowed by a hand-over per line; a
/// person's or a GUI's line goes on at once). The channel is bounded: a fast writer waits
/// instead of filling memory.
fn spawn_reader(input: impl Read + Send + 'static) -> (Receiver<Input>, JoinHandle<()>) {
    let (sender, receiver) = mpsc::sync_channel(16);
    let mut input = BufReader::with_capacity(64 * 1024, input);
    let reader = thread::spawn(move || loop {
        let mut batch = Vec::new();
        let ending = loop {
            match read_line(&mut input) {
                Ok(Some(line)) => batch.push(line),
                Ok(None) => break Some(Input::End),
                Err(e) => break Some(Input::Failed(e)),
            }
            if batch.len() == BATCH_LINES || !input.buffer().contains(&b'\n') {
                break None;
            }
        };
        if !batch.is_empty() && sender.send(Input::Lines(batch)).is_err() {
            return;
        }
        if let Some(last) = ending {
            let _ = sender.send(last);
            return;
        }
    });
    (receiver, reader)
}

/// The lines not yet run, in order, and whether the input has ended.
struct Lines {
    receiver: Receiver<Input>,
    /// The reading thread, joined once it has passed on the end of the input.
    reader: Option<JoinHandle<()>>,
    pending: VecDeque<RawLine>,
    ended: bool,
}

impl Lines {
    /// Notes the end of the input; the reading thread has then finished, so it is joined.
    fn end(&mut self) {
        self.ended = true;
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }

    /// The next line to run; `None` at the end of input.
    fn next(&mut self) -> io::Result<Option<RawLine>> {
        if let Some(line) = self.pending.pop_front() {
            return Ok(Some(line));
        }
        if self.ended {
            return Ok(None);
        }
        match self.receiver.recv() {
            Ok(Input::Lines(lines)) => {
                self.pending.extend(lines);
                Ok(self.pending.pop_front())
            }
            Ok(Input::Failed(e)) => Err(e),
            Ok(Input::End) | Err(_) => {
                self.end();
                Ok(None)
            }
        }
    }

    /// Waits for `search` to finish while reading ahead: a `stop` or `quit` that is the first
    /// command after the search stops it at once (a later one waits its turn, so a script means
    /// the same however fast it is read); every line read is kept to run afterwards, in order.
    fn wait_for(&mut self, search: Box<Search>) -> io::Result<Finished> {
        let stop = search.stop_flag();
        if self
            .pending
            .iter()
            .find(|l| is_command(l))
            .is_some_and(stops_search)
        {
            stop.store(true, Ordering::Relaxed);
        }
        let (done, finished) = mpsc::channel();
        let worker = thread::spawn(move || {
            let _ = done.send(search.run());
        });
        let joined = |result| {
            let _ = worker.join();
            Ok(result)
        };
        loop {
            match finished.try_recv() {
                Ok(result) => return joined(result),
                Err(TryRecvError::Disconnected) => {
                    return Err(io::Error::other("the search thread failed"));
                }
                Err(TryRecvError::Empty) => {}
            }
            if self.ended || self.pending.len() >= MAX_PENDING_LINES {
                return match finished.recv() {
                    Ok(result) => joined(result),
                    Err(_) => Err(io::Error::other("the search thread failed")),
                };
            }
            match self.receiver.recv_timeout(Duration::from_millis(1)) {
                Ok(Input::Lines(lines)) => {
                    for line in lines {
                        if stops_search(&line) && !self.pending.iter().any(is_command) {
                            stop.store(true, Ordering::Relaxed);
                        }
                        self.pending.push_back(line);
                    }
                }
                Ok(Input::Failed(e)) => return Err(e),
                Ok(Input::End) | Err(RecvTimeoutError::Disconnected) => self.end(),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

/// Whether a line is `stop` or `quit`, which end a running search.
fn stops_search(line: &RawLine) -> bool {
    let RawLine::Bytes(bytes) = line else {
        return false;
    };
    matches!(clean_line(bytes), Ok(Some(text))
        if matches!(parse_request(text).command, Ok(Command::Stop | Command::Quit)))
}

/// Whether a line gets a reply (anything but blank and comment lines).
fn is_command(line: &RawLine) -> bool {
    match line {
        RawLine::TooLong => true,
        RawLine::Bytes(bytes) => !matches!(clean_line(bytes), Ok(None)),
    }
}

/// Runs the interpreter until `quit`, end of input, or (strict) the first failure. Every reply
/// is flushed as soon as it is written. Searches run on a worker thread while input is read.
pub fn run(
    input: impl Read + Send + 'static,
    mut output: impl Write,
    options: Options,
) -> io::Result<Exit> {
    let mut session = Session::default();
    let (receiver, reader) = spawn_reader(input);
    let mut lines = Lines {
        receiver,
        reader: Some(reader),
        pending: VecDeque::new(),
        ended: false,
    };
    while let Some(raw) = lines.next()? {
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
                Err(message) => (None, Err(message), Flow::Continue),
                Ok(Some(text)) => {
                    let Request { id, command } = parse_request(text);
                    match command.map(|c| session.execute(c)) {
                        Err(e) => (id, Err(e.to_string()), Flow::Continue),
                        Ok(Step::Reply(result, flow)) => {
                            (id, result.map_err(|e| e.to_string()), flow)
                        }
                        Ok(Step::Search(search)) => {
                            let finished = lines.wait_for(search)?;
                            (
                                id,
                                session.finish(finished).map_err(|e| e.to_string()),
                                Flow::Continue,
                            )
                        }
                    }
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(input: &[u8]) -> String {
        let mut out = Vec::new();
        run(
            io::Cursor::new(input.to_vec()),
            &mut out,
            Options::default(),
        )
        .unwrap();
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
