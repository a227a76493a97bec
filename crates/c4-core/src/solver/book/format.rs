//! What every book file starts with, the limits of its format, and the reading of its numbers:
//! the part of the layout that the rest of the book module builds on.

/// The first eight bytes of a book file.
pub(crate) const MAGIC: &[u8; 8] = b"c4-book\n";
/// The format version this code writes (it also reads versions 1 and 2).
pub const FORMAT_VERSION: u32 = 3;

/// The most plies left out one after another: a lookup there costs up to 7^n lookups of the
/// next stored ply (49 for two).
pub(crate) const MAX_LEFT_OUT_IN_A_ROW: u32 = 2;

/// The format version a book file says it is in, from its first 12 bytes (or more); `None`
/// when they are not a book file's start.
pub(crate) fn format_version(start: &[u8]) -> Option<u32> {
    (start.len() >= 12 && &start[..8] == MAGIC).then(|| read_u32(start, 8))
}

/// The little-endian 32-bit number at `at` (the caller has checked the length).
pub(super) fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// The little-endian 64-bit number at `at` (the caller has checked the length).
pub(super) fn read_u64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}
