//! [`Level`], how the computer chooses a move, and [`TieBreak`], how a look-ahead chooses among
//! equal columns; their words are level_text.rs's.

use super::rng::Rng;
use crate::rules::Column;

/// How the computer chooses a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Uniformly among the legal columns (the letters program's computer).
    Random,
    /// Look `plies` moves ahead, telling only wins from losses, ties broken by `tie_break` (the
    /// pipes program's computer).
    Lookahead { plies: u32, tie_break: TieBreak },
    /// The exact solver where it can play: fastest win, slowest loss, and among equals the
    /// column nearest the centre. Elsewhere, the heuristic search (see [`HEURISTIC_PLIES`](super::HEURISTIC_PLIES)).
    Perfect,
    /// Look `plies` moves ahead and judge the positions there by their open lines (the search
    /// used where the solver cannot play); ties go to the leftmost column.
    Heuristic { plies: u32 },
}

/// How to choose among columns that search values equally (the pipes program's rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    /// The leftmost.
    Left,
    /// The rightmost.
    Right,
    /// Any of them, uniformly.
    Random,
}

impl TieBreak {
    /// `left`, `right` or `random`.
    pub fn from_name(name: &str) -> Option<TieBreak> {
        match name {
            "left" => Some(TieBreak::Left),
            "right" => Some(TieBreak::Right),
            "random" => Some(TieBreak::Random),
            _ => None,
        }
    }

    /// The word `from_name` reads.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Left => "left",
            TieBreak::Right => "right",
            TieBreak::Random => "random",
        }
    }

    /// Picks one of `columns` (not empty).
    pub fn pick(self, columns: &[Column], rng: &mut Rng) -> Column {
        match self {
            TieBreak::Left => columns[0],
            TieBreak::Right => columns[columns.len() - 1],
            TieBreak::Random => columns[rng.below(columns.len())],
        }
    }
}
