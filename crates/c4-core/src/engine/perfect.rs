//! Perfect play on the exact solver: which games it covers, the bridge from a rules [`Game`] to
//! the solver's bitboard, exact column scores, and the words for a score.

use std::fmt;

use thiserror::Error;

use crate::rules::{Column, Game, Outcome, Player, Token};
use crate::solver::{
    with_position, AnyPosition, Bitboard, Limits, Position, Score, Solver, SolverError,
};

/// The only connect length the solver plays.
pub const SOLVER_CONNECT: usize = 4;

/// Why a game cannot be solved exactly.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PerfectError {
    /// More than two players.
    #[error("the solver plays two-player games; this game has {0} players")]
    Players(usize),
    /// A connect length other than four.
    #[error("the solver plays connect 4; this game is connect {0}")]
    Connect(usize),
    /// A board the 128-bit layout cannot hold.
    #[error("the solver handles boards with width x (height + 1) <= 128; this board is {0}x{1}")]
    Board(usize, usize),
    /// Nothing to solve.
    #[error("the game is over ({0}); there is nothing to solve")]
    GameOver(String),
    /// A move asked of a finished game, whose score is known but which has no move.
    #[error("the game is over ({0}); there is no move to choose")]
    NoMove(String),
    /// A bounded search ran out of nodes or time, or was stopped.
    #[error(
        "the search stopped before it found the exact score (it lies between {lower} and {upper})"
    )]
    Interrupted { lower: Score, upper: Score },
    /// Anything else the solver refused.
    #[error("{0}")]
    Solver(SolverError),
}

impl From<SolverError> for PerfectError {
    fn from(e: SolverError) -> Self {
        match e {
            SolverError::Interrupted { lower, upper } => PerfectError::Interrupted { lower, upper },
            other => PerfectError::Solver(other),
        }
    }
}

/// Whether the solver plays `game`'s rules: two players, connect four, a board that fits.
fn check_rules(game: &Game) -> Result<(), PerfectError> {
    let v = game.variant();
    if v.players() != 2 {
        return Err(PerfectError::Players(v.players()));
    }
    if v.connect() != SOLVER_CONNECT {
        return Err(PerfectError::Connect(v.connect()));
    }
    if v.width() * (v.height() + 1) > 128 {
        return Err(PerfectError::Board(v.width(), v.height()));
    }
    Ok(())
}

/// The exact score of a finished game for the side to move, `None` while it goes on: a finished
/// game is answered, not searched. Its winner won on the last ply, so the side to move has lost
/// by the score convention's `(width * height + 2 - ply) / 2` (22 minus the winner's stones on
/// 7x6); a draw scores 0. The Python binding answers a finished game's value from this (`c4
/// solve` gets the same score from the solver, the protocol says the same in words), and every
/// door refuses a move with [`PerfectError::NoMove`]'s sentence.
pub fn finished_score(game: &Game) -> Result<Option<Score>, PerfectError> {
    check_rules(game)?;
    let cells = game.variant().cells();
    Ok(match game.outcome() {
        Outcome::InProgress => None,
        Outcome::Draw(_) => Some(Score::DRAW),
        Outcome::Win(_) => Some(Score::new(-(((cells + 2 - game.ply()) / 2) as i8))),
    })
}

/// The solver's position for `game`, on the bitboard its board needs, or why the solver cannot
/// play it.
pub fn solver_position(game: &Game) -> Result<AnyPosition, PerfectError> {
    check_rules(game)?;
    let v = game.variant();
    if game.outcome() != Outcome::InProgress {
        return Err(PerfectError::GameOver(game.outcome_summary()));
    }
    let board = game.board();
    let (mut current, mut opponent) = (0u128, 0u128);
    for column in 0..v.width() {
        // A column at a time from the board's masks, rather than a cell at a time.
        let shift = column * (v.height() + 1);
        let stones = (1u128 << board.column_height(Column::from_index(column))) - 1;
        let mine = u128::from(board.stones_in_column(game.to_move(), column));
        current |= mine << shift;
        opponent |= (stones & !mine) << shift;
    }
    Ok(AnyPosition::from_stones(
        v.width() as u32,
        v.height() as u32,
        current,
        opponent,
    )?)
}

/// The exact score of every column for the side to move (`None`: the column is full).
pub fn column_scores(
    game: &Game,
    solver: &mut Solver,
    limits: &Limits,
) -> Result<Vec<Option<Score>>, PerfectError> {
    let position = solver_position(game)?;
    Ok(with_position!(position, |position| solver
        .analyze_within(&position, limits))?)
}

/// The exact score for the side to move and every column that keeps it, left to right.
pub(crate) fn best_columns(
    game: &Game,
    solver: &mut Solver,
    limits: &Limits,
) -> Result<(Score, Vec<Column>), PerfectError> {
    let position = solver_position(game)?;
    let order = game.legal_moves();
    with_position!(position, |position| {
        columns_keeping_score(&position, &order, false, solver, limits)
    })
}

/// `limits` for the next of the searches that answer one request: its node budget is the
/// request's, less what the searches since `start` took.
fn spent(limits: &Limits, solver: &Solver, start: u64) -> Limits {
    Limits {
        max_nodes: limits
            .max_nodes
            .map(|n| n.saturating_sub(solver.nodes() - start)),
        ..limits.clone()
    }
}

/// A best column for the side to move and its exact score: the position's score, then the
/// columns from the centre outwards until one keeps it; much cheaper than `best_columns`.
pub fn best_column(
    game: &Game,
    solver: &mut Solver,
    limits: &Limits,
) -> Result<(Column, Score), PerfectError> {
    if game.outcome().is_over() {
        check_rules(game)?;
        return Err(PerfectError::NoMove(game.outcome_summary()));
    }
    let position = solver_position(game)?;
    let width = game.variant().width();
    let mut order = game.legal_moves();
    order.sort_by_key(|c| {
        (
            (2 * c.index() as isize - (width as isize - 1)).abs(),
            c.index(),
        )
    });
    let (score, best) = with_position!(position, |position| {
        columns_keeping_score(&position, &order, true, solver, limits)
    })?;
    // The score was reached through one of these moves, so one always keeps it.
    match best.first() {
        Some(&column) => Ok((column, score)),
        None => Err(PerfectError::NoMove(game.outcome_summary())),
    }
}

/// The exact score of `position` and the columns of `order` that keep it, in that order: all of
/// them, or only the first with `first_only`. One node budget covers every search.
fn columns_keeping_score<B: Bitboard>(
    position: &Position<B>,
    order: &[Column],
    first_only: bool,
    solver: &mut Solver,
    limits: &Limits,
) -> Result<(Score, Vec<Column>), PerfectError> {
    let start = solver.nodes();
    let score = solver.solve_within(position, limits)?;
    let mut best = Vec::new();
    for &column in order {
        let limits = &spent(limits, solver, start);
        if keeps_score(position, column, score, solver, limits)? {
            best.push(column);
            if first_only {
                break;
            }
        }
    }
    Ok((score, best))
}

/// Whether playing `column` keeps the side to move's exact `score`: a win at once when the score
/// is that win, otherwise a null-window test that the opponent then scores at most `-score`.
fn keeps_score<B: Bitboard>(
    position: &Position<B>,
    column: Column,
    score: Score,
    solver: &mut Solver,
    limits: &Limits,
) -> Result<bool, PerfectError> {
    let index = column.index() as u32;
    if position.is_winning_move(index) {
        let win_now = (position.width() * position.height() + 1 - position.moves_played()) / 2;
        return Ok(i32::from(score.value()) == win_now as i32);
    }
    let mut child = *position;
    child.play_column(index)?;
    Ok(solver.is_at_most_within(&child, score.flipped(), limits)?)
}

/// What an exact score means for the game it scores: a draw, or who wins, with which of their
/// stones and on which ply, when both sides play perfectly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// Neither side can force a win.
    Draw,
    /// `winner` connects with its `stone`-th stone, on ply `ply` (stones on the board then).
    Win {
        /// The winner's token.
        winner: Token,
        /// Which of the winner's stones connects, counted from its first.
        stone: i64,
        /// The ply on which it lands.
        ply: i64,
    },
}

impl Meaning {
    /// What `score` means for the side to move of `game`.
    pub fn of(score: Score, game: &Game) -> Meaning {
        let v = game.variant();
        let (cells, now) = (v.cells() as i64, game.ply() as i64);
        let s = i64::from(score.value());
        let mover = game.to_move();
        // The winner's stones land on plies of one parity: the mover's on now + 1, now + 3, ...
        let (winner, parity): (Player, i64) = match s {
            0 => return Meaning::Draw,
            s if s > 0 => (mover, (now + 1) % 2),
            _ => (v.next(mover), now % 2),
        };
        // A win on ply p scores (cells + 2 - p) / 2, rounded down, for the winner: p is the one
        // of cells + 2 - 2|s| and cells + 1 - 2|s| on the winner's plies. (On boards of an odd
        // number of cells the first player's k-th stone scores one more than the second's.)
        let highest = cells + 2 - 2 * s.abs();
        let ply = if highest % 2 == parity {
            highest
        } else {
            highest - 1
        };
        Meaning::Win {
            winner: v.token(winner),
            // The first player's stones land on odd plies, the second's on even ones.
            stone: (ply + 1) / 2,
            ply,
        }
    }
}

impl fmt::Display for Meaning {
    /// `draw with perfect play`, or `x wins with its 4th stone, on ply 7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Meaning::Draw => f.write_str("draw with perfect play"),
            Meaning::Win { winner, stone, ply } => write!(
                f,
                "{winner} wins with its {} stone, on ply {ply}",
                ordinal(*stone)
            ),
        }
    }
}

/// How a score plays out, for people: who wins, with which of their stones and on which ply.
pub fn describe(score: Score, game: &Game) -> String {
    Meaning::of(score, game).to_string()
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`, ...
pub(crate) fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// The exact score of `game` for the side to move.
    fn score(game: &Game, solver: &mut Solver, limits: &Limits) -> Result<Score, PerfectError> {
        let position = solver_position(game)?;
        Ok(with_position!(position, |position| solver.solve_within(&position, limits))?)
    }

    #[test]
    fn scores_agree_with_the_bench_convention() {
        // From ANCHORS.md: `4455` scores 18 for x, who wins with its 4th stone on ply 7.
        let g = Game::standard_after(&[4, 4, 5, 5]);
        let mut solver = Solver::with_table_bits(16);
        let s = score(&g, &mut solver, &Limits::default()).unwrap();
        assert_eq!(s.value(), 18);
        assert_eq!(describe(s, &g), "x wins with its 4th stone, on ply 7");
    }

    #[test]
    fn a_finished_game_is_scored_as_its_last_move_left_it() {
        // One move before the end the search finds the score; played, the game says the same.
        let before = Game::standard_after(&[4, 4, 5, 5, 6, 6]);
        let mut solver = Solver::with_table_bits(16);
        let best = score(&before, &mut solver, &Limits::default()).unwrap();
        let won = Game::standard_after(&[4, 4, 5, 5, 6, 6, 7]);
        assert_eq!(finished_score(&won), Ok(Some(Score::new(-best.value()))));
        assert_eq!(finished_score(&before), Ok(None));
        assert_eq!(
            best_column(&won, &mut solver, &Limits::default()),
            Err(PerfectError::NoMove("x won".into()))
        );
        assert_eq!(
            PerfectError::NoMove("x won".into()).to_string(),
            "the game is over (x won); there is no move to choose"
        );
        let three =
            Game::new(Variant::new(7, 6, 4, Variant::default_tokens(3).unwrap(), false).unwrap());
        assert_eq!(finished_score(&three), Err(PerfectError::Players(3)));
    }

    #[test]
    fn losses_are_described_from_the_winner() {
        // x holds d1 e1 f1 with c1 and g1 open: o, to move, loses to x's 4th stone on ply 7.
        let g = Game::standard_after(&[4, 1, 5, 1, 6]);
        let mut solver = Solver::with_table_bits(16);
        let s = score(&g, &mut solver, &Limits::default()).unwrap();
        assert_eq!(s.value(), -18);
        assert_eq!(describe(s, &g), "x wins with its 4th stone, on ply 7");
    }

    #[test]
    fn the_words_name_the_stone_and_ply_perfect_play_wins_on() {
        // Boards of an even and an odd number of cells (on odd ones the first player's stones
        // score one more than the second's): from random positions, perfect play by both sides
        // ends on the ply and with the stone the words give.
        use crate::engine::Rng;
        use crate::rules::Outcome;
        let mut rng = Rng::new(7);
        let mut wins = 0;
        for (width, height) in [(5, 4), (5, 5), (3, 5)] {
            let variant =
                Variant::new(width, height, 4, Variant::default_tokens(2).unwrap(), true).unwrap();
            for _ in 0..12 {
                let mut game = Game::new(variant.clone());
                for _ in 0..6 {
                    let legal = game.legal_moves();
                    if game.outcome() != Outcome::InProgress || legal.is_empty() {
                        break;
                    }
                    game.play(legal[rng.below(legal.len())]).unwrap();
                }
                let mut solver = Solver::with_table_bits(16);
                let Ok(s) = score(&game, &mut solver, &Limits::default()) else {
                    continue;
                };
                let meaning = Meaning::of(s, &game);
                while game.outcome() == Outcome::InProgress {
                    let (column, _) = best_column(&game, &mut solver, &Limits::default()).unwrap();
                    game.play(column).unwrap();
                }
                match (meaning, game.outcome()) {
                    (Meaning::Draw, Outcome::Draw(_)) => {}
                    (Meaning::Win { winner, stone, ply }, Outcome::Win(player)) => {
                        assert_eq!(winner, variant.token(player), "{game:?}");
                        assert_eq!(ply, game.ply() as i64, "{width}x{height}: {game:?}");
                        assert_eq!(stone, (ply + 1) / 2);
                        wins += 1;
                    }
                    other => panic!("{width}x{height}: {other:?}"),
                }
            }
        }
        assert!(wins >= 10, "{wins}");
    }

    #[test]
    fn one_node_budget_covers_every_search_of_a_request() {
        // A begin-medium position of the bench sets, with no book: the best column is found by
        // the position's search, then a test of each column until one keeps the score.
        let moves: Vec<u64> = "36641613257".bytes().map(|b| u64::from(b - b'0')).collect();
        let g = Game::standard_after(&moves);
        let fresh = || Solver::with_table_bits(16);
        let mut solver = fresh();
        score(&g, &mut solver, &Limits::default()).unwrap();
        let alone = solver.nodes();
        let mut solver = fresh();
        best_column(&g, &mut solver, &Limits::default()).unwrap();
        let all = solver.nodes();
        assert!(all > alone + 40_000, "{alone} then {all}");
        // A budget the position's search fits in, but not the tests after it: interrupted.
        let budget = |n| Limits {
            max_nodes: Some(n),
            ..Limits::default()
        };
        assert!(best_column(&g, &mut fresh(), &budget((alone + all) / 2)).is_err());
        assert!(best_column(&g, &mut fresh(), &budget(all + 50_000)).is_ok());
    }

    #[test]
    fn unsupported_games_are_named() {
        let v = Variant::new(7, 6, 4, Variant::default_tokens(3).unwrap(), true).unwrap();
        assert_eq!(
            solver_position(&Game::new(v)).unwrap_err(),
            PerfectError::Players(3)
        );
        let v = Variant::new(7, 6, 5, Variant::default_tokens(2).unwrap(), true).unwrap();
        assert_eq!(
            solver_position(&Game::new(v)).unwrap_err(),
            PerfectError::Connect(5)
        );
        let v = Variant::new(12, 12, 4, Variant::default_tokens(2).unwrap(), true).unwrap();
        assert_eq!(
            solver_position(&Game::new(v)).unwrap_err(),
            PerfectError::Board(12, 12)
        );
        let g = Game::standard_after(&[1, 2, 1, 2, 1, 2, 1]);
        assert!(matches!(
            solver_position(&g),
            Err(PerfectError::GameOver(_))
        ));
    }

    #[test]
    fn ordinals() {
        assert_eq!(ordinal(21), "21st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(2), "2nd");
    }
}
