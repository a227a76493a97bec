//! The shard progress file: where a shard build appends each score as it is found, so that a
//! killed build resumes losing nothing, and what a merge reads: reading, resuming and appending;
//! the format is `format.rs`'s.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::error::{io_error, BuildError};
use super::format::{RecordFormat, ShardHeader, ShardProblem, SHARD_HEADER_BYTES, SHARD_VERSION};
use super::shard::Shard;
use crate::solver::book::numbering::{Numbering, MAX_NUMBERS};
use crate::solver::Score;
use crate::textio::files::{open_at_most, NewFile, SizeLimit};

/// The bytes of version 1's records, the larger.
const MOST_RECORD_BYTES: u64 = 16;

/// How much of a progress file is read: as much as the records of as many positions as a book
/// numbers take; its header then bounds it by its own shard's ([`most_bytes`]).
const PROGRESS_FILE: SizeLimit = SizeLimit {
    bytes: SHARD_HEADER_BYTES as u64 + MAX_NUMBERS * MOST_RECORD_BYTES,
    holds: "a shard progress file",
};

/// The name of a shard's progress file in `dir`.
pub fn shard_path(dir: &Path, depth: u32, shard: Shard) -> PathBuf {
    dir.join(format!(
        "depth{depth}-shard{}-of{}.progress",
        shard.index, shard.count
    ))
}
/// Solved positions: (canonical key, score).
pub(super) type Records = Vec<(u64, Score)>;

/// A progress file read in: its header, record format, records and torn bytes at its end.
pub(super) struct ProgressFile {
    pub(super) header: ShardHeader,
    pub(super) format: RecordFormat,
    pub(super) records: Records,
    pub(super) torn_bytes: usize,
}

/// Reads a progress file's header and records, checking they are whole.
///
/// # Errors
/// A missing or foreign header; a bad record anywhere but at the end.
pub(super) fn read_progress(path: &Path) -> Result<ProgressFile, BuildError> {
    let refused = |problem| BuildError::Shard {
        path: path.to_path_buf(),
        problem,
    };
    let (mut file, size) = open_at_most(path, PROGRESS_FILE).map_err(io_error(path))?;
    let mut bytes = Vec::new();
    (&mut file)
        .take(SHARD_HEADER_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(io_error(path))?;
    let (header, format) = ShardHeader::from_bytes(&bytes).map_err(refused)?;
    if let Some(most) = most_bytes(&header, format).filter(|&most| size > most) {
        return Err(refused(ShardProblem::TooLarge { size, header, most }));
    }
    file.read_to_end(&mut bytes).map_err(io_error(path))?;
    let body = &bytes[SHARD_HEADER_BYTES..];
    let size = format.bytes();
    let mut records = Vec::with_capacity(body.len() / size);
    let mut valid = 0;
    for chunk in body.chunks(size) {
        match (chunk.len() == size)
            .then(|| format.decode(chunk, header.score_limit()))
            .flatten()
        {
            Some(record) => {
                records.push(record);
                valid += size;
            }
            None => break,
        }
    }
    let torn = body.len() - valid;
    if torn > size {
        return Err(BuildError::Shard {
            path: path.to_path_buf(),
            problem: ShardProblem::Record(records.len() + 1),
        });
    }
    Ok(ProgressFile {
        header,
        format,
        records,
        torn_bytes: torn,
    })
}

/// The most bytes a progress file of `header`'s shard takes in `format`: a record for every
/// number its positions have (more than there are positions), and a torn one; `None` for a
/// board and depth that no book numbers.
fn most_bytes(header: &ShardHeader, format: RecordFormat) -> Option<u64> {
    let numbering = Numbering::new(header.width, header.height, header.depth).ok()?;
    let record = format.bytes() as u64;
    (numbering.ply_len(header.depth) + 1)
        .checked_mul(record)?
        .checked_add(SHARD_HEADER_BYTES as u64 - 1)
}

/// Opens (or creates, in the current format) a progress file for appending, cutting off a torn
/// last record. Returns the file, the format to append in, its records and the number of torn
/// records cut off (0 or 1).
pub(super) fn open_progress(
    path: &Path,
    header: &ShardHeader,
) -> Result<(File, RecordFormat, Records, usize), BuildError> {
    if !path.exists() {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io_error(dir))?;
        }
        let format = RecordFormat::of_version(SHARD_VERSION).expect("the current version");
        // Named only once its header is whole: a kill before leaves no file that cannot be
        // resumed, and a file made there meanwhile is not replaced.
        let mut new = NewFile::beside(path).map_err(io_error(path))?;
        new.file()
            .write_all(&header.to_bytes(format))
            .map_err(io_error(path))?;
        let file = new.create(path).map_err(io_error(path))?;
        return Ok((file, format, Vec::new(), 0));
    }
    let ProgressFile {
        header: found,
        format,
        records,
        torn_bytes,
    } = read_progress(path)?;
    if found != *header {
        return Err(BuildError::Shard {
            path: path.to_path_buf(),
            problem: ShardProblem::OtherShard {
                found,
                expected: *header,
            },
        });
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(io_error(path))?;
    let end = (SHARD_HEADER_BYTES + format.bytes() * records.len()) as u64;
    file.set_len(end).map_err(io_error(path))?;
    file.seek(SeekFrom::Start(end)).map_err(io_error(path))?;
    Ok((file, format, records, usize::from(torn_bytes > 0)))
}

/// The error for record `index` (0-based) of `path`, whose key is not one of the shard's
/// positions at `depth`.
pub(super) fn not_a_position(path: &Path, index: usize, depth: u32) -> BuildError {
    BuildError::Shard {
        path: path.to_path_buf(),
        problem: ShardProblem::NotAPosition {
            record: index + 1,
            depth,
        },
    }
}
