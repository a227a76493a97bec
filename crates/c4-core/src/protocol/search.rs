//! Searches that run beside the reading of input (`solve`, `analyze`, `go`, `genmove`, `hint`,
//! `perft`, `analyze stream`): each takes a copy of the game and the session's solver and hands
//! them back with its answer, a typed [`Response`], and stops when its flag is set, so that a
//! `stop` read while it thinks is honoured, or when the session's time limit is up, as if a
//! `stop` had come then. `analyze stream` hands its typed `info` lines to the interpreter
//! as they come. Playing `genmove`'s move is the session's business.

use std::io;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use thiserror::Error;

use super::command::{GoRequest, StreamRequest};
use super::reply::{ColumnView, HintReason, Info, Response};
use crate::clock::Instant;
use crate::engine::lookahead::{deepening, Evaluation};
use crate::engine::perfect::{
    best_column, best_columns, column_scores, solver_position, Meaning, PerfectError,
};
use crate::engine::{best_of, choose, Choice, Cutoff, Level, Rng, HEURISTIC_PLIES};
use crate::rules::{Column, Game};
use crate::solver::{with_position, Bitboard, Limits, Position, Score, Solver, SolverError};

/// The node budget of each column in the first round of a streaming exact analysis; it doubles
/// every round, so that every column's bounds narrow together.
const STREAM_FIRST_BUDGET: u64 = 4096;

/// The most moves the final `info` line's best line gives.
const PV_MOVES: usize = 8;

/// The node budget for extending the final best line past its first move (less when the
/// analysis's node limit leaves less).
const PV_NODES: u64 = 200_000;

/// Why a search gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchError {
    /// The solver cannot answer for this game, or was stopped.
    #[error("{0}")]
    Perfect(#[from] PerfectError),
    /// `go`, `genmove` or `hint` on a finished game.
    #[error("the game is over ({0}); there is no move to choose")]
    NoMove(String),
    /// `perft` was stopped before it had counted every sequence.
    #[error("perft stopped before it finished depth {0}")]
    PerftStopped(u32),
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
            SearchKind::Stream(request) => self.stream(request, emit),
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

impl Search {
    /// The streaming analysis: exact where the solver plays, else the heuristic search; it
    /// ends at the session's time limit as at a `stop`.
    fn stream(
        &mut self,
        request: StreamRequest,
        emit: &mut dyn FnMut(&Info) -> io::Result<()>,
    ) -> io::Result<()> {
        let deadline = self.deadline(None);
        match solver_position(&self.game) {
            Ok(position) => with_position!(position, |position| self
                .stream_exact(&position, request, deadline, emit)),
            Err(PerfectError::GameOver(_)) => Ok(()),
            Err(_) => self.stream_heuristic(deadline, emit),
        }
    }

    /// Whether the analysis must end: stopped, or past `deadline`.
    fn is_cut(&self, deadline: Option<Instant>) -> bool {
        Cutoff {
            stop: Some(&self.stop),
            deadline,
        }
        .is_reached()
    }

    /// Solves every column in rounds, centre first, each round with twice the node budget of
    /// the last, so that all the columns' bounds narrow together, until done, stopped or past
    /// `deadline`. An `info` line is written when a column's score is proven, when the interval
    /// has passed, and at the end.
    fn stream_exact<B: Bitboard>(
        &mut self,
        position: &Position<B>,
        request: StreamRequest,
        deadline: Option<Instant>,
        emit: &mut dyn FnMut(&Info) -> io::Result<()>,
    ) -> io::Result<()> {
        let width = position.width();
        let win_now = (position.width() * position.height() + 1 - position.moves_played()) / 2;
        // No column scores more than the position, when the book knows its score.
        let ceiling = self
            .solver
            .known_score(position)
            .unwrap_or(Score::new(win_now as i8));
        let mut views: Vec<ColumnView> = (0..width)
            .map(|c| {
                if !position.can_play(c) {
                    ColumnView::Full
                } else if position.is_winning_move(c) {
                    ColumnView::Exact(Score::new(win_now as i8))
                } else {
                    ColumnView::Between(Score::new(-(win_now as i8)), ceiling)
                }
            })
            .collect();
        let interval = Duration::from_millis(request.interval);
        // Each search ends at the next line's time or at the deadline, whichever comes first.
        let until = |line_due: Instant| Some(deadline.map_or(line_due, |d| d.min(line_due)));
        let start = self.solver.nodes();
        let mut next_info = Instant::now() + interval;
        let mut last: Option<Info> = None;
        let mut budget = STREAM_FIRST_BUDGET;
        'rounds: loop {
            let open: Vec<u32> = centre_first(width as usize)
                .into_iter()
                .map(|c| c as u32)
                .filter(|&c| matches!(views[c as usize], ColumnView::Between(..)))
                .collect();
            if open.is_empty() {
                break;
            }
            if self.solver.threads() > 1 && open.len() > 1 {
                // The columns side by side, a thread each, within the nodes left shared out;
                // each search stops at the next line's time as it stands when it starts.
                let used = self.solver.nodes() - start;
                let left = request.nodes.map(|n| n.saturating_sub(used));
                let share = left.map_or(budget, |left| budget.min(left / open.len() as u64));
                if share == 0 || self.is_cut(deadline) {
                    break;
                }
                let (columns, searches): (Vec<u32>, Vec<_>) = open
                    .iter()
                    .filter_map(|&column| {
                        let mut child = *position;
                        child.play_column(column).ok()?;
                        let ColumnView::Between(low, high) = views[column as usize] else {
                            return None;
                        };
                        Some((column, (child, high.flipped(), low.flipped())))
                    })
                    .unzip();
                let stop = Arc::clone(&self.stop);
                let line_due = Mutex::new(next_info);
                let limits = || Limits {
                    max_nodes: Some(share),
                    stop: Some(Arc::clone(&stop)),
                    deadline: until(*line_due.lock().unwrap_or_else(PoisonError::into_inner)),
                };
                let (mut written, mut failed) = (Ok(()), false);
                self.solver
                    .solve_side_by_side(&searches, &limits, |index, result, nodes| {
                        let view = &mut views[columns[index] as usize];
                        let Some(proven) = narrow(view, result) else {
                            failed = true;
                            return false;
                        };
                        let mut due = line_due.lock().unwrap_or_else(PoisonError::into_inner);
                        // After a failed write, nothing more is written.
                        if written.is_ok() && (proven || Instant::now() >= *due) {
                            let info = progress_info(&views, nodes - start);
                            written = emit_new(&mut last, info, emit);
                            *due = Instant::now() + interval;
                        }
                        let cutoff = Cutoff {
                            stop: Some(&stop),
                            deadline,
                        };
                        written.is_ok() && !cutoff.is_reached()
                    });
                next_info = line_due
                    .into_inner()
                    .unwrap_or_else(PoisonError::into_inner);
                written?;
                if failed {
                    break;
                }
            } else {
                for column in open {
                    let used = self.solver.nodes() - start;
                    let left = request.nodes.map(|n| n.saturating_sub(used));
                    if left == Some(0) || self.is_cut(deadline) {
                        break 'rounds;
                    }
                    let limits = Limits {
                        max_nodes: Some(left.map_or(budget, |left| left.min(budget))),
                        stop: Some(Arc::clone(&self.stop)),
                        deadline: until(next_info),
                    };
                    let mut child = *position;
                    // A column still open is playable: the error cannot come.
                    if child.play_column(column).is_err() {
                        break 'rounds;
                    }
                    let view = &mut views[column as usize];
                    // Open columns are the unproven ones: the other arm cannot come.
                    let ColumnView::Between(low, high) = *view else {
                        break 'rounds;
                    };
                    let result =
                        self.solver
                            .solve_between(&child, high.flipped(), low.flipped(), &limits);
                    let Some(proven) = narrow(view, result) else {
                        break 'rounds;
                    };
                    if proven || Instant::now() >= next_info {
                        let info = progress_info(&views, self.solver.nodes() - start);
                        emit_new(&mut last, info, emit)?;
                        next_info = Instant::now() + interval;
                    }
                }
            }
            budget = budget.saturating_mul(2);
        }
        let used = self.solver.nodes() - start;
        let pv_nodes = request
            .nodes
            .map_or(PV_NODES, |n| n.saturating_sub(used).min(PV_NODES));
        let info = self.exact_info(&views, start, pv_nodes, deadline);
        emit_new(&mut last, info, emit)
    }

    /// The exact search's final `info`: [`progress_info`], its best line followed past its first
    /// move, when that is proven, within `pv_nodes` more positions and by `deadline`.
    fn exact_info(
        &mut self,
        views: &[ColumnView],
        start: u64,
        pv_nodes: u64,
        deadline: Option<Instant>,
    ) -> Info {
        let mut info = progress_info(views, self.solver.nodes() - start);
        let Some(&first) = info.pv.first() else {
            return info;
        };
        if pv_nodes > 0 && matches!(views[first.index()], ColumnView::Exact(_)) {
            let mut game = self.game.clone();
            let pv_start = self.solver.nodes();
            if game.play(first).is_ok() {
                while info.pv.len() < PV_MOVES {
                    let used = self.solver.nodes() - pv_start;
                    let limits = Limits {
                        max_nodes: Some(pv_nodes.saturating_sub(used).max(1)),
                        stop: Some(Arc::clone(&self.stop)),
                        deadline,
                    };
                    if used >= pv_nodes {
                        break;
                    }
                    let Ok((column, _)) = best_column(&game, &mut self.solver, &limits) else {
                        break;
                    };
                    if game.play(column).is_err() {
                        break;
                    }
                    info.pv.push(column);
                }
            }
        }
        info
    }

    /// Deepens the heuristic search one move at a time up to its usual depth, writing an `info`
    /// line for each depth it completes, until stopped or past `deadline`; the one-move look
    /// always finishes.
    fn stream_heuristic(
        &mut self,
        deadline: Option<Instant>,
        emit: &mut dyn FnMut(&Info) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut nodes = 0;
        let mut last: Option<Info> = None;
        let cutoff = Cutoff {
            stop: Some(&self.stop),
            deadline,
        };
        for (plies, values, searched) in
            deepening(&self.game, HEURISTIC_PLIES, Evaluation::Windows, cutoff)
        {
            nodes += searched;
            let pv = best_of(&values).into_iter().take(1).collect();
            let columns = values
                .iter()
                .map(|v| v.map_or(ColumnView::Full, ColumnView::Value))
                .collect();
            let info = Info {
                depth: Some(plies),
                nodes,
                columns,
                pv,
            };
            emit_new(&mut last, info, emit)?;
        }
        Ok(())
    }
}

/// Narrows a column's view to what a search of its position (from the opponent's side) found:
/// its exact score, or the bounds an interrupted search proved. Returns whether it is exact;
/// `None` for a search that could not start, which ends the analysis (the child of a legal move
/// in a game the solver plays is always valid, so it does not come).
fn narrow(view: &mut ColumnView, result: Result<Score, SolverError>) -> Option<bool> {
    let ColumnView::Between(low, high) = *view else {
        return None;
    };
    match result {
        Ok(score) => {
            *view = ColumnView::Exact(score.flipped());
            Some(true)
        }
        Err(SolverError::Interrupted { lower, upper }) => {
            *view = ColumnView::Between(low.max(upper.flipped()), high.min(lower.flipped()));
            Some(false)
        }
        Err(_) => None,
    }
}

/// The exact search's `info` while it runs: the views, `nodes`, and the best column so far
/// (the highest lower bound, then upper bound, then nearest the centre) as the line.
fn progress_info(views: &[ColumnView], nodes: u64) -> Info {
    let rank = |view: &ColumnView| match *view {
        ColumnView::Exact(s) => Some((s, s)),
        ColumnView::Between(low, high) => Some((low, high)),
        ColumnView::Full | ColumnView::Value(_) => None,
    };
    let mut best: Option<usize> = None;
    for c in centre_first(views.len()) {
        if let Some(r) = rank(&views[c]) {
            if best.is_none_or(|b| rank(&views[b]).is_some_and(|br| r > br)) {
                best = Some(c);
            }
        }
    }
    Info {
        depth: None,
        nodes,
        columns: views.to_vec(),
        pv: best.map(Column::from_index).into_iter().collect(),
    }
}

/// Hands `info` to `emit` unless it says what the last line said.
fn emit_new(
    last: &mut Option<Info>,
    info: Info,
    emit: &mut dyn FnMut(&Info) -> io::Result<()>,
) -> io::Result<()> {
    if last.as_ref() != Some(&info) {
        emit(&info)?;
        *last = Some(info);
    }
    Ok(())
}

/// Column indexes from the centre outwards, the left one first of two equally near.
fn centre_first(width: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..width).collect();
    order.sort_by_key(|&c| ((2 * c as isize - (width as isize - 1)).abs(), c));
    order
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
