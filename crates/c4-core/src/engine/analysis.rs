//! The streaming analysis (`analyze stream`, UGI's `go infinite`): every column's score found in
//! rounds of growing node budgets, centre first, on threads side by side when the solver has
//! them, and reported as it narrows ([`Info`]); where the solver cannot play, the heuristic
//! search deepened one move at a time. The front end says when to end it (a stop flag, a
//! deadline) and what to do with each `info`; writing it out is the protocol's.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::lookahead::{deepening, Evaluation};
use super::perfect::{best_column, solver_position, PerfectError};
use super::{best_of, Cutoff, HEURISTIC_PLIES};
use crate::clock::Instant;
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

/// What a streaming analysis knows of one column so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnView {
    /// The column cannot be played.
    Full,
    /// The exact score, proven.
    Exact(Score),
    /// The exact score lies between these, inclusive.
    Between(Score, Score),
    /// The heuristic search's value (from a loss at 0 to a win at 100).
    Value(i32),
}

/// One `info` line of `analyze stream`: every column's view, the positions searched, and the
/// best line so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// How deep the heuristic search looked; `None` for the exact search.
    pub depth: Option<u32>,
    /// Positions searched since the analysis began.
    pub nodes: u64,
    /// Every column, left to right.
    pub columns: Vec<ColumnView>,
    /// The best line so far, starting with the side to move's column.
    pub pv: Vec<Column>,
}

/// A streaming analysis of one position: what it searches with, and when it must end.
pub(crate) struct Analysis<'a> {
    /// The position.
    pub game: &'a Game,
    /// The solver, whose table and threads it uses.
    pub solver: &'a mut Solver,
    /// Set by another thread to end the analysis.
    pub stop: Arc<AtomicBool>,
    /// When the analysis ends, if not before.
    pub deadline: Option<Instant>,
    /// How often an `info` comes while nothing new is proven.
    pub interval: Duration,
    /// The most positions the exact search may take.
    pub max_nodes: Option<u64>,
}

impl Analysis<'_> {
    /// Runs the analysis: exact where the solver plays, else the heuristic search, until it is
    /// finished, out of nodes, stopped or past the deadline, handing every `info` to `emit` as
    /// it is due; the last one is the final answer. A failure of `emit` ends it and is given
    /// back.
    pub(crate) fn run<E>(mut self, emit: &mut dyn FnMut(&Info) -> Result<(), E>) -> Result<(), E> {
        match solver_position(self.game) {
            Ok(position) => with_position!(position, |position| self.exact(&position, emit)),
            Err(PerfectError::GameOver(_)) => Ok(()),
            Err(_) => self.heuristic(emit),
        }
    }

    /// Whether the analysis must end: stopped, or past the deadline.
    fn is_cut(&self) -> bool {
        Cutoff {
            stop: Some(&self.stop),
            deadline: self.deadline,
        }
        .is_reached()
    }

    /// Solves every column in rounds, centre first, each round with twice the node budget of
    /// the last, so that all the columns' bounds narrow together, until done, stopped or past
    /// the deadline. An `info` line is written when a column's score is proven, when the interval
    /// has passed, and at the end.
    fn exact<B: Bitboard, E>(
        &mut self,
        position: &Position<B>,
        emit: &mut dyn FnMut(&Info) -> Result<(), E>,
    ) -> Result<(), E> {
        let deadline = self.deadline;
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
        let interval = self.interval;
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
                let left = self.max_nodes.map(|n| n.saturating_sub(used));
                let share = left.map_or(budget, |left| budget.min(left / open.len() as u64));
                if share == 0 || self.is_cut() {
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
                    let left = self.max_nodes.map(|n| n.saturating_sub(used));
                    if left == Some(0) || self.is_cut() {
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
        let pv_nodes = self
            .max_nodes
            .map_or(PV_NODES, |n| n.saturating_sub(used).min(PV_NODES));
        let info = self.final_info(&views, start, pv_nodes);
        emit_new(&mut last, info, emit)
    }

    /// The exact search's final `info`: [`progress_info`], its best line followed past its first
    /// move, when that is proven, within `pv_nodes` more positions and by the deadline.
    fn final_info(&mut self, views: &[ColumnView], start: u64, pv_nodes: u64) -> Info {
        let deadline = self.deadline;
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
                    let Ok((column, _)) = best_column(&game, self.solver, &limits) else {
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
    /// line for each depth it completes, until stopped or past the deadline; the one-move look
    /// always finishes.
    fn heuristic<E>(&mut self, emit: &mut dyn FnMut(&Info) -> Result<(), E>) -> Result<(), E> {
        let deadline = self.deadline;
        let mut nodes = 0;
        let mut last: Option<Info> = None;
        let cutoff = Cutoff {
            stop: Some(&self.stop),
            deadline,
        };
        for (plies, values, searched) in
            deepening(self.game, HEURISTIC_PLIES, Evaluation::Windows, cutoff)
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
fn emit_new<E>(
    last: &mut Option<Info>,
    info: Info,
    emit: &mut dyn FnMut(&Info) -> Result<(), E>,
) -> Result<(), E> {
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
