//! Searches that run beside the reading of input (`solve`, `analyze`, `go`, `genmove`, `hint`):
//! each takes a copy of the game and the session's solver and hands them back with its answer,
//! a typed [`Response`], and stops when its flag is set, so that a `stop` read while it thinks is
//! honoured. Playing `genmove`'s move is the session's business.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

use super::command::GoRequest;
use super::reply::{HintReason, Response};
use crate::engine::perfect::{best_columns, column_scores, solver_position, Meaning, PerfectError};
use crate::engine::{choose, Choice, Level, Rng, HEURISTIC_PLIES};
use crate::rules::{Column, Game};
use crate::solver::{Limits, Solver};

/// Why a search gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchError {
    /// The solver cannot answer for this game, or was stopped.
    #[error("{0}")]
    Perfect(#[from] PerfectError),
    /// `go`, `genmove` or `hint` on a finished game.
    #[error("the game is over ({0}); there is no move to choose")]
    NoMove(String),
}

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
    pub(super) answer: Result<(Response, Option<Column>), SearchError>,
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
        let bounds = request.map(GoRequest::bounds).unwrap_or_default();
        Limits {
            max_nodes: bounds.nodes,
            stop: Some(Arc::clone(&self.stop)),
            deadline: bounds
                .movetime
                .map(|ms| Instant::now() + Duration::from_millis(ms)),
        }
    }

    fn answer(&mut self) -> Result<(Response, Option<Column>), SearchError> {
        let game = &self.game;
        match self.kind {
            SearchKind::Solve { weak: false } => {
                let limits = self.limits(None);
                let (score, best) = best_columns(game, &mut self.solver, &limits)?;
                let meaning = Meaning::of(score, game);
                Ok((
                    Response::Solved {
                        score,
                        meaning,
                        best,
                    },
                    None,
                ))
            }
            SearchKind::Solve { weak: true } => {
                let position = solver_position(game)?;
                let limits = self.limits(None);
                let outcome = self
                    .solver
                    .solve_weak_within(&position, &limits)
                    .map_err(PerfectError::from)?;
                let v = game.variant();
                let (mover, other) = (v.token(game.to_move()), v.token(v.next(game.to_move())));
                Ok((
                    Response::Weak {
                        outcome,
                        mover,
                        other,
                    },
                    None,
                ))
            }
            SearchKind::Analyze => {
                let limits = self.limits(None);
                let scores = column_scores(game, &mut self.solver, &limits)?;
                Ok((Response::Analysis(scores), None))
            }
            SearchKind::Go(request) | SearchKind::Genmove(request) => {
                let limits = self.limits(Some(&request));
                let choice = choose_move(game, &request, &mut self.solver, &mut self.rng, &limits)?;
                let play = matches!(self.kind, SearchKind::Genmove(_)).then_some(choice.column);
                let response = Response::BestMove {
                    column: choice.column,
                    proven: choice.proven,
                    played: None,
                };
                Ok((response, play))
            }
            SearchKind::Hint => {
                let request = GoRequest::default();
                let limits = self.limits(Some(&request));
                let choice = choose_move(game, &request, &mut self.solver, &mut self.rng, &limits)?;
                let reason = match choice.score {
                    Some(score) => HintReason::Exact(Meaning::of(score, game)),
                    None if choice.stopped => HintReason::Stopped,
                    None => HintReason::NoForcedResult(HEURISTIC_PLIES),
                };
                let response = Response::Hint {
                    mover: game.variant().token(game.to_move()),
                    column: choice.column,
                    reason,
                };
                Ok((response, None))
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
) -> Result<Choice, SearchError> {
    let level = match (request.level(), request.bounds().depth) {
        (Level::Perfect, Some(depth)) if game.board().empty_cells() > depth as usize => {
            Level::Heuristic { plies: depth }
        }
        (level, _) => level,
    };
    choose(game, level, Some(solver), rng, limits)
        .ok_or_else(|| SearchError::NoMove(game.outcome_summary()))
}
