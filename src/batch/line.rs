//! The text of batch and benchmark lines around their positions: how long a line may be, where
//! its moves end, what a line's answer is ([`BatchMode`]) and how it is written, and how a line
//! is echoed in an error.

use c4_core::unfit_in_a_line;
use c4_core::Score;

/// The longest line [`run_batch_solve`](super::solve::run_batch_solve) reads whole (a 7x6 game
/// has at most 42 moves); a longer one gets an error line, and only this much of it is held in
/// memory.
pub const MAX_BATCH_LINE_BYTES: usize = 1024;

/// The moves of a line: its text up to the first space, tab or carriage return.
pub(super) fn first_field(line: &str) -> &str {
    line.split([' ', '\t', '\r']).next().unwrap_or("")
}

/// The words after a line's moves that `c4 solve` cannot read, if any: nothing or one score may
/// follow them (a benchmark file's `MOVES SCORE` line is solved as it is), nothing else, so that
/// `4 4 5` is refused rather than solved as `4`.
pub(super) fn unread_after_moves(line: &str) -> Option<&str> {
    let rest = line[first_field(line).len()..].trim_matches([' ', '\t', '\r']);
    let digits = rest.strip_prefix('-').unwrap_or(rest);
    let is_score = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    (!rest.is_empty() && !is_score).then_some(rest)
}

/// What [`run_batch_solve`](super::solve::run_batch_solve) writes for each position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchMode {
    /// The exact score.
    Score,
    /// Only who wins.
    Weak,
    /// The exact score of every column.
    Analyze,
    /// Whether the score is at least this bound: one null-window search, much cheaper than the
    /// exact score, as the jobs of a solve split over many machines ask it.
    AtLeast(Score),
    /// As [`AtLeast`](Self::AtLeast), with the bound each line gives after its moves
    /// (`MOVES B`), so that one run answers the questions of many bounds with one table.
    AtLeastOfLine,
}

/// The answer of [`BatchMode::AtLeast`] for a position whose score is `at_least` `bound` or
/// not: `>=B` or `<B`, so that a line says its question with its answer.
pub(super) fn at_least_text(bound: Score, at_least: bool) -> String {
    if at_least {
        format!(">={bound}")
    } else {
        format!("<{bound}")
    }
}

impl BatchMode {
    /// Whether a checkpoint keeps this mode's progress: the exact score's and the bound's, each
    /// one search at a time; the others are quick or made of many searches.
    pub fn is_checkpointed(self) -> bool {
        matches!(
            self,
            BatchMode::Score | BatchMode::AtLeast(_) | BatchMode::AtLeastOfLine
        )
    }

    /// The mode of the line `text`: [`AtLeastOfLine`](Self::AtLeastOfLine)'s the bound the
    /// line gives after its moves, every other mode itself; `None` when the mode reads a bound
    /// and the line has none from [`MIN_BOUND`] to [`MAX_BOUND`] after its moves.
    pub(super) fn of_line(self, text: &str) -> Option<BatchMode> {
        if self != BatchMode::AtLeastOfLine {
            return Some(self);
        }
        let rest = text[first_field(text).len()..].trim_matches([' ', '\t', '\r']);
        bound_of(rest).map(BatchMode::AtLeast)
    }
}

/// The bound `text` writes, if it is a whole number from [`MIN_BOUND`] to [`MAX_BOUND`].
pub fn bound_of(text: &str) -> Option<Score> {
    text.parse::<i8>()
        .ok()
        .filter(|bound| (MIN_BOUND..=MAX_BOUND).contains(bound))
        .map(Score::new)
}

/// The lowest bound `c4 solve --at-least` takes, and the highest: beyond every board's scores.
pub const MIN_BOUND: i8 = -64;
/// See [`MIN_BOUND`].
pub const MAX_BOUND: i8 = 64;

/// Every column's score separated by spaces, `-` for a column that cannot be played.
pub(super) fn analysis_text(scores: &[Option<Score>]) -> String {
    scores
        .iter()
        .map(|s| s.map_or_else(|| "-".to_string(), |s| s.to_string()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` with the characters that one line cannot hold written as escapes (`\u{1b}`,
/// `\u{2028}`), so that an error line cannot drive the terminal that shows it, nor pass for two
/// lines.
pub(super) fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if unfit_in_a_line(c).is_some() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
