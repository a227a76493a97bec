//! `c4 solve` as a filter in a pipeline: each answer must be written (and flushed) as soon as it
//! is known, while the rest of the input has not even been sent yet.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Long enough for any machine to solve `4455` many times over, short enough that a regression
/// fails instead of hanging.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

#[test]
fn each_answer_arrives_before_the_next_line_is_sent() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_c4"))
        .arg("solve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("c4 starts");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (lines, answers) = mpsc::channel();
    let reader = thread::spawn(move || {
        for line in stdout.lines() {
            if lines.send(line.expect("stdout is text")).is_err() {
                break;
            }
        }
    });

    stdin.write_all(b"4455\n").unwrap();
    stdin.flush().unwrap();
    let first = answers.recv_timeout(ANSWER_TIMEOUT);
    if first.is_err() {
        // Free the reader before failing: closing stdin lets c4 finish.
        drop(stdin);
        let _ = child.wait();
        panic!("no answer to the first line while stdin stayed open");
    }
    assert_eq!(first.unwrap(), "4455 18");

    stdin.write_all(b"48\n444444\n").unwrap();
    drop(stdin);
    let rest: Vec<String> = answers.iter().collect();
    assert_eq!(
        rest,
        [
            "48 error: move 2 (column 8): the column is off the board (columns 1-7)",
            "444444 1",
        ]
    );
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
}
