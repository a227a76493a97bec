//! Commands written back as lines: each [`Command`]'s `Display` is a line that parses back to
//! it (without an id), so that a command can be logged, replayed or sent on.

use std::fmt;

use super::{BookRequest, Bounds, Command, GoRequest, Start};
use crate::notation::MoveText;

impl fmt::Display for Bounds {
    /// `depth D nodes N movetime MS`, the bounds that are set, each after a space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(t) = self.movetime {
            write!(f, " movetime {t}")?;
        }
        Ok(())
    }
}

impl fmt::Display for GoRequest {
    /// The arguments as `go` reads them, each after a space; nothing for plain perfect play.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoRequest::Perfect(_) => {}
            GoRequest::Random { .. } => f.write_str(" random")?,
            GoRequest::Lookahead {
                plies, tie_break, ..
            } => write!(f, " lookahead {plies} {}", tie_break.name())?,
        }
        write!(f, "{}", self.bounds())
    }
}

/// `position startpos|fen FEN [moves SEQ]`, as [`super::position_spec`] reads it after the verb.
pub(in crate::protocol) fn write_position(
    f: &mut fmt::Formatter<'_>,
    start: &Start,
    moves: Option<&MoveText>,
) -> fmt::Result {
    match start {
        Start::StartPos => f.write_str("position startpos")?,
        Start::Fen(fen) => write!(f, "position fen {fen}")?,
    }
    match moves {
        Some(moves) => write!(f, " moves {moves}"),
        None => Ok(()),
    }
}

impl fmt::Display for Command {
    /// The command as a line that parses back to it (without an id).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::New(settings) if settings.is_empty() => f.write_str("new"),
            Command::New(settings) => write!(f, "new {settings}"),
            Command::Position { start, moves } => write_position(f, start, moves.as_ref()),
            Command::Moves(moves) => write!(f, "moves {moves}"),
            Command::Play(column) => write!(f, "play {column}"),
            Command::Undo(n) => write!(f, "undo {n}"),
            Command::Status => f.write_str("status"),
            Command::Show(None) => f.write_str("show"),
            Command::Show(Some(style)) => write!(f, "show {}", style.name()),
            Command::Fen => f.write_str("fen"),
            Command::Legal => f.write_str("legal"),
            Command::Names => f.write_str("names"),
            Command::EngineName => f.write_str("name"),
            Command::SetName { token, name } => write!(f, "name {token} {name}"),
            Command::Version => f.write_str("version"),
            Command::Save(path) => write!(f, "save {}", path.display()),
            Command::Load(path) => write!(f, "load {}", path.display()),
            Command::Perft(depth) => write!(f, "perft {depth}"),
            Command::Solve { weak: false } => f.write_str("solve"),
            Command::Solve { weak: true } => f.write_str("solve weak"),
            Command::Analyze => f.write_str("analyze"),
            Command::AnalyzeStream(request) => {
                write!(f, "analyze stream interval {}", request.interval)?;
                match request.nodes {
                    Some(n) => write!(f, " nodes {n}"),
                    None => Ok(()),
                }
            }
            Command::Go(request) => write!(f, "go{request}"),
            Command::Genmove(request) => write!(f, "genmove{request}"),
            Command::Stop => f.write_str("stop"),
            Command::Hint => f.write_str("hint"),
            Command::Seed(seed) => write!(f, "seed {seed}"),
            Command::Hash(size) => write!(f, "hash {}", size.mib()),
            Command::Threads(n) => write!(f, "threads {n}"),
            Command::Book(BookRequest::Show) => f.write_str("book"),
            Command::Book(BookRequest::On) => f.write_str("book on"),
            Command::Book(BookRequest::Off) => f.write_str("book off"),
            Command::Book(BookRequest::Load(path)) => write!(f, "book load {}", path.display()),
            Command::Help => f.write_str("help"),
            Command::ListCommands => f.write_str("list_commands"),
            Command::KnownCommand(name) => write!(f, "known_command {name}"),
            Command::ProtocolVersion => f.write_str("protocol_version"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_lines::{command, SAMPLES};
    use super::super::verbs;

    #[test]
    fn every_command_reads_back_from_its_display() {
        for line in SAMPLES {
            let parsed = command(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let written = parsed.to_string();
            assert_eq!(command(&written), Ok(parsed), "{line} -> {written}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Any line parses or fails with a message, never a panic; what parses reads back.
        #[test]
        fn any_line_parses_or_fails_and_reads_back(
            verb in proptest::sample::select(verbs().iter().map(|v| v.name).collect::<Vec<_>>()),
            args in "[ a-z0-9x/,.-]{0,24}",
        ) {
            let line = format!("{verb} {args}");
            if let Ok(parsed) = command(&line) {
                proptest::prop_assert_eq!(command(&parsed.to_string()), Ok(parsed));
            }
        }
    }
}
