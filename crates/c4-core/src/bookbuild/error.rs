//! [`BuildError`]: everything that can go wrong while building, merging or checking a book.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::format::ShardProblem;
use super::shard::Shard;
use crate::solver::book::BookError;
use crate::solver::SolverError;
use crate::textio::book::BookFileError;
use crate::textio::describe;

/// Everything that can go wrong while building, merging or checking a book.
#[derive(Debug, Error)]
pub enum BuildError {
    /// A file could not be read or written.
    #[error("{}: {}", path.display(), describe(source))]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A book file that cannot be read or used.
    #[error("{0}")]
    BookFile(#[from] BookFileError),
    /// A book that cannot be used.
    #[error("{path}: {source}")]
    Book {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: BookError,
    },
    /// A progress file that is not one, or is for another build.
    #[error("{}: {problem}", path.display())]
    Shard {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: ShardProblem,
    },
    /// A board the solver does not play.
    #[error(transparent)]
    Board(SolverError),
    /// A worker's table the system refused.
    #[error(transparent)]
    Table(SolverError),
    /// A depth past the deepest book.
    #[error("the depth must be at most {max}, got {depth}")]
    Depth {
        /// Asked for.
        depth: u32,
        /// The deepest there is on the board.
        max: u32,
    },
    /// A shard that is not one of its set.
    #[error("shard {}/{} does not exist: expected I/N with 0 <= I < N", .0.index, .0.count)]
    NoSuchShard(Shard),
    /// A merge of nothing.
    #[error("no shard files to merge")]
    NoShards,
    /// A merge without one of the shards.
    #[error("shard {missing} of {count} is missing: expected one file per shard")]
    MissingShard {
        /// The shard not given.
        missing: u32,
        /// The shards of the build.
        count: u32,
    },
    /// A ply left out that a book cannot leave out.
    #[error(transparent)]
    LeftOut(BookError),
    /// A ply past the book's to verify.
    #[error("ply {ply} is past this book, which holds plies 0 to {depth}")]
    PlyPastBook {
        /// Asked for.
        ply: u32,
        /// The book's last.
        depth: u32,
    },
    /// A ply of the book whose scores are not stored, to verify.
    #[error("ply {ply} is left out of this book (its scores come from the next ply's): verify a stored ply, such as {stored}")]
    PlyLeftOut {
        /// Asked for.
        ply: u32,
        /// A ply that is stored.
        stored: u32,
    },
    /// No folder to write to by default.
    #[error("there is no per-user data folder to write to (neither XDG_DATA_HOME nor HOME is set): give the folder with --dir and the book with -o")]
    NoDataFolder,
    /// The book compiled in does not load.
    #[error("the built-in book is corrupt")]
    BuiltInBook,
    /// A book entry whose key is not a position.
    #[error("book entry with key {key:#x}: {source}")]
    Entry {
        /// The entry's key.
        key: u64,
        /// Why it is not a position.
        source: SolverError,
    },
    /// Merged shards with scores of keys that are not positions at their depth.
    #[error("the shards hold {count} scores whose keys are not positions with {depth} stones (first: key {first:#x}); a progress file is corrupt")]
    Stray {
        /// Such scores.
        count: usize,
        /// The depth.
        depth: u32,
        /// One of their keys.
        first: u64,
    },
    /// Merged shards that leave positions unsolved.
    #[error("the shards leave {missing} of {total} positions at depth {depth} unsolved (first missing: key {first:#x}); finish building them first")]
    Incomplete {
        /// Positions without a score.
        missing: usize,
        /// Positions at the depth.
        total: usize,
        /// The depth.
        depth: u32,
        /// One of them.
        first: u64,
    },
}

impl BuildError {
    /// Whether the error is in what was asked rather than in a file or the system: a board,
    /// depth, shard or ply that the book cannot have. `c4 book` exits with the usage status on
    /// these, as on its other usage errors.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            BuildError::Board(_)
                | BuildError::Depth { .. }
                | BuildError::NoSuchShard(_)
                | BuildError::PlyPastBook { .. }
                | BuildError::PlyLeftOut { .. }
        )
    }
}

/// Turns an I/O error on `path` into a [`BuildError`].
pub(super) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> BuildError + '_ {
    move |source| BuildError::Io {
        path: path.to_path_buf(),
        source,
    }
}
