//! The `c4` command: picks the mode from the command line, runs it on stdin/stdout, and maps
//! the result to an exit code. A closed stdout is not an error.

use std::io::{self, BufWriter, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use c4::batch::{
    run_batch_solve, run_bench, run_empty_board_bench, BatchMode, BatchOptions, BenchOptions,
};
use c4::protocol::{self, Exit, Options};

const USAGE: &str = "usage: c4 [--strict]
       c4 play [SETTINGS]
       c4 solve [--analyze | --weak] [--threads N]
       c4 bench [--step N] [--limit N] [--bits N] [--threads N] [--no-book] [--empty] [FILE...]
       c4 book build|merge|verify|info ...

c4 [--strict]
  Reads protocol commands from standard input, one per line, and writes one reply per command
  to standard output (see protocol.md). --strict: exit with status 1 at the first failed command.

c4 play [SETTINGS]
  Plays Connect Four in the terminal, against people or the computer; c4 play --help lists the
  settings.

c4 solve [--analyze | --weak] [--threads N]
  Reads one 7x6 move sequence per line (columns 1-7 run together, e.g. 4453) and writes
  'MOVES SCORE' per line; --weak writes 1, 0 or -1; --analyze writes the score of every column
  ('-' for a full one). An invalid line gets 'MOVES error: REASON'. --threads N searches each
  exact score with N threads sharing the table (default 1, at most 64).

c4 bench [--step N] [--limit N] [--bits N] [--threads N] [--no-book] [--empty] [FILE...]
  Solves benchmark files of 'MOVES SCORE' lines (default: the sets in ../shared/bench) and prints
  per file the positions, mean and max time, mean nodes and whether every score matched.
  --step N takes every Nth line, --limit N at most N positions per file, --bits N a table of
  2^N entries, --threads N N threads per search (nodes are then those of every thread);
  --empty solves the empty 7x6 board instead of the sets; --no-book searches without the
  built-in opening book.

c4 book build|merge|verify|info ...
  Builds, joins, checks and describes opening books; c4 book --help says how.

  --help, --version";

/// The benchmark sets, easiest first, as found beside the repository.
const BENCH_SETS: [&str; 6] = [
    "end-easy",
    "middle-easy",
    "middle-medium",
    "begin-easy",
    "begin-medium",
    "begin-hard",
];

/// What the command line asks for.
enum Mode {
    Protocol(Options),
    Solve(BatchOptions),
    Bench(BenchOptions, Vec<PathBuf>),
    EmptyBoard(BenchOptions),
    Help,
    Version,
}

fn parse_args(args: &[String]) -> Result<Mode, String> {
    let number = |flag: &str, value: Option<&String>| -> Result<usize, String> {
        value
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{flag} needs a whole number from 1"))
    };
    match args.first().map(String::as_str) {
        Some("--help" | "-h") => Ok(Mode::Help),
        Some("--version" | "-V") => Ok(Mode::Version),
        Some("solve") => {
            let mut options = BatchOptions::default();
            let mut modes = 0;
            let mut rest = args[1..].iter();
            while let Some(arg) = rest.next() {
                match arg.as_str() {
                    "--analyze" => (options.mode, modes) = (BatchMode::Analyze, modes + 1),
                    "--weak" => (options.mode, modes) = (BatchMode::Weak, modes + 1),
                    "--threads" => options.threads = number("--threads", rest.next())?,
                    other => {
                        return Err(format!(
                            "c4 solve takes --analyze or --weak and --threads N, got '{other}'"
                        ))
                    }
                }
            }
            if modes > 1 {
                return Err("c4 solve takes one of --analyze and --weak".to_string());
            }
            Ok(Mode::Solve(options))
        }
        Some("bench") => {
            let mut options = BenchOptions::default();
            let mut files = Vec::new();
            let mut empty = false;
            let mut rest = args[1..].iter();
            while let Some(arg) = rest.next() {
                match arg.as_str() {
                    "--step" => options.step = number("--step", rest.next())?,
                    "--limit" => options.limit = Some(number("--limit", rest.next())?),
                    "--bits" => options.table_bits = number("--bits", rest.next())? as u32,
                    "--threads" => options.threads = number("--threads", rest.next())?,
                    "--empty" => empty = true,
                    "--no-book" => options.book = false,
                    flag if flag.starts_with('-') => {
                        return Err(format!("c4 bench has no option '{flag}'"))
                    }
                    file => files.push(PathBuf::from(file)),
                }
            }
            if empty {
                return Ok(Mode::EmptyBoard(options));
            }
            if files.is_empty() {
                files = BENCH_SETS
                    .iter()
                    .map(|set| PathBuf::from(format!("../shared/bench/{set}.txt")))
                    .collect();
            }
            Ok(Mode::Bench(options, files))
        }
        _ => {
            let mut options = Options::default();
            for arg in args {
                match arg.as_str() {
                    "--strict" => options.strict = true,
                    other => return Err(format!("unknown argument '{other}'")),
                }
            }
            Ok(Mode::Protocol(options))
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("play") {
        return c4::play::main_with_args(&args[1..]);
    }
    if args.first().map(String::as_str) == Some("book") {
        return c4::book::cli::main_with_args(&args[1..]);
    }
    let mode = match parse_args(&args) {
        Ok(mode) => mode,
        Err(message) => {
            eprintln!("c4: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = BufWriter::new(io::stdout().lock());
    let result = match mode {
        Mode::Help => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        Mode::Version => {
            println!("c4 {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        Mode::Protocol(options) => {
            protocol::run(io::stdin(), stdout, options).map(|exit| match exit {
                Exit::Quit | Exit::EndOfInput => ExitCode::SUCCESS,
                Exit::Failed => ExitCode::from(1),
            })
        }
        Mode::Solve(options) => {
            run_batch_solve(io::stdin().lock(), stdout, &options).map(|()| ExitCode::SUCCESS)
        }
        Mode::EmptyBoard(options) => {
            run_empty_board_bench(stdout, &options).map(|()| ExitCode::SUCCESS)
        }
        Mode::Bench(options, files) => {
            let mut stderr = io::stderr();
            let progress = stderr
                .is_terminal()
                .then_some(&mut stderr as &mut dyn io::Write);
            run_bench(&files, stdout, &options, progress).map(|report| {
                if report.sets.iter().all(|s| s.is_exact()) {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            })
        }
    };
    match result {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("c4: {e}");
            ExitCode::from(1)
        }
    }
}
