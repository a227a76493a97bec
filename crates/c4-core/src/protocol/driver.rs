//! The protocol's one driver: input pushed in as it comes, in pieces cut anywhere; each whole
//! line run through the [`Interpreter`]; replies framed and handed to a [`Host`]. It keeps what
//! lies between lines: the input not yet run, a streaming analysis's open reply, whether the
//! session is over or has turned to the UGI dialect. Reading, writing and threads are the
//! host's: the stdio loop ([`super::run`]) and the WebAssembly build (crates/c4-wasm) are hosts.

use std::io;
use std::mem;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::command::{parse_request, Command};
use super::input::{clean_line, Pending, RawLine};
use super::interpreter::{Answer, Exit, Interpreter, Turn};
use super::reply::{info_line, stream_head};
use super::search::Search;

/// What a [`Driver`] needs of the program it runs in.
pub trait Host {
    /// Hands out `text` as it is written: a framed reply, a streaming analysis's head or one of
    /// its `info` lines, or the empty line that ends its reply.
    fn write(&mut self, text: &str) -> io::Result<()>;

    /// A search is about to run, and no line after it that gets a reply has come yet. A host
    /// that can read its input while the search runs (on a thread) keeps `ahead`, hands it what
    /// it reads ([`ReadAhead::push`]) until it says that line has come or the input ends
    /// ([`ReadAhead::end`]), and gives it back ([`Driver::resume`]) once the driver's call has
    /// returned, before any other input. A host that cannot gives it back at once, as this
    /// default does: then the search runs until it ends by itself or by its time limit.
    fn read_ahead(&mut self, ahead: ReadAhead) -> Option<ReadAhead> {
        Some(ahead)
    }
}

/// A host that only writes, and does not read ahead: a closure given each text.
impl<F: FnMut(&str) -> io::Result<()>> Host for F {
    fn write(&mut self, text: &str) -> io::Result<()> {
        self(text)
    }
}

/// Where a [`Driver`]'s session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DriverState {
    /// It runs what it is fed.
    Open,
    /// It is over, and runs nothing more: `quit`, the end of the input, or in strict mode a
    /// failure.
    Over(Exit),
    /// `ugi` was the first line: the rest of the input is the UGI dialect's, starting with
    /// [`Driver::into_unread`] ([`super::ugi::run`] with [`super::ugi::Opening::Greeted`]).
    Ugi,
}

/// The input read beside a running search, up to the first line after it that gets a reply:
/// that line stops the search if it is `stop` or `quit`, or whatever it is if the search is a
/// streaming analysis. It holds the driver's unread input, so that a line begun before the
/// search is finished by what is read, not taken for a line of its own.
pub struct ReadAhead {
    input: Pending,
    /// The line after the search, once it has come.
    next: Option<RawLine>,
    stop: Arc<AtomicBool>,
    any_line: bool,
}

impl ReadAhead {
    fn new(input: Pending, search: &Search) -> ReadAhead {
        ReadAhead {
            input,
            next: None,
            stop: search.stop_flag(),
            any_line: search.is_stream(),
        }
    }

    /// Takes `bytes` read while the search runs; whether the line after the search has come,
    /// so that nothing more need be read until the search is over.
    pub fn push(&mut self, bytes: &[u8]) -> bool {
        self.input.push(bytes);
        self.look(false)
    }

    /// The input has ended: its last line counts as whole without a line ending.
    pub fn end(&mut self) {
        self.look(true);
    }

    /// Looks for the line after the search among the whole lines held, and stops the search
    /// if that line does; whether it has come.
    fn look(&mut self, at_end: bool) -> bool {
        if self.next.is_none() {
            self.next = self.input.take_command(at_end);
            if let Some(line) = &self.next {
                if self.any_line || stops_search(line) {
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.next.is_some()
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

/// What a host that feeds its driver while a [`ReadAhead`] is out has done wrong.
const NOT_GIVEN_BACK: &str = "the driver was fed before its read-ahead was given back";

/// A protocol session whose input is pushed in as it comes ([`Driver::feed`]): every line is
/// run as soon as it is whole, and what it writes handed to the [`Host`] at once (a streaming
/// analysis's `info` lines as they come). A search runs within the call that runs its line;
/// what already follows it in the input, or what the host reads beside it ([`Host::read_ahead`]),
/// may stop it. A streaming analysis's reply is ended by an empty line when the next command
/// comes, or the input ends.
pub struct Driver {
    interpreter: Interpreter,
    /// The input not yet run; `None` while a [`ReadAhead`] has it.
    input: Option<Pending>,
    /// The line after the last search, read ahead while it ran, to run next.
    next: Option<RawLine>,
    /// A streaming analysis has written its last `info` line; the empty line that ends its
    /// reply is written when the next command comes, or at the end of the input.
    stream_open: bool,
    state: DriverState,
}

impl Driver {
    /// A driver for `interpreter`'s session: a threaded interpreter turns to UGI on a first
    /// line `ugi` ([`DriverState::Ugi`]), a single-threaded one never does.
    pub fn new(interpreter: Interpreter) -> Driver {
        Driver {
            interpreter,
            input: Some(Pending::default()),
            next: None,
            stream_open: false,
            state: DriverState::Open,
        }
    }

    /// Where the session stands.
    pub fn state(&self) -> DriverState {
        self.state
    }

    /// Takes `bytes` of input and runs every line they complete. Once the session is no longer
    /// open, input is ignored.
    ///
    /// # Errors
    /// What the host's [`Host::write`] gives; the session is then in no state to go on.
    ///
    /// # Panics
    /// If the [`ReadAhead`] of a search has not been given back ([`Driver::resume`]).
    pub fn feed(&mut self, bytes: &[u8], host: &mut dyn Host) -> io::Result<DriverState> {
        if self.state != DriverState::Open {
            return Ok(self.state);
        }
        self.input.as_mut().expect(NOT_GIVEN_BACK).push(bytes);
        self.run(false, host)
    }

    /// Takes back the input that a host read beside a search ([`Host::read_ahead`]), and runs
    /// every whole line it holds.
    ///
    /// # Errors
    /// As for [`Driver::feed`].
    pub fn resume(&mut self, ahead: ReadAhead, host: &mut dyn Host) -> io::Result<DriverState> {
        self.take_back(ahead);
        self.run(false, host)
    }

    /// The input has ended: runs its last line, even without a line ending, and ends an open
    /// streaming analysis's reply. The session is then over.
    ///
    /// # Errors
    /// As for [`Driver::feed`].
    ///
    /// # Panics
    /// As for [`Driver::feed`].
    pub fn end(&mut self, host: &mut dyn Host) -> io::Result<DriverState> {
        if self.state == DriverState::Open {
            assert!(self.input.is_some(), "{NOT_GIVEN_BACK}");
            self.run(true, host)?;
            self.close_stream(host)?;
            if self.state == DriverState::Open {
                self.state = DriverState::Over(Exit::EndOfInput);
            }
        }
        Ok(self.state)
    }

    /// The input not run: after [`DriverState::Ugi`], the start of the UGI dialect's.
    pub fn into_unread(self) -> Vec<u8> {
        self.input.map(Pending::into_rest).unwrap_or_default()
    }

    fn run(&mut self, at_end: bool, host: &mut dyn Host) -> io::Result<DriverState> {
        while self.state == DriverState::Open {
            let Some(line) = self.next_line(at_end) else {
                break;
            };
            let turn = self.interpreter.answer(&line);
            if !matches!(turn, Turn::Silent) {
                self.close_stream(host)?;
            }
            match turn {
                Turn::Silent => {}
                Turn::Ugi => self.state = DriverState::Ugi,
                Turn::Reply(answer) => self.reply(answer, host)?,
                Turn::Search(id, search) => self.search(id, search, at_end, host)?,
            }
        }
        Ok(self.state)
    }

    /// The next line to run, if it is whole; `None` too while a [`ReadAhead`] has the input.
    fn next_line(&mut self, at_end: bool) -> Option<RawLine> {
        match self.next.take() {
            Some(line) => Some(line),
            None => self.input.as_mut()?.take_line(at_end),
        }
    }

    fn reply(&mut self, answer: Answer, host: &mut dyn Host) -> io::Result<()> {
        if let Some(exit) = answer.exit {
            self.state = DriverState::Over(exit);
            // Nothing more is run: what is left can go.
            if let Some(input) = &mut self.input {
                *input = Pending::default();
            }
            self.next = None;
        }
        host.write(&answer.framed)
    }

    fn search(
        &mut self,
        id: Option<u64>,
        search: Box<Search>,
        at_end: bool,
        host: &mut dyn Host,
    ) -> io::Result<()> {
        self.read_ahead(&search, at_end, host);
        if !search.is_stream() {
            let answer = self.interpreter.finish(id, search.run());
            return self.reply(answer, host);
        }
        // `=` at once, the `info` lines as they come, and the empty line that ends the reply
        // once the next command has come.
        host.write(&stream_head(id))?;
        let (finished, written) =
            search.run_stream(&mut |info| host.write(&format!("{}\n", info_line(info))));
        self.interpreter.end_stream(finished);
        self.stream_open = true;
        written
    }

    /// Finds the line after `search` that may stop it: among the whole lines already held, or
    /// else in what the host reads beside the search. A script handed in whole thus runs the
    /// same however fast it is read.
    fn read_ahead(&mut self, search: &Search, at_end: bool, host: &mut dyn Host) {
        let Some(input) = self.input.take() else {
            return;
        };
        let mut ahead = ReadAhead::new(input, search);
        if !ahead.look(at_end) && !at_end {
            match host.read_ahead(ahead) {
                None => return,
                Some(back) => ahead = back,
            }
        }
        self.take_back(ahead);
    }

    fn take_back(&mut self, ahead: ReadAhead) {
        self.input = Some(ahead.input);
        self.next = ahead.next;
    }

    fn close_stream(&mut self, host: &mut dyn Host) -> io::Result<()> {
        if mem::take(&mut self.stream_open) {
            host.write("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;
    use crate::protocol::input::MAX_LINE_BYTES;
    use crate::protocol::Options;

    fn driver(options: Options) -> Driver {
        Driver::new(Interpreter::single_threaded(options))
    }

    /// A host that keeps what is written, and does not read ahead.
    #[derive(Default)]
    struct Written(String);

    impl Host for Written {
        fn write(&mut self, text: &str) -> io::Result<()> {
            self.0.push_str(text);
            Ok(())
        }
    }

    /// What `pieces`, fed one by one and then ended, are answered.
    fn transcript_of(options: Options, pieces: &[&[u8]]) -> String {
        let mut driver = driver(options);
        let mut out = Written::default();
        for piece in pieces {
            driver.feed(piece, &mut out).unwrap();
        }
        driver.end(&mut out).unwrap();
        out.0
    }

    fn transcript(input: &[u8]) -> String {
        transcript_of(Options::default(), &[input])
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
        let strict = Options {
            strict: true,
            ..Options::default()
        };
        let mut driver = driver(strict);
        let mut out = Written::default();
        let state = driver.feed(b"play 9\nfen\n", &mut out).unwrap();
        assert_eq!(state, DriverState::Over(Exit::Failed));
        assert_eq!(driver.end(&mut out).unwrap(), state);
        assert_eq!(out.0, "? column 9 is off the board (columns 1-7)\n\n");
    }

    #[test]
    fn lines_are_answered_when_whole_however_they_are_cut() {
        let whole = transcript(b"play 4\nfen\r\n# note\n\nfen");
        assert_eq!(
            whole,
            "= ply 1, o to move\n\n= 3x3/7/7/7/7/7 o\n\n= 3x3/7/7/7/7/7 o\n\n"
        );
        let cut: [&[u8]; 6] = [b"pl", b"ay 4\nf", b"en\r", b"\n# no", b"te\n\nfen", b""];
        assert_eq!(transcript_of(Options::default(), &cut), whole);
    }

    #[test]
    fn a_line_is_answered_as_soon_as_it_is_whole() {
        let mut out = Written::default();
        driver(Options::default())
            .feed(b"fen\nplay", &mut out)
            .unwrap();
        assert_eq!(out.0, "= 7/7/7/7/7/7 x\n\n");
    }

    #[test]
    fn an_endless_line_is_refused_whole_and_kept_small() {
        let mut driver = driver(Options::default());
        let mut out = Written::default();
        for _ in 0..100 {
            driver.feed(&[b'7'; 4096], &mut out).unwrap();
        }
        assert!(driver.input.as_ref().unwrap().kept() <= MAX_LINE_BYTES + 2);
        driver.feed(b"\nfen\n", &mut out).unwrap();
        assert_eq!(
            out.0,
            format!(
                "? the line is longer than {MAX_LINE_BYTES} bytes and was ignored\n\n\
                 = 7/7/7/7/7/7 x\n\n"
            )
        );
    }

    #[test]
    fn quit_ends_the_session() {
        let mut driver = driver(Options::default());
        let mut out = Written::default();
        let quit = DriverState::Over(Exit::Quit);
        assert_eq!(driver.feed(b"quit\nfen\n", &mut out).unwrap(), quit);
        assert_eq!(driver.feed(b"fen\n", &mut out).unwrap(), quit);
        assert_eq!(driver.end(&mut out).unwrap(), quit);
        assert_eq!(out.0, "=\n\n");
    }

    #[test]
    fn a_stop_already_given_stops_the_search() {
        // Without a book the empty board takes minutes to solve.
        let out = transcript(b"book off\nhash 2\n1 solve\n2 stop\n3 fen\n");
        assert!(
            out.starts_with("= book off\n\n= hash 2 MiB\n\n?1 the search stopped before"),
            "{out}"
        );
        assert!(out.ends_with("=2\n\n=3 7/7/7/7/7/7 x\n\n"), "{out}");
    }

    #[test]
    fn a_finished_stream_is_ended_by_the_next_command() {
        let mut driver = driver(Options::default());
        let mut written = Written::default();
        // A 4x4 board is solved at once: the analysis ends by itself.
        let script = b"new 4x4\n1 analyze stream\n# not a command\n";
        driver.feed(script, &mut written).unwrap();
        let out = written.0.clone();
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
        driver.feed(b"2 fen\n", &mut written).unwrap();
        let out = written.0;
        assert!(out.ends_with("\n\n=2 4/4/4/4 x\n\n"), "{out}");
    }

    #[test]
    fn an_open_stream_is_ended_by_the_end_of_the_input() {
        let out = transcript(b"new 4x4\nanalyze stream\n");
        assert!(out.ends_with("\n\n") && !out.ends_with("\n\n\n"), "{out}");
        assert_eq!(out.matches("\n\n").count(), 2, "{out}");
    }

    #[test]
    fn ugi_as_the_first_line_hands_back_the_rest() {
        let mut driver = Driver::new(Interpreter::threaded(Options::default()));
        let mut out = Written::default();
        let state = driver.feed(b"# hello\nugi\nisready\nqu", &mut out).unwrap();
        assert_eq!(state, DriverState::Ugi);
        assert_eq!(out.0, "");
        assert_eq!(driver.into_unread(), b"isready\nqu");
    }

    /// A host that reads ahead at once: the pieces of input still to come, as a thread beside
    /// the search would read them.
    #[derive(Default)]
    struct Ahead {
        pieces: VecDeque<Vec<u8>>,
        out: Written,
        ahead: Option<ReadAhead>,
    }

    impl Host for Ahead {
        fn write(&mut self, text: &str) -> io::Result<()> {
            self.out.write(text)
        }

        fn read_ahead(&mut self, mut ahead: ReadAhead) -> Option<ReadAhead> {
            loop {
                let Some(piece) = self.pieces.pop_front() else {
                    ahead.end();
                    break;
                };
                if ahead.push(&piece) {
                    break;
                }
            }
            self.ahead = Some(ahead);
            None
        }
    }

    /// What `pieces` are answered by a driver whose host reads ahead.
    fn read_ahead_transcript(pieces: &[&[u8]]) -> String {
        let mut host = Ahead {
            pieces: pieces.iter().map(|piece| piece.to_vec()).collect(),
            ..Ahead::default()
        };
        let mut driver = driver(Options::default());
        while let Some(piece) = host.pieces.pop_front() {
            driver.feed(&piece, &mut host).unwrap();
            while let Some(ahead) = host.ahead.take() {
                driver.resume(ahead, &mut host).unwrap();
            }
        }
        driver.end(&mut host).unwrap();
        host.out.0
    }

    #[test]
    fn what_is_read_beside_a_search_may_stop_it() {
        // Without a book the empty board takes minutes to solve; `st` came with the `solve`,
        // and the `op` read beside it makes it a `stop`.
        let out = read_ahead_transcript(&[
            b"book off\nhash 2\n1 solve\n",
            b"# note\n2 st",
            b"op\n3 fen\n",
        ]);
        assert!(out.contains("\n\n?1 the search stopped before"), "{out}");
        assert!(out.ends_with("=2\n\n=3 7/7/7/7/7/7 x\n\n"), "{out}");
        // However it is cut.
        let whole = b"book off\nhash 2\n1 solve\n# note\n2 stop\n3 fen\n";
        let bytes: Vec<&[u8]> = whole.chunks(1).collect();
        assert_eq!(read_ahead_transcript(&bytes), out);
    }

    #[test]
    fn the_end_of_the_input_read_beside_a_search_ends_its_last_line() {
        let out = read_ahead_transcript(&[b"book off\nhash 2\n1 solve\n", b"2 stop"]);
        assert!(out.ends_with(")\n\n=2\n\n"), "{out}");
    }
}
