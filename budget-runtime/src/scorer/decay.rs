//! [`DecayScorer`]: absolute age-based decay against a reference time, with
//! its [`DecayCurve`]s.

use std::time::Duration;

use crate::model::{ContextItem, Timestamp};
use crate::scorer::ScorerError;
use crate::scorer::{Scorer, TimeProvider};

/// Scores each item by its age, `now − timestamp`, through a [`DecayCurve`].
///
/// `now` comes from the [`TimeProvider`] (read once per batch, so a batch is
/// scored against a single instant). Future-dated items have age zero and get
/// the curve's freshest score; items without a timestamp score
/// `null_timestamp_score` (default 0.5). An absolute scorer: O(n) for the
/// exponential and window curves, O(n log w) for a step curve of w windows.
///
/// ```
/// use std::time::Duration;
/// use budget::{Item, model::Timestamp, scorer::Scorer};
/// use budget::scorer::{DecayCurve, DecayScorer};
///
/// let now = Timestamp::from_ymd_hms(2025, 1, 1, 12, 0, 0).unwrap();
/// let day_old = Timestamp::from_ymd_hms(2024, 12, 31, 12, 0, 0).unwrap();
/// let curve = DecayCurve::exponential(Duration::from_secs(24 * 3600))?;
/// let scorer = DecayScorer::new(now, curve);
/// let item = Item::builder("x").tokens(1).timestamp(day_old).build()?;
/// let undated = Item::new("y", 1)?;
/// assert_eq!(scorer.scores(&[&item, &undated]), vec![0.5, 0.5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct DecayScorer<P> {
    clock: P,
    curve: DecayCurve,
    null_timestamp_score: f64,
}

impl<P: TimeProvider> DecayScorer<P> {
    /// The default score for items without a timestamp: neutral.
    pub const DEFAULT_NULL_TIMESTAMP_SCORE: f64 = 0.5;

    /// A decay scorer reading the time from `clock` (a fixed [`Timestamp`],
    /// [`SystemClock`](crate::scorer::SystemClock), or any
    /// [`TimeProvider`]).
    pub fn new(clock: P, curve: DecayCurve) -> Self {
        Self {
            clock,
            curve,
            null_timestamp_score: Self::DEFAULT_NULL_TIMESTAMP_SCORE,
        }
    }

    /// Sets the score of items without a timestamp.
    ///
    /// ```
    /// use std::time::Duration;
    /// use budget::{Item, scorer::Scorer};
    /// use budget::scorer::{DecayCurve, DecayScorer, SystemClock};
    ///
    /// let curve = DecayCurve::window(Duration::from_secs(3600))?;
    /// let scorer = DecayScorer::new(SystemClock, curve).with_null_timestamp_score(0.0)?;
    /// assert_eq!(scorer.scores(&[&Item::new("undated", 1)?]), vec![0.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ScorerError::OutOfRange`] if `score` is outside `0.0..=1.0` or NaN.
    pub fn with_null_timestamp_score(mut self, score: f64) -> Result<Self, ScorerError> {
        if !(0.0..=1.0).contains(&score) {
            return Err(ScorerError::OutOfRange {
                name: "null_timestamp_score",
                value: score,
                min: 0.0,
                max: 1.0,
            });
        }
        self.null_timestamp_score = score;
        Ok(self)
    }

    /// The curve.
    pub fn curve(&self) -> &DecayCurve {
        &self.curve
    }

    /// The score of an item with `timestamp` when the time is `now`.
    fn score_at(&self, now: Timestamp, timestamp: Option<Timestamp>) -> f64 {
        match timestamp {
            None => self.null_timestamp_score,
            Some(timestamp) => {
                let age_nanos = now.unix_nanos().saturating_sub(timestamp.unix_nanos());
                // Future-dated items are as fresh as possible: age zero.
                self.curve.score(age_nanos.max(0).unsigned_abs())
            }
        }
    }
}

impl<P: TimeProvider> Scorer for DecayScorer<P> {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        let now = self.clock.now();
        for (item, score) in items.iter().zip(scores.iter_mut()) {
            *score = self.score_at(now, item.timestamp());
        }
    }
}

/// How a [`DecayScorer`] turns an age into a score in `0.0..=1.0`.
///
/// Constructors validate their parameters, so every curve value is usable.
///
/// ```
/// use std::time::Duration;
/// use budget::scorer::DecayCurve;
///
/// let hour = Duration::from_secs(3600);
/// assert!(DecayCurve::exponential(hour).is_ok());
/// assert!(DecayCurve::window(Duration::ZERO).is_err());
/// assert!(DecayCurve::step([(hour, 0.9), (24 * hour, 0.5)]).is_ok());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DecayCurve(Curve);

#[derive(Clone, Debug, PartialEq)]
enum Curve {
    /// `2^(−age / half_life)`; half-life in seconds.
    Exponential { half_life_secs: f64 },
    /// Windows sorted by strictly increasing maximum age (nanoseconds).
    Step { windows: Vec<(u128, f64)> },
    /// 1.0 below the maximum age (nanoseconds), 0.0 from it on.
    Window { max_age_nanos: u128 },
}

impl DecayCurve {
    /// Exponential decay: `2^(−age / half_life)`, 1.0 at age zero, 0.5 at
    /// one half-life, approaching 0.0 (never negative).
    ///
    /// # Errors
    /// [`ScorerError::NotPositive`] (naming `half_life`) if `half_life` is
    /// zero.
    pub fn exponential(half_life: Duration) -> Result<Self, ScorerError> {
        if half_life.is_zero() {
            return Err(ScorerError::NotPositive {
                name: "half_life",
                value: 0.0,
            });
        }
        Ok(Self(Curve::Exponential {
            half_life_secs: half_life.as_secs_f64(),
        }))
    }

    /// Step decay over `(max_age, score)` windows ordered from youngest to
    /// oldest: the score of the first window whose `max_age` is strictly
    /// greater than the age, or the last window's score when the age reaches
    /// every boundary.
    ///
    /// ```
    /// use std::time::Duration;
    /// use budget::{Item, model::Timestamp, scorer::Scorer};
    /// use budget::scorer::{DecayCurve, DecayScorer};
    ///
    /// let hour = Duration::from_secs(3600);
    /// let curve = DecayCurve::step([(hour, 0.9), (24 * hour, 0.5), (72 * hour, 0.1)])?;
    /// let now = Timestamp::from_unix_seconds(100 * 3600);
    /// let scorer = DecayScorer::new(now, curve);
    /// let aged = |hours: i64| {
    ///     Item::builder("x").tokens(1).timestamp(Timestamp::from_unix_seconds((100 - hours) * 3600)).build()
    /// };
    /// let (a, b, c, d) = (aged(0)?, aged(1)?, aged(24)?, aged(99)?);
    /// assert_eq!(scorer.scores(&[&a, &b, &c, &d]), vec![0.9, 0.5, 0.1, 0.1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ScorerError::NoStepWindows`] for no windows,
    /// [`ScorerError::StepWindowZeroAge`] for a zero `max_age`,
    /// [`ScorerError::StepWindowsNotAscending`] unless the `max_age`s
    /// strictly increase, and [`ScorerError::StepWindowScore`] for a score
    /// outside `0.0..=1.0` or NaN.
    pub fn step<I>(windows: I) -> Result<Self, ScorerError>
    where
        I: IntoIterator<Item = (Duration, f64)>,
    {
        let mut checked: Vec<(u128, f64)> = Vec::new();
        for (index, (max_age, score)) in windows.into_iter().enumerate() {
            if max_age.is_zero() {
                return Err(ScorerError::StepWindowZeroAge { index });
            }
            if !(0.0..=1.0).contains(&score) {
                return Err(ScorerError::StepWindowScore { index, score });
            }
            let nanos = max_age.as_nanos();
            if let Some(&(previous, _)) = checked.last()
                && nanos <= previous
            {
                return Err(ScorerError::StepWindowsNotAscending {
                    index,
                    max_age_secs: max_age.as_secs_f64(),
                    previous_max_age_secs: previous as f64 / 1e9,
                });
            }
            checked.push((nanos, score));
        }
        if checked.is_empty() {
            return Err(ScorerError::NoStepWindows);
        }
        Ok(Self(Curve::Step { windows: checked }))
    }

    /// A window: 1.0 while the age is below `max_age`, 0.0 from `max_age`
    /// on (half-open `[0, max_age)`).
    ///
    /// # Errors
    /// [`ScorerError::NotPositive`] (naming `max_age`) if `max_age` is zero.
    pub fn window(max_age: Duration) -> Result<Self, ScorerError> {
        if max_age.is_zero() {
            return Err(ScorerError::NotPositive {
                name: "max_age",
                value: 0.0,
            });
        }
        Ok(Self(Curve::Window {
            max_age_nanos: max_age.as_nanos(),
        }))
    }

    /// The score at an age of `age_nanos` nanoseconds.
    fn score(&self, age_nanos: u128) -> f64 {
        match &self.0 {
            Curve::Exponential { half_life_secs } => {
                let age_secs = age_nanos as f64 / 1e9;
                (-age_secs / half_life_secs).exp2()
            }
            Curve::Step { windows } => {
                let first_older = windows.partition_point(|&(max_age, _)| max_age <= age_nanos);
                let window = windows.get(first_older).or(windows.last());
                window.map_or(0.0, |&(_, score)| score)
            }
            Curve::Window { max_age_nanos } => {
                if age_nanos < *max_age_nanos {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{DecayCurve, DecayScorer};
    use crate::model::{ContextItem, Item, Timestamp};
    use crate::scorer::ScorerError;
    use crate::scorer::{Scorer, SystemClock};

    const HOUR: Duration = Duration::from_secs(3600);

    fn reference() -> Timestamp {
        Timestamp::from_ymd_hms(2025, 1, 1, 12, 0, 0).unwrap()
    }

    fn score(scorer: &DecayScorer<Timestamp>, timestamp: Option<Timestamp>) -> f64 {
        let builder = Item::builder("x").tokens(100);
        let item = match timestamp {
            Some(t) => builder.timestamp(t),
            None => builder,
        }
        .build()
        .unwrap();
        let view: &dyn ContextItem = &item;
        scorer.scores(&[view])[0]
    }

    fn exponential_day() -> DecayScorer<Timestamp> {
        let curve = DecayCurve::exponential(Duration::from_secs_f64(86400.0)).unwrap();
        DecayScorer::new(reference(), curve)
    }

    /// Vector `decay-exponential-half-life`: age 24 h, half-life 24 h → 0.5.
    #[test]
    fn vector_exponential_half_life() {
        let ts = Timestamp::from_ymd_hms(2024, 12, 31, 12, 0, 0).unwrap();
        assert_eq!(score(&exponential_day(), Some(ts)), 0.5);
    }

    /// Vector `decay-future-dated`: timestamp after now → age 0 → 1.0.
    #[test]
    fn vector_future_dated() {
        let ts = Timestamp::from_ymd_hms(2025, 1, 2, 0, 0, 0).unwrap();
        assert_eq!(score(&exponential_day(), Some(ts)), 1.0);
    }

    /// Vector `decay-null-timestamp`: no timestamp → null_timestamp_score 0.5.
    #[test]
    fn vector_null_timestamp() {
        let scorer = exponential_day().with_null_timestamp_score(0.5).unwrap();
        assert_eq!(score(&scorer, None), 0.5);
        let custom = exponential_day().with_null_timestamp_score(0.2).unwrap();
        assert_eq!(score(&custom, None), 0.2);
    }

    /// Vector `decay-step-second-window`: age 6 h in [(1h,.9),(24h,.5),(72h,.1)] → 0.5.
    #[test]
    fn vector_step_second_window() {
        let curve = DecayCurve::step([
            (Duration::from_secs_f64(3600.0), 0.9),
            (Duration::from_secs_f64(86400.0), 0.5),
            (Duration::from_secs_f64(259200.0), 0.1),
        ])
        .unwrap();
        let scorer = DecayScorer::new(reference(), curve);
        let ts = Timestamp::from_ymd_hms(2025, 1, 1, 6, 0, 0).unwrap();
        assert_eq!(score(&scorer, Some(ts)), 0.5);
    }

    /// Vector `decay-window-at-boundary`: age 6 h, max_age 6 h → 0.0.
    #[test]
    fn vector_window_at_boundary() {
        let curve = DecayCurve::window(Duration::from_secs_f64(21600.0)).unwrap();
        let scorer = DecayScorer::new(reference(), curve);
        let ts = Timestamp::from_ymd_hms(2025, 1, 1, 6, 0, 0).unwrap();
        assert_eq!(score(&scorer, Some(ts)), 0.0);
        let just_inside = Timestamp::from_unix_nanos(ts.unix_nanos() + 1);
        assert_eq!(score(&scorer, Some(just_inside)), 1.0);
    }

    /// The specification's step table: 0h → 0.9, 1h → 0.5, 24h → 0.1, 72h → 0.1.
    #[test]
    fn step_boundaries_fall_into_the_older_window() {
        let curve = DecayCurve::step([(HOUR, 0.9), (24 * HOUR, 0.5), (72 * HOUR, 0.1)]).unwrap();
        let scorer = DecayScorer::new(reference(), curve);
        let aged =
            |hours: i64| Timestamp::from_unix_seconds(reference().unix_seconds() - hours * 3600);
        for (hours, want) in [(0, 0.9), (1, 0.5), (24, 0.1), (72, 0.1), (10_000, 0.1)] {
            assert_eq!(score(&scorer, Some(aged(hours))), want, "{hours} h");
        }
    }

    #[test]
    fn exponential_shape() {
        let scorer = exponential_day();
        let aged = |secs: i64| Timestamp::from_unix_seconds(reference().unix_seconds() - secs);
        assert_eq!(score(&scorer, Some(aged(0))), 1.0);
        assert_eq!(score(&scorer, Some(aged(2 * 86400))), 0.25);
        assert!(
            (score(&scorer, Some(aged(43200))) - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12
        );
    }

    #[test]
    fn extreme_timestamps_stay_in_range() {
        let scorer = exponential_day();
        let oldest = Timestamp::from_unix_nanos(i128::MIN);
        let newest = Timestamp::from_unix_nanos(i128::MAX);
        assert_eq!(score(&scorer, Some(oldest)), 0.0);
        assert_eq!(score(&scorer, Some(newest)), 1.0);
        let window = DecayScorer::new(
            Timestamp::from_unix_nanos(i128::MAX),
            DecayCurve::window(Duration::MAX).unwrap(),
        );
        assert_eq!(score(&window, Some(oldest)), 0.0);
        assert_eq!(score(&window, Some(Timestamp::UNIX_EPOCH)), 0.0);
        let step = DecayScorer::new(
            Timestamp::from_unix_nanos(i128::MIN),
            DecayCurve::step([(Duration::MAX, 0.3)]).unwrap(),
        );
        assert_eq!(score(&step, Some(newest)), 0.3);
        let tiny_half_life = DecayScorer::new(
            reference(),
            DecayCurve::exponential(Duration::from_nanos(1)).unwrap(),
        );
        let second_old = Timestamp::from_unix_seconds(reference().unix_seconds() - 1);
        assert_eq!(score(&tiny_half_life, Some(second_old)), 0.0);
    }

    #[test]
    fn invalid_curves_are_typed_errors() {
        assert_eq!(
            DecayCurve::exponential(Duration::ZERO).unwrap_err(),
            ScorerError::NotPositive {
                name: "half_life",
                value: 0.0
            }
        );
        assert!(
            DecayCurve::exponential(Duration::ZERO)
                .unwrap_err()
                .to_string()
                .contains("half_life")
        );
        assert_eq!(
            DecayCurve::window(Duration::ZERO).unwrap_err(),
            ScorerError::NotPositive {
                name: "max_age",
                value: 0.0
            }
        );
        assert_eq!(
            DecayCurve::step(Vec::new()).unwrap_err(),
            ScorerError::NoStepWindows
        );
        assert_eq!(
            DecayCurve::step([(HOUR, 0.9), (Duration::ZERO, 0.5)]).unwrap_err(),
            ScorerError::StepWindowZeroAge { index: 1 }
        );
        assert_eq!(
            DecayCurve::step([(2 * HOUR, 0.9), (HOUR, 0.5)]).unwrap_err(),
            ScorerError::StepWindowsNotAscending {
                index: 1,
                max_age_secs: 3600.0,
                previous_max_age_secs: 7200.0
            }
        );
        assert_eq!(
            DecayCurve::step([(HOUR, 0.9), (HOUR, 0.5)]).unwrap_err(),
            ScorerError::StepWindowsNotAscending {
                index: 1,
                max_age_secs: 3600.0,
                previous_max_age_secs: 3600.0
            }
        );
        for bad in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                DecayCurve::step([(HOUR, bad)]).unwrap_err(),
                ScorerError::StepWindowScore { index: 0, .. }
            ));
        }
        for bad in [-0.1, 1.5, f64::NAN] {
            let err = exponential_day()
                .with_null_timestamp_score(bad)
                .unwrap_err();
            assert!(matches!(
                err,
                ScorerError::OutOfRange {
                    name: "null_timestamp_score",
                    ..
                }
            ));
        }
    }

    #[test]
    fn system_clock_scores_recent_items_fresh() {
        let scorer = DecayScorer::new(SystemClock, DecayCurve::window(HOUR).unwrap());
        let item = Item::builder("x")
            .tokens(1)
            .timestamp(Timestamp::now())
            .build()
            .unwrap();
        assert_eq!(scorer.scores(&[&item]), vec![1.0]);
    }
}
