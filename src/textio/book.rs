//! Book files from disk: the one bounded, fully checked reader of the files `c4 book` writes, for
//! the front ends' `--book FILE` and `book load`, and for `c4 book` itself.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::describe;
use crate::book::{Book, BookError};

/// The largest book file read: a 7x6 book to depth 13 is about 15 MB, a format-1 one to depth 12
/// 56 MB. A wrong path (`/dev/zero`) then costs a message, not the machine's memory.
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// A book file that cannot be used: which, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}: {problem}", path.display())]
pub struct BookFileError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: BookFileProblem,
}

/// Why a book file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BookFileProblem {
    /// The system refused, in words ([`describe`]).
    #[error("{0}")]
    Io(String),
    /// More bytes than any book.
    #[error("the file has more than {MAX_BOOK_BYTES} bytes, too many for a book")]
    TooLarge,
    /// Not a valid book.
    #[error(transparent)]
    Book(#[from] BookError),
}

impl From<io::Error> for BookFileProblem {
    fn from(e: io::Error) -> Self {
        BookFileProblem::Io(describe(&e))
    }
}

/// Reads and checks a book file.
///
/// # Errors
/// The file cannot be read, is too large, or is not a valid book.
pub fn read_book(path: &Path) -> Result<Book, BookFileError> {
    let book = read_at_most(path, MAX_BOOK_BYTES)
        .and_then(|bytes| Ok(Book::from_bytes(&bytes)?))
        .map_err(|problem| BookFileError {
            path: path.to_path_buf(),
            problem,
        })?;
    Ok(book)
}

/// The bytes of the file at `path`, or [`BookFileProblem::TooLarge`] past `limit` (having read
/// one byte more, not the whole file).
fn read_at_most(path: &Path, limit: u64) -> Result<Vec<u8>, BookFileProblem> {
    let mut bytes = Vec::new();
    File::open(path)?.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(BookFileProblem::TooLarge);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_book_file_is_read_up_to_a_limit() {
        let dir = std::env::temp_dir().join(format!("c4-book-file-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ten.bytes");
        std::fs::write(&path, [7u8; 10]).unwrap();
        assert_eq!(read_at_most(&path, 10).unwrap(), vec![7u8; 10]);
        assert_eq!(read_at_most(&path, 9), Err(BookFileProblem::TooLarge));
        // A device that never ends is read only that far.
        #[cfg(unix)]
        assert_eq!(
            read_at_most(Path::new("/dev/zero"), 1 << 16),
            Err(BookFileProblem::TooLarge)
        );
        let error = read_book(&dir).unwrap_err();
        assert_eq!(
            error.problem,
            BookFileProblem::Io("it is a directory".into())
        );
        assert_eq!(
            error.to_string(),
            format!("{}: it is a directory", dir.display())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
