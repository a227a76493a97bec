//! `c4 play`'s settings: read from flags (`--width 9`, see [`crate::cli::PlayArgs`]) or typed in
//! the setup menu (`width 9`), both through [`PlayOptions::apply`], and checked by building the
//! variant and start position the rules would play. Nothing here reads or writes a terminal.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use crate::engine::{self, Level, LevelError, Separator};
use crate::notation::grammar::{parse_whole, whole_number, WholeNumber};
use crate::notation::{parse_moves_counting, Counting, Fen, Style};
use crate::rules::variant::{
    MAX_CONNECT, MAX_PLAYERS, MAX_SIDE, MIN_CONNECT, MIN_PLAYERS, MIN_SIDE, STANDARD_CONNECT,
    STANDARD_HEIGHT, STANDARD_TOKENS, STANDARD_WIDTH,
};
use crate::rules::{self, Game, MoveError, Player, Token, Variant};

/// The deepest look-ahead a computer player may be given (7^8 positions on the standard board).
pub const MAX_LOOKAHEAD: u32 = 8;
/// What the computer players are called.
pub const COMPUTER_NAME: &str = "Computer";

/// How the board is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardStyle {
    /// One of the source programs' layouts.
    Layout(Style),
    /// The `dots` layout with each player's tokens in their own colour; drawn as `grid` when
    /// standard output is not a terminal or `NO_COLOR` is set.
    Colour,
}

impl BoardStyle {
    /// The style called `name`: a layout name or `colour` (or `color`).
    pub fn from_name(name: &str) -> Option<BoardStyle> {
        match name {
            "colour" | "color" => Some(BoardStyle::Colour),
            _ => Style::from_name(name).map(BoardStyle::Layout),
        }
    }

    /// The style's name, as [`BoardStyle::from_name`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            BoardStyle::Layout(style) => style.name(),
            BoardStyle::Colour => "colour",
        }
    }
}

/// How columns are named in prompts and messages, and how typed numbers are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnNames {
    /// `1` to `16`, as S0, S1 and the protocol count.
    Numbers,
    /// `A` to `P`, as S2 names them (numbers are still read too).
    Letters,
    /// `0` to `15`, as S4 counts them and the `pipes` layout labels them; typed numbers are read
    /// from 0 as well.
    FromZero,
}

impl ColumnNames {
    /// `numbers`, `letters` or `from-zero`.
    pub fn from_name(name: &str) -> Option<ColumnNames> {
        match name {
            "numbers" => Some(ColumnNames::Numbers),
            "letters" => Some(ColumnNames::Letters),
            "from-zero" => Some(ColumnNames::FromZero),
            _ => None,
        }
    }

    /// The name [`ColumnNames::from_name`] reads.
    pub fn name(self) -> &'static str {
        match self {
            ColumnNames::Numbers => "numbers",
            ColumnNames::Letters => "letters",
            ColumnNames::FromZero => "from-zero",
        }
    }

    /// 1-based column `number` as people are shown it and type it: `4`, `D` or (from zero) `3`.
    pub fn label(self, number: u64) -> String {
        match (self, number) {
            (ColumnNames::Letters, 1..=16) => ((b'A' + number as u8 - 1) as char).to_string(),
            (ColumnNames::FromZero, 1..) => (number - 1).to_string(),
            _ => number.to_string(),
        }
    }

    /// The columns of a board `width` wide: `1-7`, `A-G`, `0-6`, or just `1` on one column.
    pub fn range(self, width: usize) -> String {
        let last = self.label(width as u64);
        if width == 1 {
            last
        } else {
            format!("{}-{last}", self.label(1))
        }
    }

    /// How typed numbers count.
    pub fn counting(self) -> Counting {
        match self {
            ColumnNames::FromZero => Counting::FromZero,
            ColumnNames::Numbers | ColumnNames::Letters => Counting::FromOne,
        }
    }

    /// Why a move cannot be played, naming the column this way: `column 7 is off the board`.
    pub fn move_problem(self, problem: &MoveError) -> String {
        match problem {
            MoveError::OffBoard { column, .. } => {
                format!("column {} is off the board", self.label(*column))
            }
            MoveError::ColumnFull(column) => {
                format!("column {} is full", self.label(column.number() as u64))
            }
            MoveError::GameOver(_) => problem.to_string(),
        }
    }
}

/// A setting that cannot be taken, in words for the person who typed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingError(String);

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SettingError {}

impl SettingError {
    /// An error in these words.
    pub fn new(text: impl Into<String>) -> SettingError {
        SettingError(text.into())
    }
}

fn error(text: impl Into<String>) -> SettingError {
    SettingError::new(text)
}

/// Everything `c4 play` can be told before a game starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayOptions {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// How many in a row win.
    pub connect: usize,
    /// Tokens in turn order; their number is the number of players.
    pub tokens: Vec<char>,
    /// The people's names, given in advance in turn order, skipping the players the computer
    /// plays (those are called `Computer`); people past the end are asked at each new game.
    pub names: Vec<String>,
    /// The players the computer plays, by token, and how well.
    pub computers: Vec<(char, Level)>,
    /// How the board is drawn.
    pub style: BoardStyle,
    /// How columns are named and typed numbers read.
    pub columns: ColumnNames,
    /// Whether a game ends in a draw as soon as nobody can complete a line.
    pub early_draw: bool,
    /// Seed of the computer players' random choices (0 when not given).
    pub seed: Option<u64>,
    /// The position new games start from (the FEN sets the board size).
    pub fen: Option<String>,
    /// Moves played from the start position before a new game begins (`4453`, `d d e c`).
    pub moves: Option<String>,
    /// Whether one game starts at once, without the menu or questions for names (people not
    /// named are `Player N`), and `c4 play` ends when it ends: for a file of answers that holds
    /// only columns, as S1's grader pipes it.
    pub start: bool,
    /// Whether each answer read is written after its prompt, so that a transcript of piped input
    /// reads like a terminal session.
    pub echo: bool,
    /// Whether the terminal may be given colour (see [`BoardStyle::Colour`]).
    pub colour_allowed: bool,
    /// Whether a line says who is thinking while the computer searches, erased when it plays:
    /// on a terminal only, so that piped output stays the same from run to run.
    pub thinking_shown: bool,
    /// The most positions the perfect computer searches for one move; past them the heuristic
    /// search chooses, and the computer says so (see [`COMPUTER_NODE_LIMIT`]).
    pub computer_nodes: u64,
}

/// The perfect computer's default budget per move: about 10 seconds of search on the
/// development machine. The standard board's moves take far less (the opening book answers
/// its first 12 plies); early moves on larger boards would otherwise take hours.
pub const COMPUTER_NODE_LIMIT: u64 = 200_000_000;

impl Default for PlayOptions {
    /// The standard game, two people, grid layout, numbered columns, no echo, no colour, no
    /// thinking line.
    fn default() -> Self {
        PlayOptions {
            width: STANDARD_WIDTH,
            height: STANDARD_HEIGHT,
            connect: STANDARD_CONNECT,
            tokens: STANDARD_TOKENS.to_vec(),
            names: Vec::new(),
            computers: Vec::new(),
            style: BoardStyle::Layout(Style::Grid),
            columns: ColumnNames::Numbers,
            early_draw: false,
            seed: None,
            fen: None,
            moves: None,
            start: false,
            echo: false,
            colour_allowed: false,
            thinking_shown: false,
            computer_nodes: COMPUTER_NODE_LIMIT,
        }
    }
}

/// The setting names, as flags (`--width`) and as setup lines (`width`), with what they take.
pub const SETTINGS: &[(&str, &str)] = &[
    ("width", "N"),
    ("height", "N"),
    ("connect", "N"),
    ("players", "N"),
    ("tokens", "XOA"),
    ("names", "Ann,Ben"),
    ("computer", "TOKEN=LEVEL"),
    ("human", "TOKEN"),
    ("style", "grid|dots|letters|pipes|numbers|colour"),
    ("columns", "numbers|letters|from-zero"),
    ("early-draw", "on|off"),
    ("seed", "N"),
    ("fen", "FEN|none"),
    ("moves", "MOVES|none"),
    ("start", "on|off"),
];

impl PlayOptions {
    /// Changes one setting by name (a name from [`SETTINGS`]). Only the value's form is checked
    /// here; [`PlayOptions::check`] checks the whole.
    pub fn apply(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        match key {
            "width" => self.width = number(value, "a board width", MIN_SIDE..=MAX_SIDE)?,
            "height" => self.height = number(value, "a board height", MIN_SIDE..=MAX_SIDE)?,
            "connect" => {
                self.connect = number(value, "the connect length", MIN_CONNECT..=MAX_CONNECT)?
            }
            "players" => {
                let n = number(value, "the number of players", MIN_PLAYERS..=MAX_PLAYERS)?;
                if n != self.tokens.len() {
                    let tokens = Variant::default_tokens(n).map_err(|e| error(e.to_string()))?;
                    self.tokens = tokens.iter().map(|t| t.as_char()).collect();
                }
                self.names.truncate(n);
            }
            "tokens" => {
                self.tokens = value.chars().collect();
                self.names.truncate(self.tokens.len());
            }
            "names" => {
                self.names = value.split(',').map(|n| n.trim().to_string()).collect();
            }
            "computer" => {
                let (token, level) = value.split_once('=').ok_or_else(|| {
                    error(format!(
                        "expected TOKEN=LEVEL, e.g. o=perfect, got '{value}'"
                    ))
                })?;
                let token = one_char(token)?;
                let level = parse_level(level)?;
                self.computers.retain(|&(t, _)| t != token);
                self.computers.push((token, level));
            }
            "human" => {
                // Checked at once, unlike a computer's token: it only takes a computer away, so a
                // token nobody plays would silently do nothing.
                let token = one_char(value)?;
                if !self.tokens.contains(&token) {
                    return Err(self.unknown_token(token));
                }
                self.computers.retain(|&(t, _)| t != token);
            }
            "style" => {
                self.style = BoardStyle::from_name(value).ok_or_else(|| {
                    error(format!(
                        "unknown style '{value}'; styles: grid, dots, letters, pipes, numbers, colour"
                    ))
                })?;
            }
            "columns" => {
                self.columns = ColumnNames::from_name(value).ok_or_else(|| {
                    error(format!(
                        "unknown column naming '{value}'; expected numbers, letters or from-zero"
                    ))
                })?;
            }
            "early-draw" => self.early_draw = on_off(value)?,
            "seed" => self.seed = Some(number(value, "a seed", 0..=u64::MAX)?),
            "fen" => self.fen = (value != "none").then(|| value.to_string()),
            "moves" => self.moves = (value != "none").then(|| value.to_string()),
            "start" => self.start = on_off(value)?,
            _ => {
                let known: Vec<&str> = SETTINGS.iter().map(|(name, _)| *name).collect();
                return Err(error(format!(
                    "unknown setting '{key}'; settings: {}",
                    known.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// Checks that the settings make a game: a valid variant, names for players that exist,
    /// computers that are players, and a start position the rules accept.
    pub fn check(&self) -> Result<(), SettingError> {
        self.start().map(|_| ())
    }

    /// The variant the settings describe.
    pub fn variant(&self) -> Result<Variant, SettingError> {
        let tokens = self
            .tokens
            .iter()
            .map(|&c| Token::new(c))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| error(e.to_string()))?;
        Variant::new(
            self.width,
            self.height,
            self.connect,
            tokens,
            self.early_draw,
        )
        .map_err(|e| error(e.to_string()))
    }

    /// A computer or human setting for `token`, which no player has.
    fn unknown_token(&self, token: char) -> SettingError {
        error(format!(
            "no player has the token '{token}' (tokens: {})",
            self.tokens.iter().collect::<String>()
        ))
    }

    /// The position a new game starts from: the FEN (or the empty board), then the moves.
    pub fn start(&self) -> Result<Game, SettingError> {
        let variant = self.variant()?;
        for &(token, _) in &self.computers {
            if variant.player_of(token).is_none() {
                return Err(self.unknown_token(token));
            }
        }
        for name in &self.names {
            check_name(name)?;
        }
        let people = variant.players() - self.computers.len();
        if self.names.len() > people {
            return Err(error(format!(
                "{} names, but people play {people} of the players (the computer's are called {COMPUTER_NAME})",
                self.names.len(),
            )));
        }
        let mut game = match &self.fen {
            Some(text) => Fen::parse(text)
                .map_err(|e| error(e.to_string()))?
                .to_game(&variant)
                .map_err(|e| error(e.to_string()))?,
            None => Game::new(variant),
        };
        if let Some(text) = &self.moves {
            let width = game.variant().width();
            let numbers = parse_moves_counting(text, width, self.columns.counting())
                .map_err(|e| error(format!("moves: {e}")))?;
            for (i, n) in numbers.into_iter().enumerate() {
                game.column(n)
                    .and_then(|column| game.play(column))
                    .map_err(|e| {
                        let problem = self.columns.move_problem(&e);
                        error(format!("moves: move {}: {problem}", i + 1))
                    })?;
            }
        }
        Ok(game)
    }

    /// The players' names in turn order: [`COMPUTER_NAME`] for the computer's, the names given
    /// for people in turn, and `None` for people past the names given.
    pub fn player_names(&self) -> Vec<Option<String>> {
        let mut given = self.names.iter();
        self.tokens
            .iter()
            .map(|token| {
                if self.computers.iter().any(|(t, _)| t == token) {
                    Some(COMPUTER_NAME.to_string())
                } else {
                    given.next().cloned()
                }
            })
            .collect()
    }

    /// The level of `player` if the computer plays it.
    pub fn computer_level(&self, variant: &Variant, player: Player) -> Option<Level> {
        let token = variant.token(player).as_char();
        self.computers
            .iter()
            .find(|&&(t, _)| t == token)
            .map(|&(_, level)| level)
    }
}

/// A name someone can be called by: a player's name by the rules ([`rules::check_name`]) that
/// is not one of the commands `q`, `h`, `s` or `u` (any case), which a turn's answer would take
/// as the command.
pub fn check_name(name: &str) -> Result<(), SettingError> {
    if ["q", "h", "s", "u"].contains(&name.to_ascii_lowercase().as_str()) {
        return Err(error(format!(
            "'{name}' is a command (q quit, h hint, s save, u undo), not a name"
        )));
    }
    rules::check_name(name).map_err(|e| error(e.to_string()))
}

/// A whole number, plain digits; the rules check its range in their words, but a number too
/// large to hold is refused here, with the `range` the rules would give.
fn number<T: FromStr + fmt::Display>(
    value: &str,
    what: &str,
    range: RangeInclusive<T>,
) -> Result<T, SettingError> {
    match whole_number(value) {
        WholeNumber::Value(n) => Ok(n),
        WholeNumber::TooLarge => Err(error(format!(
            "{what} must be from {} to {}, got {value}",
            range.start(),
            range.end()
        ))),
        WholeNumber::NotANumber => Err(error(format!("expected a number, got '{value}'"))),
    }
}

fn on_off(value: &str) -> Result<bool, SettingError> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(error(format!("expected on or off, got '{value}'"))),
    }
}

fn one_char(value: &str) -> Result<char, SettingError> {
    let mut chars = value.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(error(format!("a token is one character, got '{value}'"))),
    }
}

/// A computer level: `random`, `lookahead:N` with an optional `:left|right|random` tie-break
/// (left when not given), or `perfect`: the protocol's level words ([`engine::level`]), between
/// colons, with look-aheads of at most [`MAX_LOOKAHEAD`].
pub fn parse_level(text: &str) -> Result<Level, SettingError> {
    parse_whole(
        engine::level(Separator::Colon, MAX_LOOKAHEAD),
        text,
        |left| LevelError::Unknown(left.to_string()),
    )
    .map_err(|e| {
        error(format!(
            "unknown level '{text}' ({e}); levels: random, lookahead:N[:left|right|random] (N 1-{MAX_LOOKAHEAD}), perfect"
        ))
    })
}

/// A level in words, as the game's opening line shows it.
pub fn level_name(level: Level) -> String {
    match level {
        Level::Random => "random".to_string(),
        Level::Lookahead { plies, tie_break } => {
            format!("lookahead {plies}, ties {}", tie_break.name())
        }
        Level::Perfect => "perfect".to_string(),
        Level::Heuristic { plies } => format!("heuristic {plies}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::TieBreak;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_set_everything() {
        let o = PlayOptions::from_args(&args(
            "--width 9 --height=7 --connect 5 --tokens XYZ --names Ann,Ben --computer Z=lookahead:3:right --style dots --letters --seed 7 --early-draw off",
        ))
        .unwrap();
        assert_eq!((o.width, o.height, o.connect), (9, 7, 5));
        assert_eq!(o.tokens, vec!['X', 'Y', 'Z']);
        assert_eq!(o.names, vec!["Ann", "Ben"]);
        assert_eq!(
            o.computers,
            vec![(
                'Z',
                Level::Lookahead {
                    plies: 3,
                    tie_break: TieBreak::Right
                }
            )]
        );
        assert_eq!(o.style, BoardStyle::Layout(Style::Dots));
        assert!(o.columns == ColumnNames::Letters && !o.early_draw);
        assert_eq!(o.seed, Some(7));
        let o = PlayOptions::from_args(&args("--from-zero --start")).unwrap();
        assert!(o.columns == ColumnNames::FromZero && o.start);
        assert!(!PlayOptions::from_args(&args("--start=off")).unwrap().start);
    }

    #[test]
    fn bad_flags_say_what_is_wrong() {
        let fail = |text| PlayOptions::from_args(&args(text)).unwrap_err().to_string();
        assert_eq!(
            fail("--width"),
            "error: a value is required for '--width <N>' but none was supplied"
        );
        assert_eq!(fail("--width x"), "--width: expected a number, got 'x'");
        assert_eq!(
            fail("--width 99999999999999999999"),
            "--width: a board width must be from 1 to 16, got 99999999999999999999"
        );
        assert_eq!(fail("--width +3"), "--width: expected a number, got '+3'");
        assert_eq!(
            fail("--seed 99999999999999999999"),
            "--seed: a seed must be from 0 to 18446744073709551615, got 99999999999999999999"
        );
        assert_eq!(
            fail("--players 99999999999999999999"),
            "--players: the number of players must be from 2 to 8, got 99999999999999999999"
        );
        assert_eq!(
            fail("--width 17"),
            "a board width must be from 1 to 16, got 17"
        );
        assert_eq!(
            fail("--players 3 --tokens XY"),
            "--players 3 and --tokens XY disagree"
        );
        assert_eq!(
            fail("--computer z=random"),
            "no player has the token 'z' (tokens: xo)"
        );
        assert!(fail("--computer o=lookahead:9").starts_with("--computer: unknown level"));
        assert_eq!(
            fail("--bogus 1"),
            "error: unexpected argument '--bogus' found"
        );
        assert_eq!(fail("play"), "error: unexpected argument 'play' found");
        assert_eq!(fail("--moves 4444444"), "moves: move 7: column 4 is full");
        assert_eq!(
            fail("--from-zero --moves 0127"),
            "moves: move 4: column 7 is off the board"
        );
    }

    #[test]
    fn names_are_for_people_and_not_commands() {
        let o = PlayOptions::from_args(&args("--names Ann --computer x=random")).unwrap();
        assert_eq!(
            o.player_names(),
            vec![Some("Computer".to_string()), Some("Ann".to_string())]
        );
        let o =
            PlayOptions::from_args(&args("--players 3 --names Ann --computer o=random")).unwrap();
        assert_eq!(
            o.player_names(),
            vec![Some("Ann".to_string()), Some("Computer".to_string()), None]
        );
        let fail = |text: &str| PlayOptions::from_args(&args(text)).unwrap_err().to_string();
        assert_eq!(
            fail("--names Ann,Ben --computer o=random"),
            "2 names, but people play 1 of the players (the computer's are called Computer)"
        );
        for command in ["q", "H", "s", "u"] {
            assert_eq!(
                fail(&format!("--names Ann,{command}")),
                format!("'{command}' is a command (q quit, h hint, s save, u undo), not a name")
            );
        }
    }

    #[test]
    fn from_zero_counts_the_moves_too() {
        let game = |text| {
            PlayOptions::from_args(&args(text))
                .unwrap()
                .start()
                .unwrap()
        };
        let s4 = game("--from-zero --moves 012345");
        assert_eq!(s4, game("--moves 123456"));
        assert_eq!(game("--moves 012345 --from-zero"), s4);
        assert_eq!(game("--from-zero --moves a,b,c,d,e,f"), s4);
    }

    #[test]
    fn players_keep_matching_tokens_and_names() {
        let mut o = PlayOptions::from_args(&args("--names A,B")).unwrap();
        o.apply("players", "3").unwrap();
        assert_eq!(o.tokens, vec!['x', 'o', 'a']);
        o.apply("tokens", "XY").unwrap();
        o.apply("players", "2").unwrap();
        assert_eq!(o.tokens, vec!['X', 'Y']);
        assert_eq!(o.names, vec!["A", "B"]);
    }
}
