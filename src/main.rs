//! The `c4` command: parses the command line ([`c4::cli`]), runs the mode it asks for on
//! stdin/stdout, and maps the result to an exit status: 0 success, 1 a failed command under
//! `--strict`, a wrong benchmark score or an I/O error, 2 a usage error or an unreadable file.
//! A closed stdout is not an error.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;

use c4::batch::{run_batch_solve, run_bench, run_empty_board_bench, BenchError, BenchOptions};
use c4::cli::{usage_error, BenchArgs, Cli, Mode, EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE};
use c4::protocol::{self, ugi, Exit, Options};
use c4::textio::book::BookFileError;
use c4::textio::describe;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    let result = match cli.command {
        None => {
            // Not locked: in the UGI dialect a search thread writes too.
            let stdout = BufWriter::new(io::stdout());
            let options = Options { strict: cli.strict };
            protocol::run(io::stdin(), stdout, options).map(|exit| match exit {
                Exit::Quit | Exit::EndOfInput => EXIT_SUCCESS,
                Exit::Failed => EXIT_FAILURE,
            })
        }
        Some(Mode::Play(args)) => match args.into_options() {
            Ok(options) => c4::play::run_stdio(options).map(|()| EXIT_SUCCESS),
            Err(e) => return clap_exit(&usage_error(Some("play"), e)),
        },
        Some(Mode::Solve(args)) => match args.options() {
            Ok(options) => {
                let stdout = BufWriter::new(io::stdout().lock());
                run_batch_solve(io::stdin().lock(), stdout, &options).map(|()| EXIT_SUCCESS)
            }
            Err(e) => return unusable_book("solve", &e),
        },
        Some(Mode::Bench(args)) => match args.check() {
            Err(e) => return clap_exit(&e),
            Ok(()) => match args.options() {
                Err(e) => return unusable_book("bench", &e),
                Ok(options) => match bench(&args, &options) {
                    Ok(code) => Ok(code),
                    Err(e @ BenchError::Read { .. }) => {
                        eprintln!("c4 bench: {e}");
                        return ExitCode::from(EXIT_USAGE);
                    }
                    Err(BenchError::Output(e)) => Err(e),
                },
            },
        },
        Some(Mode::Book(args)) => return c4::bookbuild::cli::main(args),
        Some(Mode::Ugi) => {
            let stdin = io::BufReader::new(io::stdin());
            let stdout = BufWriter::new(io::stdout());
            ugi::run(stdin, stdout, ugi::Opening::Fresh).map(|_| EXIT_SUCCESS)
        }
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(EXIT_SUCCESS),
        Err(e) => {
            eprintln!("c4: {}", describe(&e));
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Prints clap's help, version or usage error and gives its status (0 or [`EXIT_USAGE`]; help
/// or version that cannot be written, [`EXIT_FAILURE`]).
fn clap_exit(e: &clap::Error) -> ExitCode {
    match e.print() {
        Err(io) if !e.use_stderr() && io.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("c4: {}", describe(&io));
            ExitCode::from(EXIT_FAILURE)
        }
        // A closed pipe cannot take the text; the status still says what happened.
        _ => ExitCode::from(if e.use_stderr() {
            EXIT_USAGE
        } else {
            EXIT_SUCCESS
        }),
    }
}

/// A `--book` file that cannot be used: said on stderr, status [`EXIT_USAGE`].
fn unusable_book(mode: &str, e: &BookFileError) -> ExitCode {
    eprintln!("c4 {mode}: cannot load book {e}");
    ExitCode::from(EXIT_USAGE)
}

/// `c4 bench`: the empty board, or the files given; 1 when a score did not match.
fn bench(args: &BenchArgs, options: &BenchOptions) -> Result<u8, BenchError> {
    let mut stdout = BufWriter::new(io::stdout().lock());
    if args.empty {
        run_empty_board_bench(&mut stdout, options)?;
        stdout.flush()?;
        return Ok(EXIT_SUCCESS);
    }
    let mut stderr = io::stderr();
    let progress = stderr
        .is_terminal()
        .then_some(&mut stderr as &mut dyn Write);
    let report = run_bench(&args.files, &mut stdout, options, progress)?;
    stdout.flush()?;
    for set in &report.sets {
        for line in &set.mismatches {
            eprintln!("c4 bench: {}: no match: {line}", set.file.display());
        }
    }
    let exact = report.sets.iter().all(|set| set.is_exact());
    Ok(if exact { EXIT_SUCCESS } else { EXIT_FAILURE })
}
