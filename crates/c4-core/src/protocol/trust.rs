//! How far the client on the other end of the protocol is trusted: a person or a program of the
//! user's may do anything the protocol offers; a client anyone could be (a page served to a
//! browser, a socket) may not touch a file, and its memory, threads and search time are capped.
//! The WebAssembly build in a page is refused the same things for another reason: there are no
//! files, one thread and a page's memory.

use std::time::Duration;

use thiserror::Error;

use crate::solver::{TableSize, MAX_THREADS};

/// Who may be on the other end of the protocol.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Trust {
    /// The user, or a program of the user's: every command, every size.
    #[default]
    Full,
    /// A client that anyone could be (`c4 --untrusted`, as `c4 serve` starts it): no command
    /// reads or writes a file, and tables, threads and search times are capped.
    Untrusted,
    /// The page that runs c4 compiled to WebAssembly in its worker (crates/c4-wasm): no file
    /// system, no threads, and a 32-bit memory. Its searches are capped in time as an untrusted
    /// client's are, since nothing can stop a search that has started there (see
    /// crates/c4-wasm, "Stopping").
    WebPage,
}

/// The most threads an untrusted client's searches may use.
pub(crate) const UNTRUSTED_THREADS: u32 = 2;

/// The largest table a page's engine may make, in MiB: a quarter of the 4 GiB a WebAssembly
/// memory can have at most, which browsers may not grant whole.
pub(crate) const WEB_PAGE_TABLE_MIB: u32 = 1024;

/// The longest an untrusted client's search may run: a search still running then ends as if
/// `stop` had come.
pub(crate) const UNTRUSTED_SEARCH_TIME: Duration = Duration::from_secs(60);

impl Trust {
    /// The largest table `hash` may ask for: for an untrusted client the session's default,
    /// so that a server's memory is bounded by its number of connections; for a web page what
    /// its memory can hold.
    pub(crate) fn max_table_size(self) -> TableSize {
        match self {
            Trust::Full => TableSize::from_mib(TableSize::MAX_MIB),
            Trust::Untrusted => TableSize::SESSION,
            Trust::WebPage => TableSize::from_mib(WEB_PAGE_TABLE_MIB),
        }
    }

    /// The most threads `threads` may ask for.
    pub(crate) fn max_threads(self) -> u32 {
        match self {
            Trust::Full => MAX_THREADS as u32,
            Trust::Untrusted => UNTRUSTED_THREADS,
            Trust::WebPage => 1,
        }
    }

    /// How long any one search may run, if the client is not trusted with more.
    pub(crate) fn search_time_limit(self) -> Option<Duration> {
        match self {
            Trust::Full => None,
            Trust::Untrusted | Trust::WebPage => Some(UNTRUSTED_SEARCH_TIME),
        }
    }

    /// Whether commands may read and write files (`save`, `load`, `book load`).
    pub(crate) fn allows_files(self) -> bool {
        self == Trust::Full
    }

    /// Why this client is refused what it is, as a refusal says it.
    fn why(self) -> &'static str {
        match self {
            Trust::Full => "this c4 trusts its client",
            Trust::Untrusted => "this c4 serves untrusted clients (--untrusted)",
            Trust::WebPage => "this c4 runs in a web page (WebAssembly)",
        }
    }
}

/// A command refused because the client is not trusted with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Refusal {
    /// `save`, `load` or `book load`.
    #[error(
        "{verb} is refused: {}, so no command reads or writes a file",
        trust.why()
    )]
    Files { trust: Trust, verb: &'static str },
    /// `hash` over the cap.
    #[error(
        "a table of {asked} MiB is refused: {}, whose tables are at most {max} MiB; the table \
         stays at {kept} MiB",
        trust.why()
    )]
    Hash {
        trust: Trust,
        asked: u32,
        max: u32,
        kept: u32,
    },
    /// `threads` over the cap.
    #[error(
        "{asked} threads are refused: {}, whose searches use at most {max}; they stay at {kept}",
        trust.why()
    )]
    Threads {
        trust: Trust,
        asked: u32,
        max: u32,
        kept: u32,
    },
}
