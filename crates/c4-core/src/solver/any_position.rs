//! [`AnyPosition`]: a solver position on the narrowest bitboard its board fits, chosen at run
//! time, and [`with_position!`] to run generic solver code on whichever it is.

use super::error::SolverError;
use super::position::Position;

/// A solver position on a 64-bit bitboard when the board's cells and sentinels fit one (7x6,
/// 8x7, 9x6), else on a 128-bit one (8x8, 9x7, 10x10): what the front ends hold, since they
/// learn the board size only at run time. The solver's methods take either [`Position`];
/// [`with_position!`](crate::with_position) calls them on the one inside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyPosition {
    /// A board of `width * (height + 1) <= 64`.
    Narrow(Position<u64>),
    /// A board of `64 < width * (height + 1) <= 128`.
    Wide(Position<u128>),
}

/// Evaluates `$body` with `$position` bound to the [`Position`] inside the [`AnyPosition`]
/// `$any`: `$body` is compiled once for each bitboard, so it may call generic solver code.
#[macro_export]
macro_rules! with_position {
    ($any:expr, |$position:ident| $body:expr) => {
        match $any {
            $crate::AnyPosition::Narrow($position) => $body,
            $crate::AnyPosition::Wide($position) => $body,
        }
    };
}
/// The macro by its module's path, for the core's own modules (`crate::solver::with_position`);
/// other crates name it at the crate root, where `#[macro_export]` puts it.
pub(crate) use with_position;

impl AnyPosition {
    /// The empty board, `width` columns by `height` rows.
    ///
    /// # Errors
    /// [`SolverError::BoardTooLarge`] unless `width * (height + 1) <= 128` and both are
    /// non-zero, [`SolverError::SideTooLong`] past 16 columns or rows.
    pub fn new(width: u32, height: u32) -> Result<AnyPosition, SolverError> {
        AnyPosition::from_stones(width, height, 0, 0)
    }

    /// The position reached by playing `columns` (0-based) from the empty board.
    ///
    /// # Errors
    /// As [`Position::from_moves`].
    pub fn from_moves(width: u32, height: u32, columns: &[u8]) -> Result<AnyPosition, SolverError> {
        Ok(if fits_narrow(width, height) {
            AnyPosition::Narrow(Position::from_moves(width, height, columns)?)
        } else {
            AnyPosition::Wide(Position::from_moves(width, height, columns)?)
        })
    }

    /// A position from raw stone masks, laid out as on [`Position`] (bit `column * (height + 1)
    /// + row`).
    ///
    /// # Errors
    /// As [`Position::from_stones`].
    pub(crate) fn from_stones(
        width: u32,
        height: u32,
        current: u128,
        opponent: u128,
    ) -> Result<AnyPosition, SolverError> {
        Ok(if fits_narrow(width, height) {
            // The masks of a board that fits 64 bits have no bit above them.
            let (current, opponent) = (current as u64, opponent as u64);
            AnyPosition::Narrow(Position::from_stones(width, height, current, opponent)?)
        } else {
            AnyPosition::Wide(Position::from_stones(width, height, current, opponent)?)
        })
    }

    /// The number of stones on the board.
    pub fn moves_played(&self) -> u32 {
        with_position!(self, |position| position.moves_played())
    }
}

/// Whether a `width` x `height` board's cells and sentinels fit 64 bits.
fn fits_narrow(width: u32, height: u32) -> bool {
    u64::from(width) * (u64::from(height) + 1) <= u64::from(u64::BITS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bitboard_is_the_narrowest_that_fits() {
        assert!(matches!(AnyPosition::new(7, 6), Ok(AnyPosition::Narrow(_))));
        assert!(matches!(AnyPosition::new(8, 7), Ok(AnyPosition::Narrow(_))));
        assert!(matches!(AnyPosition::new(8, 8), Ok(AnyPosition::Wide(_))));
        assert!(matches!(AnyPosition::new(10, 10), Ok(AnyPosition::Wide(_))));
        assert!(matches!(AnyPosition::new(16, 7), Ok(AnyPosition::Wide(_))));
        assert_eq!(
            AnyPosition::new(12, 12),
            Err(SolverError::BoardTooLarge {
                width: 12,
                height: 12,
                cells: 128
            })
        );
        assert!(AnyPosition::new(0, 6).is_err());
        assert_eq!(
            AnyPosition::new(17, 2),
            Err(SolverError::SideTooLong {
                width: 17,
                height: 2
            })
        );
    }

    #[test]
    fn stones_above_64_bits_are_kept() {
        // 9x7: column 8 starts at bit 64.
        let position = AnyPosition::from_stones(9, 7, 1, 1 << 64).unwrap();
        let expected = Position::<u128>::from_moves(9, 7, &[0, 8]).unwrap();
        assert_eq!(position, AnyPosition::Wide(expected));
        assert_eq!(position.moves_played(), 2);
    }
}
