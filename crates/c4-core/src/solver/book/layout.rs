//! The book in the file's layout: [`Book`], read where it lies, written, looked up; the plies left out; the checksum.

use std::borrow::Cow;

use super::error::BookError;
use super::format::{
    format_version, read_u32, read_u64, FORMAT_VERSION, MAGIC, MAX_LEFT_OUT_IN_A_ROW,
};
use super::keys::{canonical_key, position_of_key};
use super::numbering::Numbering;
use crate::solver::position::Position;
use crate::solver::score::Score;

/// The size of the header before the ply records, in bytes.
const FIXED_HEADER_BYTES: usize = 40;
/// The size of one ply's record in the header.
const PLY_RECORD_BYTES: usize = 16;
/// The size of a version 2 header in bytes.
const V2_HEADER_BYTES: usize = 48;
/// The positions a version 1 file of any entries may number (a bitmap of 16 MiB), and per entry
/// beyond that: a version 1 file holds no bitmap, so this bounds what its few bytes can ask for.
const V1_NUMBERS_ALWAYS: u64 = 1 << 27;
const V1_NUMBERS_PER_ENTRY: u64 = 64;
/// The size of a version 1 header and entry in bytes.
const V1_HEADER_BYTES: usize = 32;
const V1_ENTRY_BYTES: usize = 8;
/// Bits of the bitmap counted by one directory entry.
const DIRECTORY_SPAN: u64 = 512;

/// Exact scores of the positions of one board size up to a depth, in the layout of the book
/// file, read where it lies.
#[derive(Debug, Clone)]
pub struct Book {
    width: u32,
    height: u32,
    depth: u32,
    numbering: Numbering,
    count: u64,
    /// Where each ply's entries lie, for 0 stones to `depth`.
    plies: Vec<PlyLayout>,
    /// The bits of the bitmap.
    numbers: u64,
    /// The whole file, header included.
    bytes: Cow<'static, [u8]>,
    bitmap_at: usize,
    directory_at: usize,
    scores_at: usize,
}

impl PartialEq for Book {
    fn eq(&self, other: &Book) -> bool {
        self.bytes == other.bytes
    }
}

impl Eq for Book {}

/// How many lookups [`Book::score_each`] makes side by side: a board's children, on 7 columns.
const SIDE_BY_SIDE: usize = 8;

/// A position's place in the book: its ply and number in the bitmap, then, once loaded
/// ([`Book::load`]), its bitmap word and the entries before its directory block.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    stones: u32,
    number: u64,
    word: u64,
    before_block: u32,
}

/// What [`Book::locate`] finds.
enum Located {
    /// The score, with no entry of a stored ply to read.
    Known(Option<Score>),
    /// The entry to read.
    Stored(Entry),
}

/// Where one ply's entries lie in a book file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PlyLayout {
    /// Bits of a score; 0 when the ply is not stored.
    score_bits: u32,
    score_base: i32,
    /// Its entries.
    count: u64,
    /// Its first number in the bitmap.
    first_bit: u64,
    /// The entries of the plies before.
    first_rank: u64,
    /// Its first bit in the score section.
    first_score_bit: u64,
}

impl PlyLayout {
    fn is_stored(&self) -> bool {
        self.score_bits > 0
    }
}

/// The plies of a book laid out one after the other, from each one's (score bits, base, count),
/// and the bits of the bitmap and of the scores in all.
fn lay_out(numbering: &Numbering, plies: &[(u32, i32, u64)]) -> (Vec<PlyLayout>, u64, u64) {
    let (mut bit, mut rank, mut score_bit) = (0u64, 0u64, 0u64);
    let mut layouts = Vec::with_capacity(plies.len());
    for (stones, &(score_bits, score_base, count)) in plies.iter().enumerate() {
        layouts.push(PlyLayout {
            score_bits,
            score_base,
            count,
            first_bit: bit,
            first_rank: rank,
            first_score_bit: score_bit,
        });
        if score_bits > 0 {
            bit += numbering.ply_len(stones as u32);
            rank += count;
            score_bit += count * u64::from(score_bits);
        }
    }
    (layouts, bit, score_bit)
}

/// The sizes of a version 3 file's parts, in bytes.
struct Layout {
    header: usize,
    bitmap: usize,
    directory: usize,
    scores: usize,
}

impl Layout {
    fn of(depth: u32, numbers: u64, score_bits: u64) -> Layout {
        let words = |bits: u64| bits.div_ceil(64) as usize * 8;
        Layout {
            header: header_bytes(depth),
            bitmap: words(numbers),
            directory: words(numbers.div_ceil(DIRECTORY_SPAN) * 32),
            scores: words(score_bits) + 8,
        }
    }

    fn file_bytes(&self) -> u64 {
        (self.header + self.bitmap + self.directory + self.scores) as u64
    }
}

/// The header of a version 3 file of depth `depth`, ply records included.
fn header_bytes(depth: u32) -> usize {
    FIXED_HEADER_BYTES + PLY_RECORD_BYTES * (depth as usize + 1)
}

impl Book {
    /// A book of `width` x `height` positions complete to `depth` stones, every ply stored, from
    /// (canonical key, score) pairs in any order.
    ///
    /// # Errors
    /// As `Book::from_scores_leaving_out`.
    pub fn from_scores(
        width: u32,
        height: u32,
        depth: u32,
        scores: impl IntoIterator<Item = (u64, Score)>,
    ) -> Result<Book, BookError> {
        Book::from_scores_leaving_out(width, height, depth, &[], scores)
    }

    /// A book of `width` x `height` positions complete to `depth` stones, from (canonical key,
    /// score) pairs in any order, that stores no ply in `left_out`: their scores are computed
    /// from the next ply's at lookup (their entries, if given, are dropped).
    ///
    /// # Errors
    /// [`BookError::Board`] or [`BookError::TooLarge`] for a board and depth a book cannot
    /// hold, [`BookError::Derived`] for a ply left out that is not below the deepest,
    /// [`BookError::BadKey`] for a key of no position up to the depth, [`BookError::Unsorted`]
    /// when a key repeats, [`BookError::BadScore`] for a score out of range.
    pub(crate) fn from_scores_leaving_out(
        width: u32,
        height: u32,
        depth: u32,
        left_out: &[u32],
        scores: impl IntoIterator<Item = (u64, Score)>,
    ) -> Result<Book, BookError> {
        check_board(width, height)?;
        let numbering = Numbering::new(width, height, depth)?;
        if let Some(ply) = misplaced_left_out(depth, left_out) {
            return Err(BookError::Derived { ply, depth });
        }
        let limit = score_limit(width, height);
        let mut numbered = Vec::new();
        for (index, (key, score)) in scores.into_iter().enumerate() {
            let index = index as u64;
            let position = position_of_key(width, height, key)
                .ok()
                .filter(|p| p.moves_played() <= depth && canonical_key(p) == key)
                .ok_or(BookError::BadKey { index, depth })?;
            let score = i32::from(score.value());
            if score.abs() > limit {
                return Err(BookError::BadScore {
                    index,
                    score,
                    limit,
                });
            }
            let stones = position.moves_played();
            if !left_out.contains(&stones) {
                numbered.push((numbering.number(&position), stones, score));
            }
        }
        numbered.sort_unstable();
        if let Some(index) = numbered.windows(2).position(|pair| pair[0].0 == pair[1].0) {
            return Err(BookError::Unsorted {
                index: index as u64 + 1,
            });
        }
        Ok(Book::from_bytes(&file_bytes(
            width, height, depth, &numbering, left_out, &numbered,
        ))
        .expect("a book laid out from checked entries reads back"))
    }

    /// The same book with every ply stored: each ply left out gets the entries its lookups
    /// compute from the next ply's (`score_from_children`), so that a lookup there reads one
    /// entry instead of each child's. The scores are the same; the file is larger by the plies'
    /// bitmaps and scores. A book that stores every ply comes back unchanged.
    ///
    /// Not `#[inline]` nor generic, so that it is compiled, optimized, where the book is (a
    /// build script derives the Python package's book with it).
    pub fn with_every_ply_stored(&self) -> Book {
        let mut numbered = Vec::new();
        let mut stored = self.numbers().zip(0u64..);
        for stones in 0..=self.depth {
            let ply = &self.plies[stones as usize];
            if ply.is_stored() {
                let entries = stored.by_ref().take(ply.count as usize);
                numbered.extend(entries.map(|((_, number), rank)| {
                    (number, stones, i32::from(self.score_at(ply, rank).value()))
                }));
                continue;
            }
            let first = self.numbering.first(stones);
            for number in first..first + self.numbering.ply_len(stones) {
                let position = self
                    .numbering
                    .key_of_number(number)
                    .and_then(|key| position_of_key(self.width, self.height, key).ok());
                // Positions where the mover wins at once have no score, as in a stored ply.
                if let Some(score) = position.and_then(|p| self.score(&p)) {
                    numbered.push((number, stones, i32::from(score.value())));
                }
            }
        }
        let bytes = file_bytes(
            self.width,
            self.height,
            self.depth,
            &self.numbering,
            &[],
            &numbered,
        );
        Book::parse(Cow::Owned(bytes)).expect("a book laid out from a book's entries reads back")
    }

    /// Reads a book from the bytes of a book file (version 1, 2 or 3), checking everything the
    /// format promises.
    ///
    /// # Errors
    /// Whatever is wrong with the bytes, as a [`BookError`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        match format_version(bytes) {
            Some(1) => return Book::from_version_1(bytes),
            Some(2) => return Book::from_version_2(bytes),
            _ => {}
        }
        let book = Book::parse(Cow::Owned(bytes.to_vec()))?;
        book.check_contents()?;
        Ok(book)
    }

    /// Reads a book where its bytes lie, from a version 3 file compiled into the binary: only
    /// the header is read and checked, so that the contents cost nothing until a lookup reads
    /// them. The unchecked twin of [`Book::from_bytes`], for bytes that a test checks in full
    /// with it: contents that contradict the header give wrong scores, or a panic, at lookup.
    ///
    /// # Errors
    /// A header that is not a version 3 book's, or does not match the file's length.
    pub(crate) fn from_static_unchecked(bytes: &'static [u8]) -> Result<Book, BookError> {
        Book::parse(Cow::Borrowed(bytes))
    }

    /// Reads a version 3 book file shipped with the program rather than compiled in (the
    /// WebAssembly build's, which its page fetches from the same server as the engine): the
    /// header and the checksum of the whole file are checked, so that a file cut short or
    /// damaged on its way is refused, but not the rest of [`Book::from_bytes`]'s checks, which
    /// take seconds in a browser (6 s under Node, against milliseconds for the checksum). As for
    /// `Book::from_static_unchecked`, a test checks the shipped file in full; a file made to
    /// match its checksum while contradicting its header gives wrong scores, or a panic.
    ///
    /// # Errors
    /// A header that is not a version 3 book's, a length that does not match it, or a wrong
    /// checksum.
    pub fn from_shipped_file(bytes: Vec<u8>) -> Result<Book, BookError> {
        let book = Book::parse(Cow::Owned(bytes))?;
        book.check_checksum()?;
        Ok(book)
    }

    /// The header of a version 3 file, and the book that reads it; the contents are not
    /// checked beyond their length.
    fn parse(bytes: Cow<'static, [u8]>) -> Result<Book, BookError> {
        if bytes.len() >= 8 && &bytes[..8] != MAGIC {
            return Err(BookError::BadMagic);
        }
        if bytes.len() >= 12 && read_u32(&bytes, 8) != FORMAT_VERSION {
            return Err(BookError::Version {
                found: read_u32(&bytes, 8),
            });
        }
        let (width, height, depth) = board_of_header(&bytes, FIXED_HEADER_BYTES)?;
        let numbering = Numbering::new(width, height, depth)?;
        let header = header_bytes(depth);
        if bytes.len() < header {
            return Err(BookError::Truncated {
                expected: header as u64,
                found: bytes.len() as u64,
            });
        }
        let mut plies = Vec::with_capacity(depth as usize + 1);
        for stones in 0..=depth {
            let record = &bytes[FIXED_HEADER_BYTES + PLY_RECORD_BYTES * stones as usize..]
                [..PLY_RECORD_BYTES];
            let (score_bits, score_base) = (u32::from(record[0]), i32::from(record[1] as i8));
            let count = read_u64(record, 8);
            let stored = score_bits > 0;
            if score_bits > 8
                || record[2..8] != [0; 6]
                || (!stored && (score_base != 0 || count != 0 || stones == depth))
                || count > numbering.ply_len(stones)
            {
                return Err(BookError::Inconsistent {
                    what: "record of a ply has a score width over 8 bits, a reserved byte set, more entries than positions, or leaves out the deepest ply",
                });
            }
            plies.push((score_bits, score_base, count));
        }
        let left_out: Vec<u32> = (0..=depth).filter(|&p| plies[p as usize].0 == 0).collect();
        if misplaced_left_out(depth, &left_out).is_some() {
            return Err(BookError::Inconsistent {
                what: "header leaves out more plies in a row than a lookup may compute",
            });
        }
        let count = read_u64(&bytes, 16);
        let (plies, numbers, score_bits) = lay_out(&numbering, &plies);
        if bytes[15] != 0
            || read_u64(&bytes, 24) != numbers
            || plies.iter().map(|p| p.count).sum::<u64>() != count
        {
            return Err(BookError::Inconsistent {
                what: "header does not match its board, depth and plies",
            });
        }
        let layout = Layout::of(depth, numbers, score_bits);
        check_length(bytes.len() as u64, layout.file_bytes())?;
        Ok(Book {
            width,
            height,
            depth,
            numbering,
            count,
            plies,
            numbers,
            bitmap_at: layout.header,
            directory_at: layout.header + layout.bitmap,
            scores_at: layout.header + layout.bitmap + layout.directory,
            bytes,
        })
    }

    /// Checks that the file's checksum is the one its header holds.
    fn check_checksum(&self) -> Result<(), BookError> {
        let bytes = &self.bytes[..];
        match checksum(&bytes[..32], &bytes[FIXED_HEADER_BYTES..]) == read_u64(bytes, 32) {
            true => Ok(()),
            false => Err(BookError::Checksum),
        }
    }

    /// Checks the checksum, that the directory counts the bitmap, that each ply's numbers mark as
    /// many entries as it says, every one of a position under its own number (so that
    /// [`Book::entries`] can list it), and every score's range.
    fn check_contents(&self) -> Result<(), BookError> {
        self.check_checksum()?;
        let bytes = &self.bytes[..];
        let bitmap = &bytes[self.bitmap_at..self.directory_at];
        let last = bitmap.len() as u64 * 8;
        if (self.numbers..last).any(|bit| bitmap[(bit / 8) as usize] >> (bit % 8) & 1 == 1) {
            return Err(BookError::Inconsistent {
                what: "bitmap marks a number past the last position",
            });
        }
        let mut before = 0u64;
        for (block, chunk) in bitmap.chunks(DIRECTORY_SPAN as usize / 8).enumerate() {
            if u64::from(read_u32(bytes, self.directory_at + block * 4)) != before {
                return Err(BookError::Inconsistent {
                    what: "directory does not count the bitmap's entries",
                });
            }
            before += chunk.iter().map(|b| u64::from(b.count_ones())).sum::<u64>();
        }
        let blocks = self.numbers.div_ceil(DIRECTORY_SPAN) as usize;
        let padding = self.directory_at + blocks * 4..self.scores_at;
        let score_bits = self.plies.iter().map(|p| p.count * u64::from(p.score_bits));
        let score_end = self.scores_at + score_bits.sum::<u64>().div_ceil(8) as usize;
        if before != self.count
            || bytes[padding].iter().any(|&b| b != 0)
            || bytes[score_end..].iter().any(|&b| b != 0)
        {
            return Err(BookError::Inconsistent {
                what: "entry count does not match its bitmap, or its padding is not zero",
            });
        }
        let limit = score_limit(self.width, self.height);
        let mut per_ply = vec![0u64; self.plies.len()];
        for (index, (stones, number)) in self.numbers().enumerate() {
            let index = index as u64;
            let ply = &self.plies[stones as usize];
            per_ply[stones as usize] += 1;
            // Each ply's entries must be the ones its record places: the scores of the others
            // would be read from another ply's bits.
            if per_ply[stones as usize] > ply.count
                || index != ply.first_rank + per_ply[stones as usize] - 1
            {
                return Err(BookError::Inconsistent {
                    what: "entries of a ply do not match its bitmap",
                });
            }
            if self.numbering.key_of_number(number).is_none() {
                return Err(BookError::BadKey {
                    index,
                    depth: self.depth,
                });
            }
            let score = i32::from(self.score_at(ply, index).value());
            if score.abs() > limit {
                return Err(BookError::BadScore {
                    index,
                    score,
                    limit,
                });
            }
        }
        if per_ply.iter().zip(&self.plies).any(|(&n, p)| n != p.count) {
            return Err(BookError::Inconsistent {
                what: "entries of a ply do not match its bitmap",
            });
        }
        Ok(())
    }

    /// Reads a version 2 file and lays it out as version 3.
    fn from_version_2(bytes: &[u8]) -> Result<Book, BookError> {
        let (width, height, depth) = board_of_header(bytes, V2_HEADER_BYTES)?;
        let numbering = Numbering::new(width, height, depth)?;
        let (score_bits, score_base) = (u64::from(bytes[15]), i32::from(bytes[16] as i8));
        let count = read_u64(bytes, 24);
        if !(1..=8).contains(&score_bits)
            || read_u64(bytes, 32) != numbering.len()
            || count > numbering.len()
        {
            return Err(BookError::Inconsistent {
                what: "header does not match its board and depth",
            });
        }
        let words = |bits: u64| bits.div_ceil(64) * 8;
        let bitmap = words(numbering.len());
        let directory = words(numbering.len().div_ceil(DIRECTORY_SPAN) * 32);
        let scores = words(count * score_bits) + 8;
        check_length(
            bytes.len() as u64,
            V2_HEADER_BYTES as u64 + bitmap + directory + scores,
        )?;
        if checksum(&bytes[..40], &bytes[V2_HEADER_BYTES..]) != read_u64(bytes, 40) {
            return Err(BookError::Checksum);
        }
        let scores_at = V2_HEADER_BYTES + (bitmap + directory) as usize;
        let mut entries = Vec::with_capacity(count as usize);
        for number in set_bits(
            &bytes[V2_HEADER_BYTES..][..bitmap as usize],
            0..numbering.len(),
        ) {
            let index = entries.len() as u64;
            let key = numbering
                .key_of_number(number)
                .filter(|_| index < count)
                .ok_or(BookError::BadKey { index, depth })?;
            let score = score_base + read_bits(bytes, scores_at, index * score_bits, score_bits);
            entries.push((key, Score::new(score.clamp(-128, 127) as i8)));
        }
        if entries.len() as u64 != count {
            return Err(BookError::Inconsistent {
                what: "entry count does not match its bitmap",
            });
        }
        Book::from_scores(width, height, depth, entries)
    }

    /// Reads a version 1 file and lays it out as version 3.
    fn from_version_1(bytes: &[u8]) -> Result<Book, BookError> {
        let (width, height, depth) = board_of_header(bytes, V1_HEADER_BYTES)?;
        let count = read_u64(bytes, 16);
        let expected = count
            .checked_mul(V1_ENTRY_BYTES as u64)
            .and_then(|body| body.checked_add(V1_HEADER_BYTES as u64))
            .unwrap_or(u64::MAX);
        check_length(bytes.len() as u64, expected)?;
        let body = &bytes[V1_HEADER_BYTES..];
        if checksum(&bytes[..24], body) != read_u64(bytes, 24) {
            return Err(BookError::Checksum);
        }
        let entries: Vec<u64> = body
            .chunks_exact(V1_ENTRY_BYTES)
            .map(|e| u64::from_le_bytes(e.try_into().expect("8 bytes")))
            .collect();
        if let Some(index) = entries.windows(2).position(|p| p[0] >> 8 >= p[1] >> 8) {
            return Err(BookError::Unsorted {
                index: index as u64 + 1,
            });
        }
        // A version 1 file holds its entries alone, where the layout it becomes holds a bit per
        // numbered position: a few bytes naming a deep book would take gigabytes to lay out.
        // A whole book numbers about 4 positions per entry (7x6 to depth 13: 57M for 13.7M).
        let numbers = Numbering::new(width, height, depth)?.len();
        if numbers > V1_NUMBERS_ALWAYS.max(V1_NUMBERS_PER_ENTRY * entries.len() as u64) {
            return Err(BookError::TooSparse {
                width,
                height,
                depth,
                entries: entries.len() as u64,
            });
        }
        let scores = entries.iter().map(|&e| (e >> 8, Score::new(e as u8 as i8)));
        Book::from_scores(width, height, depth, scores)
    }

    /// The bytes of the book file (always the current version).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes.to_vec()
    }

    /// Board columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Board rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Every position with at most this many stones is in the book (unless the side to move
    /// wins at once).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The number of entries stored.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether the book stores no entries.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The entries stored with each number of stones, 0 to the depth; `None` for a ply not
    /// stored, whose scores come from the next ply's.
    pub fn entries_per_ply(&self) -> Vec<Option<u64>> {
        self.plies
            .iter()
            .map(|p| p.is_stored().then_some(p.count))
            .collect()
    }

    /// The (stones, number) of every entry, in the bitmap's order.
    fn numbers(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        let bitmap = &self.bytes[self.bitmap_at..self.directory_at];
        let stored = self.plies.iter().zip(0u32..).filter(|(p, _)| p.is_stored());
        stored.flat_map(move |(ply, stones)| {
            let bits = ply.first_bit..ply.first_bit + self.numbering.ply_len(stones);
            let first = self.numbering.first(stones);
            set_bits(bitmap, bits).map(move |bit| (stones, first + bit - ply.first_bit))
        })
    }

    /// Every (canonical key, score) pair stored, in the book's order (ply by ply).
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (u64, Score)> + '_ {
        let mut numbers = self.numbers();
        (0..self.count as usize).map(move |rank| {
            let (stones, number) = numbers.next().expect("the directory counts the bitmap");
            let key = self
                .numbering
                .key_of_number(number)
                .expect("the book marks only positions");
            (
                key,
                self.score_at(&self.plies[stones as usize], rank as u64),
            )
        })
    }

    /// Whether the book is for `position`'s board size.
    pub fn fits(&self, position: &Position) -> bool {
        position.width() == self.width && position.height() == self.height
    }

    /// The exact score of `position`, if it is in the book. Positions deeper than the book, of
    /// another board size, or where the side to move wins at once are not.
    #[inline]
    pub fn score(&self, position: &Position) -> Option<Score> {
        match self.locate(position) {
            Located::Known(score) => score,
            Located::Stored(entry) => self.stored_score(self.load(entry)),
        }
    }

    /// [`Book::score`] of each of `positions`, handed to `found` with the tag it comes with:
    /// the lookups are made eight at a time, every bitmap word and directory entry read before
    /// any rank is counted, so that the cache misses of positions far apart in the book (an
    /// analysis's children) overlap rather than follow one another.
    #[inline]
    pub(crate) fn score_each<T: Copy>(
        &self,
        positions: impl IntoIterator<Item = (T, Position)>,
        mut found: impl FnMut(T, Option<Score>),
    ) {
        let mut positions = positions.into_iter().peekable();
        while positions.peek().is_some() {
            let mut stored = [None; SIDE_BY_SIDE];
            let mut count = 0;
            for (tag, position) in positions.by_ref().take(SIDE_BY_SIDE) {
                match self.locate(&position) {
                    Located::Known(score) => found(tag, score),
                    Located::Stored(entry) => {
                        stored[count] = Some((tag, entry));
                        count += 1;
                    }
                }
            }
            let stored = &mut stored[..count];
            for (_, entry) in stored.iter_mut().flatten() {
                *entry = self.load(*entry);
            }
            for &(tag, entry) in stored.iter().flatten() {
                found(tag, self.stored_score(entry));
            }
        }
    }

    /// Where `position`'s entry would lie, or its score when no entry of a stored ply holds it.
    #[inline]
    fn locate(&self, position: &Position) -> Located {
        let stones = position.moves_played();
        if stones > self.depth || !self.fits(position) {
            return Located::Known(None);
        }
        let ply = &self.plies[stones as usize];
        if !ply.is_stored() {
            return Located::Known(self.score_from_children(position));
        }
        let number = ply.first_bit + self.numbering.number(position) - self.numbering.first(stones);
        Located::Stored(Entry {
            stones,
            number,
            ..Entry::default()
        })
    }

    /// `entry` with its bitmap word and directory entry read: the loads that miss the cache.
    #[inline]
    fn load(&self, entry: Entry) -> Entry {
        let block = entry.number / DIRECTORY_SPAN;
        Entry {
            word: read_u64(
                &self.bytes,
                self.bitmap_at + (entry.number / 64) as usize * 8,
            ),
            before_block: read_u32(&self.bytes, self.directory_at + block as usize * 4),
            ..entry
        }
    }

    /// The score of a loaded entry ([`Book::load`]), `None` if its bit is not set.
    #[inline]
    fn stored_score(&self, entry: Entry) -> Option<Score> {
        let (number, word) = (entry.number, entry.word);
        let bit = number % 64;
        if word >> bit & 1 == 0 {
            return None;
        }
        let block = number / DIRECTORY_SPAN;
        let mut rank = u64::from(entry.before_block);
        for word_index in block * (DIRECTORY_SPAN / 64)..number / 64 {
            rank += u64::from(
                read_u64(&self.bytes, self.bitmap_at + word_index as usize * 8).count_ones(),
            );
        }
        rank += u64::from((word & ((1u64 << bit) - 1)).count_ones());
        Some(self.score_at(&self.plies[entry.stones as usize], rank))
    }

    /// The score of a position of a ply not stored, from its children's; `None` where a stored
    /// ply would have no entry: the game is over, the side to move wins at once, or a child is
    /// missing (a position no game reaches).
    #[cold]
    fn score_from_children(&self, position: &Position) -> Option<Score> {
        if position.is_won() || position.can_win_next() {
            return None;
        }
        score_from_children(position, |child| self.score(child))
    }

    /// The least score of `position` that the book's scores of its parents allow: no move scores
    /// more than its position, so a position scores at least minus each parent's score. `None`
    /// when the book holds none of its parents.
    pub fn floor(&self, position: &Position) -> Option<Score> {
        if position.moves_played() > self.depth + 1 {
            return None;
        }
        position
            .parents()
            .filter_map(|parent| self.score(&parent))
            .map(Score::flipped)
            .max()
    }

    /// The score of the entry of rank `rank` (among all entries), of ply `ply`.
    #[inline]
    fn score_at(&self, ply: &PlyLayout, rank: u64) -> Score {
        let bits = u64::from(ply.score_bits);
        let at = ply.first_score_bit + (rank - ply.first_rank) * bits;
        let score = ply.score_base + read_bits(&self.bytes, self.scores_at, at, bits);
        Score::new(score.clamp(-128, 127) as i8)
    }
}

/// The first ply of `left_out` that a book of depth `depth` cannot leave out: the deepest or
/// below, or the third of three in a row (see `MAX_LEFT_OUT_IN_A_ROW`).
pub fn misplaced_left_out(depth: u32, left_out: &[u32]) -> Option<u32> {
    let mut sorted = left_out.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut in_a_row = 0;
    for (index, &ply) in sorted.iter().enumerate() {
        in_a_row = if index > 0 && sorted[index - 1] + 1 == ply {
            in_a_row + 1
        } else {
            1
        };
        if ply >= depth || in_a_row > MAX_LEFT_OUT_IN_A_ROW {
            return Some(ply);
        }
    }
    None
}

/// The score of a position that is not over and where the side to move cannot win at once, by
/// negamax over its children: a child that fills the board is a draw, one where the opponent
/// wins at once scores directly, any other `child_score`, and `None` if that has none.
pub(crate) fn score_from_children(
    position: &Position,
    mut child_score: impl FnMut(&Position) -> Option<Score>,
) -> Option<Score> {
    let area = position.geometry().area() as i32;
    let moves = position.moves_played() as i32;
    let mut best = None;
    for column in (0..position.width()).filter(|&c| position.can_play(c)) {
        let mut child = *position;
        child.play_unchecked(position.cell_in(column));
        let score = if child.is_full() {
            0
        } else if child.can_win_next() {
            // The opponent wins with its next stone.
            -((area - moves) / 2)
        } else {
            -i32::from(child_score(&child)?.value())
        };
        best = best.max(Some(score));
    }
    Some(Score::new(best.unwrap_or(0) as i8))
}

/// The positions of the set bits of `bitmap` (whole words) among `bits`, in order.
fn set_bits(bitmap: &[u8], bits: std::ops::Range<u64>) -> impl Iterator<Item = u64> + '_ {
    let words = bits.start / 64..bits.end.div_ceil(64);
    words.flat_map(move |index| {
        let mut word = read_u64(bitmap, index as usize * 8);
        let low = (index * 64).max(bits.start) - index * 64;
        let high = (index * 64 + 64).min(bits.end) - index * 64;
        word &= (u64::MAX << low) & (u64::MAX >> (64 - high));
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let bit = word.trailing_zeros();
                word &= word - 1;
                index * 64 + u64::from(bit)
            })
        })
    })
}

/// The `bits`-bit number (at most 8 bits) at bit `at` of the section starting at byte `start`.
#[inline]
fn read_bits(bytes: &[u8], start: usize, at: u64, bits: u64) -> i32 {
    let word = read_u64(bytes, start + (at / 8) as usize);
    ((word >> (at % 8)) & ((1u64 << bits) - 1)) as i32
}

/// The width, height and depth in a header of `header_bytes` bytes, once the file is known to
/// be at least that long and the board one a book can hold.
fn board_of_header(bytes: &[u8], header_bytes: usize) -> Result<(u32, u32, u32), BookError> {
    if bytes.len() < header_bytes {
        return Err(BookError::Truncated {
            expected: header_bytes as u64,
            found: bytes.len() as u64,
        });
    }
    let (width, height) = (u32::from(bytes[12]), u32::from(bytes[13]));
    check_board(width, height)?;
    Ok((width, height, u32::from(bytes[14])))
}

/// A file of `found` bytes where the header asks for `expected`.
fn check_length(found: u64, expected: u64) -> Result<(), BookError> {
    if found < expected {
        return Err(BookError::Truncated { expected, found });
    }
    if found > expected {
        return Err(BookError::TrailingBytes {
            extra: found - expected,
        });
    }
    Ok(())
}

/// The bytes of a version 3 file of the board, depth and numbering given, leaving out the plies
/// `left_out` and holding `numbered`: (number, stones, score) sorted by number, none repeated,
/// none of a ply left out.
fn file_bytes(
    width: u32,
    height: u32,
    depth: u32,
    numbering: &Numbering,
    left_out: &[u32],
    numbered: &[(u64, u32, i32)],
) -> Vec<u8> {
    let plies: Vec<(u32, i32, u64)> = (0..=depth)
        .map(|stones| {
            if left_out.contains(&stones) {
                return (0, 0, 0);
            }
            let scores = numbered.iter().filter(|e| e.1 == stones).map(|e| e.2);
            let (base, top, count) = scores.fold((i32::MAX, i32::MIN, 0), |(b, t, n), s| {
                (b.min(s), t.max(s), n + 1)
            });
            if count == 0 {
                return (1, 0, 0);
            }
            let bits = (32 - ((top - base) as u32).leading_zeros()).max(1);
            (bits, base, count)
        })
        .collect();
    let (layouts, numbers, score_bits) = lay_out(numbering, &plies);
    let layout = Layout::of(depth, numbers, score_bits);
    let mut bytes = vec![0u8; layout.file_bytes() as usize];
    let (header, body) = bytes.split_at_mut(layout.header);
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    header[12..15].copy_from_slice(&[width as u8, height as u8, depth as u8]);
    header[16..24].copy_from_slice(&(numbered.len() as u64).to_le_bytes());
    header[24..32].copy_from_slice(&numbers.to_le_bytes());
    for (stones, &(bits, base, count)) in plies.iter().enumerate() {
        let record = &mut header[FIXED_HEADER_BYTES + PLY_RECORD_BYTES * stones..];
        record[..2].copy_from_slice(&[bits as u8, base as i8 as u8]);
        record[8..16].copy_from_slice(&count.to_le_bytes());
    }
    let (bitmap, rest) = body.split_at_mut(layout.bitmap);
    let (directory, scores) = rest.split_at_mut(layout.directory);
    for (rank, &(number, stones, score)) in numbered.iter().enumerate() {
        let ply = &layouts[stones as usize];
        let bit = ply.first_bit + number - numbering.first(stones);
        bitmap[(bit / 8) as usize] |= 1 << (bit % 8);
        let at = ply.first_score_bit + (rank as u64 - ply.first_rank) * u64::from(ply.score_bits);
        let value = ((score - ply.score_base) as u64) << (at % 8);
        for (offset, byte) in value.to_le_bytes()[..2].iter().enumerate() {
            scores[(at / 8) as usize + offset] |= byte;
        }
    }
    let mut before = 0u32;
    for (block, chunk) in bitmap.chunks(DIRECTORY_SPAN as usize / 8).enumerate() {
        directory[block * 4..block * 4 + 4].copy_from_slice(&before.to_le_bytes());
        before += chunk.iter().map(|b| b.count_ones()).sum::<u32>();
    }
    let sum = checksum(&bytes[..32], &bytes[FIXED_HEADER_BYTES..]);
    bytes[32..40].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// The largest score on a board: a win with the first stone possible.
pub(crate) fn score_limit(width: u32, height: u32) -> i32 {
    (width * height / 2 + 1) as i32
}

fn check_board(width: u32, height: u32) -> Result<(), BookError> {
    if width == 0 || height == 0 || width * (height + 1) > 56 {
        return Err(BookError::Board { width, height });
    }
    Ok(())
}

/// The book's checksum of `header` then `body`, each zero-padded to whole 8-byte words: for
/// every little-endian word `w`, `h = (h ^ w) * 0x100000001b3` (wrapping) then `h ^= h >> 29`,
/// from `h = 0xcbf29ce484222325`. One multiply per word, so that checking a large book at load
/// costs about a millisecond.
pub fn checksum(header: &[u8], body: &[u8]) -> u64 {
    let mut sum = Checksum::new();
    for part in [header, body] {
        for chunk in part.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            sum.add(u64::from_le_bytes(word));
        }
    }
    sum.value()
}

/// [`checksum`] taken as the words arrive (little-endian 8-byte words), for files written piece
/// by piece.
#[derive(Debug, Clone, Copy)]
pub struct Checksum(u64);

impl Checksum {
    /// The checksum of nothing yet.
    pub fn new() -> Checksum {
        Checksum(0xcbf2_9ce4_8422_2325)
    }

    /// Takes in the next word.
    pub fn add(&mut self, word: u64) {
        let h = (self.0 ^ word).wrapping_mul(0x0000_0100_0000_01b3);
        self.0 = h ^ (h >> 29);
    }

    /// The checksum of the words so far.
    pub fn value(self) -> u64 {
        self.0
    }
}

impl Default for Checksum {
    fn default() -> Checksum {
        Checksum::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(moves: &str) -> Position {
        let columns: Vec<u8> = moves.bytes().map(|b| b - b'1').collect();
        Position::from_moves(7, 6, &columns).unwrap()
    }

    /// Writes the checksum that matches a changed file.
    fn reseal(bytes: &mut [u8]) {
        let sum = checksum(&bytes[..32], &bytes[FIXED_HEADER_BYTES..]);
        bytes[32..40].copy_from_slice(&sum.to_le_bytes());
    }

    fn small_book() -> Book {
        let scores = ["", "4", "44", "1", "7123"]
            .iter()
            .enumerate()
            .map(|(i, m)| (canonical_key(&pos(m)), Score::new(i as i8 - 2)));
        Book::from_scores(7, 6, 4, scores).unwrap()
    }

    #[test]
    fn books_round_trip_through_bytes() {
        let book = small_book();
        let bytes = book.to_bytes();
        let numbers = Numbering::new(7, 6, 4).unwrap().len();
        assert_eq!(
            bytes.len() as u64,
            Layout::of(4, numbers, 1 + 2 * 2 + 1 + 1).file_bytes(),
            "ply 1's two scores -1 and 1 in 2 bits each, the others in 1 bit"
        );
        assert_eq!(
            book.entries_per_ply(),
            [Some(1), Some(2), Some(1), Some(0), Some(1)]
        );
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(format_version(&bytes), Some(FORMAT_VERSION));
        assert_eq!(format_version(&bytes[..11]), None, "too short to say");
        assert_eq!(
            format_version(b"c4-bool\n\x03\0\0\0"),
            None,
            "not a book's start"
        );
        assert_eq!(Book::from_bytes(&bytes), Ok(book.clone()));
        assert_eq!(book.score(&pos("")), Some(Score::new(-2)));
        assert_eq!(book.score(&pos("4")), Some(Score::new(-1)));
        // Mirror images share an entry.
        assert_eq!(book.score(&pos("7")), Some(Score::new(1)));
        assert_eq!(book.score(&pos("1765")), Some(Score::new(2)));
        assert_eq!(book.score(&pos("2")), None);
        assert_eq!(book.score(&pos("44444")), None, "deeper than the book");
    }

    #[test]
    fn corrupt_books_are_refused_with_a_reason() {
        let bytes = small_book().to_bytes();
        for index in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[index] ^= 0x10;
            assert!(Book::from_bytes(&bad).is_err(), "flipped byte {index}");
        }
        assert_eq!(
            Book::from_bytes(&bytes[..bytes.len() - 3]),
            Err(BookError::Truncated {
                expected: bytes.len() as u64,
                found: bytes.len() as u64 - 3
            })
        );
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(
            Book::from_bytes(&long),
            Err(BookError::TrailingBytes { extra: 1 })
        );
        assert_eq!(
            Book::from_bytes(b"hello"),
            Err(BookError::Truncated {
                expected: 40,
                found: 5
            })
        );
        assert_eq!(
            Book::from_bytes(b"not a book, not at all, no no no no"),
            Err(BookError::BadMagic)
        );
        let mut future = bytes.clone();
        future[8] = 4;
        assert_eq!(
            Book::from_bytes(&future),
            Err(BookError::Version { found: 4 })
        );
        assert_eq!(
            BookError::Checksum.to_string(),
            "the book's checksum does not match its contents (the file is corrupt)"
        );
    }

    /// The bytes of a version 1 file holding `book`'s entries.
    fn version_1_bytes(book: &Book) -> Vec<u8> {
        let mut entries: Vec<u64> = book
            .entries()
            .map(|(key, score)| key << 8 | u64::from(score.value() as u8))
            .collect();
        entries.sort_unstable();
        let mut header = MAGIC.to_vec();
        header.extend(1u32.to_le_bytes());
        header.extend([7, 6, book.depth() as u8, 0]);
        header.extend((entries.len() as u64).to_le_bytes());
        let body: Vec<u8> = entries.iter().flat_map(|e| e.to_le_bytes()).collect();
        let sum = checksum(&header, &body);
        header.extend(sum.to_le_bytes());
        header.extend(body);
        header
    }

    #[test]
    fn version_1_files_are_read_as_the_same_book() {
        let book = small_book();
        let old = version_1_bytes(&book);
        assert_eq!(Book::from_bytes(&old), Ok(book));
        let mut bad = old.clone();
        bad[40] ^= 1;
        assert_eq!(Book::from_bytes(&bad), Err(BookError::Checksum));
        assert_eq!(
            Book::from_bytes(&old[..old.len() - 1]),
            Err(BookError::Truncated {
                expected: old.len() as u64,
                found: old.len() as u64 - 1
            })
        );
    }

    #[test]
    fn a_version_1_file_naming_a_depth_far_beyond_its_entries_is_refused_unbuilt() {
        // 40 bytes that asked for a 7x5 layout of depth 20: a bitmap of some 1 GiB.
        let mut header = MAGIC.to_vec();
        header.extend(1u32.to_le_bytes());
        header.extend([7, 5, 20, 0]);
        header.extend(1u64.to_le_bytes());
        let body = (1u64 << 8).to_le_bytes();
        let sum = checksum(&header, &body);
        header.extend(sum.to_le_bytes());
        header.extend(body);
        assert_eq!(
            Book::from_bytes(&header),
            Err(BookError::TooSparse {
                width: 7,
                height: 5,
                depth: 20,
                entries: 1
            })
        );
    }

    /// The bytes of a version 2 file holding `book`'s entries: one bitmap over every ply's
    /// numbers, one score width for all.
    fn version_2_bytes(book: &Book) -> Vec<u8> {
        let numbering = Numbering::new(7, 6, book.depth()).unwrap();
        let entries: Vec<(u64, i32)> = book
            .entries()
            .map(|(key, score)| (numbering.number_of_key(key), i32::from(score.value())))
            .collect();
        let base = entries.iter().map(|e| e.1).min().unwrap();
        let top = entries.iter().map(|e| e.1).max().unwrap();
        let bits = u64::from(32 - ((top - base) as u32).leading_zeros());
        let words = |bits: u64| bits.div_ceil(64) as usize * 8;
        let numbers = numbering.len();
        let bitmap = words(numbers);
        let directory = words(numbers.div_ceil(DIRECTORY_SPAN) * 32);
        let scores_at = V2_HEADER_BYTES + bitmap + directory;
        let mut bytes = vec![0u8; scores_at + words(entries.len() as u64 * bits) + 8];
        bytes[..8].copy_from_slice(MAGIC);
        bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
        bytes[12..17].copy_from_slice(&[7, 6, book.depth() as u8, bits as u8, base as i8 as u8]);
        bytes[24..32].copy_from_slice(&(entries.len() as u64).to_le_bytes());
        bytes[32..40].copy_from_slice(&numbers.to_le_bytes());
        for (rank, &(number, score)) in entries.iter().enumerate() {
            bytes[V2_HEADER_BYTES + (number / 8) as usize] |= 1 << (number % 8);
            let at = rank as u64 * bits;
            bytes[scores_at + (at / 8) as usize] |= (((score - base) as u64) << (at % 8)) as u8;
            bytes[scores_at + (at / 8) as usize + 1] |=
                (((score - base) as u64) << (at % 8) >> 8) as u8;
        }
        let sum = checksum(&bytes[..40], &bytes[V2_HEADER_BYTES..]);
        bytes[40..48].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    #[test]
    fn version_2_files_are_read_as_the_same_book() {
        let book = small_book();
        let old = version_2_bytes(&book);
        assert_eq!(Book::from_bytes(&old), Ok(book));
        let mut bad = old.clone();
        bad[V2_HEADER_BYTES] ^= 1;
        assert_eq!(Book::from_bytes(&bad), Err(BookError::Checksum));
        assert_eq!(
            Book::from_bytes(&old[..old.len() - 8]),
            Err(BookError::Truncated {
                expected: old.len() as u64,
                found: old.len() as u64 - 8
            })
        );
    }

    #[test]
    fn entries_that_cannot_be_in_a_book_are_refused() {
        let key = canonical_key(&pos("44"));
        assert_eq!(
            Book::from_scores(7, 6, 4, [(key, Score::new(1)), (key, Score::new(1))]),
            Err(BookError::Unsorted { index: 1 })
        );
        assert_eq!(
            Book::from_scores(7, 6, 1, [(key, Score::new(1))]),
            Err(BookError::BadKey { index: 0, depth: 1 })
        );
        let mirrored = pos("1").key().max(pos("7").key());
        assert_eq!(
            Book::from_scores(7, 6, 4, [(mirrored, Score::new(1))]),
            Err(BookError::BadKey { index: 0, depth: 4 }),
            "only the smaller key of a mirror pair"
        );
        assert_eq!(
            Book::from_scores(7, 6, 4, [(key, Score::new(30))]),
            Err(BookError::BadScore {
                index: 0,
                score: 30,
                limit: 22
            })
        );
    }

    #[test]
    fn a_bitmap_marking_no_listed_position_is_refused() {
        let numbering = Numbering::new(7, 6, 7).unwrap();
        let good = [
            (numbering.number(&pos("")), 0, 1),
            (numbering.number(&pos("4")), 1, -1),
        ];
        assert!(Book::from_bytes(&file_bytes(7, 6, 7, &numbering, &[], &good)).is_ok());
        // The mirror image's own number: a position is listed under the smaller key's.
        let mirrored = pos("1").key().max(pos("7").key());
        // Four first-player stones in column 1 under three of the other's in column 2: a game
        // already over, which no book lists (the key of current + mask, second player to move).
        let won = 0b1111 + (0b1110 << 7);
        assert!(position_of_key(7, 6, won).is_err());
        for key in [mirrored, won] {
            let number = numbering.number_of_key(key);
            let mut numbered = good.to_vec();
            let stones = (0..=7)
                .rev()
                .find(|&s| numbering.first(s) <= number)
                .unwrap();
            numbered.push((number, stones, 0));
            numbered.sort_unstable();
            let index = numbered.iter().position(|&(n, ..)| n == number).unwrap() as u64;
            assert_eq!(
                Book::from_bytes(&file_bytes(7, 6, 7, &numbering, &[], &numbered)),
                Err(BookError::BadKey { index, depth: 7 }),
                "key {key:#x}"
            );
        }
    }

    #[test]
    fn a_count_that_disagrees_with_the_bitmap_is_refused() {
        // One entry more at ply 4, in the header and the ply's record, fits the same score
        // section: only the bitmap can tell.
        let mut bytes = small_book().to_bytes();
        bytes[16] += 1;
        bytes[FIXED_HEADER_BYTES + 4 * PLY_RECORD_BYTES + 8] += 1;
        reseal(&mut bytes);
        assert!(matches!(
            Book::from_bytes(&bytes),
            Err(BookError::Inconsistent { .. })
        ));
    }

    #[test]
    fn entries_moved_to_another_ply_are_refused() {
        // The empty board's bit cleared and a ply-1 position's set: the count still matches,
        // but ply 1's entries would read their scores from the wrong bits.
        let book = small_book();
        let mut bytes = book.to_bytes();
        let numbering = Numbering::new(7, 6, 4).unwrap();
        let moved = book.plies[1].first_bit + numbering.number(&pos("2")) - numbering.first(1);
        bytes[book.bitmap_at] &= !1;
        bytes[book.bitmap_at + (moved / 8) as usize] |= 1 << (moved % 8);
        let bitmap = bytes[book.bitmap_at..book.directory_at].to_vec();
        let mut before = 0u32;
        for (block, chunk) in bitmap.chunks(DIRECTORY_SPAN as usize / 8).enumerate() {
            let at = book.directory_at + block * 4;
            bytes[at..at + 4].copy_from_slice(&before.to_le_bytes());
            before += chunk.iter().map(|b| b.count_ones()).sum::<u32>();
        }
        reseal(&mut bytes);
        assert_eq!(
            Book::from_bytes(&bytes),
            Err(BookError::Inconsistent {
                what: "entries of a ply do not match its bitmap"
            })
        );
    }

    #[test]
    fn more_plies_left_out_in_a_row_than_a_lookup_may_compute_are_refused() {
        let entries: Vec<(u64, Score)> = small_book().entries().collect();
        let lean = Book::from_scores_leaving_out(7, 6, 4, &[1, 2], entries.clone()).unwrap();
        assert_eq!(lean.entries_per_ply()[1..3], [None, None]);
        assert_eq!(lean.score(&pos("")), Some(Score::new(-2)), "stored");
        assert_eq!(
            lean.score(&pos("4")),
            None,
            "its children at ply 3 are missing"
        );
        assert_eq!(
            Book::from_scores_leaving_out(7, 6, 4, &[1, 2, 3], entries.clone()),
            Err(BookError::Derived { ply: 3, depth: 4 })
        );
        assert_eq!(
            Book::from_scores_leaving_out(7, 6, 4, &[4], entries),
            Err(BookError::Derived { ply: 4, depth: 4 })
        );
        // The same in a file's header: ply 3's record made a ply left out too.
        let mut bytes = lean.to_bytes();
        let record = FIXED_HEADER_BYTES + 3 * PLY_RECORD_BYTES;
        bytes[16] = 2;
        bytes[record..record + 16].fill(0);
        reseal(&mut bytes);
        assert_eq!(
            Book::from_bytes(&bytes),
            Err(BookError::Inconsistent {
                what: "header leaves out more plies in a row than a lookup may compute"
            })
        );
    }

    #[test]
    fn lookups_side_by_side_score_as_one_at_a_time() {
        // Stored entries, positions with none, deeper than the book and of a ply left out,
        // more than are looked up together.
        let moves = [
            "", "4", "44", "1", "7123", "2", "44444", "7", "1765", "3", "71234",
        ];
        let entries: Vec<(u64, Score)> = small_book().entries().collect();
        let lean = Book::from_scores_leaving_out(7, 6, 4, &[3], entries).unwrap();
        for book in [small_book(), lean] {
            let mut scores = vec![Some(Score::new(99)); moves.len()];
            book.score_each(moves.iter().map(|m| pos(m)).enumerate(), |index, score| {
                scores[index] = score
            });
            let one_at_a_time: Vec<Option<Score>> =
                moves.iter().map(|m| book.score(&pos(m))).collect();
            assert_eq!(scores, one_at_a_time);
            assert!(scores.iter().any(Option::is_some) && scores.iter().any(Option::is_none));
        }
    }

    #[test]
    fn a_book_with_every_ply_stored_scores_as_the_book_it_comes_from() {
        // Every position to 6 stones that a book lists, with made-up scores: the derived plies
        // are the negamax of the next ply's, whatever those are.
        let numbering = Numbering::new(7, 6, 6).unwrap();
        let entries: Vec<(u64, Score)> = (0..numbering.len())
            .filter_map(|number| numbering.key_of_number(number))
            .filter(|&key| !position_of_key(7, 6, key).unwrap().can_win_next())
            .map(|key| (key, Score::new((key % 7) as i8 - 3)))
            .collect();
        let complete = Book::from_scores(7, 6, 6, entries.clone()).unwrap();
        let lean = Book::from_scores_leaving_out(7, 6, 6, &[2, 4, 5], entries).unwrap();
        let stored = lean.with_every_ply_stored();
        assert_eq!(
            stored.entries_per_ply(),
            complete.entries_per_ply(),
            "the same positions, every ply stored"
        );
        for (key, _) in complete.entries() {
            let position = position_of_key(7, 6, key).unwrap();
            assert_eq!(stored.score(&position), lean.score(&position), "{key:#x}");
            assert!(stored.score(&position).is_some());
        }
        let all: std::collections::HashSet<(u64, Score)> = stored.entries().collect();
        assert!(lean.entries().all(|entry| all.contains(&entry)), "kept");
        assert_eq!(stored.with_every_ply_stored(), stored);
        assert_eq!(Book::from_bytes(&stored.to_bytes()), Ok(stored));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// A file changed anywhere past its version (by small steps, which keep lengths
        /// plausible), with a checksum that matches the change, is refused or read, never a
        /// panic; whatever is read lists and answers lookups.
        #[test]
        fn any_change_with_a_matching_checksum_is_refused_or_read(
            // Half of the changes in the header's fields, half anywhere after the version.
            changes in proptest::collection::vec(
                (proptest::prop_oneof![12usize..120, 12usize..4096], -3i8..=3),
                1..4,
            ),
            // Half of the files whole.
            cut in proptest::prop_oneof![proptest::strategy::Just(0usize), 1usize..9],
        ) {
            let mut bytes = small_book().to_bytes();
            for (at, step) in changes {
                let at = 12 + (at - 12) % (bytes.len() - 12);
                if !(32..FIXED_HEADER_BYTES).contains(&at) {
                    bytes[at] = bytes[at].wrapping_add_signed(step);
                }
            }
            bytes.truncate(bytes.len() - cut);
            reseal(&mut bytes);
            if let Ok(book) = Book::from_bytes(&bytes) {
                let listed = book.entries().count();
                proptest::prop_assert_eq!(listed, book.len());
                for moves in ["", "4", "44", "1765", "2"] {
                    let _ = book.score(&pos(moves));
                }
            }
        }
    }

    #[test]
    fn keys_decode_to_their_positions() {
        for moves in ["", "4", "4453", "1111112222", "7654321234567"] {
            let p = pos(moves);
            assert_eq!(position_of_key(7, 6, p.key()), Ok(p), "{moves}");
        }
        assert!(position_of_key(7, 6, 0b10).is_err());
    }
}
