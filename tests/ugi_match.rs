//! Whole games between two `c4 ugi` processes, driven line by line as the cutegames match runner
//! drives engines, with every move checked against the library's rules; and a search that
//! `isready`, `stop` and `quit` interrupt.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use c4_core::{Game, Outcome, Variant};

/// How long any one reply may take before the test gives up: far more than any search here
/// should take, even on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(60);

/// A `c4 ugi` process: its input, and its output lines as they arrive.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    log: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_c4"))
            .arg("ugi")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            log: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line the engine writes.
    fn next(&mut self) -> String {
        let line = self
            .lines
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|_| panic!("no reply; read so far: {:?}", self.log));
        self.log.push(line.clone());
        line
    }

    /// The next line that is not an `info` line (a `go infinite` writes them as it goes).
    fn next_not_info(&mut self) -> String {
        loop {
            let line = self.next();
            if !line.starts_with("info ") {
                return line;
            }
        }
    }

    /// Reads up to the first line whose words `pick` accepts (as the runner does, skipping
    /// every other line), and gives what `pick` made of it.
    fn wait_for<T>(&mut self, pick: impl Fn(&[&str]) -> Option<T>) -> T {
        loop {
            let line = self.next();
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(value) = pick(&words) {
                return value;
            }
        }
    }

    /// Sends `line` and waits for the line that is exactly `reply`.
    fn ask_exact(&mut self, line: &str, reply: &str) {
        self.send(line);
        self.wait_for(|words| (words.join(" ") == reply).then_some(()));
    }

    /// Sends a `query` and gives the word of its `response`, exactly two words as the runner
    /// matches it.
    fn query(&mut self, question: &str) -> String {
        self.send(&format!("query {question}"));
        self.wait_for(|words| match words {
            ["response", answer] => Some(answer.to_string()),
            _ => None,
        })
    }

    /// Sends a `go` and gives the move of its `bestmove`, exactly two words.
    fn go(&mut self, line: &str) -> String {
        self.send(line);
        self.wait_for(|words| match words {
            ["bestmove", column] => Some(column.to_string()),
            _ => None,
        })
    }

    /// Sends `quit` and waits for the process to end with status 0.
    fn quit(mut self) {
        self.send("quit");
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(start.elapsed() < PATIENCE, "c4 did not exit after quit");
            thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The runner's start-up: `ugi` … `ugiok`, options, `isready` … `readyok`.
fn start_engine(level: &str) -> Engine {
    let mut engine = Engine::start();
    engine.ask_exact("ugi", "ugiok");
    engine.send(&format!("setoption name level value {level}"));
    engine.ask_exact("isready", "readyok");
    engine
}

/// What `query result` should answer for `game`.
fn result_word(game: &Game) -> &'static str {
    match game.outcome() {
        Outcome::InProgress => "none",
        Outcome::Draw(_) => "draw",
        Outcome::Win(player) if player.index() == 0 => "p1win",
        Outcome::Win(_) => "p2win",
    }
}

/// Plays one game as the runner does, `first` moving first, with clocks of `clock_ms` and
/// increments of `inc_ms`; checks every answer against the library's own game, and gives it.
fn play_game(engines: &mut [Engine; 2], first: usize, clock_ms: u64, inc_ms: u64) -> Game {
    let mut game = Game::new(Variant::default());
    let mut moves: Vec<String> = Vec::new();
    let mut clocks = [clock_ms; 2];
    for engine in engines.iter_mut() {
        engine.ask_exact("isready", "readyok");
        engine.send("uginewgame");
    }
    loop {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        let side = game.ply() % 2;
        let mover = (first + side) % 2;
        let engine = &mut engines[mover];
        engine.send(&position);
        let p1turn = engine.query("p1turn");
        assert_eq!(p1turn, (side == 0).to_string(), "{position}");
        engine.ask_exact("isready", "readyok");
        // Both engines are asked whether the game is over (the runner's `gameover: both`).
        let mut over = Vec::new();
        for engine in engines.iter_mut() {
            engine.send(&position);
            over.push(engine.query("gameover"));
        }
        let expected = game.outcome().is_over().to_string();
        assert_eq!(over, [expected.clone(), expected], "{position}");
        if game.outcome().is_over() {
            break;
        }
        let engine = &mut engines[mover];
        let started = Instant::now();
        let column = engine.go(&format!(
            "go p1time {} p2time {} p1inc {inc_ms} p2inc {inc_ms}",
            clocks[0], clocks[1]
        ));
        let spent = started.elapsed().as_millis() as u64;
        assert!(
            spent < clocks[side],
            "{position}: lost on time ({spent} ms with {} ms left)",
            clocks[side]
        );
        clocks[side] = clocks[side] - spent + inc_ms;
        let number: u64 = column
            .parse()
            .unwrap_or_else(|_| panic!("{position}: bestmove {column} is not a column"));
        let legal = game
            .column(number)
            .unwrap_or_else(|e| panic!("{position}: bestmove {column}: {e}"));
        game.play(legal)
            .unwrap_or_else(|e| panic!("{position}: bestmove {column}: {e}"));
        moves.push(column);
    }
    let results: Vec<String> = engines.iter_mut().map(|e| e.query("result")).collect();
    assert_eq!(results, [result_word(&game); 2], "{moves:?}");
    game
}

#[test]
fn whole_games_between_two_engines_end_with_results_both_agree_on() {
    let pairings = [
        ("perfect", "lookahead 3"),
        ("lookahead 2 right", "random"),
        ("random", "perfect"),
    ];
    for (a, b) in pairings {
        let mut engines = [start_engine(a), start_engine(b)];
        for first in 0..2 {
            // Who wins is left alone: under a clock, a loaded machine may cut perfect play's
            // exact search short, and the heuristic search then chooses.
            let game = play_game(&mut engines, first, 10_000, 50);
            assert!(game.outcome().is_over());
        }
        for engine in engines {
            engine.quit();
        }
    }
}

#[test]
fn a_short_clock_is_answered_well_within_it() {
    let mut engine = start_engine("perfect");
    // Without the book, the exact search of an early position runs until its deadline.
    engine.send("setoption name book value false");
    engine.send("position startpos moves 4 4 3");
    let started = Instant::now();
    let column = engine.go("go p1time 200 p2time 200");
    let spent = started.elapsed();
    // The budget is about 12 ms; the bound leaves room for a loaded machine.
    assert!(spent < Duration::from_millis(1500), "{spent:?}");
    assert!(Game::new(Variant::default())
        .column(column.parse().unwrap())
        .is_ok());
    engine.quit();
}

#[test]
fn isready_is_answered_during_an_infinite_search_and_stop_gives_one_bestmove() {
    let mut engine = start_engine("perfect");
    // Without the book the empty board takes minutes: the search is still running when
    // `isready` and `stop` arrive.
    engine.send("setoption name book value false");
    engine.send("setoption name hash value 2");
    engine.send("position startpos");
    engine.send("go infinite");
    engine.send("isready");
    assert_eq!(engine.next_not_info(), "readyok");
    engine.send("stop");
    engine.send("isready");
    let mut bestmoves = Vec::new();
    loop {
        let line = engine.next();
        if line == "readyok" {
            break;
        }
        if let Some(column) = line.strip_prefix("bestmove ") {
            bestmoves.push(column.to_string());
        } else {
            assert!(line.starts_with("info "), "{line}");
        }
    }
    assert_eq!(bestmoves.len(), 1, "{:?}", engine.log);
    let column: u64 = bestmoves[0].parse().unwrap();
    assert!((1..=7).contains(&column), "{column}");
    engine.quit();
}

#[test]
fn an_infinite_search_streams_info_lines_and_keeps_its_bestmove_until_stop() {
    let mut engine = start_engine("perfect");
    // Every column of this position is in the book: the analysis proves them all at once, one
    // line each, and its last line extends the best line; `bestmove` still waits for `stop`.
    engine.send("position startpos moves 4455");
    engine.send("go infinite");
    let mut lines = Vec::new();
    loop {
        let line = engine.next();
        assert!(line.starts_with("info nodes 0 "), "{line}");
        lines.push(line);
        if lines.last().is_some_and(|l| l.ends_with(" pv 3 4 2")) {
            break;
        }
    }
    assert_eq!(
        lines,
        [
            "info nodes 0 score mate 18 pv 4",
            "info nodes 0 score mate 2 pv 3",
            "info nodes 0 score mate 2 pv 3 4 2"
        ]
    );
    engine.send("isready");
    assert_eq!(engine.next(), "readyok");
    engine.send("stop");
    assert_eq!(engine.next(), "bestmove 3");
    engine.ask_exact("isready", "readyok");
    engine.quit();
}

#[test]
fn quit_during_a_search_ends_the_process() {
    let mut engine = start_engine("perfect");
    engine.send("setoption name book value false");
    engine.send("setoption name hash value 2");
    engine.send("go infinite");
    engine.quit();
}
