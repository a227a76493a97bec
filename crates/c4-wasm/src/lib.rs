//! c4 compiled to WebAssembly (wasm32-unknown-unknown): the protocol of `protocol.md`, answered
//! by the core's [`Driver`] as the native `c4` answers it, for a web page's worker
//! (web/c4-worker.js) and for Node (tests/wasm/replay.mjs). This crate is glue: the session's
//! settings, and the conversions between the driver and the exports.
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

use c4_core::{Driver, DriverState, Exit, Interpreter, ProtocolOptions, Trust};

/// A protocol session whose input comes in pieces: the lines of each piece are answered as soon
/// as they are whole.
pub struct Feed {
    driver: Driver,
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
        let options = ProtocolOptions {
            strict: false,
            trust: Trust::WebPage,
        };
        Feed {
            driver: Driver::new(Interpreter::single_threaded(options)),
        }
    }

    /// Takes `bytes` of input and runs every line it completes, handing what is written to
    /// `write` as it is written.
    pub fn feed(&mut self, bytes: &[u8], write: &mut dyn FnMut(&str)) {
        // Nothing here fails to write, and this host does not read ahead.
        let _ = self.driver.feed(bytes, &mut |text: &str| {
            write(text);
            Ok(())
        });
    }

    /// The input has ended: runs its last line, even without a line ending, and ends an open
    /// streaming analysis's reply.
    pub fn end(&mut self, write: &mut dyn FnMut(&str)) {
        let _ = self.driver.end(&mut |text: &str| {
            write(text);
            Ok(())
        });
    }

    /// Whether `quit` was run: the session is over, and nothing more is read.
    pub fn has_quit(&self) -> bool {
        self.driver.state() == DriverState::Over(Exit::Quit)
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
        assert_eq!(
            transcript(&[b"pl", b"ay 4\nf", b"en\r", b"\n# no", b"te\n\nfen"]),
            "= ply 1, o to move\n\n= 3x3/7/7/7/7/7 o\n\n= 3x3/7/7/7/7/7 o\n\n"
        );
    }

    #[test]
    fn quit_ends_the_session() {
        let mut feed = Feed::new();
        let mut out = String::new();
        feed.feed(b"fen\n", &mut |text| out.push_str(text));
        assert!(!feed.has_quit());
        feed.feed(b"quit\nfen\n", &mut |text| out.push_str(text));
        assert!(feed.has_quit());
        feed.feed(b"fen\n", &mut |text| out.push_str(text));
        feed.end(&mut |text| out.push_str(text));
        assert_eq!(out, "= 7/7/7/7/7/7 x\n\n=\n\n");
    }

    #[test]
    fn the_end_of_the_input_is_not_quit() {
        let mut feed = Feed::new();
        feed.end(&mut |_| {});
        assert!(!feed.has_quit());
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
