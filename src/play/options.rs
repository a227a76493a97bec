//! `c4 play`'s settings: read from flags (`--width 9`, see [`crate::cmd::cli::PlayArgs`]) or typed in
//! the setup menu (`width 9`), both through [`PlayOptions::apply`], and checked by building the
//! variant and start position the rules would play. The game's own settings (size, connect,
//! players, tokens, early draw) are read by the settings grammar ([`c4_core::Settings`]),
//! as `new` and saved games read them. Nothing here reads or writes a terminal.

use thiserror::Error;

use c4_core::{
    parse_moves_counting, Counting, Fen, FenError, LayoutStyle, MovesError, SettingError,
};
use c4_core::{
    setting_number, setting_switch, Setting, SettingKey, Settings, SettingsVariantError,
};
use c4_core::{Game, MoveError, NameError, Player, Variant};
use c4_core::{Level, LevelError, MAX_LOOKAHEAD};
use c4_core::{STANDARD_CONNECT, STANDARD_HEIGHT, STANDARD_TOKENS, STANDARD_WIDTH};

/// What the computer players are called.
pub(super) const COMPUTER_NAME: &str = "Computer";

/// How the board is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardStyle {
    /// One of the source programs' layouts.
    Layout(LayoutStyle),
    /// The `dots` layout with each player's tokens in their own colour; drawn as `grid` when
    /// standard output is not a terminal or `NO_COLOR` is set.
    Colour,
}

impl BoardStyle {
    /// The style called `name`: a layout name or `colour` (or `color`).
    pub fn from_name(name: &str) -> Option<BoardStyle> {
        match name {
            "colour" | "color" => Some(BoardStyle::Colour),
            _ => LayoutStyle::from_name(name).map(BoardStyle::Layout),
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
    /// `1` to `16`, as the grid and dots programs and the protocol count.
    Numbers,
    /// `A` to `P`, as the letters program names them (numbers are still read too).
    Letters,
    /// `0` to `15`, as the pipes program counts them and the `pipes` layout labels them; typed
    /// numbers are read from 0 as well.
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
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionError {
    /// A game setting that is not well formed, in the settings grammar's words.
    #[error("{0}")]
    Setting(#[from] SettingError),
    /// Game settings that make no game, in the rules' words.
    #[error("{0}")]
    Variant(#[from] SettingsVariantError),
    /// A name that is no setting.
    #[error("unknown setting '{0}'; settings: {list}", list = setting_names())]
    Unknown(String),
    /// A computer player not given as `TOKEN=LEVEL`.
    #[error("expected TOKEN=LEVEL, e.g. o=perfect, got '{0}'")]
    NotComputer(String),
    /// A token that is not one character.
    #[error("a token is one character, got '{0}'")]
    NotAToken(String),
    /// A computer or human setting for a token no player has.
    #[error("no player has the token '{token}' (tokens: {tokens})")]
    UnknownToken {
        /// The token given.
        token: char,
        /// The players' tokens, run together.
        tokens: String,
    },
    /// A level that is not one.
    #[error(
        "unknown level '{text}' ({source}); levels: random, lookahead:N[:left|right|random] \
         (N 1-{}), perfect",
        MAX_LOOKAHEAD
    )]
    Level {
        /// The level as given.
        text: String,
        /// What is wrong with it.
        source: LevelError,
    },
    /// A style that is not one.
    #[error("unknown style '{0}'; styles: grid, dots, letters, pipes, numbers, tabs, colour")]
    Style(String),
    /// A column naming that is not one.
    #[error("unknown column naming '{0}'; expected numbers, letters or from-zero")]
    Columns(String),
    /// A name that a turn's answer would take as a command.
    #[error("'{0}' is a command (q quit, h hint, s save, u undo), not a name")]
    NameIsCommand(String),
    /// A name the rules refuse.
    #[error("{0}")]
    Name(#[from] NameError),
    /// More names than people.
    #[error(
        "{names} names, but people play {people} of the players (the computer's are called \
         {COMPUTER_NAME})"
    )]
    TooManyNames {
        /// The names given.
        names: usize,
        /// The players people play.
        people: usize,
    },
    /// A start position that is not one of this game.
    #[error("{0}")]
    Fen(#[from] FenError),
    /// Moves that are not a move sequence.
    #[error("moves: {0}")]
    Moves(MovesError),
    /// A move of the moves that cannot be played, its column named as the players name them.
    #[error("moves: move {number}: {}", .columns.move_problem(.source))]
    Move {
        /// The move's place in the sequence, from 1.
        number: usize,
        /// How columns are named.
        columns: ColumnNames,
        /// Why it cannot be played.
        source: MoveError,
    },
    /// A command-line flag's value refused.
    #[error("--{flag}: {source}")]
    Flag {
        /// The flag, without its dashes.
        flag: &'static str,
        /// What is wrong with its value.
        source: Box<OptionError>,
    },
    /// `--classic` with a name that is no program's.
    #[error("unknown program '{0}'; programs: {names}", names = crate::play::Program::names())]
    UnknownProgram(String),
    /// A flag whose setting the classic program does not have.
    #[error(
        "the {program} program has no setting --{flag}{}",
        if .allowed.is_empty() { " (it takes none but --classic)".to_string() } else { format!(" (it takes --{})", .allowed.join(", --")) }
    )]
    NotClassicSetting {
        /// The program's name.
        program: &'static str,
        /// The flag, without its dashes.
        flag: &'static str,
        /// The flags the program takes.
        allowed: &'static [&'static str],
    },
    /// A computer player in a classic program that has none.
    #[error("the {0} program has no computer player")]
    NoComputer(&'static str),
    /// A computer player for a token the classic program's computer does not play.
    #[error("the {program} program's computer plays {allowed}, not {token}")]
    ClassicComputer {
        /// The program's name.
        program: &'static str,
        /// The token given to the computer.
        token: char,
        /// The token the program's computer plays.
        allowed: char,
    },
    /// `--players` and `--tokens` with different numbers of players.
    #[error("--players {players} and --tokens {tokens} disagree")]
    FlagsDisagree {
        /// The number of players given.
        players: usize,
        /// The tokens given.
        tokens: String,
    },
}

/// The setting names, as the message for an unknown one lists them.
fn setting_names() -> String {
    SETTINGS
        .iter()
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .join(", ")
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
    /// only columns, as the dots program's grader pipes it.
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
    /// search chooses, and the computer says so (see `COMPUTER_NODE_LIMIT`).
    pub computer_nodes: u64,
}

/// The perfect computer's default budget per move: about 10 seconds of search on the
/// development machine. The standard board's moves take far less (the opening book answers
/// its first 12 plies); early moves on larger boards would otherwise take hours.
pub(super) const COMPUTER_NODE_LIMIT: u64 = 200_000_000;

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
            style: BoardStyle::Layout(LayoutStyle::Grid),
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
    (SettingKey::Width.word(), "N"),
    (SettingKey::Height.word(), "N"),
    (SettingKey::Connect.word(), "N"),
    (SettingKey::Players.word(), "N"),
    (SettingKey::Tokens.word(), "XOA"),
    ("names", "Ann,Ben"),
    ("computer", "TOKEN=LEVEL"),
    ("human", "TOKEN"),
    ("style", "grid|dots|letters|pipes|numbers|tabs|colour"),
    ("columns", "numbers|letters|from-zero"),
    (SettingKey::EarlyDraw.word(), "on|off"),
    ("seed", "N"),
    ("fen", "FEN|none"),
    ("moves", "MOVES|none"),
    ("start", "on|off"),
];

impl PlayOptions {
    /// Changes one setting by name (a name from [`SETTINGS`]). Only the value's form is checked
    /// here; [`PlayOptions::check`] checks the whole.
    pub fn apply(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        if let Some(key) = SettingKey::from_word(key) {
            self.set(key.read(value)?)?;
            return Ok(());
        }
        match key {
            "names" => {
                self.names = value.split(',').map(|n| n.trim().to_string()).collect();
            }
            "computer" => {
                let (token, level) = value
                    .split_once('=')
                    .ok_or_else(|| OptionError::NotComputer(value.to_string()))?;
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
                self.style = BoardStyle::from_name(value)
                    .ok_or_else(|| OptionError::Style(value.to_string()))?;
            }
            "columns" => {
                self.columns = ColumnNames::from_name(value)
                    .ok_or_else(|| OptionError::Columns(value.to_string()))?;
            }
            "seed" => self.seed = Some(setting_number("seed", "a seed", (0, u64::MAX), value)?),
            "fen" => self.fen = (value != "none").then(|| value.to_string()),
            "moves" => self.moves = (value != "none").then(|| value.to_string()),
            "start" => self.start = setting_switch("start", value)?,
            _ => return Err(OptionError::Unknown(key.to_string())),
        }
        Ok(())
    }

    /// Changes one of the game's settings.
    fn set(&mut self, setting: Setting) -> Result<(), SettingsVariantError> {
        match setting {
            Setting::Size { width, height } => (self.width, self.height) = (width, height),
            Setting::Width(width) => self.width = width,
            Setting::Height(height) => self.height = height,
            Setting::Connect(connect) => self.connect = connect,
            Setting::Players(players) => {
                if players != self.tokens.len() {
                    let tokens = Variant::default_tokens(players)?;
                    self.tokens = tokens.iter().map(|t| t.as_char()).collect();
                }
                self.names.truncate(players);
            }
            Setting::Tokens(tokens) => {
                self.tokens = tokens;
                self.names.truncate(self.tokens.len());
            }
            Setting::EarlyDraw(on) => self.early_draw = on,
        }
        Ok(())
    }

    /// Checks that the settings make a game: a valid variant, names for players that exist,
    /// computers that are players, and a start position the rules accept.
    pub fn check(&self) -> Result<(), OptionError> {
        self.start().map(|_| ())
    }

    /// The variant the settings describe.
    pub fn variant(&self) -> Result<Variant, SettingsVariantError> {
        let settings = Settings {
            width: Some(self.width),
            height: Some(self.height),
            connect: Some(self.connect),
            tokens: Some(self.tokens.clone()),
            early_draw: Some(self.early_draw),
            players: None,
        };
        settings.variant(&Variant::default())
    }

    /// A computer or human setting for `token`, which no player has.
    fn unknown_token(&self, token: char) -> OptionError {
        OptionError::UnknownToken {
            token,
            tokens: self.tokens.iter().collect(),
        }
    }

    /// The position a new game starts from: the FEN (or the empty board), then the moves.
    pub fn start(&self) -> Result<Game, OptionError> {
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
            return Err(OptionError::TooManyNames {
                names: self.names.len(),
                people,
            });
        }
        let mut game = match &self.fen {
            Some(text) => Fen::parse(text)
                .map_err(FenError::from)?
                .to_game(&variant)
                .map_err(FenError::from)?,
            None => Game::new(variant),
        };
        if let Some(text) = &self.moves {
            let width = game.variant().width();
            let numbers = parse_moves_counting(text, width, self.columns.counting())
                .map_err(OptionError::Moves)?;
            for (i, n) in numbers.into_iter().enumerate() {
                game.column(n)
                    .and_then(|column| game.play(column))
                    .map_err(|source| OptionError::Move {
                        number: i + 1,
                        columns: self.columns,
                        source,
                    })?;
            }
        }
        Ok(game)
    }

    /// The players' names in turn order: `COMPUTER_NAME` for the computer's, the names given
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

/// A name someone can be called by: a player's name by the rules ([`c4_core::check_name`]) that
/// is not one of the commands `q`, `h`, `s` or `u` (any case), which a turn's answer would take
/// as the command.
pub fn check_name(name: &str) -> Result<(), OptionError> {
    if ["q", "h", "s", "u"].contains(&name.to_ascii_lowercase().as_str()) {
        return Err(OptionError::NameIsCommand(name.to_string()));
    }
    Ok(c4_core::check_name(name)?)
}

fn one_char(value: &str) -> Result<char, OptionError> {
    let mut chars = value.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(OptionError::NotAToken(value.to_string())),
    }
}

/// A computer level: `random`, `lookahead:N` with an optional `:left|right|random` tie-break
/// (left when not given), or `perfect`: the engine's level words ([`c4_core::parse_level`]),
/// between colons or blanks, as every front end reads them.
pub fn parse_level(text: &str) -> Result<Level, OptionError> {
    c4_core::parse_level(text).map_err(|source| OptionError::Level {
        text: text.to_string(),
        source,
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
    use c4_core::TieBreak;

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
        assert_eq!(o.style, BoardStyle::Layout(LayoutStyle::Dots));
        assert!(o.columns == ColumnNames::Letters && !o.early_draw);
        assert_eq!(o.seed, Some(7));
        let o = PlayOptions::from_args(&args("--from-zero --start")).unwrap();
        assert!(o.columns == ColumnNames::FromZero && o.start);
        assert!(!PlayOptions::from_args(&args("--start=off")).unwrap().start);
    }

    #[test]
    fn bad_flags_say_what_is_wrong() {
        let fail = PlayOptions::refusal;
        assert_eq!(
            fail("--width"),
            "error: a value is required for '--width <N>' but none was supplied"
        );
        assert_eq!(
            fail("--width x"),
            "--width: expected a number after 'width', got 'x'"
        );
        assert_eq!(
            fail("--width 99999999999999999999"),
            "--width: a board width must be from 1 to 16, got 99999999999999999999"
        );
        assert_eq!(
            fail("--width +3"),
            "--width: expected a number after 'width', got '+3'"
        );
        assert_eq!(
            fail("--seed x"),
            "--seed: expected a number after 'seed', got 'x'"
        );
        assert_eq!(
            fail("--early-draw yes"),
            "--early-draw: expected on or off after 'early-draw', got 'yes'"
        );
        assert_eq!(
            fail("--start=maybe"),
            "--start: expected on or off after 'start', got 'maybe'"
        );
        assert_eq!(
            fail("--tokens x1"),
            "'1' cannot be a token: use one printable character other than a digit, a space or \
             / . # | + - ,"
        );
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
        // The protocol's and Python's deepest look-ahead, 12, is the terminal game's too.
        let too_deep = fail("--computer o=lookahead:13");
        assert!(
            too_deep.starts_with("--computer: unknown level"),
            "{too_deep}"
        );
        assert!(
            too_deep.contains("must be from 1 to 12, got '13'"),
            "{too_deep}"
        );
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
        let fail = PlayOptions::refusal;
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
        let set_board = game("--from-zero --moves 012345");
        assert_eq!(set_board, game("--moves 123456"));
        assert_eq!(game("--moves 012345 --from-zero"), set_board);
        assert_eq!(game("--from-zero --moves a,b,c,d,e,f"), set_board);
    }

    #[test]
    fn setup_lines_read_the_game_settings_as_new_does() {
        let mut o = PlayOptions::default();
        let refused =
            |o: &mut PlayOptions, key, value| o.apply(key, value).unwrap_err().to_string();
        assert_eq!(refused(&mut o, "width", ""), "needs a number after 'width'");
        assert_eq!(
            refused(&mut o, "tokens", ""),
            "needs tokens after 'tokens', e.g. tokens XYZ"
        );
        assert!(refused(&mut o, "7x6", "").starts_with("unknown setting '7x6'; settings: width,"));
        o.apply("early-draw", "on").unwrap();
        o.apply("connect", "5").unwrap();
        assert!(o.early_draw);
        assert_eq!(o.variant().unwrap().connect(), 5);
        assert_eq!(
            o,
            PlayOptions {
                early_draw: true,
                connect: 5,
                ..PlayOptions::default()
            }
        );
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
