//! What a stopped search leaves for the next: the proven table entries that a checkpoint saves
//! and restores, and how far the last probe got ([`ProbeProgress`]), read from the bounds on each
//! move's score that are known before any search of it.

use super::bitboard::Bitboard;
use super::error::SolverError;
use super::keys::{takes_two_words, KeyForm};
use super::negamax::{decided_at_once, Threats};
use super::position::Position;
use super::score::Score;
use super::state::{Board, Solver};
use super::table::{Table, LAYOUT};

/// How far a stopped search got in its last probe ([`Solver::probe_progress`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeProgress {
    /// The probe asked whether the score is above this.
    pub above: Score,
    /// The columns (bit 0: the leftmost) whose moves are known to score no more than `above`.
    pub ruled_out: u32,
    /// The columns that can be played.
    pub playable: u32,
}

impl ProbeProgress {
    /// The columns ruled out, leftmost first, numbered from 0.
    pub fn ruled_out_columns(&self) -> impl Iterator<Item = u32> + '_ {
        (0..u32::BITS).filter(|column| self.ruled_out >> column & 1 == 1)
    }
}

impl Solver {
    /// The version of the table's entry words (and of how keys are put in it): tables saved or
    /// shared by builds of another version cannot be read by this one.
    pub const TABLE_LAYOUT: u64 = LAYOUT;

    /// The size in words of the table that [`proven_entries`](Self::proven_entries) reads.
    pub fn table_words(&self) -> u64 {
        self.table.words() as u64
    }

    /// The version of the table's entry words that [`proven_entries`](Self::proven_entries)
    /// gives.
    pub fn table_layout(&self) -> u64 {
        LAYOUT
    }

    /// Whether [`restore_proven`](Self::restore_proven) reads entries of version `layout`: this
    /// build's, and version 1, which differs only in which boards' keys took two-word entries.
    pub fn reads_table_layout(&self, layout: u64) -> bool {
        layout == 1 || layout == LAYOUT
    }

    /// What the searches of `position` have proven so far that took about 2^`min_work` nodes or
    /// more: entries of the shared table, as (word index, word) pairs in rising order of index,
    /// read as they are taken, for [`restore_proven`](Self::restore_proven) in a later process,
    /// so that a search stopped by its limits can go on where it was. Reading a large table
    /// takes a moment (about a second per GiB).
    pub fn proven_entries<B: Bitboard>(
        &self,
        position: &Position<B>,
        min_work: u32,
    ) -> Box<dyn Iterator<Item = (u64, u64)> + '_> {
        if self.key_form(position.geometry()) == KeyForm::TwoWord {
            Box::new(self.table.proven_words::<u128>(min_work))
        } else {
            Box::new(self.table.proven_words::<u64>(min_work))
        }
    }

    /// Puts entries that [`proven_entries`](Self::proven_entries) of a build with table layout
    /// `layout` took for `position` (with a table of `table_words` words) back into this
    /// solver's table, emptied first, for searches of `position`. A table of another size, or
    /// whose entries take the keys in another form, takes them entry by entry, as a search
    /// stores them (a smaller one keeps what its buckets hold).
    ///
    /// # Errors
    /// [`SolverError::TableSize`]: the entries are not those of a table of `table_words` words
    /// and layout `layout` (one that [`reads_table_layout`](Self::reads_table_layout)), or
    /// their keys cannot be moved to a table of another size (a board of over 116 cells and
    /// sentinels saved from a table of under 2 GiB); the table is left empty.
    pub fn restore_proven<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        layout: u64,
        table_words: u64,
        entries: impl IntoIterator<Item = (u64, u64)>,
    ) -> Result<(), SolverError> {
        let words = self.table_words();
        self.clear_tables();
        let key_bits = position.geometry().key_bits();
        let wide = self.key_form(position.geometry()) == KeyForm::TwoWord;
        // The saved table chose the keys' form from its own size, as `key_form` does; version 1
        // also took two-word entries for every key longer than its near-leaf table's 56 bits (57
        // with threads, a length no board's keys have).
        let saved_wide = Table::exact_key_bits_of(table_words)
            .filter(|_| self.reads_table_layout(layout))
            .map(|exact| match layout {
                1 => key_bits > exact.min(56),
                _ => takes_two_words(key_bits, exact),
            });
        let table = &self.table;
        let restored = match (saved_wide, wide) {
            (None, _) => false,
            (Some(false), false) => table.restore::<u64, u64>(entries, table_words, key_bits),
            (Some(false), true) => table.restore::<u64, u128>(entries, table_words, key_bits),
            (Some(true), false) => table.restore::<u128, u64>(entries, table_words, key_bits),
            (Some(true), true) => table.restore::<u128, u128>(entries, table_words, key_bits),
        };
        if !restored {
            self.clear_tables();
            return Err(SolverError::TableSize {
                saved: table_words,
                words,
            });
        }
        self.board = Some(Board::of(position));
        Ok(())
    }

    /// How far the last probe of `position` got, once stopped: the score the probe asked to
    /// beat, and which moves cannot beat it, as the tables and the threats show (moves that let
    /// the opponent complete four at once among them). A probe that finds no better move must
    /// rule out every move, so on a long search this is its progress. `None` if this solver's
    /// last probe was of another position.
    pub fn probe_progress<B: Bitboard>(&self, position: &Position<B>) -> Option<ProbeProgress> {
        let (key, alpha) = self.last_probe?;
        if key != position.key().to_u128() {
            return None;
        }
        let candidates = position.non_losing_moves(Threats::of(position).opponent);
        let mut progress = ProbeProgress {
            above: Score::new(alpha as i8),
            ruled_out: 0,
            playable: 0,
        };
        for column in 0..position.geometry().width {
            let cell = position.cell_in(column);
            if cell == B::ZERO {
                continue;
            }
            progress.playable |= 1 << column;
            let mut child = *position;
            child.play_unchecked(cell);
            // A move scores minus its child's score, so at most minus the child's lower bound.
            if candidates & cell == B::ZERO || -self.known_bounds(&child).0 <= alpha {
                progress.ruled_out |= 1 << column;
            }
        }
        Some(progress)
    }

    /// The bounds on `position`'s score, lower and upper, that a search of it finds before it
    /// enters any move, as [`negamax`](Self::negamax) does: a score that the threats decide, the
    /// child's through a single move (such positions take no table entry), a move that wins with
    /// the stone after next, the follow-up bound after a move, the odd-threat bound of the
    /// position and after a move, a side left with no line to complete, and the tables' bounds.
    /// Needs that the side to move cannot win at once.
    fn known_bounds<B: Bitboard>(&self, position: &Position<B>) -> (i32, i32) {
        let area = position.geometry().area() as i32;
        let moves = position.moves_played() as i32;
        let threats = Threats::of(position);
        let candidates = position.non_losing_moves(threats.opponent);
        if let Some(score) = decided_at_once(position, threats, candidates) {
            return (score, score);
        }
        let win_after_next = (area - 1 - moves) / 2;
        let mut lower = -(area - 2 - moves) / 2;
        let mut upper = win_after_next;
        for column in 0..position.geometry().width {
            let cell = candidates & position.cell_in(column);
            if cell == B::ZERO {
                continue;
            }
            let created = position.winning_cells_after(cell);
            if position.leaves_two_playable_threats(cell, created) {
                return (win_after_next, win_after_next);
            }
            let mut child = *position;
            child.play_unchecked(cell);
            if candidates == cell {
                let (child_lower, child_upper) = self.known_bounds(&child);
                return (-child_upper, -child_lower);
            }
            if let Some(bound) = child.follow_up_bound() {
                lower = lower.max(-bound);
            }
            if let Some(bound) = child.odd_threat_bound(created) {
                lower = lower.max(-bound);
            }
        }
        if let Some(bound) = position.odd_threat_bound(threats.opponent) {
            upper = upper.min(bound);
        }
        if !position.has_open_line(true) {
            upper = upper.min(0);
        }
        if !position.has_open_line(false) {
            lower = lower.max(0);
        }
        if let Some(stored) = self.stored_bounds(position) {
            lower = lower.max(stored.lower);
            upper = upper.min(stored.upper);
        }
        (lower, upper)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::exhaustive::{exhaustive, positions_with_empty, random_games};
    use crate::solver::limits::Limits;

    #[test]
    fn proven_entries_move_between_key_forms_and_layouts() {
        // 6x9: two-word keys in a table of 2^16 words, one-word ones in the shared table of 2^21.
        // The first position of 22 empty cells that takes a search of some length.
        let mut two_word = Solver::with_table_bits(16);
        let (position, score, fresh_nodes) = positions_with_empty(6, 9, 30, 0x9e37_79b9)
            .into_iter()
            .find_map(|position| {
                two_word.reset();
                let score = two_word.solve(&position);
                (two_word.nodes() > 10_000).then(|| (position, score, two_word.nodes()))
            })
            .expect("a position that takes a search");
        let two_word_words: Vec<_> = two_word.proven_entries(&position, 0).collect();
        // A resumed search finds the root's bounds and most of what lies below in its table.
        let resumes = |solver: &mut Solver, layout: u64, table_words: u64, words: &[(u64, u64)]| {
            solver
                .restore_proven(&position, layout, table_words, words.iter().copied())
                .unwrap();
            assert_eq!(solver.solve(&position), score);
            assert!(
                solver.nodes() < fresh_nodes / 4,
                "{} of {fresh_nodes}",
                solver.nodes()
            );
        };
        let mut one_word = Solver::with_table_bits(21);
        resumes(&mut one_word, LAYOUT, 1 << 16, &two_word_words);
        let one_word_words: Vec<_> = one_word.proven_entries(&position, 0).collect();
        resumes(
            &mut Solver::with_table_bits(16),
            LAYOUT,
            1 << 21,
            &one_word_words,
        );
        resumes(
            &mut Solver::with_table_bits(21),
            LAYOUT,
            1 << 21,
            &one_word_words,
        );
        // Layout 1 kept these keys in two-word entries even in a table of 2^21 words: such
        // words come back as what they are, in either form.
        let layout_1 = Table::with_bits(21);
        assert!(layout_1.restore::<u128, u128>(two_word_words.iter().copied(), 1 << 16, 60));
        let layout_1_words: Vec<_> = layout_1.proven_words::<u128>(0).collect();
        resumes(
            &mut Solver::with_table_bits(21),
            1,
            1 << 21,
            &layout_1_words,
        );
        resumes(
            &mut Solver::with_table_bits(16),
            1,
            1 << 21,
            &layout_1_words,
        );
        assert!(!one_word.reads_table_layout(LAYOUT + 1));
    }

    #[test]
    fn a_stopped_search_rules_out_only_moves_that_cannot_beat_its_probe() {
        // begin-medium's first line (score -3), with every column's exact score.
        let moves = [3, 1, 6, 0, 1, 5, 1, 1, 5, 4, 2];
        let position = Position::<u64>::from_moves(7, 6, &moves).unwrap();
        let column_scores = [-7, -11, -4, -3, -4, -11, -11];
        let mut most = 0;
        for max_nodes in [
            2_000, 10_000, 30_000, 60_000, 100_000, 150_000, 200_000, 250_000,
        ] {
            let mut solver = Solver::with_table_bits(18);
            let limits = Limits {
                max_nodes: Some(max_nodes),
                ..Limits::default()
            };
            assert!(solver.solve_within(&position, &limits).is_err());
            let progress = solver.probe_progress(&position).unwrap();
            let above = i32::from(progress.above.value());
            assert_eq!(progress.playable, 0b111_1111);
            for column in progress.ruled_out_columns() {
                let score = column_scores[column as usize];
                assert!(score <= above, "{max_nodes}: {progress:?}");
            }
            most = most.max(progress.ruled_out.count_ones());
        }
        assert!(most >= 3, "{most}");
        // A probe that finds no move above -3 refutes every move, each in the table.
        let mut solver = Solver::with_table_bits(18);
        let (lower, upper) = (Score::new(-3), Score::new(-2));
        let score = solver.solve_between(&position, lower, upper, &Limits::default());
        assert_eq!(score.unwrap().value(), -3);
        let all = ProbeProgress {
            above: lower,
            ruled_out: 0b111_1111,
            playable: 0b111_1111,
        };
        assert_eq!(solver.probe_progress(&position), Some(all));
        // A solver that has not searched knows of no probe.
        assert_eq!(Solver::with_table_bits(18).probe_progress(&position), None);
    }

    #[test]
    fn bounds_known_before_any_move_hold_the_exact_score() {
        // With empty tables, only the rules that need no search bound the score.
        let solver = Solver::with_table_bits(16);
        for (width, height) in [(5, 4), (4, 5), (5, 5)] {
            let area = (width * height) as i32;
            let mut narrowed = 0;
            random_games(
                width,
                height,
                300,
                0xbf58_476d_1ce4_e5b9,
                |position: &Position| {
                    let moves = position.moves_played() as i32;
                    if area - moves > 10 {
                        return;
                    }
                    let (lower, upper) = solver.known_bounds(position);
                    let score = exhaustive(position);
                    assert!(
                        lower <= score && score <= upper,
                        "{position:?}: {lower}..{upper}"
                    );
                    let (widest_lower, widest_upper) =
                        (-(area - 2 - moves) / 2, (area - 1 - moves) / 2);
                    if lower != upper && (lower > widest_lower || upper < widest_upper) {
                        narrowed += 1;
                    }
                },
            );
            assert!(narrowed > 0, "{width}x{height}: no bound narrowed");
        }
    }

    #[test]
    fn a_probe_that_fails_rules_out_every_move_on_a_board_past_64_bits_too() {
        // 8x8 keys take two-word entries in both tables.
        let mut positions: Vec<Position<u128>> = Vec::new();
        random_games(8, 8, 400, 0x2545_f491_4f6c_dd1d, |p| {
            if p.moves_played() == 26 {
                positions.push(*p);
            }
        });
        let mut checked = 0;
        for position in positions.iter().take(4) {
            let mut reference = Solver::with_table_bits(18);
            let score = reference.solve(position);
            let columns = reference.analyze(position);
            // A probe above the best win the side to move can still make is settled unsearched.
            let moves = position.moves_played() as i8;
            if score.value() >= (64 - 1 - moves) / 2 {
                continue;
            }
            // The one probe between the score and the next, whether it is above the score, alone
            // in a fresh table.
            let next = Score::new(score.value() + 1);
            let mut solver = Solver::with_table_bits(18);
            let found = solver.solve_between(position, score, next, &Limits::default());
            assert_eq!(found.unwrap(), score);
            let progress = solver.probe_progress(position).unwrap();
            let playable = columns.iter().enumerate().filter(|(_, s)| s.is_some());
            let playable = playable.fold(0, |bits, (column, _)| bits | 1 << column);
            let all = ProbeProgress {
                above: score,
                ruled_out: playable,
                playable,
            };
            assert_eq!(progress, all, "{position:?} {columns:?}");
            checked += 1;
        }
        assert!(checked >= 3, "{checked}");
    }

    #[test]
    fn what_a_search_proved_goes_on_in_a_table_of_another_size() {
        let position = Position::<u64>::from_moves(7, 6, &[3, 3, 2, 4, 4]).unwrap();
        let mut fresh = Solver::with_table_bits(20);
        let score = fresh.solve(&position);
        let whole = fresh.nodes();
        let mut stopped = Solver::with_table_bits(20);
        let limits = Limits {
            max_nodes: Some(whole * 3 / 4),
            ..Limits::default()
        };
        let Err(SolverError::Interrupted { lower, upper }) =
            stopped.solve_within(&position, &limits)
        else {
            panic!(
                "a search of {whole} nodes went through in {}",
                whole * 3 / 4
            );
        };
        let entries: Vec<_> = stopped.proven_entries(&position, 0).collect();
        // Into a table four times the size, or a quarter: the score comes out right, and in a
        // table big enough to hold them all, for fewer nodes than a search from nothing.
        for bits in [22, 18] {
            let mut resumed = Solver::with_table_bits(bits);
            resumed
                .restore_proven(
                    &position,
                    LAYOUT,
                    stopped.table_words(),
                    entries.iter().copied(),
                )
                .unwrap();
            let again = resumed.solve_between(&position, lower, upper, &Limits::default());
            assert_eq!(again, Ok(score), "{bits} bits");
            if bits == 22 {
                assert!(
                    resumed.nodes() < whole / 2,
                    "{} of {whole}",
                    resumed.nodes()
                );
            }
        }
        // Words that are not a table's are refused, even after many good ones, and leave the
        // table empty: the search takes as many nodes as from nothing.
        let words = stopped.table_words();
        let outside = entries.iter().copied().chain([(words, 0)]);
        for (saved, entries) in [(3 << 17, entries.clone()), (words, outside.collect())] {
            let mut resumed = Solver::with_table_bits(20);
            let refused = resumed.restore_proven(&position, LAYOUT, saved, entries);
            assert!(matches!(refused, Err(SolverError::TableSize { .. })));
            resumed.solve(&position);
            assert_eq!(resumed.nodes(), whole);
        }
    }
}
