//! Searches that run beside the reading of input (`solve`, `analyze`, `go`, `genmove`, `hint`,
//! `perft`, `analyze stream`): each takes a copy of the game and the session's solver and hands
//! them back with its answer, a typed [`Response`], and stops when its flag is set, so that a
//! `stop` read while it thinks is honoured, or when the session's time limit is up, as if a
//! `stop` had come then. `analyze stream` hands its typed `info` lines to the interpreter
//! as they come. Playing `genmove`'s move is the session's business.

use std::io;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;

use super::command::{GoRequest, StreamRequest};
use super::reply::{HintReason, Info, Response};
use crate::clock::Instant;
use crate::engine::analysis::Analysis;
use crate::engine::perfect::{best_columns, column_scores, solver_position, Meaning, PerfectError};
use crate::engine::{choose, Choice, Cutoff, Level, Rng, HEURISTIC_PLIES};
use crate::rules::{Column, Game};
use crate::solver::{with_position, Limits, Solver};

/// Why a search gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchError {
    /// The solver cannot answer for this game, or was stopped.
    #[error("{0}")]
    Perfect(#[from] PerfectError),
    /// `perft` was stopped before it had counted every sequence.
    #[error("perft stopped before it finished depth {0}")]
    PerftStopped(u32),
}

/// Which search, with its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SearchKind {
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
    /// `perft <depth>`
    Perft(u32),
    /// `analyze stream ...`
    Stream(StreamRequest),
}

/// A search ready to run: everything it needs, owned.
pub struct Search {
    pub(super) kind: SearchKind,
    pub(super) game: Game,
    pub(super) solver: Solver,
    pub(super) rng: Rng,
    pub(super) stop: Arc<AtomicBool>,
    /// The session's limit on every search's time, counted from when it starts.
    pub(super) time_limit: Option<Duration>,
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

impl Finished {
    /// The solver's node count after the search (it counts from when the table was made).
    pub fn nodes(&self) -> u64 {
        self.solver.nodes()
    }
}

impl Search {
    /// The solver's node count before the search (it counts from when the table was made).
    pub fn nodes(&self) -> u64 {
        self.solver.nodes()
    }

    /// The flag that stops this search when set.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Whether this is a streaming analysis, which writes `info` lines as it goes (run it with
    /// [`Search::run_stream`]) and which any line read meanwhile ends.
    pub fn is_stream(&self) -> bool {
        matches!(self.kind, SearchKind::Stream(_))
    }

    /// Runs a streaming analysis until it is finished, out of nodes or stopped, handing every
    /// `info` line to `emit` as it is due; the last one is the final answer. Any other search
    /// just runs. A failure to write stops the analysis and is given back.
    pub fn run_stream(
        mut self,
        emit: &mut dyn FnMut(&Info) -> io::Result<()>,
    ) -> (Finished, io::Result<()>) {
        let written = match self.kind {
            SearchKind::Stream(request) => Analysis {
                deadline: self.deadline(None),
                game: &self.game,
                solver: &mut self.solver,
                stop: Arc::clone(&self.stop),
                interval: Duration::from_millis(request.interval),
                max_nodes: request.nodes,
            }
            .run(emit),
            _ => Ok(()),
        };
        let answer = match self.kind {
            SearchKind::Stream(_) => Ok((Response::Done, None)),
            _ => self.answer(),
        };
        let finished = Finished {
            solver: self.solver,
            rng: self.rng,
            answer,
        };
        (finished, written)
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

    /// When a search starting now must answer: at the session's time limit or after `movetime`
    /// milliseconds, whichever comes first; `None` when neither bounds it.
    fn deadline(&self, movetime: Option<u64>) -> Option<Instant> {
        let movetime = movetime.map(Duration::from_millis);
        let time = match (self.time_limit, movetime) {
            (Some(limit), Some(movetime)) => Some(limit.min(movetime)),
            (limit, movetime) => limit.or(movetime),
        };
        // A time too long for the clock to count is no limit.
        time.and_then(|time| Instant::now().checked_add(time))
    }

    fn limits(&self, request: Option<&GoRequest>) -> Limits {
        let bounds = request.map(GoRequest::bounds).unwrap_or_default();
        Limits {
            max_nodes: bounds.nodes,
            stop: Some(Arc::clone(&self.stop)),
            deadline: self.deadline(bounds.movetime),
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
                let solver = &mut self.solver;
                let outcome = with_position!(position, |position| solver
                    .solve_weak_within(&position, &limits))
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
                    proven: choice.proven(),
                    score: choice.score,
                    played: None,
                };
                Ok((response, play))
            }
            // A streaming analysis answers through `run_stream`; run whole, it says nothing more.
            SearchKind::Stream(_) => Ok((Response::Done, None)),
            SearchKind::Perft(depth) => {
                let mut watch = Cutoff {
                    stop: Some(&self.stop),
                    deadline: self.deadline(None),
                }
                .watch();
                let count = game
                    .clone()
                    .perft(depth as usize, &mut || !watch.spend(1))
                    .ok_or(SearchError::PerftStopped(depth))?;
                Ok((Response::Count(count), None))
            }
            SearchKind::Hint => {
                let request = GoRequest::default();
                let limits = self.limits(Some(&request));
                let choice = choose_move(game, &request, &mut self.solver, &mut self.rng, &limits)?;
                let reason = match (choice.score, choice.forced) {
                    (Some(score), _) => HintReason::Exact(Meaning::of(score, game)),
                    (None, Some(outcome)) => HintReason::Forced {
                        outcome,
                        plies: HEURISTIC_PLIES,
                        players: game.variant().players(),
                    },
                    (None, None) => match choice.cut_short {
                        Some(plies) => HintReason::Stopped(plies),
                        None => HintReason::NoForcedResult(HEURISTIC_PLIES),
                    },
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
        .ok_or_else(|| SearchError::Perfect(PerfectError::NoMove(game.outcome_summary())))
}

#[cfg(test)]
mod tests {
    use super::super::command::{parse_request, Command};
    use super::super::session::{Session, SessionError, Step};
    use super::*;

    /// Runs `line` in `session`: its reply, or its search's.
    fn run(session: &mut Session, line: &str) -> Result<Response, SessionError> {
        let command = parse_request(line).command.unwrap();
        match session.execute(command) {
            Step::Reply(result, _) => result,
            Step::Search(search) => session.finish(search.run()),
        }
    }

    /// A session whose searches may take 20 ms, on the costliest game there is.
    fn limited_to_8_players_on_16x16() -> Session {
        let mut session = Session::default();
        session.set_search_time_limit(Some(Duration::from_millis(20)));
        run(&mut session, "new 16x16 players 8").unwrap();
        session
    }

    #[test]
    fn a_time_limit_ends_a_search_as_a_stop_does() {
        // Without the book the empty board takes the solver seconds.
        let mut session = Session::default();
        session.set_search_time_limit(Some(Duration::from_millis(20)));
        run(&mut session, "book off").unwrap();
        for line in ["solve", "solve weak", "analyze"] {
            let stopped = run(&mut session, line).unwrap_err().to_string();
            assert!(
                stopped.starts_with("the search stopped before it found the exact score"),
                "{line}: {stopped}"
            );
        }
        // Perft, the heuristic search and the look-ahead would take years here.
        let mut session = limited_to_8_players_on_16x16();
        assert_eq!(
            run(&mut session, "perft 12").unwrap_err().to_string(),
            "perft stopped before it finished depth 12"
        );
        let Ok(Response::Hint {
            reason: HintReason::Stopped(plies),
            ..
        }) = run(&mut session, "hint")
        else {
            panic!("the hint was not cut short");
        };
        assert!(plies < HEURISTIC_PLIES);
        for line in [
            "go",
            "go depth 12",
            "go lookahead 12",
            "genmove movetime 86400000",
        ] {
            assert!(
                matches!(
                    run(&mut session, line),
                    Ok(Response::BestMove { proven: false, .. })
                ),
                "{line}"
            );
        }
        // genmove played its move.
        assert_eq!(session.game().ply(), 1);
    }

    #[test]
    fn a_time_limit_ends_a_streaming_analysis_with_its_last_line() {
        let mut session = limited_to_8_players_on_16x16();
        let Step::Search(search) =
            session.execute(parse_request("analyze stream").command.unwrap())
        else {
            panic!("analyze stream did not search");
        };
        let mut depths = Vec::new();
        let (finished, written) = search.run_stream(&mut |info| {
            depths.push(info.depth);
            Ok(())
        });
        written.unwrap();
        session.end_stream(finished);
        // One line per depth finished, the one-move look's at least, and not the last depth.
        assert_eq!(depths.first(), Some(&Some(1)));
        assert!(depths.len() < HEURISTIC_PLIES as usize, "{depths:?}");
    }

    #[test]
    fn the_deadline_is_the_earlier_of_the_time_limit_and_movetime() {
        let mut session = Session::default();
        let search = |session: &mut Session| match session.execute(Command::Hint) {
            Step::Search(search) => search,
            Step::Reply(..) => panic!("hint did not search"),
        };
        assert_eq!(search(&mut session).deadline(None), None);
        session.set_search_time_limit(Some(Duration::from_secs(3600)));
        let soon = Instant::now() + Duration::from_secs(60);
        assert!(search(&mut session)
            .deadline(Some(10))
            .is_some_and(|d| d < soon));
        assert!(search(&mut session)
            .deadline(None)
            .is_some_and(|d| d > soon));
        // A limit too long for the clock is none.
        session.set_search_time_limit(Some(Duration::MAX));
        assert_eq!(search(&mut session).deadline(None), None);
    }
}
