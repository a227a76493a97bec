//! Running the mode the command line asks for, and its outcome as an exit status.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use thiserror::Error;

use super::book::{self, BarStyle};
use super::cli::{self, usage_error, Cli, Mode, SplitStep};
#[cfg(unix)]
use super::signals;
use crate::batch::{run_batch_solve, run_bench, run_empty_board_bench, BenchError, BenchLog};
use crate::serve::{self, ServeError};
use crate::split::{self, SplitRunError};
use c4_core::describe_io_error;
use c4_core::BookFileError;
use c4_core::BuildError;
use c4_core::SplitSettings;
use c4_core::{run_protocol, run_ugi, Exit, ProtocolOptions, UgiOpening};

/// Success: the input ended or `quit` was given, every benchmark score matched.
const EXIT_SUCCESS: u8 = 0;
/// A failed command under `--strict`, a wrong score in `c4 bench`, a checkpoint that could not
/// be used, or an I/O error.
const EXIT_FAILURE: u8 = 1;
/// A usage error (clap's own code for them) or a file that cannot be read.
const EXIT_USAGE: u8 = 2;

/// How a mode that ran went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Done {
    /// Everything asked for was done.
    Success,
    /// It ran, and said on its output what failed: a command under `--strict`, a benchmark
    /// score, a book entry that did not verify, a line of `c4 solve` whose checkpoint could not
    /// be used.
    Failed,
    /// The signal of this number stopped it before the end, once its progress was saved; the
    /// process ends by the same signal.
    Stopped(i32),
}

/// Why `c4` stopped before its mode ran to its end.
#[derive(Debug, Error)]
pub enum Failure {
    /// clap's help, version or usage error (also for settings clap cannot check, such as
    /// `c4 play`'s), written as clap writes them.
    #[error("{0}")]
    Usage(#[from] clap::Error),
    /// A `--book` file of `c4 solve` or `c4 bench` that cannot be used.
    #[error("c4 {mode}: cannot load book {source}")]
    UnusableBook {
        /// The subcommand.
        mode: &'static str,
        /// Why.
        source: BookFileError,
    },
    /// A benchmark file that cannot be read; nothing was solved.
    #[error("c4 bench: {0}")]
    BenchFile(BenchError),
    /// `c4 book` could not do what it was asked (not a usage error: those are
    /// [`Failure::Usage`]).
    #[error("c4 book: {0}")]
    Book(BuildError),
    /// `c4 split` could not do what it was asked.
    #[error("c4 split: {0}")]
    Split(#[from] SplitRunError),
    /// `c4 serve` could not serve.
    #[error("{0}")]
    Serve(#[from] ServeError),
    /// Reading standard input or writing standard output failed.
    #[error("c4: {}", describe_io_error(.0))]
    Io(#[from] io::Error),
}

impl Failure {
    /// The exit status of this failure.
    fn status(&self) -> u8 {
        match self {
            Failure::Usage(e) if !e.use_stderr() => EXIT_SUCCESS,
            Failure::Usage(_) | Failure::UnusableBook { .. } | Failure::BenchFile(_) => EXIT_USAGE,
            Failure::Book(BuildError::BookFile(_)) => EXIT_USAGE,
            Failure::Split(e) if e.is_usage() => EXIT_USAGE,
            Failure::Serve(e) if e.is_usage() => EXIT_USAGE,
            Failure::Book(_) | Failure::Io(_) | Failure::Split(_) | Failure::Serve(_) => {
                EXIT_FAILURE
            }
        }
    }

    /// Whether this is a closed standard output: the reader left, which is not an error.
    fn is_closed_output(&self) -> bool {
        let closed = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
        match self {
            Failure::Io(e) | Failure::Book(BuildError::Io { source: e, .. }) => closed(e),
            Failure::BenchFile(BenchError::Output(e)) => closed(e),
            _ => false,
        }
    }
}

impl From<BenchError> for Failure {
    fn from(e: BenchError) -> Failure {
        match e {
            BenchError::Output(e) => Failure::Io(e),
            read @ BenchError::Read { .. } => Failure::BenchFile(read),
        }
    }
}

/// Runs the mode `cli` asks for on standard input and output.
///
/// # Errors
/// Whatever stopped it before it ran to its end, as a [`Failure`].
pub fn run(cli: Cli) -> Result<Done, Failure> {
    match cli.command {
        None => {
            // Not locked: in the UGI dialect a search thread writes too.
            let stdout = BufWriter::new(io::stdout());
            let options = ProtocolOptions {
                strict: cli.strict,
                trust: cli.trust(),
            };
            Ok(match run_protocol(io::stdin(), stdout, options)? {
                Exit::Quit | Exit::EndOfInput => Done::Success,
                Exit::Failed => Done::Failed,
            })
        }
        Some(Mode::Ugi(args)) => {
            let stdin = io::BufReader::new(io::stdin());
            let stdout = BufWriter::new(io::stdout());
            run_ugi(stdin, stdout, UgiOpening::Fresh, args.trust())?;
            Ok(Done::Success)
        }
        Some(Mode::Play(mut args)) => {
            let usage = |e| usage_error(Some("play"), e);
            match args.classic.take() {
                Some(name) => {
                    let (program, options) = args.into_classic(&name).map_err(usage)?;
                    crate::play::run_classic_stdio(program, options)?;
                }
                None => crate::play::run_stdio(args.into_options().map_err(usage)?)?,
            }
            Ok(Done::Success)
        }
        Some(Mode::Solve(args)) => {
            let options = args.options().map_err(|source| Failure::UnusableBook {
                mode: "solve",
                source,
            })?;
            #[cfg(unix)]
            let first_signal = options.checkpoint.as_ref().map(signals::stop_on_signals);
            let stdout = BufWriter::new(io::stdout().lock());
            let ran = run_batch_solve(
                io::stdin().lock(),
                stdout,
                &options,
                Some(&mut io::stderr()),
            );
            // Stopped by a signal, c4 ends by it, even if the answer could no longer be written
            // (SIGHUP: the terminal is gone); the progress is saved by then.
            #[cfg(unix)]
            if let Some(signal) = first_signal.and_then(|first| first.get()) {
                return Ok(Done::Stopped(signal));
            }
            // A line whose checkpoint could not be used said so; the run has failed.
            Ok(if ran?.checkpoint_failures > 0 {
                Done::Failed
            } else {
                Done::Success
            })
        }
        Some(Mode::Bench(args)) => bench(&args),
        Some(Mode::Split(args)) => {
            let mut stdout = io::stdout().lock();
            let this = std::env::current_exe()?;
            match args.step {
                SplitStep::Plan(args) => {
                    let c4 = args.c4.clone().unwrap_or(this);
                    let folder = std::path::absolute(&args.folder)?;
                    split::plan(&folder, &args.settings(), &c4, &mut stdout)?;
                }
                SplitStep::Sample(args) => {
                    let settings = SplitSettings {
                        width: args.board.width(),
                        height: args.board.height(),
                        root: args.moves.clone(),
                        depth: args.depth,
                        prediction: args.expect,
                    };
                    split::sample(&settings, args.samples, args.seed, &mut stdout)?;
                }
                SplitStep::Merge(args) => {
                    let c4 = args.c4.clone().unwrap_or(this);
                    let folder = std::path::absolute(&args.folder)?;
                    split::merge(&folder, &c4, &mut stdout)?;
                }
            }
            Ok(Done::Success)
        }
        Some(Mode::Serve(args)) => {
            serve::run(&args.options(), &mut io::stderr())?;
            Ok(Done::Success)
        }
        Some(Mode::Book(args)) => {
            let mut stdout = io::stdout().lock();
            let mut stderr = io::stderr();
            let style = if stderr.is_terminal() {
                BarStyle::Redrawn
            } else {
                BarStyle::Logged
            };
            match book::run(args, &mut stdout, Some((&mut stderr, style))) {
                Ok(true) => Ok(Done::Success),
                Ok(false) => Ok(Done::Failed),
                Err(e) if e.is_usage() => Err(usage_error(Some("book"), e).into()),
                Err(e) => Err(Failure::Book(e)),
            }
        }
    }
}

/// `c4 bench`: the empty board, or the files given; [`Done::Failed`] when a score did not match,
/// each mismatch said on standard error.
fn bench(args: &cli::BenchArgs) -> Result<Done, Failure> {
    args.check()?;
    let options = args.options().map_err(|source| Failure::UnusableBook {
        mode: "bench",
        source,
    })?;
    if let Some(note) = &options.table_note {
        eprintln!("{note}");
    }
    let mut stdout = BufWriter::new(io::stdout().lock());
    let mut stderr = io::stderr();
    if args.empty {
        run_empty_board_bench(&mut stdout, &options, Some(&mut stderr))?;
        stdout.flush()?;
        return Ok(Done::Success);
    }
    let log = BenchLog {
        progress: stderr.is_terminal(),
        to: &mut stderr,
    };
    let report = run_bench(&args.files, &mut stdout, &options, Some(log))?;
    stdout.flush()?;
    for set in &report.sets {
        for line in &set.mismatches {
            eprintln!("c4 bench: {}: no match: {line}", set.file.display());
        }
    }
    let exact = report.sets.iter().all(|set| set.is_exact());
    Ok(if exact { Done::Success } else { Done::Failed })
}

/// The exit status of how `c4` ended, with what it has to say on standard error (or, for help
/// and version, on standard output): the one place where outcomes become statuses. (A signal
/// that ends a checkpointed run at once, with nothing left to save, ends it from `signals.rs`.)
pub fn exit(outcome: Result<Done, Failure>) -> ExitCode {
    let status = match outcome {
        Ok(Done::Success) => EXIT_SUCCESS,
        Ok(Done::Failed) => EXIT_FAILURE,
        #[cfg(unix)]
        Ok(Done::Stopped(signal)) => signals::end_by(signal),
        #[cfg(not(unix))]
        Ok(Done::Stopped(signal)) => 128 + signal as u8,
        Err(failure) if failure.is_closed_output() => EXIT_SUCCESS,
        Err(Failure::Usage(e)) => match e.print() {
            // Help or version that cannot be written is an I/O error; a closed pipe cannot take
            // the text, and the status still says what happened.
            Err(io) if !e.use_stderr() && io.kind() != io::ErrorKind::BrokenPipe => {
                let _ = writeln!(io::stderr(), "c4: {}", describe_io_error(&io));
                EXIT_FAILURE
            }
            _ => Failure::Usage(e).status(),
        },
        Err(failure) => {
            // A standard error that is gone (a closed terminal) cannot change the status.
            let _ = writeln!(io::stderr(), "{failure}");
            failure.status()
        }
    };
    ExitCode::from(status)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use clap::Parser;

    use c4_core::BookFileProblem;

    #[test]
    fn every_failure_has_its_documented_status() {
        let io = |kind| io::Error::new(kind, "test");
        let unreadable = || BookFileError {
            path: PathBuf::from("x"),
            problem: BookFileProblem::Io("it is a directory".into()),
        };
        assert_eq!(Failure::Io(io(io::ErrorKind::Other)).status(), EXIT_FAILURE);
        let book = Failure::Book(BuildError::NoShards);
        assert_eq!(book.status(), EXIT_FAILURE);
        assert_eq!(Failure::Book(unreadable().into()).status(), EXIT_USAGE);
        let unusable = Failure::UnusableBook {
            mode: "solve",
            source: unreadable(),
        };
        assert_eq!(unusable.status(), EXIT_USAGE);
        let read = BenchError::Read {
            path: "x".into(),
            reason: "gone".into(),
        };
        assert_eq!(Failure::from(read).status(), EXIT_USAGE);
        let help = Cli::try_parse_from(["c4", "--help"]).unwrap_err();
        assert_eq!(Failure::Usage(help).status(), EXIT_SUCCESS);
        let usage = Cli::try_parse_from(["c4", "--bogus"]).unwrap_err();
        assert_eq!(Failure::Usage(usage).status(), EXIT_USAGE);
    }

    #[test]
    fn a_closed_output_is_not_an_error_wherever_it_is_met() {
        let pipe = || io::Error::new(io::ErrorKind::BrokenPipe, "closed");
        assert!(Failure::Io(pipe()).is_closed_output());
        assert!(Failure::from(BenchError::Output(pipe())).is_closed_output());
        let book = Failure::Book(BuildError::Io {
            path: PathBuf::from("standard output"),
            source: pipe(),
        });
        assert!(book.is_closed_output());
        let full = io::Error::new(io::ErrorKind::StorageFull, "full");
        assert!(!Failure::Io(full).is_closed_output());
    }
}
