//! Choosing moves: the computer players of the sources (random, look-ahead with a tie-break rule)
//! and perfect play on the exact solver, with a heuristic search where the solver cannot go.
//! No I/O; randomness comes from a seeded [`Rng`] so that games replay exactly.

pub mod analysis;
mod cutoff;
mod level;
mod level_text;
pub mod lookahead;
pub mod perfect;
mod rng;
pub use cutoff::{Cutoff, Watch};
pub use level::{Level, TieBreak};
pub use level_text::{level, level_words, parse_level, LevelError, Separator, MAX_LOOKAHEAD};
pub use rng::Rng;

mod choice;
pub use choice::{
    best_of, choose, lookahead_move, random_move, Choice, Forced, Lookahead, HEURISTIC_PLIES,
};
