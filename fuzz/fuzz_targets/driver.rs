//! Fuzzes the protocol's driver with input cut into pieces anywhere: no panic, and the same
//! output however the input is cut (whole, a byte at a time, and in pieces of lengths the first
//! byte draws). The session is a web page's, as the WebAssembly build runs it: no files, one
//! thread. The host reads ahead at once, as the stdio loop's thread may, so that what follows a
//! search is seen beside it however the input is cut. Each search is followed by `stop`, which
//! ends it at its first look at the flag (an early position off the book would otherwise run
//! to the page's time limit, a minute), and `hash` is left out (a page's tables of up to 1 GiB
//! pass libFuzzer's memory limit). Outputs are compared only where no search depends on time:
//! `movetime` and `analyze stream`'s intervals do.
#![no_main]

use std::collections::VecDeque;
use std::io;

use c4_core::{parse_request, Command, Interpreter, ProtocolOptions, Trust};
use c4_core::{Driver, Host, ReadAhead};
use libfuzzer_sys::fuzz_target;

/// What a line is, as far as the input's preparation goes.
enum Kind {
    /// Left out.
    Hash,
    /// A search; whether its answer depends on time.
    Search { timed: bool },
    /// Anything else.
    Other,
}

/// What `line` is. Lines the protocol refuses whole are read as best can be, so that no search
/// is missed; an extra `stop` is only answered.
fn kind(line: &[u8]) -> Kind {
    let text = String::from_utf8_lossy(line);
    let text = text.split('#').next().unwrap_or("").trim();
    match parse_request(text).command {
        Ok(Command::Hash(_)) => Kind::Hash,
        Ok(Command::Solve { .. } | Command::Analyze | Command::Hint | Command::Perft(_)) => {
            Kind::Search { timed: false }
        }
        Ok(Command::Go(request) | Command::Genmove(request)) => Kind::Search {
            timed: request.bounds().movetime.is_some(),
        },
        Ok(Command::AnalyzeStream(_)) => Kind::Search { timed: true },
        _ => Kind::Other,
    }
}

/// A host that keeps what is written, and reads ahead at once: the pieces still to come.
#[derive(Default)]
struct Pieces<'a> {
    pieces: VecDeque<&'a [u8]>,
    out: String,
    ahead: Option<ReadAhead>,
}

impl Host for Pieces<'_> {
    fn write(&mut self, text: &str) -> io::Result<()> {
        self.out.push_str(text);
        Ok(())
    }

    fn read_ahead(&mut self, mut ahead: ReadAhead) -> Option<ReadAhead> {
        loop {
            let Some(piece) = self.pieces.pop_front() else {
                ahead.end();
                break;
            };
            if ahead.push(piece) {
                break;
            }
        }
        self.ahead = Some(ahead);
        None
    }
}

/// What `pieces`, fed in turn and then ended, are answered.
fn transcript<'a>(pieces: impl Iterator<Item = &'a [u8]>) -> String {
    let mut driver = Driver::new(Interpreter::single_threaded(ProtocolOptions {
        strict: false,
        trust: Trust::WebPage,
    }));
    let mut host = Pieces {
        pieces: pieces.collect(),
        ..Pieces::default()
    };
    while let Some(piece) = host.pieces.pop_front() {
        driver
            .feed(piece, &mut host)
            .expect("memory I/O cannot fail");
        while let Some(ahead) = host.ahead.take() {
            driver
                .resume(ahead, &mut host)
                .expect("memory I/O cannot fail");
        }
    }
    driver.end(&mut host).expect("memory I/O cannot fail");
    host.out
}

/// `script` cut into pieces of lengths drawn from `seed`, empty ones among them.
fn cut(script: &[u8], seed: u8) -> Vec<&[u8]> {
    let mut state = u32::from(seed) | 0x100;
    let mut rest = script;
    let mut pieces = Vec::new();
    while !rest.is_empty() {
        // xorshift32: any sequence will do, as long as the seed picks it.
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let (piece, after) = rest.split_at((state % 24) as usize % (rest.len() + 1));
        pieces.push(piece);
        rest = after;
    }
    pieces
}

fuzz_target!(|data: &[u8]| {
    let Some((&seed, data)) = data.split_first() else {
        return;
    };
    // The smallest table: a session that searches makes one, for every input.
    let mut script = b"hash 2\n".to_vec();
    let mut timed = false;
    let mut lines = data.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        let stop_after = match kind(line) {
            Kind::Hash => continue,
            Kind::Search { timed: t } => {
                timed |= t;
                true
            }
            Kind::Other => false,
        };
        script.extend_from_slice(line);
        // The last line keeps its lack of a line ending, for the end of the input to finish it.
        if lines.peek().is_some() || stop_after {
            script.push(b'\n');
        }
        if stop_after {
            script.extend_from_slice(b"stop\n");
        }
    }
    let whole = transcript(std::iter::once(&script[..]));
    let bytes = transcript(script.chunks(1));
    let pieces = transcript(cut(&script, seed).into_iter());
    if !timed {
        assert_eq!(bytes, whole, "a byte at a time");
        assert_eq!(pieces, whole, "in pieces");
        for reply in whole.split_terminator("\n\n") {
            assert!(
                reply.starts_with('=') || reply.starts_with('?'),
                "{reply:?}"
            );
        }
        assert!(whole.is_empty() || whole.ends_with("\n\n"));
    }
});
