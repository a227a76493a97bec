//! What the command grammar's tests share: a sample line of every verb, and one line's command
//! or error message.

use super::{parse_request, Command, CommandError};

/// The command `line` parses to, or why it does not.
pub(super) fn command(line: &str) -> Result<Command, CommandError> {
    parse_request(line).command
}

/// The message of the error `line` parses to.
pub(super) fn message(line: &str) -> String {
    command(line).unwrap_err().to_string()
}

/// Lines that parse, at least one per verb; each must read back from its display.
pub(super) const SAMPLES: &[&str] = &[
    "new",
    "new 9x6 connect 5 tokens XYZ early-draw off",
    "new width 8 height 7 players 3",
    "position startpos",
    "position startpos moves 4453",
    "position startpos moves",
    "position fen 2x1oo1/2x4/7/7/7/7 x moves 10 11",
    "position fen 07/7/7/7/7/7   x",
    "moves DD,EC",
    "moves",
    "play 4",
    "play d",
    "undo",
    "undo 3",
    "status",
    "show",
    "show dots",
    "fen",
    "legal",
    "names",
    "name",
    "name x Ada Lovelace",
    "version",
    "save my game.txt",
    "load game.txt",
    "perft 5",
    "solve",
    "solve weak",
    "analyze",
    "analyze stream",
    "analyze stream nodes 5000 interval 250",
    "go",
    "go perfect depth 3 nodes 1000 movetime 500",
    "go random",
    "go lookahead 4 right",
    "genmove lookahead 3",
    "stop",
    "hint",
    "seed 18446744073709551615",
    "hash 16",
    "threads 2",
    "book",
    "book on",
    "book off",
    "book load my book.bin",
    "help",
    "list_commands",
    "known_command play",
    "known_command xyzzy",
    "known_command two words",
    "protocol_version",
    "quit",
];
