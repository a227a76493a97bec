//! The `c4` command: parses the command line and hands it to [`c4::cmd`], which runs the mode it
//! asks for and gives the exit status.

use std::process::ExitCode;

use clap::Parser;

use c4::cmd::{self, Cli};

fn main() -> ExitCode {
    let outcome = Cli::try_parse()
        .map_err(cmd::Failure::from)
        .and_then(cmd::run);
    cmd::exit(outcome)
}
