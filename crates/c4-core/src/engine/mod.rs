//! Choosing moves: the computer players of the sources (random, look-ahead with a tie-break rule)
//! and perfect play on the exact solver, with a heuristic search where the solver cannot go.
//! No I/O; randomness comes from a seeded [`Rng`] so that games replay exactly.

pub(crate) mod analysis;
mod cutoff;
mod level;
mod level_text;
pub(crate) mod lookahead;
pub(crate) mod perfect;
mod rng;
pub(crate) use cutoff::Cutoff;
pub use level::{Level, TieBreak};
pub(crate) use level_text::{level, level_words, Separator};
pub use level_text::{parse_level, LevelError, MAX_LOOKAHEAD};
pub use rng::Rng;

mod choice;
pub(crate) use choice::Choice;
pub use choice::{best_of, choose, Forced, HEURISTIC_PLIES};
