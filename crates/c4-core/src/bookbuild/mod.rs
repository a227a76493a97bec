//! Building opening books, above the solver: enumerating the positions up to a depth, solving
//! the deepest ones in shards with worker threads into resumable progress files (their format
//! in `format.rs`), merging the shards into a [`Book`], writing it, and checking a book
//! against the search; `c4 book` is its command line. The book's file format and lookup are
//! the solver's (`solver::book`).
//!
//! [`Book`]: crate::Book

mod error;
mod format;
mod progress;
mod shard;
pub use error::BuildError;
pub use progress::shard_path;
pub use shard::Shard;

mod build;
pub use build::{
    build_shard, check_book_path, merge, sample_entries, verify, write_book, BuildOptions, Progress,
};
