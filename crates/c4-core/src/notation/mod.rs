//! Text forms of moves, positions, boards and game settings: move lists, FEN, the source
//! programs' board layouts and the settings of `new`, saved games and `c4 play`, each read and
//! written here. No I/O: callers hand text in and get text back, and the rules decide what is
//! legal. Reading is done by nom grammars ([`grammar`] holds what they share), which give syntax
//! only; what the text means on a board is a separate step.

pub(crate) mod fen;
pub(crate) mod grammar;
pub(crate) mod layout;
pub(crate) mod moves;
pub(crate) mod settings;

pub use fen::{fen_of, Fen, FenError};
pub(crate) use fen::{FenPositionError, FenSyntaxError};
pub use layout::{render, render_indexed, render_labelled, Style};
pub(crate) use moves::{
    format_moves, format_moves_word, parse_moves, play_sequence, SequenceError,
};
pub use moves::{parse_column, parse_moves_counting, play_moves, Counting, MoveText, MovesError};
pub(crate) use settings::token_list;
pub use settings::{Setting, SettingError, Settings, SettingsVariantError};
