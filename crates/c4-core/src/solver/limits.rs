//! [`Limits`]: what may stop a search before its exact score (a node count, a flag, a
//! deadline), and how often a search looks at them; the looking is the root's (root.rs).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::clock::Instant;

/// How many nodes pass between two looks at the limits; small enough to stop within about a
/// millisecond, large enough to cost nothing.
pub(super) const CHECK_INTERVAL: u64 = 4096;

/// Bounds on one search. The default has none: the search runs to the exact score.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after about this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop soon after this flag becomes true (checked every few thousand nodes).
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop soon after this instant.
    pub deadline: Option<Instant>,
}

impl Limits {
    pub(super) fn is_unbounded(&self) -> bool {
        self.max_nodes.is_none() && self.stop.is_none() && self.deadline.is_none()
    }

    /// Whether the flag is set or the deadline has passed, looked at now; the node count is
    /// the search's to compare.
    pub(super) fn is_called_off(&self) -> bool {
        is_called_off(self.stop.as_deref(), self.deadline)
    }
}

/// Whether `stop` is set or `deadline` has passed, looked at now: what ends any search besides
/// its own count of work (the solver's [`Limits`], the other searches' `Cutoff`).
pub(crate) fn is_called_off(stop: Option<&AtomicBool>, deadline: Option<Instant>) -> bool {
    stop.is_some_and(|flag| flag.load(Ordering::Relaxed))
        || deadline.is_some_and(|deadline| Instant::now() >= deadline)
}
