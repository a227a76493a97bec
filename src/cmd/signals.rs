//! Stopping `c4 solve --checkpoint` on SIGINT (Ctrl-C), SIGTERM or SIGHUP with its progress
//! saved, then ending by that same signal, as the shell and a script looping over runs expect
//! of a process a signal stopped (the shell reports 128 + its number: 130 for Ctrl-C).

use std::io::{self, Write};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::batch::Checkpointing;
use c4_core::remove_own_files;

/// The signals that stop a checkpointed run: Ctrl-C, a polite kill, a closed terminal.
const STOPPING: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// The first stopping signal that came, once one has.
#[derive(Debug, Clone, Default)]
pub(super) struct FirstSignal(Arc<AtomicI32>);

impl FirstSignal {
    /// The signal's number, if one came.
    pub(super) fn get(&self) -> Option<i32> {
        Some(self.0.load(Ordering::SeqCst)).filter(|&signal| signal != 0)
    }
}

/// Answers the stopping signals of a run checkpointed as `plan` says, on a thread of its own:
/// the first asks the search under way to save and stop (a save of a large table takes a
/// while, so standard error says what is happening); a second SIGINT or SIGTERM ends the
/// process at once, and so does the first signal while no search runs, since the file is then
/// whole. A second SIGHUP waits for the save: a closed terminal sends one through the shell
/// and one from the system. A signal the run was started ignoring (`nohup`, a background job
/// of a script) stays ignored.
pub(super) fn stop_on_signals(plan: &Checkpointing) -> FirstSignal {
    let first = FirstSignal::default();
    let wanted: Vec<i32> = STOPPING
        .into_iter()
        .filter(|&signal| !is_ignored(signal))
        .collect();
    let mut signals = match Signals::new(&wanted) {
        Ok(signals) => signals,
        Err(e) => {
            let _ = writeln!(
                io::stderr(),
                "c4 solve: a signal will end the search without saving its progress: {e}"
            );
            return first;
        }
    };
    let (stop, file, seen) = (Arc::clone(&plan.stop), plan.file.clone(), first.clone());
    std::thread::spawn(move || {
        for signal in signals.forever() {
            let is_first = seen
                .0
                .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok();
            if is_first && stop.request() {
                // A closed terminal cannot take the note; the save goes on all the same.
                let _ = writeln!(
                    io::stderr(),
                    "c4 solve: {}: stopping once the progress is saved to {} (a second SIGINT \
                     or SIGTERM ends c4 at once, losing what was searched since the last save)",
                    name(signal),
                    file.display()
                );
            } else if is_first || signal != SIGHUP {
                end_at_once(signal);
            }
        }
    });
    first
}

/// Ends the process by `signal` now, with the checkpoint as last saved: a save cut short
/// leaves only its new file, which goes too, as does the checkpoint's lock file.
fn end_at_once(signal: i32) {
    remove_own_files();
    end_by(signal);
}

/// Ends the process by `signal`, as if it had never been caught; should that fail, exits with
/// the status a shell would report for it.
pub(super) fn end_by(signal: i32) -> ! {
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    std::process::exit(128 + signal)
}

/// The signal's name, for the note on standard error.
fn name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        _ => "SIGHUP",
    }
}

/// Whether the process was started with `signal` ignored, which its handler would undo.
#[cfg(target_os = "linux")]
fn is_ignored(signal: i32) -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask >> (signal - 1) & 1 == 1)
}

/// Whether the process was started with `signal` ignored: only Linux says, through /proc.
#[cfg(not(target_os = "linux"))]
fn is_ignored(_signal: i32) -> bool {
    false
}
