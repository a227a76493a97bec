//! Every line the UGI dialect writes, as typed values; [`UgiReply::lines`] is the one place
//! their text is made. No framing: each reply is one or more whole lines.

use std::fmt;

use super::command::EngineOption;
use crate::protocol::reply::ENGINE_NAME;
use crate::protocol::trust::Trust;
use crate::rules::Column;
use crate::solver::TableSize;

/// Who `id author` names.
pub(crate) const ENGINE_AUTHOR: &str = "the c4 authors";

/// A reply of the UGI dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum UgiReply {
    /// `ugi`: `id name`, `id author`, an `option` line per option (with the ranges the client is
    /// trusted with), then `ugiok`.
    Hello(Trust),
    /// `isready`: `readyok`.
    ReadyOk,
    /// `query`: `response WORD`.
    Response(Answer),
    /// What a search found: `info …`.
    Info(SearchInfo),
    /// The move chosen, or none when the game is over: `bestmove 4`, `bestmove none`.
    BestMove(Option<Column>),
    /// An explanation, for people reading the log: `info string …`.
    InfoString(String),
}

/// The answer to a `query`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    /// `true` or `false` (`p1turn`, `gameover`).
    Yes(bool),
    /// `result`.
    Result(GameResult),
}

/// The result of a game, as `query result` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GameResult {
    /// The first player won.
    P1Win,
    /// The second player won.
    P2Win,
    /// Nobody won.
    Draw,
    /// The game goes on (or a player after the second won, in a game of more players).
    None,
}

/// A search's `info` line: the heuristic search's depth, the positions the exact search
/// visited, the score when it is proven, and the best line, starting with the move chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SearchInfo {
    /// How many moves deep the heuristic search looked, when it chose.
    pub depth: Option<u32>,
    /// Positions the exact search visited for this `go`.
    pub nodes: u64,
    /// The proven score, if any.
    pub score: Option<UgiScore>,
    /// The moves of the best line, starting with the move chosen.
    pub pv: Vec<Column>,
}

/// A proven score in UCI's words, from the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UgiScore {
    /// Neither side can force a win: `cp 0`.
    Draw,
    /// A forced win in this many of the side to move's moves (`mate 3`), or a forced loss when
    /// negative, the opponent winning with its that-many-th move from now (`mate -2`).
    Mate(i64),
}

impl fmt::Display for UgiScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UgiScore::Draw => f.write_str("cp 0"),
            UgiScore::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::P1Win => "p1win",
            GameResult::P2Win => "p2win",
            GameResult::Draw => "draw",
            GameResult::None => "none",
        })
    }
}

impl UgiReply {
    /// The reply's lines, without line endings.
    pub(crate) fn lines(&self) -> Vec<String> {
        match self {
            UgiReply::Hello(trust) => {
                let mut lines = vec![
                    format!("id name {ENGINE_NAME}"),
                    format!("id author {ENGINE_AUTHOR}"),
                ];
                lines.extend(
                    EngineOption::NAMES
                        .iter()
                        .map(|&name| option_line(name, *trust)),
                );
                lines.push("ugiok".to_string());
                lines
            }
            UgiReply::ReadyOk => vec!["readyok".to_string()],
            UgiReply::Response(Answer::Yes(yes)) => vec![format!("response {yes}")],
            UgiReply::Response(Answer::Result(result)) => vec![format!("response {result}")],
            UgiReply::Info(info) => {
                let mut line = String::from("info");
                if let Some(depth) = info.depth {
                    line.push_str(&format!(" depth {depth}"));
                }
                line.push_str(&format!(" nodes {}", info.nodes));
                if let Some(score) = info.score {
                    line.push_str(&format!(" score {score}"));
                }
                line.push_str(" pv");
                for column in &info.pv {
                    line.push_str(&format!(" {column}"));
                }
                vec![line]
            }
            UgiReply::BestMove(Some(column)) => vec![format!("bestmove {column}")],
            UgiReply::BestMove(None) => vec!["bestmove none".to_string()],
            UgiReply::InfoString(text) => vec![format!("info string {text}")],
        }
    }

    /// The reply as text, each line ending in `\n`.
    pub(crate) fn text(&self) -> String {
        let mut text = String::new();
        for line in self.lines() {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }
}

/// The `option` line that declares `name` (one of [`EngineOption::NAMES`]).
fn option_line(name: &str, trust: Trust) -> String {
    let declaration = match name {
        "level" => "type string default perfect".to_string(),
        "hash" => format!(
            "type spin default {} min {} max {}",
            TableSize::SESSION.mib(),
            TableSize::MIN_MIB,
            trust.max_table_size().mib()
        ),
        "threads" => format!("type spin default 1 min 1 max {}", trust.max_threads()),
        _ => "type check default true".to_string(),
    };
    format!("option name {name} {declaration}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reply_is_written_in_its_words() {
        let hello = UgiReply::Hello(Trust::Full).text();
        assert_eq!(
            hello,
            "id name c4\n\
             id author the c4 authors\n\
             option name level type string default perfect\n\
             option name hash type spin default 64 min 2 max 524288\n\
             option name threads type spin default 1 min 1 max 64\n\
             option name book type check default true\n\
             ugiok\n"
        );
        assert_eq!(UgiReply::ReadyOk.text(), "readyok\n");
        assert_eq!(
            UgiReply::Response(Answer::Yes(false)).text(),
            "response false\n"
        );
        assert_eq!(
            UgiReply::Response(Answer::Result(GameResult::P2Win)).text(),
            "response p2win\n"
        );
        let info = SearchInfo {
            depth: None,
            nodes: 12,
            score: Some(UgiScore::Mate(-2)),
            pv: vec![Column::from_index(3)],
        };
        assert_eq!(
            UgiReply::Info(info).text(),
            "info nodes 12 score mate -2 pv 4\n"
        );
        let unproven = SearchInfo {
            depth: Some(3),
            nodes: 0,
            score: None,
            pv: vec![Column::from_index(0), Column::from_index(1)],
        };
        assert_eq!(
            UgiReply::Info(unproven).text(),
            "info depth 3 nodes 0 pv 1 2\n"
        );
        assert_eq!(
            UgiReply::BestMove(Some(Column::from_index(6))).text(),
            "bestmove 7\n"
        );
        assert_eq!(UgiReply::BestMove(None).text(), "bestmove none\n");
        assert_eq!(
            UgiReply::InfoString("column 4 is full".into()).text(),
            "info string column 4 is full\n"
        );
    }
}
