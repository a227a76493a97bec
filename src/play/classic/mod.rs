//! `c4 play --classic NAME`: the five programs `c4` was made from, each with its own whole
//! dialogue (menus, prompts, messages, blank lines), input rules, players, tokens, column
//! numbering and computer opponent, on `c4`'s rules and engine. Each program's words live in its
//! own module; the turn loop they share is `turns.rs` (with a whole one-game session), and the
//! reading and writing `dialogue.rs`.
//! docs/play.md says where each follows its document and where the document left a gap.

mod dialogue;
mod dots;
mod grid;
mod letters;
mod numbers;
mod pipes;
mod turns;

mod program;
pub use program::{run, Program};
