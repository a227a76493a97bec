//! A position's key in a book, [`canonical_key`], and back, [`position_of_key`].

use crate::solver::error::SolverError;
use crate::solver::position::Position;

/// The key under which a position and its mirror image are stored: the smaller of the two keys.
#[inline]
pub fn canonical_key(position: &Position) -> u64 {
    let key = position.key();
    key.min(position.geometry().mirror_key(key))
}

/// The position whose [`Position::key`] is `key` on a `width` x `height` board.
///
/// # Errors
/// [`SolverError`] when no position has this key.
pub fn position_of_key(width: u32, height: u32, key: u64) -> Result<Position, SolverError> {
    // Per column, key = current + mask where mask is the h lowest bits: key + 1 has its top bit
    // at h, and the current player's stones are the rest.
    let stride = height + 1;
    let column_bits = (1u64 << stride) - 1;
    let (mut current, mut mask) = (0u64, 0u64);
    for column in 0..width {
        let bits = (key >> (column * stride)) & column_bits;
        let stones = (bits + 1).ilog2().min(height);
        let filled = (1u64 << stones) - 1;
        let mine = bits.wrapping_sub(filled) & filled;
        current |= mine << (column * stride);
        mask |= filled << (column * stride);
    }
    let position = Position::from_stones(width, height, current, mask ^ current)?;
    if position.key() != key {
        return Err(SolverError::InvalidStones {
            reason: "the key does not describe a position",
        });
    }
    Ok(position)
}
