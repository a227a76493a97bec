//! The command line's words: `c4 [--strict]` (the protocol interpreter) and the subcommands
//! `play`, `solve`, `bench`, `book`, `ugi`, `split` and `serve`, parsed by clap, with every help and usage text
//! generated from the definitions here. This module turns flags into each front end's settings
//! (reading the book file `--book` names); running them is [`super`]'s.

use std::fmt;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use clap::error::ErrorKind;
use clap::{ArgGroup, Args, CommandFactory, Parser, Subcommand};

use super::book::BookArgs;
use super::values::{at_least_mode, board_sides, board_size, column_numbering, positive, seconds};
use crate::batch::{
    shared_table_bits, table_for_board, BatchBoard, BatchMode, BatchOptions, BenchOptions,
    BenchTask, Checkpointing,
};
use crate::play::{OptionError, PlayOptions, Program};
use crate::serve::ServeOptions;
use c4_core::Book;
use c4_core::Counting;
use c4_core::ThreadCount;
use c4_core::Trust;
use c4_core::{built_in_book, read_book, BookFileError};
use c4_core::{SplitSettings, TableSize};

/// What `c4 --help` ends with.
const EXIT_STATUS_HELP: &str = "Exit status: 0 on success; 1 for a failed command under \
    --strict, a wrong score in c4 bench, or an I/O error; 2 for a usage error or a file that \
    cannot be read.";

/// `c4`: with no subcommand, the protocol interpreter on standard input and output.
#[derive(Debug, Parser)]
#[command(
    name = "c4",
    version = c4_core::VERSION,
    about = "A fast, exact, scriptable Connect Four engine.",
    long_about = "A fast, exact, scriptable Connect Four engine.\n\n\
        With no subcommand, c4 reads protocol commands from standard input, one per line, and \
        writes one reply per command to standard output (see protocol.md).",
    after_help = EXIT_STATUS_HELP,
    propagate_version = true,
    args_conflicts_with_subcommands = true,
    args_override_self = true
)]
pub struct Cli {
    /// Exit with status 1 at the first failed command
    #[arg(long)]
    pub strict: bool,
    /// Serve a client that anyone could be (a page served to a browser): no command reads or
    /// writes a file, tables and threads are capped, and every search ends within a minute
    #[arg(long)]
    pub untrusted: bool,
    /// A subcommand instead of the protocol interpreter.
    #[command(subcommand)]
    pub command: Option<Mode>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Mode {
    /// Play Connect Four in the terminal, against people or the computer
    #[command(
        display_name = "c4",
        long_about = "Play Connect Four in the terminal: a menu, then games between people and the \
            computer. Every setting can also be changed from the menu (s = setup) by typing it \
            without the dashes (width 9, computer o=perfect, columns letters).",
        after_help = "Each turn takes a column, u (undo), h (hint), s (save), or q (quit). When \
            standard input is not a terminal, each answer is echoed after its prompt so that the \
            output reads like a session."
    )]
    Play(Box<PlayArgs>),
    /// Solve 7x6 positions given as move sequences, one per line of standard input
    #[command(
        display_name = "c4",
        long_about = "Solve 7x6 positions given as move sequences, one per line of standard \
        input (columns 1-7 run together, e.g. 4453; anything after a space is ignored), and write \
        'MOVES SCORE' per line, each as soon as it is known. The score is from the side to move: a \
        win scores 22 minus the stones the winner has played when it wins, a loss the negative, a \
        draw 0; a sequence that ends the game gets its result (4455667 -18). An invalid line \
        gets 'MOVES error: REASON'. Other boards with --board: a win on \
        ply P (the stones on the board once the winning one is down) scores (cells + 2 - P) / 2, \
        rounded down."
    )]
    Solve(SolveArgs),
    /// Time the solver on benchmark files of 'MOVES SCORE' lines and check every score
    #[command(
        display_name = "c4",
        long_about = "Solve the positions of benchmark files of 'MOVES SCORE' lines, the \
        table cleared before each, and print per file the positions, mean and max time, mean nodes \
        and whether every score matched. The repository's samples are fixtures/bench/*.txt. \
        On a terminal, progress is shown on standard error."
    )]
    Bench(BenchArgs),
    /// Build, join, check and describe opening books
    #[command(
        display_name = "c4",
        long_about = "Build, join, check and describe opening books. Progress files and books \
        go to c4/book in the per-user data folder ($XDG_DATA_HOME, else ~/.local/share) unless \
        --dir and -o name others: never into the source tree, whose book/c4.book is the book \
        compiled into c4 (the repository's book/README.md says how it was made)."
    )]
    Book(BookArgs),
    /// Speak UGI (the Universal Game Interface) on standard input and output, for match runners
    #[command(
        display_name = "c4",
        long_about = "Speak UGI, the Universal Game Interface of the cutegames match runner, on \
        standard input and output: ugi, isready, setoption, uginewgame, position, query, go, \
        stop and quit (see protocol.md, \"The UGI dialect\"). Moves are column numbers and \
        positions c4's FEN. The same dialect starts when the first line given to c4 is 'ugi'."
    )]
    Ugi(UgiArgs),
    /// Split a solve into jobs for a cluster: a plan file of commands, and a merge of their answers
    #[command(
        display_name = "c4",
        long_about = "Split a solve into jobs that a cluster runs (a Slurm job array, GNU \
        parallel), as files in one folder every machine sees: 'c4 split plan DIR' writes \
        DIR/plan.txt, one shell command a line, each answering one job with c4 solve --at-least \
        and a checkpoint of its own; 'c4 split merge DIR' adds the jobs' answers to \
        DIR/results.txt, says how far the solve has come and writes the next plan, until it \
        writes the score as c4 solve does (docs/cluster.md). With Ray: python -m c4.cluster."
    )]
    Split(SplitArgs),
    /// Serve the GUI: the page, and a native c4 per WebSocket
    #[command(
        display_name = "c4",
        long_about = "Serve the GUI in the browser: the page that web/build builds into \
        web/dist (c4 as WebAssembly in the page), and at /engine a WebSocket to a native c4, one \
        'c4 --untrusted' per connection, killed when it closes (the page's ?engine=native). \
        Where it listens is said on standard error; SIGINT (Ctrl-C) or SIGTERM stops it. Only the \
        page's own origin may open a WebSocket, messages are at most 64 KiB, and engines and \
        connections are bounded (docs/gui.md, \"Who can reach what\")."
    )]
    Serve(ServeArgs),
}

/// `c4 serve`'s flags.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on: 127.0.0.1 (this machine only), or e.g. 0.0.0.0 for every
    /// interface (a phone on the same network can then play)
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    pub address: IpAddr,
    /// The port to listen on (0: any free one, named in the URL printed)
    #[arg(long, value_name = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// The page's folder, as web/build makes it
    #[arg(long, value_name = "DIR", default_value = "web/dist")]
    pub dist: PathBuf,
    /// At most N engines (WebSocket connections) at once; the next is refused with 503 (1-1024)
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub max_engines: u16,
    /// At most N connections at once, WebSockets included; the next is refused with 503
    /// (lowered to what the open-file limit allows)
    #[arg(long, value_name = "N", default_value_t = 16384, value_parser = positive)]
    pub max_connections: usize,
    /// Run this program per WebSocket instead of this c4 (still given --untrusted): another
    /// engine that speaks the protocol
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// Seconds a client has to send a request's headers, and to finish a WebSocket's handshake
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    pub header_timeout: Duration,
    /// Seconds a WebSocket may go without a word from its client (pings, which a live client
    /// answers, are sent every third of it); then it is closed and its engine killed. A
    /// connection whose client takes nothing of what is sent to it for as long is closed too
    #[arg(long, value_name = "SECONDS", default_value = "25", value_parser = seconds)]
    pub idle_timeout: Duration,
}

impl ServeArgs {
    /// The server's settings.
    pub fn options(&self) -> ServeOptions {
        ServeOptions {
            address: self.address,
            port: self.port,
            dist: self.dist.clone(),
            engine: self.engine.clone(),
            max_engines: usize::from(self.max_engines),
            max_connections: self.max_connections,
            header_timeout: self.header_timeout,
            idle_timeout: self.idle_timeout,
        }
    }
}

/// `c4 split`'s subcommands.
#[derive(Debug, Args)]
pub struct SplitArgs {
    /// Plan or merge.
    #[command(subcommand)]
    pub step: SplitStep,
}

/// A step of a split solve.
#[derive(Debug, Subcommand)]
pub enum SplitStep {
    /// Start a split solve in a new folder and write its first plan
    Plan(SplitPlanArgs),
    /// Add the finished jobs' answers, say how far the solve has come, write the next plan
    Merge(SplitMergeArgs),
    /// Sample random frontier jobs, for an estimate of a solve's jobs before it is run
    Sample(SplitSampleArgs),
}

/// `c4 split sample`'s flags.
#[derive(Debug, Args)]
pub struct SplitSampleArgs {
    /// The position: moves from the empty board (none: the empty board)
    #[arg(default_value = "")]
    pub moves: String,
    /// The board, WIDTHxHEIGHT
    #[arg(long, value_name = "WxH", default_value = "7x6", value_parser = board_size)]
    pub board: BatchBoard,
    /// How many plies below the position the jobs lie
    #[arg(long, value_name = "PLIES", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub depth: u32,
    /// The score expected: the first question's tree follows it
    #[arg(long, value_name = "SCORE", default_value_t = 0, allow_hyphen_values = true, value_parser = clap::value_parser!(i8).range(-64..=64))]
    pub expect: i8,
    /// How many random paths to take
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = positive)]
    pub samples: usize,
    /// The first path's seed (the others follow it)
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
}

/// `c4 split plan`'s flags.
#[derive(Debug, Args)]
pub struct SplitPlanArgs {
    /// The folder of the solve (made if missing): results, plan, answers and checkpoints
    pub folder: PathBuf,
    /// The position to solve: moves from the empty board as c4 solve reads them (none: the
    /// empty board)
    #[arg(default_value = "")]
    pub moves: String,
    /// The board, WIDTHxHEIGHT
    #[arg(long, value_name = "WxH", default_value = "7x6", value_parser = board_size)]
    pub board: BatchBoard,
    /// How many plies below the position the jobs lie: more, smaller jobs for more machines
    #[arg(long, value_name = "PLIES", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// The score expected, if known roughly: the first questions follow it
    #[arg(long, value_name = "SCORE", default_value_t = 0, allow_hyphen_values = true, value_parser = clap::value_parser!(i8).range(-64..=64))]
    pub expect: i8,
    /// The c4 program the plan's lines run, as every machine finds it (default: this one)
    #[arg(long, value_name = "PATH")]
    pub c4: Option<PathBuf>,
}

/// `c4 split merge`'s flags.
#[derive(Debug, Args)]
pub struct SplitMergeArgs {
    /// The folder of the solve
    pub folder: PathBuf,
    /// The c4 program the plan's lines run, as every machine finds it (default: this one)
    #[arg(long, value_name = "PATH")]
    pub c4: Option<PathBuf>,
}

impl SplitPlanArgs {
    /// The solve these flags describe.
    pub fn settings(&self) -> SplitSettings {
        SplitSettings {
            width: self.board.width(),
            height: self.board.height(),
            root: self.moves.clone(),
            depth: self.depth,
            prediction: self.expect,
        }
    }
}

/// `c4 ugi`'s flags.
#[derive(Debug, Args)]
pub struct UgiArgs {
    /// Serve a client that anyone could be: tables and threads are capped, and every search
    /// ends within a minute
    #[arg(long)]
    pub untrusted: bool,
}

impl Cli {
    /// How far the interpreter's client is trusted.
    pub fn trust(&self) -> Trust {
        trust(self.untrusted)
    }
}

impl UgiArgs {
    /// How far the UGI client is trusted.
    pub fn trust(&self) -> Trust {
        trust(self.untrusted)
    }
}

/// `--untrusted` in the protocol's terms.
fn trust(untrusted: bool) -> Trust {
    match untrusted {
        true => Trust::Untrusted,
        false => Trust::Full,
    }
}

/// `c4 solve`'s flags.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("checkpointing").args(["checkpoint", "checkpoint_dir"])))]
pub struct SolveArgs {
    /// Write only who wins: 1, 0 or -1
    #[arg(long, conflicts_with = "analyze")]
    pub weak: bool,
    /// Write the score of every column ('-' for a full one)
    #[arg(long)]
    pub analyze: bool,
    /// Write only whether each score is at least B (-64 to 64): 'MOVES >=B' or 'MOVES <B'. One
    /// null-window search, much cheaper than the exact score: the question each job of a solve
    /// split over many machines asks (docs/cluster.md). 'line' reads each line's own bound after
    /// its moves ('MOVES B'), so that one run answers questions of many bounds with one table
    #[arg(long, value_name = "B", allow_hyphen_values = true, conflicts_with_all = ["weak", "analyze"], value_parser = at_least_mode)]
    pub at_least: Option<BatchMode>,
    /// Search each exact score with N threads sharing the table (1-64)
    #[arg(long, value_name = "N", default_value_t = ThreadCount::ONE, value_parser = ThreadCount::from_str)]
    pub threads: ThreadCount,
    /// Search without the built-in opening book
    #[arg(long)]
    pub no_book: bool,
    /// Consult this book file (made by c4 book) instead of the built-in one
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// How the moves are played and written: the board and the column numbering
    #[command(flatten)]
    pub lines: LineArgs,
    /// A transposition table of MIB MiB (2-524288, rounded down to a power of two). By default
    /// one picked for the board: 2 MiB up to 7x6's size, then more for larger boards (64 MiB
    /// on 10x4, 1024 on 9x5, 4096 on 8x6, doubling per cell of width x (height + 1)), at most
    /// half the free memory, taken once a search outgrows 2 MiB (at once with --checkpoint);
    /// standard error says which. From 1024 on it goes on 1 GiB pages where Linux has enough
    /// reserved, and standard error says whether it got them
    #[arg(long, value_name = "MIB", value_parser = TableSize::from_str)]
    pub hash: Option<TableSize>,
    /// Save each exact search's (or --at-least's) progress to FILE as it goes, and go on from FILE's if it holds
    /// the same position (same --board and any --threads; any --hash, but a table smaller than
    /// the saved run's may be refused, naming the size to use): for searches of hours.
    /// SIGINT (Ctrl-C), SIGTERM or SIGHUP saves the progress, then stops c4. A line whose FILE
    /// cannot be used (damaged, another position's, not a regular file) is an error line, and
    /// c4 then exits with status 1
    #[arg(long, value_name = "FILE", conflicts_with_all = ["weak", "analyze"])]
    pub checkpoint: Option<PathBuf>,
    /// As --checkpoint, but each position's progress in a file of its own in the folder DIR
    /// (named after the board and the position): for many searches in one run, each going on
    /// from its own progress, as the jobs of a split solve do (docs/cluster.md)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["weak", "analyze", "checkpoint"])]
    pub checkpoint_dir: Option<PathBuf>,
    /// Keep the table in a file of the folder DIR, shared with every c4 solve of this machine
    /// that names the same DIR, board and table size, as the threads of one search share
    /// theirs: the jobs of a split solve run as several processes then share what each has
    /// proven (docs/cluster.md). Best on a memory file system (/dev/shm/...). The folder and
    /// the file are made if missing, for this user only; a folder or file others may use, or
    /// a symbolic link, is refused. Without --hash, a table already there for the board keeps
    /// its size. The table is taken at once; where the file system has no room for it, c4
    /// says so and uses a table of its own
    #[arg(long, value_name = "DIR")]
    pub shared_table: Option<PathBuf>,
    /// Fold mirror images together in the table in every search, not only a symmetric
    /// position's: faster for many positions below one symmetric position (the jobs of a split
    /// solve of the empty board), slower elsewhere
    #[arg(long)]
    pub fold_mirrors: bool,
    /// Seconds between two saves of --checkpoint, each with a line on standard error: the bounds
    /// on the score so far, and the probe under way with the columns it has ruled out
    #[arg(long, value_name = "SECONDS", default_value_t = 600, value_parser = positive, requires = "checkpointing")]
    pub checkpoint_every: usize,
}

/// The board and column numbering of `c4 solve`'s and `c4 bench`'s move sequences.
#[derive(Debug, Args)]
pub struct LineArgs {
    /// The board, WIDTHxHEIGHT: sides 1-16, width x (height + 1) <= 128 (8x8, 9x7, 10x6 ...)
    #[arg(long, value_name = "WxH", default_value = "7x6", value_parser = board_size)]
    pub board: BatchBoard,
    /// numbers: columns are numbered from 1 (1-7 on 7x6, the default); from-zero: from 0 (0-6),
    /// as other solvers' test files have them (1 and 0, the old spellings, still work). Digits run
    /// together name one column each on boards up to 9 wide (10 from 0); letters a-p are read in
    /// any line
    #[arg(long, value_name = "NAMING", default_value = "numbers", value_parser = column_numbering)]
    pub columns: Counting,
}

impl LineArgs {
    /// The board, its columns numbered as `--columns` says.
    pub fn board(&self) -> BatchBoard {
        self.board.clone().counting(self.columns)
    }
}

impl SolveArgs {
    /// The batch settings these flags describe.
    ///
    /// # Errors
    /// The `--book` file cannot be read or is not a book.
    pub fn options(&self) -> Result<BatchOptions, BookFileError> {
        let mode = match (self.weak, self.analyze, self.at_least) {
            (true, _, _) => BatchMode::Weak,
            (_, true, _) => BatchMode::Analyze,
            (_, _, Some(at_least)) => at_least,
            _ => BatchMode::Score,
        };
        // A table picked for the board is taken once a search outgrows the default one, but at
        // once by a checkpointed run, whose saves name their table.
        let checkpoint = match (&self.checkpoint, &self.checkpoint_dir) {
            (Some(file), _) => Some((file.clone(), false)),
            (_, Some(folder)) => Some((folder.clone(), true)),
            _ => None,
        };
        let grows = self.hash.is_none() && checkpoint.is_none() && self.shared_table.is_none();
        let when = grows.then_some("once a search outgrows the default");
        let (table, table_note) = picked_table("solve", &self.lines.board, self.hash, when);
        let (table_bits, larger_table_bits) = if grows && table != TableSize::BATCH {
            (TableSize::BATCH.bits(), Some(table.bits()))
        } else {
            (table.bits(), None)
        };
        // A shared table already made for the board keeps its size unless --hash says another.
        let shared_bits = self.hash.is_none().then(|| {
            let folder = self.shared_table.as_deref()?;
            shared_table_bits(folder, &self.lines.board, self.fold_mirrors)
        });
        let (table_bits, table_note) = match shared_bits.flatten() {
            Some(bits) => (bits, None),
            None => (table_bits, table_note),
        };
        Ok(BatchOptions {
            board: self.lines.board(),
            table_bits,
            larger_table_bits,
            fold_mirrors: self.fold_mirrors,
            checkpoint: checkpoint.map(|(file, per_position)| Checkpointing {
                file,
                per_position,
                every: Duration::from_secs(self.checkpoint_every as u64),
                stop: Arc::default(),
            }),
            shared_table: self.shared_table.clone(),
            table_note,
            ..BatchOptions::new(
                mode,
                self.threads.get(),
                chosen_book(self.no_book, self.book.as_deref())?,
            )
        })
    }
}

/// The table of `c4 MODE` on `board`: `chosen` (`--hash`), else [`table_for_board`]'s; with a
/// note for standard error, said before the first search, of a table picked larger than the
/// default ([`TableSize::BATCH`]), so that the memory a run takes never comes unannounced
/// (`when` it is taken, if not at once).
fn picked_table(
    mode: &str,
    board: &BatchBoard,
    chosen: Option<TableSize>,
    when: Option<&str>,
) -> (TableSize, Option<String>) {
    if let Some(table) = chosen {
        return (table, None);
    }
    let table = table_for_board(board);
    let note = (table != TableSize::BATCH).then(|| {
        format!(
            "c4 {mode}: table: {} MiB, picked for the {}x{} board and the free memory{} \
             (--hash MIB sets another)",
            table.mib(),
            board.width(),
            board.height(),
            when.map(|when| format!(", {when}")).unwrap_or_default()
        )
    });
    (table, note)
}

/// The book `--no-book` and `--book FILE` choose: none, the file's, or the built-in one.
fn chosen_book(no_book: bool, file: Option<&Path>) -> Result<Option<Arc<Book>>, BookFileError> {
    match file {
        _ if no_book => Ok(None),
        Some(path) => Ok(Some(Arc::new(read_book(path)?))),
        None => Ok(built_in_book()),
    }
}

/// `c4 bench`'s flags.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Take every Nth line of each file
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = positive)]
    pub step: usize,
    /// Take at most N positions per file
    #[arg(long, value_name = "N", value_parser = positive)]
    pub limit: Option<usize>,
    /// A transposition table of 2^N entries, 10-30 (18: 2 MiB): the first spelling of --hash,
    /// hidden, which still reaches below its 2 MiB
    #[arg(long, hide = true, value_name = "N", value_parser = clap::value_parser!(u32).range(10..=30))]
    pub bits: Option<u32>,
    /// A transposition table of MIB MiB (2-524288, rounded down to a power of two); by default,
    /// as c4 solve picks one for the board (2 MiB with --sizes). From 1024 on it goes on 1 GiB
    /// pages where Linux has enough reserved, and standard error says whether it got them
    #[arg(long, value_name = "MIB", value_parser = TableSize::from_str, conflicts_with = "bits")]
    pub hash: Option<TableSize>,
    /// Search with N threads sharing the table; nodes are then those of every thread (1-64)
    #[arg(long, value_name = "N", default_value_t = ThreadCount::ONE, value_parser = ThreadCount::from_str)]
    pub threads: ThreadCount,
    /// Time every column's exact score instead of the position's, on files of lines of moves
    /// then each column's score (as c4 solve --analyze writes them), reported per ply too
    #[arg(long, conflicts_with = "empty")]
    pub analyze: bool,
    /// Solve the empty board instead of files
    #[arg(long, conflicts_with = "files")]
    pub empty: bool,
    /// Solve the empty board of every size the files list, as lines 'WIDTHxHEIGHT 1st|2nd|draw
    /// LAST_MOVE SCORE' (fixtures/sizes/outcomes.txt, smallest first: --limit 21 takes every
    /// board with width + height <= 13), and check who wins, on which move, and c4's recorded
    /// score (SCORE, or - for none)
    #[arg(long, conflicts_with_all = ["analyze", "empty"])]
    pub sizes: bool,
    /// Search without the built-in opening book
    #[arg(long)]
    pub no_book: bool,
    /// Consult this book file (made by c4 book) instead of the built-in one
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// How the moves are played and written: the board and the column numbering
    #[command(flatten)]
    pub lines: LineArgs,
    /// Benchmark files, e.g. fixtures/bench/*.txt (at least one, unless --empty)
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

impl BenchArgs {
    /// The benchmark settings these flags describe.
    ///
    /// # Errors
    /// The `--book` file cannot be read or is not a book.
    pub fn options(&self) -> Result<BenchOptions, BookFileError> {
        let (table_bits, table_note) = self.table();
        Ok(BenchOptions {
            step: self.step,
            limit: self.limit,
            table_bits,
            table_note,
            threads: self.threads.get(),
            task: match (self.analyze, self.sizes) {
                (true, _) => BenchTask::Analyze,
                (_, true) => BenchTask::Sizes,
                _ => BenchTask::Solve,
            },
            book: chosen_book(self.no_book, self.book.as_deref())?,
            board: self.lines.board(),
        })
    }

    /// The table's entry bits and the note of a table picked for the board (see
    /// [`picked_table`]): `--hash` or `--bits` if given; with `--sizes`, whose boards come from
    /// its files, the default.
    fn table(&self) -> (u32, Option<String>) {
        match (self.hash, self.bits) {
            (None, Some(bits)) => (bits, None),
            (None, None) if self.sizes => (TableSize::BATCH.bits(), None),
            (chosen, _) => {
                let (table, note) = picked_table("bench", &self.lines.board, chosen, None);
                (table.bits(), note)
            }
        }
    }

    /// Refuses a benchmark of nothing: files are required unless `--empty` is given.
    pub fn check(&self) -> Result<(), clap::Error> {
        if self.files.is_empty() && !self.empty {
            return Err(usage_error(
                Some("bench"),
                "c4 bench needs at least one file of 'MOVES SCORE' lines, e.g. \
                 c4 bench fixtures/bench/*.txt (or --empty for the empty board)",
            ));
        }
        Ok(())
    }
}

/// `c4 play`'s flags: the settings of [`PlayOptions`], each read as text and applied through
/// [`PlayOptions::apply`], the same checked setter the setup menu's `width 9` lines go through.
#[derive(Debug, Default, Args)]
pub struct PlayArgs {
    /// The board, WIDTHxHEIGHT, sides 1-16 (default 7x6), as c4 solve, c4 bench and c4 book build
    /// take it; --width and --height set one side each
    #[arg(long, value_name = "WxH", value_parser = board_sides, conflicts_with_all = ["width", "height"])]
    pub board: Option<(u32, u32)>,
    /// Board width, 1-16 (default 7)
    #[arg(long, value_name = "N")]
    pub width: Option<String>,
    /// Board height, 1-16 (default 6)
    #[arg(long, value_name = "N")]
    pub height: Option<String>,
    /// How many in a row win, 2-16 (default 4)
    #[arg(long, value_name = "N")]
    pub connect: Option<String>,
    /// Number of players, 2-8, with tokens x o a b c d e f
    #[arg(long, value_name = "N")]
    pub players: Option<String>,
    /// The players' tokens in turn order (sets the number of players)
    #[arg(long, value_name = "XOA")]
    pub tokens: Option<String>,
    /// The people's names in turn order, skipping the computer's players (who are called
    /// Computer); others are asked at each new game
    #[arg(long, value_name = "Ann,Ben")]
    pub names: Option<String>,
    /// The computer plays TOKEN; LEVEL is random, lookahead:N (N 1-12, with :left, :right or
    /// :random to break ties; left if not given) or perfect. Once per computer player
    #[arg(long, value_name = "TOKEN=LEVEL")]
    pub computer: Vec<String>,
    /// A person plays TOKEN (undoes --computer for that token)
    #[arg(long, value_name = "TOKEN")]
    pub human: Vec<String>,
    /// grid (boxed cells over a 'col 1 2 ...' footer), dots (a header of column numbers over
    /// cells with . for empty), letters (a header of letters, one character per cell), pipes
    /// (|X|O| rows over 0-based labels), numbers (0 empty, 1, 2, ... the players in turn order,
    /// no labels), tabs (a header of column numbers over tokens and - for empty, separated by
    /// tabs) or colour (dots with coloured tokens on a terminal when NO_COLOR is unset; grid
    /// otherwise)
    #[arg(long, value_name = "STYLE")]
    pub style: Option<String>,
    /// numbers (1-16, the default), letters (A-P) or from-zero (0-15, as the pipes style labels
    /// them): how prompts, messages and the board's labels name columns and, for from-zero, how
    /// typed numbers and --moves are read
    #[arg(long, value_name = "NAMING", conflicts_with_all = ["letters", "from_zero"])]
    pub columns: Option<String>,
    /// Short for --columns letters
    #[arg(long, conflicts_with = "from_zero")]
    pub letters: bool,
    /// Short for --columns from-zero
    #[arg(long)]
    pub from_zero: bool,
    /// End the game in a draw as soon as nobody can complete a line: on or off (default off:
    /// a draw only when the board is full)
    #[arg(long, value_name = "on|off")]
    pub early_draw: Option<String>,
    /// Seed for the computer's random choices (default: from the clock on a terminal, 0 when
    /// standard input is not a terminal)
    #[arg(long, value_name = "N")]
    pub seed: Option<String>,
    /// Start new games from this position (the FEN sets the board size)
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Then play these moves (4453, or d d e c)
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// Play one game at once: no menu, no questions for names (people not named by --names are
    /// Player 1, Player 2, ...); c4 play ends with the game or at the end of the input, so a
    /// file of columns plays a game. --start=off keeps the menu
    #[arg(long, value_name = "on|off", num_args = 0..=1, default_missing_value = "on")]
    pub start: Option<String>,
    /// Be one of the five programs c4 was made from, with its own dialogue, players and rules:
    /// grid, dots, letters, numbers or pipes (docs/play.md). Other settings are refused, but
    /// dots takes --tokens, --fen, --moves, --computer (its last player) and --seed, and
    /// letters --computer O=LEVEL and --seed
    #[arg(long, value_name = "NAME")]
    pub classic: Option<String>,
}

impl PlayArgs {
    /// The settings these flags describe, checked as a whole. Each flag goes through
    /// [`PlayOptions::apply`] in the order of [`crate::play::SETTINGS`] (the board, then the
    /// players, then how they play and are shown), whatever their order on the command line.
    ///
    /// # Errors
    /// A value [`PlayOptions::apply`] refuses (prefixed by its flag), `--players` and
    /// `--tokens` that disagree, or settings that do not make a game.
    pub fn into_options(self) -> Result<PlayOptions, OptionError> {
        let options = self.applied_to(PlayOptions::default())?;
        options.check()?;
        Ok(options)
    }

    /// The program `--classic` names and its settings: the program's own, changed by the flags
    /// it takes ([`Program::flags`]), checked by the program.
    ///
    /// # Errors
    /// An unknown program, a flag the program does not take, a value [`PlayOptions::apply`]
    /// refuses, or settings the program cannot play.
    pub fn into_classic(self, name: &str) -> Result<(Program, PlayOptions), OptionError> {
        let program = Program::from_name(name)
            .ok_or_else(|| OptionError::UnknownProgram(name.to_string()))?;
        if let Some(flag) = self
            .given()
            .into_iter()
            .find(|flag| !program.flags().contains(flag))
        {
            return Err(OptionError::NotClassicSetting {
                program: program.name(),
                flag,
                allowed: program.flags(),
            });
        }
        let options = self.applied_to(program.defaults())?;
        program.check(&options)?;
        Ok((program, options))
    }

    /// The flags given, without their dashes.
    fn given(&self) -> Vec<&'static str> {
        let values = [
            ("board", self.board.is_some()),
            ("width", self.width.is_some()),
            ("height", self.height.is_some()),
            ("connect", self.connect.is_some()),
            ("players", self.players.is_some()),
            ("tokens", self.tokens.is_some()),
            ("names", self.names.is_some()),
            ("computer", !self.computer.is_empty()),
            ("human", !self.human.is_empty()),
            ("style", self.style.is_some()),
            ("columns", self.columns.is_some()),
            ("letters", self.letters),
            ("from-zero", self.from_zero),
            ("early-draw", self.early_draw.is_some()),
            ("seed", self.seed.is_some()),
            ("fen", self.fen.is_some()),
            ("moves", self.moves.is_some()),
            ("start", self.start.is_some()),
        ];
        values
            .into_iter()
            .filter_map(|(flag, given)| given.then_some(flag))
            .collect()
    }

    /// `options` changed by every flag given, through [`PlayOptions::apply`], unchecked as a
    /// whole.
    fn applied_to(self, mut options: PlayOptions) -> Result<PlayOptions, OptionError> {
        let columns = match (self.letters, self.from_zero) {
            (true, _) => Some("letters".to_string()),
            (_, true) => Some("from-zero".to_string()),
            _ => self.columns,
        };
        let apply = |options: &mut PlayOptions, flag: &'static str, value: &str| {
            options.apply(flag, value).map_err(|e| OptionError::Flag {
                flag,
                source: Box::new(e),
            })
        };
        let (width, height) = match self.board {
            Some((width, height)) => (Some(width.to_string()), Some(height.to_string())),
            None => (self.width, self.height),
        };
        for (key, value) in [
            ("width", width),
            ("height", height),
            ("connect", self.connect),
        ] {
            if let Some(value) = value {
                apply(&mut options, key, &value)?;
            }
        }
        let players = match self.players {
            Some(value) => {
                apply(&mut options, "players", &value)?;
                Some(options.tokens.len())
            }
            None => None,
        };
        if let Some(tokens) = self.tokens {
            apply(&mut options, "tokens", &tokens)?;
            if let Some(players) = players.filter(|&n| n != options.tokens.len()) {
                return Err(OptionError::FlagsDisagree { players, tokens });
            }
        }
        let names = self.names.into_iter().map(|v| ("names", v));
        let computers = self.computer.into_iter().map(|v| ("computer", v));
        let humans = self.human.into_iter().map(|v| ("human", v));
        let rest = [
            ("style", self.style),
            ("columns", columns),
            ("early-draw", self.early_draw),
            ("seed", self.seed),
            ("fen", self.fen),
            ("moves", self.moves),
            ("start", self.start),
        ];
        let rest = rest
            .into_iter()
            .filter_map(|(key, value)| value.map(|v| (key, v)));
        for (key, value) in names.chain(computers).chain(humans).chain(rest) {
            apply(&mut options, key, &value)?;
        }
        Ok(options)
    }
}

#[cfg(test)]
impl PlayOptions {
    /// The options `c4 play ARGS` runs with, parsed by the real command line: a shorthand for
    /// tests. The error is clap's or [`PlayArgs::into_options`]'s.
    pub(crate) fn from_args(args: &[String]) -> Result<PlayOptions, Box<dyn std::error::Error>> {
        let argv = ["c4", "play"].into_iter().map(String::from);
        let cli = Cli::try_parse_from(argv.chain(args.iter().cloned()))?;
        match cli.command {
            Some(Mode::Play(args)) => Ok(args.into_options()?),
            other => unreachable!("c4 play parsed as {other:?}"),
        }
    }

    /// The first line of what `c4 play ARGS` says when it refuses them: a shorthand for tests.
    pub(crate) fn refusal(args: &str) -> String {
        let args: Vec<String> = args.split_whitespace().map(String::from).collect();
        let error = PlayOptions::from_args(&args).expect_err("refused");
        error
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    }
}

/// A usage error of `c4` or of one of its subcommands, formatted as clap formats its own (with
/// the usage line and a pointer to `--help`); it exits with the usage status, 2.
pub fn usage_error(subcommand: Option<&str>, message: impl fmt::Display) -> clap::Error {
    let mut command = Cli::command();
    command.build();
    let command = match subcommand {
        Some(name) => command
            .find_subcommand_mut(name)
            .expect("a subcommand of c4"),
        None => &mut command,
    };
    command.error(ErrorKind::ValueValidation, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use c4_core::Level;

    fn play(text: &str) -> PlayOptions {
        let args: Vec<String> = text.split_whitespace().map(String::from).collect();
        PlayOptions::from_args(&args).unwrap()
    }

    #[test]
    fn the_clap_definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn columns_has_two_short_forms_that_exclude_each_other() {
        use crate::play::ColumnNames;
        assert_eq!(play("--letters").columns, ColumnNames::Letters);
        assert_eq!(play("--columns=from-zero").columns, ColumnNames::FromZero);
        assert_eq!(
            PlayOptions::refusal("--letters --from-zero"),
            "error: the argument '--letters' cannot be used with '--from-zero'"
        );
        assert_eq!(
            PlayOptions::refusal("--columns numbers --letters"),
            "error: the argument '--columns <NAMING>' cannot be used with '--letters'"
        );
    }

    #[test]
    fn players_is_a_number_and_tokens_must_agree_with_it() {
        assert_eq!(play("--players 02 --tokens xo").tokens, ['x', 'o']);
        assert_eq!(play("--players 3").tokens, ['x', 'o', 'a']);
        assert_eq!(
            PlayOptions::refusal("--tokens XY --players 3"),
            "--players 3 and --tokens XY disagree"
        );
        assert_eq!(
            PlayOptions::refusal("--players 3 --tokens XY"),
            "--players 3 and --tokens XY disagree"
        );
    }

    #[test]
    fn the_board_is_spelled_as_in_solve_or_side_by_side() {
        let o = play("--board 9x7");
        assert_eq!((o.width, o.height), (9, 7));
        assert_eq!(play("--width 9 --height 7"), o);
    }

    #[test]
    fn every_computer_flag_counts_and_the_last_value_of_others_wins() {
        let o = play("--players 3 --computer o=random --computer a=perfect --width 5 --width 6");
        assert_eq!(o.computers, [('o', Level::Random), ('a', Level::Perfect)]);
        assert_eq!(o.width, 6);
        assert!(play("--computer o=random --human o").computers.is_empty());
    }

    #[test]
    fn serve_flags_have_their_defaults_and_ranges() {
        let parse = |text: &str| Cli::try_parse_from(text.split_whitespace());
        let Some(Mode::Serve(serve)) = parse("c4 serve").unwrap().command else {
            panic!("not serve");
        };
        let options = serve.options();
        assert_eq!(options.address.to_string(), "127.0.0.1");
        assert_eq!((options.port, options.max_engines), (8080, 8));
        assert_eq!(options.dist, PathBuf::from("web/dist"));
        assert_eq!(options.header_timeout, Duration::from_secs(10));
        assert_eq!(options.idle_timeout, Duration::from_secs(25));
        let Some(Mode::Serve(serve)) = parse("c4 serve --address :: --idle-timeout 0.5")
            .unwrap()
            .command
        else {
            panic!("not serve");
        };
        assert!(serve.address.is_ipv6());
        assert_eq!(serve.idle_timeout, Duration::from_millis(500));
        for bad in [
            "c4 serve --max-engines 0",
            "c4 serve --max-engines 1025",
            "c4 serve --max-connections 0",
            "c4 serve --header-timeout 0",
            "c4 serve --idle-timeout soon",
            "c4 serve --address localhost:80",
            "c4 serve --port 65536",
        ] {
            let kind = parse(bad).unwrap_err().kind();
            assert_eq!(kind, ErrorKind::ValueValidation, "{bad}");
        }
    }

    #[test]
    fn solve_and_bench_flags() {
        let parse = |text: &str| Cli::try_parse_from(text.split_whitespace());
        let Some(Mode::Solve(solve)) = parse("c4 solve --weak --threads 2").unwrap().command else {
            panic!("not solve");
        };
        let options = solve.options().unwrap();
        assert_eq!((options.mode, options.threads), (BatchMode::Weak, 2));
        assert!(options.book.is_some());
        let Some(Mode::Bench(bench)) = parse("c4 bench --step 5 --limit 3 a.txt b.txt")
            .unwrap()
            .command
        else {
            panic!("not bench");
        };
        assert_eq!(
            (bench.step, bench.limit, bench.files.len()),
            (5, Some(3), 2)
        );
        assert!(bench.check().is_ok());
        let kind = |text: &str| parse(text).unwrap_err().kind();
        assert_eq!(
            kind("c4 solve --weak --analyze"),
            ErrorKind::ArgumentConflict
        );
        assert_eq!(kind("c4 solve --threads 65"), ErrorKind::ValueValidation);
        assert_eq!(kind("c4 bench --step 0 a.txt"), ErrorKind::ValueValidation);
        assert_eq!(kind("c4 bench --empty a.txt"), ErrorKind::ArgumentConflict);
        assert_eq!(kind("c4 --strict solve"), ErrorKind::ArgumentConflict);
        assert_eq!(
            kind("c4 solve --book a.book --no-book"),
            ErrorKind::ArgumentConflict
        );
        assert_eq!(kind("c4 solve --board 12x12"), ErrorKind::ValueValidation);
        assert_eq!(kind("c4 solve --board 9"), ErrorKind::ValueValidation);
        assert_eq!(kind("c4 solve --columns 2"), ErrorKind::ValueValidation);
        assert_eq!(kind("c4 bench --hash 1 a.txt"), ErrorKind::ValueValidation);
        assert_eq!(
            kind("c4 bench --hash 16 --bits 20 a.txt"),
            ErrorKind::ArgumentConflict
        );
        let Some(Mode::Solve(solve)) = parse("c4 solve --board 10x6 --columns 0 --hash 100")
            .unwrap()
            .command
        else {
            panic!("not solve");
        };
        let options = solve.options().unwrap();
        assert_eq!((options.board.width(), options.board.height()), (10, 6));
        // 100 MiB is 64 MiB: 2^23 entries.
        assert_eq!(options.table_bits, 23);
        assert!(options.board.position_of("0123456789").is_ok());
        let Some(Mode::Solve(solve)) = parse("c4 solve --no-book").unwrap().command else {
            panic!("not solve");
        };
        assert!(solve.options().unwrap().book.is_none());
        let Some(Mode::Bench(bench)) = parse("c4 bench").unwrap().command else {
            panic!("not bench");
        };
        assert!(bench
            .check()
            .unwrap_err()
            .to_string()
            .contains("fixtures/bench/*.txt"));
    }
}
