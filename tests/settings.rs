//! The same bad table size or thread count gets the same sentence from every door: the command
//! line's subcommands, the protocol and UGI, as fixtures/settings/bad-values.txt lists them (the
//! Python package's tests read the same file).

mod common;

use std::fs;

use common::c4;

/// One line of the fixture: the setting, the value as written, and the sentence.
struct BadValue {
    setting: String,
    value: String,
    sentence: String,
}

fn bad_values() -> Vec<BadValue> {
    let text = fs::read_to_string("fixtures/settings/bad-values.txt").unwrap();
    let values: Vec<BadValue> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let mut words = line.splitn(3, ' ');
            let mut next = || words.next().expect("SETTING VALUE SENTENCE").to_string();
            BadValue {
                setting: next(),
                value: next(),
                sentence: next(),
            }
        })
        .collect();
    assert!(!values.is_empty(), "the fixture lists bad values");
    values
}

#[test]
fn every_door_refuses_a_bad_value_with_the_same_sentence() {
    for bad in bad_values() {
        let (flag, verb, option) = match bad.setting.as_str() {
            "table" => ("--hash", "hash", "hash"),
            "threads" => ("--threads", "threads", "threads"),
            other => panic!("no setting '{other}' in the fixture's doors"),
        };
        let flag = format!("{flag}={}", bad.value);
        let mut runs: Vec<Vec<&str>> = vec![vec!["solve", &flag], vec!["bench", &flag, "x.txt"]];
        if bad.setting == "threads" {
            runs.push(vec!["book", "build", &flag]);
        }
        for args in runs {
            let run = c4(&args, "");
            assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
            assert!(
                run.stderr.contains(&bad.sentence),
                "{args:?}: {}",
                run.stderr
            );
        }
        let line = format!("{verb} {}\n", bad.value);
        let run = c4(&[], &line);
        assert_eq!(run.stdout, format!("? {}\n\n", bad.sentence), "{line}");
        let line = format!("setoption name {option} value {}\nquit\n", bad.value);
        let run = c4(&["ugi"], &line);
        assert!(
            run.stdout
                .contains(&format!("info string {}\n", bad.sentence)),
            "{line}: {}",
            run.stdout
        );
    }
}
