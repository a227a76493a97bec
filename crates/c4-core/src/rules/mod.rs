//! The rules of Connect Four on any board from 1x1 to 16x16, for 2 to 8 players: variants,
//! the board and its lines, turn order, results and undo. No I/O and no text formats here.

pub mod board;
pub mod game;
pub mod name;
pub mod variant;

pub use board::{Board, Cell, Column, Direction, Line};
pub use game::{DrawReason, Game, MoveError, Outcome, PositionError};
pub use name::{check_name, unfit_in_a_line, NameError, MAX_NAME_CHARS};
pub use variant::{Player, Token, Variant, VariantError, MAX_PLAYERS};
