//! The `c4` command: parses the command line, runs the chosen mode on stdin/stdout, and maps
//! the result to an exit code. A closed stdout is not an error.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use c4::protocol::{self, Exit, Options};

const USAGE: &str = "usage: c4 [--strict]
       c4 play [SETTINGS]   (play in the terminal; c4 play --help lists the settings)

Reads protocol commands from standard input, one per line, and writes one reply per command
to standard output. See protocol.md for the commands.

  --strict    exit with status 1 at the first command that fails
  --help      show this text
  --version   show the version";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("play") {
        return c4::play::main_with_args(&args[1..]);
    }
    let mut options = Options::default();
    for arg in args {
        match arg.as_str() {
            "--strict" => options.strict = true,
            "--help" | "-h" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--version" | "-V" => {
                println!("c4 {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("c4: unknown argument '{other}'\n\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match protocol::run(stdin, stdout, options) {
        Ok(Exit::Quit | Exit::EndOfInput) => ExitCode::SUCCESS,
        Ok(Exit::Failed) => ExitCode::from(1),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("c4: {e}");
            ExitCode::from(1)
        }
    }
}
