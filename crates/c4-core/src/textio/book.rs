//! Where the front ends get the opening book they hand the solver: the book built into the
//! binary, read where it lies (or, in a build without it, the one its host provides), and book
//! files from disk, through the one bounded, fully checked
//! reader of the files `c4 book` writes (`--book FILE`, `book load`, `c4 book` itself), which
//! reads regular files of at most [`MAX_BOOK_BYTES`] only ([`read_at_most`]).

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use thiserror::Error;

use super::files::{open_at_most, read_at_most, SizeLimit};
use super::words::describe;
use crate::solver::book::{format_version, Book, BookError};

/// [`SHIPPED_BOOK_PATH`] as a literal, for `include_bytes!`.
macro_rules! shipped_book_path {
    () => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../book/c4.book")
    };
}

/// Where the book the project ships lies, `book/c4.book` at the workspace's root, as an absolute
/// path on the machine that compiled the core: the one place its location is written. The core
/// compiles it in from there, and the Python package's build script derives its book from it.
pub const SHIPPED_BOOK_PATH: &str = shipped_book_path!();

/// The book shipped inside the binary (see README.md, "The opening book").
#[cfg(feature = "built-in-book")]
static BUILT_IN_BYTES: &[u8] = include_bytes!(shipped_book_path!());

/// The largest book file read: a 7x6 book to depth 13 is about 15 MB, a format-1 one to depth 12
/// 56 MB. A wrong path (a huge file of something else) then costs a message, not the machine's
/// memory.
pub(crate) const MAX_BOOK_BYTES: u64 = 1 << 30;

/// How much of a book file is read.
const BOOK_FILE: SizeLimit = SizeLimit {
    bytes: MAX_BOOK_BYTES,
    holds: "a book",
};

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
    /// The system refused, or the file is no regular file or has more than `MAX_BOOK_BYTES`,
    /// in words ([`describe`]).
    #[error("{0}")]
    Io(String),
    /// Not a valid book.
    #[error(transparent)]
    Book(#[from] BookError),
}

impl From<io::Error> for BookFileProblem {
    fn from(e: io::Error) -> Self {
        BookFileProblem::Io(describe(&e))
    }
}

/// The book compiled into the binary, read at first use; `None` only if it were corrupt, which a
/// test rules out. Nothing of it is read until a front end asks for it: `--no-book` never does.
#[cfg(feature = "built-in-book")]
pub fn built_in_book() -> Option<Arc<Book>> {
    static BUILT_IN: BookInBinary = BookInBinary::new(BUILT_IN_BYTES);
    BUILT_IN.book()
}

/// A version 3 book file compiled into a binary (`include_bytes!`), read where it lies at first
/// use: the core's built-in book, and the Python package's. Its contents are not checked at run
/// time (`Book::from_static_unchecked`): they are compiled in, and checked in full where they
/// are made, so the first search does not pay for it.
#[derive(Debug)]
pub struct BookInBinary {
    bytes: &'static [u8],
    book: OnceLock<Option<Arc<Book>>>,
}

impl BookInBinary {
    /// The book of `bytes`, not yet read.
    pub const fn new(bytes: &'static [u8]) -> BookInBinary {
        BookInBinary {
            bytes,
            book: OnceLock::new(),
        }
    }

    /// The book, read at the first call; `None` if its header is not a version 3 book's.
    pub fn book(&self) -> Option<Arc<Book>> {
        self.book
            .get_or_init(|| {
                let bytes = self.bytes;
                // The bytes lie in the binary's file, mapped but not yet read: the first lookup
                // on each of its pages waits for the system to map it in (a lookup near the
                // book's depth took 10 times longer the first time, 45 µs instead of 3 µs for
                // the 49 lookups of a ply-11 analysis). One pass over the pages, beside the
                // caller, maps them in: about half a millisecond of processor time.
                let _ = std::thread::Builder::new()
                    .name("book pages".into())
                    .spawn(move || touch_pages(bytes));
                Book::from_static_unchecked(bytes).ok().map(Arc::new)
            })
            .clone()
    }
}

/// The book the host provided ([`provide_built_in_book`]), in a build without one of its own
/// (the WebAssembly one: its page fetches the book as a file, which the browser caches, rather
/// than making the engine's download 14 MB larger). Sessions take it as the built-in book.
#[cfg(not(feature = "built-in-book"))]
pub fn built_in_book() -> Option<Arc<Book>> {
    PROVIDED_BOOK.get().cloned()
}

#[cfg(not(feature = "built-in-book"))]
static PROVIDED_BOOK: OnceLock<Arc<Book>> = OnceLock::new();

/// Makes `bytes`, the book file shipped with the program (book/c4.book, which a test checks in
/// full), the built-in book for sessions started from now on; its header and checksum are
/// checked ([`Book::from_shipped_file`]). The first book provided stays: a second is checked
/// and then ignored.
///
/// # Errors
/// `bytes` is not a book file, or not a whole one.
#[cfg(not(feature = "built-in-book"))]
pub fn provide_built_in_book(bytes: Vec<u8>) -> Result<(), BookError> {
    let book = Book::from_shipped_file(bytes)?;
    let _ = PROVIDED_BOOK.set(Arc::new(book));
    Ok(())
}

/// Reads one byte of each memory page of `bytes`, so that the system maps them all in.
fn touch_pages(bytes: &[u8]) {
    const PAGE: usize = 4096;
    for page in bytes.chunks(PAGE) {
        std::hint::black_box(page[0]);
    }
}

/// Reads and checks a book file.
///
/// # Errors
/// The file cannot be read, is too large, or is not a valid book.
pub fn read_book(path: &Path) -> Result<Book, BookFileError> {
    let book = read_at_most(path, BOOK_FILE)
        .map_err(BookFileProblem::from)
        .and_then(|bytes| Ok(Book::from_bytes(&bytes)?))
        .map_err(|problem| BookFileError {
            path: path.to_path_buf(),
            problem,
        })?;
    Ok(book)
}

/// The format version the book file at `path` says it is in and the file's length in bytes,
/// read from its start alone; `None` when it cannot be read or is not a book file.
pub fn file_format(path: &Path) -> Option<(u32, u64)> {
    let mut start = [0u8; 12];
    let (mut file, size) = open_at_most(path, BOOK_FILE).ok()?;
    file.read_exact(&mut start).ok()?;
    Some((format_version(&start)?, size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Position, Score};

    #[test]
    #[cfg(feature = "built-in-book")]
    fn the_built_in_book_loads() {
        let book = built_in_book().expect("the built-in book parses");
        // At run time only its header is read: here everything is checked.
        assert_eq!(Book::from_bytes(BUILT_IN_BYTES).as_ref(), Ok(book.as_ref()));
        assert_eq!((book.width(), book.height()), (7, 6));
        assert!(book.depth() >= 4);
        assert_eq!(
            book.score(&Position::new(7, 6).unwrap()),
            Some(Score::new(1))
        );
    }

    /// The bytes this process has read so far, from files or anything else (0 where the system
    /// does not say).
    fn bytes_read() -> u64 {
        let io = std::fs::read_to_string("/proc/self/io").unwrap_or_default();
        io.lines()
            .find_map(|line| line.strip_prefix("rchar: "))
            .map_or(0, |count| count.parse().unwrap())
    }

    #[test]
    fn a_book_file_is_read_up_to_a_limit() {
        let dir = std::env::temp_dir().join(format!("c4-book-file-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A file of 10 GiB, all of it a hole, is refused by its size before a byte is read:
        // reading it up to the limit took 1 GiB of memory and seconds.
        let path = dir.join("sparse.book");
        std::fs::File::create(&path)
            .unwrap()
            .set_len(10 << 30)
            .unwrap();
        let before = bytes_read();
        let error = read_book(&path).unwrap_err();
        // The other tests of this process read too, but far less than a limit's worth.
        assert!(bytes_read() - before < MAX_BOOK_BYTES / 4);
        assert_eq!(
            error.problem,
            BookFileProblem::Io(format!(
                "the file has more than {MAX_BOOK_BYTES} bytes, too many for a book"
            ))
        );
        assert_eq!(file_format(&path), None);
        // A device is not read at all, not even one that never ends.
        #[cfg(unix)]
        assert_eq!(
            read_book(Path::new("/dev/zero")).unwrap_err().problem,
            BookFileProblem::Io("it is not a regular file (a pipe, a device or a socket)".into())
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
