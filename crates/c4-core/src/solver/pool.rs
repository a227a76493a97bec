//! Work shared out among threads, the one way the core runs many searches at once: items taken
//! in turn by threads that each work on a state of their own (a solver), results handed to the
//! calling thread as they come ([`share_work`]). A solver's searches side by side (threads.rs)
//! stand on it, and so does [`Pool`], solvers of their own for batches of positions: the book
//! builder's and [`analyze_many`]'s.

use std::any::Any;
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use super::any_position::{with_position, AnyPosition};
use super::book::Book;
use super::error::SolverError;
use super::limits::Limits;
use super::score::Score;
use super::state::Solver;
use super::table_size::TableSize;

/// What a worker hands the calling thread: the results of a chunk of items, each with its
/// index, or the payload of the panic the chunk ended in; and, when it waits for one, where to
/// say whether to go on.
type Handed<R> = (
    Result<Vec<(usize, R)>, Box<dyn Any + Send>>,
    Option<mpsc::Sender<bool>>,
);

/// Whether the threads of [`share_work`] wait for `found`'s answer to each chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pace {
    /// Each thread waits for the answer before it takes its next chunk: once `found` has said
    /// no, no chunk starts. For searches whose results decide whether more are wanted.
    Answered,
    /// The threads go on as they hand over their results: once `found` has said no, each
    /// finishes the chunk it is on and takes no other. For batches, whose workers need not
    /// wait after every chunk for the calling thread (and, on busy cores, for a processor to
    /// run it on), as the book builder's never did.
    Streamed,
}

/// Runs `work` on the items `0..count`, on one thread per state of `states`, each thread on its
/// own state, taking `chunk` consecutive items at a time when it has finished its last (so that
/// neighbours share a state's table). `found` gets, on this thread, each item's index and result
/// as they come (a chunk's together where the threads wait for answers), and says whether to go on; what a no stops is `pace`'s,
/// and the results of the chunks under way still come. A thread the system refuses is not
/// started: the others, or this thread with the first state once they are done, take its
/// items. A panic in `work` is a bug: it stops every thread and reaches the caller once they
/// have finished the chunk they were on.
///
/// # Panics
/// When `states` is empty and there are items, and with a panic of `work` or `found`.
pub(super) fn share_work<S: Send, R: Send>(
    states: &mut [S],
    count: usize,
    chunk: usize,
    pace: Pace,
    work: impl Fn(&mut S, usize) -> R + Sync,
    mut found: impl FnMut(usize, R) -> bool,
) {
    let chunk = chunk.max(1);
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let mut panicked = None;
    std::thread::scope(|scope| {
        let (sender, results) = mpsc::channel::<Handed<R>>();
        for state in states.iter_mut().take(count.div_ceil(chunk)) {
            let sender = sender.clone();
            let (next, stopped, work) = (&next, &stopped, &work);
            let run = move || {
                while !stopped.load(Ordering::Relaxed) {
                    let first = next.fetch_add(chunk, Ordering::Relaxed);
                    if first >= count {
                        break;
                    }
                    let items = first..count.min(first + chunk);
                    // A batch hands over each result as it comes (its progress, and what a
                    // stopped run keeps); searches that wait for an answer, the chunk's at once.
                    let handed: Vec<Range<usize>> = match pace {
                        Pace::Answered => vec![items],
                        Pace::Streamed => items.map(|index| index..index + 1).collect(),
                    };
                    for items in handed {
                        let done = panic::catch_unwind(AssertUnwindSafe(|| {
                            items.map(|index| (index, work(state, index))).collect()
                        }));
                        if done.is_err() {
                            stopped.store(true, Ordering::Relaxed);
                        }
                        // A channel per answer, its sender handed over: a caller gone without
                        // answering (it panicked) drops it, and that is a no.
                        let (answer, answers) = mpsc::channel();
                        let answered = pace == Pace::Answered;
                        if sender.send((done, answered.then_some(answer))).is_err()
                            || (answered && !answers.recv().unwrap_or(false))
                            || stopped.load(Ordering::Relaxed)
                        {
                            return;
                        }
                    }
                }
            };
            let _ = std::thread::Builder::new().spawn_scoped(scope, run);
        }
        drop(sender);
        for (done, answer) in results {
            let more = match done {
                Ok(done) => done
                    .into_iter()
                    .fold(true, |more, (index, result)| found(index, result) && more),
                Err(payload) => {
                    panicked.get_or_insert(payload);
                    false
                }
            };
            if !more {
                stopped.store(true, Ordering::Relaxed);
            }
            if let Some(answer) = answer {
                let _ = answer.send(more);
            }
        }
    });
    if let Some(payload) = panicked {
        panic::resume_unwind(payload);
    }
    if stopped.load(Ordering::Relaxed) || next.load(Ordering::Relaxed) >= count {
        return;
    }
    let state = states.first_mut().expect("a state to work on");
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= count || !found(index, work(state, index)) {
            break;
        }
    }
}

/// Solvers of their own, each on a thread of its own, for batches of positions: each takes
/// the next positions when it has finished its last, on its own table, with the same book.
/// Unlike a solver's threads ([`Solver::set_threads`]), which share one table to search one
/// position faster, these search different positions and share nothing.
pub(crate) struct Pool {
    solvers: Vec<Solver>,
}

impl Pool {
    /// `threads` solvers (at least one), each with a table of 2^`table_bits` entries
    /// ([`Solver::try_with_table_bits`]) and `book`.
    ///
    /// # Errors
    /// [`SolverError::TableMemory`]: the system refused a table's memory.
    pub(crate) fn new(
        threads: usize,
        table_bits: u32,
        book: Option<Arc<Book>>,
    ) -> Result<Pool, SolverError> {
        let solvers = (0..threads.max(1))
            .map(|_| {
                let mut solver = Solver::try_with_table_bits(table_bits)?;
                solver.set_book(book.clone());
                Ok(solver)
            })
            .collect::<Result<_, SolverError>>()?;
        Ok(Pool { solvers })
    }

    /// Runs `work` with a solver on each of the items `0..count`, `chunk` consecutive items to a
    /// solver at a time (neighbours in a batch often share much of their tree), and hands each
    /// index and result to `found` on this thread as they come, a chunk's together. Once
    /// `found` has said no (it returns whether to go on), each thread finishes the chunk it is
    /// on and takes no other; the results done meanwhile still come. A panic in `work` stops
    /// every thread and reaches the caller once they have finished the chunk they were on.
    pub(crate) fn run<R: Send>(
        &mut self,
        count: usize,
        chunk: usize,
        work: impl Fn(&mut Solver, usize) -> R + Sync,
        found: impl FnMut(usize, R) -> bool,
    ) {
        share_work(&mut self.solvers, count, chunk, Pace::Streamed, work, found);
    }
}

/// Every column's score ([`Solver::analyze`]) of each of `positions`, in their order, on up to
/// `threads` threads, each with a solver of its own: a table of `table` and `book`. Setting
/// `stop` stops every search.
///
/// # Errors
/// [`SolverError::TableMemory`]: the system refused a table's memory;
/// [`SolverError::Interrupted`]: `stop` was set before every position was analysed.
pub fn analyze_many(
    positions: &[AnyPosition],
    threads: usize,
    table: TableSize,
    book: Option<Arc<Book>>,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Vec<Vec<Option<Score>>>, SolverError> {
    let mut pool = Pool::new(threads.min(positions.len()), table.bits(), book)?;
    let limits = Limits {
        stop,
        ..Limits::default()
    };
    let mut scores = vec![None; positions.len()];
    let mut failure = None;
    pool.run(
        positions.len(),
        1,
        |solver, index| with_position!(positions[index], |p| solver.analyze_within(&p, &limits)),
        |index, analysed| match analysed {
            Ok(columns) => {
                scores[index] = Some(columns);
                true
            }
            Err(error) => {
                failure = Some(error);
                false
            }
        },
    );
    match failure {
        Some(error) => Err(error),
        None => Ok(scores.into_iter().flatten().collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::exhaustive::random_games;
    use crate::solver::position::Position;

    /// Positions of 5x4 games with a few stones, each a short search.
    fn positions(seed: u64) -> Vec<AnyPosition> {
        let mut found = Vec::new();
        random_games(5, 4, 30, seed, |p| {
            if p.moves_played() == 6 {
                found.push(AnyPosition::Narrow(*p));
            }
        });
        found
    }

    #[test]
    fn a_batch_is_analysed_in_its_order_on_any_number_of_threads() {
        let positions = positions(0xba7c);
        let mut alone = Solver::with_table_bits(18);
        let expected: Vec<_> = positions
            .iter()
            .map(|position| with_position!(position, |p| alone.analyze(p)))
            .collect();
        for threads in [1, 2, 3] {
            let scores = analyze_many(&positions, threads, TableSize::BATCH, None, None).unwrap();
            assert_eq!(scores, expected, "{threads} threads");
        }
        assert_eq!(
            analyze_many(&[], 2, TableSize::BATCH, None, None),
            Ok(vec![])
        );
    }

    #[test]
    fn a_set_stop_flag_stops_the_batch() {
        // Long searches without the book: the stop is seen within a few thousand nodes.
        let opening = Position::<u64>::from_moves(7, 6, &[3, 3]).unwrap();
        let positions = [AnyPosition::Narrow(opening); 4];
        let stop = Arc::new(AtomicBool::new(true));
        let result = analyze_many(&positions, 2, TableSize::BATCH, None, Some(stop));
        assert!(matches!(result, Err(SolverError::Interrupted { .. })));
    }

    #[test]
    fn every_item_is_worked_once_in_chunks_and_a_no_stops_the_rest() {
        let mut pool = Pool::new(3, 16, None).unwrap();
        let mut seen = vec![0; 50];
        pool.run(
            seen.len(),
            8,
            |_, index| index * 2,
            |index, twice| {
                assert_eq!(twice, index * 2);
                seen[index] += 1;
                true
            },
        );
        assert!(seen.iter().all(|&times| times == 1), "{seen:?}");
        // Told no at the first result, the threads stop after the item they are on (with
        // these items of a millisecond, long before the last).
        let mut results = 0;
        pool.run(
            1000,
            8,
            |_, index| std::thread::sleep(std::time::Duration::from_millis(1 + index as u64 % 2)),
            |_, ()| {
                results += 1;
                false
            },
        );
        assert!((1..500).contains(&results), "{results}");
    }

    #[test]
    fn a_panic_in_found_reaches_the_caller_while_threads_wait_for_answers() {
        // Each thread waits for its chunk's answer: the caller's panic must end that wait.
        let mut states = vec![(); 2];
        let caught = panic::catch_unwind(AssertUnwindSafe(|| {
            share_work(
                &mut states,
                100,
                4,
                Pace::Answered,
                |_, index| index,
                |_, _| panic!("found failed"),
            );
        }));
        let payload = caught.unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"found failed"));
    }

    #[test]
    fn a_panic_in_a_worker_reaches_the_caller_and_stops_the_others() {
        let mut pool = Pool::new(2, 16, None).unwrap();
        let started = AtomicUsize::new(0);
        // Items of a millisecond: the other thread would take 10 s over them all.
        let count = 10_000;
        let caught = panic::catch_unwind(AssertUnwindSafe(|| {
            pool.run(
                count,
                1,
                |_, index| {
                    started.fetch_add(1, Ordering::Relaxed);
                    assert!(index != 3, "item {index} is bad");
                    std::thread::sleep(std::time::Duration::from_millis(1));
                },
                |_, ()| true,
            );
        }));
        let payload = caught.unwrap_err();
        let message = payload.downcast_ref::<String>().map(String::as_str);
        assert_eq!(message, Some("item 3 is bad"));
        // The other thread stopped too (soon after the panic message was written).
        assert!(started.load(Ordering::Relaxed) < count / 2);
    }
}
