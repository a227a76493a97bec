//! The root of every search: the null-window probes that narrow a position's score
//! ([`Solver::solve`] and its bounded forms, the weak solve, [`Solver::is_at_most_within`]), and a
//! search's limits, armed at the root and looked at as it goes; the search below the root is
//! negamax.rs.

use super::bitboard::Bitboard;
use super::error::SolverError;
use super::limits::{Limits, CHECK_INTERVAL};
use super::parallel::{Team, PARALLEL_MIN_NODES, TEAM_CHECK_INTERVAL};
use super::position::Position;
use super::score::{Score, Verdict};
use super::state::{Board, Solver};

/// The root probes the sign first once the score is known to lie in a range this wide around
/// zero (28% fewer nodes on begin-hard, 11% more on begin-medium than halving alone).
const SIGN_FIRST_RANGE: i32 = 16;

/// Once the sign is known and the score lies in a range this narrow, the root probes the score
/// nearest zero first instead of halving (13% fewer nodes on the empty board, 3% fewer on
/// begin-hard, 1% more on begin-medium; 2 to 8 were tried).
const NEAREST_FIRST_RANGE: i32 = 4;

/// With at most this many empty cells (the children that `analyze` searches past the book, and
/// the middle game) the root probes the sign first from any range, and the score nearest zero
/// once the range is at most [`LATE_NEAREST_FIRST_RANGE`] wide: every later probe reuses the
/// sign's, and the probes that halve a wide range first cost more than they save there. On
/// `analyze` of 600 and 480 random positions of 13 to 24 stones, 4.9% and 6.4% fewer nodes;
/// 1.9% fewer on the middle-medium sample, the same on begin-medium. From 30 empty cells on,
/// begin-medium took up to 9% more.
const LATE_EMPTY: i32 = 28;

/// The nearest-first range of positions with at most [`LATE_EMPTY`] empty cells (from 10 on, the
/// middle-easy sample took twice the nodes: stepping one score at a time to a fast win).
const LATE_NEAREST_FIRST_RANGE: i32 = 8;

impl Solver {
    /// The exact score of `position`.
    pub fn solve<B: Bitboard>(&mut self, position: &Position<B>) -> Score {
        self.solve_within(position, &Limits::default())
            .expect("a search without limits always finishes")
    }

    /// The exact score of `position`, unless `limits` stop the search first.
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] with the bounds proven so far.
    pub fn solve_within<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        limits: &Limits,
    ) -> Result<Score, SolverError> {
        self.solve_between(position, Score::new(i8::MIN), Score::new(i8::MAX), limits)
    }

    /// [`solve_within`](Self::solve_within) for a position whose score is already known to lie
    /// in `known_lower..=known_upper` (from an interrupted search): the search skips the windows
    /// outside. Bounds that are wrong give a wrong score. The book's scores of the position's
    /// parents raise the floor too (`known_floor`).
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] with the bounds proven so far.
    pub fn solve_between<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        known_lower: Score,
        known_upper: Score,
        limits: &Limits,
    ) -> Result<Score, SolverError> {
        self.solve_range(position, known_lower, known_upper, None, limits)
    }

    /// [`solve_within`](Self::solve_within) for a position known to score at least `floor`
    /// and likely exactly that, as minus a parent's score is (the parent's best move leads
    /// here): the floor is probed first, as the book's own floors are. A wrong floor gives a
    /// wrong score.
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] with the bounds proven so far.
    pub(crate) fn solve_above<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        floor: Score,
        limits: &Limits,
    ) -> Result<Score, SolverError> {
        let (lowest, highest) = (Score::new(i8::MIN), Score::new(i8::MAX));
        self.solve_range(position, lowest, highest, Some(floor), limits)
    }

    /// The search of [`solve_between`](Self::solve_between) and
    /// [`solve_above`](Self::solve_above), `likely_floor` being the latter's floor.
    fn solve_range<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        known_lower: Score,
        known_upper: Score,
        likely_floor: Option<Score>,
        limits: &Limits,
    ) -> Result<Score, SolverError> {
        let (mut lower, mut upper) = match terminal_score(position) {
            Some(score) => return Ok(Score::new(score as i8)),
            None => root_bounds(position),
        };
        if let Some(score) = self.book_score(position) {
            return Ok(score);
        }
        // The book's floor is often the score itself (a parent's best move leads here), so when
        // it is the bound that binds it is probed first. Measured on `analyze` of 60 ply-9
        // positions with the depth-9 book: the floor took 9% of the nodes off, probing it first
        // 8% more; on solving ply-10 positions 22-27% and then -3% to +0.5%.
        let floor = self
            .known_floor(position)
            .max(likely_floor)
            .filter(|&f| f > known_lower);
        let known_lower = floor.unwrap_or(known_lower);
        lower = lower.max(i32::from(known_lower.value())).min(upper);
        let mut floor_first = floor.is_some_and(|f| i32::from(f.value()) == lower);
        upper = upper.min(i32::from(known_upper.value())).max(lower);
        let empty = (position.geometry().area() - position.moves_played()) as i32;
        let (sign_first_range, nearest_first_range) = if empty <= LATE_EMPTY {
            (i32::MAX, LATE_NEAREST_FIRST_RANGE)
        } else {
            (SIGN_FIRST_RANGE, NEAREST_FIRST_RANGE)
        };
        self.arm(position, limits);
        while lower < upper {
            // Pons' probe order: halve towards zero from the far ends first, since windows far
            // from the score are cheap and rule out fast wins and losses...
            let mut middle = lower + (upper - lower) / 2;
            if middle <= 0 && lower / 2 < middle {
                middle = lower / 2;
            } else if middle >= 0 && upper / 2 > middle {
                middle = upper / 2;
            }
            // ...but once the score is known to be small, prove its sign first: near-draw
            // positions spend most of their search there, and every later window reuses it.
            if lower <= 0 && upper >= 1 && upper - lower <= sign_first_range {
                middle = 0;
            } else if upper - lower <= nearest_first_range {
                // The sign is known and the score is small: try the bound nearest zero, where
                // the scores of such positions gather.
                middle = if lower >= 1 { lower } else { upper - 1 };
            }
            if floor_first {
                middle = lower;
                floor_first = false;
            }
            let result = self.probe(position, middle, middle + 1);
            if self.interrupted {
                self.dismiss_helpers();
                return Err(SolverError::Interrupted {
                    lower: Score::new(lower as i8),
                    upper: Score::new(upper as i8),
                });
            }
            if result <= middle {
                upper = result;
            } else {
                lower = result;
            }
        }
        self.dismiss_helpers();
        Ok(Score::new(lower as i8))
    }

    /// Whether the side to move scores at most `bound`: one null-window search, much cheaper than
    /// the exact score, for checking that a move keeps a known score.
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] when `limits` end the search first.
    pub fn is_at_most_within<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        bound: Score,
        limits: &Limits,
    ) -> Result<bool, SolverError> {
        let bound = i32::from(bound.value());
        if let Some(score) = terminal_score(position) {
            return Ok(score <= bound);
        }
        let (lower, upper) = root_bounds(position);
        if bound >= upper {
            return Ok(true);
        }
        if bound < lower {
            return Ok(false);
        }
        if let Some(score) = self.book_score(position) {
            return Ok(i32::from(score.value()) <= bound);
        }
        if self
            .known_floor(position)
            .is_some_and(|floor| i32::from(floor.value()) > bound)
        {
            return Ok(false);
        }
        self.arm(position, limits);
        let result = self.probe(position, bound, bound + 1);
        self.dismiss_helpers();
        if self.interrupted {
            return Err(SolverError::Interrupted {
                lower: Score::new(lower as i8),
                upper: Score::new(upper as i8),
            });
        }
        Ok(result <= bound)
    }

    /// Who wins `position` with perfect play; faster than [`solve`](Self::solve).
    #[cfg(test)]
    pub(crate) fn solve_weak<B: Bitboard>(&mut self, position: &Position<B>) -> Verdict {
        self.solve_weak_within(position, &Limits::default())
            .expect("a search without limits always finishes")
    }

    /// Who wins `position`, unless `limits` stop the search first.
    ///
    /// # Errors
    /// [`SolverError::Interrupted`] with the bounds proven so far (the full range: a weak search
    /// is a single probe).
    pub fn solve_weak_within<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        limits: &Limits,
    ) -> Result<Verdict, SolverError> {
        if let Some(score) = terminal_score(position) {
            return Ok(Score::new(score as i8).verdict());
        }
        if let Some(score) = self.book_score(position) {
            return Ok(score.verdict());
        }
        let (lower, upper) = root_bounds(position);
        self.arm(position, limits);
        let result = self.probe(position, -1, 1);
        self.dismiss_helpers();
        if self.interrupted {
            return Err(SolverError::Interrupted {
                lower: Score::new(lower as i8),
                upper: Score::new(upper as i8),
            });
        }
        Ok(Score::new(result.signum() as i8).verdict())
    }

    pub(super) fn arm<B: Bitboard>(&mut self, position: &Position<B>, limits: &Limits) {
        // Left over only by a search that panicked.
        self.dismiss_helpers();
        let board = Board::of(position);
        if self.board != Some(board) {
            self.clear_tables();
            self.board = Some(board);
        }
        // Mirror images meet often only below a symmetric root (the empty board, `44`...);
        // elsewhere folding keys costs more time than the few transpositions it finds.
        self.mirror =
            self.fold_mirrors || position.geometry().mirror_key(position.key()) == position.key();
        self.book_depth = match (&self.book, position.narrowed()) {
            (Some(book), Some(narrow)) if book.fits(&narrow) => book.depth() as i32,
            _ => -1,
        };
        self.interrupted = false;
        self.limits = limits.clone();
        self.limits_start = self.nodes;
        self.parallel_from = if self.threads > 1 {
            self.nodes + PARALLEL_MIN_NODES
        } else {
            u64::MAX
        };
        // A search started after its `stop` (or past its deadline) ends at its first node
        // rather than after `CHECK_INTERVAL` of them.
        self.next_check = if limits.is_unbounded() {
            u64::MAX
        } else if limits.is_called_off() {
            self.nodes
        } else {
            self.nodes + CHECK_INTERVAL
        }
        .min(self.parallel_from);
    }

    /// Whether a limit has been reached or another thread has answered the probe; sets
    /// `interrupted` if so. Calls the helpers in once the search is long enough.
    #[cold]
    pub(super) fn check_limits(&mut self) -> bool {
        let limits = &self.limits;
        self.interrupted = limits
            .max_nodes
            .is_some_and(|n| self.nodes - self.limits_start >= n)
            || limits.is_called_off()
            || self.team.as_ref().is_some_and(Team::is_answered);
        if !self.interrupted && self.team.is_none() && self.nodes >= self.parallel_from {
            self.parallel_from = u64::MAX;
            self.call_helpers();
            // The probe starts again with the helpers, so that this thread marks its path as
            // busy too; what it has proven so far is in the table.
            self.restart = self.team.is_some();
            self.interrupted = self.restart;
        }
        self.next_check = self.nodes
            + if self.team.is_some() {
                TEAM_CHECK_INTERVAL
            } else {
                CHECK_INTERVAL
            };
        self.interrupted
    }

    /// Searches `position` in the window `alpha..beta`, with the helpers once the search has
    /// taken [`PARALLEL_MIN_NODES`] nodes; `interrupted` afterwards only if the limits stopped it.
    fn probe<B: Bitboard>(&mut self, position: &Position<B>, alpha: i32, beta: i32) -> i32 {
        self.probe = Some((position.widened(), alpha, beta));
        self.last_probe = Some((position.key().to_u128(), alpha));
        if self.team.is_some() {
            self.call_helpers();
        }
        let mut result = self.search(position, alpha, beta);
        if std::mem::take(&mut self.restart) {
            self.interrupted = false;
            result = self.search(position, alpha, beta);
        }
        let Some(team) = &self.team else {
            return result;
        };
        if !self.interrupted {
            team.shared.answer(team.generation, result);
            result
        } else if let Some(answer) = team.shared.answer_of(team.generation) {
            // A helper finished first.
            self.interrupted = false;
            answer
        } else {
            result
        }
    }
}

/// The score of a position without search: finished, or won with the next stone.
pub(super) fn terminal_score<B: Bitboard>(position: &Position<B>) -> Option<i32> {
    let area = position.geometry().area() as i32;
    let moves = position.moves_played() as i32;
    if position.is_won() {
        // The side that just moved won on ply `moves` (see the module's score convention).
        Some(-((area + 2 - moves) / 2))
    } else if position.is_full() {
        Some(0)
    } else if position.can_win_next() {
        Some((area + 1 - moves) / 2)
    } else {
        None
    }
}

/// The widest score range of a position the side to move cannot win at once.
pub(super) fn root_bounds<B: Bitboard>(position: &Position<B>) -> (i32, i32) {
    let area = position.geometry().area() as i32;
    let moves = position.moves_played() as i32;
    (-(area - moves) / 2, (area + 1 - moves) / 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Instant;
    use crate::solver::book::{canonical_key, Book};
    use crate::solver::exhaustive::{exhaustive, position_from, random_games};
    use proptest::prelude::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn scores_on_4x4_match_exhaustive_search(
            columns in proptest::collection::vec(0u8..4, 40),
            stones in 4u32..12,
        ) {
            let position: Position = position_from(4, 4, &columns, stones);
            let mut solver = Solver::with_table_bits(18);
            let expected = exhaustive(&position);
            prop_assert_eq!(i32::from(solver.solve(&position).value()), expected);
            prop_assert_eq!(solver.solve_weak(&position).sign(), expected.signum() as i8);
        }

        #[test]
        fn scores_on_5x4_match_exhaustive_search(
            columns in proptest::collection::vec(0u8..5, 60),
            stones in 11u32..18,
        ) {
            let position: Position = position_from(5, 4, &columns, stones);
            let mut solver = Solver::with_table_bits(18);
            prop_assert_eq!(i32::from(solver.solve(&position).value()), exhaustive(&position));
            let scores = solver.analyze(&position);
            for column in 0..5u32 {
                let expected = position.can_play(column).then(|| {
                    if position.is_winning_move(column) {
                        (20 + 1 - position.moves_played() as i32) / 2
                    } else {
                        let mut child = position;
                        child.play_column(column).unwrap();
                        -exhaustive(&child)
                    }
                });
                prop_assert_eq!(scores[column as usize].map(|s| i32::from(s.value())), expected);
            }
        }
    }

    #[test]
    fn a_won_position_scores_by_the_convention_on_boards_of_either_parity() {
        // x connects with its 4th stone on ply 7: 18 on 7x6 (42 cells), 10 on 5x5 (25 cells),
        // as a win one stone earlier scores for the side about to make it.
        for (width, height, score) in [(7, 6, 18), (5, 5, 10)] {
            let mut position = Position::<u64>::new(width, height).unwrap();
            for column in [0, 1, 0, 1, 0, 1] {
                position.play_column(column).unwrap();
            }
            let mut solver = Solver::with_table_bits(16);
            assert_eq!(i32::from(solver.solve(&position).value()), score);
            position.play_column(0).unwrap();
            assert_eq!(i32::from(solver.solve(&position).value()), -score);
        }
    }

    #[test]
    fn known_bounds_and_a_book_score_narrow_the_search_not_the_answer() {
        // 5x4 positions with ten stones from random games, scored exhaustively: solving inside
        // any bounds that hold finds the same score, and so does analysing them with a book
        // that holds them (each column then starts at the floor its parents' scores give).
        let mut positions = Vec::new();
        random_games(5, 4, 60, 0x5851_f42d_4c95_7f2d, |position| {
            if position.moves_played() == 10 {
                positions.push((*position, exhaustive(position)));
            }
        });
        assert!(positions.len() >= 20, "{}", positions.len());
        let entries = positions
            .iter()
            .map(|(p, score)| (canonical_key(p), Score::new(*score as i8)));
        let book = Arc::new(Book::from_scores(5, 4, 10, entries.collect::<Vec<_>>()).unwrap());
        let (mut analyzed, mut analyzed_plain) = (0, 0);
        let (mut bounded_nodes, mut floor_first_nodes) = (0, 0);
        for (position, score) in &positions {
            for (below, above) in [(0, 0), (3, 0), (0, 2), (1, 1), (20, 20)] {
                let mut solver = Solver::with_table_bits(16);
                let found = solver.solve_between(
                    position,
                    Score::new((score - below) as i8),
                    Score::new((score + above) as i8),
                    &Limits::default(),
                );
                assert_eq!(found.unwrap().value() as i32, *score, "{position:?}");
                let mut solver = Solver::with_table_bits(16);
                let floor = Score::new((score - below) as i8);
                let found = solver.solve_above(position, floor, &Limits::default());
                assert_eq!(found.unwrap().value() as i32, *score, "{position:?}");
            }
            // A floor that is the score is probed first: one search proves it.
            let exact = Score::new(*score as i8);
            let mut bounded = Solver::with_table_bits(16);
            bounded
                .solve_between(position, exact, Score::new(i8::MAX), &Limits::default())
                .unwrap();
            let mut from_floor = Solver::with_table_bits(16);
            from_floor
                .solve_above(position, exact, &Limits::default())
                .unwrap();
            bounded_nodes += bounded.nodes();
            floor_first_nodes += from_floor.nodes();
            let mut plain = Solver::with_table_bits(16);
            let mut with_book = Solver::with_table_bits(16);
            with_book.set_book(Some(Arc::clone(&book)));
            assert_eq!(
                with_book.analyze(position),
                plain.analyze(position),
                "{position:?}"
            );
            analyzed += with_book.nodes();
            analyzed_plain += plain.nodes();
            for column in (0..5).filter(|&c| position.can_play(c) && !position.is_winning_move(c)) {
                let mut child = *position;
                child.play_column(column).unwrap();
                let floor = with_book
                    .known_floor(&child)
                    .expect("the position is a parent");
                assert!(floor.value() as i32 >= -score, "{child:?}");
                assert!(floor.value() as i32 <= exhaustive(&child), "{child:?}");
                // A bound under the floor is answered without a search.
                let nodes = with_book.nodes();
                let below = Score::new(floor.value() - 1);
                assert_eq!(
                    with_book.is_at_most_within(&child, below, &Limits::default()),
                    Ok(false)
                );
                assert_eq!(with_book.nodes(), nodes);
            }
        }
        assert!(
            floor_first_nodes < bounded_nodes,
            "{floor_first_nodes} nodes from the floor, {bounded_nodes} merely bounded by it"
        );
        // The floors narrowed the columns' searches.
        assert!(
            analyzed < analyzed_plain,
            "{analyzed} nodes with the book, {analyzed_plain} without"
        );
    }

    #[test]
    fn a_new_board_size_does_not_read_the_last_ones_table() {
        // The same key means different positions on 4x5 and 5x4.
        let mut fresh = Solver::with_table_bits(18);
        let expected = fresh.analyze(&Position::<u64>::new(5, 4).unwrap());
        let mut reused = Solver::with_table_bits(18);
        reused.analyze(&Position::<u64>::new(4, 5).unwrap());
        assert_eq!(
            reused.analyze(&Position::<u64>::new(5, 4).unwrap()),
            expected
        );
    }

    #[test]
    fn the_4x4_board_is_a_draw() {
        let mut solver = Solver::with_table_bits(18);
        assert_eq!(
            solver.solve(&Position::<u64>::new(4, 4).unwrap()),
            Score::DRAW
        );
    }

    #[test]
    fn scores_follow_the_convention() {
        let mut solver = Solver::with_table_bits(18);
        let pos = |moves: &[u8]| Position::<u64>::from_moves(7, 6, moves).unwrap();
        // `4455`: the first player wins with its fourth stone.
        assert_eq!(solver.solve(&pos(&[3, 3, 4, 4])).value(), 18);
        // Three stones in column 1: win at once with the fourth.
        assert_eq!(solver.solve(&pos(&[0, 1, 0, 1, 0, 1])).value(), 18);
        let (score, column) = solver.solve_best(&pos(&[0, 1, 0, 1, 0, 1]));
        assert_eq!((score.value(), column), (18, Some(0)));
        assert_eq!(solver.best_columns(&pos(&[0, 1, 0, 1, 0, 1])), [0]);
        // After a win the side to move has lost: 22 - 4 stones.
        assert_eq!(solver.solve(&pos(&[0, 1, 0, 1, 0, 1, 0])).value(), -18);
        assert_eq!(solver.analyze(&pos(&[0, 1, 0, 1, 0, 1, 0])), vec![None; 7]);
    }

    #[test]
    fn limits_interrupt_a_long_search() {
        let position = Position::<u64>::from_moves(7, 6, &[3, 3]).unwrap();
        let mut solver = Solver::with_table_bits(18);
        // The opening book would answer at once: the search is what is under test.
        let few_nodes = Limits {
            max_nodes: Some(10_000),
            ..Limits::default()
        };
        match solver.solve_within(&position, &few_nodes) {
            Err(SolverError::Interrupted { lower, upper }) => assert!(lower <= upper),
            other => panic!("expected an interruption, got {other:?}"),
        }
        assert!(solver.nodes() < 20_000);

        let stop = Arc::new(AtomicBool::new(true));
        let stopped = Limits {
            stop: Some(stop),
            ..Limits::default()
        };
        assert!(solver.solve_weak_within(&position, &stopped).is_err());
        let past = Limits {
            deadline: Some(Instant::now()),
            ..Limits::default()
        };
        assert!(solver.analyze_within(&position, &past).is_err());

        // A finished limit leaves the solver usable for an exact search.
        let easy = Position::<u64>::from_moves(7, 6, &[3, 3, 4, 4]).unwrap();
        assert_eq!(solver.solve(&easy).value(), 18);
    }
}
