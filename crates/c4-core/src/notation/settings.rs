//! The game settings' text form, one grammar wherever a game's rules are written: the protocol's
//! `new` (`new 9x6 connect 5`), a saved game's rules line (`#c4 players 3 connect 4 tokens xoa
//! early-draw off`) and `c4 play`'s flags and setup lines (`--width 9`, `width 9`). Reading is in
//! two steps, as for FEN: the grammar turns text into [`Settings`] or a [`SettingError`] that
//! names the word at fault and what was expected; then [`Settings::variant`] lets the rules decide
//! whether the settings make a game, in their words ([`SettingsVariantError`]).
//!
//! Grammar: settings separated by spaces or tabs, in any order, each at most once: `WxH` (both
//! sides at once), `width N`, `height N`, `connect N`, `players N`, `tokens T` (one character per
//! player, in turn order) and `early-draw on|off`. Numbers are plain digits; their ranges are the
//! rules', but a number too large to hold is refused here, with the range the rules would give.

use std::fmt;
use std::str::FromStr;

use nom::character::complete::{char, digit1, space0};
use nom::combinator::all_consuming;
use nom::multi::many0;
use nom::sequence::{separated_pair, terminated};
use nom::{IResult, Parser};
use thiserror::Error;

use super::grammar::{fail, parse_whole, whole_number, word, Parsed, WholeNumber};
use crate::rules::variant::{
    MAX_CONNECT, MAX_PLAYERS, MAX_SIDE, MIN_CONNECT, MIN_PLAYERS, MIN_SIDE,
};
use crate::rules::{Token, Variant, VariantError};

/// The name of one game setting, as text writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// `width N`
    Width,
    /// `height N`
    Height,
    /// `players N`
    Players,
    /// `connect N`
    Connect,
    /// `tokens T`
    Tokens,
    /// `early-draw on|off`
    EarlyDraw,
}

impl Key {
    /// Every setting, in the order [`Settings`] writes them.
    pub const ALL: [Key; 6] = [
        Key::Width,
        Key::Height,
        Key::Players,
        Key::Connect,
        Key::Tokens,
        Key::EarlyDraw,
    ];

    /// The setting's word: `width`, `early-draw`.
    pub const fn word(self) -> &'static str {
        match self {
            Key::Width => "width",
            Key::Height => "height",
            Key::Players => "players",
            Key::Connect => "connect",
            Key::Tokens => "tokens",
            Key::EarlyDraw => "early-draw",
        }
    }

    /// The setting whose word is `word`, if any.
    pub fn from_word(word: &str) -> Option<Key> {
        Key::ALL.into_iter().find(|key| key.word() == word)
    }

    /// What the setting's value is, in words, as messages say it.
    fn value_words(self) -> &'static str {
        match self {
            Key::Width | Key::Height | Key::Players | Key::Connect => "a number",
            Key::Tokens => "tokens",
            Key::EarlyDraw => ON_OR_OFF,
        }
    }

    /// An example after the words of a missing value, where the form is not plain.
    fn example(self) -> &'static str {
        match self {
            Key::Tokens => ", e.g. tokens XYZ",
            _ => "",
        }
    }

    /// What the setting's number is, as the rules name it in their messages, and the range
    /// they take; `None` for the settings that are not numbers.
    fn range(self) -> Option<(&'static str, (u64, u64))> {
        let range = |min: usize, max: usize| (min as u64, max as u64);
        match self {
            Key::Width => Some((WIDTH, range(MIN_SIDE, MAX_SIDE))),
            Key::Height => Some((HEIGHT, range(MIN_SIDE, MAX_SIDE))),
            Key::Players => Some(("the number of players", range(MIN_PLAYERS, MAX_PLAYERS))),
            Key::Connect => Some(("the connect length", range(MIN_CONNECT, MAX_CONNECT))),
            Key::Tokens | Key::EarlyDraw => None,
        }
    }

    /// The rules' sentence for `got`, a number as written that this setting cannot take (one
    /// with a sign, or too large to hold), for doors whose numbers may be negative or of any
    /// size, such as Python's ints: `a board width must be from 1 to 16, got -1`. `None` for
    /// the settings that are not numbers.
    pub fn out_of_range(self, got: &str) -> Option<SettingError> {
        let (what, (min, max)) = self.range()?;
        Some(SettingError::OutOfRange {
            what,
            min,
            max,
            got: got.to_string(),
        })
    }

    /// Reads `text`, one word, as this setting's value.
    pub fn read(self, text: &str) -> Result<Setting, SettingError> {
        if text.is_empty() {
            return Err(SettingError::Missing(self));
        }
        let count = || {
            let (what, range) = self.range().expect("a setting whose value is a number");
            number::<usize>(self.word(), what, range, text)
        };
        Ok(match self {
            Key::Width => Setting::Width(count()?),
            Key::Height => Setting::Height(count()?),
            Key::Players => Setting::Players(count()?),
            Key::Connect => Setting::Connect(count()?),
            Key::Tokens => Setting::Tokens(text.chars().collect()),
            Key::EarlyDraw => Setting::EarlyDraw(switch(self.word(), text)?),
        })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The board's width, as the rules name it in their messages.
const WIDTH: &str = "a board width";
/// The board's height, as the rules name it in their messages.
const HEIGHT: &str = "a board height";

/// What a switch takes, as messages say it.
const ON_OR_OFF: &str = "on or off";

/// Why a settings text is not well formed: the word at fault and what was expected there. The
/// messages read after what holds the settings (`new needs a number after 'width'`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SettingError {
    /// A setting's word with no value after it.
    #[error("needs {} after '{}'{}", .0.value_words(), .0.word(), .0.example())]
    Missing(Key),
    /// A value that is not of the setting's form.
    #[error("expected {expected} after '{setting}', got '{got}'")]
    Expected {
        /// The setting's word.
        setting: &'static str,
        /// What it takes, in words.
        expected: &'static str,
        /// The word found.
        got: String,
    },
    /// A number too large to hold (or, from [`Key::out_of_range`], one with a sign), refused
    /// with the range its setting takes.
    #[error("{what} must be from {min} to {max}, got {got}")]
    OutOfRange {
        /// What the number is, as the rules name it (`a board width`).
        what: &'static str,
        /// The smallest value taken.
        min: u64,
        /// The largest value taken.
        max: u64,
        /// The number as written.
        got: String,
    },
    /// A word that names no setting and is no `WxH` size.
    #[error("has no setting '{0}'")]
    Unknown(String),
    /// A setting given twice (a size gives the width and the height).
    #[error("sets {0} twice")]
    Twice(Key),
}

/// Reads `text` as a whole number, the value of `setting`. Its range is for the rules to check;
/// a number too large for `T` is refused with the range `(min, max)` that `what` takes.
pub fn number<T: FromStr>(
    setting: &'static str,
    what: &'static str,
    (min, max): (u64, u64),
    text: &str,
) -> Result<T, SettingError> {
    match whole_number(text) {
        WholeNumber::Value(n) => Ok(n),
        WholeNumber::TooLarge => Err(SettingError::OutOfRange {
            what,
            min,
            max,
            got: text.to_string(),
        }),
        WholeNumber::NotANumber => Err(SettingError::Expected {
            setting,
            expected: "a number",
            got: text.to_string(),
        }),
    }
}

/// Reads `on` or `off`, the value of the switch `setting`.
pub fn switch(setting: &'static str, text: &str) -> Result<bool, SettingError> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        got => Err(SettingError::Expected {
            setting,
            expected: ON_OR_OFF,
            got: got.to_string(),
        }),
    }
}

/// The word [`switch`] reads for `on`.
pub fn switch_word(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

/// One setting, well formed; whether it fits a game is for [`Settings::variant`] to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    /// `WxH`: the width and the height at once.
    Size {
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// Board width.
    Width(usize),
    /// Board height.
    Height(usize),
    /// Number of players, with the default tokens.
    Players(usize),
    /// How many in a row win.
    Connect(usize),
    /// Tokens in turn order (their number is the number of players).
    Tokens(Vec<char>),
    /// Whether a game ends in a draw as soon as nobody can complete a line.
    EarlyDraw(bool),
}

impl fmt::Display for Setting {
    /// The setting as the grammar reads it: `9x6`, `width 9`, `early-draw on`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setting::Size { width, height } => write!(f, "{width}x{height}"),
            Setting::Width(n) => write!(f, "{} {n}", Key::Width),
            Setting::Height(n) => write!(f, "{} {n}", Key::Height),
            Setting::Players(n) => write!(f, "{} {n}", Key::Players),
            Setting::Connect(n) => write!(f, "{} {n}", Key::Connect),
            Setting::Tokens(tokens) => {
                write!(f, "{} {}", Key::Tokens, tokens.iter().collect::<String>())
            }
            Setting::EarlyDraw(on) => write!(f, "{} {}", Key::EarlyDraw, switch_word(*on)),
        }
    }
}

/// A size `WxH`: two numbers around an `x`, each too large to hold refused as the rules would.
fn size(text: &str) -> Result<Setting, SettingError> {
    let parsed: IResult<&str, (&str, &str)> =
        all_consuming(separated_pair(digit1, char('x'), digit1)).parse(text);
    let Ok((_, (width, height))) = parsed else {
        return Err(SettingError::Unknown(text.to_string()));
    };
    let side = |what, digits| number("WxH", what, (MIN_SIDE as u64, MAX_SIDE as u64), digits);
    Ok(Setting::Size {
        width: side(WIDTH, width)?,
        height: side(HEIGHT, height)?,
    })
}

/// One setting: a `WxH` size, or a setting's word and its value. No word left fails softly, so
/// that a list of settings ends there; anything else wrong fails the parse.
fn setting(input: &str) -> Parsed<'_, Setting, SettingError> {
    let (rest, first) = word(input)?;
    let Some(key) = Key::from_word(first) else {
        return match size(first) {
            Ok(size) => Ok((rest, size)),
            Err(problem) => fail(first, problem),
        };
    };
    // After a setting's word its value is due: a missing one fails the list, not ends it.
    let Ok((rest, value)) = word::<SettingError>(rest) else {
        return fail(rest, SettingError::Missing(key));
    };
    match key.read(value) {
        Ok(setting) => Ok((rest, setting)),
        Err(problem) => fail(value, problem),
    }
}

/// Settings for a game; those left `None` are not given (and keep their current values).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// Board width.
    pub width: Option<usize>,
    /// Board height.
    pub height: Option<usize>,
    /// Number of players, with default tokens unless `tokens` gives them.
    pub players: Option<usize>,
    /// How many in a row win.
    pub connect: Option<usize>,
    /// Tokens in turn order (their number is the number of players).
    pub tokens: Option<Vec<char>>,
    /// Whether the early draw rule is on.
    pub early_draw: Option<bool>,
}

/// A list of settings, in any order, each at most once; after it, only spaces or tabs.
pub(crate) fn settings(input: &str) -> Parsed<'_, Settings, SettingError> {
    let (rest, list) = terminated(many0(setting), space0).parse(input)?;
    let mut settings = Settings::default();
    for setting in list {
        if let Err(problem) = settings.set(setting) {
            return fail(input, problem);
        }
    }
    Ok((rest, settings))
}

impl Settings {
    /// The rules of `variant` besides its size (which a FEN gives): players, connect, tokens and
    /// early draw, as a saved game's rules line states them.
    pub(crate) fn rules_of(variant: &Variant) -> Settings {
        Settings {
            players: Some(variant.players()),
            connect: Some(variant.connect()),
            tokens: Some(variant.tokens().iter().map(|t| t.as_char()).collect()),
            early_draw: Some(variant.early_draw()),
            ..Settings::default()
        }
    }

    /// Whether no setting is given.
    pub fn is_empty(&self) -> bool {
        *self == Settings::default()
    }

    /// Adds `setting`; a setting already given is [`SettingError::Twice`].
    pub fn set(&mut self, setting: Setting) -> Result<(), SettingError> {
        fn once<T>(slot: &mut Option<T>, key: Key, value: T) -> Result<(), SettingError> {
            match slot {
                Some(_) => Err(SettingError::Twice(key)),
                None => {
                    *slot = Some(value);
                    Ok(())
                }
            }
        }
        match setting {
            Setting::Size { width, height } => {
                once(&mut self.width, Key::Width, width)?;
                once(&mut self.height, Key::Height, height)
            }
            Setting::Width(n) => once(&mut self.width, Key::Width, n),
            Setting::Height(n) => once(&mut self.height, Key::Height, n),
            Setting::Players(n) => once(&mut self.players, Key::Players, n),
            Setting::Connect(n) => once(&mut self.connect, Key::Connect, n),
            Setting::Tokens(tokens) => once(&mut self.tokens, Key::Tokens, tokens),
            Setting::EarlyDraw(on) => once(&mut self.early_draw, Key::EarlyDraw, on),
        }
    }

    /// The settings given, one [`Setting`] each, in the order of [`Key::ALL`].
    pub fn list(&self) -> Vec<Setting> {
        [
            self.width.map(Setting::Width),
            self.height.map(Setting::Height),
            self.players.map(Setting::Players),
            self.connect.map(Setting::Connect),
            self.tokens.clone().map(Setting::Tokens),
            self.early_draw.map(Setting::EarlyDraw),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// The variant `current` becomes with these settings changed: `players` alone gives the
    /// default tokens, `tokens` alone sets the number of players, and both must agree.
    pub fn variant(&self, current: &Variant) -> Result<Variant, SettingsVariantError> {
        let tokens = match (&self.tokens, self.players) {
            (Some(chars), Some(players)) if players != chars.len() => {
                return Err(SettingsVariantError::PlayersVsTokens {
                    players,
                    tokens: chars.len(),
                })
            }
            (Some(chars), _) => chars
                .iter()
                .map(|&c| Token::new(c))
                .collect::<Result<Vec<_>, _>>()?,
            (None, Some(players)) => Variant::default_tokens(players)?,
            (None, None) => current.tokens().to_vec(),
        };
        Ok(Variant::new(
            self.width.unwrap_or(current.width()),
            self.height.unwrap_or(current.height()),
            self.connect.unwrap_or(current.connect()),
            tokens,
            self.early_draw.unwrap_or(current.early_draw()),
        )?)
    }
}

impl FromStr for Settings {
    type Err = SettingError;

    /// Reads a whole text of settings (see the module's grammar).
    fn from_str(text: &str) -> Result<Settings, SettingError> {
        // `settings` reads every word or fails, so nothing is ever left unexplained.
        parse_whole(settings, text, |left| {
            SettingError::Unknown(left.trim().to_string())
        })
    }
}

impl fmt::Display for Settings {
    /// The settings given, as [`Settings::from_str`] reads them back, separated by spaces:
    /// `width 9 height 6 players 3 connect 4 tokens XYZ early-draw on`; nothing for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, setting) in self.list().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{setting}")?;
        }
        Ok(())
    }
}

/// Why well-formed settings make no game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SettingsVariantError {
    /// `players N` and `tokens T` with N different from the number of tokens.
    #[error("players {players} does not match the {tokens} tokens given")]
    PlayersVsTokens {
        /// The number of players given.
        players: usize,
        /// The number of tokens given.
        tokens: usize,
    },
    /// Settings the rules refuse, in their words.
    #[error("{0}")]
    Variant(#[from] VariantError),
}

/// Tokens separated by spaces, as messages list them (`x o a`).
pub(crate) fn token_list(tokens: &[Token]) -> String {
    tokens
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Settings, SettingError> {
        text.parse()
    }

    fn message(text: &str) -> String {
        read(text).unwrap_err().to_string()
    }

    #[test]
    fn settings_read_in_any_order_and_write_back() {
        let settings = read("  connect 5\t9x6 early-draw on tokens XYZ ").unwrap();
        assert_eq!(
            settings,
            Settings {
                width: Some(9),
                height: Some(6),
                players: None,
                connect: Some(5),
                tokens: Some(vec!['X', 'Y', 'Z']),
                early_draw: Some(true),
            }
        );
        assert_eq!(
            settings.to_string(),
            "width 9 height 6 connect 5 tokens XYZ early-draw on"
        );
        for text in [
            "",
            "players 3",
            "width 1 height 16",
            "tokens ab early-draw off",
            "players 3 connect 4 tokens xoa early-draw off",
        ] {
            let settings = read(text).unwrap();
            assert_eq!(settings.to_string(), text);
            assert_eq!(read(&settings.to_string()), Ok(settings));
        }
        assert!(read(" ").unwrap().is_empty());
    }

    #[test]
    fn errors_name_the_word_and_what_was_expected() {
        let cases = [
            ("width", "needs a number after 'width'"),
            ("7x6 early-draw", "needs on or off after 'early-draw'"),
            ("tokens", "needs tokens after 'tokens', e.g. tokens XYZ"),
            ("width x", "expected a number after 'width', got 'x'"),
            ("players +3", "expected a number after 'players', got '+3'"),
            (
                "early-draw yes",
                "expected on or off after 'early-draw', got 'yes'",
            ),
            ("colour red", "has no setting 'colour'"),
            ("7x6x5", "has no setting '7x6x5'"),
            ("width 8 width 9", "sets width twice"),
            ("8x7 height 9", "sets height twice"),
            (
                "connect 99999999999999999999",
                "the connect length must be from 2 to 16, got 99999999999999999999",
            ),
            (
                "99999999999999999999x6",
                "a board width must be from 1 to 16, got 99999999999999999999",
            ),
            (
                "7x99999999999999999999",
                "a board height must be from 1 to 16, got 99999999999999999999",
            ),
            (
                "players 99999999999999999999",
                "the number of players must be from 2 to 8, got 99999999999999999999",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(message(text), expected, "{text}");
        }
        // Ranges within what a number can hold are the rules' to check.
        assert_eq!(read("width 0").unwrap().width, Some(0));
    }

    #[test]
    fn one_value_reads_as_its_setting() {
        assert_eq!(Key::Width.read("9"), Ok(Setting::Width(9)));
        assert_eq!(Key::EarlyDraw.read("off"), Ok(Setting::EarlyDraw(false)));
        assert_eq!(
            Key::Tokens.read(""),
            Err(SettingError::Missing(Key::Tokens))
        );
        assert_eq!(
            Key::Width.out_of_range("-1").unwrap().to_string(),
            "a board width must be from 1 to 16, got -1"
        );
        assert_eq!(
            Key::Players
                .out_of_range("18446744073709551616")
                .unwrap()
                .to_string(),
            "the number of players must be from 2 to 8, got 18446744073709551616"
        );
        assert_eq!(Key::Tokens.out_of_range("-1"), None);
        assert_eq!(Key::from_word("early-draw"), Some(Key::EarlyDraw));
        assert_eq!(Key::from_word("size"), None);
        assert_eq!(
            number::<u64>("seed", "a seed", (0, u64::MAX), "18446744073709551616")
                .unwrap_err()
                .to_string(),
            "a seed must be from 0 to 18446744073709551615, got 18446744073709551616"
        );
        assert_eq!(
            switch("start", "maybe").unwrap_err().to_string(),
            "expected on or off after 'start', got 'maybe'"
        );
    }

    #[test]
    fn the_rules_decide_what_the_settings_make() {
        let standard = Variant::default();
        let variant = |text: &str| read(text).unwrap().variant(&standard);
        let three = variant("players 3 5x4").unwrap();
        assert_eq!((three.width(), three.height(), three.players()), (5, 4, 3));
        assert_eq!(
            Settings::rules_of(&three)
                .variant(&standard)
                .unwrap()
                .players(),
            3
        );
        assert_eq!(variant(""), Ok(standard.clone()));
        let said = |text: &str| variant(text).unwrap_err().to_string();
        assert_eq!(
            said("players 8 tokens abc"),
            "players 8 does not match the 3 tokens given"
        );
        assert_eq!(said("width 0"), "a board width must be from 1 to 16, got 0");
        assert_eq!(
            said("tokens xx"),
            "token 'x' is used by two players; every player needs a different token"
        );
        assert!(said("tokens x/").contains("'/' cannot be a token"));
        assert_eq!(
            Settings::rules_of(&standard).to_string(),
            "players 2 connect 4 tokens xo early-draw off"
        );
    }

    proptest::proptest! {
        /// Any text reads or fails with a message, never a panic; what reads writes back.
        #[test]
        fn any_text_reads_or_fails_and_writes_back(
            text in "(width|height|players|connect|tokens|early-draw|on|off|[0-9x]{1,4}|[a-z]{1,3}| |\t){0,8}",
        ) {
            if let Ok(settings) = read(&text) {
                proptest::prop_assert_eq!(read(&settings.to_string()), Ok(settings));
            }
        }
    }
}
