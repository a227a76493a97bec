//! Enumerating a book's positions, solving them in shards, merging, writing and checking books.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::error::{io_error, BuildError};
use super::format::{ShardHeader, ShardProblem};
use super::progress::{not_a_position, open_progress, read_progress, ProgressFile};
use super::shard::{mix, Shard};
use crate::solver::book::{
    canonical_key, misplaced_left_out, position_of_key, score_from_children, Book, BookError,
};
use crate::solver::{Limits, Pool, Position, Score, Solver};
use crate::textio::files::NewFile;

/// The deepest book this code builds: keys and counts of deeper ones would not fit in memory.
pub(crate) const MAX_DEPTH: u32 = 16;
/// Consecutive positions a worker takes at once: neighbours in enumeration order share much of
/// their tree, so one worker's table serves them all.
const CHUNK: usize = 8;

/// The distinct positions (one of each mirror pair) with `0..=depth` stones and no four in a
/// row, level by level, in a deterministic order where siblings are neighbours.
pub(crate) fn enumerate(
    width: u32,
    height: u32,
    depth: u32,
) -> Result<Vec<Vec<Position>>, BuildError> {
    let root = Position::new(width, height).map_err(BuildError::Board)?;
    if depth > MAX_DEPTH || depth > width * height {
        return Err(BuildError::Depth {
            depth,
            max: MAX_DEPTH.min(width * height),
        });
    }
    let mut levels = vec![vec![root]];
    for _ in 0..depth {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for position in levels.last().expect("the root level") {
            for column in 0..width {
                if !position.can_play(column) || position.is_winning_move(column) {
                    continue;
                }
                let mut child = *position;
                child.play_unchecked(position.cell_in(column));
                if seen.insert(canonical_key(&child)) {
                    next.push(child);
                }
            }
        }
        levels.push(next);
    }
    Ok(levels)
}

/// The positions a book stores: every one except those where the side to move wins at once.
fn needs_entry(position: &Position) -> bool {
    !position.can_win_next()
}

/// Settings of one shard build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Board columns.
    pub width: u32,
    /// Board rows.
    pub height: u32,
    /// The deepest level, the one that is solved.
    pub depth: u32,
    /// Which part of it.
    pub shard: Shard,
    /// Worker threads, each with its own solver.
    pub threads: usize,
    /// Each worker's table, as a power of two of entries.
    pub table_bits: u32,
    /// Stop after this many new positions (for sampling the cost), `None` for all.
    pub limit: Option<usize>,
    /// Progress files of the same board and depth, split into any number of shards, whose
    /// records of this shard are copied in first: a build can be re-split without solving
    /// anything again.
    pub import: Vec<PathBuf>,
    /// A book of the same board holding the positions one stone shallower (the shipped one,
    /// for a build one level deeper): no move scores more than its position, so each search
    /// starts at least at minus the score of each of its position's parents. It must be right:
    /// a wrong bound gives a wrong score.
    pub parents: Option<Arc<Book>>,
}

/// What a shard build did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildReport {
    /// Positions of the shard at the depth.
    pub total: usize,
    /// Of which already in the progress file at the start (torn records aside).
    pub already: usize,
    /// Of which solved now.
    pub solved: usize,
    /// Torn records cut off the progress file at the start.
    pub torn: usize,
    /// Records copied from [`BuildOptions::import`].
    pub imported: usize,
}

/// The progress of a shard build, for a progress bar.
pub trait Progress {
    /// `done` of `total` positions are solved; `solved_now` of them in this run, in `elapsed`.
    fn update(&mut self, done: usize, total: usize, solved_now: usize, elapsed: Duration);
}

/// No progress shown.
impl Progress for () {
    fn update(&mut self, _: usize, _: usize, _: usize, _: Duration) {}
}

/// Solves the deepest positions of `options.shard` into the progress file at `path`, resuming
/// it if it exists: solved positions are skipped, a torn last record is cut off.
///
/// # Errors
/// The file cannot be read or written, or belongs to another build.
pub fn build_shard(
    path: &Path,
    options: &BuildOptions,
    progress: &mut dyn Progress,
) -> Result<BuildReport, BuildError> {
    if options.shard.count == 0 || options.shard.index >= options.shard.count {
        return Err(BuildError::NoSuchShard(options.shard));
    }
    let levels = enumerate(options.width, options.height, options.depth)?;
    let leaves: Vec<Position> = levels[options.depth as usize]
        .iter()
        .filter(|p| needs_entry(p) && options.shard.owns(canonical_key(p)))
        .copied()
        .collect();
    let header = ShardHeader {
        width: options.width,
        height: options.height,
        depth: options.depth,
        shard: options.shard,
    };
    let (mut file, format, records, torn) = open_progress(path, &header)?;
    let wanted: HashSet<u64> = leaves.iter().map(canonical_key).collect();
    if let Some(index) = records.iter().position(|(key, _)| !wanted.contains(key)) {
        return Err(not_a_position(path, index, options.depth));
    }
    let mut done: HashSet<u64> = records.iter().map(|&(key, _)| key).collect();
    let mut imported = 0;
    for other in &options.import {
        let ProgressFile {
            header: found,
            records,
            ..
        } = read_progress(other)?;
        if (found.width, found.height, found.depth) != (header.width, header.height, header.depth) {
            return Err(BuildError::Shard {
                path: other.clone(),
                problem: ShardProblem::Import {
                    found,
                    expected: header,
                },
            });
        }
        for (key, score) in records {
            if wanted.contains(&key) && done.insert(key) {
                file.write_all(&format.encode(key, score))
                    .map_err(io_error(path))?;
                imported += 1;
            }
        }
    }
    let todo: Vec<Position> = leaves
        .iter()
        .filter(|p| !done.contains(&canonical_key(p)))
        .take(options.limit.unwrap_or(usize::MAX))
        .copied()
        .collect();
    let already = records.len();
    let before = done.len();
    let total = leaves.len();
    let start = Instant::now();
    progress.update(before, total, 0, Duration::ZERO);

    let mut pool =
        Pool::new(options.threads, options.table_bits, None).map_err(BuildError::Table)?;
    let mut solved = 0;
    let mut failure = None;
    pool.run(
        todo.len(),
        CHUNK,
        |solver, index| {
            let position = &todo[index];
            let floor = options
                .parents
                .as_ref()
                .and_then(|book| book.floor(position))
                .unwrap_or(Score::new(i8::MIN));
            // Probing the floor first: 7.5% fewer nodes and 9% less time on 3,000 depth-13
            // positions than a search merely bounded by it.
            let score = solver
                .solve_above(position, floor, &Limits::default())
                .expect("a search without limits always finishes");
            (canonical_key(position), score)
        },
        |_, (key, score)| {
            // After a failed write, the results of the chunks under way are not written.
            if failure.is_some() {
                return false;
            }
            if let Err(e) = file.write_all(&format.encode(key, score)) {
                failure = Some(e);
                return false;
            }
            solved += 1;
            progress.update(before + solved, total, solved, start.elapsed());
            true
        },
    );
    if let Some(source) = failure {
        return Err(BuildError::Io {
            path: path.to_path_buf(),
            source,
        });
    }
    file.sync_all().map_err(io_error(path))?;
    Ok(BuildReport {
        total,
        already,
        solved,
        torn,
        imported,
    })
}

/// What [`merge`] made.
#[derive(Debug)]
pub struct MergeReport {
    /// The book.
    pub book: Book,
    /// Positions solved at the deepest level.
    pub leaves: usize,
}

/// Joins the progress files of every shard of one build into the book: checks that each shard
/// is there once and that every deepest position has a score, then scores every shallower
/// position by negamax over its children.
///
/// # Errors
/// An unreadable or foreign file, shards of different builds, a missing shard or position.
pub fn merge(paths: &[PathBuf], left_out: &[u32]) -> Result<MergeReport, BuildError> {
    let mut header: Option<ShardHeader> = None;
    let mut seen_shards = HashSet::new();
    let mut leaf_scores: HashMap<u64, Score> = HashMap::new();
    for path in paths {
        let ProgressFile {
            header: found,
            records,
            ..
        } = read_progress(path)?;
        let expected = header.get_or_insert(found);
        if (found.width, found.height, found.depth, found.shard.count)
            != (
                expected.width,
                expected.height,
                expected.depth,
                expected.shard.count,
            )
        {
            return Err(BuildError::Shard {
                path: path.clone(),
                problem: ShardProblem::OtherBuild {
                    found,
                    first: *expected,
                },
            });
        }
        if !seen_shards.insert(found.shard.index) {
            return Err(BuildError::Shard {
                path: path.clone(),
                problem: ShardProblem::Twice(found.shard.index),
            });
        }
        leaf_scores.extend(records);
    }
    let header = header.ok_or(BuildError::NoShards)?;
    if let Some(missing) = (0..header.shard.count).find(|i| !seen_shards.contains(i)) {
        return Err(BuildError::MissingShard {
            missing,
            count: header.shard.count,
        });
    }
    // Said before the merge's minutes of work, not after.
    if let Some(ply) = misplaced_left_out(header.depth, left_out) {
        let depth = header.depth;
        return Err(BuildError::LeftOut(BookError::Derived { ply, depth }));
    }
    let book = book_from_leaves(
        header.width,
        header.height,
        header.depth,
        left_out,
        &leaf_scores,
    )?;
    Ok(MergeReport {
        book,
        leaves: leaf_scores.len(),
    })
}

/// The book whose deepest level has the scores `leaf_scores` (by canonical key), storing no
/// ply in `left_out` (their scores are computed from the next ply's at lookup).
///
/// # Errors
/// [`BuildError::Incomplete`] when a deepest position has no score, [`BuildError::Stray`] when
/// a score is not of a deepest position.
pub(crate) fn book_from_leaves(
    width: u32,
    height: u32,
    depth: u32,
    left_out: &[u32],
    leaf_scores: &HashMap<u64, Score>,
) -> Result<Book, BuildError> {
    let levels = enumerate(width, height, depth)?;
    let deepest: Vec<u64> = levels[depth as usize]
        .iter()
        .filter(|p| needs_entry(p))
        .map(canonical_key)
        .collect();
    // A score of no deepest position can only come from a corrupt file: say so before calling
    // the position it should have been missing.
    let wanted: HashSet<u64> = deepest.iter().copied().collect();
    let stray: Vec<u64> = leaf_scores
        .keys()
        .filter(|key| !wanted.contains(key))
        .copied()
        .collect();
    if let Some(&first) = stray.iter().min() {
        return Err(BuildError::Stray {
            count: stray.len(),
            depth,
            first,
        });
    }
    let missing: Vec<u64> = deepest
        .iter()
        .filter(|key| !leaf_scores.contains_key(key))
        .copied()
        .collect();
    if let Some(&first) = missing.first() {
        return Err(BuildError::Incomplete {
            missing: missing.len(),
            total: deepest.len(),
            depth,
            first,
        });
    }
    let mut scores: HashMap<u64, Score> =
        deepest.iter().map(|key| (*key, leaf_scores[key])).collect();
    for level in levels[..depth as usize].iter().rev() {
        for position in level.iter().filter(|p| needs_entry(p)) {
            let score =
                score_from_children(position, |child| scores.get(&canonical_key(child)).copied())
                    .expect("every child of an enumerated position is enumerated or wins at once");
            scores.insert(canonical_key(position), score);
        }
    }
    Book::from_scores_leaving_out(width, height, depth, left_out, scores).map_err(|source| {
        BuildError::Book {
            path: PathBuf::from("(merged)"),
            source,
        }
    })
}

/// Whether [`write_book`] can write a book to `path`: nothing or a regular file is there, and
/// its folder takes a new file (one is made and removed). Asked before the hours of solving,
/// so that a wrong `-o` is said at once rather than after them.
///
/// # Errors
/// [`write_book`]'s for the same path.
pub fn check_book_path(path: &Path) -> Result<(), BuildError> {
    NewFile::beside(path).map(drop).map_err(io_error(path))
}

/// Writes `book` to `path` through a new file beside it ([`NewFile`]), so that a kill leaves
/// either the old file or the new one, and a failed write neither.
///
/// # Errors
/// The file cannot be written.
pub fn write_book(path: &Path, book: &Book) -> Result<(), BuildError> {
    let mut new = NewFile::beside(path).map_err(io_error(path))?;
    new.file()
        .write_all(&book.to_bytes())
        .map_err(io_error(path))?;
    new.replace(path).map_err(io_error(path))?;
    Ok(())
}

/// One mismatch found by [`verify`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The canonical key.
    pub key: u64,
    /// The book's score.
    pub book: Score,
    /// The search's.
    pub search: Score,
}

/// Re-solves `sample` entries of `book` without any book (a deterministic choice from `seed`,
/// only at ply `ply` if given) and returns the mismatches and the number checked.
///
/// # Errors
/// An entry whose key is not a position (only a forged file has one).
pub fn verify(
    book: &Book,
    sample: usize,
    ply: Option<u32>,
    seed: u64,
    progress: &mut dyn Progress,
) -> Result<(Vec<Mismatch>, usize), BuildError> {
    let per_ply = book.entries_per_ply();
    if let Some(ply) = ply.filter(|&p| p > book.depth()) {
        return Err(BuildError::PlyPastBook {
            ply,
            depth: book.depth(),
        });
    }
    if let Some(ply) = ply.filter(|&p| per_ply.get(p as usize) == Some(&None)) {
        let stored = (ply..).find(|&p| per_ply.get(p as usize) != Some(&None));
        return Err(BuildError::PlyLeftOut {
            ply,
            stored: stored.unwrap_or(book.depth()),
        });
    }
    let chosen = sample_entries(book, sample, ply, seed)?;
    let mut solver = Solver::new();
    let mut mismatches = Vec::new();
    let start = Instant::now();
    for (done, (position, expected)) in chosen.iter().enumerate() {
        let found = solver.solve(position);
        if found != *expected {
            mismatches.push(Mismatch {
                key: canonical_key(position),
                book: *expected,
                search: found,
            });
        }
        progress.update(done + 1, chosen.len(), done + 1, start.elapsed());
    }
    Ok((mismatches, chosen.len()))
}

/// Up to `sample` entries of `book` (at ply `ply` if given) as positions with their scores, in
/// a pseudo-random order fixed by `seed`.
///
/// # Errors
/// An entry whose key is not a position.
pub fn sample_entries(
    book: &Book,
    sample: usize,
    ply: Option<u32>,
    seed: u64,
) -> Result<Vec<(Position, Score)>, BuildError> {
    let mut all = Vec::new();
    for (key, score) in book.entries() {
        let position = position_of_key(book.width(), book.height(), key)
            .map_err(|source| BuildError::Entry { key, source })?;
        if ply.is_none_or(|p| position.moves_played() == p) {
            all.push((mix(key ^ seed), position, score));
        }
    }
    all.sort_unstable_by_key(|&(order, position, _)| (order, position.key()));
    Ok(all
        .into_iter()
        .take(sample)
        .map(|(_, position, score)| (position, score))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::super::format::{RecordFormat, SHARD_HEADER_BYTES};
    use super::super::progress::shard_path;
    use super::*;
    use crate::solver::book::numbering::Numbering;
    use std::fs::OpenOptions;

    fn options(depth: u32, shard: Shard) -> BuildOptions {
        BuildOptions {
            width: 5,
            height: 4,
            depth,
            shard,
            threads: 2,
            table_bits: 16,
            limit: None,
            import: Vec::new(),
            parents: None,
        }
    }

    /// An empty scratch folder; a test removes it once it has passed (a failed one leaves it to
    /// look at).
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("c4-book-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Plain minimax, no book: the truth for small boards.
    fn exact(position: &Position) -> Score {
        let mut solver = Solver::with_table_bits(16);
        solver.solve(position)
    }

    #[test]
    fn the_position_counts_match_the_known_ones() {
        // Positions with 0..=6 stones on 7x6, mirror images counted apart (OEIS A212693).
        let levels = enumerate(7, 6, 6).unwrap();
        let counts: Vec<usize> = levels
            .iter()
            .map(|level| {
                level
                    .iter()
                    .map(|p| if p.is_symmetric() { 1 } else { 2 })
                    .sum()
            })
            .collect();
        assert_eq!(counts, [1, 7, 49, 238, 1120, 4263, 16422]);
    }

    #[test]
    fn every_position_has_its_own_number_that_decodes_to_it() {
        // The book file's numbering, over every position a build enumerates.
        for (width, height, depth) in [(7, 6, 6), (5, 4, 8), (4, 5, 7), (3, 3, 9)] {
            let numbering = Numbering::new(width, height, depth).unwrap();
            let mut seen = HashSet::new();
            for level in enumerate(width, height, depth).unwrap() {
                for position in level {
                    let number = numbering.number(&position);
                    assert!(number < numbering.len());
                    assert!(seen.insert(number), "{position:?}");
                    assert_eq!(
                        numbering.key_of_number(number),
                        Some(canonical_key(&position))
                    );
                }
            }
        }
    }

    #[test]
    fn one_build_scores_every_position_exactly() {
        let dir = temp_dir("single");
        let path = shard_path(&dir, 4, Shard::ALL);
        let report = build_shard(&path, &options(4, Shard::ALL), &mut ()).unwrap();
        assert_eq!(report.already, 0);
        assert_eq!(report.solved, report.total);
        let book = merge(&[path], &[]).unwrap().book;
        assert_eq!(book.depth(), 4);
        for level in enumerate(5, 4, 4).unwrap() {
            for position in level {
                let expected = (!position.can_win_next()).then(|| exact(&position));
                assert_eq!(book.score(&position), expected, "{position:?}");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn plies_left_out_score_every_position_as_if_stored() {
        let dir = temp_dir("left-out");
        let path = shard_path(&dir, 5, Shard::ALL);
        build_shard(&path, &options(5, Shard::ALL), &mut ()).unwrap();
        let whole = merge(std::slice::from_ref(&path), &[]).unwrap().book;
        let lean = merge(std::slice::from_ref(&path), &[1, 3, 4]).unwrap().book;
        assert!(lean.to_bytes().len() < whole.to_bytes().len());
        let per_ply = lean.entries_per_ply();
        assert_eq!(
            per_ply.iter().map(Option::is_some).collect::<Vec<_>>(),
            [true, false, true, false, false, true]
        );
        assert_eq!(per_ply[5], whole.entries_per_ply()[5]);
        assert_eq!(Book::from_bytes(&lean.to_bytes()).as_ref(), Ok(&lean));
        for level in enumerate(5, 4, 5).unwrap() {
            for position in level {
                let expected = (!position.can_win_next()).then(|| exact(&position));
                assert_eq!(whole.score(&position), expected, "{position:?}");
                assert_eq!(lean.score(&position), expected, "{position:?}");
            }
        }
        // A game already over is in no ply, stored or not: four in column 1 at ply 7 of 7x6.
        let won = merge(std::slice::from_ref(&path), &[4]).unwrap().book;
        let mut over = Position::new(5, 4).unwrap();
        for column in [0, 1, 0, 1, 0, 1, 0] {
            over.play_column(column).unwrap();
        }
        assert!(over.is_won() && won.score(&over).is_none());
        let error = verify(&lean, 5, Some(3), 1, &mut ())
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("ply 3 is left out of this book"),
            "{error}"
        );
        assert_eq!(verify(&lean, 5, Some(2), 1, &mut ()).unwrap().1, 5);
        assert_eq!(
            verify(&lean, 5, Some(40), 1, &mut ())
                .unwrap_err()
                .to_string(),
            "ply 40 is past this book, which holds plies 0 to 5"
        );
        assert_eq!(
            merge(std::slice::from_ref(&path), &[5])
                .unwrap_err()
                .to_string(),
            "ply 5 cannot be left out of a book of depth 5: only plies below the deepest can, at \
             most 2 in a row"
        );
        let error = merge(std::slice::from_ref(&path), &[1, 2, 3]).unwrap_err();
        assert!(
            error.to_string().starts_with("ply 3 cannot be left out"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_parents_book_bounds_the_searches_not_the_scores() {
        // A depth-5 build that starts each search from its parents' depth-4 scores writes the
        // same scores as one without them, and the bounds did apply.
        let dir = temp_dir("parents");
        let shallow = shard_path(&dir, 4, Shard::ALL);
        build_shard(&shallow, &options(4, Shard::ALL), &mut ()).unwrap();
        let parents = Arc::new(merge(&[shallow], &[]).unwrap().book);
        let levels = enumerate(5, 4, 5).unwrap();
        let leaves: Vec<Position> = levels[5]
            .iter()
            .filter(|p| needs_entry(p))
            .copied()
            .collect();
        let floors: Vec<Score> = leaves.iter().filter_map(|p| parents.floor(p)).collect();
        assert!(
            floors.len() * 10 >= leaves.len() * 9,
            "{} of {}",
            floors.len(),
            leaves.len()
        );
        assert!(leaves
            .iter()
            .all(|p| parents.floor(p).is_none_or(|f| f <= exact(p))));
        // The floor is the best of the parents' bounds, not only the first parent's.
        assert!(leaves.iter().any(|p| parents.floor(p) == Some(exact(p))
            && parents
                .score(&p.parents().next().unwrap())
                .map(Score::flipped)
                < Some(exact(p))));
        let plain = shard_path(&dir, 5, Shard::ALL);
        build_shard(&plain, &options(5, Shard::ALL), &mut ()).unwrap();
        let bounded = dir.join("bounded");
        std::fs::create_dir_all(&bounded).unwrap();
        let bounded = shard_path(&bounded, 5, Shard::ALL);
        let with_parents = BuildOptions {
            parents: Some(parents),
            ..options(5, Shard::ALL)
        };
        build_shard(&bounded, &with_parents, &mut ()).unwrap();
        assert_eq!(
            merge(&[plain], &[]).unwrap().book.to_bytes(),
            merge(&[bounded], &[]).unwrap().book.to_bytes()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shards_merged_equal_a_single_build() {
        let dir = temp_dir("shards");
        let single = shard_path(&dir, 5, Shard::ALL);
        build_shard(&single, &options(5, Shard::ALL), &mut ()).unwrap();
        let whole = merge(&[single], &[]).unwrap().book;
        let parts: Vec<PathBuf> = (0..3)
            .map(|index| {
                let shard = Shard { index, count: 3 };
                let path = shard_path(&dir, 5, shard);
                build_shard(&path, &options(5, shard), &mut ()).unwrap();
                path
            })
            .collect();
        assert_eq!(merge(&parts, &[]).unwrap().book, whole);
        assert!(matches!(
            merge(&parts[..2], &[]),
            Err(BuildError::MissingShard {
                missing: 2,
                count: 3
            })
        ));
        assert!(matches!(
            merge(&[parts[0].clone(), parts[0].clone()], &[]),
            Err(BuildError::Shard { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_killed_build_resumes_losing_nothing() {
        let dir = temp_dir("resume");
        let path = shard_path(&dir, 4, Shard::ALL);
        // Stop after 10 positions, as a kill would.
        let first = build_shard(
            &path,
            &BuildOptions {
                limit: Some(10),
                ..options(4, Shard::ALL)
            },
            &mut (),
        )
        .unwrap();
        assert_eq!(first.solved, 10);
        assert!(matches!(
            merge(std::slice::from_ref(&path), &[]),
            Err(BuildError::Incomplete { .. })
        ));
        // A torn last record: half of an eleventh one.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(&RecordFormat::Packed.encode(12345, Score::new(3))[..7])
            .unwrap();
        drop(file);
        let second = build_shard(&path, &options(4, Shard::ALL), &mut ()).unwrap();
        assert_eq!((second.already, second.torn), (10, 1));
        assert_eq!(second.already + second.solved, first.total);
        let resumed = merge(&[path], &[]).unwrap().book;

        let fresh = shard_path(&dir, 4, Shard { index: 0, count: 1 }).with_extension("fresh");
        build_shard(&fresh, &options(4, Shard::ALL), &mut ()).unwrap();
        assert_eq!(resumed, merge(&[fresh], &[]).unwrap().book);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_build_can_be_split_again_by_importing_its_records() {
        let dir = temp_dir("import");
        let single = shard_path(&dir, 4, Shard::ALL);
        build_shard(&single, &options(4, Shard::ALL), &mut ()).unwrap();
        let parts: Vec<PathBuf> = (0..2)
            .map(|index| {
                let shard = Shard { index, count: 2 };
                let path = shard_path(&dir, 4, shard);
                let report = build_shard(
                    &path,
                    &BuildOptions {
                        import: vec![single.clone()],
                        ..options(4, shard)
                    },
                    &mut (),
                )
                .unwrap();
                assert_eq!((report.solved, report.imported), (0, report.total));
                path
            })
            .collect();
        assert_eq!(
            merge(&parts, &[]).unwrap().book,
            merge(&[single], &[]).unwrap().book
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn corrupt_progress_files_are_refused() {
        let dir = temp_dir("corrupt");
        let path = shard_path(&dir, 3, Shard::ALL);
        build_shard(&path, &options(3, Shard::ALL), &mut ()).unwrap();
        let good = std::fs::read(&path).unwrap();
        // A score out of range in the middle is not a torn write.
        let mut bad = good.clone();
        bad[SHARD_HEADER_BYTES] = 100;
        std::fs::write(&path, &bad).unwrap();
        let error = merge(std::slice::from_ref(&path), &[])
            .unwrap_err()
            .to_string();
        assert!(error.contains("record 1 is corrupt"), "{error}");
        // Nor is a key that is no position of the shard.
        let mut bad = good.clone();
        bad[SHARD_HEADER_BYTES + 3] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        let error = merge(std::slice::from_ref(&path), &[])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("keys are not positions with 3 stones"),
            "{error}"
        );
        let error = build_shard(&path, &options(3, Shard::ALL), &mut ())
            .unwrap_err()
            .to_string();
        assert!(error.contains("record 1 is corrupt: its key"), "{error}");
        // Another build's file is not resumed.
        std::fs::write(&path, &good).unwrap();
        let error = build_shard(&path, &options(4, Shard::ALL), &mut ())
            .unwrap_err()
            .to_string();
        assert!(error.contains("not 5x4 depth 4 shard 0/1"), "{error}");
        // Grown by a hole of 10 GiB: more than every position of the shard takes, refused by
        // its size before its records are read.
        OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(10 << 30)
            .unwrap();
        let error = merge(std::slice::from_ref(&path), &[])
            .unwrap_err()
            .to_string();
        assert!(
            error.ends_with(
                "the file has 10737418240 bytes, more than the 879 that the records of \
                 5x4 depth 3 shard 0/1 can take"
            ),
            "{error}"
        );
        std::fs::write(&path, b"hello").unwrap();
        assert!(merge(&[path], &[])
            .unwrap_err()
            .to_string()
            .contains("not a c4 shard"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn version_1_progress_files_are_resumed_in_their_format_and_merged() {
        let dir = temp_dir("version1");
        let current = shard_path(&dir, 4, Shard::ALL);
        build_shard(&current, &options(4, Shard::ALL), &mut ()).unwrap();
        let records = read_progress(&current).unwrap().records;
        assert_eq!(
            read_progress(&current).unwrap().format,
            RecordFormat::Packed
        );
        // The first half of the records, as an older build wrote them.
        let header = ShardHeader {
            width: 5,
            height: 4,
            depth: 4,
            shard: Shard::ALL,
        };
        let old = dir.join("old");
        std::fs::create_dir_all(&old).unwrap();
        let old = shard_path(&old, 4, Shard::ALL);
        let mut bytes = header.to_bytes(RecordFormat::Checked).to_vec();
        for &(key, score) in &records[..records.len() / 2] {
            bytes.extend(RecordFormat::Checked.encode(key, score));
        }
        std::fs::write(&old, &bytes).unwrap();
        let report = build_shard(&old, &options(4, Shard::ALL), &mut ()).unwrap();
        assert_eq!(report.already, records.len() / 2);
        let resumed = read_progress(&old).unwrap();
        assert_eq!(resumed.format, RecordFormat::Checked);
        assert_eq!(resumed.records.len(), records.len());
        assert_eq!(
            merge(&[old], &[]).unwrap().book,
            merge(&[current], &[]).unwrap().book
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn verify_finds_a_wrong_entry() {
        let dir = temp_dir("verify");
        let path = shard_path(&dir, 3, Shard::ALL);
        build_shard(&path, &options(3, Shard::ALL), &mut ()).unwrap();
        let book = merge(&[path], &[]).unwrap().book;
        let (mismatches, checked) = verify(&book, 1000, None, 7, &mut ()).unwrap();
        assert_eq!((mismatches.len(), checked), (0, book.len()));
        let mut scores: Vec<(u64, Score)> = book.entries().collect();
        scores[5].1 = Score::new(scores[5].1.value() + 1);
        let wrong = Book::from_scores(5, 4, 3, scores.clone()).unwrap();
        let (mismatches, _) = verify(&wrong, 1000, None, 7, &mut ()).unwrap();
        assert_eq!(mismatches.len(), 1);
        assert_eq!(mismatches[0].key, scores[5].0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
