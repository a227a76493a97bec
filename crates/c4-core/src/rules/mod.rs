//! The rules of Connect Four on any board from 1x1 to 16x16, for 2 to 8 players: variants,
//! the board and its lines, turn order, results and undo. No I/O and no text formats here.

pub(crate) mod board;
pub(crate) mod game;
pub(crate) mod name;
pub(crate) mod variant;

pub(crate) use board::{Board, Cell, Line};
pub use board::{Column, Direction};
pub(crate) use game::PositionError;
pub use game::{DrawReason, Game, MoveError, Outcome};
pub use name::{check_name, unfit_in_a_line, NameError};
pub(crate) use variant::Token;
pub use variant::{Player, Variant, VariantError};
