//! The UGI dialect's state: the protocol's [`Session`] (the game, the solver and its table, the
//! book, the threads) and the level `go` plays at. Each [`UgiCommand`] becomes the protocol
//! command that does the same (`position`, `hash`, `threads`, `book`, `go`), so both dialects
//! change the game by one set of rules; this module only translates, answers `query`, and
//! turns a finished search into `info` and `bestmove`.

use super::budget::budget;
use super::command::{EngineOption, GoLimits, Query, UgiCommand};
use super::reply::{Answer, GameResult, SearchInfo, UgiReply, UgiScore};
use crate::engine::perfect::Meaning;
use crate::engine::Level;
use crate::notation::Settings;
use crate::protocol::command::{BookRequest, Bounds, Command, GoRequest, StreamRequest};
use crate::protocol::reply::{ColumnView, Info, Response};
use crate::protocol::search::{Finished, Search};
use crate::protocol::session::{Session, Step};
use crate::protocol::trust::Trust;
use crate::rules::{Game, Outcome, Variant};
use crate::solver::Score;

/// The time between two `info` lines of a `go infinite` analysis, in milliseconds (besides the
/// lines written when a column's score is proven).
pub(crate) const INFINITE_INTERVAL_MS: u64 = 1000;

/// The state behind one UGI stream.
pub(crate) struct UgiSession {
    session: Session,
    /// How `go` chooses (`setoption name level`).
    level: Level,
}

impl Default for UgiSession {
    fn default() -> Self {
        UgiSession::with_trust(Trust::Full)
    }
}

impl UgiSession {
    /// A session on the standard board for a client trusted as far as `trust` says.
    pub(crate) fn with_trust(trust: Trust) -> UgiSession {
        UgiSession {
            session: Session::with_trust(Variant::default(), trust),
            level: Level::Perfect,
        }
    }
}

/// What a command turned into.
pub(crate) enum UgiStep {
    /// Lines to write now (none for most commands).
    Reply(Vec<UgiReply>),
    /// A search to run beside the reading of input, and how to run it.
    Search(Box<Search>, Box<GoPlan>),
    /// `quit`.
    Quit,
}

/// How a `go`'s search runs and how its answer is written.
#[derive(Debug, Clone)]
pub(crate) struct GoPlan {
    /// The position searched, to put the score in UGI's words.
    game: Game,
    /// Whether `bestmove` waits for `stop` (`go infinite`).
    pub infinite: bool,
    /// The solver's node count before the search.
    nodes_before: u64,
}

impl UgiSession {
    /// The game being played.
    pub(crate) fn game(&self) -> &Game {
        self.session.game()
    }

    /// Bounds the time of every `go` from now on, whatever its clocks say: at the limit the
    /// search ends as at a `stop` (see [`Session::set_search_time_limit`]). `None` lifts it.
    #[cfg(test)]
    pub(crate) fn set_search_time_limit(&mut self, limit: Option<std::time::Duration>) {
        self.session.set_search_time_limit(limit);
    }

    /// [`Session::keep_tables_warm`].
    pub(crate) fn keep_tables_warm(&mut self) {
        self.session.keep_tables_warm();
    }

    /// Carries out `command`, or prepares its search. A command that fails changes nothing
    /// and is answered by an `info string` only.
    pub(crate) fn execute(&mut self, command: UgiCommand) -> UgiStep {
        match command {
            UgiCommand::Ugi => UgiStep::Reply(vec![UgiReply::Hello(self.session.trust())]),
            UgiCommand::IsReady => {
                // Ready means ready to search: the table is made now, not on the clock.
                self.session.prepare_solver();
                UgiStep::Reply(vec![UgiReply::ReadyOk])
            }
            UgiCommand::SetOption(EngineOption::Level(level)) => {
                self.level = level;
                UgiStep::Reply(vec![])
            }
            UgiCommand::SetOption(EngineOption::Hash(mib)) => self.quietly(Command::Hash(mib)),
            UgiCommand::SetOption(EngineOption::Threads(n)) => self.quietly(Command::Threads(n)),
            UgiCommand::SetOption(EngineOption::Book(on)) => self.quietly(Command::Book(if on {
                BookRequest::On
            } else {
                BookRequest::Off
            })),
            UgiCommand::NewGame => {
                // Back to the standard board, whatever size a FEN set.
                let standard = Variant::default();
                self.quietly(Command::New(Settings {
                    width: Some(standard.width()),
                    height: Some(standard.height()),
                    ..Settings::default()
                }))
            }
            UgiCommand::Position { start, moves } => {
                self.quietly(Command::Position { start, moves })
            }
            UgiCommand::Query(query) => {
                UgiStep::Reply(vec![UgiReply::Response(answer(query, self.game()))])
            }
            UgiCommand::Go(limits) => self.go(&limits),
            // Nothing runs between commands: a `stop` read during a search is the reader's.
            UgiCommand::Stop => UgiStep::Reply(vec![]),
            UgiCommand::Quit => UgiStep::Quit,
        }
    }

    /// Runs a protocol command whose reply UGI does not show; a failure becomes an
    /// `info string`.
    fn quietly(&mut self, command: Command) -> UgiStep {
        let result = match self.session.execute(command) {
            Step::Reply(result, _) => result,
            // None of the commands UGI translates searches; were one to, it runs here.
            Step::Search(search) => self.session.finish(search.run()),
        };
        UgiStep::Reply(match result {
            Ok(_) => vec![],
            Err(e) => vec![UgiReply::InfoString(e.to_string())],
        })
    }

    /// `go`: the level's request, bounded by `depth`, `nodes` and the time budget as its
    /// `movetime`; or, for a `go infinite` at level `perfect` with no time and no depth, the
    /// streaming analysis, whose `info` lines come as it goes.
    fn go(&mut self, limits: &GoLimits) -> UgiStep {
        let budget = budget(limits, self.game());
        // A finished game goes to `go`, which says there is no move as every `go` does.
        let analyzes = limits.infinite
            && self.level == Level::Perfect
            && budget.is_none()
            && limits.bounds.depth.is_none()
            && !self.game().outcome().is_over();
        let request = GoRequest::at(
            self.level,
            Bounds {
                movetime: budget,
                ..limits.bounds
            },
        );
        let command = if analyzes {
            Command::AnalyzeStream(StreamRequest {
                interval: INFINITE_INTERVAL_MS,
                nodes: limits.bounds.nodes,
            })
        } else {
            Command::Go(request)
        };
        let game = self.game().clone();
        match self.session.execute(command) {
            Step::Search(search) => {
                let plan = GoPlan {
                    game,
                    infinite: limits.infinite,
                    nodes_before: search.nodes(),
                };
                UgiStep::Search(search, Box::new(plan))
            }
            // `go` always searches; were it to answer at once, its answer is no move.
            Step::Reply(result, _) => {
                let mut replies: Vec<UgiReply> = result
                    .err()
                    .map(|e| UgiReply::InfoString(e.to_string()))
                    .into_iter()
                    .collect();
                replies.push(UgiReply::BestMove(None));
                UgiStep::Reply(replies)
            }
        }
    }

    /// Takes back what a search borrowed (its solver and random generator); its lines were
    /// written by [`GoPlan::replies`].
    pub(crate) fn finish(&mut self, finished: Finished) {
        // `go` plays nothing, and its answer is already written.
        let _ = self.session.finish(finished);
    }
}

impl GoPlan {
    /// A streaming analysis's `info` line in UGI's words: its depth (for the heuristic search),
    /// nodes, the score of its best column when that is proven, and its best line.
    pub(crate) fn info(&self, info: &Info) -> UgiReply {
        let score = info
            .pv
            .first()
            .and_then(|column| match info.columns.get(column.index()) {
                Some(ColumnView::Exact(score)) => Some(ugi_score(*score, &self.game)),
                _ => None,
            });
        UgiReply::Info(SearchInfo {
            depth: info.depth,
            nodes: info.nodes,
            score,
            pv: info.pv.clone(),
        })
    }

    /// What a finished search says: an `info` line and `bestmove`, or, when there is no move
    /// (the game is over), an `info string` saying why and `bestmove none`. After a streaming
    /// analysis, whose `info` lines are written as they come, `bestmove` alone: the first move
    /// of the `last` line's best line.
    pub(crate) fn replies(&self, finished: &Finished, last: Option<&Info>) -> Vec<UgiReply> {
        if let Some(last) = last {
            return vec![UgiReply::BestMove(last.pv.first().copied())];
        }
        match &finished.answer {
            Ok((Response::BestMove { column, score, .. }, _)) => vec![
                UgiReply::Info(SearchInfo {
                    depth: None,
                    nodes: finished.nodes().saturating_sub(self.nodes_before),
                    score: score.map(|s| ugi_score(s, &self.game)),
                    pv: vec![*column],
                }),
                UgiReply::BestMove(Some(*column)),
            ],
            Ok(_) => vec![UgiReply::BestMove(None)],
            Err(e) => vec![
                UgiReply::InfoString(e.to_string()),
                UgiReply::BestMove(None),
            ],
        }
    }
}

/// The answer to `query` in `game`.
fn answer(query: Query, game: &Game) -> Answer {
    match query {
        Query::P1Turn => Answer::Yes(game.to_move().index() == 0),
        Query::GameOver => Answer::Yes(game.outcome().is_over()),
        Query::Result => Answer::Result(match game.outcome() {
            Outcome::InProgress => GameResult::None,
            Outcome::Draw(_) => GameResult::Draw,
            Outcome::Win(player) if player.index() == 0 => GameResult::P1Win,
            Outcome::Win(player) if player.index() == 1 => GameResult::P2Win,
            Outcome::Win(_) => GameResult::None,
        }),
    }
}

/// An exact score of `game`'s side to move in UCI's words: `cp 0` for a draw, `mate N` for a
/// win with the mover's Nth move from now, `mate -N` for a loss to the opponent's Nth.
fn ugi_score(score: Score, game: &Game) -> UgiScore {
    let ply = game.ply() as i64;
    match Meaning::of(score, game) {
        Meaning::Draw => UgiScore::Draw,
        Meaning::Win {
            winner, ply: last, ..
        } if winner == game.variant().token(game.to_move()) => UgiScore::Mate((last - ply + 1) / 2),
        Meaning::Win { ply: last, .. } => UgiScore::Mate(-(last - ply) / 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_the_moves_to_the_end() {
        // x wins at once in column 4.
        let game = Game::standard_after(&[4, 1, 4, 1, 4, 2]);
        assert_eq!(ugi_score(Score::new(18), &game), UgiScore::Mate(1));
        // o to move loses to x's next move.
        let game = Game::standard_after(&[4, 1, 4, 1, 4]);
        assert_eq!(ugi_score(Score::new(-18), &game), UgiScore::Mate(-1));
        assert_eq!(ugi_score(Score::new(0), &game), UgiScore::Draw);
    }

    #[test]
    fn queries_read_the_game() {
        let won = Game::standard_after(&[1, 2, 1, 2, 1, 2, 1]);
        assert_eq!(answer(Query::GameOver, &won), Answer::Yes(true));
        assert_eq!(
            answer(Query::Result, &won),
            Answer::Result(GameResult::P1Win)
        );
        let going = Game::standard_after(&[4]);
        assert_eq!(answer(Query::P1Turn, &going), Answer::Yes(false));
        assert_eq!(answer(Query::GameOver, &going), Answer::Yes(false));
        assert_eq!(
            answer(Query::Result, &going),
            Answer::Result(GameResult::None)
        );
    }

    #[test]
    fn a_time_limit_ends_a_go_with_the_move_found_so_far() {
        // The empty 16x16 board: the heuristic search's five moves take seconds.
        let mut session = UgiSession::default();
        session.set_search_time_limit(Some(std::time::Duration::from_millis(20)));
        let fen = ["16"; 16].join("/") + " x";
        let line = |text: &str| super::super::command::parse_ugi(text).unwrap();
        assert!(matches!(
            session.execute(line(&format!("position fen {fen}"))),
            UgiStep::Reply(_)
        ));
        let UgiStep::Search(search, plan) = session.execute(line("go")) else {
            panic!("go did not search");
        };
        let finished = search.run();
        let replies = plan.replies(&finished, None);
        assert!(
            matches!(replies.last(), Some(UgiReply::BestMove(Some(_)))),
            "{replies:?}"
        );
        session.finish(finished);
    }

    #[test]
    fn a_failed_position_changes_nothing_and_uginewgame_resets_the_board() {
        let mut session = UgiSession::default();
        let set = |session: &mut UgiSession, line: &str| match session
            .execute(super::super::command::parse_ugi(line).unwrap())
        {
            UgiStep::Reply(replies) => replies,
            _ => panic!("{line} searched"),
        };
        assert_eq!(set(&mut session, "position startpos moves 4 4"), vec![]);
        assert_eq!(
            set(&mut session, "position startpos moves 1 1 1 1 1 1 1"),
            vec![UgiReply::InfoString(
                "move 7 (column 1): column 1 is full; nothing was played".into()
            )]
        );
        assert_eq!(session.game().ply(), 2);
        // A FEN sets the board's size; `uginewgame` goes back to the standard board.
        assert_eq!(set(&mut session, "position fen 8/8/8/8/8/8/8 x"), vec![]);
        assert_eq!(session.game().variant().width(), 8);
        assert_eq!(set(&mut session, "uginewgame"), vec![]);
        assert_eq!(session.game().variant().width(), 7);
        assert_eq!(session.game().ply(), 0);
    }
}
