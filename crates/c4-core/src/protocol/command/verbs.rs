//! The verb table: every command word with its arguments as `help` shows them, what it does,
//! and the parser of its arguments. `help`, `list_commands`, `known_command` and the line's
//! grammar all read it.

use std::sync::LazyLock;

use nom::combinator::{opt, success};
use nom::Parser;

use super::args::{
    arg, book_args, column, file_name, keyword, known_command_args, move_text, name_args, new_args,
    number, position_args, resource, seed, style, Args,
};
use super::go::{analyze_args, go_args};
use super::{Command, MAX_PERFT_DEPTH, MAX_UNDO};
use crate::notation::Style;
use crate::resources::ThreadCount;
use crate::solver::TableSize;

/// One verb of the protocol: how `help` shows it and how its arguments are read.
pub(crate) struct Verb {
    /// The command word.
    pub name: &'static str,
    /// Its arguments, as `help` and usage errors show them; empty for none.
    pub args: String,
    /// What it does, for `help`.
    pub about: &'static str,
    /// The nom parser of its arguments (the line after the verb), giving the command.
    pub(super) parse: for<'a> fn(&'a str) -> Args<'a, Command>,
}

impl Verb {
    /// `name args`, or the name alone.
    pub(crate) fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }
}

/// Every verb, in the order `help` and `list_commands` give them.
pub(crate) fn verbs() -> &'static [Verb] {
    &VERBS
}

/// Whether `name` is a command of the protocol.
pub(crate) fn is_known(name: &str) -> bool {
    verbs().iter().any(|verb| verb.name == name)
}

static VERBS: LazyLock<Vec<Verb>> = LazyLock::new(|| {
    fn verb(
        name: &'static str,
        args: &str,
        about: &'static str,
        parse: for<'a> fn(&'a str) -> Args<'a, Command>,
    ) -> Verb {
        Verb {
            name,
            args: args.to_string(),
            about,
            parse,
        }
    }
    let styles: Vec<&str> = Style::ALL.iter().map(|s| s.name()).collect();
    vec![
        verb(
            "new",
            "[WxH] [width W] [height H] [connect K] [players N] [tokens T] [early-draw on|off]",
            "start a new game; settings not given keep their current values",
            new_args,
        ),
        verb(
            "position",
            "startpos|fen <FEN> [moves <seq>]",
            "set the position, optionally followed by moves",
            position_args,
        ),
        verb(
            "moves",
            "<seq>",
            "play a sequence of columns, all or none",
            |i| move_text.map(Command::Moves).parse(i),
        ),
        verb(
            "play",
            "<column>",
            "play one column for the side to move",
            |i| arg("a column", column).map(Command::Play).parse(i),
        ),
        verb(
            "undo",
            "[n]",
            "take back n moves (default 1), all or none",
            |i| {
                opt(arg("a count", number("count", 1, MAX_UNDO.into())))
                    .map(|n| Command::Undo(n.map_or(1, |n| n as u32)))
                    .parse(i)
            },
        ),
        verb(
            "status",
            "",
            "side to move, ply and result, with the winning line",
            |i| success(Command::Status).parse(i),
        ),
        verb(
            "show",
            &format!("[{}]", styles.join("|")),
            "draw the board",
            |i| opt(arg("a style", style)).map(Command::Show).parse(i),
        ),
        verb("fen", "", "the position as FEN", |i| {
            success(Command::Fen).parse(i)
        }),
        verb("legal", "", "the columns that can be played", |i| {
            success(Command::Legal).parse(i)
        }),
        verb("names", "", "every player's token and name", |i| {
            success(Command::Names).parse(i)
        }),
        verb(
            "name",
            "[<token> <name>]",
            "the engine's name; with a token and a name, set that player's name",
            name_args,
        ),
        verb("version", "", "the engine's version", |i| {
            success(Command::Version).parse(i)
        }),
        verb(
            "save",
            "<file>",
            "save the names and the position to a file",
            |i| file_name.map(Command::Save).parse(i),
        ),
        verb(
            "load",
            "<file>",
            "load names and a position saved with save",
            |i| file_name.map(Command::Load).parse(i),
        ),
        verb(
            "perft",
            "<depth>",
            "count the move sequences of a given length",
            |i| {
                arg("a depth", number("depth", 0, MAX_PERFT_DEPTH.into()))
                    .map(|n| Command::Perft(n as u32))
                    .parse(i)
            },
        ),
        verb(
            "solve",
            "[weak]",
            "the exact score for the side to move, in words, and every best column",
            |i| {
                opt(arg("'weak'", keyword("'weak'", "weak")))
                    .map(|weak| Command::Solve {
                        weak: weak.is_some(),
                    })
                    .parse(i)
            },
        ),
        verb(
            "analyze",
            "[stream [interval <ms>] [nodes <n>]]",
            "the exact score of every column for the side to move; with stream, info lines until the next command",
            analyze_args,
        ),
        verb(
            "go",
            "[random|lookahead <n> [left|right|random]|perfect] [depth <d>] [nodes <n>] [movetime <ms>]",
            "choose a move for the side to move",
            |i| go_args.map(Command::Go).parse(i),
        ),
        verb(
            "genmove",
            "[same as go]",
            "choose a move as go does, and play it",
            |i| go_args.map(Command::Genmove).parse(i),
        ),
        verb(
            "stop",
            "",
            "end the running search at once; it still replies",
            |i| success(Command::Stop).parse(i),
        ),
        verb(
            "hint",
            "",
            "the best column for the side to move, in words",
            |i| success(Command::Hint).parse(i),
        ),
        verb(
            "seed",
            "<n>",
            "seed the random choices of go, genmove and hint",
            |i| arg("a number", seed).map(Command::Seed).parse(i),
        ),
        verb(
            "hash",
            "<MiB>",
            "the size of the solver's transposition table (2-524288 MiB)",
            |i| {
                arg("a size in MiB", resource::<TableSize>)
                    .map(Command::Hash)
                    .parse(i)
            },
        ),
        verb(
            "threads",
            "<n>",
            "threads per exact search, sharing the table (1-64)",
            |i| {
                arg("a number of threads", resource::<ThreadCount>)
                    .map(Command::Threads)
                    .parse(i)
            },
        ),
        verb(
            "book",
            "[on|off|load <file>]",
            "the opening book of exact scores: show it, use the built-in one, none, or a file",
            |i| book_args.map(Command::Book).parse(i),
        ),
        verb("help", "", "this list", |i| success(Command::Help).parse(i)),
        verb(
            "list_commands",
            "",
            "the command names, one per line",
            |i| success(Command::ListCommands).parse(i),
        ),
        verb(
            "known_command",
            "<name>",
            "true if the protocol has a command of that name, else false",
            known_command_args,
        ),
        verb("protocol_version", "", "the protocol version", |i| {
            success(Command::ProtocolVersion).parse(i)
        }),
        verb("quit", "", "end the session", |i| {
            success(Command::Quit).parse(i)
        }),
    ]
});

#[cfg(test)]
mod tests {
    use super::super::test_lines::{command, SAMPLES};
    use super::*;

    #[test]
    fn every_verb_has_a_sample_and_is_listed_once() {
        for verb in verbs() {
            assert!(
                SAMPLES
                    .iter()
                    .any(|line| line.split(' ').next() == Some(verb.name)),
                "no sample for {}",
                verb.name
            );
            assert_eq!(
                verbs().iter().filter(|v| v.name == verb.name).count(),
                1,
                "{}",
                verb.name
            );
        }
        for line in SAMPLES {
            let written = command(line).unwrap().to_string();
            let name = written.split(' ').next().unwrap();
            assert!(is_known(name), "{line} displays as unknown verb {name}");
        }
        assert!(!is_known("jump"));
    }
}
