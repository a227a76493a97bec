//! `c4 split`: a solve split into jobs for a cluster without Ray (a Slurm job array, GNU
//! parallel), as files in one folder that every machine sees. The splitting itself is
//! [`c4_core::Split`]'s; this module owns the folder:
//!
//! - `results.txt`: the results store, its first line naming the solve
//!   ([`SplitSettings::header`]), then one answer a line, `MOVES >=B` or `MOVES <B`, as
//!   `c4 solve --at-least B` writes it. A run stopped anywhere goes on from this file alone.
//! - `plan.txt`: the jobs wanted now, one shell command a line, each answering one job with
//!   `c4 solve --at-least` and a checkpoint of its own, its answer written to `out/`.
//! - `re-expanded.txt`: the positions answered against their prediction, one result a line:
//!   where the trees were expanded further (the plan holds the jobs that added).
//! - `out/NAME.txt`: each job's answer, once it has finished (written aside, then renamed).
//! - `ckpt/NAME.ckpt`: each job's progress, so that a job stopped and run again goes on, and
//!   `ckpt/NAME.log` what it wrote on standard error.
//!
//! `c4 split plan` starts a solve; `c4 split merge` adds the answers in `out/` to the store,
//! says how far the solve has come and which predictions failed, and writes the next plan, or
//! the score once it is known, as `c4 solve` writes it.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use c4_core::describe_io_error;
use c4_core::{read_at_most, SizeLimit};
use c4_core::{Job, Split, SplitError, SplitSettings};

/// The results store's name in the folder.
pub const RESULTS: &str = "results.txt";
/// The plan's name in the folder.
pub const PLAN: &str = "plan.txt";
/// The name of the list of the positions answered against their prediction.
pub const RE_EXPANDED: &str = "re-expanded.txt";
/// That list's first line.
pub const RE_EXPANDED_HEADER: &str =
    "# positions answered against their prediction, whose trees were expanded further";

/// Why `c4 split` could not do what it was asked.
#[derive(Debug, Error)]
pub enum SplitRunError {
    /// A file of the folder cannot be read or written.
    #[error("{}: {}", .path.display(), describe_io_error(.source))]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// `c4 split plan` on a folder that already holds a solve.
    #[error("{} already holds a split solve: 'c4 split merge {}' goes on with it", .0.display(), .0.display())]
    Started(PathBuf),
    /// A line of the results store (or of a job's answer) cannot be used.
    #[error("{}, line {line}: {source}", .path.display())]
    Results {
        /// The file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// Why.
        source: SplitError,
    },
    /// The settings cannot be solved.
    #[error("{0}")]
    Settings(SplitError),
}

impl SplitRunError {
    /// Whether the command line asked for something impossible (a usage error), rather than
    /// the folder failing.
    pub fn is_usage(&self) -> bool {
        matches!(self, SplitRunError::Started(_) | SplitRunError::Settings(_))
    }
}

/// Starts the split solve `settings` describe in `folder` (made if missing, refused if it
/// already holds one), writing its first plan for `c4` (the program the plan's lines run);
/// says what it did on `out`.
///
/// # Errors
/// The folder holds a solve already, the settings cannot be solved, or a file cannot be
/// written.
pub fn plan(
    folder: &Path,
    settings: &SplitSettings,
    c4: &Path,
    out: &mut impl Write,
) -> Result<(), SplitRunError> {
    let split = Split::from_settings(settings).map_err(SplitRunError::Settings)?;
    let results = folder.join(RESULTS);
    if results.exists() {
        return Err(SplitRunError::Started(folder.to_path_buf()));
    }
    for sub in [
        folder.to_path_buf(),
        folder.join("out"),
        folder.join("ckpt"),
    ] {
        fs::create_dir_all(&sub).map_err(|source| SplitRunError::Io { path: sub, source })?;
    }
    write_file(&results, &format!("{}\n", settings.header()))?;
    next_round(folder, split, settings, c4, out)
}

/// Adds the answers in `folder`'s `out/` to its results store, and writes the next plan for
/// `c4`, or the score once it is known; says how far the solve has come on `out`.
///
/// # Errors
/// A file cannot be read or written, or holds lines that are not results of this solve.
pub fn merge(folder: &Path, c4: &Path, out: &mut impl Write) -> Result<(), SplitRunError> {
    let results = folder.join(RESULTS);
    let text = read_file(&results, RESULTS_LIMIT)?;
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let settings = SplitSettings::from_header(header).map_err(|source| SplitRunError::Results {
        path: results.clone(),
        line: 1,
        source,
    })?;
    let mut split = Split::from_settings(&settings).map_err(SplitRunError::Settings)?;
    let mut known = HashSet::new();
    for (number, line) in lines.enumerate().filter(|(_, line)| !line.is_empty()) {
        split
            .record_line(line)
            .map_err(|source| SplitRunError::Results {
                path: results.clone(),
                line: number + 2,
                source,
            })?;
        known.insert(line.to_string());
    }
    let new = new_answers(&folder.join("out"), &mut split, &known)?;
    if !new.is_empty() {
        append_file(&results, &new.concat())?;
    }
    writeln!(
        out,
        "c4 split: {} new answers added to {}",
        new.len(),
        results.display()
    )
    .map_err(|source| SplitRunError::Io {
        path: PathBuf::from("standard output"),
        source,
    })?;
    next_round(folder, split, &settings, c4, out)
}

/// Writes `samples` random frontier jobs of the first open question of the solve `settings`
/// describe, one a line: how many frontier jobs it stands for, its moves and its bound (`-` for
/// a path that a quick search settled), then the mean, Knuth's estimate of the number of jobs;
/// timing the jobs (`c4 solve --at-least`) turns it into an estimate of the work.
///
/// # Errors
/// The settings cannot be solved, or `out` cannot be written.
pub fn sample(
    settings: &SplitSettings,
    samples: usize,
    seed: u64,
    out: &mut impl Write,
) -> Result<(), SplitRunError> {
    let mut split = Split::from_settings(settings).map_err(SplitRunError::Settings)?;
    let mut text = String::new();
    let mut total = 0.0;
    for sample in 0..samples as u64 {
        match split.sample_job(settings.depth, seed.wrapping_add(sample)) {
            Some((job, jobs)) => {
                total += jobs;
                let _ = writeln!(text, "{jobs} {} {}", job.moves, job.bound);
            }
            None => text.push_str("0 - -\n"),
        }
    }
    let _ = writeln!(
        text,
        "c4 split: about {:.0} jobs {} plies deep (the mean of {samples} paths)",
        total / samples as f64,
        settings.depth
    );
    out.write_all(text.as_bytes())
        .map_err(|source| SplitRunError::Io {
            path: PathBuf::from("standard output"),
            source,
        })
}

/// The answers of finished jobs in `answers` not already `known`, recorded in `split`, each
/// as its line with its newline, in file-name order.
fn new_answers(
    answers: &Path,
    split: &mut Split,
    known: &HashSet<String>,
) -> Result<Vec<String>, SplitRunError> {
    let entries = match fs::read_dir(answers) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(SplitRunError::Io {
                path: answers.to_path_buf(),
                source,
            })
        }
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut new = Vec::new();
    for file in files {
        let text = read_file(&file, ANSWER_LIMIT)?;
        for (number, line) in text.lines().enumerate() {
            if line.is_empty() || known.contains(line) || new.contains(&format!("{line}\n")) {
                continue;
            }
            split
                .record_line(line)
                .map_err(|source| SplitRunError::Results {
                    path: file.clone(),
                    line: number + 1,
                    source,
                })?;
            new.push(format!("{line}\n"));
        }
    }
    Ok(new)
}

/// Writes the plan of the jobs `split` wants now, or once the score is known, the score line
/// (`MOVES SCORE`, as `c4 solve` writes it) and an empty plan; says which on `out`.
fn next_round(
    folder: &Path,
    mut split: Split,
    settings: &SplitSettings,
    c4: &Path,
    out: &mut impl Write,
) -> Result<(), SplitRunError> {
    let jobs = split.wanted();
    let progress = split.progress();
    let plan_file = folder.join(PLAN);
    let failed_file = folder.join(RE_EXPANDED);
    let failed: String = split
        .failed_predictions()
        .iter()
        .map(|failure| failure.line() + "\n")
        .collect();
    write_file(&failed_file, &format!("{RE_EXPANDED_HEADER}\n{failed}"))?;
    let mut said =
        format!(
        "c4 split: board {}x{}, root {}: score between {} and {}; {} questions asked, {} answers \
         in, {} nodes settled by quick searches, {} predictions failed and re-expanded (their \
         positions in {})\n",
        settings.width,
        settings.height,
        if settings.root.is_empty() { "-" } else { &settings.root },
        progress.lower,
        progress.upper,
        progress.questions,
        progress.answered,
        progress.settled_quickly,
        progress.re_expanded,
        failed_file.display(),
    );
    if let Some(score) = split.score() {
        write_file(&plan_file, "")?;
        let _ = writeln!(said, "{} {score}", settings.root);
    } else {
        let lines: String = jobs
            .iter()
            .map(|job| plan_line(folder, &split, job, c4) + "\n")
            .collect();
        write_file(&plan_file, &lines)?;
        let _ = writeln!(
            said,
            "c4 split: {} jobs in {}: run each line (parallel -j N < {}, or a Slurm array), \
             then c4 split merge {}",
            jobs.len(),
            plan_file.display(),
            plan_file.display(),
            folder.display()
        );
    }
    out.write_all(said.as_bytes())
        .map_err(|source| SplitRunError::Io {
            path: PathBuf::from("standard output"),
            source,
        })
}

/// The shell command that answers `job`: `c4 solve --at-least` on its moves, with a checkpoint
/// of its own, its answer written aside and then renamed into `out/`, so that a job stopped
/// half-way leaves no answer and run again goes on from its checkpoint.
fn plan_line(folder: &Path, split: &Split, job: &Job, c4: &Path) -> String {
    let name = format!(
        "{}_{}",
        if job.moves.is_empty() {
            "root"
        } else {
            &job.moves
        },
        job.bound
    );
    let answer = folder.join("out").join(format!("{name}.txt"));
    let part = folder.join("out").join(format!("{name}.part"));
    let checkpoint = folder.join("ckpt").join(format!("{name}.ckpt"));
    let log = folder.join("ckpt").join(format!("{name}.log"));
    let arguments: Vec<String> = split
        .job_arguments()
        .iter()
        .map(|argument| quoted(argument))
        .collect();
    format!(
        "echo {} | {} {} --checkpoint {} > {} 2>> {} && mv {} {}",
        quoted(&job.question()),
        quoted(&c4.to_string_lossy()),
        arguments.join(" "),
        quoted(&checkpoint.to_string_lossy()),
        quoted(&part.to_string_lossy()),
        quoted(&log.to_string_lossy()),
        quoted(&part.to_string_lossy()),
        quoted(&answer.to_string_lossy()),
    )
}

/// `text` as one word of a POSIX shell: in single quotes, its own single quotes escaped.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The results store's largest size: some 50 million answers, past what any cluster run makes.
const RESULTS_LIMIT: SizeLimit = SizeLimit {
    bytes: 1 << 30,
    holds: "a split solve's results",
};

/// A job's answer file's largest size: one line of at most a board's moves and a bound.
const ANSWER_LIMIT: SizeLimit = SizeLimit {
    bytes: 4096,
    holds: "a job's answer",
};

/// The text of `path`, refused unread past `limit`, and refused if it is not UTF-8.
fn read_file(path: &Path, limit: SizeLimit) -> Result<String, SplitRunError> {
    let failed = |source| SplitRunError::Io {
        path: path.to_path_buf(),
        source,
    };
    let bytes = read_at_most(path, limit).map_err(failed)?;
    String::from_utf8(bytes).map_err(|_| {
        failed(io::Error::new(
            io::ErrorKind::InvalidData,
            "it is not UTF-8 text",
        ))
    })
}

fn write_file(path: &Path, text: &str) -> Result<(), SplitRunError> {
    fs::write(path, text).map_err(|source| SplitRunError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Appends `text` to the results store, synced, so that an answer once merged is never lost.
fn append_file(path: &Path, text: &str) -> Result<(), SplitRunError> {
    let failed = |source| SplitRunError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(failed)?;
    file.write_all(text.as_bytes()).map_err(failed)?;
    file.sync_all().map_err(failed)
}
