//! [`Score`], an exact score from the side to move, and [`Verdict`], what a weak solve finds:
//! plain values with no search in them (the convention is in the [`solver`](super) module's doc).

use std::fmt;

/// An exact score from the side to move: a win on ply `p` (the stones on the board once the
/// winning one is down) scores `(width * height + 2 - p) / 2`, rounded down (22 minus the
/// winner's stones on 7x6), a loss the negative, a draw 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i8);

impl Score {
    /// The draw score.
    pub const DRAW: Score = Score(0);

    /// A score of `value` (positive: the side to move wins).
    pub fn new(value: i8) -> Score {
        Score(value)
    }

    /// The score as a number.
    pub fn value(self) -> i8 {
        self.0
    }

    /// Win, draw or loss for the side to move.
    pub fn verdict(self) -> Verdict {
        match self.0 {
            v if v > 0 => Verdict::Win,
            0 => Verdict::Draw,
            _ => Verdict::Loss,
        }
    }

    /// The same score seen by the other side.
    pub fn flipped(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The result of a weak solve: who wins with perfect play, not how fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Verdict {
    /// `1`, `0` or `-1`: the sign of every score with this outcome.
    pub fn sign(self) -> i8 {
        match self {
            Verdict::Win => 1,
            Verdict::Draw => 0,
            Verdict::Loss => -1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_follow_the_sign() {
        assert_eq!(Score::new(3).verdict(), Verdict::Win);
        assert_eq!(Score::new(-1).verdict(), Verdict::Loss);
        assert_eq!(Score::DRAW.verdict().sign(), 0);
    }
}
