//! Replies: what a command answers, as typed values ([`Response`]), and the one place where they
//! become text and are framed on the wire. Framing: `=` or `?`, the id if the command had one,
//! then the text; one-line replies put the text after a space, longer ones start on the next
//! line; an empty line ends every reply.

use std::path::PathBuf;

use super::command::verbs;
use crate::engine::lookahead::{LOSS, WIN};
use crate::engine::perfect::{ordinal, Meaning};
use crate::engine::Forced;
use crate::notation::format_moves;
use crate::rules::{Column, DrawReason, Game, Line, Outcome, Token};
use crate::solver::{Score, Verdict};

pub(crate) use crate::engine::analysis::{ColumnView, Info};

/// The engine's name, as `name` answers it.
pub(crate) const ENGINE_NAME: &str = "c4";

/// The engine's version, the workspace's one (`[workspace.package]` in the root Cargo.toml): what
/// the protocol's `version` reply, `c4 --version` and the Python package's `c4.__version__` say.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where a game stands, as the summary line and `status` give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// The game goes on and this token is to move.
    ToMove(Token),
    /// This token has won with these lines.
    Won(Token, Vec<Line>),
    /// Nobody won.
    Drawn(DrawReason),
}

impl Standing {
    /// Where `game` stands.
    pub fn of(game: &Game) -> Standing {
        let v = game.variant();
        match game.outcome() {
            Outcome::InProgress => Standing::ToMove(v.token(game.to_move())),
            Outcome::Win(p) => Standing::Won(v.token(p), game.winning_lines()),
            Outcome::Draw(reason) => Standing::Drawn(reason),
        }
    }
}

/// The one-line summary of a game after a command changed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Stones on the board.
    pub ply: usize,
    /// Where the game stands.
    pub standing: Standing,
}

impl Summary {
    /// The summary of `game`.
    pub fn of(game: &Game) -> Summary {
        Summary {
            ply: game.ply(),
            standing: Standing::of(game),
        }
    }
}

/// How a finished game ended, as `solve` and `analyze` give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `winner` completed a line with its `stone`-th stone on the board, on ply `ply`.
    Won {
        winner: Token,
        stone: usize,
        ply: usize,
    },
    /// Nobody won.
    Drawn(DrawReason),
}

impl Ending {
    /// How `game` ended, or `None` while it goes on.
    pub fn of(game: &Game) -> Option<Ending> {
        match game.outcome() {
            Outcome::InProgress => None,
            Outcome::Win(p) => Some(Ending::Won {
                winner: game.variant().token(p),
                stone: game.board().stones_of(p),
                ply: game.ply(),
            }),
            Outcome::Draw(reason) => Some(Ending::Drawn(reason)),
        }
    }
}

/// Why `hint` chose its column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintReason {
    /// The solver's exact score, in words.
    Exact(Meaning),
    /// The heuristic search saw a forced result within `plies` moves, in a game of `players`.
    Forced {
        outcome: Forced,
        plies: u32,
        players: usize,
    },
    /// The heuristic search saw no forced result within this many moves.
    NoForcedResult(u32),
    /// A `stop` or the deadline cut the search short, and the look this many moves deep chose.
    Stopped(u32),
}

/// The opening book in use, as `book` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookInUse {
    /// `built-in`, or the file it was loaded from.
    pub source: String,
    /// The board it is for.
    pub width: u32,
    /// The board it is for.
    pub height: u32,
    /// The number of stones up to which it is complete.
    pub depth: u32,
    /// Its number of entries.
    pub positions: usize,
}

/// What a successful command answers, as values; [`Response::lines`] writes the text.
#[derive(Debug, Clone, PartialEq)]
pub enum Response {
    /// Nothing to say: `=` alone.
    Done,
    /// The summary of the game after a command changed it.
    Summary(Summary),
    /// `status`: the summary's facts, the moves played since the position was set, and the
    /// board's width to write them.
    Status {
        /// Where the game stands, and its ply.
        summary: Summary,
        /// The moves played since the position was set.
        moves: Vec<Column>,
        /// The board's width.
        width: usize,
        /// The game goes on, but nobody can complete a line any more (with the early draw rule
        /// on, that would have ended it).
        no_line_left: bool,
    },
    /// A board picture, one string per line.
    Board(Vec<String>),
    /// The position as FEN.
    Fen(String),
    /// Columns, left to right (`legal`).
    Columns(Vec<Column>),
    /// Every player's token and name, in turn order.
    Names(Vec<(Token, String)>),
    /// The engine's name.
    EngineName,
    /// The engine's version.
    Version,
    /// Whether a command is known (`known_command`).
    Known(bool),
    /// The protocol's version.
    ProtocolVersion(u32),
    /// Every verb with its arguments and what it does.
    Help,
    /// Every verb's name.
    CommandList,
    /// `save` wrote this file.
    Saved(PathBuf),
    /// A count (`perft`).
    Count(u64),
    /// The transposition table's size in use, in MiB.
    Hash(u32),
    /// Threads per exact search.
    Threads(u32),
    /// The opening book in use, if any.
    Book(Option<BookInUse>),
    /// `solve`: the exact score, what it means, and every column that keeps it.
    Solved {
        /// The score for the side to move.
        score: Score,
        /// What it means.
        meaning: Meaning,
        /// Every column that keeps it, left to right.
        best: Vec<Column>,
    },
    /// `solve`, `solve weak`, `analyze` or `analyze stream` on a finished game: how it ended.
    Over(Ending),
    /// `solve weak`: who can force a win.
    Weak {
        /// Win, draw or loss for the side to move.
        outcome: Verdict,
        /// The side to move.
        mover: Token,
        /// The other side.
        other: Token,
    },
    /// `analyze`: every column's exact score, `None` for a full column.
    Analysis(Vec<Option<Score>>),
    /// `go` and `genmove`: the column chosen, whether it is proven, and for `genmove` the
    /// summary after playing it.
    BestMove {
        /// The column chosen.
        column: Column,
        /// Whether a complete search backs it.
        proven: bool,
        /// The move's exact score, when the exact search found it (UGI's `info` line gives it;
        /// this protocol's reply does not).
        score: Option<Score>,
        /// The game after it was played (`genmove`).
        played: Option<Summary>,
    },
    /// `hint`: who should play which column, and why.
    Hint {
        /// The side to move.
        mover: Token,
        /// The column.
        column: Column,
        /// Why.
        reason: HintReason,
    },
}

impl Response {
    /// The summary of `game`.
    pub fn summary(game: &Game) -> Response {
        Response::Summary(Summary::of(game))
    }

    /// The `status` of `game`.
    pub fn status(game: &Game) -> Response {
        Response::Status {
            summary: Summary::of(game),
            moves: game.history().to_vec(),
            width: game.variant().width(),
            no_line_left: !game.outcome().is_over() && !game.can_anyone_connect(),
        }
    }

    /// The reply's text lines, and whether it is a multi-line reply (written after the marker
    /// on lines of their own, even when there is only one).
    pub fn lines(&self) -> (Vec<String>, bool) {
        let one = |text: String| (vec![text], false);
        let many = |lines: Vec<String>| (lines, true);
        let words = |items: Vec<String>| items.join(" ");
        match self {
            Response::Done => (vec![], false),
            Response::Summary(summary) => one(summary_text(summary)),
            Response::Status {
                summary,
                moves,
                width,
                no_line_left,
            } => many(status_lines(summary, moves, *width, *no_line_left)),
            Response::Board(lines) => many(lines.clone()),
            Response::Fen(fen) => one(fen.clone()),
            Response::Columns(columns) => {
                one(words(columns.iter().map(Column::to_string).collect()))
            }
            Response::Names(names) => many(
                names
                    .iter()
                    .map(|(token, name)| format!("{token} {name}"))
                    .collect(),
            ),
            Response::EngineName => one(ENGINE_NAME.to_string()),
            Response::Version => one(VERSION.to_string()),
            Response::Known(known) => one(known.to_string()),
            Response::ProtocolVersion(version) => one(version.to_string()),
            Response::Help => many(
                verbs()
                    .iter()
                    .map(|verb| format!("{} -- {}", verb.usage(), verb.about))
                    .collect(),
            ),
            Response::CommandList => {
                many(verbs().iter().map(|verb| verb.name.to_string()).collect())
            }
            Response::Saved(path) => one(format!("saved {}", path.display())),
            Response::Count(n) => one(n.to_string()),
            Response::Hash(mib) => one(format!("hash {mib} MiB")),
            Response::Threads(n) => one(format!("threads {n}")),
            Response::Book(None) => one("book off".to_string()),
            Response::Book(Some(book)) => one(format!(
                "book on: {}, {}x{} to ply {}, {} positions",
                book.source, book.width, book.height, book.depth, book.positions
            )),
            Response::Solved {
                score,
                meaning,
                best,
            } => one(format!(
                "score {score}; {meaning}; best {}",
                words(best.iter().map(Column::to_string).collect())
            )),
            Response::Over(Ending::Won { winner, stone, ply }) => one(format!(
                "over; {winner} won with its {} stone, on ply {ply}",
                ordinal(*stone as i64)
            )),
            Response::Over(Ending::Drawn(reason)) => one(format!("over; {}", draw_words(*reason))),
            Response::Weak {
                outcome,
                mover,
                other,
            } => one(match outcome {
                Verdict::Win => format!("win; {mover} can force a win"),
                Verdict::Draw => "draw; neither side can force a win".to_string(),
                Verdict::Loss => format!("loss; {other} can force a win"),
            }),
            Response::Analysis(scores) => one(words(
                scores
                    .iter()
                    .map(|s| s.map_or("full".to_string(), |s| s.to_string()))
                    .collect(),
            )),
            Response::BestMove {
                column,
                proven,
                played,
                score: _,
            } => {
                let proven = if *proven { "proven" } else { "unproven" };
                let mut text = format!("bestmove {column} {proven}");
                if let Some(summary) = played {
                    text.push_str("; ");
                    text.push_str(&summary_text(summary));
                }
                one(text)
            }
            Response::Hint {
                mover,
                column,
                reason,
            } => {
                let why = match reason {
                    HintReason::Exact(meaning) => meaning.to_string(),
                    HintReason::Forced {
                        outcome: Forced::Win,
                        plies,
                        ..
                    } => format!("{mover} forces a win within {plies} moves"),
                    HintReason::Forced {
                        outcome: Forced::Loss,
                        plies,
                        players,
                    } => {
                        let against = if *players > 2 {
                            ", if the others play together against it"
                        } else {
                            ""
                        };
                        format!("{mover} loses within {plies} moves whatever it plays{against}")
                    }
                    HintReason::NoForcedResult(plies) => {
                        format!("no forced result within {plies} moves")
                    }
                    HintReason::Stopped(1) => {
                        "stopped before it looked further than one move".to_string()
                    }
                    HintReason::Stopped(plies) => {
                        format!("stopped before it looked further than {plies} moves")
                    }
                };
                one(format!("{mover} should play column {column}: {why}"))
            }
        }
    }
}

/// A line as `direction cell cell ...`, e.g. `horizontal a1 b1 c1 d1`.
fn line_words(line: &Line) -> String {
    let cells: Vec<String> = line.cells.iter().map(|c| c.to_string()).collect();
    format!("{} {}", line.direction.name(), cells.join(" "))
}

/// `ply 7, o to move`, `ply 7, x wins: horizontal a1 b1 c1 d1`, `ply 42, draw: board full`,
/// `ply 20, draw: no line left`.
fn summary_text(summary: &Summary) -> String {
    let state = match &summary.standing {
        Standing::ToMove(token) => format!("{token} to move"),
        Standing::Won(token, lines) => {
            let lines: Vec<String> = lines.iter().map(line_words).collect();
            format!("{token} wins: {}", lines.join(", "))
        }
        Standing::Drawn(reason) => draw_words(*reason).to_string(),
    };
    format!("ply {}, {}", summary.ply, state)
}

/// `draw: board full` or `draw: no line left`.
fn draw_words(reason: DrawReason) -> &'static str {
    match reason {
        DrawReason::BoardFull => "draw: board full",
        DrawReason::NoLineLeft => "draw: no line left",
    }
}

/// The `status` lines.
fn status_lines(
    summary: &Summary,
    moves: &[Column],
    width: usize,
    no_line_left: bool,
) -> Vec<String> {
    let to_move = match &summary.standing {
        Standing::ToMove(token) => token.to_string(),
        Standing::Won(..) | Standing::Drawn(_) => "none".to_string(),
    };
    let mut lines = vec![
        format!("to-move {to_move}"),
        format!("ply {}", summary.ply),
        format!("moves {}", format_moves(moves, width))
            .trim_end()
            .to_string(),
    ];
    match &summary.standing {
        Standing::ToMove(_) => lines.push("result in-progress".into()),
        Standing::Won(token, won) => {
            lines.push(format!("result win {token}"));
            lines.extend(won.iter().map(|l| format!("line {}", line_words(l))));
        }
        Standing::Drawn(reason) => lines.push(format!("result draw {reason}")),
    }
    if no_line_left {
        lines.push("note no-line-left".into());
    }
    lines
}

/// An `info` line, without its line ending: `info nodes 812 scores -2 -1..3 full … pv 4 4 3`
/// for the exact search, `info depth 3 nodes 40 values 51 win full … pv 2` for the heuristic.
pub(crate) fn info_line(info: &Info) -> String {
    let mut line = String::from("info");
    if let Some(depth) = info.depth {
        line.push_str(&format!(" depth {depth}"));
    }
    line.push_str(&format!(" nodes {}", info.nodes));
    line.push_str(if info.depth.is_some() {
        " values"
    } else {
        " scores"
    });
    for view in &info.columns {
        let word = match *view {
            ColumnView::Full => "full".to_string(),
            ColumnView::Exact(score) => score.to_string(),
            ColumnView::Between(lower, upper) => format!("{lower}..{upper}"),
            ColumnView::Value(WIN) => "win".to_string(),
            ColumnView::Value(LOSS) => "loss".to_string(),
            ColumnView::Value(value) => value.to_string(),
        };
        line.push(' ');
        line.push_str(&word);
    }
    line.push_str(" pv");
    for column in &info.pv {
        line.push_str(&format!(" {column}"));
    }
    line
}

/// The start of a streaming reply, written at once: the marker and the id, alone on their line.
/// `info` lines follow, one per line, and an empty line ends the reply as usual.
pub(crate) fn stream_head(id: Option<u64>) -> String {
    match id {
        Some(id) => format!("={id}\n"),
        None => "=\n".to_string(),
    }
}

/// Frames a reply: marker, id, text, and the empty line that ends it; a failure's text is its
/// error's (the interpreter's [`ReplyError`](super::ReplyError)).
pub(crate) fn frame(id: Option<u64>, reply: &Result<Response, impl std::fmt::Display>) -> String {
    let (marker, (lines, multi)) = match reply {
        Ok(response) => ('=', response.lines()),
        Err(e) => ('?', (vec![e.to_string()], false)),
    };
    let mut out = String::new();
    out.push(marker);
    if let Some(id) = id {
        out.push_str(&id.to_string());
    }
    match lines.as_slice() {
        [] => {}
        [one] if !multi => {
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
    use crate::protocol::input::LineError;

    /// A reply framed as a success.
    fn framed(id: Option<u64>, response: Response) -> String {
        frame(id, &Ok::<_, LineError>(response))
    }

    #[test]
    fn framing() {
        assert_eq!(framed(None, Response::Done), "=\n\n");
        assert_eq!(framed(Some(3), Response::Done), "=3\n\n");
        let columns = vec![Column::from_index(0), Column::from_index(1)];
        assert_eq!(framed(Some(3), Response::Columns(columns)), "=3 1 2\n\n");
        assert_eq!(framed(None, Response::Columns(vec![])), "=\n\n");
        assert_eq!(
            framed(None, Response::Board(vec!["a".into(), "b".into()])),
            "=\na\nb\n\n"
        );
        assert_eq!(
            frame(Some(9), &Err(LineError::TooLong)),
            "?9 the line is longer than 16384 bytes and was ignored\n\n"
        );
    }

    #[test]
    fn info_lines() {
        let info = Info {
            depth: None,
            nodes: 812,
            columns: vec![
                ColumnView::Exact(Score::new(-2)),
                ColumnView::Between(Score::new(-1), Score::new(3)),
                ColumnView::Full,
            ],
            pv: vec![Column::from_index(1), Column::from_index(0)],
        };
        assert_eq!(
            info_line(&info),
            "info nodes 812 scores -2 -1..3 full pv 2 1"
        );
        let heuristic = Info {
            depth: Some(3),
            nodes: 40,
            columns: vec![
                ColumnView::Value(51),
                ColumnView::Value(WIN),
                ColumnView::Value(LOSS),
            ],
            pv: vec![Column::from_index(1)],
        };
        assert_eq!(
            info_line(&heuristic),
            "info depth 3 nodes 40 values 51 win loss pv 2"
        );
        assert_eq!(stream_head(Some(4)), "=4\n");
    }

    #[test]
    fn handshake_replies() {
        assert_eq!(framed(Some(7), Response::EngineName), "=7 c4\n\n");
        assert_eq!(framed(None, Response::Known(false)), "= false\n\n");
        assert_eq!(
            framed(None, Response::Version),
            format!("= {}\n\n", VERSION)
        );
    }

    #[test]
    fn summaries_and_status_from_the_game() {
        let game = Game::standard_after(&[1, 2, 1, 2, 1, 2, 1]);
        assert_eq!(
            framed(None, Response::summary(&game)),
            "= ply 7, x wins: vertical a1 a2 a3 a4\n\n"
        );
        assert_eq!(
            framed(None, Response::status(&game)),
            "=\nto-move none\nply 7\nmoves 1212121\nresult win x\nline vertical a1 a2 a3 a4\n\n"
        );
    }
}
