//! The conversation of `c4 play`: the menu, setup, loading, and each game turn by turn, with
//! every prompt and message. Answers are parsed into [`Answer`] and run by one `match`.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::path::Path;

use super::options::{check_name, level_name, BoardStyle, ColumnNames, PlayOptions, SETTINGS};
use c4_core::built_in_book;
use c4_core::switch_word;
use c4_core::{choose, describe_score, solver_position, Forced, Level, Rng, HEURISTIC_PLIES};
use c4_core::{load_game, read_bounded_line, save_game};
use c4_core::{parse_column, render_board_labelled, LayoutStyle};
use c4_core::{unfit_in_a_line, Direction, DrawReason, Game, Outcome, Player};
use c4_core::{Limits, Solver};

/// Positions the solver may search for one hint before the heuristic answers instead: a person
/// is waiting. A node count, not a time, so that the same input always gives the same game. The
/// perfect computer has no such limit: it always plays exactly, which in the opening of a
/// standard game can take a minute.
const HINT_NODE_LIMIT: u64 = 20_000_000;
/// The longest answer line kept, in bytes; longer ones are read to their end and refused.
const MAX_ANSWER_BYTES: usize = 1024;
/// Colours of the players' tokens in the colour style (ANSI bold foreground colours).
const PALETTE: [u8; 8] = [31, 33, 34, 32, 35, 36, 91, 94];

/// Why the conversation stops before the player asks for the menu again.
enum Halt {
    /// The player typed `q`.
    Quit,
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

/// One answer at a player's turn.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    /// A column, 1-based, not yet checked against the board.
    Column(u64),
    /// `u`: take back the last move of a person and the computer's moves after it.
    Undo,
    /// `h`: suggest a column.
    Hint,
    /// `s`: save to a file, then ask the same player again.
    Save,
    /// `q`: stop playing.
    Quit,
    /// Nothing typed.
    Empty,
    /// Anything else, as typed.
    Unknown(String),
}

/// Reads one answer at a turn. The single letters `u`, `h`, `s` and `q` (any case) are commands
/// even on boards wide enough to have a column `h`; that column is then typed as a number.
/// Numbers count from 0 when `columns` says so; letters always start at `a` = column 1.
fn parse_answer(text: &str, columns: ColumnNames) -> Answer {
    match text.to_ascii_lowercase().as_str() {
        "" => Answer::Empty,
        "u" | "undo" => Answer::Undo,
        "h" | "hint" => Answer::Hint,
        "s" | "save" => Answer::Save,
        "q" | "quit" => Answer::Quit,
        _ => match parse_column(text) {
            Ok(n)
                if columns == ColumnNames::FromZero && text.bytes().all(|b| b.is_ascii_digit()) =>
            {
                n.checked_add(1)
                    .map_or_else(|| Answer::Unknown(text.to_string()), Answer::Column)
            }
            Ok(n) => Answer::Column(n),
            Err(_) => Answer::Unknown(text.to_string()),
        },
    }
}

/// Runs `c4 play` on `input` and `output` until the player quits, the input ends or, with
/// [`PlayOptions::start`], the game ends. Prompts end
/// without a newline and are flushed; with `options.echo` each answer is written after its prompt.
pub fn run(input: impl BufRead, output: impl Write, options: PlayOptions) -> io::Result<()> {
    let rng = Rng::new(options.seed.unwrap_or(0));
    let mut session = Session {
        input,
        output,
        options,
        rng,
        solver: None,
        game: None,
    };
    let result = session.menu();
    let last = match result {
        Ok(()) | Err(Halt::Quit) => "Thanks for playing!",
        Err(Halt::EndOfInput) => match session.game.as_ref().map(|c| &c.file) {
            Some(File::None) => "End of input: the game was not saved.",
            Some(File::Same(file)) => &format!("End of input: the game is saved in {file}."),
            Some(File::Behind(file)) => {
                &format!("End of input: the moves since {file} were not saved.")
            }
            None => "End of input. Goodbye!",
        },
        Err(Halt::Io(e)) => return Err(e),
    };
    writeln!(session.output, "{last}")?;
    session.output.flush()
}

/// The game being played, with the names of its players.
struct Current {
    game: Game,
    names: Vec<String>,
    /// How the game stands to the file it was last saved to or loaded from.
    file: File,
}

/// The file behind a game, by name.
enum File {
    /// The game has not been saved or loaded.
    None,
    /// The file holds the position on the board.
    Same(String),
    /// Moves were played or taken back since the file was written or read.
    Behind(String),
}

impl Current {
    /// Notes that the position changed.
    fn changed(&mut self) {
        if let File::Same(file) = &self.file {
            self.file = File::Behind(file.clone());
        }
    }
}

struct Session<R, W> {
    input: R,
    output: W,
    options: PlayOptions,
    rng: Rng,
    /// Made when first needed: perfect play and hints on games the solver covers.
    solver: Option<Solver>,
    game: Option<Current>,
}

impl<R: BufRead, W: Write> Session<R, W> {
    /// Writes one line.
    fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.output, "{text}")
    }

    /// Writes `prompt`, flushes, and reads one answer, trimmed. At the end of the input the
    /// line is ended so the farewell starts on its own line.
    fn ask(&mut self, prompt: &str) -> Result<String, Halt> {
        write!(self.output, "{prompt}")?;
        self.output.flush()?;
        let Some(answer) = self.read_answer()? else {
            writeln!(self.output)?;
            return Err(Halt::EndOfInput);
        };
        if self.options.echo {
            writeln!(self.output, "{answer}")?;
        }
        Ok(answer)
    }

    fn read_answer(&mut self) -> io::Result<Option<String>> {
        read_answer(&mut self.input)
    }

    /// The start menu, until the player quits; with [`PlayOptions::start`] (from the flags or
    /// set in setup), one game at once instead, and then the end.
    fn menu(&mut self) -> Result<(), Halt> {
        self.say("Welcome to c4: Connect Four for 2 to 8 players, people or computer.")?;
        loop {
            if self.options.start {
                return self.new_game();
            }
            self.say("")?;
            self.say("Main menu: n = new game, l = load a saved game, s = setup, q = quit")?;
            let choice = self.ask("Your choice: ")?;
            match choice.to_ascii_lowercase().as_str() {
                "n" | "p" | "new" | "play" => self.new_game()?,
                "l" | "load" => self.load()?,
                "s" | "setup" => self.setup()?,
                "q" | "quit" => return Ok(()),
                _ => self.say(&format!(
                    "'{choice}' is not on the menu. Enter n for a new game, l to load, s for setup or q to quit."
                ))?,
            }
        }
    }

    /// Asks the names not given in the settings (or, with [`PlayOptions::start`], takes
    /// `Player N`), then plays from the configured start.
    fn new_game(&mut self) -> Result<(), Halt> {
        let game = match self.options.start() {
            Ok(game) => game,
            Err(e) => {
                return Ok(self.say(&format!(
                    "Cannot start a game: {e}. Change it in setup (s)."
                ))?)
            }
        };
        let variant = game.variant().clone();
        let mut names = Vec::new();
        for (i, name) in self.options.player_names().into_iter().enumerate() {
            let default = format!("Player {}", i + 1);
            let name = match name {
                Some(name) => name,
                None if self.options.start => default,
                None => {
                    let prompt = format!(
                        "Name of player {} ({}), or Enter for {default}: ",
                        i + 1,
                        variant.token(Player::from_index(i))
                    );
                    self.ask_name(&prompt, default)?
                }
            };
            names.push(name);
        }
        self.play(game, names, None)
    }

    /// Asks until the answer is a usable name; an empty answer takes `default`, and `q` quits
    /// as it does everywhere else.
    fn ask_name(&mut self, prompt: &str, default: String) -> Result<String, Halt> {
        loop {
            let answer = self.ask(prompt)?;
            if answer.is_empty() {
                return Ok(default);
            }
            if answer.eq_ignore_ascii_case("q") {
                return Err(Halt::Quit);
            }
            match check_name(&answer) {
                Ok(()) => return Ok(answer),
                Err(e) => self.say(&format!("That name cannot be used: {e}."))?,
            }
        }
    }

    /// Asks for a saved game and plays it on with the names it holds.
    fn load(&mut self) -> Result<(), Halt> {
        let file = self.ask("File to load: ")?;
        if file.is_empty() {
            return Ok(self.say("Nothing loaded: no file name given.")?);
        }
        match load_game(Path::new(&file)) {
            Ok((names, game)) => self.play(game, names, Some(&file)),
            Err(e) => Ok(self.say(&sentence(&e.to_string()))?),
        }
    }

    /// Shows the settings and takes changes, one per line, until an empty line.
    fn setup(&mut self) -> Result<(), Halt> {
        let hint = SETTINGS
            .iter()
            .map(|(name, value)| format!("{name} {value}"))
            .collect::<Vec<_>>()
            .join(", ");
        self.say(&format!(
            "Type one setting per line ({hint}), and an empty line when done."
        ))?;
        loop {
            self.say(&self.settings_summary())?;
            let line = self.ask("Setting: ")?;
            if line.is_empty() {
                return Ok(());
            }
            let (key, value) = line.split_once(' ').unwrap_or((&line, ""));
            let mut changed = self.options.clone();
            match changed
                .apply(key, value.trim())
                .and_then(|()| changed.check())
            {
                Ok(()) => {
                    if changed.seed != self.options.seed {
                        self.rng = Rng::new(changed.seed.unwrap_or(0));
                    }
                    self.options = changed;
                }
                Err(e) => self.say(&format!("Not changed: {e}."))?,
            }
        }
    }

    fn settings_summary(&self) -> String {
        let o = &self.options;
        let mut text = format!(
            "Settings: {}x{} board, connect {}, early draw {}, style {}, columns {}, seed {}",
            o.width,
            o.height,
            o.connect,
            switch_word(o.early_draw),
            o.style.name(),
            o.columns.name(),
            o.seed.unwrap_or(0),
        );
        if let Some(fen) = &o.fen {
            let _ = write!(text, ", from {fen}");
        }
        if let Some(moves) = &o.moves {
            let _ = write!(text, ", after moves {moves}");
        }
        if o.start {
            text.push_str(", start on (one game at once, then the end)");
        }
        text.push_str("\nPlayers:");
        for (i, (token, name)) in o.tokens.iter().zip(o.player_names()).enumerate() {
            let who = match o.computers.iter().find(|(t, _)| t == token) {
                Some(&(_, level)) => format!("computer, {}", level_name(level)),
                None => "person".to_string(),
            };
            let name = match name {
                Some(name) => name,
                None if o.start => format!("Player {}", i + 1),
                None => "name asked at the start".to_string(),
            };
            let _ = write!(text, " {token} {name} ({who});");
        }
        text.pop();
        text
    }

    /// Plays `game` (new, or loaded from `file`) to its end, or until the player quits or the
    /// input ends.
    fn play(&mut self, game: Game, names: Vec<String>, file: Option<&str>) -> Result<(), Halt> {
        let current = Current {
            game,
            names,
            file: file.map_or(File::None, |f| File::Same(f.to_string())),
        };
        let title = file.map_or_else(|| "New game".to_string(), |f| format!("Loaded {f}"));
        self.say(&format!("\n{title}: {}", self.opening(&current)))?;
        self.say(&self.board(&current.game))?;
        self.game = Some(current);
        let result = self.turns();
        if result.is_ok() {
            self.game = None;
        }
        result
    }

    /// `7x6 board, connect 4. Ann (x) vs Computer (o, perfect).`
    fn opening(&self, current: &Current) -> String {
        let variant = current.game.variant();
        let players: Vec<String> = (0..variant.players())
            .map(|i| {
                let player = Player::from_index(i);
                let token = variant.token(player);
                match self.options.computer_level(variant, player) {
                    Some(level) => format!("{} ({token}, {})", current.names[i], level_name(level)),
                    None => format!("{} ({token})", current.names[i]),
                }
            })
            .collect();
        format!(
            "{}x{} board, connect {}. {}.",
            variant.width(),
            variant.height(),
            variant.connect(),
            players.join(" vs ")
        )
    }

    /// The game being played; only called from within [`Session::play`].
    fn current(&mut self) -> &mut Current {
        self.game
            .as_mut()
            .expect("turns run only while a game is being played")
    }

    /// Turn after turn until the game ends, with the board after every move.
    fn turns(&mut self) -> Result<(), Halt> {
        loop {
            let game = self.current().game.clone();
            if game.outcome().is_over() {
                return self.announce(&game);
            }
            let player = game.to_move();
            match self.options.computer_level(game.variant(), player) {
                Some(level) => self.computer_move(&game, level)?,
                None => self.human_turn()?,
            }
            let game = self.current().game.clone();
            self.say(&self.board(&game))?;
        }
    }

    /// Runs `search` after flushing everything written so far, so that the board stays on the
    /// screen while it runs. With [`PlayOptions::thinking_shown`], `thinking` is written on its
    /// own line during the search and erased (carriage return, clear line) afterwards.
    fn think<T>(&mut self, thinking: &str, search: impl FnOnce(&mut Self) -> T) -> io::Result<T> {
        if self.options.thinking_shown {
            write!(self.output, "{thinking}")?;
        }
        self.output.flush()?;
        let result = search(self);
        if self.options.thinking_shown {
            write!(self.output, "\r\x1b[2K")?;
        }
        Ok(result)
    }

    /// The computer moves and says where.
    fn computer_move(&mut self, game: &Game, level: Level) -> Result<(), Halt> {
        let thinking = format!("{} is thinking…", self.who(game.to_move()));
        let limits = Limits {
            max_nodes: Some(self.options.computer_nodes),
            ..Limits::default()
        };
        let choice = self.think(&thinking, |session| {
            let solver = solver_for(&mut session.solver, game, level == Level::Perfect);
            choose(game, level, solver, &mut session.rng, &limits)
                .expect("a game in progress has a legal move")
        })?;
        // Where the solver plays but ran out of positions, the heuristic chose: said, since the
        // move is then not perfect.
        let fallback = choice.is_fallback(level, game);
        let current = self.current();
        current
            .game
            .play(choice.column)
            .expect("the engine chooses legal columns");
        current.changed();
        let mut line = format!(
            "{} plays column {}",
            self.who(game.to_move()),
            self.column_name(choice.column.number() as u64)
        );
        if fallback {
            line.push_str(&format!(
                ", from a {HEURISTIC_PLIES}-move look-ahead: the exact search would take too long here"
            ));
        }
        line.push('.');
        Ok(self.say(&line)?)
    }

    /// Asks the player to move until they play a column; undo, hint and save keep asking.
    fn human_turn(&mut self) -> Result<(), Halt> {
        loop {
            let game = &self.current().game;
            let player = game.to_move();
            let width = game.variant().width();
            let prompt = format!(
                "{}, your move ({}, u, h, s, q): ",
                self.who(player),
                self.column_range(width)
            );
            let text = self.ask(&prompt)?;
            match parse_answer(&text, self.options.columns) {
                Answer::Column(number) => {
                    let current = self.current();
                    let played = current
                        .game
                        .column(number)
                        .and_then(|column| current.game.play(column));
                    match played {
                        Ok(_) => {
                            current.changed();
                            return Ok(());
                        }
                        Err(e) => {
                            let problem = sentence(&self.options.columns.move_problem(&e));
                            self.refuse(&problem, width)?;
                        }
                    }
                }
                Answer::Undo => {
                    if self.undo()? {
                        let game = self.current().game.clone();
                        self.say(&self.board(&game))?;
                    }
                }
                Answer::Hint => self.hint()?,
                Answer::Save => self.save()?,
                Answer::Quit => return Err(Halt::Quit),
                Answer::Empty => self.refuse("Nothing was entered.", width)?,
                // Digits too many for any number are still a column far off the board.
                Answer::Unknown(text) if text.bytes().all(|b| b.is_ascii_digit()) => {
                    self.refuse(&format!("Column {text} is off the board."), width)?
                }
                Answer::Unknown(text) => {
                    self.refuse(&format!("'{text}' is not a column or a command."), width)?
                }
            }
        }
    }

    /// Says what was wrong and what is allowed.
    fn refuse(&mut self, problem: &str, width: usize) -> io::Result<()> {
        let range = self.column_range(width);
        let mut line = format!(
            "{problem} Enter a column {range}, u to undo, h for a hint, s to save, q to quit."
        );
        if self.options.columns == ColumnNames::Letters && width >= 8 {
            line.push_str(" (Type column H as 8: h asks for a hint.)");
        }
        self.say(&line)
    }

    /// Takes back the last move of a person and every computer move after it; false (with the
    /// reason said) when there is none.
    fn undo(&mut self) -> Result<bool, Halt> {
        let game = self.current().game.clone();
        let variant = game.variant();
        // Walk back through the moves, newest first, to the newest one a person played.
        let mut mover = game.to_move();
        let mut count = None;
        for i in 1..=game.history().len() {
            mover = variant.previous(mover);
            if self.options.computer_level(variant, mover).is_none() {
                count = Some(i);
                break;
            }
        }
        let Some(count) = count else {
            let why = if game.history().is_empty() {
                "Nothing to undo: no move has been played since the game started or was loaded."
            } else {
                "Nothing to undo: only the computer has moved since the game started or was loaded."
            };
            self.say(why)?;
            return Ok(false);
        };
        let mut taken = Vec::new();
        for _ in 0..count {
            let current = self.current();
            let column = current.game.undo().expect("counted within the history");
            let name = current.names[current.game.to_move().index()].clone();
            taken.push(format!(
                "{name}'s move in column {}",
                self.column_name(column.number() as u64)
            ));
        }
        self.current().changed();
        self.say(&format!("Took back {}.", taken.join(", then ")))?;
        Ok(true)
    }

    /// Suggests a column: exact where the solver covers the game, else the heuristic search.
    fn hint(&mut self) -> Result<(), Halt> {
        let game = self.current().game.clone();
        let limits = Limits {
            max_nodes: Some(HINT_NODE_LIMIT),
            ..Limits::default()
        };
        let uncovered = solver_position(&game).err();
        let choice = self.think("Looking for a hint…", |session| {
            // A separate generator, so that asking for hints does not change the computer's moves.
            let mut rng = Rng::new(0);
            let solver = solver_for(&mut session.solver, &game, true);
            choose(&game, Level::Perfect, solver, &mut rng, &limits)
                .expect("a game in progress has a legal move")
        })?;
        let column = self.column_name(choice.column.number() as u64);
        let line = match choice.score {
            Some(score) => format!(
                "Hint: column {column}. With perfect play from here, {}.",
                describe_score(score, &game)
            ),
            None => {
                let why = uncovered.map_or_else(
                    || "the exact search takes too long here".to_string(),
                    |e| e.to_string(),
                );
                let seen = match choice.forced {
                    Some(Forced::Win) => ", which sees a forced win",
                    Some(Forced::Loss) => ", which sees every column lose",
                    None => "",
                };
                format!(
                    "Hint: column {column}, from a {HEURISTIC_PLIES}-move look-ahead{seen} ({why})."
                )
            }
        };
        Ok(self.say(&line)?)
    }

    /// Asks for a file and saves the game in the grid program's format, then shows the board (as
    /// the grid program does); the same player then moves.
    fn save(&mut self) -> Result<(), Halt> {
        let file = self.ask("File to save to: ")?;
        if file.is_empty() {
            return Ok(self.say("Not saved: no file name given.")?);
        }
        let current = self.current();
        let player = current.game.to_move();
        match save_game(Path::new(&file), &current.names, &current.game) {
            Ok(()) => {
                self.current().file = File::Same(file.clone());
                let line = format!("Saved to {file}. {} moves next.", self.who(player));
                self.say(&line)?;
                let game = self.current().game.clone();
                Ok(self.say(&self.board(&game))?)
            }
            Err(e) => Ok(self.say(&format!("{} The game goes on.", sentence(&e.to_string())))?),
        }
    }

    /// The end of a game, under its final board: who won and how, or why it is a draw.
    fn announce(&mut self, game: &Game) -> Result<(), Halt> {
        let variant = game.variant();
        match game.outcome() {
            Outcome::Win(winner) => {
                let ways = winning_ways(game, |n| self.column_name(n));
                self.say(&format!("{} wins the game via {ways}.", self.who(winner)))?;
                let name = self.current().names[winner.index()].clone();
                let is_computer = |i: usize| {
                    self.options
                        .computer_level(variant, Player::from_index(i))
                        .is_some()
                };
                if !is_computer(winner.index()) {
                    self.say(&format!("Congratulations {name}! You won!"))?;
                } else if !(0..variant.players()).all(is_computer) {
                    self.say(&format!(
                        "{name} wins this time. Better luck in the next game!"
                    ))?;
                }
            }
            Outcome::Draw(DrawReason::BoardFull) => self.say(&format!(
                "Draw! The board is full and nobody connected {}.",
                variant.connect()
            ))?,
            Outcome::Draw(DrawReason::NoLineLeft) => {
                let empty = game.board().empty_cells();
                self.say(&format!(
                    "Draw! Nobody can connect {} any more, so the game ends early with {empty} empty cell{}.",
                    variant.connect(),
                    if empty == 1 { "" } else { "s" }
                ))?
            }
            Outcome::InProgress => unreachable!("announce is called at the end"),
        }
        Ok(())
    }

    /// `Ann (x)`: the player's name and token.
    fn who(&self, player: Player) -> String {
        let current = self.game.as_ref().expect("a game is being played");
        format!(
            "{} ({})",
            current.names[player.index()],
            current.game.variant().token(player)
        )
    }

    /// A 1-based column as people are shown it: `4`, `D` or (from zero) `3`.
    fn column_name(&self, number: u64) -> String {
        self.options.columns.label(number)
    }

    /// The columns of a board `width` wide: `1-7`, `A-G`, or just `1` on one column.
    fn column_range(&self, width: usize) -> String {
        self.options.columns.range(width)
    }

    /// The board in the chosen style, without its last newline, its columns labelled as the
    /// player is asked to type them.
    fn board(&self, game: &Game) -> String {
        let (variant, board) = (game.variant(), game.board());
        let columns = self.options.columns;
        let draw = |style| render_board_labelled(board, variant, style, &|n| columns.label(n));
        let text = match self.options.style {
            BoardStyle::Layout(style) => draw(style),
            BoardStyle::Colour if self.options.colour_allowed => {
                let plain = draw(LayoutStyle::Dots);
                let (header, rows) = plain.split_once('\n').unwrap_or((&plain, ""));
                let mut text = format!("{header}\n");
                // Below the header of numbers there are only tokens, `.` and spaces.
                for c in rows.chars() {
                    match variant.player_of(c) {
                        Some(p) => {
                            let _ = write!(text, "\x1b[1;{}m{c}\x1b[0m", PALETTE[p.index()]);
                        }
                        None => text.push(c),
                    }
                }
                text
            }
            BoardStyle::Colour => draw(LayoutStyle::Grid),
        };
        text.trim_end_matches('\n').to_string()
    }
}

/// How the winner's lines run: `row 3` (rows counted from the top, as the dots program counts
/// them), `column 4` (named by `column_name` from its 1-based number) or `diagonal`, each said
/// once, joined by `and`.
pub(super) fn winning_ways(game: &Game, column_name: impl Fn(u64) -> String) -> String {
    let mut ways: Vec<String> = Vec::new();
    for line in game.winning_lines() {
        let first = line.cells[0];
        let way = match line.direction {
            Direction::Horizontal => format!("row {}", game.variant().height() - first.row),
            Direction::Vertical => format!("column {}", column_name(first.column as u64 + 1)),
            Direction::DiagonalUp | Direction::DiagonalDown => "diagonal".to_string(),
        };
        if !ways.contains(&way) {
            ways.push(way);
        }
    }
    ways.join(" and ")
}

/// One line of `input` without its line ending, trimmed, or `None` at the end of the input.
/// Invalid UTF-8 is replaced, characters that one line cannot hold (control characters, line
/// and paragraph separators) are dropped, and a line longer than
/// [`MAX_ANSWER_BYTES`] is read to its end and kept short.
pub(super) fn read_answer(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let Some(line) = read_bounded_line(input, MAX_ANSWER_BYTES)? else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&line.bytes);
    let text: String = text
        .chars()
        .filter(|&c| unfit_in_a_line(c).is_none())
        .collect();
    Ok(Some(text.trim().to_string()))
}

/// The solver in `slot`, made on first use with the built-in book, when `wanted` and it can
/// play `game`.
pub(super) fn solver_for<'a>(
    slot: &'a mut Option<Solver>,
    game: &Game,
    wanted: bool,
) -> Option<&'a mut Solver> {
    if !wanted || solver_position(game).is_err() {
        return None;
    }
    Some(slot.get_or_insert_with(|| {
        let mut solver = Solver::new();
        solver.set_book(built_in_book());
        solver
    }))
}

/// An error message as a sentence: capital first letter, full stop.
pub(super) fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers() {
        let numbers = |text| parse_answer(text, ColumnNames::Numbers);
        assert_eq!(numbers("4"), Answer::Column(4));
        assert_eq!(numbers("D"), Answer::Column(4));
        assert_eq!(parse_answer("H", ColumnNames::Letters), Answer::Hint);
        assert_eq!(numbers("q"), Answer::Quit);
        assert_eq!(numbers(""), Answer::Empty);
        assert_eq!(numbers("4d"), Answer::Unknown("4d".into()));
        assert_eq!(parse_answer("0", ColumnNames::FromZero), Answer::Column(1));
        assert_eq!(parse_answer("d", ColumnNames::FromZero), Answer::Column(4));
    }

    #[test]
    fn runs_in_process_and_ends_cleanly_at_end_of_input() {
        let options = PlayOptions {
            names: vec!["Ann".into(), "Ben".into()],
            echo: true,
            ..PlayOptions::default()
        };
        let mut out = Vec::new();
        run(&b"n\n4\n"[..], &mut out, options).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("Ann (x), your move (1-7, u, h, s, q): 4\n"));
        assert!(text.ends_with(
            "Ben (o), your move (1-7, u, h, s, q): \nEnd of input: the game was not saved.\n"
        ));
    }

    #[test]
    fn the_perfect_computer_falls_back_and_says_so_past_its_budget() {
        // 9x6 is a board the solver plays, but its first moves take far more than 1,000
        // positions; the end of the game takes fewer.
        let options = PlayOptions {
            width: 9,
            names: vec!["Ann".into()],
            computers: vec![('o', Level::Perfect)],
            computer_nodes: 1_000,
            ..PlayOptions::default()
        };
        let mut out = Vec::new();
        run(&b"n\n5\n"[..], &mut out, options).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(&format!(
                "Computer (o) plays column 4, from a {HEURISTIC_PLIES}-move look-ahead: the exact \
                 search would take too long here.\n"
            )),
            "{text}"
        );
        // Within the budget it plays as before: at ply 17, past the book, a search of some
        // thousands of positions.
        let options = PlayOptions {
            names: vec!["Ann".into()],
            computers: vec![('o', Level::Perfect)],
            moves: Some("3216771221624426".into()),
            computer_nodes: 1_000_000,
            ..PlayOptions::default()
        };
        let mut out = Vec::new();
        run(&b"n\n5\n"[..], &mut out, options).unwrap();
        let text = String::from_utf8(out).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("Computer (o) plays column"));
        assert!(
            line.is_some_and(|l| l.ends_with(" plays column 3.")),
            "{text}"
        );
    }

    /// Output that remembers how much had been written at each flush.
    #[derive(Default)]
    struct FlushRecorder {
        written: Vec<u8>,
        flushed_at: Vec<usize>,
    }

    impl Write for FlushRecorder {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.written.extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            self.flushed_at.push(self.written.len());
            Ok(())
        }
    }

    /// Ann plays column 4 against the random computer, then the input ends.
    fn against_the_computer(thinking_shown: bool) -> FlushRecorder {
        let options = PlayOptions {
            names: vec!["Ann".into()],
            computers: vec![('o', Level::Random)],
            thinking_shown,
            ..PlayOptions::default()
        };
        let mut out = FlushRecorder::default();
        run(&b"n\n4\n"[..], &mut out, options).unwrap();
        out
    }

    #[test]
    fn the_board_after_a_move_is_flushed_before_the_computer_searches() {
        let out = against_the_computer(false);
        let text = String::from_utf8(out.written.clone()).unwrap();
        let before_search = text.find("Computer (o) plays column").unwrap();
        assert!(out.flushed_at.contains(&before_search));
        let shown = &text[..before_search];
        let ann = shown.rfind("your move").unwrap();
        // Ann's stone is on the board drawn after her move, before the computer's line.
        assert!(shown[ann..].ends_with("  |   |   |   | x |   |   |   |\n  +---+---+---+---+---+---+---+\ncol 1   2   3   4   5   6   7\n"));
        assert!(!text.contains("thinking"));
    }

    #[test]
    fn thinking_is_shown_and_erased_only_when_asked() {
        let out = against_the_computer(true);
        let text = String::from_utf8(out.written.clone()).unwrap();
        let thinking = "col 1   2   3   4   5   6   7\nComputer (o) is thinking…";
        let at = text.find(thinking).unwrap() + thinking.len();
        // Flushed while the computer searches, then erased before it says where it plays.
        assert!(out.flushed_at.contains(&at));
        assert!(text[at..].starts_with("\r\x1b[2KComputer (o) plays column "));
        assert_eq!(text.matches("is thinking").count(), 1);
    }

    #[test]
    fn start_set_in_setup_plays_at_once_with_default_names() {
        let options = PlayOptions {
            echo: true,
            ..PlayOptions::default()
        };
        let mut out = Vec::new();
        run(&b"s\nstart on\n\n1\n"[..], &mut out, options).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\nPlayers: x Player 1 (person); o Player 2 (person)\nSetting: \n"));
        let game = text.split_once("Setting: \n").unwrap().1;
        assert!(
            game.starts_with("\nNew game: 7x6 board, connect 4. Player 1 (x) vs Player 2 (o).\n")
        );
        assert!(!text.contains("Name of player") && !game.contains("Main menu"));
        assert!(game.ends_with(
            "Player 2 (o), your move (1-7, u, h, s, q): \nEnd of input: the game was not saved.\n"
        ));
    }

    #[test]
    fn colour_only_where_allowed() {
        let play = |colour_allowed| {
            let options = PlayOptions {
                names: vec!["Ann".into(), "Ben".into()],
                style: BoardStyle::Colour,
                colour_allowed,
                ..PlayOptions::default()
            };
            let mut out = Vec::new();
            run(&b"n\n4\n"[..], &mut out, options).unwrap();
            String::from_utf8(out).unwrap()
        };
        let coloured = play(true);
        assert!(coloured.contains(" .  .  .  \x1b[1;31mx\x1b[0m  .  .  ."));
        let plain = play(false);
        assert!(!plain.contains('\x1b') && plain.contains("  |   |   |   | x |   |   |   |"));
    }
}
