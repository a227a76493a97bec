//! How the solver's two tables take a board's keys ([`KeyForm`], and [`Keys`] for the copies of
//! the search compiled for each), and the solver's lookups, stores and prefetches through them;
//! the tables themselves are table.rs.

use super::bitboard::Bitboard;
use super::position::{Geometry, Position};
use super::state::Solver;
use super::table::ScoreBounds;

/// How each table stores a board's keys (see [`Table`](super::table::Table)): in one-word
/// entries where their buckets and checks tell the keys apart exactly, else in two-word entries,
/// so that no two positions ever share an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum KeyForm {
    /// One word in both tables.
    OneWord,
    /// One word in the shared table, which is large enough; two in the near-leaf table.
    OneWordShared,
    /// Two words in both.
    TwoWord,
}

/// A [`KeyForm`] as types, for the copies of the search compiled for each: the key types of
/// the shared and the near-leaf table.
pub(super) trait Keys {
    type Shared: Bitboard;
    type NearLeaf: Bitboard;
}

/// [`KeyForm::OneWord`].
pub(super) struct OneWordKeys;

/// [`KeyForm::OneWordShared`].
pub(super) struct OneWordSharedKeys;

/// [`KeyForm::TwoWord`].
pub(super) struct TwoWordKeys;

impl Keys for OneWordKeys {
    type Shared = u64;
    type NearLeaf = u64;
}

impl Keys for OneWordSharedKeys {
    type Shared = u64;
    type NearLeaf = u128;
}

impl Keys for TwoWordKeys {
    type Shared = u128;
    type NearLeaf = u128;
}

/// Whether keys of `key_bits` bits take two-word entries in a table whose one-word entries tell
/// apart keys of up to `exact` bits: those longer, and every key past 64 bits.
pub(super) fn takes_two_words(key_bits: u32, exact: u32) -> bool {
    key_bits > exact.min(u64::BITS)
}

impl Solver {
    /// The form in which the tables take keys of `geometry`'s board, each table as its size
    /// allows: 7x6 keys always fit one-word entries, as do 9x5, 8x6 and 7x7 ones (56 bits) with
    /// the near-leaf table's 2^15 buckets; 9x6 and 8x7 ones (63 and 64 bits) fit those of a
    /// shared table of 128 or 256 MiB or more, but never the near-leaf table's.
    pub(super) fn key_form<B: Bitboard>(&self, geometry: &Geometry<B>) -> KeyForm {
        let bits = geometry.key_bits();
        if takes_two_words(bits, self.table.exact_key_bits()) {
            KeyForm::TwoWord
        } else if bits > self.near_leaf.exact_key_bits() {
            KeyForm::OneWordShared
        } else {
            KeyForm::OneWord
        }
    }

    /// The key under which `key`'s position is stored, and whether it is the mirror image.
    #[inline]
    pub(super) fn table_key<B: Bitboard>(&self, geometry: &Geometry<B>, key: B) -> (B, bool) {
        if self.mirror {
            let mirrored = geometry.mirror_key(key);
            (mirrored.min(key), mirrored < key)
        } else {
            (key, false)
        }
    }

    /// The bounds that the table for positions with `empty` empty cells holds for `key`.
    #[inline(always)]
    pub(super) fn known<B: Bitboard, K: Keys>(&self, empty: i32, key: B) -> Option<ScoreBounds> {
        if empty <= self.near_leaf_empty {
            self.near_leaf.probe(K::NearLeaf::from_u128(key.to_u128()))
        } else {
            self.table.probe(K::Shared::from_u128(key.to_u128()))
        }
    }

    /// Records `bounds` for `key` in the table for positions with `empty` empty cells, after a
    /// search of about `2^work` nodes.
    #[inline(always)]
    pub(super) fn remember<B: Bitboard, K: Keys>(
        &self,
        empty: i32,
        key: B,
        bounds: ScoreBounds,
        work: u32,
    ) {
        if empty <= self.near_leaf_empty {
            self.near_leaf
                .store(K::NearLeaf::from_u128(key.to_u128()), bounds, work);
        } else {
            self.table
                .store(K::Shared::from_u128(key.to_u128()), bounds, work);
        }
    }

    /// Starts loading the entry of `key` in the table for positions with `empty` empty cells.
    #[inline(always)]
    pub(super) fn prefetch<B: Bitboard, K: Keys>(&self, empty: i32, key: B) {
        if empty <= self.near_leaf_empty {
            self.near_leaf
                .prefetch(K::NearLeaf::from_u128(key.to_u128()));
        } else {
            self.table.prefetch(K::Shared::from_u128(key.to_u128()));
        }
    }

    /// What either table holds for `position`, each looked up with the keys it takes.
    pub(super) fn stored_bounds<B: Bitboard>(&self, position: &Position<B>) -> Option<ScoreBounds> {
        let key = self
            .table_key(position.geometry(), position.key())
            .0
            .to_u128();
        match self.key_form(position.geometry()) {
            KeyForm::OneWord => self.stored_bounds_of::<OneWordKeys>(key),
            KeyForm::OneWordShared => self.stored_bounds_of::<OneWordSharedKeys>(key),
            KeyForm::TwoWord => self.stored_bounds_of::<TwoWordKeys>(key),
        }
    }

    /// [`stored_bounds`](Self::stored_bounds) of `key`, in the tables' keys `K`.
    fn stored_bounds_of<K: Keys>(&self, key: u128) -> Option<ScoreBounds> {
        let shared = self.table.probe(K::Shared::from_u128(key));
        shared.or_else(|| self.near_leaf.probe(K::NearLeaf::from_u128(key)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::exhaustive::{exhaustive, position_from, positions_with_empty};

    /// Checks the solver against exhaustive search on random positions of a `width` x `height`
    /// board on bitboard `B` with ten empty cells, made by random moves that do not complete
    /// four (many tries end earlier, where every move left completes four).
    fn check_ends_of_games<B: Bitboard>(width: u32, height: u32, seed: u64) {
        let mut state = seed;
        let mut solver = Solver::with_table_bits(16);
        let mut solved = 0;
        for _ in 0..200 {
            let columns: Vec<u8> = (0..2000)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % 251) as u8
                })
                .collect();
            let stones = width * height - 10;
            let position: Position<B> = position_from(width, height, &columns, stones);
            if position.moves_played() == stones {
                let expected = exhaustive(&position);
                assert_eq!(i32::from(solver.solve(&position).value()), expected);
                solved += 1;
            }
        }
        assert!(solved >= 10, "{width}x{height}: {solved}");
    }

    #[test]
    fn scores_on_boards_of_long_keys_match_exhaustive_search() {
        // 9x7 (72 bits), 8x8 (72) and 16x7 (128 bits: every bit of the key in use) on the 128-bit
        // bitboard; 8x7 (64) and 9x6 (63) on the 64-bit one with the 128-bit keys their length
        // needs.
        for (width, height) in [(9, 7), (8, 8), (16, 7)] {
            check_ends_of_games::<u128>(width, height, 0x9e37_79b9);
        }
        for (width, height) in [(8, 7), (9, 6)] {
            let solver = Solver::with_table_bits(16);
            let board = Position::<u64>::new(width, height).unwrap();
            assert_eq!(solver.key_form(board.geometry()), KeyForm::TwoWord);
            check_ends_of_games::<u64>(width, height, 0x2545_f491);
        }
        let solver = Solver::with_table_bits(16);
        let board = Position::<u64>::new(9, 5).unwrap();
        assert_eq!(solver.key_form(board.geometry()), KeyForm::OneWord);
    }

    #[test]
    fn a_large_shared_table_takes_one_word_keys_that_the_near_leaf_table_cannot() {
        // 6x9 keys have 60 bits: one-word entries tell them apart in tables of 2^21 words (2^19
        // buckets and 41 bits of check) but not in the near-leaf table; 9x6 keys (63 bits) need
        // 2^24 words.
        let key_form = |bits: u32, width: u32, height: u32| {
            let board = Position::<u64>::new(width, height).unwrap();
            Solver::with_table_bits(bits).key_form(board.geometry())
        };
        assert_eq!(key_form(21, 6, 9), KeyForm::OneWordShared);
        assert_eq!(key_form(20, 6, 9), KeyForm::TwoWord);
        assert_eq!(key_form(24, 9, 6), KeyForm::OneWordShared);
        assert_eq!(key_form(23, 9, 6), KeyForm::TwoWord);
        assert_eq!(key_form(16, 7, 6), KeyForm::OneWord);
        // Positions of 30 and 24 empty cells search both tables: every score and column
        // agrees with two-word keys throughout.
        let (mut one_word, mut two_word) =
            (Solver::with_table_bits(21), Solver::with_table_bits(16));
        let mut positions = positions_with_empty(6, 9, 30, 0x51ed_270b);
        positions.extend(positions_with_empty(6, 9, 24, 0x2545_f491));
        assert!(positions.len() >= 20, "{}", positions.len());
        for position in &positions {
            assert_eq!(
                one_word.solve(position),
                two_word.solve(position),
                "{position:?}"
            );
            assert_eq!(one_word.analyze(position), two_word.analyze(position));
        }
        assert!(one_word.nodes() > 100_000, "{}", one_word.nodes());
    }
}
