//! The variant of a game: board size, connect length, players and their tokens, early-draw rule.
//! Everything here is fixed for the length of a game; positions and moves live in `board`/`game`.

use std::fmt;

use thiserror::Error;

/// Smallest and largest board width and height.
pub(crate) const MIN_SIDE: usize = 1;
/// Largest board width and height.
pub(crate) const MAX_SIDE: usize = 16;
/// The fewest and most players a game can have.
pub(crate) const MIN_PLAYERS: usize = 2;
/// The most players a game can have.
pub(crate) const MAX_PLAYERS: usize = 8;
/// The shortest connect length.
pub(crate) const MIN_CONNECT: usize = 2;
/// The longest connect length accepted (any longer cannot fit a 16x16 board either).
pub(crate) const MAX_CONNECT: usize = 16;

/// Standard board width.
pub const STANDARD_WIDTH: usize = 7;
/// Standard board height.
pub const STANDARD_HEIGHT: usize = 6;
/// Standard connect length.
pub const STANDARD_CONNECT: usize = 4;
/// Default tokens, in turn order.
pub const STANDARD_TOKENS: [char; 2] = ['x', 'o'];

/// Characters that can never be tokens: they are digits or carry meaning in FEN or board layouts.
const RESERVED: &[char] = &['/', '.', '#', '|', '+', '-', ','];

/// One player's one-character mark on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Token(char);

impl Token {
    /// A token: one printable ASCII character that is not a digit, not a space and not one of
    /// `/ . # | + - ,` (those mean something in FEN or in board layouts).
    pub fn new(c: char) -> Result<Token, VariantError> {
        if c.is_ascii_graphic() && !c.is_ascii_digit() && !RESERVED.contains(&c) {
            Ok(Token(c))
        } else {
            Err(VariantError::BadToken(c.escape_debug().to_string()))
        }
    }

    /// The character itself.
    pub fn as_char(self) -> char {
        self.0
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why a variant cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VariantError {
    /// Width or height outside 1-16.
    #[error("a board {side} must be from {MIN_SIDE} to {MAX_SIDE}, got {value}")]
    BadSide { side: &'static str, value: usize },
    /// Connect length outside 2-16.
    #[error("the connect length must be from {MIN_CONNECT} to {MAX_CONNECT}, got {0}")]
    BadConnect(usize),
    /// Player count outside 2-8.
    #[error("the number of players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, got {0}")]
    BadPlayerCount(usize),
    /// A token that cannot be used.
    #[error("'{0}' cannot be a token: use one printable character other than a digit, a space or / . # | + - ,")]
    BadToken(String),
    /// The same token twice.
    #[error("token '{0}' is used by two players; every player needs a different token")]
    DuplicateToken(char),
}

/// The fixed rules of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    width: usize,
    height: usize,
    connect: usize,
    tokens: Vec<Token>,
    early_draw: bool,
}

impl Default for Variant {
    /// The standard game: 7 wide, 6 high, connect 4, `x` then `o`, drawn only when the board is
    /// full (the early draw is an option, as other engines do not know it).
    fn default() -> Self {
        Variant {
            width: STANDARD_WIDTH,
            height: STANDARD_HEIGHT,
            connect: STANDARD_CONNECT,
            tokens: STANDARD_TOKENS.iter().map(|&c| Token(c)).collect(),
            early_draw: false,
        }
    }
}

impl Variant {
    /// A validated variant.
    pub fn new(
        width: usize,
        height: usize,
        connect: usize,
        tokens: Vec<Token>,
        early_draw: bool,
    ) -> Result<Variant, VariantError> {
        for (side, value) in [("width", width), ("height", height)] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&value) {
                return Err(VariantError::BadSide { side, value });
            }
        }
        if !(MIN_CONNECT..=MAX_CONNECT).contains(&connect) {
            return Err(VariantError::BadConnect(connect));
        }
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&tokens.len()) {
            return Err(VariantError::BadPlayerCount(tokens.len()));
        }
        for (i, t) in tokens.iter().enumerate() {
            if tokens[..i].contains(t) {
                return Err(VariantError::DuplicateToken(t.as_char()));
            }
        }
        Ok(Variant {
            width,
            height,
            connect,
            tokens,
            early_draw,
        })
    }

    /// The default tokens for `n` players: `x`, `o`, then `a`, `b`, ... skipping those two.
    pub fn default_tokens(n: usize) -> Result<Vec<Token>, VariantError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
            return Err(VariantError::BadPlayerCount(n));
        }
        let extra = ('a'..='z').filter(|c| !STANDARD_TOKENS.contains(c));
        Ok(STANDARD_TOKENS
            .iter()
            .copied()
            .chain(extra)
            .take(n)
            .map(Token)
            .collect())
    }

    /// The same variant on a board of another size (a FEN sets the size).
    pub(crate) fn with_size(&self, width: usize, height: usize) -> Result<Variant, VariantError> {
        Variant::new(
            width,
            height,
            self.connect,
            self.tokens.clone(),
            self.early_draw,
        )
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// How many in a row win.
    pub fn connect(&self) -> usize {
        self.connect
    }

    /// Tokens in turn order; player `i` plays `tokens()[i]`.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.tokens.len()
    }

    /// Whether a game ends in a draw as soon as nobody can complete a line any more.
    pub fn early_draw(&self) -> bool {
        self.early_draw
    }

    /// The player whose token is `c`, if any.
    pub fn player_of(&self, c: char) -> Option<Player> {
        self.tokens
            .iter()
            .position(|t| t.as_char() == c)
            .map(|i| Player(i as u8))
    }

    /// The token of `player`.
    pub fn token(&self, player: Player) -> Token {
        self.tokens[player.index()]
    }

    /// The player after `player` in turn order.
    pub fn next(&self, player: Player) -> Player {
        Player(((player.index() + 1) % self.players()) as u8)
    }

    /// The player before `player` in turn order.
    pub fn previous(&self, player: Player) -> Player {
        Player(((player.index() + self.players() - 1) % self.players()) as u8)
    }
}

/// A player, by turn order: player 0 moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(pub(crate) u8);

impl Player {
    /// The first player.
    pub(crate) const FIRST: Player = Player(0);

    /// The player at `index` in turn order, from 0; which players a game has is its
    /// [`Variant::players`]'s to say (at most `MAX_PLAYERS`).
    ///
    /// # Panics
    /// When `index` is not below `MAX_PLAYERS`.
    pub fn from_index(index: usize) -> Player {
        assert!(
            index < MAX_PLAYERS,
            "player {index} of at most {MAX_PLAYERS}"
        );
        Player(index as u8)
    }

    /// Position in turn order, from 0.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_the_standard_game() {
        let v = Variant::default();
        assert_eq!(
            (v.width(), v.height(), v.connect(), v.players()),
            (7, 6, 4, 2)
        );
        assert_eq!(v.token(Player(1)).as_char(), 'o');
        assert!(!v.early_draw(), "standard rules draw only on a full board");
    }

    #[test]
    fn rejects_bad_variants() {
        let t = Variant::default_tokens(2).unwrap();
        assert_eq!(
            Variant::new(0, 6, 4, t.clone(), true),
            Err(VariantError::BadSide {
                side: "width",
                value: 0
            })
        );
        assert_eq!(
            Variant::new(7, 17, 4, t.clone(), true),
            Err(VariantError::BadSide {
                side: "height",
                value: 17
            })
        );
        assert_eq!(
            Variant::new(7, 6, 1, t, true),
            Err(VariantError::BadConnect(1))
        );
        let dup = vec![Token::new('x').unwrap(), Token::new('x').unwrap()];
        assert_eq!(
            Variant::new(7, 6, 4, dup, true),
            Err(VariantError::DuplicateToken('x'))
        );
        assert!(Token::new('3').is_err());
        assert!(Token::new('/').is_err());
        assert!(Token::new(' ').is_err());
        assert!(Token::new('é').is_err());
        assert_eq!(
            Variant::default_tokens(9),
            Err(VariantError::BadPlayerCount(9))
        );
    }

    #[test]
    fn default_tokens_skip_x_and_o() {
        let t: String = Variant::default_tokens(8)
            .unwrap()
            .iter()
            .map(|t| t.as_char())
            .collect();
        assert_eq!(t, "xoabcdef");
    }

    #[test]
    fn turn_order_wraps() {
        let v = Variant::new(7, 6, 4, Variant::default_tokens(3).unwrap(), true).unwrap();
        assert_eq!(v.next(Player(2)), Player(0));
        assert_eq!(v.previous(Player(0)), Player(2));
    }
}
