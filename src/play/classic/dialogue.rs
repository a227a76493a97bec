//! Writing the programs' words and reading answers, as the classic programs do it: text is
//! written exactly as given (each program says where its lines and blank lines end), prompts are
//! flushed before reading, and with echo on each answer follows its prompt so that piped input
//! gives a transcript that reads like a terminal session.

use std::io::{self, BufRead, Write};

use crate::play::conversation::read_answer;

/// Why a program stops before its own end.
#[derive(Debug)]
pub(super) enum Halt {
    /// The input ended.
    EndOfInput,
    /// Writing or reading failed.
    Io(io::Error),
}

impl From<io::Error> for Halt {
    fn from(e: io::Error) -> Self {
        Halt::Io(e)
    }
}

/// The input and output of one run.
pub(super) struct Dialogue<R, W> {
    input: R,
    output: W,
    echo: bool,
}

impl<R: BufRead, W: Write> Dialogue<R, W> {
    pub(super) fn new(input: R, output: W, echo: bool) -> Self {
        Dialogue {
            input,
            output,
            echo,
        }
    }

    /// Writes `text` as it is: the caller ends its lines.
    pub(super) fn write(&mut self, text: &str) -> io::Result<()> {
        self.output.write_all(text.as_bytes())
    }

    /// Writes `prompt`, flushes, and reads one answer, trimmed. At the end of the input a
    /// prompt left open is ended with a newline, so that a shell's prompt starts on its own
    /// line; the programs themselves say nothing more there.
    pub(super) fn ask(&mut self, prompt: &str) -> Result<String, Halt> {
        self.write(prompt)?;
        self.output.flush()?;
        let Some(answer) = read_answer(&mut self.input)? else {
            if !prompt.is_empty() && !prompt.ends_with('\n') {
                self.write("\n")?;
            }
            return Err(Halt::EndOfInput);
        };
        if self.echo {
            self.write(&format!("{answer}\n"))?;
        }
        Ok(answer)
    }

    /// Flushes what is left to write.
    pub(super) fn finish(&mut self) -> io::Result<()> {
        self.output.flush()
    }
}
