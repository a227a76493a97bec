//! The opening book the package ships: book/c4.book with every ply stored, derived from it when
//! the extension is built (build.rs), so that a lookup at any depth reads one entry.

use std::sync::Arc;

use c4_core::Book;
use c4_core::BookInBinary;

/// The derived book, compiled in and read where it lies ([`BookInBinary`]); the build script
/// checks it in full.
static SHIPPED: BookInBinary =
    BookInBinary::new(include_bytes!(concat!(env!("OUT_DIR"), "/c4.book")));

/// The package's built-in book, read at first use.
pub(crate) fn built_in_book() -> Option<Arc<Book>> {
    SHIPPED.book()
}
