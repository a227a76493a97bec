//! Threads that search one probe together: the [`Helpers`] a solver keeps between searches (a
//! [`Crew`] of threads and their near-leaf tables), the [`Probe`] they are handed, the [`Team`]
//! of a probe, the [`Busy`] table through which they split the work, and the settings of that
//! split; the solver's side of it (calling helpers in, what a helper does with a probe) is
//! threads.rs, the search itself negamax.rs.
//!
//! The split is ABDADA's (Weill, 1996): every thread searches the same probe from the root, and
//! each move only while no other thread searches it, leaving it for later otherwise; by the time
//! it comes back to such a move, the table mostly holds its answer. (ABDADA lets every thread
//! into a node's first move, for the bound it sets for the others; a probe's window is null, so
//! there is no bound to wait for.) The first thread to finish the probe answers it, and the
//! others stop.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use super::bitboard::Bitboard;
use super::book::Book;
use super::position::Position;
use super::table::Table;

/// The busy table has `2^BUSY_BITS` slots (32 KiB): each thread marks at most the positions on
/// its path from the root, so even 64 threads fill a small part of it.
const BUSY_BITS: u32 = 12;

/// The most threads one search uses.
pub(crate) const MAX_THREADS: usize = 64;

/// Nodes an exact search takes on its own before helper threads join it: waking them and
/// stopping them again costs about as much as searching a few hundred nodes, so small searches
/// stay on one thread.
pub(crate) const PARALLEL_MIN_NODES: u64 = 20_000;

/// How many nodes pass between two looks at whether another thread has answered the probe: a
/// thread that goes on searching an answered probe wastes its time.
pub(crate) const TEAM_CHECK_INTERVAL: u64 = 1024;

/// Positions with at least this many empty cells are split between the threads of a probe
/// (their moves after the first are searched by one thread at a time); below it, marking
/// positions as busy, which takes the busy table's cache lines from the other threads, would
/// cost more than it saves.
pub(crate) const SPLIT_MIN_EMPTY: i32 = 22;

/// While threads search a probe together, each keeps the positions with at most this many empty
/// cells in its own near-leaf table, and only those above in the shared one: the threads
/// mostly search apart, and every line one of them writes in the shared table is taken from
/// the other's cache.
pub(crate) const TEAM_NEAR_LEAF_EMPTY: i32 = 18;

// The moves a thread leaves for later are answered in the shared table.
const _: () = assert!(TEAM_NEAR_LEAF_EMPTY < SPLIT_MIN_EMPTY - 1);

/// The near-leaf table of each thread of a solver with more than one: 2^18 entries, 2 MiB,
/// since in a search with others it holds the positions of up to [`TEAM_NEAR_LEAF_EMPTY`]
/// empty cells.
pub(crate) const PARALLEL_NEAR_LEAF_BITS: u32 = 18;

/// The positions that threads are searching right now, each in a slot chosen by its key.
pub(crate) struct Busy {
    /// A key, or 0 for a free slot (a position whose key is 0 is never seen as busy).
    slots: Box<[AtomicU64]>,
}

/// What [`Busy::claim`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    /// The position is marked as this thread's: search it, then [`Busy::release`] it.
    Taken,
    /// Another thread is searching it: search it later.
    Busy,
    /// Its slot holds another position: search it without a mark.
    Unmarked,
}

impl Busy {
    fn new() -> Busy {
        Busy {
            slots: (0..1 << BUSY_BITS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        let index = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - BUSY_BITS);
        &self.slots[index as usize]
    }

    /// Marks the position of `key` as this thread's, unless another thread searches it.
    #[inline]
    pub(crate) fn claim(&self, key: u64) -> Claim {
        let slot = self.slot(key);
        match slot.load(Relaxed) {
            0 => match slot.compare_exchange(0, key, Relaxed, Relaxed) {
                Ok(_) => Claim::Taken,
                Err(other) if other == key => Claim::Busy,
                Err(_) => Claim::Unmarked,
            },
            other if other == key => Claim::Busy,
            _ => Claim::Unmarked,
        }
    }

    /// Unmarks a position this thread [`Taken`](Claim::Taken).
    #[inline]
    pub(crate) fn release(&self, key: u64) {
        self.slot(key).store(0, Relaxed);
    }
}

/// One search of one position within one window, the same for every thread, with the settings
/// of the solve it is part of.
#[derive(Clone)]
pub(crate) struct Probe {
    /// On the 128-bit bitboard, which holds every board: the search narrows it again.
    pub(crate) position: Position<u128>,
    pub(crate) alpha: i32,
    pub(crate) beta: i32,
    /// Whether keys are folded with their mirror image.
    pub(crate) mirror: bool,
    pub(crate) book: Option<Arc<Book>>,
    pub(crate) book_depth: i32,
}

/// What the threads of a crew share.
pub(crate) struct Shared {
    pub(crate) busy: Busy,
    orders: Mutex<Orders>,
    /// Signalled when the orders change: a new probe, no probe, a helper done, the end.
    changed: Condvar,
    /// The newest probe answered so far and its score, as `generation << 8 | (score + 128)`: a
    /// thread still on that probe or an older one stops.
    answer: AtomicU64,
    /// Nodes the helpers searched since the crew was last [`finished`](Crew::finish).
    nodes: AtomicU64,
}

/// What the helpers are to do, under the lock.
struct Orders {
    /// Counts the probes handed out, the first being 1.
    generation: u64,
    /// The probe to search, if any.
    probe: Option<Probe>,
    /// Helpers that are searching a probe.
    searching: usize,
    /// Set when the crew is dropped.
    quit: bool,
}

impl Shared {
    fn orders(&self) -> MutexGuard<'_, Orders> {
        // A panic while the lock was held cannot leave the orders half-changed: keep going.
        self.orders
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether probe `generation` has been answered, or a newer one handed out.
    #[inline]
    pub(crate) fn is_answered(&self, generation: u64) -> bool {
        self.answer.load(Relaxed) >> 8 >= generation
    }

    /// The score of probe `generation`, once a thread has found it.
    pub(crate) fn answer_of(&self, generation: u64) -> Option<i32> {
        let answer = self.answer.load(Acquire);
        (answer >> 8 == generation).then_some((answer & 0xff) as i32 - 128)
    }

    /// Records `score` as probe `generation`'s answer, unless it or a newer one has one.
    pub(crate) fn answer(&self, generation: u64, score: i32) {
        let answer = generation << 8 | (score + 128) as u64;
        let _ = self.answer.fetch_update(Release, Relaxed, |old| {
            (old >> 8 < generation).then_some(answer)
        });
    }

    /// Waits for a probe newer than `seen` and hands it out, or `None` once the crew is dropped.
    pub(crate) fn next_probe(&self, seen: &mut u64) -> Option<Turn<'_>> {
        let mut orders = self.orders();
        loop {
            if orders.quit {
                return None;
            }
            if orders.generation != *seen {
                *seen = orders.generation;
                if let Some(probe) = orders.probe.clone() {
                    orders.searching += 1;
                    return Some(Turn {
                        shared: self,
                        probe,
                        generation: *seen,
                    });
                }
            }
            orders = self
                .changed
                .wait(orders)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

/// A helper's search of one probe: dropped when the helper is done with it, even by a panic, so
/// that the crew never waits for a helper that is not searching.
pub(crate) struct Turn<'a> {
    shared: &'a Shared,
    pub(crate) probe: Probe,
    pub(crate) generation: u64,
}

impl Turn<'_> {
    /// The helper searched `nodes` and found `score` (`None`: it was stopped).
    pub(crate) fn done(self, score: Option<i32>, nodes: u64) {
        if let Some(score) = score {
            self.shared.answer(self.generation, score);
        }
        self.shared.nodes.fetch_add(nodes, Relaxed);
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.shared.orders().searching -= 1;
        self.shared.changed.notify_all();
    }
}

/// Helper threads kept from one search to the next, asleep while there is no probe.
pub(crate) struct Crew {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl Crew {
    /// Starts `helpers` threads, each running `serve` until the crew is dropped; a thread the
    /// system refuses is not started.
    pub(crate) fn start<F>(helpers: usize, serve: impl Fn(usize) -> F) -> Crew
    where
        F: FnOnce(Arc<Shared>) + Send + 'static,
    {
        let shared = Arc::new(Shared {
            busy: Busy::new(),
            orders: Mutex::new(Orders {
                generation: 0,
                probe: None,
                searching: 0,
                quit: false,
            }),
            changed: Condvar::new(),
            answer: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
        });
        let threads = (0..helpers)
            .filter_map(|index| {
                let work = serve(index);
                let shared = Arc::clone(&shared);
                std::thread::Builder::new().spawn(move || work(shared)).ok()
            })
            .collect();
        Crew { shared, threads }
    }

    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// The helper threads that were started.
    #[cfg(test)]
    pub(crate) fn helpers(&self) -> usize {
        self.threads.len()
    }

    /// Helpers searching a probe right now.
    #[cfg(test)]
    pub(crate) fn searching(&self) -> usize {
        self.shared.orders().searching
    }

    /// Hands `probe` to the helpers, in place of any earlier one; its generation.
    pub(crate) fn publish(&self, probe: Probe) -> u64 {
        let mut orders = self.shared.orders();
        orders.generation += 1;
        orders.probe = Some(probe);
        let generation = orders.generation;
        drop(orders);
        self.shared.changed.notify_all();
        generation
    }

    /// Stops the helpers' search of probe `generation` (the last handed out), waits until none
    /// searches, and returns the nodes they searched since the last finish.
    pub(crate) fn finish(&self, generation: u64) -> u64 {
        self.shared.answer(generation, 0);
        let mut orders = self.shared.orders();
        orders.probe = None;
        while orders.searching > 0 {
            orders = self
                .shared
                .changed
                .wait(orders)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        drop(orders);
        self.shared.nodes.swap(0, Relaxed)
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        // Every probe answered: a helper still searching (its solver panicked) stops soon.
        self.shared.answer(u64::MAX >> 8, 0);
        self.shared.orders().quit = true;
        self.shared.changed.notify_all();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// The probe a thread is searching with others, and what they share.
pub(crate) struct Team {
    pub(crate) shared: Arc<Shared>,
    pub(crate) generation: u64,
}

impl Team {
    pub(crate) fn is_answered(&self) -> bool {
        self.shared.is_answered(self.generation)
    }
}

/// The busy table's key of a table key: a `u128` key folded into 64 bits (two positions whose
/// keys fold alike only wait for each other once in a while).
#[inline]
pub(crate) fn busy_key<K: Bitboard>(key: K) -> u64 {
    let key = key.to_u128();
    key as u64 ^ (key >> 64) as u64
}

/// A solver's helper threads, each with its own near-leaf table: those positions are cheap to
/// search again, and sharing them would have the threads fight over the cache lines they write
/// most often.
pub(crate) struct Helpers {
    pub(crate) crew: Crew,
    pub(crate) near_leaf: Vec<Arc<Table>>,
}

impl Helpers {
    /// Starts `count` helpers, each with a near-leaf table of its own, running what `serve`
    /// makes of that table (a solver on it and on the table shared by all).
    pub(crate) fn start<F>(count: usize, serve: impl Fn(&Arc<Table>) -> F) -> Helpers
    where
        F: FnOnce(Arc<Shared>) + Send + 'static,
    {
        let near_leaf: Vec<Arc<Table>> = (0..count)
            .map(|_| Arc::new(Table::with_bits(PARALLEL_NEAR_LEAF_BITS)))
            .collect();
        let crew = Crew::start(count, |index| serve(&near_leaf[index]));
        Helpers { crew, near_leaf }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_claimed_by_one_thread_at_a_time() {
        let busy = Busy::new();
        assert_eq!(busy.claim(42), Claim::Taken);
        assert_eq!(busy.claim(42), Claim::Busy);
        busy.release(42);
        assert_eq!(busy.claim(42), Claim::Taken);
        // Another key in the same slot is searched unmarked.
        let other = (1..u64::MAX)
            .find(|&k| k != 42 && std::ptr::eq(busy.slot(k), busy.slot(42)))
            .unwrap();
        assert_eq!(busy.claim(other), Claim::Unmarked);
    }

    #[test]
    fn an_answer_stops_its_probe_and_older_ones_only() {
        let crew = Crew::start(0, |_| |_: Arc<Shared>| {});
        let shared = crew.shared();
        assert!(!shared.is_answered(1));
        shared.answer(2, -5);
        assert!(shared.is_answered(1) && shared.is_answered(2) && !shared.is_answered(3));
        assert_eq!(shared.answer_of(2), Some(-5));
        assert_eq!(shared.answer_of(1), None);
        // A late answer to an older probe changes nothing.
        shared.answer(1, 7);
        assert_eq!(shared.answer_of(2), Some(-5));
    }
}
