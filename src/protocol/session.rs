//! A session: the game being played and the players' names, and how each [`Command`] changes
//! them. Every command is applied whole or not at all: it works on a copy and keeps it only when
//! everything succeeded.

use thiserror::Error;

use super::command::{Command, NewGame, Start, COMMANDS};
use super::reply::Response;
use super::savefile::{self, SaveError};
use crate::notation::{
    fen_of, parse_column, parse_moves, render, Fen, FenError, MovesError, Style,
};
use crate::rules::{Game, MoveError, Token, Variant, VariantError};

/// The protocol's version, as `protocol_version` answers.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest player name accepted.
pub const MAX_NAME_CHARS: usize = 64;

/// Why a well-formed command cannot be carried out now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SessionError {
    /// `new` asked for an impossible variant.
    #[error("{0}")]
    Variant(#[from] VariantError),
    /// `new players N tokens T` with N different from the number of tokens.
    #[error("players {players} does not match the {tokens} tokens given")]
    PlayersVsTokens { players: usize, tokens: usize },
    /// A FEN that is not a position of this game.
    #[error("{0}")]
    Fen(#[from] FenError),
    /// A move sequence that does not parse.
    #[error("{0}")]
    Moves(#[from] MovesError),
    /// A single move that cannot be played.
    #[error("{0}")]
    Move(#[from] MoveError),
    /// A move inside a sequence that cannot be played.
    #[error("move {index} (column {column}): {source}; nothing was played")]
    MoveInSequence {
        index: usize,
        column: u64,
        source: MoveError,
    },
    /// `undo` with nothing to take back.
    #[error("nothing to undo: no move was played since the position was set")]
    NothingToUndo,
    /// `undo n` with fewer moves played.
    #[error("cannot undo {asked} moves: only {available} played since the position was set; nothing was undone")]
    UndoTooMany { asked: u32, available: usize },
    /// `name` with a token nobody plays.
    #[error("no player has the token '{token}' (tokens: {tokens})")]
    UnknownToken { token: char, tokens: String },
    /// `name` with an over-long name.
    #[error("a name has at most {MAX_NAME_CHARS} characters, got {0}")]
    NameTooLong(usize),
    /// `save` or `load` failed.
    #[error("{0}")]
    File(#[from] SaveError),
}

/// The state behind one protocol stream.
#[derive(Debug, Clone)]
pub struct Session {
    game: Game,
    names: Vec<String>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(Variant::default())
    }
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
        let names = default_names(variant.players());
        Session {
            game: Game::new(variant),
            names,
        }
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Players' names, in turn order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Carries out `command`; on error the session is exactly as it was.
    pub fn execute(&mut self, command: Command) -> (Result<Response, SessionError>, Flow) {
        let flow = if command == Command::Quit {
            Flow::Quit
        } else {
            Flow::Continue
        };
        (self.apply(command), flow)
    }

    fn apply(&mut self, command: Command) -> Result<Response, SessionError> {
        match command {
            Command::New(settings) => {
                let variant = self.new_variant(&settings)?;
                if variant.players() != self.game.variant().players() {
                    self.names = default_names(variant.players());
                }
                self.game = Game::new(variant);
                Ok(Response::summary(&self.game))
            }
            Command::Position { start, moves } => {
                let mut game = match start {
                    Start::StartPos => Game::new(self.game.variant().clone()),
                    Start::Fen(text) => Fen::parse(&text)?.to_game(self.game.variant())?,
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
            Command::Play(text) => {
                let number = parse_column(&text, self.game.variant().width())?;
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
                Ok(Response::Lines(text.lines().map(str::to_string).collect()))
            }
            Command::Fen => Ok(Response::Line(fen_of(&self.game))),
            Command::Legal => Ok(Response::columns(&self.game.legal_moves())),
            Command::Names => Ok(Response::Lines(
                self.game
                    .variant()
                    .tokens()
                    .iter()
                    .zip(&self.names)
                    .map(|(t, n)| format!("{t} {n}"))
                    .collect(),
            )),
            Command::Name { token, name } => {
                let Some(player) = self.game.variant().player_of(token) else {
                    return Err(SessionError::UnknownToken {
                        token,
                        tokens: token_list(self.game.variant().tokens()),
                    });
                };
                let chars = name.chars().count();
                if chars > MAX_NAME_CHARS {
                    return Err(SessionError::NameTooLong(chars));
                }
                self.names[player.index()] = name;
                Ok(Response::Done)
            }
            Command::Save(path) => {
                savefile::save(&path, &self.names, &fen_of(&self.game))?;
                Ok(Response::Line(format!("saved {}", path.display())))
            }
            Command::Load(path) => {
                let (names, game) = savefile::load(&path, self.game.variant())?;
                self.names = names;
                self.game = game;
                Ok(Response::summary(&self.game))
            }
            Command::Perft(depth) => {
                let mut game = self.game.clone();
                Ok(Response::Line(game.perft(depth as usize).to_string()))
            }
            Command::Help => Ok(Response::Lines(
                COMMANDS
                    .iter()
                    .map(|(name, args, what)| {
                        let usage = if args.is_empty() {
                            name.to_string()
                        } else {
                            format!("{name} {args}")
                        };
                        format!("{usage} -- {what}")
                    })
                    .collect(),
            )),
            Command::ListCommands => Ok(Response::Lines(
                COMMANDS.iter().map(|(n, _, _)| n.to_string()).collect(),
            )),
            Command::ProtocolVersion => Ok(Response::Line(PROTOCOL_VERSION.to_string())),
            Command::Quit => Ok(Response::Done),
        }
    }

    /// The variant `new` asks for: the current one with the given settings changed.
    fn new_variant(&self, settings: &NewGame) -> Result<Variant, SessionError> {
        let current = self.game.variant();
        let tokens = match (&settings.tokens, settings.players) {
            (Some(chars), players) => {
                if let Some(n) = players.filter(|&n| n != chars.len()) {
                    return Err(SessionError::PlayersVsTokens {
                        players: n,
                        tokens: chars.len(),
                    });
                }
                chars
                    .iter()
                    .map(|&c| Token::new(c))
                    .collect::<Result<Vec<_>, _>>()?
            }
            (None, Some(n)) => Variant::default_tokens(n)?,
            (None, None) => current.tokens().to_vec(),
        };
        Ok(Variant::new(
            settings.width.unwrap_or(current.width()),
            settings.height.unwrap_or(current.height()),
            settings.connect.unwrap_or(current.connect()),
            tokens,
            settings.early_draw.unwrap_or(current.early_draw()),
        )?)
    }
}

/// Plays a written move sequence on `game`; on error `game` may be part-played, so callers
/// play on a copy.
fn play_sequence(game: &mut Game, text: &str) -> Result<(), SessionError> {
    for (i, number) in parse_moves(text, game.variant().width())?
        .into_iter()
        .enumerate()
    {
        let fail = |source| SessionError::MoveInSequence {
            index: i + 1,
            column: number,
            source,
        };
        let column = game.column(number).map_err(fail)?;
        game.play(column).map_err(fail)?;
    }
    Ok(())
}

/// `Player 1`, `Player 2`, ...
fn default_names(players: usize) -> Vec<String> {
    (1..=players).map(|i| format!("Player {i}")).collect()
}

/// Tokens separated by spaces, for messages.
pub(crate) fn token_list(tokens: &[Token]) -> String {
    tokens
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
