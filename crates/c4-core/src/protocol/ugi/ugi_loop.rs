//! The UGI dialect's loop: [`run`], with a search on a thread of its own while the input is read.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use super::command::{parse_ugi, UgiCommand};
use super::reply::UgiReply;
use super::session::{GoPlan, UgiSession, UgiStep};
use crate::protocol::input::{clean_line, line_text, read_line};
use crate::protocol::reply::Info;
use crate::protocol::search::Search;
use crate::protocol::trust::Trust;

/// How the dialect starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    /// Nothing read yet (`c4 ugi`).
    Fresh,
    /// `ugi` was the first line, read by the protocol: answer it first.
    Greeted,
}

/// Why the dialect stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// `quit` was given.
    Quit,
    /// The input ended.
    EndOfInput,
}

/// Whether a protocol line is UGI's greeting, which switches the protocol to this dialect.
pub(crate) fn is_greeting(text: &str) -> bool {
    parse_ugi(text) == Ok(UgiCommand::Ugi)
}

/// The command a line of input holds (without its `\n`; a final `\r` is dropped), as this
/// dialect reads it: `None` for a blank or comment line, a line refused whole, or a bad line.
pub fn command_of(line: &[u8]) -> Option<UgiCommand> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = clean_line(line).ok()??;
    parse_ugi(text).ok()
}

/// How often a finished `go infinite` looks for the `stop` it waits for.
const INFINITE_POLL: Duration = Duration::from_millis(1);

/// One line as this dialect reads it.
enum Line {
    /// The input ended.
    End,
    /// A blank or comment line: nothing to do.
    Blank,
    /// A line that is not a command, and why: answered by an `info string`.
    Bad(String),
    /// A command.
    Command(UgiCommand),
}

/// Reads the next line; a line that is not a command is explained, not refused.
fn next_line(input: &mut impl BufRead) -> io::Result<Line> {
    let Some(raw) = read_line(input)? else {
        return Ok(Line::End);
    };
    Ok(match line_text(&raw) {
        Ok(None) => Line::Blank,
        Err(e) => Line::Bad(e.to_string()),
        Ok(Some(text)) => match parse_ugi(text) {
            Ok(command) => Line::Command(command),
            Err(e) => Line::Bad(e.to_string()),
        },
    })
}

/// Writes `replies` and flushes them.
fn write_replies<W: Write>(output: &Mutex<W>, replies: &[UgiReply]) -> io::Result<()> {
    if replies.is_empty() {
        return Ok(());
    }
    let text: String = replies.iter().map(UgiReply::text).collect();
    // A thread that panicked while writing leaves the lines it wrote; go on after them.
    let mut output = output
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    output.write_all(text.as_bytes())?;
    output.flush()
}

/// Runs the UGI dialect until `quit` or the end of input. Bad lines get no reply but an
/// `info string` saying what was wrong, and change nothing.
pub fn run(
    mut input: impl BufRead,
    output: impl Write + Send,
    opening: Opening,
    trust: Trust,
) -> io::Result<End> {
    let output = Mutex::new(output);
    let mut session = UgiSession::with_trust(trust);
    session.keep_tables_warm();
    if opening == Opening::Greeted {
        write_replies(&output, &[UgiReply::Hello(trust)])?;
    }
    let mut pending: Option<Line> = None;
    loop {
        let line = match pending.take() {
            Some(line) => line,
            None => next_line(&mut input)?,
        };
        let command = match line {
            Line::End => return Ok(End::EndOfInput),
            Line::Blank => continue,
            Line::Bad(message) => {
                write_replies(&output, &[UgiReply::InfoString(message)])?;
                continue;
            }
            Line::Command(command) => command,
        };
        match session.execute(command) {
            UgiStep::Reply(replies) => write_replies(&output, &replies)?,
            UgiStep::Quit => return Ok(End::Quit),
            UgiStep::Search(search, plan) => {
                pending = Some(go(&mut input, &output, &mut session, search, &plan)?);
            }
        }
    }
}

/// Runs a `go`: the search on a thread of its own, which writes `info` and `bestmove` when it
/// is done (a streaming analysis its `info` lines as they come; a `go infinite` its `bestmove`
/// only once it is done and stopped), and answers by its time budget, its `movetime`; and, on
/// this thread, the reading of input. While the search runs, `isready` is answered at once and
/// bad lines are explained; `stop` and `quit` stop it; any other command waits for it to finish
/// (and stops a `go infinite`, which would not finish). Gives back the line that ended the
/// reading, to run next.
fn go<W: Write + Send>(
    input: &mut impl BufRead,
    output: &Mutex<W>,
    session: &mut UgiSession,
    search: Box<Search>,
    plan: &GoPlan,
) -> io::Result<Line> {
    let stop = search.stop_flag();
    thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let mut last: Option<Info> = None;
            let (finished, streamed) = if search.is_stream() {
                // The analysis's lines differ in every column's view; UGI's show the best
                // column's, so one that says what the last said is left out.
                let mut written: Option<UgiReply> = None;
                let mut emit = |info: &Info| {
                    last = Some(info.clone());
                    let line = plan.info(info);
                    if written.as_ref() == Some(&line) {
                        return Ok(());
                    }
                    write_replies(output, std::slice::from_ref(&line))?;
                    written = Some(line);
                    Ok(())
                };
                search.run_stream(&mut emit)
            } else {
                (search.run(), Ok(()))
            };
            if plan.infinite {
                while !stop.load(Ordering::Relaxed) {
                    thread::sleep(INFINITE_POLL);
                }
            }
            let written = streamed
                .and_then(|()| write_replies(output, &plan.replies(&finished, last.as_ref())));
            (finished, written)
        });
        let next = read_during_search(input, output, &stop, plan.infinite);
        if next.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        let (finished, written) = worker
            .join()
            .map_err(|_| io::Error::other("the search thread failed"))?;
        session.finish(finished);
        written?;
        next
    })
}

/// Reads lines while a search runs, up to the one that ends the reading (see [`go`]).
fn read_during_search<W: Write>(
    input: &mut impl BufRead,
    output: &Mutex<W>,
    stop: &AtomicBool,
    infinite: bool,
) -> io::Result<Line> {
    loop {
        match next_line(input)? {
            Line::Blank => {}
            Line::Bad(message) => write_replies(output, &[UgiReply::InfoString(message)])?,
            Line::Command(UgiCommand::IsReady) => write_replies(output, &[UgiReply::ReadyOk])?,
            Line::Command(UgiCommand::Stop) => {
                stop.store(true, Ordering::Relaxed);
                return Ok(Line::Blank);
            }
            Line::Command(UgiCommand::Quit) => {
                stop.store(true, Ordering::Relaxed);
                return Ok(Line::Command(UgiCommand::Quit));
            }
            line => {
                if infinite {
                    stop.store(true, Ordering::Relaxed);
                }
                return Ok(line);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(input: &str) -> String {
        let mut out = Vec::new();
        run(
            io::Cursor::new(input.as_bytes()),
            &mut out,
            Opening::Fresh,
            Trust::Full,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn queries_and_bad_lines() {
        assert_eq!(
            transcript("isready\nposition startpos moves 4 4 4\nquery p1turn\nquery gameover\njump\n"),
            "readyok\nresponse false\nresponse false\ninfo string unknown command 'jump'; expected one of: ugi, isready, setoption, uginewgame, position, query, go, stop, quit\n"
        );
    }

    #[test]
    fn a_book_position_is_answered_from_the_book() {
        assert_eq!(
            transcript("position startpos moves 4455\ngo p1time 200 p2time 200\n"),
            "info nodes 0 score mate 2 pv 3\nbestmove 3\n"
        );
    }

    #[test]
    fn a_finished_game_has_no_move() {
        assert_eq!(
            transcript("position startpos moves 1212121\ngo depth 3\nquery result\n"),
            "info string the game is over (x won); there is no move to choose\nbestmove none\nresponse p1win\n"
        );
    }

    #[test]
    fn an_infinite_search_of_a_finished_game_waits_for_stop_and_has_no_move() {
        assert_eq!(
            transcript("position startpos moves 1212121\ngo infinite\nisready\nstop\n"),
            "readyok\ninfo string the game is over (x won); there is no move to choose\nbestmove none\n"
        );
    }

    #[test]
    fn quit_ends_a_search_and_the_session() {
        // Without the book the empty board takes minutes: only `quit` ends this soon.
        let out = transcript("setoption name book value false\nsetoption name hash value 2\ngo infinite\nquit\nisready\n");
        let last = out.lines().last().unwrap_or("");
        assert!(last.starts_with("bestmove "), "{out}");
        assert_eq!(out.matches("bestmove").count(), 1, "{out}");
    }
}
