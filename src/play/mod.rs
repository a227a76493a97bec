//! `c4 play`: Connect Four for people at a terminal, from a start menu through whole games.
//! This front end does its own I/O on any `BufRead`/`Write` pair; every rule, layout, file
//! format and move choice comes from the layers below.

mod options;
mod session;

use std::io::{self, BufWriter, IsTerminal};
use std::process::ExitCode;

pub use options::{
    check_name, level_name, parse_level, BoardStyle, ColumnNames, PlayOptions, SettingError,
    MAX_LOOKAHEAD, MAX_NAME_CHARS, SETTINGS,
};
pub use session::run;

/// What `c4 play --help` prints.
pub const USAGE: &str = "usage: c4 play [SETTINGS]

Plays Connect Four in the terminal: a menu, then games between people and the computer.
Every setting can also be changed from the menu (s = setup) by typing it without the dashes
(width 9, computer o=perfect, columns letters).

  --width N              board width, 1-16 (default 7)
  --height N             board height, 1-16 (default 6)
  --connect N            how many in a row win, 2-16 (default 4)
  --players N            number of players, 2-8, with tokens x o a b c d e f
  --tokens XOA           the players' tokens in turn order (sets the number of players)
  --names Ann,Ben        the people's names in turn order, skipping the computer's players
                         (who are called Computer); others are asked at each new game
  --computer TOKEN=LEVEL the computer plays TOKEN; LEVEL is random, lookahead:N (N 1-8, with
                         :left, :right or :random to break ties; left if not given) or perfect;
                         give it once per computer player
  --style STYLE          grid (S0), dots (S1), letters (S2), pipes (S4), numbers (S3: 0 empty,
                         1 and 2 the players) or colour (colour: dots with coloured tokens
                         on a terminal when NO_COLOR is unset; grid otherwise)
  --columns NAMING       numbers (1-16, the default), letters (A-P) or from-zero (0-15, as S4
                         counts): how prompts, messages and the board's labels name columns
                         and, for from-zero, how typed numbers and --moves are read
  --letters              short for --columns letters
  --from-zero            short for --columns from-zero
  --early-draw on|off    end the game as soon as nobody can complete a line (default on)
  --seed N               seed for the computer's random choices (default: from the clock on a
                         terminal, 0 when standard input is not a terminal)
  --fen FEN              start new games from this position (the FEN sets the board size)
  --moves MOVES          then play these moves (4453, or d d e c)
  --start                play one game at once: no menu, no questions for names (people not
                         named by --names are Player 1, Player 2, ...); c4 play ends with the
                         game or at the end of the input, so a file of columns plays a game

Each turn takes a column, u (undo), h (hint), s (save), or q (quit). When standard input is not
a terminal, each answer is echoed after its prompt so that the output reads like a session.";

/// `c4 play ARGS`: reads the flags, runs the menu on standard input and output, and gives the
/// exit status (0 when the player quits or the input ends, 2 for bad flags, 1 for an I/O error).
pub fn main_with_args(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let mut options = match PlayOptions::from_args(args) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("c4 play: {e}\n(c4 play --help lists the settings)");
            return ExitCode::from(2);
        }
    };
    let stdin = io::stdin();
    options.echo = !stdin.is_terminal();
    options.colour_allowed =
        io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    options.thinking_shown = io::stdout().is_terminal();
    if options.seed.is_none() && stdin.is_terminal() {
        options.seed = Some(clock_seed());
    }
    let output = BufWriter::new(io::stdout().lock());
    match run(stdin.lock(), output, options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("c4 play: {e}");
            ExitCode::from(1)
        }
    }
}

/// A seed that differs from run to run, so that games against the computer vary at a terminal.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
