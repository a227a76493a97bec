//! The solver a batch or benchmark run searches with, the table it picks for a board when none
//! is given, and what its table tells the log: which pages a large table lies on, its size in
//! MiB, and the note of the table picked, said once.

use std::io::{self, Write};
use std::sync::Arc;

use super::board::BatchBoard;
use c4_core::Book;
use c4_core::{Solver, TableSize};

/// The table of a run on `board` when none was chosen: [`TableSize::for_board`], with the
/// memory the system says is free.
pub fn table_for_board(board: &BatchBoard) -> TableSize {
    TableSize::for_board(board.width(), board.height(), available_memory_mib())
}

/// The memory free for new work, in MiB: Linux's `MemAvailable`; `None` where it cannot be read.
fn available_memory_mib() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// A solver with a table of 2^`table_bits` entries, `threads` threads and `book`, with
/// [`pages_note`] written to `log`, if any (a note that cannot be written is dropped, as the
/// checkpoints' lines are).
///
/// # Errors
/// The system refused the table's memory ([`io::ErrorKind::OutOfMemory`]).
pub(super) fn solver(
    table_bits: u32,
    threads: usize,
    book: Option<&Arc<Book>>,
    log: Option<&mut (impl Write + ?Sized)>,
) -> io::Result<Solver> {
    let solver = Solver::try_with_table_bits(table_bits)
        .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
    Ok(configured(solver, threads, book, log))
}

/// `solver` with `threads` threads and `book`, its [`pages_note`] written to `log`, if any.
pub(super) fn configured(
    mut solver: Solver,
    threads: usize,
    book: Option<&Arc<Book>>,
    log: Option<&mut (impl Write + ?Sized)>,
) -> Solver {
    if let (Some(log), Some(line)) = (log, pages_note(&solver)) {
        let _ = writeln!(log, "{line}");
    }
    solver.set_threads(threads);
    solver.set_book(book.cloned());
    solver
}

/// Which pages a table of 1 GiB or more lies on, since 1 GiB pages make its searches faster
/// and only the system's reserve (which needs root to set) can give them.
fn pages_note(solver: &Solver) -> Option<String> {
    let mib = mib(solver.table_words());
    // A table in a shared file lies on the file system's pages, whatever the reserve.
    let asks = solver.is_table_for_giga_pages() && !solver.is_table_shared();
    asks.then(|| {
        if solver.is_table_on_giga_pages() {
            format!("table: {mib} MiB on 1 GiB pages")
        } else {
            format!(
                "table: {mib} MiB, not on 1 GiB pages (reserved by the system for the whole \
                 table, they would be faster: docs/solver.md, \"Big boards and long searches\")"
            )
        }
    })
}

/// A table of `words` words in MiB.
pub(super) fn mib(words: u64) -> u64 {
    (words * 8) >> 20
}

/// Writes `note` to `log`, if both are there, and leaves no note to write again (a note that
/// cannot be written is dropped, as the checkpoints' lines are).
pub(super) fn say_once(note: &mut Option<&str>, log: Option<&mut (impl Write + ?Sized)>) {
    if let (Some(line), Some(log)) = (note.take(), log) {
        let _ = writeln!(log, "{line}");
    }
}

#[cfg(test)]
mod tests {
    use crate::batch::bench::{run_bench, run_empty_board_bench, BenchLog, BenchOptions};
    use crate::batch::board::BatchBoard;
    use crate::batch::solve::{run_batch_solve, BatchOptions};
    use c4_core::Counting;

    #[test]
    fn a_table_of_1_gib_or_more_says_which_pages_it_lies_on() {
        // What c4 solve, c4 bench on files and c4 bench --empty write on their logs.
        let logs_of = |table_bits| {
            let batch = BatchOptions {
                table_bits,
                ..BatchOptions::default()
            };
            let mut solve_log = Vec::new();
            run_batch_solve(&b""[..], &mut Vec::new(), &batch, Some(&mut solve_log)).unwrap();
            let bench = BenchOptions {
                table_bits,
                board: BatchBoard::new(4, 4, Counting::FromOne).unwrap(),
                ..BenchOptions::default()
            };
            let mut files_log = Vec::new();
            let log = BenchLog {
                to: &mut files_log,
                progress: false,
            };
            run_bench(&[], &mut Vec::new(), &bench, Some(log)).unwrap();
            let mut empty_log = Vec::new();
            run_empty_board_bench(&mut Vec::new(), &bench, Some(&mut empty_log)).unwrap();
            [solve_log, files_log, empty_log].map(|log| String::from_utf8(log).unwrap())
        };
        assert_eq!(logs_of(26), ["", "", ""]);
        // Which one depends on the machine's reserve of 1 GiB pages.
        let on_giga = "table: 1024 MiB on 1 GiB pages\n";
        let other = "table: 1024 MiB, not on 1 GiB pages (reserved by the system for the whole \
                     table, they would be faster: docs/solver.md, \"Big boards and long searches\")\n";
        for log in logs_of(27) {
            assert!(log == on_giga || log == other, "{log}");
        }
    }
}
