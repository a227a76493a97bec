//! When a search other than the exact solver's must end: a flag another thread sets (`stop`)
//! and a deadline. The search counts its work and looks at the flag and the clock only every
//! [`WORK_PER_LOOK`] units of it, so that looking costs nothing, yet comes often on the costliest
//! boards too. `perft`, the look-ahead and the heuristic search use it; the solver has its own.

use std::sync::atomic::AtomicBool;

use crate::clock::Instant;
use crate::solver::is_called_off;

/// Work between two looks at the flag and the clock, in positions played: well under a
/// millisecond of it on any board, and the look (a clock read) a fraction of a percent of that.
pub(super) const WORK_PER_LOOK: u64 = 1024;

/// When a search must end; the default never ends it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Cutoff<'a> {
    /// Set by another thread to end the search.
    pub stop: Option<&'a AtomicBool>,
    /// The search ends soon after this instant.
    pub deadline: Option<Instant>,
}

impl<'a> Cutoff<'a> {
    /// A fresh count of work, for one search.
    pub(crate) fn watch(self) -> Watch<'a> {
        let bounded = self.stop.is_some() || self.deadline.is_some();
        Watch {
            cutoff: self,
            work: 0,
            // The first look comes with the first work: a search started after its `stop` (or
            // past its deadline) ends at once.
            next_look: if bounded { 0 } else { u64::MAX },
            cut: false,
        }
    }

    /// Whether the flag is set or the deadline has passed, looked at now.
    pub(crate) fn is_reached(&self) -> bool {
        is_called_off(self.stop, self.deadline)
    }
}

/// One search's count of its work against its [`Cutoff`].
#[derive(Debug)]
pub(crate) struct Watch<'a> {
    cutoff: Cutoff<'a>,
    /// Work done so far, in positions played.
    work: u64,
    /// The count of work at which the flag and the clock are looked at next.
    next_look: u64,
    /// Set once the search must end, and never cleared.
    cut: bool,
}

impl Watch<'_> {
    /// Counts `work` more units (positions played, or what judging one costs in them);
    /// whether the search must end, which stays true once it is.
    #[inline]
    pub(crate) fn spend(&mut self, work: u64) -> bool {
        self.work += work;
        if self.work >= self.next_look {
            self.look();
        }
        self.cut
    }

    /// Whether the search was told to end.
    pub(crate) fn is_cut(&self) -> bool {
        self.cut
    }

    #[cold]
    fn look(&mut self) {
        self.cut |= self.cutoff.is_reached();
        self.next_look = self.work + WORK_PER_LOOK;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    #[test]
    fn a_search_started_after_its_stop_ends_at_its_first_work() {
        let stop = AtomicBool::new(true);
        let mut watch = Cutoff {
            stop: Some(&stop),
            deadline: None,
        }
        .watch();
        assert!(watch.spend(1));
    }

    #[test]
    fn an_unbounded_watch_never_cuts() {
        let mut watch = Cutoff::default().watch();
        assert!(!watch.spend(u64::MAX / 2));
        assert!(!watch.is_cut());
    }

    #[test]
    fn the_flag_and_the_clock_are_looked_at_every_so_much_work() {
        let stop = AtomicBool::new(false);
        let mut watch = Cutoff {
            stop: Some(&stop),
            deadline: None,
        }
        .watch();
        // Looked at with the first work, then not again until a look's worth more.
        assert!(!watch.spend(1));
        stop.store(true, Ordering::Relaxed);
        assert!(!watch.spend(WORK_PER_LOOK - 1));
        assert!(watch.spend(1));
        // Once cut, always cut.
        stop.store(false, Ordering::Relaxed);
        assert!(watch.spend(WORK_PER_LOOK));
        let past = Cutoff {
            stop: None,
            deadline: Some(Instant::now()),
        };
        assert!(past.is_reached());
        // One costly unit of work is looked at at once.
        assert!(past.watch().spend(WORK_PER_LOOK));
        let later = Cutoff {
            stop: None,
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
        };
        assert!(!later.watch().spend(10 * WORK_PER_LOOK));
    }
}
