//! [`BookError`]: why a book file cannot be used.

use thiserror::Error;

use super::format::{FORMAT_VERSION, MAX_LEFT_OUT_IN_A_ROW};

/// Why a book file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BookError {
    /// Shorter than its header says.
    #[error("the book is truncated: expected {expected} bytes, found {found}")]
    Truncated {
        /// The length the header asks for.
        expected: u64,
        /// The file's length.
        found: u64,
    },
    /// Longer than its header says.
    #[error("the book has {extra} bytes after its last entry, expected none")]
    TrailingBytes {
        /// Bytes past the last entry.
        extra: u64,
    },
    /// Not a book file.
    #[error("not a c4 book file (expected the magic bytes \"c4-book\")")]
    BadMagic,
    /// A format this code does not read.
    #[error("book format version {found} is not supported, expected 1 to {FORMAT_VERSION}")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// A board the book cannot hold.
    #[error("a book board must have width x (height + 1) <= 56, got {width}x{height}")]
    Board {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A version 1 file whose few entries name a depth far beyond them.
    #[error("a {width}x{height} book of depth {depth} with only {entries} entries is refused: laying it out would take far more memory than its file")]
    TooSparse {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// The depth.
        depth: u32,
        /// The entries the file holds.
        entries: u64,
    },
    /// A board and depth with too many positions to number.
    #[error("a {width}x{height} book of depth {depth} would have too many positions to number (more than 2^33); choose a smaller depth")]
    TooLarge {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// The depth.
        depth: u32,
    },
    /// A ply that cannot be left out.
    #[error("ply {ply} cannot be left out of a book of depth {depth}: only plies below the deepest can, at most {MAX_LEFT_OUT_IN_A_ROW} in a row")]
    Derived {
        /// The ply asked to be left out.
        ply: u32,
        /// The book's depth.
        depth: u32,
    },
    /// The checksum does not match the contents.
    #[error("the book's checksum does not match its contents (the file is corrupt)")]
    Checksum,
    /// A header or section that contradicts the rest of the file.
    #[error("the book's {what} (the file is corrupt)")]
    Inconsistent {
        /// What is wrong, as the end of a sentence.
        what: &'static str,
    },
    /// Entries out of order or repeated.
    #[error("book entry {index} is not sorted after the one before it")]
    Unsorted {
        /// The 0-based entry.
        index: u64,
    },
    /// A key that is not of a position the book can hold.
    #[error("book entry {index} is not a position with at most {depth} stones")]
    BadKey {
        /// The 0-based entry.
        index: u64,
        /// The book's depth.
        depth: u32,
    },
    /// An entry that cannot be right.
    #[error("book entry {index} has score {score}, outside -{limit}..{limit}")]
    BadScore {
        /// The 0-based entry.
        index: u64,
        /// Its score.
        score: i32,
        /// The largest score on the board.
        limit: i32,
    },
}
