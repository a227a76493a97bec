//! Move ordering for the search: a tiny stable sort of candidate moves by heuristic weight,
//! best first; it does not decide the weights.

use super::bitboard::Bitboard;
use super::position::MAX_SIDE;

/// The most columns a solver board can have.
pub(crate) const MAX_WIDTH: usize = MAX_SIDE as usize;

/// Candidate moves of one node on bitboard `B`, with their children's table keys of type `K`, at
/// most `N` (the board's width), kept sorted by weight, ties in insertion order. The list is made afresh at every node, so it is no larger than the board
/// needs: zeroing the widest board's list cost the standard board's search 7% of its time.
pub(crate) struct MoveList<B, K, const N: usize> {
    cells: [B; N],
    keys: [K; N],
    threats: [B; N],
    columns: [u8; N],
    weights: [u32; N],
    len: usize,
}

impl<B: Bitboard, K: Bitboard, const N: usize> MoveList<B, K, N> {
    pub(crate) fn new() -> MoveList<B, K, N> {
        MoveList {
            cells: [B::ZERO; N],
            keys: [K::ZERO; N],
            threats: [B::ZERO; N],
            columns: [0; N],
            weights: [0; N],
            len: 0,
        }
    }

    /// Inserts a move behind every move of greater or equal weight; `threats` are the mover's
    /// winning cells after it, passed on to the child's search.
    #[inline]
    pub(crate) fn push(&mut self, cell: B, column: u32, key: K, threats: B, weight: u32) {
        let mut i = self.len;
        while i > 0 && self.weights[i - 1] < weight {
            self.cells[i] = self.cells[i - 1];
            self.keys[i] = self.keys[i - 1];
            self.threats[i] = self.threats[i - 1];
            self.columns[i] = self.columns[i - 1];
            self.weights[i] = self.weights[i - 1];
            i -= 1;
        }
        self.cells[i] = cell;
        self.keys[i] = key;
        self.threats[i] = threats;
        self.columns[i] = column as u8;
        self.weights[i] = weight;
        self.len += 1;
    }

    /// The moves, best first, as `(cell, column, table key of the child, threats after it)`.
    #[inline]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (B, u32, K, B)> + '_ {
        (0..self.len).map(|i| {
            (
                self.cells[i],
                u32::from(self.columns[i]),
                self.keys[i],
                self.threats[i],
            )
        })
    }
}

/// The columns of a board `width` wide in the order to try them: the centre first, then
/// alternating outwards, because central stones take part in more lines. A table, so that the
/// standard board's loop over it unrolls with every column known.
#[inline(always)]
pub(crate) fn centre_out(width: u32) -> &'static [u8] {
    &CENTRE_OUT[width as usize][..width as usize]
}

const CENTRE_OUT: [[u8; MAX_WIDTH]; MAX_WIDTH + 1] = {
    let mut table = [[0u8; MAX_WIDTH]; MAX_WIDTH + 1];
    let mut width = 1;
    while width <= MAX_WIDTH {
        let half = width / 2;
        let mut index = 0;
        while index < width {
            let step = index.div_ceil(2);
            table[width][index] = if index % 2 == 1 {
                half - step
            } else {
                half + step
            } as u8;
            index += 1;
        }
        width += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heavier_moves_come_first_and_ties_keep_their_order() {
        let mut list = MoveList::<u64, u64, MAX_WIDTH>::new();
        list.push(1, 3, 0, 0, 2);
        list.push(2, 2, 0, 0, 5);
        list.push(4, 4, 0, 0, 2);
        let columns: Vec<u32> = list.iter().map(|(_, c, _, _)| c).collect();
        assert_eq!(columns, [2, 3, 4]);
    }

    #[test]
    fn columns_start_in_the_centre() {
        assert_eq!(centre_out(7), [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(centre_out(4), [2, 1, 3, 0]);
        assert_eq!(centre_out(1), [0]);
        let mut wide = centre_out(16).to_vec();
        wide.sort_unstable();
        assert_eq!(wide, (0..16).collect::<Vec<u8>>());
    }
}
