//! [`TableSize`]: how large the solver's transposition table is, in the MiB users give (the
//! protocol's `hash`, UGI's `hash` option, `--hash` on the command line) and the entry bits the
//! table is made with; and the two defaults, the batch modes' and the interpreter's.

/// A transposition table's size: a power of two of MiB, from `TableSize::MIN_MIB` to
/// [`TableSize::MAX_MIB`]. The table holds `2^bits` entries of 8 bytes (2^17 are 1 MiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TableSize {
    mib: u32,
}

impl TableSize {
    /// The smallest table a user may ask for.
    pub(crate) const MIN_MIB: u32 = 2;

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

    /// The table a solve on a `width` x `height` board takes when nobody chose one, with
    /// `available_mib` MiB of memory free (`None`: not known).
    ///
    /// Boards whose keys have at most 49 bits (`width * (height + 1)`: 7x6's, and 8x5, 6x7,
    /// 9x4 ...) take [`BATCH`](Self::BATCH), whose probes mostly hit the processor's caches:
    /// there a larger table saves fewer positions than its slower probes cost (7x6 from empty
    /// took 0-14% longer with 8 or 16 MiB). Past that the positions a solve meets outgrow it:
    /// 10x4 (50 bits) from empty took 1.16-1.19 times the time of 256 MiB in 16 MiB, and 1.03
    /// in 64 MiB (docs/solver.md, "The table's size"), so a board takes 64 MiB at 50 bits and
    /// twice as much per bit more, as the positions it can hold double, up to half the free
    /// memory (1 GiB when that is not known), and never below `BATCH`.
    pub fn for_board(width: u32, height: u32, available_mib: Option<u64>) -> TableSize {
        let key_bits = width * (height + 1);
        let wanted = match key_bits.checked_sub(Self::SMALL_KEY_BITS + 1) {
            None => u64::from(Self::BATCH.mib),
            Some(extra) => Self::FIRST_LARGE_MIB
                .checked_shl(extra)
                .filter(|mib| mib >> extra == Self::FIRST_LARGE_MIB)
                .unwrap_or(u64::MAX),
        };
        let ceiling = available_mib.map_or(Self::UNKNOWN_MEMORY_MIB, |free| free / 2);
        let mib = wanted.min(ceiling).min(u64::from(Self::MAX_MIB));
        TableSize::from_mib(mib as u32)
    }

    /// The longest keys of the boards that [`for_board`](Self::for_board) gives
    /// [`BATCH`](Self::BATCH): 7x6's.
    const SMALL_KEY_BITS: u32 = 49;

    /// What [`for_board`](Self::for_board) gives the boards with one key bit more.
    const FIRST_LARGE_MIB: u64 = 64;

    /// The most [`for_board`](Self::for_board) takes when the free memory is not known.
    const UNKNOWN_MEMORY_MIB: u64 = 1024;

    /// The table used for a request of `mib` MiB: the largest power of two not above it, since
    /// the table's buckets are indexed by the key's low bits, and within
    /// [`MIN_MIB`](Self::MIN_MIB)..=[`MAX_MIB`](Self::MAX_MIB) (the parsers of the sizes users
    /// give refuse the others before this).
    pub(crate) fn from_mib(mib: u32) -> TableSize {
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
        MIB_BITS + self.mib.ilog2()
    }

    /// The MiB of a table of `2^bits` entries as the solver makes it (its bits clamped to the
    /// sizes here; one of 2^16 entries, half a MiB, counts as 1).
    pub(crate) fn mib_of_bits(bits: u32) -> u64 {
        let most = TableSize { mib: Self::MAX_MIB };
        1 << (bits.clamp(MIB_BITS, most.bits()) - MIB_BITS)
    }
}

/// The entry bits of a 1 MiB table: 2^17 entries of 8 bytes.
const MIB_BITS: u32 = 17;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_takes_a_table_for_its_size_within_the_free_memory() {
        let plenty = Some(1 << 20);
        let mib = |width, height, free| TableSize::for_board(width, height, free).mib();
        // Up to 7x6's 49 key bits, the default; then 64 MiB, doubling per bit.
        for (width, height) in [(7, 6), (8, 5), (6, 7), (9, 4), (4, 4)] {
            assert_eq!(mib(width, height, plenty), TableSize::BATCH.mib());
        }
        assert_eq!(mib(10, 4, plenty), 64);
        assert_eq!(mib(9, 5, plenty), 1024);
        assert_eq!(mib(8, 6, plenty), 4096);
        // At most half the free memory, a power of two, never below the default.
        assert_eq!(mib(8, 6, Some(1500)), 512);
        assert_eq!(mib(8, 6, Some(1)), TableSize::BATCH.mib());
        assert_eq!(mib(9, 6, None), 1024);
        // The widest boards ask for more than any table may be.
        assert_eq!(mib(16, 7, Some(u64::MAX)), TableSize::MAX_MIB);
        assert_eq!(mib(16, 7, plenty), 1 << 19);
    }

    #[test]
    fn sizes_round_down_to_a_power_of_two_within_the_range() {
        assert_eq!(TableSize::from_mib(100).mib(), 64);
        assert_eq!(TableSize::from_mib(2).bits(), 18);
        assert_eq!(TableSize::from_mib(524_288).bits(), 36);
        assert_eq!(TableSize::from_mib(0), TableSize::BATCH);
        assert_eq!(TableSize::from_mib(u32::MAX).mib(), TableSize::MAX_MIB);
        assert_eq!(TableSize::BATCH.bits(), 18);
        assert_eq!(TableSize::from_mib(64), TableSize::SESSION);
        for size in [
            TableSize::BATCH,
            TableSize::SESSION,
            TableSize::from_mib(u32::MAX),
        ] {
            assert_eq!(TableSize::mib_of_bits(size.bits()), u64::from(size.mib()));
        }
        assert_eq!(TableSize::mib_of_bits(16), 1);
        assert_eq!(TableSize::mib_of_bits(40), u64::from(TableSize::MAX_MIB));
    }
}
