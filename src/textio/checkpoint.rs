//! Checkpoint files: where a long exact search stood when it last saved, so that another process
//! can go on from there (`c4 solve --checkpoint FILE`).
//!
//! Layout: the line `c4 checkpoint 1`, then little-endian 64-bit numbers: width, height, the
//! position's key (low and high word), the solver's table layout and size in words, the proven
//! lower and upper bound of the score, the search time so far in milliseconds, the nodes so far,
//! the number of table words N, N pairs (word index, word), and a checksum of everything before
//! it. A checkpoint is written to `FILE.tmp` and renamed over `FILE`, so a crash while saving
//! leaves the last one whole. The table words are streamed both ways, never held in memory
//! beside the table they come from or go to.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

use super::describe;
use crate::solver::book::Checksum;

/// The first line of every checkpoint file: 16 bytes, two words of the checksum.
const MAGIC: &[u8; 16] = b"c4 checkpoint 1\n";

/// The numbers before the table words.
const HEADER_NUMBERS: usize = 11;

/// Where a search of one position stood; the table words it proved travel beside it
/// ([`Checkpoint::write`], [`SavedWords`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The board's columns.
    pub width: u32,
    /// The board's rows.
    pub height: u32,
    /// The searched position's key.
    pub key: u128,
    /// The layout of the table's words ([`Solver::table_layout`](crate::solver::Solver::table_layout)).
    pub table_layout: u64,
    /// The size of the table the words come from.
    pub table_words: u64,
    /// The score is at least this.
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// Search time spent so far, over every process.
    pub elapsed: Duration,
    /// Nodes searched so far, over every process.
    pub nodes: u64,
}

/// The table words of a checkpoint file being read, (word index, word) pairs parsed as they are
/// taken. They are only trusted once [`finish`](Self::finish) has checked the file's checksum.
pub struct SavedWords<R> {
    input: R,
    path: PathBuf,
    sum: Checksum,
    /// Words not yet taken.
    left: u64,
    /// The file ended or failed before all its words were read.
    cut_short: bool,
}

/// A checkpoint held by one run: the lock on `FILE.lock`, released when dropped (or when the
/// process ends, however it ends), so that two processes never save over each other's file.
#[derive(Debug)]
pub struct CheckpointLock {
    /// The locked file; none where no lock could be had.
    _file: Option<std::fs::File>,
}

/// The table words of a checkpoint file on disk.
pub type SavedFileWords = SavedWords<io::BufReader<std::fs::File>>;

/// Why a checkpoint file cannot be read or written.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The system refused.
    #[error("{}: {}", path.display(), describe(source))]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// Another process holds the checkpoint's lock.
    #[error("{}: another c4 process is running this checkpoint (it holds {}.lock)", path.display(), path.display())]
    Busy {
        /// The checkpoint file.
        path: PathBuf,
    },
    /// Not a checkpoint file, cut short or damaged.
    #[error("{}: not a c4 checkpoint file, or cut short or damaged", path.display())]
    Format {
        /// The file.
        path: PathBuf,
    },
}

impl Checkpoint {
    /// Locks the checkpoint `path` for this run, through the file `path.lock` beside it (made
    /// if missing, and left there). Where no lock can be had (a folder that cannot be written, a
    /// file system without locks) the run goes on unlocked: a finished checkpoint can still
    /// answer, and a save that cannot be written says so itself.
    ///
    /// # Errors
    /// [`CheckpointError::Busy`] when another process holds the lock.
    pub fn lock(path: &Path) -> Result<CheckpointLock, CheckpointError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(beside(path, ".lock"));
        let file = match file {
            Ok(file) => file,
            Err(_) => return Ok(CheckpointLock { _file: None }),
        };
        match file.try_lock() {
            Err(std::fs::TryLockError::WouldBlock) => Err(CheckpointError::Busy {
                path: path.to_path_buf(),
            }),
            Ok(()) => Ok(CheckpointLock { _file: Some(file) }),
            Err(std::fs::TryLockError::Error(_)) => Ok(CheckpointLock { _file: None }),
        }
    }

    /// Opens `path` and reads its checkpoint, up to the table words; `Ok(None)` if there is no
    /// such file.
    ///
    /// # Errors
    /// The file cannot be read or does not start as a checkpoint of its length does.
    pub fn open(path: &Path) -> Result<Option<(Checkpoint, SavedFileWords)>, CheckpointError> {
        let failed = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(failed(source)),
        };
        let len = file.metadata().map_err(failed)?.len();
        Checkpoint::parse(io::BufReader::new(file), len, path)
            .map(Some)
            .ok_or_else(|| CheckpointError::Format {
                path: path.to_path_buf(),
            })
    }

    /// The checkpoint that `input`, of `len` bytes and read from `path`, starts with, and its
    /// table words to come.
    fn parse<R: Read>(mut input: R, len: u64, path: &Path) -> Option<(Checkpoint, SavedWords<R>)> {
        let mut sum = Checksum::new();
        let mut next = || {
            let word = next_number(&mut input)?;
            sum.add(word);
            Some(word)
        };
        let mut magic = [0u8; 16];
        for part in magic.chunks_exact_mut(8) {
            part.copy_from_slice(&next()?.to_le_bytes());
        }
        if &magic != MAGIC {
            return None;
        }
        let mut header = [0u64; HEADER_NUMBERS];
        for number in &mut header {
            *number = next()?;
        }
        let [width, height, key_low, key_high, table_layout, table_words, lower, upper, millis, nodes, count] =
            header;
        let fixed = (MAGIC.len() + 8 * HEADER_NUMBERS + 8) as u64;
        if len != count.checked_mul(16)?.checked_add(fixed)? {
            return None;
        }
        let (lower, upper) = (
            i8::try_from(lower as i64).ok()?,
            i8::try_from(upper as i64).ok()?,
        );
        let checkpoint = Checkpoint {
            width: u32::try_from(width).ok()?,
            height: u32::try_from(height).ok()?,
            key: u128::from(key_high) << 64 | u128::from(key_low),
            table_layout,
            table_words,
            lower,
            upper,
            elapsed: Duration::from_millis(millis),
            nodes,
        };
        let words = SavedWords {
            input,
            path: path.to_path_buf(),
            sum,
            left: count,
            cut_short: false,
        };
        (lower <= upper).then_some((checkpoint, words))
    }

    /// The temporary file that a save to `path` writes before renaming it over `path`.
    pub fn temporary(path: &Path) -> PathBuf {
        beside(path, ".tmp")
    }

    /// Writes the checkpoint and the table words that `words` yields to `path`, through a
    /// temporary file beside it ([`temporary`](Self::temporary)) renamed over it, and returns how many words it wrote. `words`
    /// is called twice, to count the words and to write them, and must yield the same both
    /// times.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write<I: Iterator<Item = (u64, u64)>>(
        &self,
        path: &Path,
        words: impl Fn() -> I,
    ) -> Result<u64, CheckpointError> {
        let temporary = Checkpoint::temporary(path);
        let failed = |at: &Path| {
            let at = at.to_path_buf();
            move |source| CheckpointError::Io { path: at, source }
        };
        let count = words().count() as u64;
        let file = std::fs::File::create(&temporary).map_err(failed(&temporary))?;
        let mut out = io::BufWriter::new(file);
        let written = self
            .write_to(&mut out, count, words())
            .and_then(|()| out.into_inner().map_err(|e| e.into_error()))
            .and_then(|file| file.sync_all());
        if let Err(source) = written {
            // What was written is of no use; the checkpoint before it is still whole.
            let _ = std::fs::remove_file(&temporary);
            return Err(failed(&temporary)(source));
        }
        std::fs::rename(&temporary, path).map_err(failed(path))?;
        // The rename lasts through a crash of the system only once the folder is written too;
        // a system that cannot open or sync a folder still has the file whole.
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        if let Ok(folder) = std::fs::File::open(folder.unwrap_or(Path::new("."))) {
            let _ = folder.sync_all();
        }
        Ok(count)
    }

    /// Writes the checkpoint with the `count` words of `words`.
    fn write_to(
        &self,
        out: &mut impl Write,
        count: u64,
        words: impl Iterator<Item = (u64, u64)>,
    ) -> io::Result<()> {
        let mut sum = Checksum::new();
        let mut put = |word: u64| {
            sum.add(word);
            out.write_all(&word.to_le_bytes())
        };
        for magic in MAGIC.chunks_exact(8) {
            put(u64::from_le_bytes(magic.try_into().expect("8 bytes")))?;
        }
        let header: [u64; HEADER_NUMBERS] = [
            u64::from(self.width),
            u64::from(self.height),
            self.key as u64,
            (self.key >> 64) as u64,
            self.table_layout,
            self.table_words,
            i64::from(self.lower) as u64,
            i64::from(self.upper) as u64,
            self.elapsed.as_millis() as u64,
            self.nodes,
            count,
        ];
        for number in header {
            put(number)?;
        }
        let mut written = 0;
        for (index, word) in words {
            put(index)?;
            put(word)?;
            written += 1;
        }
        if written != count {
            return Err(io::Error::other(
                "the table changed while its words were being saved",
            ));
        }
        out.write_all(&sum.value().to_le_bytes())
    }
}

impl<R: Read> SavedWords<R> {
    /// Reads the words not yet taken and checks the file's checksum.
    ///
    /// # Errors
    /// [`CheckpointError::Format`]: the file is cut short or damaged, and none of its words
    /// may be trusted.
    pub fn finish(mut self) -> Result<(), CheckpointError> {
        for _ in &mut self {}
        let whole = !self.cut_short && next_number(&mut self.input) == Some(self.sum.value());
        whole
            .then_some(())
            .ok_or(CheckpointError::Format { path: self.path })
    }
}

impl<R: Read> Iterator for SavedWords<R> {
    type Item = (u64, u64);

    fn next(&mut self) -> Option<(u64, u64)> {
        if self.left == 0 {
            return None;
        }
        let pair = next_number(&mut self.input).zip(next_number(&mut self.input));
        match pair {
            Some((index, word)) => {
                self.sum.add(index);
                self.sum.add(word);
                self.left -= 1;
            }
            None => {
                self.cut_short = true;
                self.left = 0;
            }
        }
        pair
    }
}

/// `path` with `suffix` added to its name: the file beside it.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The next little-endian 64-bit number of `input`.
fn next_number(input: &mut impl Read) -> Option<u64> {
    let mut bytes = [0u8; 8];
    input.read_exact(&mut bytes).ok()?;
    Some(u64::from_le_bytes(bytes))
}

#[cfg(test)]
impl Checkpoint {
    /// The checkpoint in `path` and all its words, checked.
    #[allow(
        clippy::type_complexity,
        reason = "a test's helper, used once as a whole"
    )]
    pub(crate) fn read_whole(
        path: &Path,
    ) -> Result<Option<(Checkpoint, Vec<(u64, u64)>)>, CheckpointError> {
        let Some((checkpoint, mut saved)) = Checkpoint::open(path)? else {
            return Ok(None);
        };
        let words = saved.by_ref().collect();
        saved.finish()?;
        Ok(Some((checkpoint, words)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        Checkpoint {
            width: 8,
            height: 7,
            key: 1 << 70 | 5,
            table_layout: 1,
            table_words: 1 << 20,
            lower: -3,
            upper: 7,
            elapsed: Duration::from_millis(123_456),
            nodes: 987_654_321,
        }
    }

    const WORDS: [(u64, u64); 2] = [(1, u64::MAX), (2, 0x8000_0000_0000_0001)];

    /// The checkpoint and words of `bytes`, if they are a whole checkpoint file.
    fn parse(bytes: &[u8]) -> Option<(Checkpoint, Vec<(u64, u64)>)> {
        let (checkpoint, mut saved) =
            Checkpoint::parse(bytes, bytes.len() as u64, Path::new("test.ckpt"))?;
        let words = saved.by_ref().collect();
        saved.finish().ok()?;
        Some((checkpoint, words))
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let mut bytes = Vec::new();
        sample().write_to(&mut bytes, 2, WORDS.into_iter()).unwrap();
        assert_eq!(parse(&bytes), Some((sample(), WORDS.to_vec())));
        // Cut short, one byte more, a byte changed in the header or the words, or another
        // file: not a checkpoint.
        assert_eq!(parse(&bytes[..bytes.len() - 1]), None);
        for at in [40, bytes.len() - 12] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1;
            assert_eq!(parse(&damaged), None, "{at}");
        }
        bytes.push(0);
        assert_eq!(parse(&bytes), None);
        assert_eq!(parse(b"c4 book\n"), None);
        // Words that are not as many as counted are not written as a checkpoint.
        assert!(sample()
            .write_to(&mut Vec::new(), 3, WORDS.into_iter())
            .is_err());
    }

    #[test]
    fn a_file_is_replaced_whole_and_a_missing_one_is_none() {
        let dir = std::env::temp_dir().join(format!("c4-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        assert!(Checkpoint::read_whole(&path).unwrap().is_none());
        assert_eq!(sample().write(&path, || WORDS.into_iter()).unwrap(), 2);
        let read = Checkpoint::read_whole(&path).unwrap();
        assert_eq!(read, Some((sample(), WORDS.to_vec())));
        assert!(!dir.join("run.ckpt.tmp").exists());
        std::fs::write(&path, b"junk").unwrap();
        assert!(matches!(
            Checkpoint::open(&path),
            Err(CheckpointError::Format { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_run_at_a_time_holds_a_checkpoint() {
        let dir = std::env::temp_dir().join(format!("c4-checkpoint-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        let held = Checkpoint::lock(&path).unwrap();
        assert!(dir.join("run.ckpt.lock").exists());
        let busy = Checkpoint::lock(&path).unwrap_err();
        assert!(matches!(busy, CheckpointError::Busy { .. }));
        assert_eq!(
            busy.to_string(),
            format!(
                "{}: another c4 process is running this checkpoint (it holds {}.lock)",
                path.display(),
                path.display()
            )
        );
        drop(held);
        assert!(Checkpoint::lock(&path).is_ok());
        // Where no lock file can be made, the run goes on unlocked.
        assert!(Checkpoint::lock(&dir.join("no such folder").join("run.ckpt")).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
