//! `c4 book`: the command line of the book builder (build, merge, verify, info) as clap
//! arguments, and running them over an output handed in; the work itself is in
//! the core's book builder ([`c4_core::build_shard`] and its kin), and the exit status is [`super`]'s business.

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use super::values::{board_sides, whole};
use c4_core::TableSize;
use c4_core::ThreadCount;
use c4_core::{book_file_format, built_in_book, read_book};
use c4_core::{misplaced_left_out, position_of_key, Book, BookError, BOOK_FORMAT_VERSION};
use c4_core::{BuildError, BuildOptions, BuildProgress, Shard};
use c4_core::{STANDARD_HEIGHT, STANDARD_WIDTH};

/// The standard board, the default of `c4 book build`.
const WIDTH: u32 = STANDARD_WIDTH as u32;
/// See [`WIDTH`].
const HEIGHT: u32 = STANDARD_HEIGHT as u32;
/// The book's file name in the data folder ([`data_folder`]) when `-o` gives none.
const DEFAULT_BOOK_NAME: &str = "c4.book";

/// `c4 book`: build, merge, check and describe opening books.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The subcommands of `c4 book`.
#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Solve the positions at DEPTH (one shard of them with --shard) into a resumable progress
    /// file; without --shard, then write the book.
    #[command(display_name = "c4")]
    Build(BuildArgs),
    /// Join the progress files of every shard of one build into the book.
    #[command(display_name = "c4")]
    Merge(MergeArgs),
    /// Re-solve a sample of a book's entries without any book; exit 1 on any mismatch.
    #[command(display_name = "c4")]
    Verify(VerifyArgs),
    /// Print a book's header and entry counts.
    #[command(display_name = "c4")]
    Info(InfoArgs),
}

/// `c4 book build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// Every position with at most this many stones goes in the book; those with exactly this
    /// many are solved (each search starting from its parents' scores when the shipped book
    /// holds them).
    #[arg(long, value_parser = whole::<u32>)]
    pub depth: u32,
    /// The board, WIDTHxHEIGHT, as c4 solve and c4 bench take it (default 7x6; a small board
    /// makes a quick test book). --width and --height, its first spelling, still work
    #[arg(long, value_name = "WxH", value_parser = board_sides, conflicts_with_all = ["width", "height"])]
    pub board: Option<(u32, u32)>,
    /// Board columns: the first spelling of --board's WIDTH
    #[arg(long, default_value_t = WIDTH, value_parser = whole::<u32>)]
    pub width: u32,
    /// Board rows: the first spelling of --board's HEIGHT
    #[arg(long, default_value_t = HEIGHT, value_parser = whole::<u32>)]
    pub height: u32,
    /// Worker threads, each with its own solver.
    #[arg(long, value_name = "N", default_value_t = ThreadCount::ONE, value_parser = ThreadCount::from_str)]
    pub threads: ThreadCount,
    /// Solve only shard I of N (0-based): the positions whose key hashes to I modulo N.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<ShardArg>,
    /// The folder of the progress files [default: c4/book in the per-user data folder,
    /// $XDG_DATA_HOME or ~/.local/share]
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The book to write when building without --shard [default: c4.book in that c4/book
    /// folder, whatever --dir says]
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Each worker's table in MiB, as c4 solve's --hash (2-524288, rounded down to a power of
    /// two; default 2: a small table stays in the processor's caches: on 300 depth-9 positions
    /// 2 MiB took 3-10% less time than 8 MiB, 0.5 MiB more)
    #[arg(long, value_name = "MIB", value_parser = TableSize::from_str, conflicts_with = "table_bits")]
    pub hash: Option<TableSize>,
    /// Each worker's table as 2^BITS entries of 8 bytes, 16-30: the first spelling of --hash,
    /// hidden
    #[arg(long, hide = true, default_value_t = TableSize::BATCH.bits(), value_parser = clap::value_parser!(u32).range(16..=30))]
    pub table_bits: u32,
    /// Stop after solving this many positions (to measure the cost on a sample).
    #[arg(long, value_parser = whole::<usize>)]
    pub limit: Option<usize>,
    /// First copy in this shard's records from progress files of the same depth split another
    /// way (repeatable).
    #[arg(long, value_name = "FILE")]
    pub import: Vec<PathBuf>,
    /// Plies to leave out of the book file written at the end, e.g. 11,12: their scores are
    /// computed at lookup from the next ply's (a lookup of each child), which keeps the file
    /// small; never the deepest, at most two in a row. (With --shard, give it to the merge.)
    #[arg(
        long,
        value_name = "PLIES",
        value_delimiter = ',',
        conflicts_with = "shard"
    )]
    pub leave_out: Vec<u32>,
}

/// `c4 book merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The book to write [default: c4.book in c4/book in the per-user data folder,
    /// $XDG_DATA_HOME or ~/.local/share]
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Plies to leave out of the book file, e.g. 11,12: their scores are computed at lookup from
    /// the next ply's (a lookup of each child), which keeps the file small; never the deepest, at
    /// most two in a row.
    #[arg(long, value_name = "PLIES", value_delimiter = ',', value_parser = whole::<u32>)]
    pub leave_out: Vec<u32>,
    /// One progress file per shard.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
}

/// `c4 book verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The book to check (default: the one built into c4).
    pub book: Option<PathBuf>,
    /// How many entries to re-solve.
    #[arg(long, default_value_t = 50, value_parser = whole::<usize>)]
    pub sample: usize,
    /// Only entries with this many stones.
    #[arg(long, value_parser = whole::<u32>)]
    pub ply: Option<u32>,
    /// Picks the sample.
    #[arg(long, default_value_t = 1, value_parser = whole::<u64>)]
    pub seed: u64,
}

/// `c4 book info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The book to describe (default: the one built into c4).
    pub book: Option<PathBuf>,
}

/// A shard as `I/N` on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardArg(pub Shard);

impl FromStr for ShardArg {
    type Err = String;

    fn from_str(text: &str) -> Result<ShardArg, String> {
        let expected = || format!("expected I/N with 0 <= I < N, got '{text}'");
        let (index, count) = text.split_once('/').ok_or_else(expected)?;
        let (index, count) = (
            index.parse::<u32>().map_err(|_| expected())?,
            count.parse::<u32>().map_err(|_| expected())?,
        );
        if index >= count {
            return Err(expected());
        }
        Ok(ShardArg(Shard { index, count }))
    }
}

/// Runs `c4 book`: results to `out`, progress to `progress` in its style (none without).
/// Returns whether the command succeeded (`verify` fails on a mismatch).
///
/// # Errors
/// Whatever the build, merge or check met, as a [`BuildError`]; I/O errors on `out` as well.
pub fn run(
    args: BookArgs,
    out: &mut dyn Write,
    progress: Option<(&mut dyn Write, BarStyle)>,
) -> Result<bool, BuildError> {
    let mut bar = Bar::new(progress);
    match args.command {
        BookCommand::Build(args) => build(args, out, &mut bar),
        BookCommand::Merge(args) => {
            let book_path = args.out.map_or_else(default_book, Ok)?;
            merge_into(&args.shards, &args.leave_out, &book_path, out)?;
            Ok(true)
        }
        BookCommand::Verify(args) => verify(&args, out, &mut bar),
        BookCommand::Info(args) => info(&args, out),
    }
}

/// An error writing to standard output.
fn stdout_error(e: io::Error) -> BuildError {
    BuildError::Io {
        path: PathBuf::from("standard output"),
        source: e,
    }
}

/// `c4 book build`: solves one shard, or all of them and then writes the book.
fn build(args: BuildArgs, out: &mut dyn Write, bar: &mut Bar<'_>) -> Result<bool, BuildError> {
    // Said before the hours of solving, not after.
    if let Some(ply) = misplaced_left_out(args.depth, &args.leave_out) {
        let depth = args.depth;
        return Err(BuildError::LeftOut(BookError::Derived { ply, depth }));
    }
    let shard = args.shard.map_or(Shard::ALL, |s| s.0);
    // Both settled, and the book's path checked, before the hours of solving: the book only
    // without --shard.
    let dir = args.dir.map_or_else(data_folder, Ok)?;
    let book_path = match (args.shard, args.out) {
        (Some(_), _) => None,
        (None, Some(path)) => Some(path),
        (None, None) => Some(default_book()?),
    };
    if let Some(book_path) = &book_path {
        c4_core::check_book_path(book_path)?;
    }
    let (width, height) = args.board.unwrap_or((args.width, args.height));
    let options = BuildOptions {
        width,
        height,
        depth: args.depth,
        shard,
        threads: args.threads.get(),
        table_bits: args.hash.map_or(args.table_bits, TableSize::bits),
        limit: args.limit,
        import: args.import,
        // The shipped book, when it holds the level above the one solved.
        parents: built_in_book()
            .filter(|b| b.depth() + 1 >= args.depth && b.width() == width && b.height() == height),
    };
    let path = c4_core::shard_path(&dir, args.depth, shard);
    let start = Instant::now();
    let report = c4_core::build_shard(&path, &options, bar)?;
    bar.finish();
    let elapsed = start.elapsed();
    writeln!(
        out,
        "{}: shard {}/{} of depth {}: {} positions, {} already solved, {} imported, {} solved now in {:.1} s ({} threads){}",
        path.display(),
        shard.index,
        shard.count,
        args.depth,
        report.total,
        report.already,
        report.imported,
        report.solved,
        elapsed.as_secs_f64(),
        args.threads,
        if report.torn > 0 { ", a torn last record dropped" } else { "" }
    )
    .map_err(stdout_error)?;
    if let Some(book_path) =
        book_path.filter(|_| report.already + report.imported + report.solved == report.total)
    {
        merge_into(&[path], &args.leave_out, &book_path, out)?;
    }
    Ok(true)
}

/// `c4 book verify`: re-solves a sample of the book's entries; fails on a mismatch.
fn verify(args: &VerifyArgs, out: &mut dyn Write, bar: &mut Bar<'_>) -> Result<bool, BuildError> {
    let book = load(args.book.as_deref())?;
    let (mismatches, checked) = c4_core::verify_book(&book, args.sample, args.ply, args.seed, bar)?;
    bar.finish();
    for m in &mismatches {
        let position = position_of_key(book.width(), book.height(), m.key)
            .map_err(|source| BuildError::Entry { key: m.key, source })?;
        writeln!(
            out,
            "mismatch: key {:#x} (ply {}): book {}, search {}",
            m.key,
            position.moves_played(),
            m.book,
            m.search
        )
        .map_err(stdout_error)?;
    }
    writeln!(
        out,
        "verified {checked} entries: {} mismatches",
        mismatches.len()
    )
    .map_err(stdout_error)?;
    Ok(mismatches.is_empty())
}

/// `c4 book info`: the book's board, depth, entries and size.
fn info(args: &InfoArgs, out: &mut dyn Write) -> Result<bool, BuildError> {
    let book = load(args.book.as_deref())?;
    let bytes = book.to_bytes().len() as u64;
    // An older file is laid out anew when read: say so rather than show its size.
    let older = args
        .book
        .as_deref()
        .and_then(book_file_format)
        .filter(|&(version, _)| version != BOOK_FORMAT_VERSION);
    let size = match older {
        None => format!("{bytes} bytes"),
        Some((version, length)) => format!(
            "{bytes} bytes in format {BOOK_FORMAT_VERSION} (the file, in format {version}: {length} bytes)"
        ),
    };
    let per_ply: Vec<String> = book
        .entries_per_ply()
        .iter()
        .map(|n| n.map_or("-".to_string(), |n| n.to_string()))
        .collect();
    writeln!(
        out,
        "{}x{} book, complete to depth {}{}, {} entries, {size}\nentries per ply: {}",
        book.width(),
        book.height(),
        book.depth(),
        left_out_text(&book),
        book.len(),
        per_ply.join(" ")
    )
    .map_err(stdout_error)?;
    Ok(true)
}

/// The folder `c4 book` writes progress files and books to unless told otherwise, made if
/// missing: `c4/book` in the per-user data folder ([`data_folder_in`]). Outside any source tree,
/// so that a build never writes over the book compiled into c4 (the repository's
/// `book/c4.book`); per user and not a cache, since progress files hold hours of solving that a
/// build resumes from.
///
/// # Errors
/// No data folder is set in the environment, or it cannot be made.
fn data_folder() -> Result<PathBuf, BuildError> {
    let folder = data_folder_in(|name| std::env::var_os(name), cfg!(windows))
        .ok_or(BuildError::NoDataFolder)?;
    std::fs::create_dir_all(&folder).map_err(|source| BuildError::Io {
        path: folder.clone(),
        source,
    })?;
    Ok(folder)
}

/// `c4/book` in the per-user data folder that the environment (`var`) names: `$XDG_DATA_HOME`,
/// else `$HOME/.local/share` (the XDG base directory rules), or on Windows `%LOCALAPPDATA%`;
/// a relative path is ignored, as those rules say.
fn data_folder_in(var: impl Fn(&str) -> Option<OsString>, windows: bool) -> Option<PathBuf> {
    let absolute = |name| {
        var(name)
            .map(PathBuf::from)
            .filter(|path| path.is_absolute())
    };
    let base = if windows {
        absolute("LOCALAPPDATA")
    } else {
        absolute("XDG_DATA_HOME").or_else(|| absolute("HOME").map(|home| home.join(".local/share")))
    };
    base.map(|base| base.join("c4").join("book"))
}

/// The book `-o` writes when it is not given: [`DEFAULT_BOOK_NAME`] in the [`data_folder`].
fn default_book() -> Result<PathBuf, BuildError> {
    Ok(data_folder()?.join(DEFAULT_BOOK_NAME))
}

fn merge_into(
    shards: &[PathBuf],
    left_out: &[u32],
    book_path: &Path,
    out: &mut dyn Write,
) -> Result<(), BuildError> {
    let report = c4_core::merge_shards(shards, left_out)?;
    c4_core::write_book(book_path, &report.book)?;
    writeln!(
        out,
        "{}: depth {}, {} entries ({} solved at depth {}){}, {} bytes",
        book_path.display(),
        report.book.depth(),
        report.book.len(),
        report.leaves,
        report.book.depth(),
        left_out_text(&report.book),
        report.book.to_bytes().len()
    )
    .map_err(|e| BuildError::Io {
        path: PathBuf::from("standard output"),
        source: e,
    })
}

/// ", plies 11 and 12 left out" (or ", ply 12 left out"), or nothing when every ply is stored.
fn left_out_text(book: &Book) -> String {
    let plies: Vec<String> = (0u32..)
        .zip(book.entries_per_ply())
        .filter(|(_, entries)| entries.is_none())
        .map(|(ply, _)| ply.to_string())
        .collect();
    match plies.as_slice() {
        [] => String::new(),
        [ply] => format!(", ply {ply} left out"),
        [first @ .., last] => format!(", plies {} and {last} left out", first.join(", ")),
    }
}

fn load(path: Option<&Path>) -> Result<Book, BuildError> {
    match path {
        Some(path) => Ok(read_book(path)?),
        None => built_in_book()
            .map(|b| (*b).clone())
            .ok_or(BuildError::BuiltInBook),
    }
}

/// How progress is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarStyle {
    /// On a terminal: one line with a bar and a time estimate, redrawn at most twice a second.
    Redrawn,
    /// In a log (a background job's or a cluster job's output): a line a minute with the count,
    /// the rate and a time estimate; nothing for work done within the first minute.
    Logged,
}

impl BarStyle {
    fn interval(self) -> Duration {
        match self {
            BarStyle::Redrawn => Duration::from_millis(500),
            BarStyle::Logged => Duration::from_secs(60),
        }
    }
}

/// Progress shown in a [`BarStyle`].
struct Bar<'a> {
    out: Option<(&'a mut dyn Write, BarStyle)>,
    /// The elapsed time of the last line shown.
    last: Option<Duration>,
}

impl<'a> Bar<'a> {
    fn new(out: Option<(&'a mut dyn Write, BarStyle)>) -> Bar<'a> {
        let last = match out {
            Some((_, BarStyle::Logged)) => Some(Duration::ZERO),
            _ => None,
        };
        Bar { out, last }
    }

    fn finish(&mut self) {
        if let Some((out, BarStyle::Redrawn)) = self.out.as_mut() {
            let _ = writeln!(out);
        }
    }
}

/// `seconds` as `H:MM:SS`, or `M:SS` under an hour.
fn clock(seconds: f64) -> String {
    let whole = seconds as u64;
    let (hours, minutes, seconds) = (whole / 3600, whole / 60 % 60, whole % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

impl BuildProgress for Bar<'_> {
    fn update(&mut self, done: usize, total: usize, solved_now: usize, elapsed: Duration) {
        let Some((out, style)) = self.out.as_mut() else {
            return;
        };
        let style = *style;
        if self.last.is_some_and(|t| {
            elapsed < t + style.interval() && (done < total || style == BarStyle::Logged)
        }) {
            return;
        }
        self.last = Some(elapsed);
        let left = (solved_now > 0)
            .then(|| elapsed.as_secs_f64() / solved_now as f64 * (total - done) as f64);
        match style {
            BarStyle::Redrawn => {
                const WIDTH: usize = 30;
                let filled = (done * WIDTH).checked_div(total).unwrap_or(WIDTH);
                let eta = left.map_or("estimating".to_string(), |s| format!("{} left", clock(s)));
                let _ = write!(
                    out,
                    "\r[{}{}] {done}/{total} {eta}   ",
                    "#".repeat(filled),
                    "-".repeat(WIDTH - filled)
                );
            }
            BarStyle::Logged => {
                let rate = solved_now as f64 / elapsed.as_secs_f64().max(1e-9);
                let percent = (done * 100) as f64 / total.max(1) as f64;
                let eta = left.map_or("no estimate yet".to_string(), |s| {
                    format!("about {} left", clock(s))
                });
                let _ = writeln!(
                    out,
                    "{done}/{total} solved ({percent:.1}%), {rate:.1} a second in this run, {eta}"
                );
            }
        }
        let _ = out.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_gets_a_line_a_minute_and_nothing_in_the_first() {
        let mut log = Vec::new();
        let mut bar = Bar::new(Some((&mut log as &mut dyn Write, BarStyle::Logged)));
        let minute = Duration::from_secs(60);
        bar.update(100, 1000, 0, Duration::ZERO);
        bar.update(150, 1000, 50, Duration::from_secs(59));
        bar.update(220, 1000, 120, minute);
        bar.update(230, 1000, 130, minute + Duration::from_secs(30));
        bar.update(1000, 1000, 900, 2 * minute + Duration::from_secs(30));
        bar.finish();
        let lines = String::from_utf8(log).unwrap();
        assert_eq!(
            lines,
            "220/1000 solved (22.0%), 2.0 a second in this run, about 6:30 left\n\
             1000/1000 solved (100.0%), 6.0 a second in this run, about 0:00 left\n"
        );
        assert_eq!(clock(3.0 * 3600.0 + 62.0), "3:01:02");
    }

    #[test]
    fn the_default_folder_is_the_per_user_data_folder() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| OsString::from(value))
            }
        };
        let folder = |vars, windows| data_folder_in(env(vars), windows);
        assert_eq!(
            folder(&[("HOME", "/home/ann")], false),
            Some(PathBuf::from("/home/ann/.local/share/c4/book"))
        );
        assert_eq!(
            folder(&[("HOME", "/home/ann"), ("XDG_DATA_HOME", "/data")], false),
            Some(PathBuf::from("/data/c4/book"))
        );
        // A relative XDG_DATA_HOME is not one.
        assert_eq!(
            folder(&[("HOME", "/home/ann"), ("XDG_DATA_HOME", "data")], false),
            Some(PathBuf::from("/home/ann/.local/share/c4/book"))
        );
        assert_eq!(folder(&[("HOME", "")], false), None);
        assert_eq!(folder(&[("HOME", "/home/ann")], true), None);
    }

    #[test]
    fn shards_parse_as_index_slash_count() {
        assert_eq!(
            "1/4".parse::<ShardArg>(),
            Ok(ShardArg(Shard { index: 1, count: 4 }))
        );
        for bad in ["4/4", "1", "a/2", "1/0", "-1/2"] {
            let error = bad.parse::<ShardArg>().unwrap_err();
            assert!(error.starts_with("expected I/N"), "{bad}: {error}");
        }
    }
}
