//! Fuzzes checkpoint files (`c4 solve --checkpoint`) as a resume reads them. On small boards the
//! file holds the entries a real search left in a table of one size, damaged by the input (any
//! bits of any index or word flipped, made-up pairs added); on big boards only made-up pairs.
//! The file's checksum always holds, so that the words reach the table rather than being
//! refused unread. The input picks the file's version: version 1, still read, takes the pairs in
//! any order, with the same index twice; version 2, as `c4` writes it, takes them sorted by
//! index, each index once. Restoring them into a table of the same or another size must never panic;
//! on a small board a search afterwards must end, and with the words undamaged it must give the
//! exact score. A damaged file's score is not checked: words are trusted once their file's
//! checksum holds, so a made-up file can carry bounds that are wrong.
#![no_main]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use c4::batch::checkpoint::Checkpoint;
use c4_core::Checksum;
use c4_core::{Bitboard, Position, Score, Solver};
use libfuzzer_sys::fuzz_target;

/// Boards with keys of every form: one-word keys, keys the small tables store in two words, and
/// the 128-bit bitboard.
const BOARDS: [(u32, u32); 5] = [(4, 4), (5, 4), (7, 6), (9, 6), (10, 6)];

/// Boards up to this many cells are solved from empty, before saving and after the restore,
/// in well under a second.
const SEARCHED_AREA: u32 = 20;

/// Each edit: which word (a byte; past the last, a made-up pair is added), then 8 bytes to flip
/// in its index and 8 in its word.
const EDIT_BYTES: usize = 17;

fuzz_target!(|data: &[u8]| {
    let [board, saved_bits, bits, edits @ ..] = data else {
        return;
    };
    let (width, height) = BOARDS[usize::from(*board) % BOARDS.len()];
    let version_1 = saved_bits & 0x80 != 0;
    // Tables of 2^10 to 2^17 entries: every way a saved table's size and this one's can differ,
    // small enough for libFuzzer's memory limit.
    let (saved_bits, bits) = (10 + u32::from(saved_bits % 8), 10 + u32::from(bits % 8));
    if width * (height + 1) <= 64 {
        resume::<u64>(width, height, saved_bits, bits, version_1, edits);
    } else {
        resume::<u128>(width, height, saved_bits, bits, version_1, edits);
    }
});

/// Saves a checkpoint of the empty `width` x `height` board from a table of `2^saved_bits`
/// entries with `edits` applied to its words, as a file of version 1 or 2, reads it back as `c4
/// solve` does, and restores it into a table of `2^bits` entries.
fn resume<B: Bitboard>(
    width: u32,
    height: u32,
    saved_bits: u32,
    bits: u32,
    version_1: bool,
    edits: &[u8],
) {
    let position = Position::<B>::new(width, height).unwrap();
    let Saved {
        score,
        mut words,
        table_words,
    } = saved(&position, saved_bits);
    let edits: Vec<&[u8]> = edits.chunks_exact(EDIT_BYTES).collect();
    let number = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().unwrap());
    for edit in &edits {
        let (index, word) = (number(&edit[1..9]), number(&edit[9..]));
        match words.get_mut(usize::from(edit[0])) {
            Some(pair) => *pair = (pair.0 ^ index, pair.1 ^ word),
            None => words.push((index, word)),
        }
    }

    let folder = std::env::temp_dir().join(format!("c4-fuzz-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("fuzz.ckpt");
    let mut solver = Solver::with_table_bits(bits);
    let checkpoint = Checkpoint {
        width,
        height,
        key: position.key().to_u128(),
        table_layout: solver.table_layout(),
        table_words,
        lower: -30,
        upper: 30,
        elapsed: std::time::Duration::ZERO,
        nodes: 0,
    };
    if version_1 {
        write_version_1(&path, &checkpoint, &words);
    } else {
        words.sort_by_key(|&(index, _)| index);
        words.dedup_by_key(|&mut (index, _)| index);
        words.retain(|&(index, _)| index < u64::MAX);
        checkpoint.write(&path, words.iter().copied()).unwrap();
    }
    let (read, mut saved) = Checkpoint::open(&path)
        .unwrap()
        .expect("a checkpoint just written is there");
    assert_eq!(read, checkpoint);
    let restored =
        solver.restore_proven(&position, read.table_layout, read.table_words, &mut saved);
    saved
        .finish()
        .expect("the checksum of a checkpoint just written holds");
    if let Some(score) = score {
        if edits.is_empty() {
            assert!(restored.is_ok(), "a table's own entries are restored");
        }
        if restored.is_ok() {
            let resumed = solver.solve(&position);
            if edits.is_empty() {
                assert_eq!(resumed, score, "the score after an undamaged resume");
            }
        }
    }
}

/// What a solve of an empty board leaves in a table of one size, before any damage.
#[derive(Clone)]
struct Saved {
    /// The board's score, on the boards searched.
    score: Option<Score>,
    /// The table's proven entries, as a checkpoint saves them.
    words: Vec<(u64, u64)>,
    /// The table's size in words.
    table_words: u64,
}

/// The saved table of `position` (an empty board) in a table of `2^bits` entries: solved once
/// for each board and size, as the same solve leaves the same table, so that an input costs a
/// resume and not a solve too.
fn saved<B: Bitboard>(position: &Position<B>, bits: u32) -> Saved {
    static SAVED: Mutex<BTreeMap<(u32, u32, u32), Saved>> = Mutex::new(BTreeMap::new());
    let key = (position.width(), position.height(), bits);
    let mut cache = SAVED.lock().unwrap();
    cache
        .entry(key)
        .or_insert_with(|| {
            let mut saver = Solver::with_table_bits(bits);
            let searched = position.width() * position.height() <= SEARCHED_AREA;
            let score = searched.then(|| saver.solve(position));
            let words = if searched {
                saver.proven_entries(position, 0).collect()
            } else {
                Vec::new()
            };
            Saved {
                score,
                words,
                table_words: saver.table_words(),
            }
        })
        .clone()
}

/// Writes `checkpoint` and `words`, in their order, to `path` as version 1 laid them out: the
/// count of words after the header, each index whole, then the checksum of every number.
fn write_version_1(path: &Path, checkpoint: &Checkpoint, words: &[(u64, u64)]) {
    let header = [
        u64::from_le_bytes(*b"c4 check"),
        u64::from_le_bytes(*b"point 1\n"),
        u64::from(checkpoint.width),
        u64::from(checkpoint.height),
        checkpoint.key as u64,
        (checkpoint.key >> 64) as u64,
        checkpoint.table_layout,
        checkpoint.table_words,
        i64::from(checkpoint.lower) as u64,
        i64::from(checkpoint.upper) as u64,
        checkpoint.elapsed.as_millis() as u64,
        checkpoint.nodes,
        words.len() as u64,
    ];
    let numbers = header
        .into_iter()
        .chain(words.iter().flat_map(|&(index, word)| [index, word]));
    let (mut bytes, mut sum) = (Vec::new(), Checksum::new());
    for number in numbers {
        sum.add(number);
        bytes.extend(number.to_le_bytes());
    }
    bytes.extend(sum.value().to_le_bytes());
    std::fs::write(path, bytes).unwrap();
}
