//! The search below the root: [`Solver::negamax`] and its phases (the bounds before any move,
//! the table's, the ordered moves and their refutations, enhanced transposition cutoffs, the
//! passes over the moves that threads split), the copies compiled for each board and key form,
//! and the threats a node hands its children.

use super::bitboard::Bitboard;
use super::keys::{KeyForm, Keys, OneWordKeys, OneWordSharedKeys, TwoWordKeys};
use super::order::{centre_out, MoveList, MAX_WIDTH};
use super::parallel::{Claim, SPLIT_MIN_EMPTY};
use super::position::{has_stacked_threats_over, Geometry, Position};
use super::score::Score;
use super::state::Solver;
use super::table::ScoreBounds;

/// Enhanced transposition cutoffs (probing every child for a refutation before searching any)
/// are tried only with more than this many empty cells: near the leaves the probes cost more
/// than the searches they save.
const ETC_MIN_EMPTY: i32 = 12;

/// Positions with at most this many empty cells are checked for sides that can no longer
/// complete any line, and so cannot win.
const OPEN_LINES_EMPTY: i32 = 12;

impl Solver {
    /// [`negamax`](Self::negamax) compiled for the position's board: the boards of
    /// [`search_fixed`](Self::search_fixed) get copies with their shape built in, every other
    /// board the general one of the 64-bit bitboard where its keys fit 64 bits, with the
    /// [`KeyForm`] its keys take, else the one of its own bitboard with two-word keys.
    pub(super) fn search<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let narrow = position.narrowed();
        let form = self.key_form(position.geometry());
        if let Some(score) = narrow.and_then(|narrow| self.search_fixed(&narrow, form, alpha, beta))
        {
            score
        } else if let Some(narrow) = narrow.filter(|_| form == KeyForm::OneWord) {
            self.search_from::<u64, AnyShape, OneWordKeys, MAX_WIDTH>(&narrow, alpha, beta)
        } else if let Some(narrow) = narrow.filter(|_| form == KeyForm::OneWordShared) {
            self.search_from::<u64, AnyShape, OneWordSharedKeys, MAX_WIDTH>(&narrow, alpha, beta)
        } else {
            debug_assert_eq!(
                form,
                KeyForm::TwoWord,
                "keys of up to 64 bits have a 64-bit board"
            );
            self.search_from::<B, AnyShape, TwoWordKeys, MAX_WIDTH>(position, alpha, beta)
        }
    }

    /// [`negamax`](Self::negamax) from `position` (its keys in the tables taking `form`) in a
    /// copy compiled for its board, if it has one: every board with sides of at least 4, 12 to
    /// 16 sides in all and 64 bits of cells and sentinels, in the form its keys take in tables
    /// that give them one word. Every shift and mask a constant, a child handed on in two
    /// registers and a move list as wide as the board took the search a fifth to a quarter
    /// fewer instructions than the general copy (docs/solver.md, "The search's code").
    fn search_fixed(
        &mut self,
        position: &Position<u64>,
        form: KeyForm,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let geometry = position.geometry();
        macro_rules! fixed_boards {
            ($($form:ident $keys:ident: $(($w:literal, $h:literal))*;)*) => {
                match (geometry.width, geometry.height, form) {
                    $($(($w, $h, KeyForm::$form) => Some(
                        self.search_from::<u64, FixedShape<$w, $h>, $keys, $w>(
                            position, alpha, beta,
                        ),
                    ),)*)*
                    _ => None,
                }
            };
        }
        fixed_boards! {
            // Keys of up to 56 bits, which the near-leaf table takes in one word.
            OneWord OneWordKeys:
                (8, 4) (9, 4) (10, 4) (11, 4) (7, 5) (8, 5) (9, 5) (6, 6) (7, 6) (8, 6)
                (5, 7) (6, 7) (7, 7) (4, 8) (5, 8) (6, 8) (4, 9) (5, 9) (4, 10) (5, 10)
                (4, 11) (4, 12);
            // 57 to 64 bits: one word in a large enough shared table only.
            OneWordShared OneWordSharedKeys:
                (12, 4) (10, 5) (9, 6) (8, 7) (7, 8) (6, 9) (5, 11);
        }
    }

    /// [`negamax`](Self::negamax) from `position`, in the copy that splits its moves between
    /// threads when it has enough empty cells.
    fn search_from<B: Bitboard, S: Shape<B>, K: Keys, const WIDTH: usize>(
        &mut self,
        position: &Position<B>,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let threats = Threats::of(position);
        let empty = (position.geometry().area() - position.moves_played()) as i32;
        if empty >= SPLIT_MIN_EMPTY {
            self.negamax::<B, S, K, WIDTH, true>(S::stones(position), threats, alpha, beta)
        } else {
            self.negamax::<B, S, K, WIDTH, false>(S::stones(position), threats, alpha, beta)
        }
    }

    /// The score of `position` if it lies strictly between `alpha` and `beta`; otherwise a bound
    /// on the same side of the window (at most `alpha`, or at least `beta`). `S`: the board's
    /// [`Shape`]; `K`: the tables' keys; `WIDTH`: at least the board's width; `SPLIT`: the
    /// position has at least [`SPLIT_MIN_EMPTY`] empty cells, so that threads searching it
    /// together split its moves (a copy of its own, so that the many positions below pay
    /// nothing for it); `threats`: the cells where each side would complete four.
    ///
    /// Requires that the side to move cannot win at once (every caller checks that first, and
    /// children are only ever reached through moves that do not allow an immediate win).
    ///
    /// The phases in order: the bounds known before any move (the board's, and those of a side
    /// that can no longer win), a single move ([`play_single_move`](Self::play_single_move)), the
    /// table's entry, the bounds of the opponent's strategies, the ordered moves and their
    /// refutations, [`enhanced_transposition_cutoff`](Self::enhanced_transposition_cutoff),
    /// the moves searched ([`search_moves`](Self::search_moves)), the entry stored. The bounds,
    /// the table's entry and the ordered moves stay in this body: as helpers of their own they
    /// took 0.8-2.4% more instructions (docs/solver.md, "The search's code").
    fn negamax<B: Bitboard, S: Shape<B>, K: Keys, const WIDTH: usize, const SPLIT: bool>(
        &mut self,
        stones: S::Stones<'_>,
        threats: Threats<B>,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let position = &S::shaped(stones);
        self.nodes += 1;
        if self.nodes >= self.next_check && self.check_limits() {
            return 0;
        }
        let geometry = *position.geometry();
        let area = geometry.area() as i32;
        let moves = position.moves_played() as i32;
        if moves <= self.book_depth {
            if let Some(score) = self.book_score_of::<B, S>(stones) {
                return i32::from(score.value());
            }
        }

        let candidates = position.non_losing_moves(threats.opponent);
        if let Some(score) = decided_at_once(position, threats, candidates) {
            return score;
        }
        // The opponent cannot win with its next stone, and we cannot win with this one.
        let mut lower = -(area - 2 - moves) / 2;
        let mut upper = (area - 1 - moves) / 2;
        // A side that can no longer complete any line cannot win. Only the side the window
        // asks about is tested: the other answer could not cut.
        if area - moves <= OPEN_LINES_EMPTY {
            if alpha >= 0 && !position.has_open_line(true) {
                return upper.min(0);
            }
            if beta <= 0 && !position.has_open_line(false) {
                return lower.max(0);
            }
        }

        // A single move (the one block, or the one move that does not lose at once) scores what
        // its child scores: the child's table entry serves, and this position takes none.
        if candidates & (candidates - B::ONE) == B::ZERO {
            return self.play_single_move::<B, S, K, WIDTH, SPLIT>(
                position,
                candidates,
                threats,
                (lower, upper),
                alpha,
                beta,
            );
        }

        let (table_key, flipped) = self.table_key(&geometry, position.key());
        let orient = |column: u32| {
            if flipped {
                geometry.width - 1 - column
            } else {
                column
            }
        };
        let mut hint = None;
        let empty = area - moves;
        if let Some(known) = self.known::<B, K>(empty, table_key) {
            lower = lower.max(known.lower);
            upper = upper.min(known.upper);
            // A column off the board (a damaged shared table's) is no hint.
            hint = known.best.filter(|&c| c < geometry.width).map(orient);
        }
        if lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        if lower == upper {
            return lower;
        }
        // The bounds of the opponent's strategies come after the table's entry, which settles
        // most positions first, and a single move leaves them to its child: 3% fewer
        // instructions for 0.3-1.1% more nodes (docs/solver.md, "The search's code").
        //
        // When the opponent can answer every move in the same column, the side to move may be
        // unable to win, or even to draw, whatever it plays.
        if alpha >= -1 {
            if let Some(bound) = position.follow_up_bound() {
                if alpha >= bound {
                    return upper.min(bound);
                }
            }
        }
        // With an odd number of empty cells, the opponent's winning cell in an odd column may
        // force a loss by zugzwang.
        if let Some(bound) = position.odd_threat_bound(threats.opponent) {
            if alpha >= bound {
                return upper.min(bound);
            }
        }

        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let alpha_in = alpha;

        // After a move from an odd number of empty cells the opponent may face our follow-up
        // strategy; only a bound of at least `beta` cuts, and the bound is at most 1.
        let check_children = beta <= 1 && empty % 2 == 1;
        // After a move from an even number, we may have such a winning cell ourselves.
        let check_odd_children = empty % 2 == 0;
        let mut list = MoveList::<B, B, WIDTH>::new();
        for &column in centre_out(geometry.width) {
            let column = u32::from(column);
            let cell = candidates & position.cell_in(column);
            if cell != B::ZERO {
                // Such a move refutes this position without any search.
                if check_children {
                    let mut child = *position;
                    child.play_unchecked(cell);
                    if let Some(bound) = child.follow_up_bound() {
                        if -bound >= beta {
                            return -bound;
                        }
                    }
                }
                let child_key = self.table_key(&geometry, position.key_after(cell)).0;
                self.prefetch::<B, K>(empty - 1, child_key);
                let created = position.winning_cells_after(cell);
                // A move that wins by zugzwang refutes this position without any search.
                if check_odd_children {
                    let mut child = *position;
                    child.play_unchecked(cell);
                    if let Some(bound) = child.odd_threat_bound(created) {
                        if -bound >= beta {
                            return -bound;
                        }
                    }
                }
                if position.leaves_two_playable_threats(cell, created) {
                    return (area - 1 - moves) / 2;
                }
                // Moves that make more threats first. A threat right above one of the
                // opponent's is not counted: the opponent's is filled first. A move right under
                // one of the mover's own threats lets the opponent block it, so it counts as one
                // threat less.
                let weight = if hint == Some(column) {
                    u32::MAX
                } else {
                    (created & !(threats.opponent << 1)).count_ones()
                        + u32::from((cell << 1) & threats.own == B::ZERO)
                };
                list.push(cell, column, child_key, created, weight);
            }
        }
        if let Some(score) = self.enhanced_transposition_cutoff::<B, K, WIDTH>(
            &list, empty, table_key, upper, beta, orient,
        ) {
            return score;
        }

        let nodes_in = self.nodes;
        let Some((best_score, best_column)) =
            self.search_moves::<B, S, K, WIDTH, SPLIT>(position, threats, &list, alpha, beta)
        else {
            return 0;
        };

        let bounds = if best_score >= beta {
            ScoreBounds {
                lower: best_score,
                upper,
                best: best_column.map(orient),
            }
        } else if best_score > alpha_in {
            ScoreBounds {
                lower: best_score,
                upper: best_score,
                best: best_column.map(orient),
            }
        } else {
            ScoreBounds {
                lower,
                upper: best_score,
                best: None,
            }
        };
        let work = 64 - (self.nodes - nodes_in).leading_zeros();
        self.remember::<B, K>(empty, table_key, bounds, work);
        best_score
    }

    /// [`book_score`](Self::book_score) of the position of `stones`, out of line: handed the
    /// position itself, this rare call had every node of the standard board write its position
    /// to memory.
    #[cold]
    #[inline(never)]
    fn book_score_of<B: Bitboard, S: Shape<B>>(&self, stones: S::Stones<'_>) -> Option<Score> {
        self.book_score(&S::shaped(stones))
    }

    /// [`negamax`](Self::negamax) of a position with a single move that does not lose at once
    /// (`cell`), whose score is known to lie in `lower..=upper` before any move: a win with the
    /// stone after next, a cut by those bounds, or the child's score in the window they narrow.
    #[inline(always)]
    fn play_single_move<
        B: Bitboard,
        S: Shape<B>,
        K: Keys,
        const WIDTH: usize,
        const SPLIT: bool,
    >(
        &mut self,
        position: &Position<B>,
        cell: B,
        threats: Threats<B>,
        (lower, upper): (i32, i32),
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let created = position.winning_cells_after(cell);
        if position.leaves_two_playable_threats(cell, created) {
            return win_after_next(position);
        }
        if lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        let (alpha, beta) = (alpha.max(lower), beta.min(upper));
        self.play::<B, S, K, WIDTH, SPLIT>(position, cell, created, threats, alpha, beta)
    }

    /// Enhanced transposition cutoffs: with more than [`ETC_MIN_EMPTY`] empty cells, a move of
    /// `list` whose child's table entry already refutes the position (`empty` empty cells,
    /// stored under `key`, its score at most `upper`) in the window up to `beta` settles it
    /// before any search, and is stored as its best move (`orient`: a column as the key has it).
    #[inline(always)]
    fn enhanced_transposition_cutoff<B: Bitboard, K: Keys, const WIDTH: usize>(
        &self,
        list: &MoveList<B, B, WIDTH>,
        empty: i32,
        key: B,
        upper: i32,
        beta: i32,
        orient: impl Fn(u32) -> u32,
    ) -> Option<i32> {
        if empty <= ETC_MIN_EMPTY {
            return None;
        }
        for (_, column, child_key, _) in list.iter() {
            if let Some(child) = self.known::<B, K>(empty - 1, child_key) {
                if -child.upper >= beta {
                    let bounds = ScoreBounds {
                        lower: -child.upper,
                        upper,
                        best: Some(orient(column)),
                    };
                    self.remember::<B, K>(empty, key, bounds, 0);
                    return Some(-child.upper);
                }
            }
        }
        None
    }

    /// Searches the moves of `list` in turn, up to one that reaches `beta`: the best score and
    /// its column, `None` if the search was interrupted. With other threads on the probe, in a
    /// copy that splits its moves (`SPLIT`), a move that another thread is searching waits for a
    /// second pass, by which time the table mostly holds its answer (ABDADA).
    #[inline(always)]
    fn search_moves<B: Bitboard, S: Shape<B>, K: Keys, const WIDTH: usize, const SPLIT: bool>(
        &mut self,
        position: &Position<B>,
        threats: Threats<B>,
        list: &MoveList<B, B, WIDTH>,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, Option<u32>)> {
        let mut best_score = i32::MIN;
        let mut best_column = None;
        // The first move is claimed too: probes have null windows (a weak solve's -1..1 holds
        // one score), so the moves after it need no bound from it, and two threads in the same
        // first move would search the same tree (3% more nodes on the empty board and 2.5% on
        // begin-hard than leaving it to both).
        let split = SPLIT && self.team.is_some();
        let mut deferred = 0u64;
        let mut second_pass = false;
        'passes: loop {
            for (index, (cell, column, child_key, created)) in list.iter().enumerate() {
                if second_pass && deferred >> index & 1 == 0 {
                    continue;
                }
                let claim = if split && !second_pass {
                    self.claim(child_key)
                } else {
                    Claim::Unmarked
                };
                if claim == Claim::Busy {
                    deferred |= 1 << index;
                    continue;
                }
                let score = self
                    .play::<B, S, K, WIDTH, SPLIT>(position, cell, created, threats, alpha, beta);
                if claim == Claim::Taken {
                    self.release(child_key);
                }
                if self.interrupted {
                    return None;
                }
                if score > best_score {
                    best_score = score;
                    best_column = Some(column);
                }
                if score >= beta {
                    break 'passes;
                }
                alpha = alpha.max(score);
            }
            if second_pass || deferred == 0 {
                break;
            }
            second_pass = true;
        }
        Some((best_score, best_column))
    }

    /// The score of playing `cell` from `position` (whose threats are `threats`; `created`: the
    /// mover's winning cells after it), from the child's search in the window `alpha..beta`
    /// turned around, with the copy of [`negamax`](Self::negamax) for the child's empty cells.
    #[inline(always)]
    fn play<B: Bitboard, S: Shape<B>, K: Keys, const WIDTH: usize, const SPLIT: bool>(
        &mut self,
        position: &Position<B>,
        cell: B,
        created: B,
        threats: Threats<B>,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut child = *position;
        child.play_unchecked(cell);
        // The mover's threats are the child's opponent's, and the opponent's the child's mover's,
        // less the cell just filled.
        let child_threats = Threats {
            own: threats.opponent & !cell,
            opponent: created,
        };
        let empty = (position.geometry().area() - position.moves_played()) as i32;
        if SPLIT && empty > SPLIT_MIN_EMPTY {
            -self.negamax::<B, S, K, WIDTH, true>(S::stones(&child), child_threats, -beta, -alpha)
        } else {
            -self.negamax::<B, S, K, WIDTH, false>(S::stones(&child), child_threats, -beta, -alpha)
        }
    }
}

/// The score of a win with the stone after next, for the side to move in `position`.
#[inline(always)]
fn win_after_next<B: Bitboard>(position: &Position<B>) -> i32 {
    (position.geometry().area() as i32 - 1 - position.moves_played() as i32) / 2
}

/// The cells where each side would complete four, handed from a node to its children so that
/// neither is computed twice.
#[derive(Clone, Copy)]
pub(super) struct Threats<B> {
    /// The side to move's.
    pub(super) own: B,
    /// The opponent's.
    pub(super) opponent: B,
}

impl<B: Bitboard> Threats<B> {
    /// The threats of a position the search starts from.
    pub(super) fn of(position: &Position<B>) -> Threats<B> {
        Threats {
            own: position.own_winning_cells(),
            opponent: position.opponent_winning_cells(),
        }
    }
}

/// The score of `position` when its threats decide it before any search (`candidates`: its
/// non-losing moves): every move lets the opponent complete four next, the board is all but full,
/// or a move goes under two stacked winning cells of the mover's. Needs that the side to move
/// cannot win at once.
#[inline(always)]
pub(super) fn decided_at_once<B: Bitboard>(
    position: &Position<B>,
    threats: Threats<B>,
    candidates: B,
) -> Option<i32> {
    let area = position.geometry().area() as i32;
    let moves = position.moves_played() as i32;
    if candidates == B::ZERO {
        // Every move lets the opponent complete four with its next stone.
        Some(-(area - moves) / 2)
    } else if moves >= area - 2 {
        Some(0)
    } else if has_stacked_threats_over(candidates, threats.own) {
        Some((area - 1 - moves) / 2)
    } else {
        None
    }
}

/// How [`Solver::negamax`] learns the board it searches: compiled in, or from the position.
trait Shape<B: Bitboard> {
    /// What a call of [`Solver::negamax`] is handed of a position.
    type Stones<'a>: Copy
    where
        B: 'a;

    /// What `position` hands on.
    fn stones(position: &Position<B>) -> Self::Stones<'_>;

    /// The position of `stones`, with its geometry where the compiler can see it.
    fn shaped(stones: Self::Stones<'_>) -> Position<B>;
}

/// A board known in advance, `W` x `H`, every shift and mask a constant. A call hands on only
/// the two bitboards, in registers, rather than a whole position in memory.
struct FixedShape<const W: u32, const H: u32>;

impl<const W: u32, const H: u32> FixedShape<W, H> {
    const GEOMETRY: Geometry<u64> = Geometry::fixed(W, H);
}

impl<const W: u32, const H: u32> Shape<u64> for FixedShape<W, H> {
    type Stones<'a> = (u64, u64);

    #[inline(always)]
    fn stones(position: &Position<u64>) -> (u64, u64) {
        debug_assert_eq!(*position.geometry(), Self::GEOMETRY);
        position.stones()
    }

    #[inline(always)]
    fn shaped(stones: (u64, u64)) -> Position<u64> {
        Position::from_stones_on(Self::GEOMETRY, stones)
    }
}

/// Any board, its geometry read from the position.
struct AnyShape;

impl<B: Bitboard> Shape<B> for AnyShape {
    type Stones<'a>
        = &'a Position<B>
    where
        B: 'a;

    #[inline(always)]
    fn stones(position: &Position<B>) -> &Position<B> {
        position
    }

    #[inline(always)]
    fn shaped(position: &Position<B>) -> Position<B> {
        *position
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::exhaustive::{exhaustive, positions_with_empty, random_games};

    #[test]
    fn the_wide_bitboard_scores_as_the_narrow_one() {
        // Positions of random games on boards of both parities, solved and analysed on each
        // bitboard: every score agrees.
        for (width, height, stones) in [(5, 4, 6), (6, 5, 12), (4, 6, 8)] {
            let mut positions: Vec<Position> = Vec::new();
            random_games(width, height, 12, 0x7f4a_7c15, |p| {
                if p.moves_played() == stones {
                    positions.push(*p);
                }
            });
            assert!(positions.len() >= 6, "{width}x{height}");
            let (mut narrow, mut wide) = (Solver::with_table_bits(16), Solver::with_table_bits(16));
            for position in &positions {
                let widened = position.widened();
                assert_eq!(wide.solve(&widened), narrow.solve(position), "{position:?}");
                assert_eq!(wide.analyze(&widened), narrow.analyze(position));
                assert_eq!(wide.solve_weak(&widened), narrow.solve_weak(position));
            }
        }
    }

    #[test]
    fn boards_with_a_compiled_copy_score_as_in_the_general_one() {
        // Positions with 16 to 20 empty cells on boards of each key form with a copy of their
        // own: the full-window score of that copy and of the general one agree.
        for (width, height) in [(8, 4), (7, 5), (5, 8), (7, 6)] {
            let mut checked = 0;
            for empty in 16..=20 {
                for position in positions_with_empty(width, height, empty, 0x5851_f42d_4c95_7f2d) {
                    if position.can_win_next() {
                        continue;
                    }
                    let mut solver = Solver::with_table_bits(16);
                    assert_eq!(solver.key_form(position.geometry()), KeyForm::OneWord);
                    let fixed = solver.search(&position, -100, 100);
                    solver.reset();
                    let general = solver
                        .search_from::<u64, AnyShape, OneWordKeys, MAX_WIDTH>(&position, -100, 100);
                    assert_eq!(fixed, general, "{width}x{height} {position:?}");
                    checked += 1;
                }
            }
            assert!(checked >= 30, "{width}x{height}: {checked}");
        }
    }

    /// Checks a rule that claims a win with the stone after next: in random games on three
    /// small boards, wherever `applies` (given the position and its non-losing moves) with at
    /// most ten empty cells, exhaustive search finds exactly that win.
    fn check_win_after_next(seed: u64, applies: impl Fn(&Position, u64) -> bool) {
        for (width, height) in [(5, 4), (4, 5), (5, 5)] {
            let area = (width * height) as i32;
            let mut seen = 0;
            random_games(width, height, 400, seed, |position| {
                let moves = position.moves_played() as i32;
                let candidates = position.non_losing_moves(position.opponent_winning_cells());
                if area - moves <= 10 && applies(position, candidates) {
                    assert_eq!(exhaustive(position), (area - 1 - moves) / 2, "{position:?}");
                    seen += 1;
                }
            });
            assert!(seen > 0, "{width}x{height}: the rule never applied");
        }
    }

    #[test]
    fn stacked_threats_over_a_safe_move_win_with_the_stone_after_next() {
        check_win_after_next(0x9e37_79b9_7f4a_7c15, |position, candidates| {
            has_stacked_threats_over(candidates, position.own_winning_cells())
        });
    }

    #[test]
    fn a_safe_move_leaving_two_playable_threats_wins_with_the_stone_after_next() {
        check_win_after_next(0xd1b5_4a32_d192_ed03, |position, candidates| {
            (0..position.width()).any(|column| {
                let cell = candidates & position.cell_in(column);
                cell != 0
                    && position
                        .leaves_two_playable_threats(cell, position.winning_cells_after(cell))
            })
        });
    }

    #[test]
    fn the_follow_up_bound_holds_and_is_used() {
        // Random games on boards of even and odd height: wherever the bound applies with at most
        // ten empty cells, the exact score respects it.
        for (width, height) in [(5, 4), (4, 5)] {
            let mut seen = [0usize; 2];
            random_games(
                width,
                height,
                300,
                0x2545_f491_4f6c_dd1d,
                |position: &Position| {
                    let empty = width * height - position.moves_played();
                    if let Some(bound) = position.follow_up_bound().filter(|_| empty <= 10) {
                        assert!(exhaustive(position) <= bound, "{position:?}");
                        seen[(-bound) as usize] += 1;
                    }
                },
            );
            assert!(seen[0] > 0 && seen[1] > 0, "{width}x{height}: {seen:?}");
        }
    }

    #[test]
    fn the_odd_threat_bound_holds() {
        // Random games on boards of even and odd height: wherever the bound applies with at most
        // eleven empty cells, the exact score respects it, and some positions score exactly it.
        for (width, height) in [(5, 4), (4, 5), (6, 4)] {
            let (mut seen, mut exact) = (0, 0);
            random_games(
                width,
                height,
                600,
                0x9e37_79b9_7f4a_7c15,
                |position: &Position| {
                    let empty = width * height - position.moves_played();
                    let threats = position.opponent_winning_cells();
                    if let Some(bound) = position.odd_threat_bound(threats).filter(|_| empty <= 11)
                    {
                        let score = exhaustive(position);
                        assert!(score <= bound, "{position:?}: {score} > {bound}");
                        seen += 1;
                        exact += usize::from(score == bound);
                    }
                },
            );
            assert!(seen > 20 && exact > 0, "{width}x{height}: {seen} {exact}");
        }
    }
}
