//! Text forms of moves, positions, boards and game settings: move lists, FEN, the source
//! programs' board layouts and the settings of `new`, saved games and `c4 play`, each read and
//! written here. No I/O: callers hand text in and get text back, and the rules decide what is
//! legal. Reading is done by nom grammars ([`grammar`] holds what they share), which give syntax
//! only; what the text means on a board is a separate step.

pub mod fen;
pub mod grammar;
pub mod layout;
pub mod moves;
pub mod settings;

pub use fen::{fen_of, Fen, FenError, FenPositionError, FenSyntaxError};
pub use layout::{render, render_indexed, render_labelled, Style};
pub use moves::{
    format_moves, format_moves_word, parse_column, parse_moves, parse_moves_counting, play_moves,
    play_sequence, Counting, MoveText, MovesError, SequenceError,
};
pub use settings::{token_list, Setting, SettingError, Settings, SettingsVariantError};
