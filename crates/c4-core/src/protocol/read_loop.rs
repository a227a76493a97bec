//! The stdio host of the protocol's [`Driver`]: [`run`] reads its input in chunks on the
//! calling thread between commands, and on a thread of its own beside a search; writes and
//! flushes every reply; and hands the input to the UGI dialect when the session asks for it.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::thread::{self, JoinHandle};

use super::driver::{Driver, DriverState, Host, ReadAhead};
use super::interpreter::{Exit, Interpreter, Options};
use super::ugi;

/// The size of the input buffer: a piped script is read in few system calls.
const INPUT_BUFFER_BYTES: usize = 64 * 1024;

/// The input, and what reading it beside the last search gave.
struct Beside<R> {
    input: BufReader<R>,
    ahead: ReadAhead,
    /// Whether the input ended, or why reading it failed.
    ended: io::Result<bool>,
}

/// A thread reading beside a search, while it has not been joined.
struct Reader<R>(Option<JoinHandle<Beside<R>>>);

impl<R> Drop for Reader<R> {
    /// A read-ahead still running when the session stops early (a failed search in strict
    /// mode, a closed output) may be waiting on a read of standard input, which nothing can
    /// interrupt: it is joined only if it has finished, and otherwise ends with that read.
    fn drop(&mut self) {
        if let Some(reader) = self.0.take() {
            if reader.is_finished() {
                let _ = reader.join();
            }
        }
    }
}

/// The driver's host on a reader and a writer. The input is read on the driver's own thread,
/// so when a command runs nothing else is reading: `quit` and the end of a run leave no thread
/// behind, however the input was going to go on. Only while a search runs is it read on a
/// thread of its own, and only up to the first line after the search that gets a reply, which
/// is all that can stop it; that thread is joined when the driver wants more input.
struct Stdio<R, W> {
    output: W,
    /// The input; `None` while a read-ahead has it.
    input: Option<BufReader<R>>,
    reader: Reader<R>,
}

impl<R: Read + Send + 'static, W: Write> Host for Stdio<R, W> {
    fn write(&mut self, text: &str) -> io::Result<()> {
        self.output.write_all(text.as_bytes())?;
        self.output.flush()
    }

    fn read_ahead(&mut self, mut ahead: ReadAhead) -> Option<ReadAhead> {
        let Some(mut input) = self.input.take() else {
            return Some(ahead);
        };
        self.reader.0 = Some(thread::spawn(move || {
            let ended = read_beside(&mut input, &mut ahead);
            Beside {
                input,
                ahead,
                ended,
            }
        }));
        None
    }
}

impl<R: Read + Send + 'static, W: Write> Stdio<R, W> {
    /// Hands `driver` its next input: what was read beside the last search, or else a chunk
    /// read here, or the end of the input.
    fn step(&mut self, driver: &mut Driver, chunk: &mut Vec<u8>) -> io::Result<DriverState> {
        if let Some(reader) = self.reader.0.take() {
            let beside = reader
                .join()
                .map_err(|_| io::Error::other("the reading thread failed"))?;
            let ended = beside.ended?;
            // At the end of the input nothing is left to read beside a later search (its line
            // may be the last, unterminated one the reader found): the driver runs it with what
            // it holds, as the WebAssembly host does.
            if !ended {
                self.input = Some(beside.input);
            }
            let state = driver.resume(beside.ahead, self)?;
            return match ended {
                true => driver.end(self),
                false => Ok(state),
            };
        }
        match &mut self.input {
            Some(input) => read_chunk(input, chunk)?,
            None => chunk.clear(),
        }
        match chunk.is_empty() {
            true => driver.end(self),
            false => driver.feed(chunk, self),
        }
    }
}

/// Replaces `chunk` with what `input` holds next, reading if it must; empty at the end.
fn read_chunk(input: &mut impl BufRead, chunk: &mut Vec<u8>) -> io::Result<()> {
    chunk.clear();
    loop {
        match input.fill_buf() {
            Ok(bytes) => {
                chunk.extend_from_slice(bytes);
                break;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    input.consume(chunk.len());
    Ok(())
}

/// Reads beside a search until `ahead` has the line after it; whether the input ended first.
fn read_beside(input: &mut impl BufRead, ahead: &mut ReadAhead) -> io::Result<bool> {
    let mut chunk = Vec::new();
    loop {
        read_chunk(input, &mut chunk)?;
        if chunk.is_empty() {
            ahead.end();
            return Ok(true);
        }
        if ahead.push(&chunk) {
            return Ok(false);
        }
    }
}

/// Runs the protocol until `quit`, end of input, or (strict) the first failure. Every reply
/// is flushed as soon as it is written. A search runs on this thread while another reads ahead
/// for a `stop`. When the first line is `ugi`, the rest of the session is in the UGI dialect
/// ([`ugi::run`]).
pub fn run(
    input: impl Read + Send + 'static,
    output: impl Write + Send,
    options: Options,
) -> io::Result<Exit> {
    let mut host = Stdio {
        output,
        input: Some(BufReader::with_capacity(INPUT_BUFFER_BYTES, input)),
        reader: Reader(None),
    };
    let mut driver = Driver::new(Interpreter::threaded(options));
    let mut chunk = Vec::new();
    loop {
        match host.step(&mut driver, &mut chunk)? {
            DriverState::Open => {}
            DriverState::Over(exit) => return Ok(exit),
            DriverState::Ugi => {
                // `ugi` is the first line, so no read-ahead has the input.
                let Some(input) = host.input.take() else {
                    return Ok(Exit::EndOfInput);
                };
                let input = io::Cursor::new(driver.into_unread()).chain(input);
                let greeted = ugi::Opening::Greeted;
                return ugi::run(input, &mut host.output, greeted, options.trust).map(
                    |end| match end {
                        ugi::End::Quit => Exit::Quit,
                        ugi::End::EndOfInput => Exit::EndOfInput,
                    },
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::sync::Arc;

    use super::*;

    /// Input handed out a piece per read, as a person or a GUI types it, then `fen` lines for
    /// ever, as from one that never closes its end: reading it to the end would never finish.
    /// The token tells whether it is still held.
    struct Endless {
        pieces: VecDeque<&'static [u8]>,
        _token: Arc<()>,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let piece = self.pieces.pop_front().unwrap_or(b"fen\n");
            // The buffer is larger than any piece here.
            buf[..piece.len()].copy_from_slice(piece);
            Ok(piece.len())
        }
    }

    /// Runs `pieces` and what follows them; the input must be let go of when `run` returns.
    fn run_endless(pieces: &[&'static [u8]]) -> String {
        let token = Arc::new(());
        let input = Endless {
            pieces: pieces.iter().copied().collect(),
            _token: Arc::clone(&token),
        };
        let mut out = Vec::new();
        assert_eq!(
            run(input, &mut out, Options::default()).unwrap(),
            Exit::Quit
        );
        assert_eq!(
            Arc::strong_count(&token),
            1,
            "the input is still held after quit"
        );
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn quit_leaves_nothing_reading_the_input() {
        assert_eq!(
            run_endless(&[b"play 4\nquit\n"]),
            "= ply 1, o to move\n\n=\n\n"
        );
    }

    #[test]
    fn quit_during_a_search_leaves_nothing_reading_the_input() {
        // Without the opening book the empty board takes minutes to solve: only the `quit` read
        // beside it, a line per read, ends it soon.
        let out = run_endless(&[
            b"hash 2\nbook off\nsolve\n",
            b"\n",
            b"# comment\n",
            b"quit\n",
        ]);
        assert!(
            out.starts_with(
                "= hash 2 MiB\n\n= book off\n\n? the search stopped before it found the exact score"
            ),
            "{out}"
        );
        assert!(out.ends_with(")\n\n=\n\n"), "{out}");
    }

    #[test]
    fn a_line_begun_before_a_search_is_finished_by_what_is_read_beside_it() {
        // `st` came with the `solve`; the `op` read beside the search makes it a `stop`.
        let out = run_endless(&[b"hash 2\nbook off\nsolve\nst", b"op\nfen\nquit\n"]);
        assert!(out.contains("\n\n? the search stopped before"), "{out}");
        assert!(out.ends_with(")\n\n=\n\n= 7/7/7/7/7/7 x\n\n=\n\n"), "{out}");
    }

    /// Input handed out a piece per read, then its end.
    struct Pieces(VecDeque<&'static [u8]>);

    impl Read for Pieces {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let piece = self.0.pop_front().unwrap_or_default();
            buf[..piece.len()].copy_from_slice(piece);
            Ok(piece.len())
        }
    }

    #[test]
    fn a_last_line_read_beside_a_search_is_run_at_the_end_of_the_input() {
        // The reader beside the first search finds the second, unterminated, then the end.
        for (last, scores) in [(&b"solve"[..], 2), (b"analyze stream", 1)] {
            let input = Pieces([&b"new 4x4\nsolve\n"[..], last].into_iter().collect());
            let mut out = Vec::new();
            let exit = run(input, &mut out, Options::default()).unwrap();
            assert_eq!(exit, Exit::EndOfInput);
            let out = String::from_utf8(out).unwrap();
            // Three replies, each ended by its empty line: the stream's too.
            assert_eq!(out.matches("= score 0").count(), scores, "{out}");
            assert_eq!(out.matches("\n\n").count(), 3, "{out}");
            assert!(out.ends_with("\n\n"), "{out}");
        }
    }

    #[test]
    fn ugi_as_the_first_line_hands_the_rest_to_the_dialect() {
        let mut out = Vec::new();
        let input = io::Cursor::new(b"\nugi\nisready\nquit\n".to_vec());
        assert_eq!(
            run(input, &mut out, Options::default()).unwrap(),
            Exit::Quit
        );
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("id name c4"), "{out}");
        assert!(out.ends_with("ugiok\nreadyok\n"), "{out}");
    }
}
