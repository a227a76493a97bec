//! Every column at once: [`Solver::analyze`], solving the columns in turn or side by side, and
//! the best move ([`Solver::solve_best`], [`Solver::best_columns`]).

use super::bitboard::Bitboard;
use super::error::SolverError;
use super::keys::{KeyForm, Keys, OneWordKeys, OneWordSharedKeys, TwoWordKeys};
use super::limits::Limits;
use super::order::centre_out;
use super::parallel::PARALLEL_MIN_NODES;
use super::position::Position;
use super::score::Score;
use super::state::Solver;

impl Solver {
    /// The exact score of every column for the side to move, after playing it (`None` where the
    /// column is full or the game is over).
    pub fn analyze<B: Bitboard>(&mut self, position: &Position<B>) -> Vec<Option<Score>> {
        self.analyze_within(position, &Limits::default())
            .expect("a search without limits always finishes")
    }

    /// [`analyze`](Self::analyze), unless `limits` stop the search first; the limits apply to
    /// the whole analysis. With more than one thread ([`set_threads`](Self::set_threads)) and no
    /// node limit, once the analysis has taken `PARALLEL_MIN_NODES` nodes the columns left are
    /// solved side by side, a column to a thread.
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] with the bounds of the leftmost column whose search was
    /// stopped.
    pub fn analyze_within<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        limits: &Limits,
    ) -> Result<Vec<Option<Score>>, SolverError> {
        let finished = position.is_won() || position.is_full();
        let area = position.geometry().area() as i32;
        let moves = position.moves_played() as i32;
        let mut scores = vec![None; position.width() as usize];
        // Centre first: there the searches are usually longest, so that threads side by side
        // end together, and their table entries serve the other columns.
        let columns = centre_out(position.width()).iter().map(|&c| u32::from(c));
        let child_of = |column: u32| {
            let mut child = *position;
            child.play_unchecked(position.cell_in(column));
            child
        };
        // The columns whose child the book may hold; at most 64, since `width * (height + 1)`
        // fits in a bitboard of 128 bits.
        let mut unknown = 0u64;
        for column in columns
            .clone()
            .filter(|&c| !finished && position.can_play(c))
        {
            scores[column as usize] = if position.is_winning_move(column) {
                Some(Score::new(((area + 1 - moves) / 2) as i8))
            } else if child_of(column).can_win_next() {
                // A child whose mover wins at once needs no search, nor a thread.
                Some(Score::new(-((area - moves) / 2) as i8))
            } else {
                unknown |= 1 << column;
                None
            };
        }
        let unknown = columns.filter(|&c| unknown >> c & 1 == 1);
        // The book's children together, so that their memory is read side by side; the
        // children are made again rather than kept, which would cost an allocation.
        let children = unknown.clone().map(|c| (c, child_of(c)));
        self.book_score_each(children, |column, score| {
            scores[column as usize] = Some(score.flipped());
        });
        let searched: Vec<_> = unknown
            .filter(|&c| scores[c as usize].is_none())
            .map(|c| (c, child_of(c)))
            .collect();
        let mut found = if self.threads > 1 && limits.max_nodes.is_none() {
            self.solve_columns_side_by_side(&searched, limits)
        } else {
            self.solve_in_turn(&searched, limits)
        };
        found.sort_by_key(|&(column, _)| column);
        for (column, result) in found {
            let score = result.map_err(|e| match e {
                SolverError::Interrupted { lower, upper } => SolverError::Interrupted {
                    lower: upper.flipped(),
                    upper: lower.flipped(),
                },
                other => other,
            })?;
            scores[column as usize] = Some(score.flipped());
        }
        Ok(scores)
    }

    /// The scores of `children` (each with the column that reaches it): in turn on this thread
    /// up to [`PARALLEL_MIN_NODES`] nodes in all, so that small analyses start no thread; then
    /// the one whose search that budget stopped and the ones after it side by side, or the last
    /// one with the helpers.
    fn solve_columns_side_by_side<B: Bitboard>(
        &mut self,
        children: &[(u32, Position<B>)],
        limits: &Limits,
    ) -> Vec<(u32, Result<Score, SolverError>)> {
        let until = self.nodes + PARALLEL_MIN_NODES;
        let (lowest, highest) = (Score::new(i8::MIN), Score::new(i8::MAX));
        let mut found = Vec::with_capacity(children.len());
        let mut left = Vec::new();
        for &(column, child) in children {
            let budget = Limits {
                max_nodes: Some(until.saturating_sub(self.nodes)),
                ..limits.clone()
            };
            // Stopped by the budget (or by the limits: then it stops again at once side by
            // side), a search goes on side by side within the bounds it has proven.
            match left.is_empty().then(|| self.solve_within(&child, &budget)) {
                Some(Err(SolverError::Interrupted { lower, upper })) => {
                    left.push((column, (child, lower, upper)));
                }
                Some(result) => found.push((column, result)),
                None => left.push((column, (child, lowest, highest))),
            }
        }
        if let [(column, (child, lower, upper))] = left[..] {
            found.push((column, self.solve_between(&child, lower, upper, limits)));
        } else if !left.is_empty() {
            let searches: Vec<_> = left.iter().map(|&(_, search)| search).collect();
            self.solve_side_by_side(&searches, &|| limits.clone(), |index, result, _| {
                let solved = result.is_ok();
                found.push((left[index].0, result));
                solved
            });
        }
        found
    }

    /// The scores of `children` (each with the column that reaches it), one after the other,
    /// within one budget of nodes, up to the first that fails.
    fn solve_in_turn<B: Bitboard>(
        &mut self,
        children: &[(u32, Position<B>)],
        limits: &Limits,
    ) -> Vec<(u32, Result<Score, SolverError>)> {
        let start = self.nodes;
        let mut found = Vec::with_capacity(children.len());
        for (column, child) in children {
            let shared = Limits {
                max_nodes: limits
                    .max_nodes
                    .map(|n| n.saturating_sub(self.nodes - start)),
                ..limits.clone()
            };
            let result = self.solve_within(child, &shared);
            let failed = result.is_err();
            found.push((*column, result));
            if failed {
                break;
            }
        }
        found
    }

    /// The exact score of `position` and one column (0-based) that reaches it, `None` if the
    /// game is over. The column comes from the search's own table when it proved the score,
    /// else from [`analyze`](Self::analyze).
    pub fn solve_best<B: Bitboard>(&mut self, position: &Position<B>) -> (Score, Option<u32>) {
        let score = self.solve(position);
        if position.is_won() || position.is_full() {
            return (score, None);
        }
        if let Some(column) = (0..position.width()).find(|&c| position.is_winning_move(c)) {
            return (score, Some(column));
        }
        let proven = match self.key_form(position.geometry()) {
            KeyForm::OneWord => self.proven_column::<B, OneWordKeys>(position, score),
            KeyForm::OneWordShared => self.proven_column::<B, OneWordSharedKeys>(position, score),
            KeyForm::TwoWord => self.proven_column::<B, TwoWordKeys>(position, score),
        };
        // The table's move proved the score's lower bound; one more (mostly cached) solve
        // confirms it rather than trusting that no later store replaced it.
        if let Some(column) = proven {
            let mut child = *position;
            child.play_unchecked(position.cell_in(column));
            if self.solve(&child).flipped() == score {
                return (score, Some(column));
            }
        }
        (score, self.best_columns(position).first().copied())
    }

    /// The column the table holds for `position`, under keys of form `K`, when its bounds prove
    /// `score`.
    fn proven_column<B: Bitboard, K: Keys>(
        &self,
        position: &Position<B>,
        score: Score,
    ) -> Option<u32> {
        let geometry = position.geometry();
        let (table_key, flipped) = self.table_key(geometry, position.key());
        let empty = (geometry.area() - position.moves_played()) as i32;
        let known = self.known::<B, K>(empty, table_key)?;
        // A column off the board (a damaged shared table's) is no answer.
        let column = known.best.filter(|&c| c < geometry.width)?;
        let column = if flipped {
            geometry.width - 1 - column
        } else {
            column
        };
        (known.lower == i32::from(score.value())).then_some(column)
    }

    /// The columns (0-based) that reach the best score, left to right; empty if the game is over.
    pub(crate) fn best_columns<B: Bitboard>(&mut self, position: &Position<B>) -> Vec<u32> {
        let scores = self.analyze(position);
        let best = scores.iter().flatten().max().copied();
        (0..position.width())
            .filter(|&c| best.is_some() && scores[c as usize] == best)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::book::{canonical_key, Book};
    use crate::solver::exhaustive::random_games;
    use std::collections::HashMap;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    #[test]
    fn columns_solved_side_by_side_score_as_one_thread_does() {
        // Positions of 14 and 15 stones from the bench samples and one with a full column and
        // a winning move, searched without the book so that both threads search, and 5x4
        // positions.
        let standard = |moves: &str| {
            let columns: Vec<u8> = moves.bytes().map(|c| c - b'1').collect();
            Position::from_moves(7, 6, &columns).unwrap()
        };
        let mut positions: Vec<Position> = [
            "55345757726261",
            "215663252132132",
            "236377362432737",
            "444444121212",
        ]
        .map(standard)
        .to_vec();
        random_games(5, 4, 10, 0x9e37_79b9, |p| positions.push(*p));
        for position in &positions {
            let mut alone = Solver::with_table_bits(18);
            let mut pair = Solver::with_table_bits(18);
            pair.set_threads(2);
            assert_eq!(
                pair.analyze(position),
                alone.analyze(position),
                "{position:?}"
            );
            // Both threads are done with the tables.
            assert!(pair.is_alone_on_tables());
        }
        let full = &positions[3];
        assert!(!full.can_play(3) && full.is_winning_move(0));
        // Inside the book nothing is searched, on any thread: a book of every child of `44`
        // (a mirror pair shares an entry; the scores do not matter here) answers each column.
        let opening = standard("44");
        let children: HashMap<u64, Score> = (0..7)
            .map(|column| {
                let mut child = opening;
                child.play_column(column).unwrap();
                (canonical_key(&child), Score::DRAW)
            })
            .collect();
        let mut pair = Solver::new();
        pair.set_book(Some(Arc::new(
            Book::from_scores(7, 6, 3, children).unwrap(),
        )));
        pair.set_threads(2);
        assert_eq!(pair.analyze(&opening), vec![Some(Score::DRAW); 7]);
        assert_eq!(pair.nodes(), 0);

        // Once a column's search is stopped, no other column starts: each of the two threads
        // looks at its limits at its first node, and ends a node or two later.
        let mut pair = Solver::with_table_bits(18);
        pair.set_threads(2);
        let stopped = Limits {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..Limits::default()
        };
        let opening = Position::<u64>::from_moves(7, 6, &[3, 3]).unwrap();
        match pair.analyze_within(&opening, &stopped) {
            Err(SolverError::Interrupted { lower, upper }) => assert!(lower <= upper),
            other => panic!("expected an interruption, got {other:?}"),
        }
        assert!(pair.nodes() <= 4, "{}", pair.nodes());
        assert!(pair.is_alone_on_tables());
    }
}
