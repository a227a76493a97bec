//! The transposition table: bounds on the exact score of positions already searched, in
//! four-entry buckets of one 64-bit word per entry for `u64` keys and two for `u128` keys; knows
//! nothing of the board beyond its key.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize};

use super::bitboard::Bitboard;

/// Entry word (bit 63 set once written; zero means empty), with `B` bits for each bound, 6 for
/// `u64` keys and 7 for `u128` keys ([`bound_bits`]):
///
/// ```text
///  63    62..58   57..53   52..53-B   52-B..53-2B   52-2B..0
/// used   best+1    work    upper+2^(B-1) lower+2^(B-1)  check
/// ```
///
/// A `u64` key takes one word, its check 41 bits. With `2^b` buckets, the check is bits
/// `b..b+41` of the key, and the bucket is the low `b` bits of the key mixed (by exclusive or)
/// with a hash of the bits above them. For a given check the bucket is a one-to-one function of
/// the low bits, so bucket and check identify the key exactly whenever `key < 2^(b + 41)`
/// ([`Table::exact_key_bits`]: every key of a board of up to 56 cells and sentinels, 9x5, 8x6 or
/// 7x7, with the near-leaf table's 2^15 buckets). The solver stores longer keys as `u128` keys,
/// so that no two positions share an entry.
///
/// A `u128` key takes two words: the word above holds the entry (its check the 39 bits above
/// the bucket's), the word below 64 more bits of check, stored exclusive-or'd with the word
/// above. With `2^b` buckets of 64 bytes, bucket and check identify the key exactly whenever
/// `key < 2^(b + 103)`: every key of a board of up to 116 cells and sentinels (10x10, 11x9,
/// 12x8, 14x7) with the smallest table (2^13 buckets), of every board with a 2 GiB one. Longer
/// keys fold their bits from `b + 103` up into the word below, so two of them may share an
/// entry, with a chance of about 2^-103 per probe. The two words are written one after the
/// other, so a probe racing a store may read one word of each entry: the word below then
/// disagrees with the one above (a new entry's or a rewritten one's) and the probe misses,
/// unless 64 bits of the two entries happen to match.
const USED: u64 = 1 << 63;

/// The version of the entry words and bucket hashing above, and of the solver's rule for which
/// boards' keys take two-word entries in the shared table. Checkpoints keep raw entry words, so
/// any change to them takes a new number, and older checkpoints are refused. Version 1 had the
/// same words, but took two-word entries for keys longer than the near-leaf table tells apart
/// even where the shared table could (9x6 and 8x7 with tables of 128 or 256 MiB or more); its
/// checkpoints are still read.
pub(crate) const LAYOUT: u64 = 2;

/// Bits of each bound in an entry for keys of type `K`, the scores stored from `2^(bits - 1)`:
/// 6 for `u64` keys, whose boards fit 64 bits with sides of at most 16 and so have at most 60
/// cells (4x15) and scores of -30 to 30; 7 for `u128` keys, whose boards have at most 120 (8x15),
/// scores of -60 to 60.
#[inline(always)]
fn bound_bits<K: Bitboard>() -> u32 {
    if is_wide::<K>() {
        7
    } else {
        6
    }
}

/// The check's bits in an entry word for keys of type `K`: 41 or 39.
#[inline(always)]
fn check_bits<K: Bitboard>() -> u32 {
    53 - 2 * bound_bits::<K>()
}

/// The check's bits of an entry word for keys of type `K`, with `USED`.
#[inline(always)]
fn check_mask<K: Bitboard>() -> u64 {
    USED | ((1 << check_bits::<K>()) - 1)
}

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ScoreBounds {
    /// The exact score is at least this.
    pub(crate) lower: i32,
    /// The exact score is at most this.
    pub(crate) upper: i32,
    /// The column that was best or refuted the last search, in the key's orientation.
    pub(crate) best: Option<u32>,
}

/// A fixed-size table of bounds keyed by position key, shared by the threads of one search:
/// every word is atomic, so a probe of a one-word entry sees a whole entry or none, a race
/// between two stores loses one of them and never mixes them, and a two-word entry read half
/// old, half new does not match (see [`USED`]).
pub(crate) struct Table {
    entries: Entries,
    /// Where keys go.
    hashing: Hashing,
    /// Buckets written since the last clear, so clearing after a small search costs little.
    written: WriteLog,
}

/// Where keys go in a table of `2^b` buckets of one-word entries: enough to find a key's entry,
/// and to tell the key from an entry's place and checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hashing {
    /// `b`.
    bucket_bits: u32,
    /// `2^b - 1`.
    bucket_mask: u64,
    /// `64 - b`.
    mix_shift: u32,
}

/// Where a key's entry is looked for and what identifies it there.
struct Slot {
    /// The bucket's first word.
    first: usize,
    /// The entry word's check bits, with `USED`.
    check: u64,
    /// The second word's check (two-word entries; zero for one-word ones).
    check_below: u64,
}

/// The first [`WRITE_LOG`] 32-byte blocks given a new entry since the last clear (a bucket of
/// one-word entries, half a bucket of two-word ones), each as the index of its first word
/// divided by [`BLOCK_WORDS`]; once more were, a clear wipes the whole table. Aligned to a cache
/// line of its own, so that counting new entries does not take the table's other fields, which
/// every probe reads, from other threads.
#[repr(align(128))]
struct WriteLog {
    len: AtomicUsize,
    blocks: Box<[AtomicU32]>,
}

/// Entries per bucket: four one-word entries are 32 bytes, four two-word entries 64, inside one
/// cache line either way, so a probe still costs one miss while a new entry can evict the least
/// costly of four.
const WAYS: usize = 4;

/// The words of a block of the [`WriteLog`].
const BLOCK_WORDS: usize = WAYS;

/// How many written blocks are logged before a clear falls back to wiping the whole table.
const WRITE_LOG: usize = 1 << 14;

/// Whether keys of type `K` take two words per entry.
#[inline(always)]
fn is_wide<K: Bitboard>() -> bool {
    K::BITS > u64::BITS
}

impl Table {
    /// A table of about `2^bits` words (8 bytes each; entries of one or two words), at least
    /// 2^16 so that 7x6 keys are always told apart exactly, and at most 2^36.
    ///
    /// # Panics
    /// When the system refuses the memory, as any allocation does; tables of a size the user
    /// chooses are made with [`try_with_bits`](Self::try_with_bits).
    pub(crate) fn with_bits(bits: u32) -> Table {
        Table::try_with_bits(bits).unwrap_or_else(|| {
            panic!("the system refused the memory for a table of 2^{bits} words")
        })
    }

    /// [`with_bits`](Self::with_bits), or `None` when the system refuses the memory.
    pub(crate) fn try_with_bits(bits: u32) -> Option<Table> {
        let hashing = Hashing::with_bits(bits.clamp(16, 36));
        Some(Table::on(Entries::new(hashing.words())?, hashing))
    }

    /// A table of about `2^bits` words (as [`with_bits`](Self::with_bits)) on the words of
    /// `file` from byte `offset` on, mapped shared: the table of every process that maps the
    /// same file, as the threads of one search share one. What the file holds is taken as
    /// entries; the caller makes sure that it is such a table's, for the same board.
    ///
    /// # Errors
    /// The file is shorter than the table, or the system refuses the mapping.
    pub(crate) fn mapped(bits: u32, file: &std::fs::File, offset: u64) -> std::io::Result<Table> {
        let hashing = Hashing::with_bits(bits.clamp(16, 36));
        Ok(Table::on(
            Entries::mapped(file, offset, hashing.words())?,
            hashing,
        ))
    }

    fn on(entries: Entries, hashing: Hashing) -> Table {
        Table {
            entries,
            hashing,
            written: WriteLog {
                len: AtomicUsize::new(0),
                blocks: (0..WRITE_LOG).map(|_| AtomicU32::new(0)).collect(),
            },
        }
    }

    /// Whether other processes may use the table too ([`mapped`](Self::mapped)): then it is
    /// never cleared, since what it holds is theirs as well.
    pub(crate) fn is_shared(&self) -> bool {
        matches!(self.entries.backing, Backing::Mapped(_))
    }

    /// The longest keys that one-word entries tell apart exactly: `b + 41` bits.
    pub(crate) fn exact_key_bits(&self) -> u32 {
        self.hashing.exact_key_bits::<u64>()
    }

    /// [`exact_key_bits`](Self::exact_key_bits) of a table of `words` words, if that is a size
    /// [`with_bits`](Self::with_bits) makes.
    pub(crate) fn exact_key_bits_of(words: u64) -> Option<u32> {
        Hashing::of_words(words).map(|hashing| hashing.exact_key_bits::<u64>())
    }

    /// The table's size in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<u64>()
    }

    /// Whether the table is large enough to ask for 1 GiB pages (see [`Entries`]).
    pub(crate) fn is_for_giga_pages(&self) -> bool {
        wants_giga_pages(self.bytes())
    }

    /// Whether the table lies on 1 GiB pages (see [`Entries`]).
    pub(crate) fn is_on_giga_pages(&self) -> bool {
        matches!(self.entries.backing, Backing::GigaPages(_))
    }

    /// The table's size in words.
    pub(crate) fn words(&self) -> usize {
        self.entries.len()
    }

    /// The entries of keys of type `K` with about `2^min_work` nodes or more of search behind
    /// them, as (word index, word) pairs in rising order of index, both words of a two-word
    /// entry: what a long search has proven, for [`restore`](Self::restore). Read as they are taken, so no search may write
    /// the table meanwhile (a two-word entry could be read half old, half new).
    pub(crate) fn proven_words<K: Bitboard>(
        &self,
        min_work: u32,
    ) -> impl Iterator<Item = (u64, u64)> + '_ {
        let step = if is_wide::<K>() { 2 } else { 1 };
        self.entries
            .chunks_exact(step)
            .enumerate()
            .filter(move |(_, pair)| {
                let entry = pair[step - 1].load(Relaxed);
                entry & USED != 0 && work_of(entry) >= min_work
            })
            .flat_map(move |(index, pair)| {
                pair.iter()
                    .enumerate()
                    .map(move |(offset, word)| ((index * step + offset) as u64, word.load(Relaxed)))
            })
    }

    /// Writes back words that [`proven_words::<S>`](Self::proven_words) took from a table of
    /// `saved_words` words, for keys of at most `key_bits` bits, into entries for keys of type
    /// `K`: in place into a table of that size with entries of the same form, entry by entry
    /// otherwise, each key told from its entry's place and checks and stored as a search stores
    /// it (in a smaller table, an entry takes the place of the one with the least work in its
    /// bucket). Refuses words that are not such a table's entries and, where they do not go
    /// back in place, keys too long for the saved table to have told apart exactly, which could
    /// come back as another position's; what it wrote before refusing is left for the caller to
    /// [`clear`](Self::clear).
    pub(crate) fn restore<S: Bitboard, K: Bitboard>(
        &self,
        words: impl IntoIterator<Item = (u64, u64)>,
        saved_words: u64,
        key_bits: u32,
    ) -> bool {
        let Some(saved) = Hashing::of_words(saved_words) else {
            return false;
        };
        let in_place = saved == self.hashing && is_wide::<S>() == is_wide::<K>();
        if !in_place && key_bits > saved.exact_key_bits::<S>() {
            return false;
        }
        // The write log does not know these blocks: the next clear wipes the whole table.
        self.written.len.store(WRITE_LOG + 1, Relaxed);
        if in_place {
            words.into_iter().all(|(index, word)| {
                let inside = index < saved_words;
                if inside {
                    self.entries[index as usize].store(word, Relaxed);
                }
                inside
            })
        } else {
            saved_entries::<S>(saved, words, key_bits).all(|entry| {
                entry
                    .inspect(|&(key, entry)| {
                        let key = K::from_u128(key.to_u128());
                        self.store(key, decode::<S>(entry), work_of(entry));
                    })
                    .is_some()
            })
        }
    }

    /// Forgets every entry. No search may use the table meanwhile.
    pub(crate) fn clear(&self) {
        let log = &self.written;
        let logged = log.len.load(Relaxed);
        if logged <= WRITE_LOG {
            for block in &log.blocks[..logged] {
                let first = BLOCK_WORDS * block.load(Relaxed) as usize;
                for entry in &self.entries[first..first + BLOCK_WORDS] {
                    entry.store(0, Relaxed);
                }
            }
        } else {
            for entry in self.entries.iter() {
                entry.store(0, Relaxed);
            }
        }
        log.len.store(0, Relaxed);
    }

    /// Writes every page of the table once, leaving each entry as it is, so that the system
    /// gives it its memory now rather than during a search (see [`Entries`]); asks `go_on`
    /// before each 2 MiB and stops when it says no. Safe beside searches: each touch is an
    /// atomic `fetch_or(0)`, which changes no entry.
    pub(crate) fn touch_pages(&self, mut go_on: impl FnMut() -> bool) {
        const PAGE_WORDS: usize = 4096 / std::mem::size_of::<u64>();
        for huge_page in self.entries.chunks(HUGE_PAGE / std::mem::size_of::<u64>()) {
            if !go_on() {
                return;
            }
            for entry in huge_page.iter().step_by(PAGE_WORDS) {
                // Hidden from the compiler, which would otherwise see an or with 0, a write of
                // nothing, and make it a read (or nothing): a read leaves the page unallocated.
                entry.fetch_or(std::hint::black_box(0), Relaxed);
            }
        }
    }

    /// The words of the bucket of `slot`, for keys of type `K`.
    #[inline(always)]
    fn bucket<K: Bitboard>(&self, slot: &Slot) -> &[AtomicU64] {
        let words = if is_wide::<K>() { 2 * WAYS } else { WAYS };
        &self.entries[slot.first..slot.first + words]
    }

    /// Starts loading `key`'s bucket into cache, so that several probes can wait on memory at
    /// once instead of one after the other.
    #[inline]
    #[allow(unsafe_code, reason = "a prefetch hint; see the SAFETY comment")]
    pub(crate) fn prefetch<K: Bitboard>(&self, key: K) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot = self.hashing.slot(key);
            // SAFETY: prefetching never faults, and the address is inside `entries` anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(self.entries.as_ptr().add(slot.first).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub(crate) fn probe<K: Bitboard>(&self, key: K) -> Option<ScoreBounds> {
        let slot = self.hashing.slot(key);
        let bucket = self.bucket::<K>(&slot);
        (0..WAYS)
            .map(|way| load::<K>(bucket, way))
            .find(|&(e, below)| e & check_mask::<K>() == slot.check && below == slot.check_below)
            .map(|(e, _)| decode::<K>(e))
    }

    /// Records that `key`'s score lies in `lower..=upper`, merging with what is known, after a
    /// search of about `2^work` nodes. A new key takes the place of the bucket's entry with the
    /// least work behind it. Inlined into the search, which the compiler did not do of itself:
    /// 1.1-1.2% fewer instructions on `analyze` and single solves (docs/solver.md).
    #[inline(always)]
    pub(crate) fn store<K: Bitboard>(&self, key: K, bounds: ScoreBounds, work: u32) {
        let slot = self.hashing.slot(key);
        let work = work.min(MAX_WORK);
        let words = self.bucket::<K>(&slot);
        let bucket: [(u64, u64); WAYS] = std::array::from_fn(|way| load::<K>(words, way));
        let (way, old) = match bucket.iter().position(|&(e, below)| {
            e & check_mask::<K>() == slot.check && below == slot.check_below
        }) {
            Some(way) => (way, Some(bucket[way].0)),
            None => {
                let way = (0..WAYS).min_by_key(|&w| work_of(bucket[w].0)).unwrap_or(0);
                (way, None)
            }
        };
        let (merged, work) = match old.map(|e| (decode::<K>(e), work_of(e))) {
            Some((known, known_work)) => {
                let lower = bounds.lower.max(known.lower);
                let upper = bounds.upper.min(known.upper);
                let merged = if lower <= upper {
                    ScoreBounds {
                        lower,
                        upper,
                        best: bounds.best.or(known.best),
                    }
                } else {
                    bounds
                };
                (merged, work.max(known_work))
            }
            None => {
                let log = &self.written;
                // Checked first so that, once the log is full, stores stop writing to the
                // shared counter.
                if log.len.load(Relaxed) <= WRITE_LOG {
                    let blocks = if is_wide::<K>() { 2 } else { 1 };
                    let index = log.len.fetch_add(blocks, Relaxed);
                    for block in 0..blocks.min(WRITE_LOG.saturating_sub(index)) {
                        let first = slot.first / BLOCK_WORDS + block;
                        log.blocks[index + block].store(first as u32, Relaxed);
                    }
                }
                (bounds, work)
            }
        };
        let entry = encode::<K>(slot.check, merged, work);
        // Rewriting an entry unchanged would take its cache line from the other threads.
        if old == Some(entry) {
            return;
        }
        if is_wide::<K>() {
            words[2 * way].store(slot.check_below ^ entry, Relaxed);
            words[2 * way + 1].store(entry, Relaxed);
        } else {
            words[way].store(entry, Relaxed);
        }
    }
}

impl Hashing {
    /// The hashing of a table of `2^bits` words.
    fn with_bits(bits: u32) -> Hashing {
        let bucket_bits = bits - WAYS.trailing_zeros();
        Hashing {
            bucket_bits,
            bucket_mask: (1 << bucket_bits) - 1,
            mix_shift: 64 - bucket_bits,
        }
    }

    /// The hashing of a table of `words` words, if that is a size [`Table::with_bits`] makes.
    fn of_words(words: u64) -> Option<Hashing> {
        let bits = words.trailing_zeros();
        (words.is_power_of_two() && (16..=36).contains(&bits)).then(|| Hashing::with_bits(bits))
    }

    /// The table's size in words.
    fn words(&self) -> usize {
        WAYS << self.bucket_bits
    }

    /// The longest keys of type `K` that bucket and checks tell apart exactly: `b + 41` bits
    /// for one-word entries, `b - 1 + 103` for two-word ones (see [`USED`]).
    fn exact_key_bits<K: Bitboard>(&self) -> u32 {
        if is_wide::<K>() {
            self.bucket_bits - 1 + check_bits::<K>() + u64::BITS
        } else {
            self.bucket_bits + check_bits::<K>()
        }
    }

    /// `key`'s bucket and the checks stored with its entry.
    #[inline]
    fn slot<K: Bitboard>(&self, key: K) -> Slot {
        if is_wide::<K>() {
            // Half as many buckets, of twice the words.
            let bits = self.bucket_bits - 1;
            let key = key.to_u128();
            let high = key >> bits;
            let folded = high as u64 ^ (high >> 64) as u64;
            let bucket = (key as u64 ^ (self.mix(folded) >> 1)) & (self.bucket_mask >> 1);
            let check = check_bits::<K>();
            Slot {
                first: 2 * WAYS * bucket as usize,
                check: high as u64 & check_mask::<K>() | USED,
                check_below: (high >> check) as u64 ^ (high >> (check + 64)) as u64,
            }
        } else {
            let key = key.to_u128() as u64;
            let high = key >> self.bucket_bits;
            let bucket = (key ^ self.mix(high)) & self.bucket_mask;
            Slot {
                first: WAYS * bucket as usize,
                check: high & check_mask::<K>() | USED,
                check_below: 0,
            }
        }
    }

    /// A hash of a key's bits above the bucket's, below `2^b`. Fibonacci hashing: the top bits
    /// of the product depend on every bit of `high`.
    #[inline]
    fn mix(&self, high: u64) -> u64 {
        high.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.mix_shift
    }

    /// The key whose entry for keys of type `K`, in the bucket starting at word `first`, has
    /// the entry word `entry` and second-word check `check_below`: the inverse of
    /// [`slot`](Self::slot) for keys of at most [`exact_key_bits`](Self::exact_key_bits);
    /// `None` when the checks make a key of more than 128 bits (a damaged entry).
    fn key_at<K: Bitboard>(&self, first: usize, entry: u64, check_below: u64) -> Option<u128> {
        let check = u128::from(entry & check_mask::<K>() & !USED);
        if is_wide::<K>() {
            let bits = self.bucket_bits - 1;
            let high = check | u128::from(check_below) << check_bits::<K>();
            let folded = high as u64 ^ (high >> 64) as u64;
            let low = (first / (2 * WAYS)) as u64 ^ (self.mix(folded) >> 1);
            (high.leading_zeros() >= bits).then(|| high << bits | u128::from(low))
        } else {
            let low = (first / WAYS) as u64 ^ self.mix(check as u64);
            Some(check << self.bucket_bits | u128::from(low))
        }
    }
}

/// The key and entry word of each entry in `words` of a table hashed by `saved`, as
/// [`Table::proven_words`] lists them; `None` for words that are not such an entry (out of the
/// table, a second word without its first, unused, or with a key of more than `key_bits` bits).
fn saved_entries<K: Bitboard>(
    saved: Hashing,
    words: impl IntoIterator<Item = (u64, u64)>,
    key_bits: u32,
) -> impl Iterator<Item = Option<(K, u64)>> {
    let step = if is_wide::<K>() { 2 } else { 1 };
    let mut words = words.into_iter();
    std::iter::from_fn(move || {
        let first = words.next()?;
        let (below_index, below) = first;
        let second = if step == 2 { words.next() } else { Some(first) };
        let Some((index, entry)) = second else {
            return Some(None);
        };
        let in_table = index < saved.words() as u64
            && index % step as u64 == step as u64 - 1
            && below_index == index + 1 - step as u64;
        let check_below = if step == 2 { below ^ entry } else { 0 };
        let first = index as usize / (step * WAYS) * step * WAYS;
        let key = saved
            .key_at::<K>(first, entry, check_below)
            .filter(|key| key.checked_shr(key_bits).unwrap_or(0) == 0);
        Some(match key {
            Some(key) if in_table && entry & USED != 0 => Some((K::from_u128(key), entry)),
            _ => None,
        })
    })
}

/// The entry word of way `way` of `bucket` and the check in its second word (zero for one-word
/// entries).
#[inline(always)]
fn load<K: Bitboard>(bucket: &[AtomicU64], way: usize) -> (u64, u64) {
    if is_wide::<K>() {
        let entry = bucket[2 * way + 1].load(Relaxed);
        (entry, bucket[2 * way].load(Relaxed) ^ entry)
    } else {
        (bucket[way].load(Relaxed), 0)
    }
}

/// The most work an entry records: subtrees of more than 2^31 nodes count as that many.
const MAX_WORK: u32 = 31;

#[inline]
fn work_of(entry: u64) -> u32 {
    ((entry >> 53) & 0x1f) as u32
}

/// The entry word of `bounds` under `check` (with `USED`), for keys of type `K`.
#[inline]
fn encode<K: Bitboard>(check: u64, bounds: ScoreBounds, work: u32) -> u64 {
    let (bits, offset) = (bound_bits::<K>(), 1 << (bound_bits::<K>() - 1));
    let best = bounds.best.map_or(0, |c| c + 1) as u64;
    check
        | ((bounds.lower + offset) as u64) << (53 - 2 * bits)
        | ((bounds.upper + offset) as u64) << (53 - bits)
        | (work as u64) << 53
        | best << 58
}

#[inline]
fn decode<K: Bitboard>(entry: u64) -> ScoreBounds {
    let (bits, offset) = (bound_bits::<K>(), 1 << (bound_bits::<K>() - 1));
    let bound = |shift: u32| ((entry >> shift) & ((1 << bits) - 1)) as i32 - offset;
    let best = ((entry >> 58) & 0x1f) as u32;
    ScoreBounds {
        lower: bound(53 - 2 * bits),
        upper: bound(53 - bits),
        best: best.checked_sub(1),
    }
}

/// The table's memory: zeroed `u64`s aligned to 2 MiB and, on Linux, advised to use huge
/// pages, because nearly every probe misses the cache and a huge-page TLB covers the whole table
/// where a 4 KiB one pays a page walk on top of the miss. The system zeroes the memory as each
/// page is first touched, so making a table costs next to nothing until a search uses it: a
/// session whose first answers come from the opening book never waits for its 64 MiB (writing
/// them at once took 8-175 ms). The interpreter has its tables' pages touched by a thread of
/// their own instead ([`Table::touch_pages`]), off the clock of its searches.
///
/// A table of 1 GiB or more goes on 1 GiB pages where the system has them reserved
/// (`/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages` on Linux): the 2 MiB pages of
/// such a table are more than the TLB holds, so its probes pay page walks on top of their misses
/// (on 9x5 with a 1 GiB table, 0.78-0.88 of the time with a 1 GiB page, 0.81 with two threads).
struct Entries {
    /// The first entry: the allocation's first 2 MiB boundary.
    ptr: std::ptr::NonNull<u64>,
    len: usize,
    /// Where the memory came from, to give it back.
    backing: Backing,
}

/// The memory under [`Entries`].
enum Backing {
    /// An allocation of the global allocator, 2 MiB longer than the entries so that they can
    /// start aligned.
    Heap(std::ptr::NonNull<u8>),
    /// A mapping of this many bytes on 1 GiB pages.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    GigaPages(usize),
    /// A shared mapping of this many bytes of a file.
    #[cfg_attr(not(unix), allow(dead_code))]
    Mapped(usize),
}

const HUGE_PAGE: usize = 2 << 20;

/// The size of the largest pages, which only tables at least this large ask for.
const GIGA_PAGE: usize = 1 << 30;

#[allow(
    unsafe_code,
    reason = "a raw zeroed allocation, aligned by hand for huge pages, which Vec cannot ask for"
)]
impl Entries {
    /// `len` zeroed words, or `None` when the system refuses the memory.
    fn new(len: usize) -> Option<Entries> {
        let bytes = len.checked_mul(std::mem::size_of::<u64>())?;
        if let Some(ptr) = giga_pages(bytes) {
            return Some(Entries {
                ptr: ptr.cast(),
                len,
                backing: Backing::GigaPages(bytes),
            });
        }
        let layout = Self::layout(len)?;
        // An alignment of 8 lets the allocator hand out fresh zero pages of the system (calloc)
        // instead of writing zeros; the 2 MiB alignment is then found inside the allocation.
        // SAFETY: the layout has a non-zero size (the table has at least 2^14 buckets).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let allocation = std::ptr::NonNull::new(raw)?;
        let offset = (HUGE_PAGE - raw as usize % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `offset < HUGE_PAGE`, so the entries, `len * 8` bytes from there, lie inside
        // the allocation of `len * 8 + HUGE_PAGE` bytes; the start is aligned to 8 and more.
        let ptr = unsafe { std::ptr::NonNull::new_unchecked(raw.add(offset).cast::<u64>()) };
        advise_huge_pages(ptr.as_ptr().cast(), len * std::mem::size_of::<u64>());
        Some(Entries {
            ptr,
            len,
            backing: Backing::Heap(allocation),
        })
    }

    /// `len` words of `file` from byte `offset` on (a multiple of the page size), mapped
    /// shared, so that what one process writes the others read.
    #[cfg(unix)]
    fn mapped(file: &std::fs::File, offset: u64, len: usize) -> std::io::Result<Entries> {
        use std::io::{Error, ErrorKind};
        use std::os::fd::AsRawFd;
        let bytes = len
            .checked_mul(std::mem::size_of::<u64>())
            .ok_or_else(|| Error::from(ErrorKind::OutOfMemory))?;
        let end = offset.checked_add(bytes as u64);
        if end.is_none_or(|end| file.metadata().map_or(true, |m| m.len() < end)) {
            return Err(Error::new(
                ErrorKind::UnexpectedEof,
                "the file is shorter than the table",
            ));
        }
        let offset =
            libc::off_t::try_from(offset).map_err(|_| Error::from(ErrorKind::InvalidInput))?;
        let protection = libc::PROT_READ | libc::PROT_WRITE;
        // SAFETY: a new mapping chosen by the system of a file this process has open for
        // reading and writing and that is long enough (checked above); it touches no memory of
        // this process and is unmapped only in `Entries::drop`.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                protection,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                offset,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(Error::last_os_error());
        }
        let ptr = std::ptr::NonNull::new(ptr.cast::<u64>()).ok_or_else(Error::last_os_error)?;
        advise_huge_pages(ptr.as_ptr().cast(), bytes);
        Ok(Entries {
            ptr,
            len,
            backing: Backing::Mapped(bytes),
        })
    }

    #[cfg(not(unix))]
    fn mapped(_file: &std::fs::File, _offset: u64, _len: usize) -> std::io::Result<Entries> {
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "tables shared through a file need a Unix system",
        ))
    }

    /// The allocation of `len` words, if its size is one an allocation can have.
    fn layout(len: usize) -> Option<std::alloc::Layout> {
        let bytes = len
            .checked_mul(std::mem::size_of::<u64>())?
            .checked_add(HUGE_PAGE)?;
        std::alloc::Layout::from_size_align(bytes, std::mem::align_of::<u64>()).ok()
    }
}

#[allow(
    unsafe_code,
    reason = "the allocation seen as atomics; see the SAFETY comment"
)]
impl std::ops::Deref for Entries {
    type Target = [AtomicU64];
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` holds `len` initialised `u64`s for the life of `self` (zeroed, or a
        // file's words: any bits are a `u64`), and `AtomicU64` has the size and alignment of
        // `u64`; all access, other processes' to a shared mapping included, goes through atomics.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr().cast::<AtomicU64>(), self.len) }
    }
}

#[allow(unsafe_code, reason = "frees the memory taken in Entries::new")]
impl Drop for Entries {
    fn drop(&mut self) {
        match self.backing {
            Backing::Heap(allocation) => {
                let layout = Self::layout(self.len).expect("the layout `new` allocated with");
                // SAFETY: allocated in `new` with this very layout.
                unsafe { std::alloc::dealloc(allocation.as_ptr(), layout) };
            }
            #[cfg(target_os = "linux")]
            Backing::GigaPages(bytes) => {
                // SAFETY: mapped in `giga_pages` with this very length, and no longer used.
                let _ = unsafe { libc::munmap(self.ptr.as_ptr().cast(), bytes) };
            }
            #[cfg(not(target_os = "linux"))]
            Backing::GigaPages(_) => unreachable!("only Linux maps 1 GiB pages"),
            #[cfg(unix)]
            Backing::Mapped(bytes) => {
                // SAFETY: mapped in `Entries::mapped` with this very length, and no longer used.
                let _ = unsafe { libc::munmap(self.ptr.as_ptr().cast(), bytes) };
            }
            #[cfg(not(unix))]
            Backing::Mapped(_) => unreachable!("only Unix systems map shared tables"),
        }
    }
}

// SAFETY: `Entries` owns its memory (or its mapping) outright, like a `Vec<u64>`.
#[allow(unsafe_code, reason = "a raw pointer is not Send by itself")]
unsafe impl Send for Entries {}
// SAFETY: shared access goes through atomics only.
#[allow(unsafe_code, reason = "a raw pointer is not Sync by itself")]
unsafe impl Sync for Entries {}

/// `madvise(MADV_HUGEPAGE)`: asks Linux to back the table with huge pages. A refusal (an old
/// kernel, transparent huge pages turned off) only costs speed, so its result is ignored.
#[cfg(target_os = "linux")]
#[allow(
    unsafe_code,
    reason = "a system call on memory this process allocated; see the SAFETY comment"
)]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    // SAFETY: `ptr` and `len` describe one live allocation of this process (aligned to a page,
    // as madvise requires); the advice changes how it is paged, never its contents.
    let _ = unsafe { libc::madvise(ptr.cast::<libc::c_void>(), len, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

/// `bytes` of zeroed memory on 1 GiB pages, for a table of a whole number of them, if the system
/// has that many reserved and free; `None` otherwise, and then the table takes ordinary memory.
/// The pages are taken from the reserve when mapped, so a search never finds them missing.
#[cfg(target_os = "linux")]
#[allow(
    unsafe_code,
    reason = "a system call mapping fresh memory; see the SAFETY comment"
)]
fn giga_pages(bytes: usize) -> Option<std::ptr::NonNull<u8>> {
    if !wants_giga_pages(bytes) {
        return None;
    }
    let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_HUGETLB | libc::MAP_HUGE_1GB;
    let protection = libc::PROT_READ | libc::PROT_WRITE;
    // SAFETY: a new anonymous mapping chosen by the system, touching no memory of this process;
    // it is unmapped only in `Entries::drop`.
    let ptr = unsafe { libc::mmap(std::ptr::null_mut(), bytes, protection, flags, -1, 0) };
    if ptr == libc::MAP_FAILED {
        return None;
    }
    std::ptr::NonNull::new(ptr.cast())
}

#[cfg(not(target_os = "linux"))]
fn giga_pages(_bytes: usize) -> Option<std::ptr::NonNull<u8>> {
    None
}

/// Whether a table of `bytes` asks for 1 GiB pages: one of a whole number of them, on Linux.
fn wants_giga_pages(bytes: usize) -> bool {
    cfg!(target_os = "linux") && bytes >= GIGA_PAGE && bytes.is_multiple_of(GIGA_PAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds_come_back_and_merge<K: Bitboard>(key: K) {
        let table = Table::with_bits(18);
        assert_eq!(table.probe(key), None);
        let wide = ScoreBounds {
            lower: -3,
            upper: 10,
            best: Some(2),
        };
        table.store(key, wide, 5);
        assert_eq!(table.probe(key), Some(wide));
        table.store(
            key,
            ScoreBounds {
                lower: -30,
                upper: 4,
                best: None,
            },
            1,
        );
        assert_eq!(
            table.probe(key),
            Some(ScoreBounds {
                lower: -3,
                upper: 4,
                best: Some(2)
            })
        );
        table.clear();
        assert_eq!(table.probe(key), None);
    }

    #[test]
    fn stored_bounds_come_back_and_merge() {
        bounds_come_back_and_merge(0x1_2345_6789_u64);
        bounds_come_back_and_merge(0x1_2345_6789_u128 << 60 | 0xabc);
    }

    #[test]
    fn the_empty_board_key_is_not_an_empty_slot() {
        let table = Table::with_bits(18);
        assert_eq!(table.probe(0u64), None);
        assert_eq!(table.probe(0u128), None);
    }

    /// Keys from a xorshift generator, shifted right by `shift` bits.
    fn keys(shift: u32) -> impl Iterator<Item = u128> {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        std::iter::repeat_with(move || (u128::from(next()) << 64 | u128::from(next())) >> shift)
    }

    #[test]
    fn bucket_and_check_give_back_every_55_bit_key() {
        // The smallest table: 2^14 buckets, exact up to 14 + 41 bits.
        let hashing = Table::with_bits(16).hashing;
        assert_eq!(hashing.exact_key_bits::<u64>(), 55);
        for key in keys(128 - 55).take(10_000) {
            let key = key as u64;
            let slot = hashing.slot(key);
            let first = slot.first / WAYS * WAYS;
            assert_eq!(
                hashing.key_at::<u64>(first, slot.check, 0),
                Some(key.into())
            );
            assert!(slot.first + WAYS <= hashing.words());
        }
    }

    #[test]
    fn bucket_and_checks_give_back_every_116_bit_key() {
        // The smallest table: 2^13 buckets of two-word entries, exact up to 13 + 103 bits.
        let hashing = Table::with_bits(16).hashing;
        assert_eq!(hashing.exact_key_bits::<u128>(), 116);
        for key in keys(12).take(10_000) {
            let slot = hashing.slot(key);
            assert_eq!(
                hashing.key_at::<u128>(slot.first, slot.check, slot.check_below),
                Some(key)
            );
            assert!(slot.first + 2 * WAYS <= hashing.words());
        }
    }

    /// `count` keys of `key_bits` bits, each with bounds of its own.
    fn keys_with_bounds(key_bits: u32, count: usize) -> impl Iterator<Item = (u128, ScoreBounds)> {
        keys(128 - key_bits)
            .take(count)
            .enumerate()
            .map(|(i, key)| {
                let score = i as i32 % 20 - 10;
                let bounds = ScoreBounds {
                    lower: score,
                    upper: score + i as i32 % 3,
                    best: Some(i as u32 % 7),
                };
                (key, bounds)
            })
    }

    /// Stores bounds for `count` keys of `key_bits` bits in a table of 2^18 words, moves what
    /// it holds into tables of 2^16, 2^18 and 2^20 words, and checks every entry that came
    /// along, and that the largest kept them all.
    fn entries_move_to_a_table_of_another_size<K: Bitboard>(key_bits: u32, count: usize) {
        let table = Table::with_bits(18);
        let stored: Vec<(K, ScoreBounds)> = keys_with_bounds(key_bits, count)
            .map(|(key, bounds)| (K::from_u128(key), bounds))
            .collect();
        // Work from 1 up, as a checkpoint's entries have (an entry of work 0 ties with an empty
        // way, and may take the place of another such entry when moved).
        for (i, &(key, bounds)) in stored.iter().enumerate() {
            table.store(key, bounds, 1 + i as u32 % 16);
        }
        let words: Vec<_> = table.proven_words::<K>(0).collect();
        // A checkpoint takes them only in strictly rising order of index.
        assert!(words.windows(2).all(|pair| pair[0].0 < pair[1].0));
        let kept = |other: &Table| {
            let mut kept = 0;
            for &(key, bounds) in &stored {
                let found = other.probe(key);
                assert!(found.is_none() || found == table.probe(key) && found == Some(bounds));
                kept += usize::from(found.is_some());
            }
            kept
        };
        let held = kept(&table);
        for bits in [16, 18, 20] {
            let other = Table::with_bits(bits);
            assert!(other.restore::<K, K>(words.iter().copied(), table.words() as u64, key_bits));
            let moved = kept(&other);
            assert!(
                moved <= held && (bits < 18 || moved == held),
                "{bits}: {moved} of {held}"
            );
        }
        // A word outside the saved table, or an entry whose check was damaged so that its key
        // is longer than the board's, is refused.
        let other = Table::with_bits(20);
        let mut outside = words.clone();
        outside.last_mut().unwrap().0 = table.words() as u64;
        let mut damaged = words.clone();
        let (at, bit) = if is_wide::<K>() {
            (words.len() - 2, 63)
        } else {
            (words.len() - 1, 38)
        };
        damaged[at].1 ^= 1 << bit;
        for bad in [outside, damaged] {
            assert!(!other.restore::<K, K>(bad, table.words() as u64, key_bits));
        }
        // So are a size no table has, and keys longer than the saved table told apart, unless
        // they go back in place, where their entries match as they did.
        assert!(!other.restore::<K, K>(words.iter().copied(), 3 << 17, key_bits));
        let too_long = table.hashing.exact_key_bits::<K>() + 1;
        assert!(!other.restore::<K, K>(words.iter().copied(), table.words() as u64, too_long));
        let same = Table::with_bits(18);
        assert!(same.restore::<K, K>(words.iter().copied(), table.words() as u64, too_long));
        assert_eq!(kept(&same), held);
    }

    #[test]
    fn entries_move_to_a_table_of_another_size_whole() {
        // 7x6 keys in one-word entries; 8x7 keys (64 bits) in two-word ones. 8,000 keys fill
        // the 2^18-word table to an eighth (or a quarter), and the 2^16-word one past full.
        entries_move_to_a_table_of_another_size::<u64>(49, 8_000);
        entries_move_to_a_table_of_another_size::<u128>(64, 8_000);
        entries_move_to_a_table_of_another_size::<u128>(110, 8_000);
    }

    /// Stores bounds for 4,000 keys of 57 bits (the most that one-word entries of a 2^18-word
    /// table tell apart) in entries for keys of type `S`, moves them into tables of 2^18 and
    /// 2^20 words with entries for keys of type `K`, and checks every entry that came along,
    /// and that a table as large as the first, or larger, kept them all.
    fn entries_change_form<S: Bitboard, K: Bitboard>() {
        let key_bits = 57;
        let table = Table::with_bits(18);
        assert_eq!(table.hashing.exact_key_bits::<u64>(), key_bits);
        let stored: Vec<(u128, ScoreBounds)> = keys_with_bounds(key_bits, 4_000).collect();
        for (i, &(key, bounds)) in stored.iter().enumerate() {
            table.store(S::from_u128(key), bounds, 1 + i as u32 % 16);
        }
        let words: Vec<_> = table.proven_words::<S>(0).collect();
        for bits in [18, 20] {
            let other = Table::with_bits(bits);
            assert!(other.restore::<S, K>(words.iter().copied(), table.words() as u64, key_bits));
            for &(key, bounds) in &stored {
                let found = table.probe(S::from_u128(key));
                assert_eq!(found.map(|_| bounds), found);
                assert_eq!(other.probe(K::from_u128(key)), found, "{bits}: {key:x}");
            }
        }
    }

    #[test]
    fn entries_change_form_between_one_word_and_two() {
        entries_change_form::<u128, u64>();
        entries_change_form::<u64, u128>();
    }

    #[test]
    fn a_table_of_1_gib_keeps_entries_on_any_pages() {
        // On 1 GiB pages where the system has them reserved, else on ordinary memory.
        let table = Table::with_bits(27);
        assert_eq!(table.bytes(), 1 << 30);
        // Smaller tables never ask for them.
        assert!(!Table::with_bits(26).is_for_giga_pages());
        assert!(!Table::with_bits(26).is_on_giga_pages());
        assert_eq!(table.is_for_giga_pages(), cfg!(target_os = "linux"));
        let stored: Vec<(u128, ScoreBounds)> = keys_with_bounds(60, 1_000).collect();
        for &(key, bounds) in &stored {
            table.store(key as u64, bounds, 3);
        }
        for &(key, bounds) in &stored {
            assert_eq!(table.probe(key as u64), Some(bounds));
        }
        table.clear();
        assert!(stored
            .iter()
            .all(|&(key, _)| table.probe(key as u64).is_none()));
    }

    #[test]
    fn touching_the_pages_keeps_every_entry_and_stops_when_told() {
        let table = Table::with_bits(20);
        let stored: Vec<(u128, ScoreBounds)> = keys_with_bounds(60, 1_000).collect();
        for &(key, bounds) in &stored {
            table.store(key as u64, bounds, 3);
        }
        let mut asked = 0;
        table.touch_pages(|| {
            asked += 1;
            true
        });
        assert_eq!(asked, table.bytes() / HUGE_PAGE);
        for &(key, bounds) in &stored {
            assert_eq!(table.probe(key as u64), Some(bounds));
        }
        let mut asked = 0;
        table.touch_pages(|| {
            asked += 1;
            asked < 2
        });
        assert_eq!(asked, 2);
    }

    /// How many of the table's 4 KiB pages are in memory, as the system says.
    #[cfg(target_os = "linux")]
    #[allow(
        unsafe_code,
        reason = "mincore on the table's own memory; see the SAFETY comment"
    )]
    fn resident_pages(table: &Table) -> usize {
        let mut resident = vec![0u8; table.bytes() / 4096];
        // SAFETY: the range is the table's live allocation, aligned to 2 MiB; `resident` has a
        // byte for each of its 4 KiB pages, as mincore writes.
        let done = unsafe {
            libc::mincore(
                table.entries.ptr.as_ptr().cast(),
                table.bytes(),
                resident.as_mut_ptr(),
            )
        };
        assert_eq!(done, 0);
        resident.iter().filter(|&&page| page & 1 == 1).count()
    }

    /// Gives `table`'s pages back to the system: the allocator may have handed out memory it
    /// had used and zeroed before (seldom, as the other tests of the process allocate and free),
    /// and a test of what allocates the pages must start from none.
    #[cfg(target_os = "linux")]
    #[allow(
        unsafe_code,
        reason = "madvise on the table's own memory; see the SAFETY comment"
    )]
    fn release_pages(table: &Table) {
        // SAFETY: the range is the table's live allocation, aligned to 2 MiB, used by no other
        // thread; its words are all zero, which is what the pages the system gives back after
        // MADV_DONTNEED read as, so its contents do not change.
        let done = unsafe {
            libc::madvise(
                table.entries.ptr.as_ptr().cast(),
                table.bytes(),
                libc::MADV_DONTNEED,
            )
        };
        assert_eq!(done, 0);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn touching_the_pages_gives_the_table_its_memory() {
        let table = Table::with_bits(22);
        release_pages(&table);
        assert_eq!(resident_pages(&table), 0);
        table.touch_pages(|| true);
        assert_eq!(resident_pages(&table), table.bytes() / 4096);
    }

    #[test]
    fn a_two_word_entry_read_half_rewritten_does_not_match() {
        let table = Table::with_bits(16);
        let key = 0xfeed_u128 << 90 | 0x1234;
        let old = ScoreBounds {
            lower: -3,
            upper: 10,
            best: Some(2),
        };
        table.store(key, old, 5);
        let slot = table.hashing.slot(key);
        let (way, _) = (0..WAYS)
            .map(|way| (way, load::<u128>(table.bucket::<u128>(&slot), way)))
            .find(|&(_, (entry, _))| entry != 0)
            .unwrap();
        let upper_word = slot.first + 2 * way + 1;
        // A rewrite of the same key, caught after its upper word only.
        let new = encode::<u128>(slot.check, ScoreBounds { lower: 4, ..old }, 6);
        table.entries[upper_word].store(new, Relaxed);
        assert_eq!(table.probe(key), None);
        // And once the lower word follows, the new entry is whole.
        table.entries[upper_word - 1].store(slot.check_below ^ new, Relaxed);
        assert_eq!(table.probe(key).map(|b| b.lower), Some(4));
    }

    #[test]
    fn memory_the_system_cannot_give_is_refused() {
        // 2^60 bytes: more than any machine's address space.
        assert!(Entries::new(1 << 57).is_none());
        assert!(Entries::new(usize::MAX / 4).is_none());
        assert!(Table::try_with_bits(16).is_some());
    }

    #[test]
    fn the_smallest_table_keeps_7x6_keys_exact() {
        assert_eq!(Table::with_bits(1).hashing.bucket_bits, 14);
    }

    #[test]
    fn entries_hold_every_score_of_their_boards() {
        // u64 keys: boards of at most 60 cells, scores -30..=30; u128 keys: at most 120 cells.
        for (score, best) in [(-30, Some(0)), (30, Some(15)), (0, None)] {
            let bounds = ScoreBounds {
                lower: score,
                upper: score.max(-score),
                best,
            };
            let entry = encode::<u64>(USED, bounds, MAX_WORK);
            assert_eq!(decode::<u64>(entry), bounds);
            assert_eq!(work_of(entry), MAX_WORK);
        }
        for score in [-60, 60] {
            let bounds = ScoreBounds {
                lower: score,
                upper: 60,
                best: Some(15),
            };
            assert_eq!(decode::<u128>(encode::<u128>(USED, bounds, 7)), bounds);
        }
    }
}
