//! c4 compiled to WebAssembly (wasm32-unknown-unknown): the protocol of `protocol.md`, answered
//! by the core's [`Interpreter`] as the native `c4` answers it, for a web page's worker
//! (web/c4-worker.js) and for Node (tests/wasm/replay.mjs).
//!
//! The host hands in input as it comes, a message at a time ([`Feed::feed`]), and is handed the
//! output as it is written: every reply, and each `info` line of a streaming analysis as it
//! comes. There are no threads here: a search runs on the one thread there is, to its end.
//!
//! # Stopping
//! The native `c4` reads ahead while a search runs, so that a `stop` (or, for `analyze stream`,
//! any command) ends it. Here nothing can be read while a search runs: the host's next message
//! waits until the search returns. So a search is stopped only by what has come before it
//! starts: the next command, if it is already in the input, is read ahead as natively (a script
//! handed in whole runs as it does natively); otherwise the search runs to its end, or to the
//! time limit of a page's searches ([`Trust::WebPage`]: a minute), as if a `stop` had come then.
//! A host that must not wait ends the instance instead, and sets up a fresh one: the web page's
//! client (`web/c4-client.js`, `C4Client.interrupt`) ends its worker and starts another from the
//! module already compiled and the book already fetched, and replays the game into it. The
//! search then answers nothing (natively, `stop` answers it with the best move so far).
//! A streaming analysis that ends by itself (every column proven) leaves its reply open until
//! the next command comes, as natively.
//!
//! # What is refused
//! The session is a [`Trust::WebPage`] one: `save`, `load` and `book load` are refused (there
//! are no files), `threads` above 1 is refused, and `hash` is capped at 1 GiB. `ugi` is an
//! unknown command, as it is natively on any line but the first: the UGI dialect is for match
//! runners, which drive a native `c4`.

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod exports;

use std::io::Cursor;

use c4_core::{
    info_line, read_ahead, read_line, stream_head, Exit, Interpreter, ProtocolOptions, RawLine,
    Trust, Turn, MAX_LINE_BYTES,
};

/// A protocol session whose input comes in pieces: the lines of each piece are answered as soon
/// as they are whole.
pub struct Feed {
    interpreter: Interpreter,
    /// Input not yet run: whole lines, then perhaps the start of one; from `run_up_to` on.
    pending: Vec<u8>,
    /// How much of `pending` has been run: taken out once per piece of input, not per line, so
    /// that a long script is not moved once a line.
    run_up_to: usize,
    /// The line after a search, read ahead while it ran, to run next.
    next: Option<RawLine>,
    /// A streaming analysis has written its last `info` line; the empty line that ends its
    /// reply is written when the next command comes, or at the end of the input.
    stream_open: bool,
    /// `quit` was run: nothing more is read.
    quit: bool,
}

impl Default for Feed {
    fn default() -> Self {
        Feed::new()
    }
}

impl Feed {
    /// A session on the empty standard board, with the built-in book if one was provided
    /// (`c4_core::provide_built_in_book`, there without the `built-in-book` feature).
    pub fn new() -> Feed {
        Feed {
            interpreter: Interpreter::single_threaded(ProtocolOptions {
                strict: false,
                trust: Trust::WebPage,
            }),
            pending: Vec::new(),
            run_up_to: 0,
            next: None,
            stream_open: false,
            quit: false,
        }
    }

    /// Takes `bytes` of input and runs every line it completes, handing what is written to
    /// `write` as it is written.
    pub fn feed(&mut self, bytes: &[u8], write: &mut dyn FnMut(&str)) {
        if self.quit {
            return;
        }
        self.pending.extend_from_slice(bytes);
        self.run(false, write);
        self.pending.drain(..self.run_up_to);
        self.run_up_to = 0;
        // A line still unfinished past the longest accepted is refused whole when it ends,
        // whatever else comes: only enough of it is kept to know that.
        if self.pending.len() > MAX_LINE_BYTES + 2 {
            self.pending.truncate(MAX_LINE_BYTES + 2);
        }
    }

    /// The input has ended: runs its last line, even without a line ending, and ends an open
    /// streaming analysis's reply.
    pub fn end(&mut self, write: &mut dyn FnMut(&str)) {
        if !self.quit {
            self.run(true, write);
        }
        self.close_stream(write);
    }

    /// Whether `quit` was run: the session is over, and nothing more is read.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    fn run(&mut self, at_end: bool, write: &mut dyn FnMut(&str)) {
        while !self.quit {
            let Some(line) = self.next.take().or_else(|| self.take_line(at_end)) else {
                return;
            };
            let turn = self.interpreter.answer(&line);
            if !matches!(turn, Turn::Silent) {
                self.close_stream(write);
            }
            let answer = match turn {
                Turn::Silent | Turn::Ugi => continue,
                Turn::Reply(answer) => answer,
                Turn::Search(id, search) => {
                    // What already follows the search may stop it, as natively; nothing that
                    // comes later can.
                    self.next = self.read_ahead(at_end, &search.stop_flag(), search.is_stream());
                    if search.is_stream() {
                        write(&stream_head(id));
                        let (finished, _) = search.run_stream(&mut |info| {
                            write(&format!("{}\n", info_line(info)));
                            Ok(())
                        });
                        self.interpreter.end_stream(finished);
                        self.stream_open = true;
                        continue;
                    }
                    let finished = search.run();
                    self.interpreter.finish(id, finished)
                }
            };
            write(&answer.framed);
            if answer.exit == Some(Exit::Quit) {
                self.quit = true;
                self.pending = Vec::new();
                self.run_up_to = 0;
            }
        }
    }

    /// The input that holds whole lines: up to the last line ending, or at the end all of it.
    fn whole_lines(&self, at_end: bool) -> &[u8] {
        let rest = &self.pending[self.run_up_to..];
        match at_end {
            true => rest,
            false => match rest.iter().rposition(|&b| b == b'\n') {
                Some(last) => &rest[..=last],
                None => &[],
            },
        }
    }

    /// The next whole line of the input, taken out of it.
    fn take_line(&mut self, at_end: bool) -> Option<RawLine> {
        self.take_from_whole_lines(at_end, |input| read_line(input).ok().flatten())
    }

    /// The first line that gets a reply among the whole lines there are, taken out of the input
    /// (with the blank lines before it); sets `stop` if it stops the search.
    fn read_ahead(
        &mut self,
        at_end: bool,
        stop: &std::sync::atomic::AtomicBool,
        stream: bool,
    ) -> Option<RawLine> {
        self.take_from_whole_lines(at_end, |input| {
            read_ahead(input, stop, stream).ok().flatten()
        })
    }

    /// Runs `read` on the whole lines of the input and takes out what it read.
    fn take_from_whole_lines(
        &mut self,
        at_end: bool,
        read: impl FnOnce(&mut Cursor<&[u8]>) -> Option<RawLine>,
    ) -> Option<RawLine> {
        let mut input = Cursor::new(self.whole_lines(at_end));
        let line = read(&mut input);
        let used = usize::try_from(input.position()).unwrap_or(usize::MAX);
        self.run_up_to = self.run_up_to.saturating_add(used).min(self.pending.len());
        line
    }

    fn close_stream(&mut self, write: &mut dyn FnMut(&str)) {
        if std::mem::take(&mut self.stream_open) {
            write("\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `pieces`, handed in one by one and then ended, are answered.
    fn transcript(pieces: &[&[u8]]) -> String {
        let mut feed = Feed::new();
        let mut out = String::new();
        for piece in pieces {
            feed.feed(piece, &mut |text| out.push_str(text));
        }
        feed.end(&mut |text| out.push_str(text));
        out
    }

    #[test]
    fn lines_are_answered_when_whole_however_they_are_cut() {
        let whole = transcript(&[b"play 4\nfen\r\n# note\n\nfen"]);
        assert_eq!(
            whole,
            "= ply 1, o to move\n\n= 3x3/7/7/7/7/7 o\n\n= 3x3/7/7/7/7/7 o\n\n"
        );
        assert_eq!(
            transcript(&[b"pl", b"ay 4\nf", b"en\r", b"\n# no", b"te\n\nfen"]),
            whole
        );
    }

    #[test]
    fn a_line_is_answered_as_soon_as_it_is_whole() {
        let mut feed = Feed::new();
        let mut out = String::new();
        feed.feed(b"fen\nplay", &mut |text| out.push_str(text));
        assert_eq!(out, "= 7/7/7/7/7/7 x\n\n");
    }

    #[test]
    fn an_endless_line_is_refused_whole_and_kept_small() {
        let mut feed = Feed::new();
        let mut out = String::new();
        for _ in 0..100 {
            feed.feed(&[b'7'; 4096], &mut |text| out.push_str(text));
        }
        assert!(feed.pending.len() <= MAX_LINE_BYTES + 2);
        feed.feed(b"\nfen\n", &mut |text| out.push_str(text));
        assert_eq!(
            out,
            format!(
                "? the line is longer than {MAX_LINE_BYTES} bytes and was ignored\n\n\
                 = 7/7/7/7/7/7 x\n\n"
            )
        );
    }

    #[test]
    fn quit_ends_the_session() {
        assert_eq!(transcript(&[b"quit\n", b"fen\n"]), "=\n\n");
    }

    #[test]
    fn a_stop_already_given_stops_the_search() {
        // Without a book the empty board takes minutes to solve.
        let out = transcript(&[b"book off\nhash 2\n1 solve\n2 stop\n3 fen\n"]);
        assert!(
            out.starts_with("= book off\n\n= hash 2 MiB\n\n?1 the search stopped before"),
            "{out}"
        );
        assert!(out.ends_with("=2\n\n=3 7/7/7/7/7/7 x\n\n"), "{out}");
    }

    #[test]
    fn a_finished_stream_is_ended_by_the_next_command() {
        let mut feed = Feed::new();
        let mut out = String::new();
        // A 4x4 board is solved at once: the analysis ends by itself.
        feed.feed(
            b"new 4x4\n1 analyze stream\n# not a command\n",
            &mut |text| out.push_str(text),
        );
        let (head, rest) = out.split_once("=1\n").unwrap();
        assert!(head.starts_with("= ") && head.ends_with("\n\n"), "{out}");
        assert!(
            rest.starts_with("info nodes ") && !rest.contains("\n\n"),
            "{out}"
        );
        let last = rest.lines().last().unwrap();
        assert!(
            rest.ends_with('\n') && !last.contains(".."),
            "all proven: {out}"
        );
        feed.feed(b"2 fen\n", &mut |text| out.push_str(text));
        assert!(out.ends_with("\n\n=2 4/4/4/4 x\n\n"), "{out}");
    }

    #[test]
    fn files_threads_and_ugi_are_refused() {
        let out = transcript(&[b"ugi\nthreads 2\nsave x\nthreads 1\n"]);
        assert_eq!(
            out,
            "? unknown command 'ugi'; 'help' lists the commands\n\n\
             ? 2 threads are refused: this c4 runs in a web page (WebAssembly), whose searches use \
             at most 1; they stay at 1\n\n\
             ? save is refused: this c4 runs in a web page (WebAssembly), so no command reads or \
             writes a file\n\n\
             = threads 1\n\n"
        );
    }
}
