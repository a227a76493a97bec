//! The table of board sizes (`fixtures/sizes/outcomes.txt`): one line per board, who wins it from
//! empty with perfect play as published, c4's own score of it where c4 has solved it, and what
//! an empty board's score must be to agree.

use thiserror::Error;

use c4_core::{whole_number, WholeNumber};
use c4_core::{Score, Verdict};

/// One line of a table of board sizes (`fixtures/sizes/outcomes.txt`): a board, who wins it
/// from empty with perfect play and, when known, on which move, as published; and the score c4
/// found for it, if it has solved it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeOutcome {
    /// The board's columns.
    pub width: u32,
    /// The board's rows.
    pub height: u32,
    /// The result for the first player.
    pub outcome: Verdict,
    /// The ply of the last stone, if known.
    pub last_move: Option<u32>,
    /// The empty board's score from the first player as c4 solved it, if it has.
    pub solved: Option<Score>,
}

/// A line that is not a [`SizeOutcome`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("expected WIDTHxHEIGHT 1st|2nd|draw LAST_MOVE SCORE, e.g. 9x4 2nd 36 -1 (LAST_MOVE or SCORE - where not known)")]
pub struct SizeLineError;

impl SizeOutcome {
    /// Reads `WIDTHxHEIGHT OUTCOME LAST_MOVE SCORE`: OUTCOME `1st`, `2nd` or `draw`, LAST_MOVE
    /// a number or `-`, SCORE c4's signed score of the empty board or `-`.
    ///
    /// # Errors
    /// The line is not of that form; the message says what was expected.
    pub fn parse(line: &str) -> Result<SizeOutcome, SizeLineError> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let number = |text: &str| match whole_number::<u32>(text) {
            WholeNumber::Value(n) => Some(n),
            _ => None,
        };
        let [board, outcome, last_move, solved] = fields[..] else {
            return Err(SizeLineError);
        };
        let (width, height) = board
            .split_once('x')
            .and_then(|(w, h)| number(w).zip(number(h)))
            .ok_or(SizeLineError)?;
        let outcome = match outcome {
            "1st" => Verdict::Win,
            "2nd" => Verdict::Loss,
            "draw" => Verdict::Draw,
            _ => return Err(SizeLineError),
        };
        let last_move = match last_move {
            "-" => None,
            text => Some(number(text).ok_or(SizeLineError)?),
        };
        let solved = match solved {
            "-" => None,
            text => Some(Score::new(text.parse().map_err(|_| SizeLineError)?)),
        };
        Ok(SizeOutcome {
            width,
            height,
            outcome,
            last_move,
            solved,
        })
    }

    /// Whether `score`, the empty board's from the first player, is this outcome: its sign and,
    /// when the last move is known, the score a game ending on it gives (a win on ply P scores
    /// (cells + 2 - P) / 2, rounded down); and, where c4 has solved the board, its score.
    pub fn is_met_by(&self, score: Score) -> bool {
        self.is_published_outcome(score) && self.solved.is_none_or(|solved| solved == score)
    }

    /// Whether `score`, the empty board's from the first player, is the published outcome.
    pub fn is_published_outcome(&self, score: Score) -> bool {
        let cells = self.width * self.height;
        let exact = self.last_move.map(|ply| {
            let win = ((cells + 2).saturating_sub(ply) / 2) as i8;
            self.outcome.sign() * win
        });
        score.verdict() == self.outcome && exact.is_none_or(|exact| exact == score.value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_outcomes_give_the_empty_boards_score() {
        let line = |text: &str| SizeOutcome::parse(text).unwrap();
        // 7x6: the first player wins with its 21st stone, on move 41.
        assert!(line("7x6 1st 41 -").is_met_by(Score::new(1)));
        assert!(!line("7x6 1st 41 -").is_met_by(Score::new(2)));
        assert!(!line("7x6 1st 41 -").is_met_by(Score::new(-1)));
        // 9x4: the second player wins with the last stone; 5x5 is a draw.
        assert!(line("9x4 2nd 36 -").is_met_by(Score::new(-1)));
        assert!(line("5x5 draw 25 -").is_met_by(Score::DRAW));
        assert!(!line("5x5 draw 25 -").is_met_by(Score::new(1)));
        // Without the last move, only who wins is checked.
        assert!(line("8x9 1st - -").is_met_by(Score::new(5)));
        assert!(!line("8x9 1st - -").is_met_by(Score::DRAW));
        // A score c4 found must be met too.
        assert_eq!(line("8x9 1st - 4").solved, Some(Score::new(4)));
        assert!(!line("8x9 1st - 4").is_met_by(Score::new(5)));
        assert!(line("8x9 1st - 4").is_published_outcome(Score::new(5)));
        for bad in [
            "7x6 1st 41",
            "7x6 first 41 -",
            "7by6 1st 41 -",
            "7x6 1st 4x -",
            "7x6 1st 41 one",
            "7x6 1st 41 - -",
        ] {
            assert!(SizeOutcome::parse(bad).is_err(), "{bad}");
        }
    }
}
