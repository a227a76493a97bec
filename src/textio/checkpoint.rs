//! Checkpoint files: where a long exact search stood when it last saved, so that another process
//! can go on from there (`c4 solve --checkpoint FILE`).
//!
//! Layout: the line `c4 checkpoint 1`, then little-endian 64-bit numbers: width, height, the
//! position's key (low and high word), the solver's table layout and size in words, the proven
//! lower and upper bound of the score, the search time so far in milliseconds, the nodes so far,
//! the number of table words N, N pairs (word index, word), and a checksum of everything before
//! it. A checkpoint is written to `FILE.tmp` and renamed over `FILE`, so a crash while saving
//! leaves the last one whole.

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

/// Where a search of one position stood.
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
    /// Proven table entries: (word index, word).
    pub words: Vec<(u64, u64)>,
}

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
    /// Not a checkpoint file, cut short or damaged.
    #[error("{}: not a c4 checkpoint file, or cut short or damaged", path.display())]
    Format {
        /// The file.
        path: PathBuf,
    },
}

impl Checkpoint {
    /// Reads `path`; `Ok(None)` if there is no such file.
    ///
    /// # Errors
    /// The file cannot be read or is not a whole checkpoint.
    pub fn read(path: &Path) -> Result<Option<Checkpoint>, CheckpointError> {
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
        // Read as it is parsed, so that a checkpoint of a large table is not held twice.
        Checkpoint::parse(io::BufReader::new(file), len)
            .map(Some)
            .ok_or_else(|| CheckpointError::Format {
                path: path.to_path_buf(),
            })
    }

    /// The checkpoint of `len` bytes that `input` holds, if it is a whole one.
    fn parse(mut input: impl Read, len: u64) -> Option<Checkpoint> {
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
        let words = (0..count)
            .map(|_| Some((next()?, next()?)))
            .collect::<Option<Vec<_>>>()?;
        if next_number(&mut input)? != sum.value() {
            return None;
        }
        let (lower, upper) = (
            i8::try_from(lower as i64).ok()?,
            i8::try_from(upper as i64).ok()?,
        );
        (lower <= upper).then_some(Checkpoint {
            width: u32::try_from(width).ok()?,
            height: u32::try_from(height).ok()?,
            key: u128::from(key_high) << 64 | u128::from(key_low),
            table_layout,
            table_words,
            lower,
            upper,
            elapsed: Duration::from_millis(millis),
            nodes,
            words,
        })
    }

    /// Writes the checkpoint to `path`, through a temporary file beside it renamed over it.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), CheckpointError> {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".tmp");
        let temporary = PathBuf::from(temporary);
        let failed = |at: &Path| {
            let at = at.to_path_buf();
            move |source| CheckpointError::Io { path: at, source }
        };
        let file = std::fs::File::create(&temporary).map_err(failed(&temporary))?;
        let mut out = io::BufWriter::new(file);
        self.write_to(&mut out)
            .and_then(|()| out.into_inner().map_err(|e| e.into_error()))
            .and_then(|file| file.sync_all())
            .map_err(failed(&temporary))?;
        std::fs::rename(&temporary, path).map_err(failed(path))
    }

    fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
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
            self.words.len() as u64,
        ];
        for number in header {
            put(number)?;
        }
        for &(index, word) in &self.words {
            put(index)?;
            put(word)?;
        }
        out.write_all(&sum.value().to_le_bytes())
    }
}

/// The next little-endian 64-bit number of `input`.
fn next_number(input: &mut impl Read) -> Option<u64> {
    let mut bytes = [0u8; 8];
    input.read_exact(&mut bytes).ok()?;
    Some(u64::from_le_bytes(bytes))
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
            words: vec![(1, u64::MAX), (2, 0x8000_0000_0000_0001)],
        }
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let mut bytes = Vec::new();
        sample().write_to(&mut bytes).unwrap();
        let parse = |bytes: &[u8]| Checkpoint::parse(bytes, bytes.len() as u64);
        assert_eq!(parse(&bytes), Some(sample()));
        // Cut short, one byte more, a byte changed, or another file: not a checkpoint.
        assert_eq!(parse(&bytes[..bytes.len() - 1]), None);
        let mut damaged = bytes.clone();
        damaged[40] ^= 1;
        assert_eq!(parse(&damaged), None);
        bytes.push(0);
        assert_eq!(parse(&bytes), None);
        assert_eq!(parse(b"c4 book\n"), None);
    }

    #[test]
    fn a_file_is_replaced_whole_and_a_missing_one_is_none() {
        let dir = std::env::temp_dir().join(format!("c4-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        assert!(Checkpoint::read(&path).unwrap().is_none());
        sample().write(&path).unwrap();
        assert_eq!(Checkpoint::read(&path).unwrap(), Some(sample()));
        assert!(!dir.join("run.ckpt.tmp").exists());
        std::fs::write(&path, b"junk").unwrap();
        assert!(matches!(
            Checkpoint::read(&path),
            Err(CheckpointError::Format { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
