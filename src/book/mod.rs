//! The opening book: exact scores of every position up to a depth, looked up by the [`Solver`]
//! before it searches; owns the book file format and the lookup, not the search. Building a book
//! (files, threads, shards) lives in [`build`], called only from the command line.
//!
//! # The book file, format version 1
//!
//! Every integer is little-endian. A 32-byte header, then `count` entries of 8 bytes:
//!
//! ```text
//! offset size  field
//!      0    8  magic: the bytes "c4-book\n"
//!      8    4  format version: 1
//!     12    1  board width (7)
//!     13    1  board height (6)
//!     14    1  depth: every position with at most this many stones is in the book,
//!              except those where the side to move wins at once (they need no book)
//!     15    1  zero
//!     16    8  count: the number of entries
//!     24    8  checksum: [`checksum`] of bytes 0..24 followed by the entries
//!     32  8*n  entries, sorted by key, no two with the same key:
//!
//!              bit 63 ........................ 8 7 ........ 0
//!              |  canonical key of the position  |   score    |
//! ```
//!
//! The canonical key is the smaller of [`Position::key`] and the key of the position's mirror
//! image (columns reversed), so a position and its mirror are stored once. The key must fit in
//! 56 bits (`width * (height + 1) <= 56`; 49 bits on 7x6). The score is the exact score from the
//! side to move as an `i8` in two's complement, with the [`Score`] convention of the solver.

pub mod build;
pub mod cli;

use std::sync::{Arc, OnceLock};

use thiserror::Error;

use crate::solver::{Position, Score};

/// The first eight bytes of a book file.
pub const MAGIC: &[u8; 8] = b"c4-book\n";
/// The format version this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// The size of the header in bytes.
pub const HEADER_BYTES: usize = 32;
/// The size of one entry in bytes.
pub const ENTRY_BYTES: usize = 8;

/// The book shipped inside the binary (see README.md, "The opening book").
static EMBEDDED_BYTES: &[u8] = include_bytes!("../../book/c4.book");

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
    #[error("book format version {found} is not supported, expected {FORMAT_VERSION}")]
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
    /// The checksum does not match the contents.
    #[error("the book's checksum does not match its contents (the file is corrupt)")]
    Checksum,
    /// Entries out of order or repeated.
    #[error("book entry {index} is not sorted after the one before it")]
    Unsorted {
        /// The 0-based entry.
        index: u64,
    },
    /// An entry that cannot be right.
    #[error("book entry {index} has score {score}, outside -{limit}..{limit}")]
    BadScore {
        /// The 0-based entry.
        index: u64,
        /// Its score.
        score: i8,
        /// The largest score on the board.
        limit: i32,
    },
}

/// Exact scores of the positions of one board size up to a depth, sorted for binary search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    width: u32,
    height: u32,
    depth: u32,
    /// `canonical key << 8 | score as u8`, sorted.
    entries: Vec<u64>,
}

impl Book {
    /// A book of `width` x `height` positions complete to `depth` stones, from (canonical key,
    /// score) pairs in any order.
    ///
    /// # Errors
    /// [`BookError::Board`] when the keys do not fit in 56 bits, [`BookError::Unsorted`] when a
    /// key repeats.
    pub fn from_scores(
        width: u32,
        height: u32,
        depth: u32,
        scores: impl IntoIterator<Item = (u64, Score)>,
    ) -> Result<Book, BookError> {
        check_board(width, height)?;
        let mut entries: Vec<u64> = scores
            .into_iter()
            .map(|(key, score)| key << 8 | u64::from(score.value() as u8))
            .collect();
        entries.sort_unstable();
        Book::checked(width, height, depth, entries)
    }

    /// Reads a book from the bytes of a book file, checking everything the format promises.
    ///
    /// # Errors
    /// Whatever is wrong with the bytes, as a [`BookError`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let found = bytes.len() as u64;
        if bytes.len() < HEADER_BYTES {
            return Err(if bytes.len() >= 8 && &bytes[..8] != MAGIC {
                BookError::BadMagic
            } else {
                BookError::Truncated {
                    expected: HEADER_BYTES as u64,
                    found,
                }
            });
        }
        if &bytes[..8] != MAGIC {
            return Err(BookError::BadMagic);
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(BookError::Version { found: version });
        }
        let (width, height, depth) = (
            u32::from(bytes[12]),
            u32::from(bytes[13]),
            u32::from(bytes[14]),
        );
        check_board(width, height)?;
        let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        let expected = count
            .checked_mul(ENTRY_BYTES as u64)
            .and_then(|body| body.checked_add(HEADER_BYTES as u64))
            .unwrap_or(u64::MAX);
        if found < expected {
            return Err(BookError::Truncated { expected, found });
        }
        if found > expected {
            return Err(BookError::TrailingBytes {
                extra: found - expected,
            });
        }
        let stored = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        let body = &bytes[HEADER_BYTES..];
        if checksum(&bytes[..24], body) != stored {
            return Err(BookError::Checksum);
        }
        let entries = body
            .chunks_exact(ENTRY_BYTES)
            .map(|e| u64::from_le_bytes(e.try_into().expect("8 bytes")))
            .collect();
        Book::checked(width, height, depth, entries)
    }

    /// The bytes of the book file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_BYTES + ENTRY_BYTES * self.entries.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&[self.width as u8, self.height as u8, self.depth as u8, 0]);
        bytes.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        let mut body = Vec::with_capacity(ENTRY_BYTES * self.entries.len());
        for entry in &self.entries {
            body.extend_from_slice(&entry.to_le_bytes());
        }
        let sum = checksum(&bytes, &body);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// The book compiled into the binary, parsed once at first use; `None` only if it were
    /// corrupt, which a test rules out.
    pub fn embedded() -> Option<Arc<Book>> {
        static EMBEDDED: OnceLock<Option<Arc<Book>>> = OnceLock::new();
        EMBEDDED
            .get_or_init(|| Book::from_bytes(EMBEDDED_BYTES).ok().map(Arc::new))
            .clone()
    }

    /// The size in bytes of the embedded book file.
    pub fn embedded_file_bytes() -> usize {
        EMBEDDED_BYTES.len()
    }

    /// Board columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Board rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Every position with at most this many stones is in the book (unless the side to move
    /// wins at once).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every (canonical key, score) pair, in key order.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (u64, Score)> + '_ {
        self.entries.iter().map(|&e| split_entry(e))
    }

    /// Whether the book is for `position`'s board size.
    pub fn fits(&self, position: &Position) -> bool {
        position.width() == self.width && position.height() == self.height
    }

    /// The exact score of `position`, if it is in the book. Positions deeper than the book, of
    /// another board size, or where the side to move wins at once are not.
    pub fn score(&self, position: &Position) -> Option<Score> {
        if position.moves_played() > self.depth || !self.fits(position) {
            return None;
        }
        self.score_of_key(canonical_key(position))
    }

    /// The score stored under a canonical key.
    #[inline]
    pub fn score_of_key(&self, key: u64) -> Option<Score> {
        self.entries
            .binary_search_by_key(&key, |&e| e >> 8)
            .ok()
            .map(|index| split_entry(self.entries[index]).1)
    }

    /// A book of sorted `entries`, refused unless they are in order with scores in range.
    fn checked(width: u32, height: u32, depth: u32, entries: Vec<u64>) -> Result<Book, BookError> {
        let book = Book {
            width,
            height,
            depth,
            entries,
        };
        book.check_entries()?;
        Ok(book)
    }

    fn check_entries(&self) -> Result<(), BookError> {
        let limit = (self.width * self.height / 2 + 1) as i32;
        for (index, pair) in self.entries.windows(2).enumerate() {
            if pair[0] >> 8 >= pair[1] >> 8 {
                return Err(BookError::Unsorted {
                    index: index as u64 + 1,
                });
            }
        }
        for (index, &entry) in self.entries.iter().enumerate() {
            let score = split_entry(entry).1.value();
            if i32::from(score).abs() > limit {
                return Err(BookError::BadScore {
                    index: index as u64,
                    score,
                    limit,
                });
            }
        }
        Ok(())
    }
}

fn split_entry(entry: u64) -> (u64, Score) {
    (entry >> 8, Score::new(entry as u8 as i8))
}

fn check_board(width: u32, height: u32) -> Result<(), BookError> {
    if width == 0 || height == 0 || width * (height + 1) > 56 {
        return Err(BookError::Board { width, height });
    }
    Ok(())
}

/// The key under which a position and its mirror image are stored: the smaller of the two keys.
#[inline]
pub fn canonical_key(position: &Position) -> u64 {
    let key = position.key();
    key.min(position.geometry().mirror_key(key))
}

/// The book's checksum of `header` then `body`, each zero-padded to whole 8-byte words: for
/// every little-endian word `w`, `h = (h ^ w) * 0x100000001b3` (wrapping) then `h ^= h >> 29`,
/// from `h = 0xcbf29ce484222325`. One multiply per word, so that checking a large book at load
/// costs about a millisecond.
pub fn checksum(header: &[u8], body: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325_u64;
    for part in [header, body] {
        for chunk in part.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            h = (h ^ u64::from_le_bytes(word)).wrapping_mul(0x0000_0100_0000_01b3);
            h ^= h >> 29;
        }
    }
    h
}

/// The position whose [`Position::key`] is `key` on a `width` x `height` board.
///
/// # Errors
/// [`crate::solver::SolverError`] when no position has this key.
pub fn position_of_key(
    width: u32,
    height: u32,
    key: u64,
) -> Result<Position, crate::solver::SolverError> {
    // Per column, key = current + mask where mask is the h lowest bits: key + 1 has its top bit
    // at h, and the current player's stones are the rest.
    let stride = height + 1;
    let column_bits = (1u64 << stride) - 1;
    let (mut current, mut mask) = (0u64, 0u64);
    for column in 0..width {
        let bits = (key >> (column * stride)) & column_bits;
        let stones = (bits + 1).ilog2().min(height);
        let filled = (1u64 << stones) - 1;
        let mine = bits.wrapping_sub(filled) & filled;
        current |= mine << (column * stride);
        mask |= filled << (column * stride);
    }
    let position = Position::from_stones(width, height, current, mask ^ current)?;
    if position.key() != key {
        return Err(crate::solver::SolverError::InvalidStones {
            reason: "the key does not describe a position",
        });
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(moves: &str) -> Position {
        let columns: Vec<u8> = moves.bytes().map(|b| b - b'1').collect();
        Position::from_moves(7, 6, &columns).unwrap()
    }

    fn small_book() -> Book {
        let scores = ["", "4", "44", "1", "7123"]
            .iter()
            .enumerate()
            .map(|(i, m)| (canonical_key(&pos(m)), Score::new(i as i8 - 2)));
        Book::from_scores(7, 6, 4, scores).unwrap()
    }

    #[test]
    fn books_round_trip_through_bytes() {
        let book = small_book();
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), HEADER_BYTES + 5 * ENTRY_BYTES);
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(Book::from_bytes(&bytes), Ok(book.clone()));
        assert_eq!(book.score(&pos("")), Some(Score::new(-2)));
        assert_eq!(book.score(&pos("4")), Some(Score::new(-1)));
        // Mirror images share an entry.
        assert_eq!(book.score(&pos("7")), Some(Score::new(1)));
        assert_eq!(book.score(&pos("1765")), Some(Score::new(2)));
        assert_eq!(book.score(&pos("2")), None);
        assert_eq!(book.score(&pos("44444")), None, "deeper than the book");
    }

    #[test]
    fn corrupt_books_are_refused_with_a_reason() {
        let bytes = small_book().to_bytes();
        for index in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[index] ^= 0x10;
            assert!(Book::from_bytes(&bad).is_err(), "flipped byte {index}");
        }
        assert_eq!(
            Book::from_bytes(&bytes[..bytes.len() - 3]),
            Err(BookError::Truncated {
                expected: bytes.len() as u64,
                found: bytes.len() as u64 - 3
            })
        );
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(
            Book::from_bytes(&long),
            Err(BookError::TrailingBytes { extra: 1 })
        );
        assert_eq!(
            Book::from_bytes(b"hello"),
            Err(BookError::Truncated {
                expected: 32,
                found: 5
            })
        );
        assert_eq!(
            Book::from_bytes(b"not a book, not at all, no no no no"),
            Err(BookError::BadMagic)
        );
        let mut future = bytes.clone();
        future[8] = 2;
        assert_eq!(
            Book::from_bytes(&future),
            Err(BookError::Version { found: 2 })
        );
        assert_eq!(
            BookError::Checksum.to_string(),
            "the book's checksum does not match its contents (the file is corrupt)"
        );
    }

    #[test]
    fn keys_decode_to_their_positions() {
        for moves in ["", "4", "4453", "1111112222", "7654321234567"] {
            let p = pos(moves);
            assert_eq!(position_of_key(7, 6, p.key()), Ok(p), "{moves}");
        }
        assert!(position_of_key(7, 6, 0b10).is_err());
    }

    #[test]
    fn the_embedded_book_loads() {
        let book = Book::embedded().expect("the embedded book parses");
        assert_eq!((book.width(), book.height()), (7, 6));
        assert!(book.depth() >= 4);
        assert_eq!(book.score(&pos("")), Some(Score::new(1)));
    }
}
