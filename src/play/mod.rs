//! `c4 play`: Connect Four for people at a terminal, from a start menu through whole games.
//! This front end does its own I/O on any `BufRead`/`Write` pair; every rule, layout, file
//! format and move choice comes from the layers below.

mod options;
mod session;

use std::io::{self, BufWriter, IsTerminal};

pub use options::{
    check_name, level_name, parse_level, BoardStyle, ColumnNames, OptionError, PlayOptions,
    MAX_LOOKAHEAD, SETTINGS,
};
pub use session::run;

/// `c4 play` with `options` (from [`crate::cmd::args::PlayArgs`]) on standard input and output, until
/// the player quits or the input ends. Whether answers are echoed, colour is allowed and where
/// the seed comes from follow from whether standard input and output are terminals.
///
/// # Errors
/// Only I/O errors of standard input or output.
pub fn run_stdio(mut options: PlayOptions) -> io::Result<()> {
    let stdin = io::stdin();
    options.echo = !stdin.is_terminal();
    options.colour_allowed =
        io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    options.thinking_shown = io::stdout().is_terminal();
    if options.seed.is_none() && stdin.is_terminal() {
        options.seed = Some(clock_seed());
    }
    let output = BufWriter::new(io::stdout().lock());
    run(stdin.lock(), output, options)
}

/// A seed that differs from run to run, so that games against the computer vary at a terminal.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
