//! Replies: what a command answers ([`Response`]) and how a reply is framed on the wire.
//! Framing: `=` or `?`, the id if the command had one, then the text; one line replies put the
//! text after a space, longer ones start on the next line; an empty line ends every reply.

use crate::notation::format_moves;
use crate::rules::{Column, DrawReason, Game, Line, Outcome};

/// What a successful command answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Response {
    /// Nothing to say.
    Done,
    /// Where the game stands after a command that changed it, on one line.
    Summary(String),
    /// Text lines, as they are (a board, a list).
    Lines(Vec<String>),
    /// One line of text.
    Line(String),
}

impl Response {
    /// The one-line summary of a game: `ply 7, o to move`, `ply 7, x wins: horizontal a1 b1 c1 d1`,
    /// `ply 42, draw: board full`, `ply 20, draw: no line left`.
    pub fn summary(game: &Game) -> Response {
        Response::Summary(summary_line(game))
    }

    /// The summary's text alone, to append to another reply.
    pub fn summary_text(game: &Game) -> String {
        summary_line(game)
    }

    /// The `status` lines of a game.
    pub fn status(game: &Game) -> Response {
        let v = game.variant();
        let to_move = match game.outcome() {
            Outcome::InProgress => v.token(game.to_move()).to_string(),
            Outcome::Win(_) | Outcome::Draw(_) => "none".to_string(),
        };
        let mut lines = vec![
            format!("to-move {to_move}"),
            format!("ply {}", game.ply()),
            format!("moves {}", format_moves(game.history(), v.width()))
                .trim_end()
                .to_string(),
        ];
        match game.outcome() {
            Outcome::InProgress => lines.push("result in-progress".into()),
            Outcome::Win(p) => {
                lines.push(format!("result win {}", v.token(p)));
                lines.extend(
                    game.winning_lines()
                        .iter()
                        .map(|l| format!("line {}", line_words(l))),
                );
            }
            Outcome::Draw(reason) => lines.push(format!("result draw {reason}")),
        }
        Response::Lines(lines)
    }

    /// Columns as 1-based numbers separated by spaces.
    pub fn columns(columns: &[Column]) -> Response {
        Response::Line(
            columns
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" "),
        )
    }
}

/// A line as `direction cell cell ...`, e.g. `horizontal a1 b1 c1 d1`.
fn line_words(line: &Line) -> String {
    let cells: Vec<String> = line.cells.iter().map(|c| c.to_string()).collect();
    format!("{} {}", line.direction.name(), cells.join(" "))
}

fn summary_line(game: &Game) -> String {
    let v = game.variant();
    let state = match game.outcome() {
        Outcome::InProgress => format!("{} to move", v.token(game.to_move())),
        Outcome::Win(p) => {
            let lines: Vec<String> = game.winning_lines().iter().map(line_words).collect();
            format!("{} wins: {}", v.token(p), lines.join(", "))
        }
        Outcome::Draw(DrawReason::BoardFull) => "draw: board full".to_string(),
        Outcome::Draw(DrawReason::NoLineLeft) => "draw: no line left".to_string(),
    };
    format!("ply {}, {}", game.ply(), state)
}

/// Frames a reply: marker, id, text, and the empty line that ends it.
pub fn frame(id: Option<u64>, reply: &Result<Response, String>) -> String {
    let (marker, lines): (char, Vec<&str>) = match reply {
        Ok(Response::Done) => ('=', vec![]),
        Ok(Response::Summary(s) | Response::Line(s)) => ('=', vec![s.as_str()]),
        Ok(Response::Lines(ls)) => ('=', ls.iter().map(String::as_str).collect()),
        Err(message) => ('?', vec![message.as_str()]),
    };
    let mut out = String::new();
    out.push(marker);
    if let Some(id) = id {
        out.push_str(&id.to_string());
    }
    match lines.as_slice() {
        [] => {}
        [one] if !matches!(reply, Ok(Response::Lines(_))) => {
            if !one.is_empty() {
                out.push(' ');
                out.push_str(one);
            }
        }
        many => {
            for line in many {
                out.push('\n');
                out.push_str(line);
            }
        }
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing() {
        assert_eq!(frame(None, &Ok(Response::Done)), "=\n\n");
        assert_eq!(frame(Some(3), &Ok(Response::Done)), "=3\n\n");
        assert_eq!(
            frame(Some(3), &Ok(Response::Line("1 2".into()))),
            "=3 1 2\n\n"
        );
        assert_eq!(frame(None, &Ok(Response::Line(String::new()))), "=\n\n");
        assert_eq!(
            frame(None, &Ok(Response::Lines(vec!["a".into(), "b".into()]))),
            "=\na\nb\n\n"
        );
        assert_eq!(
            frame(Some(9), &Err("column 4 is full".into())),
            "?9 column 4 is full\n\n"
        );
    }
}
