//! The transposition table: bounds on the exact score of positions already searched, in
//! four-entry buckets of 64-bit entries; knows nothing of the board beyond its key.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize};

/// Entry layout (bit 63 set once written; zero means empty):
///
/// ```text
///  63    62..60    59..54  53..48   47..40   39..32    31..0
/// used check 32..34  work   best+1   upper+64 lower+64  check 0..31
/// ```
///
/// With `2^b` buckets, the 35-bit check is bits `b..b+35` of the key, and the bucket is the low `b`
/// bits of the key mixed (by exclusive or) with a hash of the bits above them. For a given check
/// the bucket is a one-to-one function of the low bits, so bucket and check identify the key
/// exactly whenever `key < 2^(b + 35)` (every key of a 7x6 board, whose keys are below 2^49, once
/// the table has 2^14 buckets). On larger boards two keys may share bucket and check, with a
/// chance of about 2^-35 per probe.
const USED: u64 = 1 << 63;
/// The bits of an entry that hold the check: 32 at the bottom, 3 more under `USED`.
const CHECK: u64 = 0x7 << 60 | 0xffff_ffff;
const OFFSET: i32 = 64;

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// The exact score is at least this.
    pub(crate) lower: i32,
    /// The exact score is at most this.
    pub(crate) upper: i32,
    /// The column that was best or refuted the last search, in the key's orientation.
    pub(crate) best: Option<u32>,
}

/// A fixed-size table of bounds keyed by position key, shared by the threads of one search:
/// every entry is one atomic 64-bit word, so a probe sees a whole entry or none, and a race
/// between two stores loses one of them, never mixes them.
pub(crate) struct Table {
    entries: Entries,
    /// `b`: the table has `2^b` buckets.
    bucket_bits: u32,
    /// `2^b - 1`.
    bucket_mask: u64,
    /// `64 - b`.
    mix_shift: u32,
    /// Buckets written since the last clear, so clearing after a small search costs little.
    written: WriteLog,
}

/// The first [`WRITE_LOG`] buckets given a new entry since the last clear; once more were, a
/// clear wipes the whole table.
struct WriteLog {
    len: AtomicUsize,
    buckets: Box<[AtomicU32]>,
}

/// Entries per bucket: four entries are 32 bytes, inside one cache line, so a probe still costs
/// one miss while a new entry can evict the least costly of four.
const WAYS: usize = 4;

/// How many written buckets are logged before a clear falls back to wiping the whole table.
const WRITE_LOG: usize = 1 << 14;

impl Table {
    /// A table of about `2^bits` entries (8 bytes each), at least 2^16 so that 7x6 keys are
    /// always told apart exactly.
    pub(crate) fn with_bits(bits: u32) -> Table {
        let bucket_bits = bits.clamp(16, 36) - WAYS.trailing_zeros();
        Table {
            entries: Entries::new(WAYS << bucket_bits),
            bucket_bits,
            bucket_mask: (1 << bucket_bits) - 1,
            mix_shift: 64 - bucket_bits,
            written: WriteLog {
                len: AtomicUsize::new(0),
                buckets: (0..WRITE_LOG).map(|_| AtomicU32::new(0)).collect(),
            },
        }
    }

    /// The table's size in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<u64>()
    }

    /// Forgets every entry. No search may use the table meanwhile.
    pub(crate) fn clear(&self) {
        let log = &self.written;
        let logged = log.len.load(Relaxed);
        if logged <= WRITE_LOG {
            for bucket in &log.buckets[..logged] {
                let slot = WAYS * bucket.load(Relaxed) as usize;
                for entry in &self.entries[slot..slot + WAYS] {
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

    /// The first entry of `key`'s bucket, and the check stored with it.
    #[inline]
    fn slot(&self, key: u64) -> (usize, u64) {
        let high = key >> self.bucket_bits;
        let bucket = (key ^ self.mix(high)) & self.bucket_mask;
        let check = (high & 0xffff_ffff) | (high >> 32 & 0x7) << 60;
        (WAYS * bucket as usize, USED | check)
    }

    /// A hash of a key's bits above the bucket's, below `2^b`. Fibonacci hashing: the top bits
    /// of the product depend on every bit of `high`.
    #[inline]
    fn mix(&self, high: u64) -> u64 {
        high.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.mix_shift
    }

    /// Starts loading `key`'s bucket into cache, so that several probes can wait on memory at
    /// once instead of one after the other.
    #[inline]
    #[allow(unsafe_code, reason = "a prefetch hint; see the SAFETY comment")]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let (slot, _) = self.slot(key);
            // SAFETY: prefetching never faults, and the address is inside `entries` anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(self.entries.as_ptr().add(slot).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Bounds> {
        let (slot, check) = self.slot(key);
        self.entries[slot..slot + WAYS]
            .iter()
            .map(|e| e.load(Relaxed))
            .find(|&e| e & (USED | CHECK) == check)
            .map(decode)
    }

    /// Records that `key`'s score lies in `lower..=upper`, merging with what is known, after a
    /// search of about `2^work` nodes. A new key takes the place of the bucket's entry with the
    /// least work behind it.
    #[inline]
    pub(crate) fn store(&self, key: u64, bounds: Bounds, work: u32) {
        let (slot, check) = self.slot(key);
        let work = work.min(63);
        let bucket: [u64; WAYS] = std::array::from_fn(|w| self.entries[slot + w].load(Relaxed));
        let (target, old) = match bucket.iter().position(|&e| e & (USED | CHECK) == check) {
            Some(way) => (slot + way, Some(bucket[way])),
            None => {
                let way = (0..WAYS).min_by_key(|&w| work_of(bucket[w])).unwrap_or(0);
                (slot + way, None)
            }
        };
        let (merged, work) = match old.map(|e| (decode(e), work_of(e))) {
            Some((known, known_work)) => {
                let lower = bounds.lower.max(known.lower);
                let upper = bounds.upper.min(known.upper);
                let merged = if lower <= upper {
                    Bounds {
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
                    let index = log.len.fetch_add(1, Relaxed);
                    if index < WRITE_LOG {
                        log.buckets[index].store((slot / WAYS) as u32, Relaxed);
                    }
                }
                (bounds, work)
            }
        };
        self.entries[target].store(encode(check, merged, work), Relaxed);
    }
}

#[inline]
fn work_of(entry: u64) -> u32 {
    ((entry >> 54) & 0x3f) as u32
}

#[inline]
fn encode(check: u64, bounds: Bounds, work: u32) -> u64 {
    let best = bounds.best.map_or(0, |c| c + 1) as u64;
    check
        | ((bounds.lower + OFFSET) as u64) << 32
        | ((bounds.upper + OFFSET) as u64) << 40
        | best << 48
        | (work as u64) << 54
}

#[inline]
fn decode(entry: u64) -> Bounds {
    let best = ((entry >> 48) & 0x3f) as u32;
    Bounds {
        lower: ((entry >> 32) & 0xff) as i32 - OFFSET,
        upper: ((entry >> 40) & 0xff) as i32 - OFFSET,
        best: best.checked_sub(1),
    }
}

/// The table's memory: zeroed `u64`s aligned to 2 MiB and, on Linux, advised to use huge
/// pages, because nearly every probe misses the cache and a huge-page TLB covers the whole table
/// where a 4 KiB one pays a page walk on top of the miss. The system zeroes the memory as each
/// page is first touched, so making a table costs next to nothing until a search uses it: a
/// session whose first answers come from the opening book never waits for its 64 MiB (writing
/// them at once took 8-175 ms).
struct Entries {
    /// The first entry: the allocation's first 2 MiB boundary.
    ptr: std::ptr::NonNull<u64>,
    len: usize,
    /// The allocation as made, 2 MiB longer than the entries so that they can start aligned.
    allocation: std::ptr::NonNull<u8>,
}

const HUGE_PAGE: usize = 2 << 20;

#[allow(
    unsafe_code,
    reason = "a raw zeroed allocation, aligned by hand for huge pages, which Vec cannot ask for"
)]
impl Entries {
    fn new(len: usize) -> Entries {
        let layout = Self::layout(len);
        // An alignment of 8 lets the allocator hand out fresh zero pages of the system (calloc)
        // instead of writing zeros; the 2 MiB alignment is then found inside the allocation.
        // SAFETY: the layout has a non-zero size (the table has at least 2^14 buckets).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let Some(allocation) = std::ptr::NonNull::new(raw) else {
            std::alloc::handle_alloc_error(layout)
        };
        let offset = (HUGE_PAGE - raw as usize % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `offset < HUGE_PAGE`, so the entries, `len * 8` bytes from there, lie inside
        // the allocation of `len * 8 + HUGE_PAGE` bytes; the start is aligned to 8 and more.
        let ptr = unsafe { std::ptr::NonNull::new_unchecked(raw.add(offset).cast::<u64>()) };
        advise_huge_pages(ptr.as_ptr().cast(), len * std::mem::size_of::<u64>());
        Entries {
            ptr,
            len,
            allocation,
        }
    }

    fn layout(len: usize) -> std::alloc::Layout {
        let bytes = len * std::mem::size_of::<u64>() + HUGE_PAGE;
        std::alloc::Layout::from_size_align(bytes, std::mem::align_of::<u64>())
            .expect("a table size below isize::MAX")
    }
}

#[allow(
    unsafe_code,
    reason = "the allocation seen as atomics; see the SAFETY comment"
)]
impl std::ops::Deref for Entries {
    type Target = [AtomicU64];
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` holds `len` zero-initialised `u64`s for the life of `self`, and
        // `AtomicU64` has the size and alignment of `u64`; all access goes through atomics.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr().cast::<AtomicU64>(), self.len) }
    }
}

#[allow(unsafe_code, reason = "frees the allocation made in Entries::new")]
impl Drop for Entries {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this very layout.
        unsafe { std::alloc::dealloc(self.allocation.as_ptr(), Self::layout(self.len)) };
    }
}

// SAFETY: `Entries` owns its memory outright, like a `Vec<u64>`.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_bounds_come_back_and_merge() {
        let table = Table::with_bits(18);
        let key = 0x1_2345_6789;
        assert_eq!(table.probe(key), None);
        let wide = Bounds {
            lower: -3,
            upper: 10,
            best: Some(2),
        };
        table.store(key, wide, 5);
        assert_eq!(table.probe(key), Some(wide));
        table.store(
            key,
            Bounds {
                lower: -30,
                upper: 4,
                best: None,
            },
            1,
        );
        assert_eq!(
            table.probe(key),
            Some(Bounds {
                lower: -3,
                upper: 4,
                best: Some(2)
            })
        );
        table.clear();
        assert_eq!(table.probe(key), None);
    }

    #[test]
    fn the_empty_board_key_is_not_an_empty_slot() {
        let table = Table::with_bits(18);
        assert_eq!(table.probe(0), None);
    }

    #[test]
    fn bucket_and_check_give_back_every_49_bit_key() {
        let table = Table::with_bits(16);
        let bits = table.bucket_bits;
        let mut key = 0x1_2345_6789_abcd_u64;
        for _ in 0..10_000 {
            key = key.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1) >> 15;
            let (slot, check) = table.slot(key);
            let high = check & 0xffff_ffff | (check >> 60 & 0x7) << 32;
            let low = (slot / WAYS) as u64 ^ table.mix(high);
            assert_eq!(high << bits | low, key);
            assert!(slot + WAYS <= table.entries.len());
        }
    }

    #[test]
    fn the_smallest_table_keeps_7x6_keys_exact() {
        assert_eq!(Table::with_bits(1).bucket_bits, 14);
    }
}
