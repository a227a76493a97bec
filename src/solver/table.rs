//! The transposition table: bounds on the exact score of positions already searched, in
//! four-entry buckets of 64-bit entries; knows nothing of the board beyond its key.

/// Entry layout (bit 63 set once written; zero means empty):
///
/// ```text
///  63  62..60  59..54  53..48   47..40   39..32   31..0
/// used  spare   work   best+1   upper+64 lower+64  key mod 2^32
/// ```
///
/// The bucket is `key mod buckets` with `buckets` prime, so the bucket and the low 32 bits of the
/// key together identify the key exactly whenever `key < buckets * 2^32` (every key of a 7x6
/// board, whose keys are below 2^49, once the table has 2^17 buckets). On larger boards two keys
/// may share a bucket and low bits, with a chance of about 2^-32 per probe.
const USED: u64 = 1 << 63;
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

/// A fixed-size table of bounds keyed by position key.
pub(crate) struct Table {
    entries: Entries,
    buckets: u64,
    /// `floor(2^64 / buckets)`, so that `key % buckets` costs a multiplication instead of a
    /// division (a 64-bit division by a value known only at run time is the slowest
    /// instruction on the probe path).
    reciprocal: u64,
    /// Buckets written since the last clear, so clearing after a small search costs little;
    /// `None` once more were written than it is worth logging.
    written: Option<Vec<u32>>,
}

/// Entries per bucket: four entries are 32 bytes, inside one cache line, so a probe still costs
/// one miss while a new entry can evict the least costly of four.
const WAYS: usize = 4;

/// How many written buckets are logged before a clear falls back to wiping the whole table.
const WRITE_LOG: usize = 1 << 14;

impl Table {
    /// A table of about `2^bits` entries (8 bytes each), at least 2^19 so that 7x6 keys are
    /// always told apart exactly.
    pub(crate) fn with_bits(bits: u32) -> Table {
        let buckets = smallest_prime_from((1u64 << bits.clamp(19, 36)) / WAYS as u64);
        Table {
            entries: Entries::new(WAYS * buckets as usize),
            buckets,
            reciprocal: (u128::from(u64::MAX) + 1).div_euclid(u128::from(buckets)) as u64,
            written: Some(Vec::with_capacity(WRITE_LOG)),
        }
    }

    /// The table's size in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<u64>()
    }

    /// Forgets every entry.
    pub(crate) fn clear(&mut self) {
        match self.written.as_mut() {
            Some(log) => {
                for &bucket in log.iter() {
                    let slot = WAYS * bucket as usize;
                    self.entries[slot..slot + WAYS].fill(0);
                }
                log.clear();
            }
            None => {
                self.entries.fill(0);
                self.written = Some(Vec::with_capacity(WRITE_LOG));
            }
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        // The estimated quotient is the true one or one less, so one correction suffices.
        let quotient = ((u128::from(key) * u128::from(self.reciprocal)) >> 64) as u64;
        let mut rest = key - quotient * self.buckets;
        if rest >= self.buckets {
            rest -= self.buckets;
        }
        WAYS * rest as usize
    }

    /// Starts loading `key`'s bucket into cache, so that several probes can wait on memory at
    /// once instead of one after the other.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot = self.slot(key);
            // SAFETY: prefetching never faults, and the address is inside `entries` anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(self.entries.as_ptr().add(slot).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Bounds> {
        let slot = self.slot(key);
        let check = USED | (key & 0xffff_ffff);
        let found = self.entries[slot..slot + WAYS]
            .iter()
            .find(|&&e| e & (USED | 0xffff_ffff) == check)?;
        Some(decode(*found))
    }

    /// Records that `key`'s score lies in `lower..=upper`, merging with what is known, after a
    /// search of about `2^work` nodes. A new key takes the place of the bucket's entry with the
    /// least work behind it.
    #[inline]
    pub(crate) fn store(&mut self, key: u64, bounds: Bounds, work: u32) {
        let slot = self.slot(key);
        let check = USED | (key & 0xffff_ffff);
        let work = work.min(63);
        let bucket = &self.entries[slot..slot + WAYS];
        let (target, old) = match bucket
            .iter()
            .position(|&e| e & (USED | 0xffff_ffff) == check)
        {
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
                if let Some(log) = self.written.as_mut() {
                    if log.len() < WRITE_LOG {
                        log.push((slot / WAYS) as u32);
                    } else {
                        self.written = None;
                    }
                }
                (bounds, work)
            }
        };
        self.entries[target] = encode(key, merged, work);
    }
}

#[inline]
fn work_of(entry: u64) -> u32 {
    ((entry >> 54) & 0x3f) as u32
}

#[inline]
fn encode(key: u64, bounds: Bounds, work: u32) -> u64 {
    let best = bounds.best.map_or(0, |c| c + 1) as u64;
    USED | (key & 0xffff_ffff)
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

/// The table's memory: zeroed `u64`s aligned to 2 MiB and, on Linux x86-64, advised to use huge
/// pages, because nearly every probe misses the cache and a huge-page TLB covers the whole table
/// where a 4 KiB one pays a page walk on top of the miss.
struct Entries {
    ptr: std::ptr::NonNull<u64>,
    len: usize,
}

const HUGE_PAGE: usize = 2 << 20;

impl Entries {
    fn new(len: usize) -> Entries {
        let layout = Self::layout(len);
        // SAFETY: the layout has a non-zero size (the table has at least 2^17 buckets).
        let raw = unsafe { std::alloc::alloc(layout) };
        let Some(ptr) = std::ptr::NonNull::new(raw.cast::<u64>()) else {
            std::alloc::handle_alloc_error(layout)
        };
        advise_huge_pages(raw, layout.size());
        // Writing every entry now also moves the page faults out of the first searches.
        // SAFETY: `ptr` points to `len` properly aligned, allocated `u64`s.
        unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, len) };
        Entries { ptr, len }
    }

    fn layout(len: usize) -> std::alloc::Layout {
        std::alloc::Layout::from_size_align(len * std::mem::size_of::<u64>(), HUGE_PAGE)
            .expect("a table size below isize::MAX")
    }
}

impl std::ops::Deref for Entries {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        // SAFETY: `ptr` holds `len` initialised `u64`s for the life of `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for Entries {
    fn deref_mut(&mut self) -> &mut [u64] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Entries {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this very layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), Self::layout(self.len)) };
    }
}

// SAFETY: `Entries` owns its memory outright, like a `Vec<u64>`.
unsafe impl Send for Entries {}
// SAFETY: shared access only reads.
unsafe impl Sync for Entries {}

/// `madvise(MADV_HUGEPAGE)`, called directly since the crate has no libc binding; a refusal
/// only costs speed, so its result is ignored.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    const SYS_MADVISE: usize = 28;
    const MADV_HUGEPAGE: usize = 14;
    // SAFETY: madvise only changes paging hints for memory this process owns; the syscall
    // clobbers rcx and r11, declared below.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") SYS_MADVISE => _,
            in("rdi") ptr,
            in("rsi") len,
            in("rdx") MADV_HUGEPAGE,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
}

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

fn smallest_prime_from(n: u64) -> u64 {
    let is_prime = |m: u64| {
        m > 1
            && (2..)
                .take_while(|d| d * d <= m)
                .all(|d| !m.is_multiple_of(d))
    };
    (n..).find(|&m| is_prime(m)).expect("primes are unbounded")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_bounds_come_back_and_merge() {
        let mut table = Table::with_bits(18);
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
    fn slots_are_the_key_modulo_the_bucket_count() {
        let table = Table::with_bits(20);
        for key in [
            0,
            1,
            table.buckets - 1,
            table.buckets,
            u64::MAX,
            0x1234_5678_9abc_def0,
        ] {
            assert_eq!(
                table.slot(key),
                WAYS * (key % table.buckets) as usize,
                "{key}"
            );
        }
    }

    #[test]
    fn buckets_are_prime() {
        assert_eq!(smallest_prime_from(90), 97);
        assert!(Table::with_bits(19).buckets >= 1 << 17);
    }
}
