//! The time the core reads, for search deadlines and the pace of `info` lines: the system's
//! monotonic clock natively, and on WebAssembly in a page or under Node (wasm32-unknown-unknown,
//! which has no clock of its own: `std::time::Instant::now` traps there) the host's, through the
//! import `c4.now_ms` (`performance.now()`: milliseconds, never going back).

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use host::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use std::ops::Add;
    use std::time::Duration;

    #[link(wasm_import_module = "c4")]
    extern "C" {
        /// Milliseconds since a moment of the host's choosing, never decreasing.
        fn now_ms() -> f64;
    }

    /// A moment of the host's clock, as the time since its origin; what the core uses of
    /// `std::time::Instant`, with the same meaning.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now, by the host's clock.
        pub fn now() -> Instant {
            #[allow(
                unsafe_code,
                reason = "a call to the host's clock, which takes nothing"
            )]
            // SAFETY: `now_ms` takes no arguments and touches no memory of ours.
            let ms = unsafe { now_ms() };
            // A host that gave nonsense (NaN, negative) gives the origin, not a trap.
            Instant(Duration::try_from_secs_f64(ms / 1000.0).unwrap_or_default())
        }

        /// `self` later by `duration`, or `None` past what the clock counts.
        pub fn checked_add(&self, duration: Duration) -> Option<Instant> {
            self.0.checked_add(duration).map(Instant)
        }

        /// The time from `earlier` to `self`; zero if `earlier` is later.
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;

        /// As `std::time::Instant`: panics past what the clock counts (`checked_add` does not).
        fn add(self, duration: Duration) -> Instant {
            self.checked_add(duration)
                .expect("overflow when adding a duration to an instant")
        }
    }
}
