//! [`TimeProvider`]: where time-based scorers get "now" from.

use std::fmt::Debug;

use crate::model::Timestamp;

/// The source of the current time for [`DecayScorer`](crate::scorer::DecayScorer).
///
/// The specification makes the clock an explicit dependency: use
/// [`SystemClock`] in production and a fixed [`Timestamp`] (which implements
/// this trait) for reproducible runs and tests.
///
/// ```
/// use budget::model::Timestamp;
/// use budget::scorer::{SystemClock, TimeProvider};
///
/// let fixed = Timestamp::from_unix_seconds(1_700_000_000);
/// assert_eq!(fixed.now(), fixed);
/// assert!(SystemClock.now() > fixed);
/// ```
pub trait TimeProvider: Send + Sync + Debug {
    /// The current instant.
    fn now(&self) -> Timestamp;
}

/// The system clock ([`Timestamp::now`]).
///
/// ```
/// use std::time::Duration;
/// use budget::{Item, model::Timestamp, scorer::Scorer};
/// use budget::scorer::{DecayCurve, DecayScorer, SystemClock};
///
/// let scorer = DecayScorer::new(SystemClock, DecayCurve::window(Duration::from_secs(60))?);
/// let fresh = Item::builder("x").tokens(1).timestamp(Timestamp::now()).build()?;
/// assert_eq!(scorer.scores(&[&fresh]), vec![1.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl TimeProvider for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// A fixed reference time: "now" is always this instant.
impl TimeProvider for Timestamp {
    fn now(&self) -> Timestamp {
        *self
    }
}

impl<P: TimeProvider + ?Sized> TimeProvider for Box<P> {
    fn now(&self) -> Timestamp {
        (**self).now()
    }
}

impl<P: TimeProvider + ?Sized> TimeProvider for std::sync::Arc<P> {
    fn now(&self) -> Timestamp {
        (**self).now()
    }
}
