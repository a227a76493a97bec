//! Checkpointed runs: an exact search that saves what it has proven to a file as it goes and
//! goes on from the file's in a later run, and the request to stop early (on a signal, say) that
//! it answers by saving first. The file's format and lock are [`super::checkpoint`]'s.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::board::BatchBoard;
use super::checkpoint::Checkpoint;
use super::error::LineError;
use super::line::{at_least_text, BatchMode};
use super::table::{mib, say_once};
use c4_core::{Bitboard, Limits, Position, ProbeProgress, Score, Solver, SolverError};

/// Saving the progress of a long exact search to a file as it goes, and going on from the
/// file's in a later run.
#[derive(Debug, Clone)]
pub struct Checkpointing {
    /// The checkpoint file, or with `per_position` the folder of one file per position.
    pub file: PathBuf,
    /// Whether each position has a file of its own in the folder `file`, named after the board
    /// and the position, so that many positions searched one after the other (the jobs of a
    /// split solve) each go on from their own progress, whichever run takes them up.
    pub per_position: bool,
    /// How long the search runs between two saves.
    pub every: Duration,
    /// Asks the run to stop early, its progress saved first (on a signal, say).
    pub stop: Arc<EarlyStop>,
}

impl Checkpointing {
    /// The file of `width` x `height`'s position of `key`: [`file`](Self::file) itself, or
    /// with [`per_position`](Self::per_position) the position's own file in that folder.
    fn file_for(&self, width: u32, height: u32, key: u128) -> PathBuf {
        if self.per_position {
            self.file.join(format!("{width}x{height}-{key:032x}.ckpt"))
        } else {
            self.file.clone()
        }
    }
}

/// A request to end a checkpointed run before its searches are done, which the search under
/// way answers by saving its progress and stopping, and the run by reading no more lines.
#[derive(Debug, Default)]
pub struct EarlyStop {
    /// Set once the end is asked for: the search's limits look at it every few thousand nodes.
    requested: Arc<AtomicBool>,
    /// Set while a checkpointed search runs, saves included.
    searching: AtomicBool,
}

impl EarlyStop {
    /// Asks the run to end. Whether it will save first: false when no checkpointed search is
    /// under way (the checkpoint on disk is then whole and up to date, so the caller may end
    /// the process at once), or when the end was already asked for (to end without waiting).
    pub fn request(&self) -> bool {
        let again = self.requested.swap(true, Ordering::SeqCst);
        !again && self.searching.load(Ordering::SeqCst)
    }

    /// Whether the end was asked for.
    pub fn is_requested(&self) -> bool {
        self.requested.load(Ordering::SeqCst)
    }

    /// Marks a checkpointed search as under way until the guard is dropped.
    fn searching(&self) -> SearchUnderWay<'_> {
        self.searching.store(true, Ordering::SeqCst);
        SearchUnderWay(&self.searching)
    }
}

/// A checkpointed search under way, from the lock on its file to its last save: while it lives,
/// a request to stop waits for a save.
#[must_use = "the search is under way only while the guard lives"]
struct SearchUnderWay<'a>(&'a AtomicBool);

impl Drop for SearchUnderWay<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

/// A checkpoint keeps the table entries of searches of about 2^12 nodes or more: a small part of
/// a large table, which holds most of what a restart would otherwise search again.
const CHECKPOINT_MIN_WORK: u32 = 12;

/// How far a stopped search's probe got, for its checkpoint line: `probing score > 0: 1 of 9
/// moves ruled out (columns 5)`, the columns numbered as `board` writes them.
fn progress_text(progress: &ProbeProgress, board: &BatchBoard) -> String {
    let mut text = format!(
        "probing score > {}: {} of {} moves ruled out",
        progress.above,
        progress.ruled_out.count_ones(),
        progress.playable.count_ones()
    );
    let columns: Vec<String> = progress
        .ruled_out_columns()
        .map(|column| board.counting.written(column.into()).to_string())
        .collect();
    if !columns.is_empty() {
        text += &format!(" (columns {})", columns.join(" "));
    }
    text
}

/// The exact score of `position`, its search stopped at `plan`'s interval to save what it has
/// proven (the score's bounds and the table's costlier entries) to `plan`'s file, then resumed
/// in place, with a line on `log` at each save. When the file holds an unfinished checkpoint of
/// the same position, the search goes on from it: the bounds skip the probes already done and
/// the entries most of the searching. The finished score is saved too, so running the line again
/// answers at once; a finished checkpoint of another position is replaced, an unfinished one
/// refused. A save or a log line that fails later on is reported (or dropped) and the search goes
/// on: it can still save at the next interval.
///
/// # Errors
/// The file cannot be read or first written, holds another position's unfinished checkpoint, or
/// was saved by a build with other table entries, or with a table whose entries cannot be moved
/// into this run's.
pub(super) fn solve_checkpointed<B: Bitboard>(
    solver: &mut Solver,
    position: &Position<B>,
    mode: BatchMode,
    plan: &Checkpointing,
    board: &BatchBoard,
    table_note: &mut Option<&str>,
    mut log: Option<&mut (impl Write + ?Sized)>,
) -> Result<String, LineError> {
    let (width, height, key) = (
        position.width(),
        position.height(),
        position.key().to_u128(),
    );
    let file = plan.file_for(width, height, key);
    let file = &file;
    let _held = Checkpoint::lock(file)?;
    let _searching = plan.stop.searching();
    let same = |saved: &Checkpoint| (saved.width, saved.height, saved.key) == (width, height, key);
    let mut state = match Checkpoint::open(file)? {
        Some((saved, mut words)) if same(&saved) && answer(mode, &saved).is_none() => {
            if solver.is_table_shared() {
                // A table shared with other processes keeps what they proved, and takes no
                // words from a file: they go into a table before the file is checked whole,
                // and a damaged file's could not be taken out of a table never cleared. The
                // bounds saved still skip the probes done, whichever build's table the words
                // were of: a long split solve goes on after c4 is upgraded.
                words.finish()?;
            } else if !solver.reads_table_layout(saved.table_layout) {
                words.finish()?;
                return Err(LineError::CheckpointLayout);
            } else {
                // The words go into the table as they are read, and are only trusted once the
                // whole file has been checked.
                let restored = solver.restore_proven(
                    position,
                    saved.table_layout,
                    saved.table_words,
                    &mut words,
                );
                if let Err(damaged) = words.finish() {
                    solver.reset();
                    return Err(damaged.into());
                }
                restored.map_err(|_| LineError::CheckpointTable {
                    saved: mib(saved.table_words),
                    table: mib(solver.table_words()),
                })?;
            }
            // Later saves are of this run's table, in this build's layout.
            Checkpoint {
                table_layout: solver.table_layout(),
                table_words: solver.table_words(),
                ..saved
            }
        }
        Some((saved, words)) => {
            words.finish()?;
            if let Some(answer) = answer(mode, &saved).filter(|_| same(&saved)) {
                return Ok(answer);
            }
            if saved.lower < saved.upper {
                return Err(LineError::OtherCheckpoint(file.clone()));
            }
            fresh_checkpoint(solver, position, file)?
        }
        None => fresh_checkpoint(solver, position, file)?,
    };
    say_once(table_note, log.as_deref_mut());
    // Why the last save failed, if it did: a stop has no later save to make up for it.
    let mut unsaved = None;
    loop {
        // Asked before the first interval (while the file was read, say), the file already
        // holds all there is.
        if plan.stop.is_requested() {
            let file = file.clone();
            return Err(match unsaved {
                None => LineError::Stopped(file),
                Some(reason) => LineError::StoppedUnsaved { file, reason },
            });
        }
        let (start, nodes) = (Instant::now(), solver.nodes());
        let limits = Limits {
            deadline: start.checked_add(plan.every),
            stop: Some(Arc::clone(&plan.stop.requested)),
            ..Limits::default()
        };
        let result = search(solver, position, mode, (state.lower, state.upper), &limits);
        state.elapsed += start.elapsed();
        state.nodes += solver.nodes() - nodes;
        let (lower, upper) = match result {
            Ok(bounds) => bounds,
            Err(SolverError::Interrupted { lower, upper }) => (lower.value(), upper.value()),
            Err(other) => return Err(other.into()),
        };
        (state.lower, state.upper) = (state.lower.max(lower), state.upper.min(upper));
        let answer = answer(mode, &state);
        let (found, saved) = match &answer {
            Some(answer) => {
                let saved = state.write(file, std::iter::empty());
                (format!("score {answer}"), saved)
            }
            None => {
                let found = format!("score between {} and {}", state.lower, state.upper);
                let words = solver.proven_entries(position, CHECKPOINT_MIN_WORK);
                (found, state.write(file, words))
            }
        };
        unsaved = saved.as_ref().err().map(ToString::to_string);
        let mut report = match &saved {
            Ok(words) => format!(
                "checkpoint {}: {found} after {:.0} s and {} nodes; {words} table words saved",
                file.display(),
                state.elapsed.as_secs_f64(),
                state.nodes,
            ),
            Err(e) => format!("checkpoint not saved ({found}): {e}"),
        };
        if answer.is_none() {
            if let Some(progress) = solver.probe_progress(position) {
                report += &format!("; {}", progress_text(&progress, board));
            }
        }
        // A log that cannot be written is dropped; the search is worth more than its report.
        if log.as_mut().is_some_and(|log| {
            writeln!(log, "{report}")
                .and_then(|()| log.flush())
                .is_err()
        }) {
            log = None;
        }
        if let Some(answer) = answer {
            return Ok(answer);
        }
    }
}

/// One stretch of `mode`'s search of `position`, whose score is known to lie in `known`
/// (lower, upper), until `limits` stop it: the bounds it proves, or those it had proven when
/// stopped.
fn search<B: Bitboard>(
    solver: &mut Solver,
    position: &Position<B>,
    mode: BatchMode,
    known: (i8, i8),
    limits: &Limits,
) -> Result<(i8, i8), SolverError> {
    let (lower, upper) = known;
    if let BatchMode::AtLeast(bound) = mode {
        let below = bound.value().saturating_sub(1);
        let at_most_below = solver.is_at_most_within(position, Score::new(below), limits)?;
        return Ok(if at_most_below {
            (lower, upper.min(below))
        } else {
            (lower.max(bound.value()), upper)
        });
    }
    let score = solver.solve_between(position, Score::new(lower), Score::new(upper), limits)?;
    Ok((score.value(), score.value()))
}

/// The line's answer once `state`'s bounds give it: the exact score, or for
/// [`BatchMode::AtLeast`] whether the score is at least its bound.
fn answer(mode: BatchMode, state: &Checkpoint) -> Option<String> {
    match mode {
        BatchMode::AtLeast(bound) if state.lower >= bound.value() => {
            Some(at_least_text(bound, true))
        }
        BatchMode::AtLeast(bound) if state.upper < bound.value() => {
            Some(at_least_text(bound, false))
        }
        BatchMode::AtLeast(_) => None,
        _ => (state.lower == state.upper).then(|| state.lower.to_string()),
    }
}

/// A checkpoint of `position` with nothing proven yet, written to `file` at once, so that a
/// file that cannot be written fails now and not after the first interval.
fn fresh_checkpoint<B: Bitboard>(
    solver: &Solver,
    position: &Position<B>,
    file: &Path,
) -> Result<Checkpoint, LineError> {
    let new = Checkpoint {
        width: position.width(),
        height: position.height(),
        key: position.key().to_u128(),
        table_layout: solver.table_layout(),
        table_words: solver.table_words(),
        lower: i8::MIN,
        upper: i8::MAX,
        elapsed: Duration::ZERO,
        nodes: 0,
    };
    new.write(file, std::iter::empty())?;
    Ok(new)
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::batch::solve::{run_batch_solve, BatchOptions};
    use c4_core::Counting;

    #[test]
    fn each_position_of_a_folder_run_keeps_its_own_file_and_answers_from_it() {
        let folder = std::env::temp_dir().join(format!("c4-ckpt-folder-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let opts = BatchOptions {
            mode: BatchMode::AtLeast(Score::new(0)),
            board: BatchBoard::new(5, 4, Counting::FromOne).unwrap(),
            table_bits: 18,
            checkpoint: Some(Checkpointing {
                file: folder.clone(),
                per_position: true,
                every: Duration::from_secs(600),
                stop: Arc::default(),
            }),
            ..BatchOptions::new(BatchMode::Score, 1, None)
        };
        let run = |input: &str| {
            let mut out = Vec::new();
            run_batch_solve(input.as_bytes(), &mut out, &opts, None).unwrap();
            String::from_utf8(out).unwrap()
        };
        // 5x4 is a draw: every position on the way scores 0 if both play well.
        assert_eq!(run("3\n33\n"), "3 >=0\n33 >=0\n");
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 2);
        // Answered from the files: the same lines, and no new file.
        assert_eq!(run("33\n3\n"), "33 >=0\n3 >=0\n");
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 2);
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn progress_names_the_columns_ruled_out_as_the_lines_do() {
        let progress = ProbeProgress {
            above: Score::new(-2),
            ruled_out: 0b1_0001_0001,
            playable: 0b1_1111_1111,
        };
        let board = |counting| BatchBoard::new(9, 6, counting).unwrap();
        assert_eq!(
            progress_text(&progress, &board(Counting::FromOne)),
            "probing score > -2: 3 of 9 moves ruled out (columns 1 5 9)"
        );
        assert_eq!(
            progress_text(&progress, &board(Counting::FromZero)),
            "probing score > -2: 3 of 9 moves ruled out (columns 0 4 8)"
        );
        let none = ProbeProgress {
            ruled_out: 0,
            ..progress
        };
        assert_eq!(
            progress_text(&none, &board(Counting::FromOne)),
            "probing score > -2: 0 of 9 moves ruled out"
        );
    }

    /// A log that panics at its line after the first `lines`, as a run killed after that many
    /// saves.
    struct Killed {
        lines: usize,
    }

    impl Write for Killed {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            assert!(self.lines > 0, "killed");
            self.lines -= buf.iter().filter(|&&b| b == b'\n').count();
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A log that asks the run to stop at its `stop_at`-th line, as a signal during that save,
    /// and first, at its first line, makes the saves after it fail where `block` names a file
    /// (moved aside to [`kept`], and a folder put in its place).
    struct StopAtSave {
        stop: Arc<EarlyStop>,
        stop_at: usize,
        block: Option<PathBuf>,
        lines: usize,
    }

    impl Write for StopAtSave {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.lines += buf.iter().filter(|&&b| b == b'\n').count();
            if let Some(file) = self.block.take() {
                std::fs::rename(&file, kept(&file)).unwrap();
                std::fs::create_dir(&file).unwrap();
            }
            if self.lines == self.stop_at {
                self.stop.request();
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Where [`StopAtSave`] keeps the file it blocks.
    fn kept(file: &Path) -> PathBuf {
        file.with_extension("kept")
    }

    #[test]
    fn a_stop_asked_for_ends_the_run_with_its_progress_saved() {
        let dir = std::env::temp_dir().join(format!("c4-batch-stop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("run.ckpt");
        let options = |stop: &Arc<EarlyStop>| BatchOptions {
            table_bits: 20,
            checkpoint: Some(Checkpointing {
                file: file.clone(),
                per_position: false,
                every: Duration::from_millis(2),
                stop: Arc::clone(stop),
            }),
            ..BatchOptions::new(BatchMode::Score, 1, None)
        };
        let run = |stop: &Arc<EarlyStop>, log: Option<&mut dyn Write>| {
            let mut out = Vec::new();
            // The first line scores 1 after about 10^6 nodes without the book.
            let input = "4455\n73664511\n61362454\n";
            run_batch_solve(input.as_bytes(), &mut out, &options(stop), log).unwrap();
            String::from_utf8(out).unwrap()
        };
        let stopped = |stop_at, block| {
            let stop = Arc::new(EarlyStop::default());
            let mut log = StopAtSave {
                stop: Arc::clone(&stop),
                stop_at,
                block,
                lines: 0,
            };
            run(&stop, Some(&mut log))
        };
        // With no search under way there is nothing to wait for; asked again, neither.
        let stop = Arc::new(EarlyStop::default());
        assert!(!stop.request() && !stop.request() && stop.is_requested());
        // Asked during the second line's first save: that line says where its progress is, and
        // the third is not read.
        let go_on = "run this line again with the same --board and --checkpoint to go on";
        assert_eq!(
            stopped(2, None),
            format!(
                "4455 18\n73664511 error: stopped before the end; the progress is saved in {}: \
                 {go_on}\n",
                file.display()
            )
        );
        let (saved, words) = Checkpoint::read_whole(&file).unwrap().unwrap();
        assert!(saved.lower < saved.upper && saved.nodes > 0 && !words.is_empty());
        // Asked before the search, it stops before its first interval; the file stays as it
        // was.
        let mut out = Vec::new();
        run_batch_solve(&b"73664511\n"[..], &mut out, &options(&stop), None).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!(
                "73664511 error: stopped before the end; the progress is saved in {}: {go_on}\n",
                file.display()
            )
        );
        assert_eq!(
            Checkpoint::read_whole(&file).unwrap(),
            Some((saved.clone(), words))
        );
        // Asked when the last save failed, the line says so; the file holds the save before.
        let out = stopped(2, Some(file.clone()));
        let (first, rest) = out.split_once('\n').unwrap();
        assert!(
            first.contains("holds the checkpoint of another position"),
            "{out}"
        );
        assert!(
            rest.starts_with(&format!(
                "73664511 error: stopped before the end, and the last progress could not be \
                 saved in {} (",
                file.display()
            )) && rest.ends_with("): run this line again with the same --board and --checkpoint to go on from the save before\n"),
            "{out}"
        );
        std::fs::remove_dir(&file).unwrap();
        std::fs::rename(kept(&file), &file).unwrap();
        let (before, _) = Checkpoint::read_whole(&file).unwrap().unwrap();
        assert!(before.nodes > saved.nodes && before.lower < before.upper);
        // The saves that failed left nothing, and the run its lock file neither.
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["run.ckpt"]);
        // The same command goes on from the file to the score.
        let fresh = Arc::new(EarlyStop::default());
        assert_eq!(
            run(&fresh, None),
            format!(
                "4455 error: {} holds the checkpoint of another position; name another file\n\
                 73664511 1\n61362454 -4\n",
                file.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A log that cannot be written.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("closed"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_checkpointed_search_goes_on_from_its_file_in_a_new_run() {
        let dir = std::env::temp_dir().join(format!("c4-batch-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("run.ckpt");
        // Two begin-hard lines: 1 after about 10^6 nodes without the book, and -4.
        let (line, other) = ("73664511\n", "61362454\n");
        let plan = Checkpointing {
            file: file.clone(),
            per_position: false,
            every: Duration::from_millis(2),
            stop: Arc::default(),
        };
        let opts = BatchOptions {
            table_bits: 20,
            checkpoint: Some(plan),
            ..BatchOptions::new(BatchMode::Score, 1, None)
        };
        let run_with = |opts: &BatchOptions, input: &str, log: &mut dyn Write| {
            let mut out = Vec::new();
            run_batch_solve(input.as_bytes(), &mut out, opts, Some(log)).unwrap();
            String::from_utf8(out).unwrap()
        };
        let run = |input: &str, log: &mut dyn Write| run_with(&opts, input, log);
        // The first run is killed at its second save; the file keeps what it had proven.
        let killed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run(line, &mut Killed { lines: 1 })
        }));
        assert!(killed.is_err());
        let (saved, words) = Checkpoint::read_whole(&file).unwrap().unwrap();
        assert!(saved.lower < saved.upper && !words.is_empty());
        // Another position does not overwrite an unfinished checkpoint.
        let refused = run(other, &mut Vec::new());
        assert!(
            refused.contains("holds the checkpoint of another position"),
            "{refused}"
        );
        let kept = Checkpoint::read_whole(&file).unwrap();
        assert_eq!(kept, Some((saved.clone(), words)));
        // A file damaged in its words is refused, though they went into the table as read.
        let whole = std::fs::read(&file).unwrap();
        let mut damaged = whole.clone();
        damaged[whole.len() - 20] ^= 1;
        std::fs::write(&file, &damaged).unwrap();
        let mut refused = Vec::new();
        let summary = run_batch_solve(line.as_bytes(), &mut refused, &opts, None).unwrap();
        let refused = String::from_utf8(refused).unwrap();
        assert!(refused.contains("cut short or damaged"), "{refused}");
        assert_eq!(summary.checkpoint_failures, 1);
        std::fs::write(&file, &whole).unwrap();
        // A file of a table layout this build does not know is refused; one of layout 1, whose
        // 7x6 entries are this layout's, is read.
        let (_, words) = Checkpoint::read_whole(&file).unwrap().unwrap();
        let save_as = |table_layout| {
            let saved = Checkpoint {
                table_layout,
                ..saved.clone()
            };
            saved.write(&file, words.iter().copied()).unwrap();
        };
        save_as(Solver::new().table_layout() + 1);
        let refused = run(line, &mut Vec::new());
        assert!(refused.contains("with other table entries"), "{refused}");
        // A run on a shared table takes no words from a file: it goes on from the bounds.
        let shared = BatchOptions {
            shared_table: Some(dir.join("tables")),
            ..opts.clone()
        };
        assert_eq!(run_with(&shared, line, &mut Vec::new()), "73664511 1\n");
        save_as(1);
        // The second run goes on from it, with a table four times the size, and saves the
        // score and that table's size.
        let bigger = BatchOptions {
            table_bits: 22,
            ..opts.clone()
        };
        let mut log = Vec::new();
        assert_eq!(run_with(&bigger, line, &mut log), "73664511 1\n");
        let log = String::from_utf8(log).unwrap();
        let lines: Vec<&str> = log.lines().collect();
        let (last, stops) = lines.split_last().unwrap();
        assert!(
            last.ends_with(" table words saved") && last.contains(": score 1 after"),
            "{log}"
        );
        // Each save of an unfinished search says how far its probe got.
        assert!(!stops.is_empty());
        for line in stops {
            assert!(line.contains(": score between "), "{line}");
            assert!(line.contains("; probing score > "), "{line}");
            let (_, ruled_out) = line.split_once("; probing score > ").unwrap();
            let (count, columns) = ruled_out.split_once(" of 7 moves ruled out").unwrap();
            let count: usize = count.split_once(": ").unwrap().1.parse().unwrap();
            let columns: Vec<u32> = match columns.strip_prefix(" (columns ") {
                Some(list) => list
                    .trim_end_matches(')')
                    .split(' ')
                    .map(|c| c.parse().unwrap())
                    .collect(),
                None => Vec::new(),
            };
            assert_eq!(columns.len(), count, "{line}");
            assert!(columns.iter().all(|c| (1..=7).contains(c)), "{line}");
        }
        let (done, done_words) = Checkpoint::read_whole(&file).unwrap().unwrap();
        assert_eq!((done.lower, done.upper), (1, 1));
        assert!(done.nodes > saved.nodes && done_words.is_empty());
        assert_eq!(done.table_words, 1 << 22);
        assert_eq!(done.table_layout, Solver::new().table_layout());
        // A third answers from the file; a log that fails does not stop a search; a finished
        // checkpoint gives way to the next position's.
        assert_eq!(run(line, &mut Vec::new()), "73664511 1\n");
        assert_eq!(run(other, &mut Closed), "61362454 -4\n");
        let (next, _) = Checkpoint::read_whole(&file).unwrap().unwrap();
        assert_eq!((next.lower, next.upper), (-4, -4));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
