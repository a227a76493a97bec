//! Checkpoint files: where a long exact search stood when it last saved, so that another process
//! can go on from there (`c4 solve --checkpoint FILE`).
//!
//! Layout: the line `c4 checkpoint 2`, then little-endian 64-bit numbers: width, height, the
//! position's key (low and high word), the solver's table layout and size in words, the proven
//! lower and upper bound of the score, the search time so far in milliseconds and the nodes so
//! far. Then the table words in rising order of their index, each as its index less the word
//! before's (less -1 for the first), in unsigned LEB128 of as few bytes as it takes, followed by
//! the word itself; a 0 byte ends them. Last come the number of table words and a checksum of
//! every number before it: the first line as two words, the header, an (index, word) pair for each
//! table word, and the count. The count comes last so that a save reads the table once, and the
//! indexes take a byte or two instead of eight, since a save of a big table goes at the disk's
//! pace. Files of version 1 (`c4 checkpoint 1`: the count after the nodes, every index whole) are
//! still read.
//!
//! A checkpoint is written to a new file beside `FILE` ([`NewFile`]) and renamed over it, so a
//! crash while saving leaves the last one whole; only a regular file is read ([`open_at_most`])
//! or replaced, and none larger than a checkpoint of the largest table, or than its own header's
//! table makes it. The table words are streamed both ways, never held in memory beside the table
//! they come from or go to. A run holds the lock of `FILE.lock` ([`Checkpoint::lock`]), which it
//! removes when it lets go if it made the file.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

use c4_core::describe_io_error;
use c4_core::Checksum;
use c4_core::TableSize;
use c4_core::{disown_file, open_at_most, own_file, refuse_non_regular, NewFile, SizeLimit};

/// The first line of a checkpoint file as this build writes it: 16 bytes, two words of the
/// checksum.
const MAGIC: &[u8; 16] = b"c4 checkpoint 2\n";

/// The first line of a checkpoint file of version 1, which is still read.
const MAGIC_1: &[u8; 16] = b"c4 checkpoint 1\n";

/// The numbers before the table words (version 1 has one more, their count).
const HEADER_NUMBERS: usize = 10;

/// The bytes of a checkpoint besides its table words: the first line, the header, the 0 byte
/// after the words, their count and the checksum (version 1's are fewer).
const FIXED_BYTES: u64 = (MAGIC.len() + 8 * HEADER_NUMBERS + 1 + 8 + 8) as u64;

/// The most bytes a table word takes in a file: the longest step of its index in LEB128 (10
/// bytes), then the word (version 1's take 16).
const MOST_WORD_BYTES: u64 = 10 + 8;

/// How much of a checkpoint file is read: as much as one of the largest table a user may ask
/// for takes, every word saved (2^17 words are 1 MiB).
const CHECKPOINT_FILE: SizeLimit = SizeLimit {
    bytes: FIXED_BYTES + ((TableSize::MAX_MIB as u64) << 17) * MOST_WORD_BYTES,
    holds: "a checkpoint",
};

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
    /// The layout of the table's words ([`Solver::table_layout`](c4_core::Solver::table_layout)).
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
    /// How the words are laid out, and how far they have been read.
    words: WordsRead,
    /// The file ended, failed or held something else before all its words were read.
    broken: bool,
}

/// How far the table words of a checkpoint file have been read, as their version lays them out.
enum WordsRead {
    /// Version 1: as many as its header says, each index a whole number.
    Counted {
        /// Words not yet taken.
        left: u64,
    },
    /// Version 2: indexes as distances, up to a 0 byte, then the count.
    Streamed {
        /// The least index the next word may have.
        next_index: u64,
        /// Words taken so far.
        taken: u64,
        /// No more words: the 0 byte after the last was read, or the words broke off.
        ended: bool,
    },
}

/// A checkpoint held by one run: the lock on `FILE.lock`, released when dropped (or when the
/// process ends, however it ends), so that two processes never save over each other's file.
#[derive(Debug)]
pub struct CheckpointLock {
    /// None where no lock could be had; released when dropped.
    _held: Option<HeldLock>,
}

/// The lock file of a checkpoint, locked.
#[derive(Debug)]
struct HeldLock {
    /// The lock file, open: its lock is released when it closes.
    _file: File,
    /// Its name.
    path: PathBuf,
    /// Whether it is c4's, so that it goes when the lock is released: made by this run, or by
    /// one that ended without removing it (it holds [`LOCK_MARK`]).
    is_own: bool,
}

/// What `c4` writes in the lock files it makes, and so may remove.
const LOCK_MARK: &[u8] = b"c4 checkpoint lock\n";

/// How many lock files in a row a run tries to lock, each removed by the run that held it
/// before this one could lock it.
const LOCK_TRIES: usize = 3;

/// The table words of a checkpoint file on disk.
pub type SavedFileWords = SavedWords<io::BufReader<io::Take<File>>>;

/// Why a checkpoint file cannot be read or written.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The system refused.
    #[error("{}: {}", path.display(), describe_io_error(source))]
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
    /// Locks the checkpoint `path` for this run, through the file `path.lock` beside it: made if
    /// missing, with its mark (`LOCK_MARK`) in it, and on Unix removed when the lock is released (before
    /// it is, so that no other run locks the file once it has gone); a lock file found there
    /// that holds that mark was left by a run that ended without removing it, and goes too, and
    /// any other is used and left as it was. Where no lock can be had (a folder that cannot be
    /// written, a file system without locks) the run goes on unlocked: a finished checkpoint can
    /// still answer, and a save that cannot be written says so itself.
    ///
    /// # Errors
    /// [`CheckpointError::Busy`] when another process holds the lock; [`CheckpointError::Io`]
    /// when `path` is not a regular file (a device such as `/dev/null`, a pipe), which no lock
    /// file is made beside.
    pub fn lock(path: &Path) -> Result<CheckpointLock, CheckpointError> {
        let unlocked = CheckpointLock { _held: None };
        refuse_non_regular(path).map_err(|source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let lock_path = beside(path, ".lock");
        for _ in 0..LOCK_TRIES {
            let Ok((mut file, made)) = open_lock_file(&lock_path) else {
                return Ok(unlocked);
            };
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(CheckpointError::Busy {
                        path: path.to_path_buf(),
                    })
                }
                Err(fs::TryLockError::Error(_)) => {
                    if made {
                        let _ = fs::remove_file(&lock_path);
                    }
                    return Ok(unlocked);
                }
            }
            // A run that held the file before removed it while it held it: locked after that,
            // it is not the lock any more, and the file now at the name is.
            if !is_file_at(&file, &lock_path) {
                continue;
            }
            // Elsewhere than on Unix, a file in use can be removed, and the run that next locks
            // it cannot tell that it is no longer the lock: the file is left there.
            let is_own = cfg!(unix) && (made || is_marked(&mut file));
            if is_own {
                own_file(&lock_path);
            }
            return Ok(CheckpointLock {
                _held: Some(HeldLock {
                    _file: file,
                    path: lock_path,
                    is_own,
                }),
            });
        }
        Err(CheckpointError::Busy {
            path: path.to_path_buf(),
        })
    }

    /// Opens `path` and reads its checkpoint, up to the table words; `Ok(None)` if there is no
    /// such file.
    ///
    /// # Errors
    /// The file cannot be read or does not start as a checkpoint does (or, in version 1, is not
    /// as long as its count of words makes it).
    pub fn open(path: &Path) -> Result<Option<(Checkpoint, SavedFileWords)>, CheckpointError> {
        let failed = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let (file, len) = match open_at_most(path, CHECKPOINT_FILE) {
            Ok(opened) => opened,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(failed(source)),
        };
        Checkpoint::parse(io::BufReader::new(file), len, path)
            .map(Some)
            .ok_or_else(|| CheckpointError::Format {
                path: path.to_path_buf(),
            })
    }

    /// The checkpoint that `input`, of `len` bytes and read from `path`, starts with, and its
    /// table words to come. Only version 1 files can be checked against their length at once;
    /// those of version 2 only against the most their table's words take, and to the end by
    /// [`SavedWords::finish`].
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
        let version_1 = match &magic {
            MAGIC => false,
            MAGIC_1 => true,
            _ => return None,
        };
        let mut header = [0u64; HEADER_NUMBERS];
        for number in &mut header {
            *number = next()?;
        }
        let words = if version_1 {
            let count = next()?;
            // The first line, the header, the count and the checksum.
            let fixed = (MAGIC_1.len() + 8 * HEADER_NUMBERS + 8 + 8) as u64;
            if len != count.checked_mul(16)?.checked_add(fixed)? {
                return None;
            }
            WordsRead::Counted { left: count }
        } else {
            WordsRead::Streamed {
                next_index: 0,
                taken: 0,
                ended: false,
            }
        };
        let [width, height, key_low, key_high, table_layout, table_words, lower, upper, millis, nodes] =
            header;
        if !version_1
            && len
                > table_words
                    .checked_mul(MOST_WORD_BYTES)?
                    .checked_add(FIXED_BYTES)?
        {
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
            words,
            broken: false,
        };
        (lower <= upper).then_some((checkpoint, words))
    }

    /// Writes the checkpoint and the table words that `words` yields, in strictly rising order of
    /// their index (as a table yields them), to `path`, through a new file beside it renamed over
    /// it, and returns how many words it wrote.
    ///
    /// # Errors
    /// The file cannot be written, `path` is not a regular file ([`NewFile::beside`]), or the
    /// words are not in strictly rising order of index below `u64::MAX` (the file before is then
    /// left as it was, and the new one removed).
    pub fn write(
        &self,
        path: &Path,
        words: impl Iterator<Item = (u64, u64)>,
    ) -> Result<u64, CheckpointError> {
        let failed = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut new = NewFile::beside(path).map_err(failed)?;
        let mut out = io::BufWriter::with_capacity(1 << 20, new.file());
        let count = self.write_to(&mut out, words).map_err(failed)?;
        out.into_inner().map_err(|e| failed(e.into_error()))?;
        new.replace(path).map_err(failed)?;
        Ok(count)
    }

    /// Writes the checkpoint with the words of `words`, and returns how many there were.
    fn write_to(
        &self,
        out: &mut impl Write,
        words: impl Iterator<Item = (u64, u64)>,
    ) -> io::Result<u64> {
        let sum = &mut Checksum::new();
        for magic in MAGIC.chunks_exact(8) {
            put(
                out,
                sum,
                u64::from_le_bytes(magic.try_into().expect("8 bytes")),
            )?;
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
        ];
        for number in header {
            put(out, sum, number)?;
        }
        let (mut count, mut next_index) = (0u64, 0u64);
        for (index, word) in words {
            let step = index.checked_sub(next_index).and_then(|d| d.checked_add(1));
            let (Some(step), Some(after)) = (step, index.checked_add(1)) else {
                return Err(io::Error::other(
                    "the table words to save were not in rising order of their index",
                ));
            };
            sum.add(index);
            write_leb128(out, step)?;
            put(out, sum, word)?;
            next_index = after;
            count += 1;
        }
        out.write_all(&[0])?;
        put(out, sum, count)?;
        out.write_all(&sum.value().to_le_bytes())?;
        Ok(count)
    }
}

/// Writes `number` to `out` as 8 little-endian bytes and adds it to `sum`.
fn put(out: &mut impl Write, sum: &mut Checksum, number: u64) -> io::Result<()> {
    sum.add(number);
    out.write_all(&number.to_le_bytes())
}

impl<R: Read> SavedWords<R> {
    /// Reads the words not yet taken and checks the file to its end: the count of words (in
    /// version 2), the checksum, and that nothing follows.
    ///
    /// # Errors
    /// [`CheckpointError::Format`]: the file is cut short or damaged, and none of its words
    /// may be trusted.
    pub fn finish(mut self) -> Result<(), CheckpointError> {
        for _ in &mut self {}
        let count_agrees = match self.words {
            WordsRead::Counted { .. } => true,
            WordsRead::Streamed { taken, .. } => {
                let count = next_number(&mut self.input);
                count.inspect(|&count| self.sum.add(count)) == Some(taken)
            }
        };
        let whole = !self.broken
            && count_agrees
            && next_number(&mut self.input) == Some(self.sum.value())
            && is_at_end(&mut self.input);
        whole
            .then_some(())
            .ok_or(CheckpointError::Format { path: self.path })
    }
}

impl<R: Read> Iterator for SavedWords<R> {
    type Item = (u64, u64);

    fn next(&mut self) -> Option<(u64, u64)> {
        let pair = match &mut self.words {
            WordsRead::Counted { left: 0 } | WordsRead::Streamed { ended: true, .. } => {
                return None;
            }
            WordsRead::Counted { left } => {
                let pair = next_number(&mut self.input).zip(next_number(&mut self.input));
                *left = if pair.is_some() { *left - 1 } else { 0 };
                self.broken |= pair.is_none();
                pair
            }
            WordsRead::Streamed {
                next_index,
                taken,
                ended,
            } => match next_streamed(&mut self.input, *next_index) {
                Ok(Some((index, word))) => {
                    // `next_streamed` keeps indexes below u64::MAX.
                    *next_index = index + 1;
                    *taken += 1;
                    Some((index, word))
                }
                Ok(None) => {
                    *ended = true;
                    None
                }
                Err(Broken) => {
                    *ended = true;
                    self.broken = true;
                    None
                }
            },
        };
        if let Some((index, word)) = pair {
            self.sum.add(index);
            self.sum.add(word);
        }
        pair
    }
}

impl Drop for HeldLock {
    fn drop(&mut self) {
        if self.is_own {
            // Before the lock is released, when the file closes.
            let _ = disown_file(&self.path, || fs::remove_file(&self.path));
        }
    }
}

/// The lock file at `path`, opened (not through a symbolic link, on Unix), and whether this
/// run made it, with [`LOCK_MARK`] in it.
fn open_lock_file(path: &Path) -> io::Result<(File, bool)> {
    let new = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(path);
    match new {
        Ok(mut file) => {
            // Unmarked, it is still this run's to remove.
            let _ = file.write_all(LOCK_MARK);
            Ok((file, true))
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            Ok((open_existing_lock_file(path)?, false))
        }
        Err(e) => Err(e),
    }
}

#[cfg(unix)]
fn open_existing_lock_file(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

#[cfg(not(unix))]
fn open_existing_lock_file(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Whether `file` is the file at `path` (not a symbolic link to it).
#[cfg(unix)]
fn is_file_at(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(open), Ok(named)) => (open.dev(), open.ino()) == (named.dev(), named.ino()),
        _ => false,
    }
}

/// Whether `file` is the file at `path`: only Unix says, and elsewhere lock files are left.
#[cfg(not(unix))]
fn is_file_at(_file: &File, _path: &Path) -> bool {
    true
}

/// Whether `file` holds [`LOCK_MARK`] and nothing else.
fn is_marked(file: &mut File) -> bool {
    let mut text = Vec::new();
    let read = file.take(LOCK_MARK.len() as u64 + 1).read_to_end(&mut text);
    read.is_ok() && text == LOCK_MARK
}

/// Version 2's words break off, or hold what no writer writes.
struct Broken;

/// The next (index, word) pair of version 2's words, whose index is at least `next_index` and
/// below `u64::MAX`; `None` at the 0 byte after the last.
fn next_streamed(input: &mut impl Read, next_index: u64) -> Result<Option<(u64, u64)>, Broken> {
    let step = read_leb128(input).ok_or(Broken)?;
    if step == 0 {
        return Ok(None);
    }
    let index = (step - 1)
        .checked_add(next_index)
        .filter(|&index| index < u64::MAX)
        .ok_or(Broken)?;
    let word = next_number(input).ok_or(Broken)?;
    Ok(Some((index, word)))
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

/// Whether `input` has nothing more.
fn is_at_end(input: &mut impl Read) -> bool {
    let read = input.read_exact(&mut [0]);
    read.is_err_and(|e| e.kind() == io::ErrorKind::UnexpectedEof)
}

/// Writes `number` as unsigned LEB128: seven bits a byte, lowest first, the top bit set on every
/// byte but the last.
fn write_leb128(out: &mut impl Write, mut number: u64) -> io::Result<()> {
    let mut bytes = [0u8; 10];
    let mut len = 0;
    loop {
        let low = (number & 0x7f) as u8;
        number >>= 7;
        if number == 0 {
            bytes[len] = low;
            return out.write_all(&bytes[..=len]);
        }
        bytes[len] = low | 0x80;
        len += 1;
    }
}

/// The next unsigned LEB128 number of `input`; `None` at the end of the input, past 64 bits, or
/// in more bytes than it takes (which [`write_leb128`] never writes, so that each number has one
/// form and checksumming the number covers its bytes).
fn read_leb128(input: &mut impl Read) -> Option<u64> {
    let mut number = 0u64;
    for shift in (0..64).step_by(7) {
        let mut byte = [0u8];
        input.read_exact(&mut byte).ok()?;
        let low = u64::from(byte[0] & 0x7f);
        if low << shift >> shift != low || (byte[0] == 0 && shift > 0) {
            return None;
        }
        number |= low << shift;
        if byte[0] & 0x80 == 0 {
            return Some(number);
        }
    }
    None
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
    use proptest::prelude::*;

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
        assert_eq!(sample().write_to(&mut bytes, WORDS.into_iter()).unwrap(), 2);
        // The header, then each index a byte, the words, the end, the count and the checksum.
        assert_eq!(bytes.len(), 16 + 80 + 2 * 9 + 1 + 16);
        assert_eq!((bytes[96], bytes[105]), (2, 1));
        assert_eq!(parse(&bytes), Some((sample(), WORDS.to_vec())));
        // Cut short, one byte more, a byte changed in the header, the words, their end, their
        // count or the checksum, or another file: not a checkpoint.
        assert_eq!(parse(&bytes[..bytes.len() - 1]), None);
        for at in [40, 96, 100, 105, 114, 120, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1;
            assert_eq!(parse(&damaged), None, "{at}");
        }
        bytes.push(0);
        assert_eq!(parse(&bytes), None);
        assert_eq!(parse(b"c4 book\n"), None);
        // Words out of order, twice the same index, or the index u64::MAX are not written.
        for words in [
            vec![(2, 0), (1, 0)],
            vec![(1, 0), (1, 0)],
            vec![(u64::MAX, 0)],
        ] {
            let mut out = Vec::new();
            let written = sample().write_to(&mut out, words.iter().copied());
            assert!(written.is_err(), "{words:?}");
        }
    }

    /// A version 2 file of `sample()` with `body` between the header and the count, as no
    /// writer writes it, under the checksum of `pairs` and `count`, which holds.
    fn forged(body: &[u8], pairs: &[(u64, u64)], count: u64) -> Vec<u8> {
        let mut bytes = Vec::new();
        sample().write_to(&mut bytes, std::iter::empty()).unwrap();
        bytes.truncate(16 + 80);
        let sum = &mut Checksum::new();
        for number in bytes.chunks_exact(8) {
            sum.add(u64::from_le_bytes(number.try_into().unwrap()));
        }
        bytes.extend(body);
        for &(index, word) in pairs {
            sum.add(index);
            sum.add(word);
        }
        put(&mut bytes, sum, count).unwrap();
        bytes.extend(sum.value().to_le_bytes());
        bytes
    }

    #[test]
    fn a_file_that_no_writer_writes_is_refused_though_its_checksum_holds() {
        let word = 0x1234_5678_9abc_def0u64.to_le_bytes();
        let body = |steps: &[&[u8]]| {
            let mut body = Vec::new();
            for step in steps {
                body.extend(*step);
                body.extend(word);
            }
            body.push(0);
            body
        };
        let w = u64::from_le_bytes(word);
        // As a writer writes it, for the forgery to be checked against.
        let fair = forged(&body(&[&[2], &[1]]), &[(1, w), (2, w)], 2);
        assert_eq!(parse(&fair), Some((sample(), vec![(1, w), (2, w)])));
        let refused = [
            // A count of words that is not theirs.
            forged(&body(&[&[2], &[1]]), &[(1, w), (2, w)], 3),
            // A distance in more bytes than it takes.
            forged(&body(&[&[0x82, 0]]), &[(1, w)], 1),
            // A distance past 64 bits.
            forged(&body(&[&[0xff; 9], &[0x7f]]), &[], 0),
            forged(&body(&[&[0xff; 10], &[1]]), &[], 0),
            // An index of u64::MAX: index 0, then a distance of u64::MAX.
            forged(
                &body(&[
                    &[1],
                    &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1],
                ]),
                &[(0, w), (u64::MAX, w)],
                2,
            ),
        ];
        for bytes in refused {
            assert_eq!(parse(&bytes), None, "{bytes:?}");
        }
    }

    #[test]
    fn far_apart_and_no_words_read_back() {
        let far = [(0, 7), (1, 8), (1 << 35, 9), (u64::MAX - 1, 10)];
        for words in [&far[..], &[]] {
            let mut bytes = Vec::new();
            sample()
                .write_to(&mut bytes, words.iter().copied())
                .unwrap();
            assert_eq!(parse(&bytes), Some((sample(), words.to_vec())));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_words_read_back_and_any_changed_byte_is_refused(
            words in prop::collection::btree_map(
                prop_oneof![0..300u64, 0..u64::MAX],
                any::<u64>(),
                0..40,
            ),
            at in any::<prop::sample::Index>(),
            flip in 1..=255u8,
        ) {
            let words: Vec<(u64, u64)> = words.into_iter().collect();
            let mut bytes = Vec::new();
            let count = sample().write_to(&mut bytes, words.iter().copied()).unwrap();
            prop_assert_eq!(count, words.len() as u64);
            prop_assert_eq!(parse(&bytes), Some((sample(), words)));
            let at = at.index(bytes.len());
            bytes[at] ^= flip;
            prop_assert_eq!(parse(&bytes), None);
        }
    }

    #[test]
    fn a_version_1_checkpoint_is_read() {
        // Version 1: the count after the nodes, each index as a whole number.
        let mut bytes = Vec::new();
        let sum = &mut Checksum::new();
        let sample = sample();
        let numbers = [
            u64::from_le_bytes(*b"c4 check"),
            u64::from_le_bytes(*b"point 1\n"),
            8,
            7,
            5,
            1 << 6,
            sample.table_layout,
            sample.table_words,
            -3i64 as u64,
            7,
            123_456,
            987_654_321,
            2,
        ];
        for number in numbers
            .into_iter()
            .chain(WORDS.iter().flat_map(|&(i, w)| [i, w]))
        {
            put(&mut bytes, sum, number).unwrap();
        }
        bytes.extend(sum.value().to_le_bytes());
        assert_eq!(parse(&bytes), Some((sample, WORDS.to_vec())));
        for at in [40, bytes.len() - 12] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1;
            assert_eq!(parse(&damaged), None, "{at}");
        }
        assert_eq!(parse(&bytes[..bytes.len() - 1]), None);
        // A version 1 file is refused at once when its length is not what its count makes it.
        let len = bytes.len() as u64;
        let at_once = |len| Checkpoint::parse(&bytes[..], len, Path::new("1.ckpt")).is_some();
        assert!(at_once(len) && !at_once(len + 1) && !at_once(len - 16));
    }

    #[test]
    fn a_file_is_replaced_whole_and_a_missing_one_is_none() {
        let dir = std::env::temp_dir().join(format!("c4-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        assert!(Checkpoint::read_whole(&path).unwrap().is_none());
        assert_eq!(sample().write(&path, WORDS.into_iter()).unwrap(), 2);
        let read = Checkpoint::read_whole(&path).unwrap();
        assert_eq!(read, Some((sample(), WORDS.to_vec())));
        // Nothing else is left beside it.
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["run.ckpt"]);
        std::fs::write(&path, b"junk").unwrap();
        assert!(matches!(
            Checkpoint::open(&path),
            Err(CheckpointError::Format { .. })
        ));
        // Grown to 10 GiB by a hole after its words: more than the words of its table of 8 MiB
        // take, refused by its header before any word is read.
        sample().write(&path, WORDS.into_iter()).unwrap();
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(10 << 30)
            .unwrap();
        let Err(CheckpointError::Format { .. }) = Checkpoint::open(&path) else {
            panic!("a checkpoint longer than its table's words take was opened");
        };
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
        // Released, the lock file goes with it.
        drop(held);
        assert!(!dir.join("run.ckpt.lock").exists());
        assert!(Checkpoint::lock(&path).is_ok());
        // Where no lock file can be made, the run goes on unlocked.
        assert!(Checkpoint::lock(&dir.join("no such folder").join("run.ckpt")).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_lock_file_goes_only_if_it_is_c4s() {
        let dir = std::env::temp_dir().join(format!("c4-checkpoint-own-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        let lock = dir.join("run.ckpt.lock");
        // Someone else's file, or an earlier version's empty one, is locked and left as it was.
        for theirs in [&b"notes"[..], b""] {
            fs::write(&lock, theirs).unwrap();
            let held = Checkpoint::lock(&path).unwrap();
            assert!(held._held.is_some());
            drop(held);
            assert_eq!(fs::read(&lock).unwrap(), theirs);
        }
        // One left by a run that could not remove it goes.
        fs::write(&lock, LOCK_MARK).unwrap();
        drop(Checkpoint::lock(&path).unwrap());
        assert!(!lock.exists());
        // A symbolic link there is not followed: no lock, and the file it names is left alone.
        let victim = dir.join("victim");
        fs::write(&victim, "precious").unwrap();
        std::os::unix::fs::symlink(&victim, &lock).unwrap();
        let held = Checkpoint::lock(&path).unwrap();
        assert!(held._held.is_none());
        drop(held);
        assert!(fs::symlink_metadata(&lock)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_checkpoint_that_is_not_a_regular_file_is_refused_before_its_lock() {
        let dir = std::env::temp_dir().join(format!("c4-checkpoint-fifo-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let pipe = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status();
        assert!(made.unwrap().success());
        let dev_null_lock = Path::new("/dev/null.lock").exists();
        for path in [pipe.as_path(), Path::new("/dev/null")] {
            let refused = Checkpoint::lock(path).unwrap_err();
            assert_eq!(
                refused.to_string(),
                format!(
                    "{}: it is not a regular file (a pipe, a device or a socket)",
                    path.display()
                )
            );
            // A plain open of the pipe would wait for a writer for good.
            assert!(Checkpoint::open(path).is_err());
        }
        // (Not tried on /dev/null: a failure would replace it.)
        assert!(sample().write(&pipe, std::iter::empty()).is_err());
        assert_eq!(Path::new("/dev/null.lock").exists(), dev_null_lock);
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["pipe"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
