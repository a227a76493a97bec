//! Dense numbers for the positions a book holds, so that the book file can mark the positions it
//! has in a bitmap and store nothing else about them.
//!
//! A position with `n` stones is numbered by two ranks: its column heights among all the ways of
//! putting `n` stones in `width` columns of at most `height` each, and which of its stones
//! (listed column by column, bottom to top) are the first player's among all the ways of giving
//! the first player `ceil(n / 2)` of them. On 7x6 the 4,200,899 positions with 12 stones (one of
//! each mirror pair) get numbers below 14,164,920: dense enough that a bitmap of every number
//! costs less than a key per entry. The numbers of each ply follow those of the ply before, so
//! that one bitmap serves a whole book.

use super::error::BookError;
use super::keys::canonical_key;
use crate::solver::position::Position;

/// The largest numbering made: a bitmap of `2^33` bits is 1 GiB.
pub(crate) const MAX_NUMBERS: u64 = 1 << 33;

/// The numbering of the positions with at most `depth` stones on one board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Numbering {
    width: u32,
    height: u32,
    depth: u32,
    /// `ways[c][s]`: the ways of putting `s` stones in columns `c..width`, at most `height` in
    /// each (`c` up to `width`, `s` up to `depth`).
    ways: Vec<Vec<u64>>,
    /// `below[(c * (depth + 1) + s) * (height + 1) + h]`: the ways of putting `s` stones in
    /// columns `c..width` with fewer than `h` in column `c`, the rank of the first of those with
    /// `h` there; a lookup per column where summing `ways` took one per stone.
    below: Vec<u64>,
    /// `binomial[n][k]` for `n, k <= depth`.
    binomial: Vec<Vec<u64>>,
    /// `first[n]`: the number of the first position with `n` stones; `first[depth + 1]` is the
    /// size of the numbering.
    first: Vec<u64>,
}

impl Numbering {
    /// The numbering of `width` x `height` positions with at most `depth` stones.
    ///
    /// # Errors
    /// [`BookError::TooLarge`] when it has more than [`MAX_NUMBERS`] numbers, or the depth is more
    /// than the board's cells.
    pub(crate) fn new(width: u32, height: u32, depth: u32) -> Result<Numbering, BookError> {
        let too_large = BookError::TooLarge {
            width,
            height,
            depth,
        };
        if depth > width * height {
            return Err(too_large);
        }
        let depth_cap = depth as usize;
        let mut ways = vec![vec![0u64; depth_cap + 1]; width as usize + 1];
        ways[width as usize][0] = 1;
        for column in (0..width as usize).rev() {
            for stones in 0..=depth_cap {
                let mut sum = 0u64;
                for here in 0..=stones.min(height as usize) {
                    sum = sum
                        .checked_add(ways[column + 1][stones - here])
                        .ok_or(too_large.clone())?;
                }
                ways[column][stones] = sum;
            }
        }
        let mut binomial = vec![vec![0u64; depth_cap + 1]; depth_cap + 1];
        for n in 0..=depth_cap {
            binomial[n][0] = 1;
            for k in 1..=n {
                binomial[n][k] = binomial[n - 1][k - 1]
                    .checked_add(binomial[n - 1][k])
                    .ok_or(too_large.clone())?;
            }
        }
        let mut first = vec![0u64];
        for stones in 0..=depth_cap {
            let ply = ways[0][stones]
                .checked_mul(binomial[stones][stones.div_ceil(2)])
                .ok_or(too_large.clone())?;
            let next = first[stones].checked_add(ply).ok_or(too_large.clone())?;
            if next > MAX_NUMBERS {
                return Err(too_large);
            }
            first.push(next);
        }
        let mut below =
            Vec::with_capacity(width as usize * (depth_cap + 1) * (height as usize + 1));
        for column in 0..width as usize {
            for stones in 0..=depth_cap {
                let mut sum = 0u64;
                for here in 0..=height as usize {
                    below.push(sum);
                    if here <= stones {
                        // No overflow: at most `ways[column][stones]`, computed above.
                        sum += ways[column + 1][stones - here];
                    }
                }
            }
        }
        Ok(Numbering {
            width,
            height,
            depth,
            ways,
            below,
            binomial,
            first,
        })
    }

    /// How many numbers there are: every position's number is below this.
    pub(crate) fn len(&self) -> u64 {
        self.first[self.depth as usize + 1]
    }

    /// The number of the first position with `stones` stones (at most `depth`).
    pub(crate) fn first(&self, stones: u32) -> u64 {
        self.first[stones as usize]
    }

    /// How many numbers the positions with `stones` stones (at most `depth`) have.
    pub(crate) fn ply_len(&self, stones: u32) -> u64 {
        self.first[stones as usize + 1] - self.first[stones as usize]
    }

    /// The number of `position` and its mirror image, which must have at most `depth` stones.
    #[inline]
    pub(crate) fn number(&self, position: &Position) -> u64 {
        self.number_of_key(canonical_key(position))
    }

    /// The number of the position whose key is `key` (with at most `depth` stones).
    pub(crate) fn number_of_key(&self, key: u64) -> u64 {
        let stride = self.height + 1;
        let column_bits = (1u64 << stride) - 1;
        let mut stones = 0usize;
        // The side to move's stones, in order, then the heights.
        let (mut movers, mut heights) = (0u64, [0u32; 64]);
        for column in 0..self.width {
            let bits = (key >> (column * stride)) & column_bits;
            let height = (bits + 1).ilog2().min(self.height);
            let filled = (1u64 << height) - 1;
            movers |= (bits.wrapping_sub(filled) & filled) << stones;
            heights[column as usize] = height;
            stones += height as usize;
        }
        debug_assert!(
            stones <= self.depth as usize,
            "{stones} stones, past the numbering"
        );
        let mut rank = 0u64;
        let mut left = stones;
        let (plies, levels) = (self.depth as usize + 1, self.height as usize + 1);
        for (column, &height) in heights[..self.width as usize].iter().enumerate() {
            rank += self.below[(column * plies + left) * levels + height as usize];
            left -= height as usize;
        }
        // The first player moves when an even number of stones is down.
        let firsts = if stones.is_multiple_of(2) {
            movers
        } else {
            !movers & ((1u64 << stones) - 1)
        };
        let mut colours = 0u64;
        let mut rest = firsts;
        let mut index = 1;
        while rest != 0 {
            colours += self.binomial[rest.trailing_zeros() as usize][index];
            rest &= rest - 1;
            index += 1;
        }
        self.first[stones] + rank * self.binomial[stones][stones.div_ceil(2)] + colours
    }

    /// The key of the position numbered `number`, or `None` when the number is of no position
    /// a book lists: one already won, or the mirror image of one with a smaller key.
    pub(crate) fn key_of_number(&self, number: u64) -> Option<u64> {
        if number >= self.len() {
            return None;
        }
        let stones = self.first.partition_point(|&start| start <= number) - 1;
        let within = number - self.first[stones];
        let colourings = self.binomial[stones][stones.div_ceil(2)];
        let (mut rank, mut colours) = (within / colourings, within % colourings);
        let mut heights = [0u32; 64];
        let mut left = stones;
        for (column, slot) in heights[..self.width as usize].iter_mut().enumerate() {
            let mut height = 0;
            while rank >= self.ways[column + 1][left - height] {
                rank -= self.ways[column + 1][left - height];
                height += 1;
            }
            *slot = height as u32;
            left -= height;
        }
        let mut firsts = 0u64;
        for index in (1..=stones.div_ceil(2)).rev() {
            let mut at = index - 1;
            while at + 1 < stones && self.binomial[at + 1][index] <= colours {
                at += 1;
            }
            colours -= self.binomial[at][index];
            firsts |= 1 << at;
        }
        let movers = if stones.is_multiple_of(2) {
            firsts
        } else {
            !firsts & ((1u64 << stones) - 1)
        };
        let stride = self.height + 1;
        let (mut current, mut mask, mut done) = (0u64, 0u64, 0);
        for (column, &height) in heights[..self.width as usize].iter().enumerate() {
            let filled = (1u64 << height) - 1;
            let shift = column as u32 * stride;
            current |= ((movers >> done) & filled) << shift;
            mask |= filled << shift;
            done += height;
        }
        let position =
            Position::from_stones(self.width, self.height, current, mask ^ current).ok()?;
        (canonical_key(&position) == position.key()).then_some(position.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_numbering_has_the_documented_size() {
        let numbering = Numbering::new(7, 6, 12).unwrap();
        assert_eq!(numbering.len() - numbering.first[12], 14_164_920);
        assert_eq!(numbering.first[1], 1);
        assert_eq!(numbering.first[2], 1 + 7);
    }

    #[test]
    fn numbers_of_no_position_decode_to_nothing() {
        let numbering = Numbering::new(7, 6, 8).unwrap();
        let legal = (0..numbering.len())
            .filter(|&n| numbering.key_of_number(n).is_some())
            .count();
        // Mirror images (the larger key of a pair) and positions already won do not decode, nor
        // do numbers past the end.
        assert!(legal > 0 && (legal as u64) < numbering.len());
        assert_eq!(numbering.key_of_number(numbering.len()), None);
    }

    #[test]
    fn a_numbering_too_large_for_a_bitmap_is_refused() {
        assert!(matches!(
            Numbering::new(13, 3, 16),
            Err(BookError::TooLarge { .. })
        ));
    }
}
