//! Exact two-player solver (in progress).
