//! Choosing a move at a level: [`choose`], what it returns ([`Choice`]), and what the levels share.

use crate::clock::Instant;
use crate::rules::{Column, Game};
use crate::solver::{Limits, Score, Solver};

use super::cutoff::Cutoff;
use super::level::{Level, TieBreak};
use super::lookahead::{column_values, deepening, Evaluation, WIN};
use super::perfect::{best_column, solver_position, PerfectError};
use super::rng::Rng;

/// How deep the heuristic search looks (in moves of all players) where the solver cannot play:
/// games of more than two players, other connect lengths, larger boards, or an interrupted solve.
pub const HEURISTIC_PLIES: u32 = 5;

/// The share of the time to a deadline that perfect play's exact search may take, in quarters:
/// should it not finish, the heuristic search chooses in the rest.
const EXACT_QUARTERS: u32 = 3;

/// What a look-ahead that saw the end of the game on every line it needed proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forced {
    /// The side to move wins, whatever the others play.
    Win,
    /// Every column loses when the others all play against the side to move (with two players,
    /// a loss however it plays).
    Loss,
}

/// A chosen move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The column to play.
    pub column: Column,
    /// The exact score of the move, when the solver found it.
    pub score: Option<Score>,
    /// The result a look-ahead saw forced, when it chose.
    pub forced: Option<Forced>,
    /// When a `stop` or the deadline cut the look-ahead short: how many moves deep the look
    /// that chose went (see [`Lookahead::cut_short`]).
    pub cut_short: Option<u32>,
}

impl Choice {
    /// Whether the choice is backed by a complete search: an exact score, or a look-ahead that
    /// saw a forced result.
    pub fn proven(&self) -> bool {
        self.score.is_some() || self.forced.is_some()
    }

    /// Whether this choice at `level` in `game` is the heuristic search's where the level is
    /// perfect play and the solver plays the game: the limits cut the exact search short, so
    /// the move may not be perfect. A front end says so, or searches again with more time.
    pub fn is_fallback(&self, level: Level, game: &Game) -> bool {
        level == Level::Perfect && self.score.is_none() && solver_position(game).is_ok()
    }
}

/// Chooses a move for the side to move at `level`; `None` when the game is over. `solver` is
/// used by [`Level::Perfect`] on games it covers, within `limits` (and, with a deadline, within
/// three quarters of the time to it); without it, or when the limits cut the search short, the
/// heuristic search decides and the choice is not proven. The look-ahead levels and the
/// heuristic search take the limits' stop flag and deadline, not its node count.
pub fn choose(
    game: &Game,
    level: Level,
    solver: Option<&mut Solver>,
    rng: &mut Rng,
    limits: &Limits,
) -> Option<Choice> {
    let unproven = |column| Choice {
        column,
        score: None,
        forced: None,
        cut_short: None,
    };
    let cutoff = Cutoff {
        stop: limits.stop.as_deref(),
        deadline: limits.deadline,
    };
    let heuristic = |plies: u32, rng: &mut Rng| {
        lookahead_move(
            game,
            plies,
            Evaluation::Windows,
            TieBreak::Left,
            rng,
            cutoff,
        )
        .map(Choice::from)
    };
    match level {
        Level::Random => random_move(game, rng).map(unproven),
        Level::Lookahead { plies, tie_break } => {
            lookahead_move(game, plies, Evaluation::Plain, tie_break, rng, cutoff).map(Choice::from)
        }
        Level::Heuristic { plies } => heuristic(plies, rng),
        Level::Perfect => {
            let Some(solver) = solver else {
                return heuristic(HEURISTIC_PLIES, rng);
            };
            match best_column(game, solver, &exact_share(limits)) {
                Ok((column, score)) => Some(Choice {
                    column,
                    score: Some(score),
                    forced: None,
                    cut_short: None,
                }),
                Err(PerfectError::NoMove(_)) => None,
                Err(_) => heuristic(HEURISTIC_PLIES, rng),
            }
        }
    }
}

/// `limits` for perfect play's exact search: with a deadline, [`EXACT_QUARTERS`] of the time to
/// it, so that the heuristic search has the rest should the exact one not finish.
fn exact_share(limits: &Limits) -> Limits {
    let now = Instant::now();
    Limits {
        deadline: limits
            .deadline
            .map(|deadline| now + deadline.saturating_duration_since(now) * EXACT_QUARTERS / 4),
        ..limits.clone()
    }
}

/// The columns with the highest value, left to right.
pub fn best_of<T: Ord + Copy>(values: &[Option<T>]) -> Vec<Column> {
    let Some(best) = values.iter().flatten().max() else {
        return Vec::new();
    };
    values
        .iter()
        .enumerate()
        .filter(|(_, v)| v.as_ref() == Some(best))
        .map(|(i, _)| Column::from_index(i))
        .collect()
}

/// A uniformly random legal column (the letters program's computer player); `None` when the
/// game is over.
pub(crate) fn random_move(game: &Game, rng: &mut Rng) -> Option<Column> {
    let legal = game.legal_moves();
    (!legal.is_empty()).then(|| legal[rng.below(legal.len())])
}

/// A look-ahead choice: the column and whether its result is certain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lookahead {
    /// The column chosen.
    pub column: Column,
    /// What the search proved, when it saw the end of the game on every line it needed: a
    /// forced win, or every column losing.
    pub forced: Option<Forced>,
    /// When a `stop` or the deadline cut the search short: how many moves deep the look that
    /// chose went (1, unless a deadline let the search deepen one move at a time).
    pub cut_short: Option<u32>,
}

impl From<Lookahead> for Choice {
    fn from(choice: Lookahead) -> Choice {
        Choice {
            column: choice.column,
            score: None,
            forced: choice.forced,
            cut_short: choice.cut_short,
        }
    }
}

/// The pipes program's look-ahead player: values each column `plies` moves deep and takes the
/// best, breaking ties by `tie_break`. With `Evaluation::Windows`, positions at the depth limit
/// are judged by their open lines (the heuristic for boards and player counts the solver does not
/// cover).
/// With a deadline, the search deepens one move at a time and the deepest look that finished
/// chooses; without one it looks `plies` deep at once, and when `stop` is set before it
/// finishes, a one-move look (which always finishes) chooses. A choice cut short is not proven.
pub(crate) fn lookahead_move(
    game: &Game,
    plies: u32,
    evaluation: Evaluation,
    tie_break: TieBreak,
    rng: &mut Rng,
    cutoff: Cutoff<'_>,
) -> Option<Lookahead> {
    let plies = plies.max(1);
    let (depth, values) = if cutoff.deadline.is_some() {
        let (depth, values, _) = deepening(game, plies, evaluation, cutoff).last()?;
        (depth, values)
    } else {
        match column_values(game, plies, evaluation, cutoff) {
            Some(values) => (plies, values),
            None => (1, column_values(game, 1, evaluation, Cutoff::default())?),
        }
    };
    let best = best_of(&values);
    if best.is_empty() {
        return None;
    }
    let finished = depth == plies;
    let top = values[best[0].index()];
    let forced = if !finished {
        None
    } else if top == Some(WIN) {
        Some(Forced::Win)
    } else if values
        .iter()
        .flatten()
        .all(|&v| v == super::lookahead::LOSS)
    {
        Some(Forced::Loss)
    } else {
        None
    };
    Some(Lookahead {
        column: tie_break.pick(&best, rng),
        forced,
        cut_short: (!finished).then_some(depth),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use std::time::Duration;

    #[test]
    fn tie_breaks() {
        let g = Game::standard_after(&[]);
        let mut rng = Rng::new(1);
        let left = lookahead_move(
            &g,
            2,
            Evaluation::Plain,
            TieBreak::Left,
            &mut rng,
            Cutoff::default(),
        )
        .unwrap();
        let right = lookahead_move(
            &g,
            2,
            Evaluation::Plain,
            TieBreak::Right,
            &mut rng,
            Cutoff::default(),
        )
        .unwrap();
        assert_eq!((left.column.number(), right.column.number()), (1, 7));
        assert_eq!(left.forced, None);
    }

    #[test]
    fn takes_a_win_and_calls_it_proven() {
        let g = Game::standard_after(&[1, 2, 1, 2, 1, 2]);
        let m = lookahead_move(
            &g,
            3,
            Evaluation::Plain,
            TieBreak::Right,
            &mut Rng::new(0),
            Cutoff::default(),
        )
        .unwrap();
        assert_eq!(m.column.number(), 1);
        assert_eq!(m.forced, Some(Forced::Win));
    }

    #[test]
    fn sees_a_loss_it_cannot_stop() {
        // o holds b1 c1 d1 with a1 and e1 open: whatever x plays, o wins next.
        let g = Game::standard_after(&[7, 2, 7, 3, 6, 4]);
        let m = lookahead_move(
            &g,
            3,
            Evaluation::Windows,
            TieBreak::Left,
            &mut Rng::new(0),
            Cutoff::default(),
        )
        .unwrap();
        assert_eq!(m.forced, Some(Forced::Loss));
        // One move deep it cannot see o's reply.
        let shallow = lookahead_move(
            &g,
            1,
            Evaluation::Windows,
            TieBreak::Left,
            &mut Rng::new(0),
            Cutoff::default(),
        );
        assert_eq!(shallow.unwrap().forced, None);
    }

    #[test]
    fn perfect_play_wins_fastest_and_falls_back_when_stopped() {
        let g = Game::standard_after(&[4, 1, 5, 1, 6, 2]);
        let mut solver = Solver::with_table_bits(16);
        let mut rng = Rng::new(0);
        let c = choose(
            &g,
            Level::Perfect,
            Some(&mut solver),
            &mut rng,
            &Limits::default(),
        )
        .unwrap();
        assert!(c.proven());
        assert!([3, 7].contains(&c.column.number()));
        assert_eq!(c.score.map(|s| s.value()), Some(18));
        let stopped = Limits {
            max_nodes: Some(0),
            ..Limits::default()
        };
        let empty = Game::standard_after(&[]);
        let c = choose(
            &empty,
            Level::Perfect,
            Some(&mut solver),
            &mut rng,
            &stopped,
        )
        .unwrap();
        assert!(!c.proven());
        let v = Variant::new(7, 6, 4, Variant::default_tokens(3).unwrap(), true).unwrap();
        let c = choose(
            &Game::new(v),
            Level::Perfect,
            Some(&mut solver),
            &mut rng,
            &Limits::default(),
        )
        .unwrap();
        assert!(!c.proven());
    }

    #[test]
    fn with_a_deadline_the_deepest_look_that_finished_chooses() {
        // As in `sees_a_loss_it_cannot_stop`: with time enough, deepening answers as the
        // search of the whole depth does.
        let g = Game::standard_after(&[7, 2, 7, 3, 6, 4]);
        let cutoff = |deadline| Cutoff {
            stop: None,
            deadline: Some(deadline),
        };
        let whole = |cutoff| {
            lookahead_move(
                &g,
                3,
                Evaluation::Windows,
                TieBreak::Left,
                &mut Rng::new(0),
                cutoff,
            )
            .unwrap()
        };
        let later = cutoff(Instant::now() + Duration::from_secs(3600));
        assert_eq!(whole(later), whole(Cutoff::default()));
        assert_eq!(whole(later).cut_short, None);
        // Eight players on 16x16 and a deadline already passed: the one-move look chooses.
        let v = Variant::new(16, 16, 4, Variant::default_tokens(8).unwrap(), false).unwrap();
        let big = Game::new(v);
        let passed = cutoff(Instant::now());
        let m = lookahead_move(
            &big,
            12,
            Evaluation::Windows,
            TieBreak::Left,
            &mut Rng::new(0),
            passed,
        )
        .unwrap();
        let one = lookahead_move(
            &big,
            1,
            Evaluation::Windows,
            TieBreak::Left,
            &mut Rng::new(0),
            Cutoff::default(),
        )
        .unwrap();
        assert_eq!(
            (m.column, m.forced, m.cut_short),
            (one.column, None, Some(1))
        );
    }

    #[test]
    fn perfect_play_past_its_deadline_falls_back_to_a_shallow_look() {
        // The empty board takes the solver seconds without a book; the deadline has passed.
        let limits = Limits {
            deadline: Some(Instant::now()),
            ..Limits::default()
        };
        let c = choose(
            &Game::standard_after(&[]),
            Level::Perfect,
            Some(&mut Solver::with_table_bits(16)),
            &mut Rng::new(0),
            &limits,
        )
        .unwrap();
        // The looks that take less work than one look at the clock finish.
        assert!(!c.proven());
        assert!(
            matches!(c.cut_short, Some(d) if d < HEURISTIC_PLIES),
            "{c:?}"
        );
    }

    #[test]
    fn random_moves_are_legal_and_seeded() {
        let g = Game::standard_after(&[1, 1, 1, 1, 1, 1]);
        let pick = |seed| {
            let mut rng = Rng::new(seed);
            (0..20)
                .map(|_| random_move(&g, &mut rng).unwrap().number())
                .collect::<Vec<_>>()
        };
        assert_eq!(pick(7), pick(7));
        assert!(pick(7).iter().all(|&c| (2..=7).contains(&c)));
    }
}
