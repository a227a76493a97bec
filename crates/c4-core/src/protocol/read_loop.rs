//! The interpreter's loop on a reader and a writer: [`run`], and the read-ahead that catches a `stop` while a search runs.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};

use super::command::{parse_request, Command};
use super::input::{clean_line, read_line, RawLine};
use super::interpreter::{Exit, Interpreter, Options, Turn};
use super::reply::{info_line, stream_head};
use super::search::{Finished, Search};
use super::{reply, ugi};

/// The size of the input buffer: a piped script is read in few system calls.
const INPUT_BUFFER_BYTES: usize = 64 * 1024;

/// What a search's read-ahead hands back: the input, and the first line after the search that
/// gets a reply (blank and comment lines are skipped), the end of the input, or a read error.
struct ReadAhead<R> {
    input: BufReader<R>,
    next: io::Result<Option<RawLine>>,
}

/// The lines of the input, in order. They are read on the interpreter's own thread, so when a
/// command runs nothing else is reading: `quit` and the end of a run leave no thread behind,
/// however the input was going to go on. Only while a search runs is the input read on a thread
/// of its own, and only up to the first line that gets a reply, which is all that can stop the
/// search; that thread is joined when the interpreter wants its next line.
struct Lines<R> {
    /// The input; `None` while a read-ahead has it.
    input: Option<BufReader<R>>,
    /// The read-ahead of the last search, if it has not been joined yet.
    ahead: Option<JoinHandle<ReadAhead<R>>>,
    /// The next line, once [`Lines::wait`] has read it.
    waiting: Option<io::Result<Option<RawLine>>>,
}

impl<R: Read + Send + 'static> Lines<R> {
    fn new(input: R) -> Self {
        Lines {
            input: Some(BufReader::with_capacity(INPUT_BUFFER_BYTES, input)),
            ahead: None,
            waiting: None,
        }
    }

    /// The input, for another dialect to read on; `None` while a read-ahead holds it (never
    /// between commands, when the interpreter itself reads).
    fn into_input(mut self) -> Option<BufReader<R>> {
        self.input.take()
    }

    /// Waits until the next line that gets a reply has been read (or the input has ended), and
    /// keeps it for [`Lines::next`].
    fn wait(&mut self) {
        if self.waiting.is_none() {
            self.waiting = Some(self.read_next());
        }
    }

    /// The next line to run; `None` at the end of input.
    fn next(&mut self) -> io::Result<Option<RawLine>> {
        match self.waiting.take() {
            Some(line) => line,
            None => self.read_next(),
        }
    }

    fn read_next(&mut self) -> io::Result<Option<RawLine>> {
        if let Some(ahead) = self.ahead.take() {
            let ahead = ahead
                .join()
                .map_err(|_| io::Error::other("the reading thread failed"))?;
            self.input = Some(ahead.input);
            return ahead.next;
        }
        match &mut self.input {
            Some(input) => read_line(input),
            None => Ok(None),
        }
    }

    /// Runs `search` on this thread while another reads ahead: a `stop` or `quit` that is the
    /// first command after the search stops it at once. A later one waits its turn, so a script
    /// means the same however fast it is read.
    fn search(&mut self, search: Box<Search>) -> Finished {
        self.read_ahead(&search);
        search.run()
    }

    /// Runs a streaming analysis on this thread, handing its `info` lines to `emit`, while
    /// another reads ahead: any line that gets a reply ends it.
    fn stream(
        &mut self,
        search: Box<Search>,
        emit: &mut dyn FnMut(&reply::Info) -> io::Result<()>,
    ) -> (Finished, io::Result<()>) {
        self.read_ahead(&search);
        search.run_stream(emit)
    }

    /// Starts reading ahead beside `search`, for the line that may stop it.
    fn read_ahead(&mut self, search: &Search) {
        if let Some(mut input) = self.input.take() {
            let stop = search.stop_flag();
            let any_line = search.is_stream();
            self.ahead = Some(thread::spawn(move || {
                let next = read_ahead(&mut input, &stop, any_line);
                ReadAhead { input, next }
            }));
        }
    }
}

impl<R> Drop for Lines<R> {
    /// A read-ahead still running when the interpreter stops early (a failed search in strict
    /// mode, a closed output) may be waiting on a read of standard input, which nothing can
    /// interrupt: it is joined only if it has finished, and otherwise ends with that read.
    fn drop(&mut self) {
        if let Some(ahead) = self.ahead.take() {
            if ahead.is_finished() {
                let _ = ahead.join();
            }
        }
    }
}

/// Reads up to the first line that gets a reply, and gives it back; sets `stop` (a search's
/// [`Search::stop_flag`]) if that line is `stop` or `quit`, or with `any_line` (a streaming
/// analysis) whatever it is.
pub fn read_ahead(
    input: &mut impl BufRead,
    stop: &AtomicBool,
    any_line: bool,
) -> io::Result<Option<RawLine>> {
    let next = loop {
        match read_line(input) {
            Ok(Some(line)) if !is_command(&line) => {}
            next => break next,
        }
    };
    if let Ok(Some(line)) = &next {
        if any_line || stops_search(line) {
            stop.store(true, Ordering::Relaxed);
        }
    }
    next
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
/// is flushed as soon as it is written. A search runs on this thread while another reads ahead
/// for a `stop`. When the first line is `ugi`, the rest of the session is in the UGI dialect
/// ([`ugi::run`]).
pub fn run(
    input: impl Read + Send + 'static,
    mut output: impl Write + Send,
    options: Options,
) -> io::Result<Exit> {
    let mut interpreter = Interpreter::threaded(options);
    let mut lines = Lines::new(input);
    while let Some(raw) = lines.next()? {
        let answer = match interpreter.answer(&raw) {
            Turn::Silent => continue,
            Turn::Ugi => {
                let Some(input) = lines.into_input() else {
                    return Ok(Exit::EndOfInput);
                };
                return ugi::run(input, output, ugi::Opening::Greeted, options.trust).map(|end| {
                    match end {
                        ugi::End::Quit => Exit::Quit,
                        ugi::End::EndOfInput => Exit::EndOfInput,
                    }
                });
            }
            Turn::Reply(answer) => answer,
            Turn::Search(id, search) if search.is_stream() => {
                // `=` at once, `info` lines as they come, and the empty line that ends the
                // reply once the next command has arrived.
                output.write_all(stream_head(id).as_bytes())?;
                output.flush()?;
                let mut emit = |info: &reply::Info| {
                    output.write_all(info_line(info).as_bytes())?;
                    output.write_all(b"\n")?;
                    output.flush()
                };
                let (finished, written) = lines.stream(search, &mut emit);
                written?;
                interpreter.end_stream(finished);
                lines.wait();
                output.write_all(b"\n")?;
                output.flush()?;
                continue;
            }
            Turn::Search(id, search) => {
                let finished = lines.search(search);
                interpreter.finish(id, finished)
            }
        };
        output.write_all(answer.framed.as_bytes())?;
        output.flush()?;
        if let Some(exit) = answer.exit {
            return Ok(exit);
        }
    }
    Ok(Exit::EndOfInput)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::MAX_LINE_BYTES;

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
        // In a comment too: a refused line is never run, whatever follows the `#`.
        assert_eq!(
            transcript(b"fen # \x01\n# \x1b[31m\n"),
            "? the line contains the control character U+0001 at column 7; commands are printable text\n\n\
             ? the line contains the control character U+001B at column 3; commands are printable text\n\n"
        );
        // Nor does a line hold what a client may take for a line break, and so for a reply.
        assert_eq!(
            transcript("name o a\u{2028}= forged\nfen\u{2029}\n".as_bytes()),
            "? the line contains the line separator U+2028 at column 9; commands are printable text\n\n\
             ? the line contains the paragraph separator U+2029 at column 4; commands are printable text\n\n"
        );
    }

    #[test]
    fn over_long_lines_are_refused_and_the_next_line_still_runs() {
        let mut input = vec![b'a'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\nprotocol_version\n");
        assert_eq!(
            transcript(&input),
            format!("? the line is longer than {MAX_LINE_BYTES} bytes and was ignored\n\n= 3\n\n")
        );
    }

    #[test]
    fn strict_mode_stops_at_the_first_failure() {
        let mut out = Vec::new();
        let exit = run(
            &b"play 9\nfen\n"[..],
            &mut out,
            Options {
                strict: true,
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(exit, Exit::Failed);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "? column 9 is off the board (columns 1-7)\n\n"
        );
    }

    /// A script, then `fen` lines for ever, as a person or a GUI that never closes its end:
    /// reading it to the end would never finish. The token tells whether it is still held.
    struct Endless {
        script: io::Cursor<&'static [u8]>,
        _token: std::sync::Arc<()>,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.script.read(buf)? {
                0 => {
                    let line = b"fen\n";
                    let n = line.len().min(buf.len());
                    buf[..n].copy_from_slice(&line[..n]);
                    Ok(n)
                }
                n => Ok(n),
            }
        }
    }

    /// Runs `script` and what follows it; the input must be let go of when `run` returns.
    fn run_endless(script: &'static [u8]) -> String {
        let token = std::sync::Arc::new(());
        let input = Endless {
            script: io::Cursor::new(script),
            _token: std::sync::Arc::clone(&token),
        };
        let mut out = Vec::new();
        assert_eq!(
            run(input, &mut out, Options::default()).unwrap(),
            Exit::Quit
        );
        assert_eq!(
            std::sync::Arc::strong_count(&token),
            1,
            "the input is still held after quit"
        );
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn quit_leaves_nothing_reading_the_input() {
        assert_eq!(
            run_endless(b"play 4\nquit\n"),
            "= ply 1, o to move\n\n=\n\n"
        );
    }

    #[test]
    fn quit_during_a_search_leaves_nothing_reading_the_input() {
        // Without the opening book the empty board takes minutes to solve: only the `quit` read
        // beside it ends it soon.
        let out = run_endless(b"hash 2\nbook off\nsolve\n\n# comment\nquit\n");
        assert!(
            out.starts_with(
                "= hash 2 MiB\n\n= book off\n\n? the search stopped before it found the exact score"
            ),
            "{out}"
        );
        assert!(out.ends_with(")\n\n=\n\n"), "{out}");
    }
}
