//! `c4 play` on the process's terminal or pipes: [`run_stdio`].

use std::io::{self, BufWriter, IsTerminal};

use super::classic::{self, Program};
use super::conversation::run;
use super::options::PlayOptions;

/// `c4 play` with `options` (from [`crate::cmd::cli::PlayArgs`]) on standard input and output, until
/// the player quits or the input ends. Whether answers are echoed, colour is allowed and where
/// the seed comes from follow from whether standard input and output are terminals.
///
/// # Errors
/// Only I/O errors of standard input or output.
pub fn run_stdio(options: PlayOptions) -> io::Result<()> {
    on_stdio(options, run)
}

/// `c4 play --classic` as `program` with `options` on standard input and output, set up for
/// the terminal as [`run_stdio`] sets up `c4 play`.
///
/// # Errors
/// Only I/O errors of standard input or output.
pub fn run_classic_stdio(program: Program, options: PlayOptions) -> io::Result<()> {
    on_stdio(options, |input, output, options| {
        classic::run(input, output, program, &options)
    })
}

/// Runs `front_end` on standard input and output, with echo, colour, the thinking line and the
/// seed set from whether they are terminals.
fn on_stdio(
    mut options: PlayOptions,
    front_end: impl FnOnce(
        io::StdinLock<'static>,
        BufWriter<io::StdoutLock<'static>>,
        PlayOptions,
    ) -> io::Result<()>,
) -> io::Result<()> {
    let stdin = io::stdin();
    options.echo = !stdin.is_terminal();
    options.colour_allowed =
        io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    options.thinking_shown = io::stdout().is_terminal();
    if options.seed.is_none() && stdin.is_terminal() {
        options.seed = Some(clock_seed());
    }
    let output = BufWriter::new(io::stdout().lock());
    front_end(stdin.lock(), output, options)
}

/// A seed that differs from run to run, so that games against the computer vary at a terminal.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
