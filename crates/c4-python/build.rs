//! Derives the package's opening book from the committed one (book/c4.book, found where the core
//! says it is: `c4_core::SHIPPED_BOOK_PATH`): the same scores, with the ply that file leaves out
//! (to stay small enough to commit) stored, so that an analysis near the book's depth reads one
//! entry per column rather than computing each from its children. Written to
//! `OUT_DIR/c4.book`, which src/book.rs compiles in.

use std::path::Path;

use c4_core::Book;

fn main() {
    let committed = Path::new(c4_core::SHIPPED_BOOK_PATH);
    println!("cargo::rerun-if-changed={}", committed.display());
    let bytes = std::fs::read(committed)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", committed.display()));
    // The committed file is checked in full by c4-core's tests; here its checksum suffices.
    let book = Book::from_shipped_file(bytes)
        .unwrap_or_else(|e| panic!("{} is not a book: {e}", committed.display()));
    let derived = book.with_every_ply_stored().to_bytes();
    // The extension reads it unchecked (BookInBinary), so it is checked in full here: 2 s.
    if let Err(e) = Book::from_bytes(&derived) {
        panic!(
            "the book derived from {} is not valid: {e}",
            committed.display()
        );
    }
    let out = Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("c4.book");
    std::fs::write(&out, derived).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
