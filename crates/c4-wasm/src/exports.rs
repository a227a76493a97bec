//! The module's interface to its host (web/c4-worker.js, tests/wasm/replay.mjs): plain
//! functions and one buffer, so that the host needs a few lines of JavaScript and no generated
//! glue.
//!
//! Exports: `c4_buffer(len)` gives the address of a buffer of `len` bytes for the host to write
//! into; `c4_provide_book(len)` takes the buffer's first `len` bytes as the book (before the
//! first input; 0 if it is a valid book, 1 if not); `c4_reserve_table_memory()` readies the
//! memory of the first search's table, while the host waits for the book; `c4_feed(len)` takes
//! the buffer's first `len` bytes as input (and gives 1 once `quit` has run); `c4_end()` ends
//! the input. Imports, from the module `c4`: `write(address, len)`, the UTF-8 text written (a
//! reply, or an `info` line as it comes), and the core's clock, `now_ms()`.

use std::cell::RefCell;

use c4_core::provide_built_in_book;
use c4_core::TableSize;

use crate::Feed;

#[link(wasm_import_module = "c4")]
extern "C" {
    /// Hands the host `len` bytes of output at `address`, valid only during the call.
    fn write(address: *const u8, len: usize);
}

thread_local! {
    /// The one session of this module, made at the first input (after the book, if any).
    static FEED: RefCell<Option<Feed>> = const { RefCell::new(None) };
    /// Bytes from the host: input, or the book.
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Hands `text` to the host.
fn write_out(text: &str) {
    #[allow(unsafe_code, reason = "the host's import, given memory it only reads")]
    // SAFETY: the host reads `text.len()` bytes at its address during the call, which `text`
    // outlives, and keeps nothing of them.
    unsafe {
        write(text.as_ptr(), text.len());
    }
}

/// The address of a buffer of `len` bytes, for the host's next `c4_provide_book` or `c4_feed`.
#[allow(unsafe_code, reason = "an export has an unmangled name")]
#[no_mangle]
pub(crate) extern "C" fn c4_buffer(len: usize) -> *mut u8 {
    BUFFER.with_borrow_mut(|buffer| {
        buffer.clear();
        buffer.resize(len, 0);
        buffer.as_mut_ptr()
    })
}

/// Takes the buffer's first `len` bytes as the built-in book; 0 if they are one, 1 if not.
#[allow(unsafe_code, reason = "an export has an unmangled name")]
#[no_mangle]
pub(crate) extern "C" fn c4_provide_book(len: usize) -> u32 {
    // The buffer becomes the book, without a copy.
    let mut bytes = BUFFER.with_borrow_mut(std::mem::take);
    bytes.truncate(len);
    u32::from(provide_built_in_book(bytes).is_err())
}

/// Takes the memory of a table of the session's default size from the host, writes it once and
/// gives it back to the allocator, so that the first search, which makes that table, finds it at
/// hand: the worker calls this while the book downloads. In Chromium the page's first analysis
/// took 270-310 ms where its table's memory was first grown and written, 75-120 ms after the
/// memory was only grown, and 1-3 ms after this (which itself took 45-65 ms, beside the download).
#[allow(unsafe_code, reason = "an export has an unmangled name")]
#[no_mangle]
pub(crate) extern "C" fn c4_reserve_table_memory() {
    let bytes = (TableSize::SESSION.mib() as usize) << 20;
    #[allow(
        clippy::slow_vector_initialization,
        reason = "the memory must be written: vec![0; n] takes memory the host gives zeroed, and \
                  writes none of it"
    )]
    let mut block: Vec<u8> = Vec::new();
    // If the host refuses the memory, the first search asks again, and says so if it must.
    if block.try_reserve_exact(bytes).is_ok() {
        block.resize(bytes, 0);
    }
}

/// Takes the buffer's first `len` bytes as input, and runs each line they complete; 1 once
/// `quit` has run (the host may then end the engine, as the native c4 exits), 0 before.
#[allow(unsafe_code, reason = "an export has an unmangled name")]
#[no_mangle]
pub(crate) extern "C" fn c4_feed(len: usize) -> u32 {
    BUFFER.with_borrow(|buffer| {
        let input = &buffer[..len.min(buffer.len())];
        FEED.with_borrow_mut(|feed| {
            let feed = feed.get_or_insert_with(Feed::new);
            feed.feed(input, &mut write_out);
            u32::from(feed.has_quit())
        })
    })
}

/// Ends the input: its last line is run, and an open streaming analysis's reply ended.
#[allow(unsafe_code, reason = "an export has an unmangled name")]
#[no_mangle]
pub(crate) extern "C" fn c4_end() {
    FEED.with_borrow_mut(|feed| feed.get_or_insert_with(Feed::new).end(&mut write_out));
}
