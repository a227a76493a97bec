//! [`TableSize`]: how large the solver's transposition table is, in the MiB users give (the
//! protocol's `hash`, UGI's `hash` option, `--hash` on the command line) and the entry bits the
//! table is made with; and the two defaults, the batch modes' and the interpreter's.

/// A transposition table's size: a power of two of MiB, from [`TableSize::MIN_MIB`] to
/// [`TableSize::MAX_MIB`]. The table holds `2^bits` entries of 8 bytes (2^17 are 1 MiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TableSize {
    mib: u32,
}

impl TableSize {
    /// The smallest table a user may ask for.
    pub const MIN_MIB: u32 = 2;

    /// The largest table a user may ask for: 512 GiB.
    pub const MAX_MIB: u32 = 524_288;

    /// The table of `c4 solve`, `c4 bench` and `c4 book build` unless told otherwise: 2 MiB.
    /// With the 1 MiB near-leaf table most probes hit the processor's caches, which pays for the
    /// positions a larger table would keep. Against 8 MiB with a 4 MiB near-leaf table, in
    /// alternating runs: 6% more nodes on every 25th begin-hard line, yet 12% less time there,
    /// 28% less on every 20th begin-medium line, 30% less on middle-easy, and the empty board in
    /// 29.1 s instead of 31.2 s.
    pub const BATCH: TableSize = TableSize { mib: 2 };

    /// The interpreter's table until `hash` changes it: 64 MiB, since its searches may be on
    /// any board and it keeps the table between them; also the most an untrusted client may ask
    /// for, so that a server's memory is bounded by its number of connections.
    pub const SESSION: TableSize = TableSize { mib: 64 };

    /// The table used for a request of `mib` MiB: the largest power of two not above it, since
    /// the table's buckets are indexed by the key's low bits, and within
    /// [`MIN_MIB`](Self::MIN_MIB)..=[`MAX_MIB`](Self::MAX_MIB) (the parsers of the sizes users
    /// give refuse the others before this).
    pub fn from_mib(mib: u32) -> TableSize {
        TableSize {
            mib: 1 << mib.clamp(Self::MIN_MIB, Self::MAX_MIB).ilog2(),
        }
    }

    /// The size in MiB.
    pub const fn mib(self) -> u32 {
        self.mib
    }

    /// The table's entries are `2^bits`, as [`Solver::with_table_bits`](super::Solver::with_table_bits)
    /// takes them.
    pub const fn bits(self) -> u32 {
        17 + self.mib.ilog2()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_down_to_a_power_of_two_within_the_range() {
        assert_eq!(TableSize::from_mib(100).mib(), 64);
        assert_eq!(TableSize::from_mib(2).bits(), 18);
        assert_eq!(TableSize::from_mib(524_288).bits(), 36);
        assert_eq!(TableSize::from_mib(0), TableSize::BATCH);
        assert_eq!(TableSize::from_mib(u32::MAX).mib(), TableSize::MAX_MIB);
        assert_eq!(TableSize::BATCH.bits(), 18);
        assert_eq!(TableSize::from_mib(64), TableSize::SESSION);
    }
}
