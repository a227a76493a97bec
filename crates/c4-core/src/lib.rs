//! The `c4` Connect Four engine without its command line: what the `c4` program, the Python
//! package and the WebAssembly build all stand on.
//!
//! Its API is what this page lists, and nothing else: the modules are private, and every item a
//! front end uses (the `c4` program, the Python and WebAssembly builds, the fuzz targets and the
//! tests) is re-exported here by name. Inside, the layers run one way, from the bottom: rules
//! (board, moves, wins) → notation (move strings, FEN, board layouts, settings) → solver (exact
//! two-player search, the opening book's format and lookup, searches split into jobs) and engine
//! (choosing moves by level) → textio (bounded line reading, files sized before they are read,
//! save files, book files, the built-in book) → protocol (the line interpreter: a request parsed
//! into a [`Command`], carried out on a [`Session`], answered in deterministic text; a
//! [`Driver`] takes input as it comes and hands out the replies, under the stdio loop and the
//! WebAssembly build). Only textio and protocol do I/O. Nothing here reads the command line, handles
//! signals or needs a terminal; the table's huge pages are asked for on Linux only, and on
//! WebAssembly the time is the host's.
//!
//! A game, played by column numbers, and every column's exact score for the side to move:
//!
//! ```
//! use c4_core::{column_scores, Game, Limits, Solver, Variant};
//!
//! let mut game = Game::new(Variant::default());
//! for number in [4, 4, 3] {
//!     let column = game.column(number).unwrap();
//!     game.play(column).unwrap();
//! }
//! let mut solver = Solver::new();
//! // None where the column is full.
//! let scores = column_scores(&game, &mut solver, &Limits::default()).unwrap();
//! assert_eq!(scores.len(), 7);
//! ```
//!
//! The protocol, as the `c4` program answers it on its standard input:
//!
//! ```
//! use c4_core::{run_protocol, ProtocolOptions};
//!
//! let mut replies = Vec::new();
//! run_protocol(&b"moves 44\nfen\n"[..], &mut replies, ProtocolOptions::default()).unwrap();
//! assert_eq!(String::from_utf8(replies).unwrap(), "= ply 2, x to move\n\n= 3x3/3o3/7/7/7/7 x\n\n");
//! ```

mod bookbuild;
mod clock;
mod engine;
mod notation;
mod protocol;
mod resources;
mod rules;
mod solver;
mod textio;

// The API, by layer. A name not listed here is the core's own; an item a front end needs and
// cannot get becomes one of these, not a public module.

// The rules: boards of any size, moves, wins and draws, player names.
pub use rules::variant::{STANDARD_CONNECT, STANDARD_HEIGHT, STANDARD_TOKENS, STANDARD_WIDTH};
pub use rules::{
    check_name, unfit_in_a_line, Column, Direction, DrawReason, Game, MoveError, NameError,
    Outcome, Player, Variant, VariantError,
};

// Notation: move strings, FEN, board layouts and the `name value` settings.
pub use notation::grammar::{whole_number, WholeNumber};
pub use notation::settings::{
    number as setting_number, switch as setting_switch, switch_word, Key as SettingKey,
};
pub use notation::{
    fen_of, parse_column, parse_moves_counting, play_moves, render as render_board, render_indexed,
    render_labelled as render_board_labelled, Counting, Fen, FenError, MoveText, MovesError,
    Setting, SettingError, Settings, SettingsVariantError, Style as LayoutStyle,
};

// The exact solver: positions on any board that fits, scores, limits, the transposition
// table's size, searches split into jobs, and the opening book's format and lookup.
pub use solver::book::{
    canonical_key, checksum as book_checksum, misplaced_left_out, position_of_key, Book, BookError,
    Checksum, FORMAT_VERSION as BOOK_FORMAT_VERSION,
};
pub use solver::{
    analyze_many, AnyPosition, Bitboard, FailedPrediction, Job, Limits, Position, ProbeProgress,
    QuickSearch, Score, Solver, SolverError, Split, SplitError, SplitSettings, TableSize, Verdict,
};

// Choosing moves: levels, look-ahead, the perfect player and what it says of a score.
pub use engine::perfect::{
    best_column, column_scores, describe as describe_score, finished_score, solver_position,
    PerfectError, SOLVER_CONNECT,
};
pub use engine::{
    best_of, choose, parse_level, Forced, Level, LevelError, Rng, TieBreak, HEURISTIC_PLIES,
    MAX_LOOKAHEAD,
};

// Files and lines: bounded reading, files sized before they are read, saved games, book
// files and the built-in book.
pub use textio::book::{
    built_in_book, file_format as book_file_format, read_book, BookFileError, BookFileProblem,
    BookInBinary, SHIPPED_BOOK_PATH,
};
pub use textio::files::{
    disown as disown_file, open_at_most, own as own_file, read_at_most, refuse_non_regular,
    remove_own_files, NewFile, SizeLimit,
};
pub use textio::savefile::{load as load_game, save as save_game, SaveError};
pub use textio::{describe as describe_io_error, read_bounded_line};

// Without the `built-in-book` feature (the WebAssembly build), the host hands the book in.
#[cfg(not(feature = "built-in-book"))]
pub use textio::book::provide_built_in_book;

// The line protocol and its UGI dialect: a session, its interpreter, the push-style driver and
// the stdio loops.
pub use protocol::search::Search;
pub use protocol::ugi::{
    command_of as ugi_command_of, parse_ugi, run as run_ugi, Opening as UgiOpening, UgiCommand,
};
pub use protocol::{
    parse_request, read_line, run as run_protocol, Command, Driver, DriverState, Exit, Host,
    Interpreter, Options as ProtocolOptions, ReadAhead, Session, Step, Trust, Turn, VERSION,
};

// Building books: positions up to a depth solved in shards, merged, written and checked.
pub use bookbuild::{
    build_shard, check_book_path, merge as merge_shards, sample_entries, shard_path,
    verify as verify_book, write_book, BuildError, BuildOptions, Progress as BuildProgress, Shard,
};

// Resources a user sets: the table's size and the number of threads, checked once here.
pub use resources::{ResourceError, ThreadCount};
