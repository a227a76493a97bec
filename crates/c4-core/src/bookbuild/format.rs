//! The shard progress file's format: its header ([`ShardHeader`]), its records by format
//! version ([`RecordFormat`]), and what can be wrong with a file ([`ShardProblem`]). Reading,
//! resuming and appending to the files is `progress.rs`'s.
//!
//! # Format version 2
//!
//! Little-endian. A 32-byte header, then one 8-byte record per solved position, appended as
//! each is solved:
//!
//! ```text
//! header: 0 "c4-shard" | 8 version u32 (2) | 12 width u8, height u8, depth u8, 0 |
//!         16 shard index u32 | 20 shard count u32 | 24 check u64 = checksum(bytes 0..24)
//! record: canonical key << 8 | score as u8 (a u64, like a book entry)
//! ```
//!
//! A short last record can only have been torn by a kill: it is cut off when the file is opened
//! again, and that position is solved again. A record whose score is out of range, or whose key
//! is not a position of the shard, is corruption and refuses the file. Version 1 files (16-byte
//! records: key u64, score i8, three zero bytes, then the low half of [`checksum`] of those 12
//! bytes as a u32) are still read, resumed in their own format, imported and merged; version 2
//! halves the size, which matters for deep books (4.2 million records at depth 12).

use std::fmt;

use thiserror::Error;

use super::shard::Shard;
use crate::solver::book::{checksum, score_limit};
use crate::solver::Score;

/// The first eight bytes of a shard progress file.
const SHARD_MAGIC: &[u8; 8] = b"c4-shard";
/// The version new progress files are written in; [`RecordFormat`] reads both.
pub(super) const SHARD_VERSION: u32 = 2;
pub(super) const SHARD_HEADER_BYTES: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardHeader {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) depth: u32,
    pub(super) shard: Shard,
}

impl fmt::Display for ShardHeader {
    /// `7x6 depth 12 shard 0/2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}x{} depth {} shard {}/{}",
            self.width, self.height, self.depth, self.shard.index, self.shard.count
        )
    }
}

/// What is wrong with a progress file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShardProblem {
    /// Another kind of file.
    #[error("not a c4 shard progress file (expected the magic bytes \"c4-shard\")")]
    NotProgress,
    /// A format version this build does not read.
    #[error("progress file version {0} is not supported, expected 1 to {SHARD_VERSION}")]
    Version(u32),
    /// The header's checksum does not match.
    #[error("the progress file's header is corrupt (checksum mismatch)")]
    Header,
    /// A bad record before the last (numbered from 1).
    #[error("record {0} is corrupt and is not the last one (only a torn last record is dropped)")]
    Record(usize),
    /// A record whose key is not one of the shard's positions (numbered from 1).
    #[error(
        "record {record} is corrupt: its key is not a position of this shard with {depth} stones"
    )]
    NotAPosition {
        /// Which record.
        record: usize,
        /// The shard's stones per position.
        depth: u32,
    },
    /// The file of another shard or build than the one resumed.
    #[error("the progress file is for {found}, not {expected}")]
    OtherShard {
        /// The file's.
        found: ShardHeader,
        /// The build's.
        expected: ShardHeader,
    },
    /// An import from a build of another board or depth.
    #[error("cannot import a {}x{} depth {} progress file into a {}x{} depth {} build", .found.width, .found.height, .found.depth, .expected.width, .expected.height, .expected.depth)]
    Import {
        /// The file's.
        found: ShardHeader,
        /// The build's.
        expected: ShardHeader,
    },
    /// A shard of another build than the first file's, in a merge.
    #[error("this shard is of a {}x{} depth {} build in {} shards, the first file of a {}x{} depth {} build in {}", .found.width, .found.height, .found.depth, .found.shard.count, .first.width, .first.height, .first.depth, .first.shard.count)]
    OtherBuild {
        /// The file's.
        found: ShardHeader,
        /// The first file's.
        first: ShardHeader,
    },
    /// A shard given twice to a merge.
    #[error("shard {0} is given twice")]
    Twice(u32),
    /// More bytes than the records of its shard can take, refused before they are read.
    #[error(
        "the file has {size} bytes, more than the {most} that the records of {header} can take"
    )]
    TooLarge {
        /// The file's size.
        size: u64,
        /// Its header.
        header: ShardHeader,
        /// The most its records take.
        most: u64,
    },
}

/// How a progress file's records are laid out, by its format version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RecordFormat {
    /// 16 bytes with a check of their own.
    Checked,
    /// 8 bytes: the book entry's packing.
    Packed,
}

impl RecordFormat {
    pub(super) fn of_version(version: u32) -> Option<RecordFormat> {
        match version {
            1 => Some(RecordFormat::Checked),
            2 => Some(RecordFormat::Packed),
            _ => None,
        }
    }

    fn version(self) -> u32 {
        match self {
            RecordFormat::Checked => 1,
            RecordFormat::Packed => 2,
        }
    }

    pub(super) fn bytes(self) -> usize {
        match self {
            RecordFormat::Checked => 16,
            RecordFormat::Packed => 8,
        }
    }

    pub(super) fn encode(self, key: u64, score: Score) -> Vec<u8> {
        match self {
            RecordFormat::Checked => {
                let mut bytes = [0u8; 16];
                bytes[..8].copy_from_slice(&key.to_le_bytes());
                bytes[8] = score.value() as u8;
                let check = checksum(&bytes[..12], &[]) as u32;
                bytes[12..].copy_from_slice(&check.to_le_bytes());
                bytes.to_vec()
            }
            RecordFormat::Packed => (key << 8 | u64::from(score.value() as u8))
                .to_le_bytes()
                .to_vec(),
        }
    }

    /// The record in `bytes` (exactly [`RecordFormat::bytes`] long), `None` if it fails its
    /// check or its score exceeds `limit`.
    pub(super) fn decode(self, bytes: &[u8], limit: i32) -> Option<(u64, Score)> {
        let (key, score) = match self {
            RecordFormat::Checked => {
                let check = u32::from_le_bytes(bytes[12..16].try_into().ok()?);
                if checksum(&bytes[..12], &[]) as u32 != check || bytes[9..12] != [0, 0, 0] {
                    return None;
                }
                (
                    u64::from_le_bytes(bytes[..8].try_into().ok()?),
                    bytes[8] as i8,
                )
            }
            RecordFormat::Packed => {
                let word = u64::from_le_bytes(bytes.try_into().ok()?);
                (word >> 8, word as u8 as i8)
            }
        };
        (i32::from(score).abs() <= limit).then_some((key, Score::new(score)))
    }
}

impl ShardHeader {
    pub(super) fn to_bytes(self, format: RecordFormat) -> [u8; SHARD_HEADER_BYTES] {
        let mut bytes = [0u8; SHARD_HEADER_BYTES];
        bytes[..8].copy_from_slice(SHARD_MAGIC);
        bytes[8..12].copy_from_slice(&format.version().to_le_bytes());
        bytes[12] = self.width as u8;
        bytes[13] = self.height as u8;
        bytes[14] = self.depth as u8;
        bytes[16..20].copy_from_slice(&self.shard.index.to_le_bytes());
        bytes[20..24].copy_from_slice(&self.shard.count.to_le_bytes());
        let check = checksum(&bytes[..24], &[]);
        bytes[24..].copy_from_slice(&check.to_le_bytes());
        bytes
    }

    /// The largest score a record of this board may hold.
    pub(super) fn score_limit(&self) -> i32 {
        score_limit(self.width, self.height)
    }

    pub(super) fn from_bytes(bytes: &[u8]) -> Result<(ShardHeader, RecordFormat), ShardProblem> {
        if bytes.len() < SHARD_HEADER_BYTES || &bytes[..8] != SHARD_MAGIC {
            return Err(ShardProblem::NotProgress);
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let Some(format) = RecordFormat::of_version(word(8)) else {
            return Err(ShardProblem::Version(word(8)));
        };
        let check = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        if checksum(&bytes[..24], &[]) != check {
            return Err(ShardProblem::Header);
        }
        let header = ShardHeader {
            width: u32::from(bytes[12]),
            height: u32::from(bytes[13]),
            depth: u32::from(bytes[14]),
            shard: Shard {
                index: word(16),
                count: word(20),
            },
        };
        Ok((header, format))
    }
}
