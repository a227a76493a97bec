//! Fuzzes book files (`--book FILE`, `book load`, `c4 book info`) as they are read: any bytes,
//! in any of the three formats. The first input byte chooses whether the checksum is made to
//! hold (for the format the file's header names), so that damaged contents reach the checks
//! behind it rather than being refused at the checksum. Reading must never panic; a book that
//! is read must list as many entries as it says, look each one up under its own key, and read
//! back the same from the bytes it writes.
#![no_main]

use c4_core::{book_checksum, position_of_key, Book};
use libfuzzer_sys::fuzz_target;

/// Where each format's checksum lies, and what it covers: the header up to it, and everything
/// after the header: (the header's length, the checksum's offset), by format version.
const CHECKSUMS: [(u32, usize, usize); 3] = [(1, 32, 24), (2, 48, 40), (3, 40, 32)];

/// The entries looked up one by one, at most (a book can hold millions).
const LOOKED_UP: usize = 64;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let mut file = file.to_vec();
    if mode & 1 == 1 {
        make_checksum_hold(&mut file);
    }
    let Ok(book) = Book::from_bytes(&file) else {
        return;
    };
    assert_eq!(book.entries().len(), book.len());
    for (key, score) in book.entries().take(LOOKED_UP) {
        let position = position_of_key(book.width(), book.height(), key)
            .expect("a book's key is a position of its board");
        assert_eq!(book.score(&position), Some(score), "key {key:#x}");
    }
    let again = Book::from_bytes(&book.to_bytes()).expect("a book reads back what it writes");
    assert!(again.entries().eq(book.entries()));
});

/// Writes the checksum the file's format wants, where its header names a known version.
fn make_checksum_hold(file: &mut [u8]) {
    let Some(version) = file.get(8..12) else {
        return;
    };
    let version = u32::from_le_bytes(version.try_into().expect("4 bytes"));
    let Some(&(_, header, at)) = CHECKSUMS.iter().find(|(v, ..)| *v == version) else {
        return;
    };
    if file.len() < header {
        return;
    }
    let sum = book_checksum(&file[..at], &file[header..]);
    file[at..at + 8].copy_from_slice(&sum.to_le_bytes());
}
