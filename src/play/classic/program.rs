//! The five programs by name ([`Program`]) and running one's whole dialogue.

use std::io::{self, BufRead, Write};

use super::dialogue::{Dialogue, Halt};
use super::{dots, grid, letters, numbers, pipes, turns};
use crate::play::options::{OptionError, PlayOptions};
use c4_core::Level;

/// One of the five original programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// The two-player C++ game with load and save, names, and a boxed grid.
    Grid,
    /// The `ConnectFour` class graded by piped input files: `X's turn: ` and a dotted board.
    Dots,
    /// The person (`X`) against a random computer (`O`), columns `A`-`G`.
    Letters,
    /// The minimal Python game whose board is a grid of `0`, `1` and `2`.
    Numbers,
    /// The Python `Board` class's `hostGame`: `X's choice: ` and 0-based columns.
    Pipes,
}

impl Program {
    /// Every program, in the order they are listed to users.
    pub const ALL: [Program; 5] = [
        Program::Grid,
        Program::Dots,
        Program::Letters,
        Program::Numbers,
        Program::Pipes,
    ];

    /// The program called `name` (`grid`, `dots`, `letters`, `numbers` or `pipes`).
    pub fn from_name(name: &str) -> Option<Program> {
        Program::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The program's name, as [`Program::from_name`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Program::Grid => "grid",
            Program::Dots => "dots",
            Program::Letters => "letters",
            Program::Numbers => "numbers",
            Program::Pipes => "pipes",
        }
    }

    /// The names of every program, for messages: `grid, dots, letters, numbers, pipes`.
    pub fn names() -> String {
        Program::ALL.map(Program::name).join(", ")
    }

    /// The `c4 play` flags (without dashes) whose settings the program has: the dots program
    /// takes any tokens, a start position and a computer for its last player, as its
    /// constructor and its bonus do; the letters program lets its computer be stronger; the
    /// others play their documents' game as it is.
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            Program::Dots => &["tokens", "fen", "moves", "computer", "seed"],
            Program::Letters => &["computer", "seed"],
            Program::Grid | Program::Numbers | Program::Pipes => &[],
        }
    }

    /// The game the program plays before any flag: its tokens, its computer, and for the dots
    /// program the early draw its bonus asks for.
    pub fn defaults(self) -> PlayOptions {
        let tokens = match self {
            Program::Grid | Program::Numbers => vec!['x', 'o'],
            Program::Dots => vec!['X', 'Y'],
            Program::Letters | Program::Pipes => vec!['X', 'O'],
        };
        PlayOptions {
            tokens,
            computers: match self {
                Program::Letters => vec![('O', Level::Random)],
                _ => Vec::new(),
            },
            early_draw: self == Program::Dots,
            ..PlayOptions::default()
        }
    }

    /// The only token a computer may play: the dots program's last player, the letters
    /// program's `O`; `None` where the program has no computer.
    pub fn computer_token(self, options: &PlayOptions) -> Option<char> {
        match self {
            Program::Dots => options.tokens.last().copied(),
            Program::Letters => Some('O'),
            Program::Grid | Program::Numbers | Program::Pipes => None,
        }
    }

    /// Checks the settings made from the program's defaults and its flags: computers only
    /// where the program has one, and a game the rules accept.
    pub fn check(self, options: &PlayOptions) -> Result<(), OptionError> {
        for &(token, _) in &options.computers {
            match self.computer_token(options) {
                None => return Err(OptionError::NoComputer(self.name())),
                Some(allowed) if allowed != token => {
                    return Err(OptionError::ClassicComputer {
                        program: self.name(),
                        token,
                        allowed,
                    })
                }
                Some(_) => {}
            }
        }
        options.check()
    }
}

/// Runs `program` on `input` and `output` until it ends, the player quits or the input ends.
/// With `options.echo` each answer is written after its prompt.
///
/// # Errors
/// Only I/O errors of `input` or `output`.
pub fn run(
    input: impl BufRead,
    output: impl Write,
    program: Program,
    options: &PlayOptions,
) -> io::Result<()> {
    let mut dialogue = Dialogue::new(input, output, options.echo);
    let ran = match program {
        Program::Grid => grid::session(&mut dialogue, options),
        Program::Dots => turns::one_game(&mut dialogue, &dots::Dots, options),
        Program::Letters => letters::session(&mut dialogue, options),
        Program::Numbers => turns::one_game(&mut dialogue, &numbers::Numbers, options),
        Program::Pipes => turns::one_game(&mut dialogue, &pipes::Pipes, options),
    };
    match ran {
        Ok(()) | Err(Halt::EndOfInput) => dialogue.finish(),
        Err(Halt::Io(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for program in Program::ALL {
            assert_eq!(Program::from_name(program.name()), Some(program));
        }
        assert_eq!(Program::from_name("S0"), None);
        assert_eq!(Program::names(), "grid, dots, letters, numbers, pipes");
    }

    #[test]
    fn computers_only_where_the_program_has_one() {
        let letters = Program::Letters.defaults();
        assert!(Program::Letters.check(&letters).is_ok());
        let mut wrong = letters.clone();
        wrong.computers.push(('X', Level::Random));
        assert_eq!(
            Program::Letters.check(&wrong).unwrap_err().to_string(),
            "the letters program's computer plays O, not X"
        );
        let mut grid = Program::Grid.defaults();
        grid.computers.push(('o', Level::Perfect));
        assert_eq!(
            Program::Grid.check(&grid).unwrap_err().to_string(),
            "the grid program has no computer player"
        );
        let mut dots = Program::Dots.defaults();
        dots.tokens = vec!['X', 'Y', 'Z'];
        dots.computers.push(('Z', Level::Perfect));
        assert!(Program::Dots.check(&dots).is_ok());
    }

    #[test]
    fn every_program_ends_quietly_when_the_input_ends() {
        let ends = [
            (Program::Grid, "Enter L to load a game, or P to play: \n"),
            (Program::Dots, " .  .  .  .  .  .  .\nX's turn: \n"),
            (Program::Letters, "Enter p to play. Enter q to quit.\n"),
            (
                Program::Numbers,
                "0 0 0 0 0 0 0\nPlayer 1, choose a column (1-7): \n",
            ),
            (Program::Pipes, "0 1 2 3 4 5 6\n\nX's choice: \n"),
        ];
        for (program, end) in ends {
            let mut out = Vec::new();
            run(&b""[..], &mut out, program, &program.defaults()).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(text.ends_with(end), "{program:?}: {text}");
        }
    }
}
