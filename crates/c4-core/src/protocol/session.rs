//! A session: the game being played and the players' names, and how each [`Command`] changes
//! them. Every command is applied whole or not at all: it works on a copy and keeps it only when
//! everything succeeded.

use thiserror::Error;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use super::command::{is_known, BookRequest, Command, Start};
use super::reply::{BookInUse, Ending, Response, Summary};
use super::search::{Finished, Search, SearchError, SearchKind};
use super::trust::{Refusal, Trust};
use crate::engine::Rng;
use crate::notation::{
    fen_of, play_sequence, render, token_list, FenPositionError, SequenceError,
    SettingsVariantError, Style,
};
use crate::rules::{check_name, Game, MoveError, NameError, Variant};
use crate::solver::book::Book;
use crate::solver::{Solver, SolverError, TableSize};
use crate::textio::book::{built_in_book, read_book, BookFileError};
use crate::textio::savefile::{self, SaveError};

/// The protocol's version, as `protocol_version` answers: 3 since games follow standard rules
/// by default (a draw only on a full board) and a finished game's `solve` says how it ended.
pub(crate) const PROTOCOL_VERSION: u32 = 3;

/// Why a well-formed command cannot be carried out now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SessionError {
    /// `new` settings that make no game: the rules' words, or players and tokens that disagree.
    #[error("{0}")]
    Settings(#[from] SettingsVariantError),
    /// A FEN that is not a position of this game.
    #[error("{0}")]
    Fen(#[from] FenPositionError),
    /// A single move that cannot be played.
    #[error("{0}")]
    Move(#[from] MoveError),
    /// A move sequence that cannot be played.
    #[error("{0}{suffix}", suffix = if matches!(.0, SequenceError::Move { .. }) { "; nothing was played" } else { "" })]
    Sequence(#[from] SequenceError),
    /// `undo` with nothing to take back.
    #[error("nothing to undo: no move was played since the position was set")]
    NothingToUndo,
    /// `undo n` with fewer moves played.
    #[error("cannot undo {asked} moves: only {available} played since the position was set; nothing was undone")]
    UndoTooMany { asked: u32, available: usize },
    /// `name` with a token nobody plays.
    #[error("no player has the token '{token}' (tokens: {tokens})")]
    UnknownToken { token: char, tokens: String },
    /// `name` with a name that cannot be taken.
    #[error("{0}")]
    Name(#[from] NameError),
    /// `save` or `load` failed.
    #[error("{0}")]
    File(#[from] SaveError),
    /// `hash` asked for more memory than the system gives.
    #[error(
        "the system refused the memory for a table of {mib} MiB; the table stays at {kept} MiB"
    )]
    TableMemory { mib: u32, kept: u32 },
    /// A search gave no answer.
    #[error("{0}")]
    Search(#[from] SearchError),
    /// `book load` of a file that cannot be read or is not a valid book.
    #[error("cannot load book {0}")]
    Book(#[from] BookFileError),
    /// A command the client is not trusted with (`c4 --untrusted`).
    #[error("{0}")]
    Refused(#[from] Refusal),
}

/// The seed of the random choices until `seed` changes it.
pub(crate) const DEFAULT_SEED: u64 = 0;

/// The largest table [`Session::keep_tables_warm`] warms, in MiB. Larger ones are for long
/// searches, which the first writes of its pages hardly slow, and may be larger than the memory
/// free: warmed, such a table would take memory the searches would never have asked for.
pub(crate) const WARM_TABLE_MIB: u32 = 256;

/// The state behind one protocol stream.
pub struct Session {
    game: Game,
    names: Vec<String>,
    /// Made on the first search and kept, with its table, between searches.
    solver: Option<Solver>,
    /// The table `hash` set ([`TableSize::SESSION`] until then).
    table_size: TableSize,
    /// Threads per exact search (`threads`).
    threads: u32,
    /// The opening book the solver consults (`book`), and where it came from.
    book: Option<(Arc<Book>, String)>,
    rng: Rng,
    /// What the client may do.
    trust: Trust,
    /// The most time any search may take ([`Session::set_search_time_limit`]).
    search_time_limit: Option<Duration>,
    /// Whether each new table is warmed in the background ([`Session::keep_tables_warm`]).
    warm_tables: bool,
    /// The thread warming the newest table, until `prepare_solver` waits for it.
    warming: Option<JoinHandle<()>>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(Variant::default())
    }
}

/// What a command turned into: a reply now, or a search to run beside the interpreter.
pub enum Step {
    /// The reply, and what to do next.
    Reply(Result<Response, SessionError>, Flow),
    /// A search (boxed: it carries a whole game); its reply comes from [`Session::finish`].
    Search(Box<Search>),
}

/// What `apply` decided: a reply, or a search to run.
enum Action {
    Reply(Response),
    Search(SearchKind),
}

/// What the interpreter does after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was given.
    Quit,
}

impl Session {
    /// A session on the empty board of `variant`, with default names.
    pub fn new(variant: Variant) -> Session {
        Session::with_trust(variant, Trust::Full)
    }

    /// A session on the empty board of `variant` for a client trusted as far as `trust` says.
    pub fn with_trust(variant: Variant, trust: Trust) -> Session {
        let names = default_names(variant.players());
        Session {
            game: Game::new(variant),
            names,
            solver: None,
            table_size: TableSize::SESSION,
            threads: 1,
            book: built_in(),
            rng: Rng::new(DEFAULT_SEED),
            trust,
            search_time_limit: trust.search_time_limit(),
            warm_tables: false,
            warming: None,
        }
    }

    /// How far the client is trusted.
    pub fn trust(&self) -> Trust {
        self.trust
    }

    /// Bounds the time of every search from now on (`solve`, `analyze`, `go`, `genmove`,
    /// `hint`, `perft` and `analyze stream`), counted from its start: at the limit a search ends
    /// as it does at a `stop`, and with a `movetime` the earlier of the two counts. `None` lifts
    /// the limit: a session starts with its client's ([`Trust::search_time_limit`]). For input
    /// that must not keep `c4` busy for long.
    #[cfg(test)]
    pub(crate) fn set_search_time_limit(&mut self, limit: Option<Duration>) {
        self.search_time_limit = limit;
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Players' names, in turn order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Carries out `command`, or prepares its search; on error the session is exactly as it
    /// was, but for a refused `hash`, which empties the table as every `hash` does.
    pub fn execute(&mut self, command: Command) -> Step {
        let flow = if command == Command::Quit {
            Flow::Quit
        } else {
            Flow::Continue
        };
        match self.apply(command) {
            Ok(Action::Reply(response)) => Step::Reply(Ok(response), flow),
            Ok(Action::Search(kind)) => {
                let mut solver = self.take_solver();
                solver.set_threads(self.threads as usize);
                solver.set_book(self.book.as_ref().map(|(book, _)| Arc::clone(book)));
                Step::Search(Box::new(Search {
                    kind,
                    game: self.game.clone(),
                    solver,
                    rng: self.rng.clone(),
                    stop: Arc::new(AtomicBool::new(false)),
                    time_limit: self.search_time_limit,
                }))
            }
            Err(e) => Step::Reply(Err(e), flow),
        }
    }

    /// Makes the solver and its table now, if they are not made yet, so that the next search
    /// does not spend its time on them (UGI's `isready`, which a match runner sends before it
    /// starts a clock); with [`keep_tables_warm`](Self::keep_tables_warm), waits until the
    /// table's pages are warm too.
    pub(crate) fn prepare_solver(&mut self) {
        let solver = self.take_solver();
        self.solver = Some(solver);
        if let Some(warming) = self.warming.take() {
            // The warming thread only touches memory; should it have panicked, the table is
            // as usable as one never warmed.
            let _ = warming.join();
        }
    }

    /// From now on, each table this session makes has its pages written once by a thread of
    /// its own ([`Solver::warm_tables`]), starting with the table of the default size, made
    /// now: for a front end that answers searches under a clock, so that the first of them
    /// does not pay for the table's memory. The table is then resident from the start.
    pub(crate) fn keep_tables_warm(&mut self) {
        self.warm_tables = true;
        let solver = self.take_solver();
        self.solver = Some(solver);
    }

    /// The solver, made with the table `hash` asks for if there is none yet.
    fn take_solver(&mut self) -> Solver {
        match self.solver.take() {
            Some(solver) => solver,
            None => self
                .new_solver(self.table_size)
                .unwrap_or_else(|e| panic!("{e}")),
        }
    }

    /// A solver with a table of `size`, warmed if the front end asked for it and the table is
    /// at most [`WARM_TABLE_MIB`].
    fn new_solver(&mut self, size: TableSize) -> Result<Solver, SolverError> {
        let solver = Solver::try_with_table_bits(size.bits())?;
        if self.warm_tables && size.mib() <= WARM_TABLE_MIB {
            self.warming = solver.warm_tables();
        }
        Ok(solver)
    }

    /// Takes back what a streaming analysis borrowed: its reply is already written.
    pub fn end_stream(&mut self, finished: Finished) {
        self.solver = Some(finished.solver);
        self.rng = finished.rng;
    }

    /// Takes back what a search borrowed and gives its reply; `genmove` plays its move here.
    pub fn finish(&mut self, finished: Finished) -> Result<Response, SessionError> {
        self.solver = Some(finished.solver);
        self.rng = finished.rng;
        let (response, play) = finished.answer?;
        match (play, response) {
            (
                Some(column),
                Response::BestMove {
                    column: chosen,
                    proven,
                    score,
                    ..
                },
            ) => {
                self.game.play(column)?;
                Ok(Response::BestMove {
                    column: chosen,
                    proven,
                    score,
                    played: Some(Summary::of(&self.game)),
                })
            }
            (_, response) => Ok(response),
        }
    }

    /// The one match over every command: replies at once, or names the search to run.
    fn apply(&mut self, command: Command) -> Result<Action, SessionError> {
        match command {
            Command::New(settings) => {
                let variant = settings.variant(self.game.variant())?;
                if variant.players() != self.game.variant().players() {
                    self.names = default_names(variant.players());
                }
                self.game = Game::new(variant);
                Ok(Response::summary(&self.game))
            }
            Command::Position { start, moves } => {
                let mut game = match start {
                    Start::StartPos => Game::new(self.game.variant().clone()),
                    Start::Fen(fen) => fen.to_game(self.game.variant())?,
                };
                if let Some(moves) = moves {
                    play_sequence(&mut game, &moves)?;
                }
                self.game = game;
                Ok(Response::summary(&self.game))
            }
            Command::Moves(moves) => {
                let mut game = self.game.clone();
                play_sequence(&mut game, &moves)?;
                self.game = game;
                Ok(Response::summary(&self.game))
            }
            Command::Play(number) => {
                let column = self.game.column(number)?;
                self.game.play(column)?;
                Ok(Response::summary(&self.game))
            }
            Command::Undo(count) => {
                let available = self.game.history().len();
                if available == 0 {
                    return Err(SessionError::NothingToUndo);
                }
                if count as usize > available {
                    return Err(SessionError::UndoTooMany {
                        asked: count,
                        available,
                    });
                }
                for _ in 0..count {
                    self.game.undo();
                }
                Ok(Response::summary(&self.game))
            }
            Command::Status => Ok(Response::status(&self.game)),
            Command::Show(style) => {
                let text = render(
                    self.game.board(),
                    self.game.variant(),
                    style.unwrap_or(Style::Grid),
                );
                Ok(Response::Board(text.lines().map(str::to_string).collect()))
            }
            Command::Fen => Ok(Response::Fen(fen_of(&self.game))),
            Command::Legal => Ok(Response::Columns(self.game.legal_moves())),
            Command::Names => Ok(Response::Names(
                self.game
                    .variant()
                    .tokens()
                    .iter()
                    .copied()
                    .zip(self.names.iter().cloned())
                    .collect(),
            )),
            Command::EngineName => Ok(Response::EngineName),
            Command::Version => Ok(Response::Version),
            Command::SetName { token, name } => {
                let Some(player) = self.game.variant().player_of(token) else {
                    return Err(SessionError::UnknownToken {
                        token,
                        tokens: token_list(self.game.variant().tokens()),
                    });
                };
                check_name(&name)?;
                self.names[player.index()] = name;
                Ok(Response::Done)
            }
            Command::Save(path) => {
                self.allow_files("save")?;
                savefile::save(&path, &self.names, &self.game)?;
                Ok(Response::Saved(path))
            }
            Command::Load(path) => {
                self.allow_files("load")?;
                let (names, game) = savefile::load(&path)?;
                self.names = names;
                self.game = game;
                Ok(Response::summary(&self.game))
            }
            Command::Perft(depth) => return Ok(Action::Search(SearchKind::Perft(depth))),
            Command::Help => Ok(Response::Help),
            Command::ListCommands => Ok(Response::CommandList),
            Command::KnownCommand(name) => Ok(Response::Known(is_known(&name))),
            Command::ProtocolVersion => Ok(Response::ProtocolVersion(PROTOCOL_VERSION)),
            Command::Stop | Command::Quit => Ok(Response::Done),
            Command::Seed(seed) => {
                self.rng = Rng::new(seed);
                Ok(Response::Done)
            }
            Command::Threads(count) => {
                // At most MAX_THREADS (64).
                let threads = count.get() as u32;
                let max = self.trust.max_threads();
                if threads > max {
                    return Err(Refusal::Threads {
                        trust: self.trust,
                        asked: threads,
                        max,
                        kept: self.threads,
                    }
                    .into());
                }
                self.threads = threads;
                Ok(Response::Threads(threads))
            }
            Command::Book(request) => {
                match request {
                    BookRequest::Show => {}
                    BookRequest::On => self.book = built_in(),
                    BookRequest::Off => self.book = None,
                    BookRequest::Load(path) => {
                        self.allow_files("book load")?;
                        let book = read_book(&path)?;
                        self.book = Some((Arc::new(book), path.display().to_string()));
                    }
                }
                Ok(Response::Book(self.book.as_ref().map(|(book, source)| {
                    BookInUse {
                        source: source.clone(),
                        width: book.width(),
                        height: book.height(),
                        depth: book.depth(),
                        positions: book.len(),
                    }
                })))
            }
            Command::Hash(size) => {
                let max = self.trust.max_table_size();
                if size > max {
                    return Err(Refusal::Hash {
                        trust: self.trust,
                        asked: size.mib(),
                        max: max.mib(),
                        kept: self.table_size.mib(),
                    }
                    .into());
                }
                // The old table goes first, so that the two are never held at once; should the
                // new one be refused, the next search makes one of the size that was set.
                self.solver = None;
                let solver = self
                    .new_solver(size)
                    .map_err(|_| SessionError::TableMemory {
                        mib: size.mib(),
                        kept: self.table_size.mib(),
                    })?;
                self.solver = Some(solver);
                self.table_size = size;
                // The reply means the table is ready, warm if it is warmed at all.
                self.prepare_solver();
                Ok(Response::Hash(size.mib()))
            }
            Command::Solve { weak } => {
                return Ok(self.search_unless_over(SearchKind::Solve { weak }))
            }
            Command::Analyze => return Ok(self.search_unless_over(SearchKind::Analyze)),
            Command::AnalyzeStream(request) => {
                return Ok(self.search_unless_over(SearchKind::Stream(request)))
            }
            Command::Go(request) => return Ok(Action::Search(SearchKind::Go(request))),
            Command::Genmove(request) => return Ok(Action::Search(SearchKind::Genmove(request))),
            Command::Hint => return Ok(Action::Search(SearchKind::Hint)),
        }
        .map(Action::Reply)
    }

    /// Refuses `verb`, a command that reads or writes a file, unless the client may do that.
    fn allow_files(&self, verb: &'static str) -> Result<(), Refusal> {
        match self.trust.allows_files() {
            true => Ok(()),
            false => Err(Refusal::Files {
                trust: self.trust,
                verb,
            }),
        }
    }

    /// A search of the game, or, for a finished game, how it ended: nothing is left to search.
    fn search_unless_over(&self, kind: SearchKind) -> Action {
        match Ending::of(&self.game) {
            Some(ending) => Action::Reply(Response::Over(ending)),
            None => Action::Search(kind),
        }
    }
}

/// The book built into c4, as `book on` names it.
fn built_in() -> Option<(Arc<Book>, String)> {
    built_in_book().map(|book| (book, "built-in".to_string()))
}

/// `Player 1`, `Player 2`, ...
fn default_names(players: usize) -> Vec<String> {
    (1..=players).map(|i| format!("Player {i}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::trust::UNTRUSTED_SEARCH_TIME;

    /// The time limit every search of a session's client gets, or why it got none.
    fn search_limit(trust: Trust, command: Command) -> Option<Duration> {
        match Session::with_trust(Variant::default(), trust).execute(command) {
            Step::Search(search) => search.time_limit,
            Step::Reply(reply, _) => panic!("no search: {reply:?}"),
        }
    }

    #[test]
    fn an_untrusted_client_gets_every_search_bounded() {
        for command in [
            Command::Solve { weak: false },
            Command::Analyze,
            Command::Hint,
            Command::Perft(12),
        ] {
            assert_eq!(
                search_limit(Trust::Untrusted, command.clone()),
                Some(UNTRUSTED_SEARCH_TIME)
            );
            assert_eq!(search_limit(Trust::Full, command), None);
        }
    }

    #[test]
    fn warm_tables_are_warmed_up_to_a_size_and_waited_for_before_hash_replies() {
        let mut session = Session::default();
        session.keep_tables_warm();
        assert!(session.warming.is_some());
        for (mib, warmed) in [
            (2, true),
            (WARM_TABLE_MIB, true),
            (2 * WARM_TABLE_MIB, false),
        ] {
            session.prepare_solver();
            drop(session.new_solver(TableSize::from_mib(mib)).unwrap());
            assert_eq!(session.warming.is_some(), warmed, "{mib} MiB");
            let Step::Reply(reply, _) = session.execute(Command::Hash(TableSize::from_mib(mib)))
            else {
                panic!("hash searched");
            };
            assert_eq!(reply.unwrap(), Response::Hash(mib));
            // The reply came once the warming was over, if there was one.
            assert!(session.warming.is_none());
        }
        // A session not told to keep its tables warm never starts a thread for them.
        let mut cold = Session::default();
        drop(cold.new_solver(TableSize::BATCH).unwrap());
        assert!(cold.warming.is_none());
    }
}
