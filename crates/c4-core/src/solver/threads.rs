//! A solver's threads: its helpers, called into a probe and dismissed, a helper's life, the busy
//! marks by which the threads split a node's moves (the machinery they share is parallel.rs), and
//! searches side by side, each thread on its own position (shared out as pool.rs shares work).

use std::sync::Arc;

use super::bitboard::Bitboard;
use super::error::SolverError;
use super::limits::Limits;
use super::parallel::{
    busy_key, Claim, Helpers, Probe, Shared, Team, TEAM_CHECK_INTERVAL, TEAM_NEAR_LEAF_EMPTY,
};
use super::pool::{share_work, Pace};
use super::position::Position;
use super::score::Score;
use super::state::{Board, Solver, NEAR_LEAF_EMPTY};

impl Solver {
    /// The solver of thread `index` of a search side by side: the same table, the near-leaf
    /// table of this solver (thread 0) or of helper `index - 1`, its own counters. Starts the
    /// helpers if need be, for their tables.
    fn side_by_side_solver(&mut self, index: usize) -> Solver {
        let near_leaf = match index.checked_sub(1) {
            None => Arc::clone(&self.near_leaf),
            Some(helper) => Arc::clone(&self.helpers().near_leaf[helper]),
        };
        Solver::on_tables(
            Arc::clone(&self.table),
            near_leaf,
            self.board,
            self.book.clone(),
        )
    }

    /// This solver's helpers, started if need be.
    fn helpers(&mut self) -> &Helpers {
        let table = &self.table;
        self.helpers.get_or_insert_with(|| {
            Helpers::start(self.threads - 1, |near_leaf| {
                let solver =
                    Solver::on_tables(Arc::clone(table), Arc::clone(near_leaf), None, None);
                move |shared: Arc<Shared>| solver.serve(&shared)
            })
        })
    }

    /// Solves `searches` (each a position with the least and the greatest score it is known to
    /// have) on this solver's threads at once: each thread takes the next search when it has
    /// finished one, all on the shared table, each search within the limits `limits` gives as it
    /// starts. `found` gets, on this thread, each search's index and result as it comes, with
    /// this solver's node count so far, and says whether to start more: once it has said no,
    /// none starts. (For `analyze`, helpers joining each column's search in turn did no better:
    /// on 20 begin-hard positions without the book, 76 / 95 ms against 76 / 74 ms side by side,
    /// two runs each.) A panic in a search is a bug: it stops the other threads and reaches the
    /// caller once they have finished the search they were on.
    pub(crate) fn solve_side_by_side<B: Bitboard>(
        &mut self,
        searches: &[(Position<B>, Score, Score)],
        limits: &(dyn Fn() -> Limits + Sync),
        mut found: impl FnMut(usize, Result<Score, SolverError>, u64) -> bool,
    ) {
        let Some((first, ..)) = searches.first() else {
            return;
        };
        // Settles the board first, so that no thread clears the shared table under another.
        self.arm(first, &limits());
        let mut solvers: Vec<Solver> = (0..self.threads.min(searches.len()))
            .map(|index| self.side_by_side_solver(index))
            .collect();
        share_work(
            &mut solvers,
            searches.len(),
            1,
            Pace::Answered,
            |solver, index| {
                let (position, lower, upper) = searches[index];
                let before = solver.nodes;
                let result = solver.solve_between(&position, lower, upper, &limits());
                (result, solver.nodes - before)
            },
            |index, (result, nodes)| {
                self.nodes += nodes;
                found(index, result, self.nodes)
            },
        );
    }

    /// Hands the probe this thread is searching to the helpers, starting them if need be.
    pub(super) fn call_helpers(&mut self) {
        let Some((position, alpha, beta)) = self.probe else {
            return;
        };
        let (mirror, book, book_depth) = (self.mirror, self.book.clone(), self.book_depth);
        let helpers = self.helpers();
        let generation = helpers.crew.publish(Probe {
            position,
            alpha,
            beta,
            mirror,
            book,
            book_depth,
        });
        self.team = Some(Team {
            shared: Arc::clone(helpers.crew.shared()),
            generation,
        });
        self.near_leaf_empty = TEAM_NEAR_LEAF_EMPTY;
    }

    /// Stops the helpers' search, waits until they have left the tables, and counts their
    /// nodes in.
    pub(super) fn dismiss_helpers(&mut self) {
        self.near_leaf_empty = NEAR_LEAF_EMPTY;
        if let (Some(team), Some(helpers)) = (self.team.take(), &self.helpers) {
            self.nodes += helpers.crew.finish(team.generation);
        }
        self.probe = None;
    }

    /// A helper thread's life: searches each probe handed out, until the crew is dropped.
    fn serve(mut self, shared: &Arc<Shared>) {
        let mut seen = 0;
        while let Some(turn) = shared.next_probe(&mut seen) {
            let probe = &turn.probe;
            let (position, alpha, beta) = (probe.position, probe.alpha, probe.beta);
            self.board = Some(Board::of(&position));
            self.mirror = probe.mirror;
            self.book = probe.book.clone();
            self.book_depth = probe.book_depth;
            self.team = Some(Team {
                shared: Arc::clone(shared),
                generation: turn.generation,
            });
            self.near_leaf_empty = TEAM_NEAR_LEAF_EMPTY;
            self.interrupted = false;
            self.next_check = self.nodes + TEAM_CHECK_INTERVAL;
            let before = self.nodes;
            let result = self.search(&position, alpha, beta);
            let score = (!self.interrupted).then_some(result);
            turn.done(score, self.nodes - before);
        }
    }

    /// Marks the position of `key` as this thread's in the probe's busy table.
    #[inline]
    pub(super) fn claim<K: Bitboard>(&self, key: K) -> Claim {
        self.team.as_ref().map_or(Claim::Unmarked, |team| {
            team.shared.busy.claim(busy_key(key))
        })
    }

    /// Unmarks a position this thread [`claim`](Self::claim)ed.
    #[inline]
    pub(super) fn release<K: Bitboard>(&self, key: K) {
        if let Some(team) = &self.team {
            team.shared.busy.release(busy_key(key));
        }
    }

    /// Whether no other thread is searching on this solver's tables: the only other holders are
    /// its helpers, asleep.
    #[cfg(test)]
    pub(super) fn is_alone_on_tables(&self) -> bool {
        let (helpers, searching) = self
            .helpers
            .as_ref()
            .map_or((0, 0), |h| (h.crew.helpers(), h.crew.searching()));
        Arc::strong_count(&self.table) == 1 + helpers && searching == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::exhaustive::random_games;
    use crate::solver::parallel::PARALLEL_MIN_NODES;
    use crate::solver::score::Verdict;

    #[test]
    fn helpers_join_a_long_search_and_stop_with_it() {
        // `36641613257` from the begin-medium set: score 6, about 150,000 nodes alone without
        // the book (which holds it).
        let columns: Vec<u8> = b"36641613257".iter().map(|c| c - b'1').collect();
        let position = Position::<u64>::from_moves(7, 6, &columns).unwrap();
        let mut alone = Solver::with_table_bits(20);
        let expected = alone.solve(&position);
        assert_eq!(expected.value(), 6);
        let mut pair = Solver::with_table_bits(20);
        pair.set_threads(2);
        assert_eq!(pair.solve(&position), expected);
        assert!(pair.nodes() > PARALLEL_MIN_NODES);
        // Single probes take the helpers too.
        pair.reset();
        assert_eq!(pair.solve_weak(&position), Verdict::Win);
        for bound in [5, 6] {
            pair.reset();
            let at_most = pair.is_at_most_within(&position, Score::new(bound), &Limits::default());
            assert_eq!(at_most, Ok(bound >= 6));
            assert!(pair.is_alone_on_tables());
        }

        pair.reset();
        // Just past the helpers' start, on the empty board (billions of nodes): on the position
        // above, a loaded machine let the helpers fill the table so fast that the main thread
        // finished before its limit.
        let few_nodes = Limits {
            max_nodes: Some(PARALLEL_MIN_NODES + 1_000),
            ..Limits::default()
        };
        let empty = Position::<u64>::new(7, 6).unwrap();
        assert!(pair.solve_within(&empty, &few_nodes).is_err());
        // The helpers have stopped: no other thread is on the tables.
        assert!(pair.is_alone_on_tables());
        assert_eq!(pair.solve(&position), expected);
    }

    #[test]
    fn searches_side_by_side_keep_their_bounds_and_stop_when_told() {
        // Positions of 5x4 games with few stones, each a search of some length.
        let mut positions = Vec::new();
        random_games(5, 4, 8, 0x51de, |p| {
            if p.moves_played() == 3 {
                positions.push(*p);
            }
        });
        let mut alone = Solver::with_table_bits(18);
        let exact: Vec<Score> = positions.iter().map(|p| alone.solve(p)).collect();
        let around = |score: Score, below: i8, above: i8| {
            (
                Score::new(score.value() - below),
                Score::new(score.value() + above),
            )
        };
        let mut searches: Vec<(Position, Score, Score)> = positions
            .iter()
            .zip(&exact)
            .map(|(p, &s)| {
                let (lower, upper) = around(s, 2, 1);
                (*p, lower, upper)
            })
            .collect();
        // Bounds that are wrong give a wrong score: this one shows that they are used.
        let (wrong, _) = around(exact[0], -1, 0);
        searches[0] = (positions[0], wrong, wrong);
        let mut pair = Solver::with_table_bits(18);
        pair.set_threads(2);
        let mut found = vec![None; searches.len()];
        let mut last_nodes = 0;
        pair.solve_side_by_side(&searches, &Limits::default, |index, result, nodes| {
            assert!(nodes >= last_nodes);
            last_nodes = nodes;
            found[index] = Some(result.unwrap());
            true
        });
        let mut expected: Vec<Option<Score>> = exact.iter().copied().map(Some).collect();
        expected[0] = Some(wrong);
        assert_eq!(found, expected);
        assert_eq!(pair.nodes(), last_nodes);
        assert!(last_nodes > 0);
        // Told to stop at the first result, no search starts after it: each thread finishes at
        // most the one it had started (the searches are short, so without the wait for the
        // answer the threads would have raced through most of them).
        let mut quick: Vec<(Position, Score, Score)> = Vec::new();
        random_games(5, 4, 40, 0x9a1e, |p| {
            if p.moves_played() == 10 {
                quick.push((*p, Score::new(i8::MIN), Score::new(i8::MAX)));
            }
        });
        let mut pair = Solver::with_table_bits(18);
        pair.set_threads(2);
        let mut results = 0;
        pair.solve_side_by_side(&quick, &Limits::default, |_, _, _| {
            results += 1;
            false
        });
        assert!((1..=2).contains(&results), "{results}");
        assert!(pair.is_alone_on_tables());
    }
}
