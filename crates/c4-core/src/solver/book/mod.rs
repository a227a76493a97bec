//! The opening book, a leaf of the solver: exact scores of every position up to a depth, which
//! the [`Solver`](super::Solver) looks up before it searches when it is handed a book; owns the
//! book file format and the lookup, over bytes handed in, and does no I/O. Reading book files and
//! the book built into the binary are [`crate::textio::book`]'s; building books (files, threads,
//! shards) is the `c4` program's `bookbuild`, above the solver.
//!
//! # The book file, format version 3
//!
//! Every integer is little-endian. A header with one record per ply, then three sections, each
//! a whole number of 8-byte words:
//!
//! ```text
//! offset size  field
//!      0    8  magic: the bytes "c4-book\n"
//!      8    4  format version: 3
//!     12    1  board width (7)
//!     13    1  board height (6)
//!     14    1  depth d: every position with at most d stones has a score in the book,
//!              except those where the side to move wins at once (they need none)
//!     15    1  zero
//!     16    8  count: the number of entries stored
//!     24    8  numbers: the bits of the bitmap, the numbers of the stored plies (see below)
//!     32    8  checksum: [`checksum`] of bytes 0..32 followed by every byte from 40 on
//!     40       plies: d + 1 records of 16 bytes, for 0 stones to d:
//!                0  1  score bits b, 1 to 8; 0 for a ply not stored: its scores are those
//!                      that negamax gives from the next ply's, computed at lookup (at most
//!                      two such plies in a row, never the deepest)
//!                1  1  score base: the least score of the ply, an i8 (0 if not stored)
//!                2  6  zero
//!                8  8  the ply's entries (0 if not stored)
//!  40 + 16(d + 1)  bitmap: ceil(numbers / 64) words; bit i of the whole (bit i % 64 of word
//!              i / 64) is set when the position numbered i has an entry; the numbers of the
//!              stored plies follow each other, the fewest stones first
//!              directory: for every 512 bits of the bitmap, a u32: the set bits before them;
//!              zero-padded to a whole word
//!              scores: the entries' scores in the bitmap's order, each ply's in its own b bits,
//!              score minus the ply's base, packed from the lowest bit of the first byte, one ply
//!              after the other; zero-padded to a whole word, then one more zero word
//! ```
//!
//! The numbering ([`numbering::Numbering`]) gives every position with at most `d` stones a
//! number, densely, the plies one after the other: the positions with 12 stones on 7x6 fill 30%
//! of theirs. The bitmap holds the numbers of the stored plies, each ply's shifted down past
//! those of the plies left out. A
//! position and its mirror image share one entry, under the number of the one with the smaller
//! [`Position::key`]. Scores are exact, from the side to move, with the [`Score`] convention of
//! the solver. A lookup reads the file where it lies (one bit, one directory entry, at most
//! eight words counted, one score), so the book built into the binary is never copied. A ply
//! left out costs a lookup of each child instead (a child where the opponent wins at once scores
//! directly), and its bitmap and scores: the deepest ply is always stored.
//!
//! Version 2 files (one score width and base for every ply, in the header's bytes 15 and 16,
//! every ply stored, the count, numbers and checksum at 24, 32 and 40 and the bitmap at 48) and
//! version 1 files (a 32-byte header with the count and checksum at 16 and 24, then one 8-byte
//! entry per position, `canonical key << 8 | score as u8`, sorted) are still read, and laid out
//! in version 3 when loaded.
//!
//! [`Position::key`]: crate::solver::Position::key
//! [`Score`]: crate::solver::Score

mod error;
mod format;
mod keys;
pub(crate) mod numbering;
pub use error::BookError;
pub(crate) use format::format_version;
pub use format::FORMAT_VERSION;
pub use keys::{canonical_key, position_of_key};

mod layout;
pub use layout::{checksum, misplaced_left_out, Book, Checksum};
pub(crate) use layout::{score_from_children, score_limit};
