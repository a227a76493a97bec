//! Searches that run beside the reading of input (`solve`, `analyze`, `go`, `genmove`, `hint`):
//! each takes a copy of the game and the session's solver and hands them back with its answer,
//! and stops when its flag is set, so that a `stop` read while it thinks is honoured.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::command::GoRequest;
use super::reply::Response;
use super::session::SessionError;
use crate::engine::perfect::{best_columns, column_scores, describe, solver_position};
use crate::engine::{choose, Choice, Level, Rng, HEURISTIC_PLIES};
use crate::rules::{Column, Game};
use crate::solver::{Limits, Outcome as WeakOutcome, Solver};

/// Which search, with its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchKind {
    /// `solve [weak]`
    Solve { weak: bool },
    /// `analyze`
    Analyze,
    /// `go ...`
    Go(GoRequest),
    /// `genmove ...`
    Genmove(GoRequest),
    /// `hint`
    Hint,
}

/// A search ready to run: everything it needs, owned.
pub struct Search {
    pub(super) kind: SearchKind,
    pub(super) game: Game,
    pub(super) solver: Solver,
    pub(super) rng: Rng,
    pub(super) stop: Arc<AtomicBool>,
}

/// What a search hands back.
pub struct Finished {
    /// The solver, to keep its table for the next search.
    pub(super) solver: Solver,
    /// The random generator, advanced by any random choice.
    pub(super) rng: Rng,
    /// The reply, and for `genmove` the column to play.
    pub(super) answer: Result<(Response, Option<Column>), SessionError>,
}

impl Search {
    /// The flag that stops this search when set.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Runs the search to the end, or until stopped or out of bounds.
    pub fn run(mut self) -> Finished {
        let answer = self.answer();
        Finished {
            solver: self.solver,
            rng: self.rng,
            answer,
        }
    }

    fn limits(&self, request: Option<&GoRequest>) -> Limits {
        Limits {
            max_nodes: request.and_then(|r| r.nodes),
            stop: Some(Arc::clone(&self.stop)),
            deadline: request
                .and_then(|r| r.movetime)
                .map(|ms| Instant::now() + Duration::from_millis(ms)),
        }
    }

    fn answer(&mut self) -> Result<(Response, Option<Column>), SessionError> {
        let game = &self.game;
        match self.kind {
            SearchKind::Solve { weak: false } => {
                let limits = self.limits(None);
                let (score, best) = best_columns(game, &mut self.solver, &limits)?;
                let best: Vec<String> = best.iter().map(Column::to_string).collect();
                let text = format!(
                    "score {score}; {}; best {}",
                    describe(score, game),
                    best.join(" ")
                );
                Ok((Response::Line(text), None))
            }
            SearchKind::Solve { weak: true } => {
                let position = solver_position(game)?;
                let limits = self.limits(None);
                let outcome = self
                    .solver
                    .solve_weak_within(&position, &limits)
                    .map_err(crate::engine::perfect::PerfectError::from)?;
                let v = game.variant();
                let (mover, other) = (v.token(game.to_move()), v.token(v.next(game.to_move())));
                let text = match outcome {
                    WeakOutcome::Win => format!("win; {mover} can force a win"),
                    WeakOutcome::Draw => "draw; neither side can force a win".to_string(),
                    WeakOutcome::Loss => format!("loss; {other} can force a win"),
                };
                Ok((Response::Line(text), None))
            }
            SearchKind::Analyze => {
                let limits = self.limits(None);
                let scores = column_scores(game, &mut self.solver, &limits)?;
                let words: Vec<String> = scores
                    .iter()
                    .map(|s| s.map_or("full".to_string(), |s| s.to_string()))
                    .collect();
                Ok((Response::Line(words.join(" ")), None))
            }
            SearchKind::Go(request) | SearchKind::Genmove(request) => {
                let limits = self.limits(Some(&request));
                let choice = choose_move(game, &request, &mut self.solver, &mut self.rng, &limits)?;
                let proven = if choice.proven { "proven" } else { "unproven" };
                let text = format!("bestmove {} {proven}", choice.column);
                let play = matches!(self.kind, SearchKind::Genmove(_)).then_some(choice.column);
                Ok((Response::Line(text), play))
            }
            SearchKind::Hint => {
                let request = GoRequest::default();
                let limits = self.limits(Some(&request));
                let choice = choose_move(game, &request, &mut self.solver, &mut self.rng, &limits)?;
                let v = game.variant();
                let who = v.token(game.to_move());
                let why = match choice.score {
                    Some(score) => describe(score, game),
                    None if choice.stopped => {
                        "stopped before it looked further than one move".into()
                    }
                    None => format!("no forced result within {HEURISTIC_PLIES} moves"),
                };
                Ok((
                    Response::Line(format!("{who} should play column {}: {why}", choice.column)),
                    None,
                ))
            }
        }
    }
}

/// The move `go` or `genmove` chooses: `depth` turns perfect play into the heuristic search
/// when the game could last longer than that many moves.
fn choose_move(
    game: &Game,
    request: &GoRequest,
    solver: &mut Solver,
    rng: &mut Rng,
    limits: &Limits,
) -> Result<Choice, SessionError> {
    let level = match (request.level, request.depth) {
        (None | Some(Level::Perfect), Some(depth))
            if game.board().empty_cells() > depth as usize =>
        {
            Level::Heuristic { plies: depth }
        }
        (level, _) => level.unwrap_or(Level::Perfect),
    };
    choose(game, level, Some(solver), rng, limits)
        .ok_or_else(|| SessionError::NoMove(game.outcome_summary()))
}
