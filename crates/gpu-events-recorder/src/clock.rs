//! Time, injectable: the recorder reads every timestamp it writes and every TTL, heartbeat and
//! quiet-series decision from a [`Clock`], so tests can move time by hand with [`ManualClock`].

use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, Utc};

/// A source of the current time.
pub trait Clock: Send + Sync + 'static {
    /// Now, in UTC.
    fn now(&self) -> DateTime<Utc>;
}

/// The system clock ([`Utc::now`]); the default.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that moves only when told to; clones share the time.
///
/// ```
/// use gpu_events_recorder::{Clock, ManualClock};
/// let clock = ManualClock::new("2026-12-01T10:00:00Z".parse().unwrap());
/// clock.advance(std::time::Duration::from_secs(90));
/// assert_eq!(clock.now().to_rfc3339(), "2026-12-01T10:01:30+00:00");
/// ```
#[derive(Clone, Debug)]
pub struct ManualClock(Arc<Mutex<DateTime<Utc>>>);

impl ManualClock {
    /// A clock showing `start`.
    pub fn new(start: DateTime<Utc>) -> Self {
        ManualClock(Arc::new(Mutex::new(start)))
    }

    /// Moves the clock forward by `by`.
    ///
    /// # Panics
    /// If `by` does not fit chrono's range (hundreds of thousands of years).
    pub fn advance(&self, by: std::time::Duration) {
        let by = chrono::Duration::from_std(by).expect("an advance within chrono's range");
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) += by;
    }

    /// Sets the time.
    pub fn set(&self, to: DateTime<Utc>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = to;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
