//! The [`Bitboard`] integers a solver [`Position`](super::Position) is made of: `u64` for boards
//! whose cells and sentinels fit 64 bits (7x6, 8x7, 9x6), `u128` up to 128 (8x8, 9x7, 10x10);
//! owns only the integer operations the solver needs, nothing about Connect Four.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Add, BitAnd, BitOr, BitXor, Not, Shl, Shr, Sub};

/// An unsigned integer used as a set of board cells, one bit each. Implemented for `u64` and
/// `u128` only: the search is compiled once for each, so the 64-bit boards pay nothing for the
/// wider ones.
pub trait Bitboard:
    sealed::Sealed
    + Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// No cells.
    const ZERO: Self;
    /// The cell of bit 0.
    const ONE: Self;
    /// How many cells the integer holds.
    const BITS: u32;

    /// The low [`BITS`](Self::BITS) bits of `bits`.
    fn from_u128(bits: u128) -> Self;

    /// The cells as a `u128`.
    fn to_u128(self) -> u128;

    /// The number of cells in the set.
    fn count_ones(self) -> u32;

    /// The number of clear bits above the highest set one.
    fn leading_zeros(self) -> u32;

    /// `self - other`, wrapping around at zero.
    fn wrapping_sub(self, other: Self) -> Self;
}

mod sealed {
    /// Keeps [`super::Bitboard`] to the two integers the solver is compiled for.
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
}

macro_rules! impl_bitboard {
    ($($int:ty),*) => {$(
        impl Bitboard for $int {
            const ZERO: $int = 0;
            const ONE: $int = 1;
            const BITS: u32 = <$int>::BITS;

            #[inline(always)]
            fn from_u128(bits: u128) -> $int {
                bits as $int
            }

            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }

            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$int>::count_ones(self)
            }

            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$int>::leading_zeros(self)
            }

            #[inline(always)]
            fn wrapping_sub(self, other: $int) -> $int {
                <$int>::wrapping_sub(self, other)
            }
        }
    )*};
}

impl_bitboard!(u64, u128);
