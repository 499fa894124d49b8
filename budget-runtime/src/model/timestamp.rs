//! [`Timestamp`]: a UTC instant with nanosecond precision.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A UTC instant, stored as nanoseconds since the Unix epoch.
///
/// Ordering is temporal. Conversions from [`SystemTime`] saturate at the
/// representable range (about ±5.4 × 10^21 years), so they never panic.
///
/// ```
/// use budget::model::Timestamp;
///
/// let t = Timestamp::from_ymd_hms(2024, 6, 15, 12, 0, 0).unwrap();
/// assert_eq!(t.unix_seconds(), 1_718_452_800);
/// assert!(Timestamp::from_unix_seconds(0) < t);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Timestamp {
    unix_nanos: i128,
}

const NANOS_PER_SECOND: i128 = 1_000_000_000;

impl Timestamp {
    /// The Unix epoch, 1970-01-01T00:00:00Z.
    pub const UNIX_EPOCH: Self = Self { unix_nanos: 0 };

    /// The instant `nanos` nanoseconds after (or before, if negative) the epoch.
    pub const fn from_unix_nanos(nanos: i128) -> Self {
        Self { unix_nanos: nanos }
    }

    /// The instant `seconds` seconds after (or before) the epoch.
    pub const fn from_unix_seconds(seconds: i64) -> Self {
        Self {
            unix_nanos: seconds as i128 * NANOS_PER_SECOND,
        }
    }

    /// The instant `millis` milliseconds after (or before) the epoch.
    pub const fn from_unix_millis(millis: i64) -> Self {
        Self {
            unix_nanos: millis as i128 * 1_000_000,
        }
    }

    /// A UTC calendar date and time (proleptic Gregorian), or `None` when a
    /// field is out of range (month 1–12, day valid for the month, hour < 24,
    /// minute < 60, second < 60).
    pub const fn from_ymd_hms(
        year: i64,
        month: u32,
        day: u32,
        hour: u32,
        minute: u32,
        second: u32,
    ) -> Option<Self> {
        if month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 {
            return None;
        }
        if day > days_in_month(year, month) {
            return None;
        }
        if year.unsigned_abs() > 1_000_000_000 {
            return None;
        }
        let days = days_from_civil(year, month, day);
        let seconds =
            days as i128 * 86_400 + hour as i128 * 3_600 + minute as i128 * 60 + second as i128;
        Some(Self {
            unix_nanos: seconds * NANOS_PER_SECOND,
        })
    }

    /// Nanoseconds since the epoch (negative before it).
    pub const fn unix_nanos(self) -> i128 {
        self.unix_nanos
    }

    /// This instant as a `SystemTime`; `None` when it is outside what the
    /// platform's `SystemTime` holds.
    ///
    /// ```
    /// use budget::model::Timestamp;
    /// use std::time::{Duration, UNIX_EPOCH};
    ///
    /// let t = Timestamp::from_ymd_hms(2024, 2, 29, 0, 0, 0).unwrap();
    /// assert_eq!(t.to_system_time(), Some(UNIX_EPOCH + Duration::from_secs(1_709_164_800)));
    /// assert_eq!(Timestamp::from_unix_nanos(i128::MAX).to_system_time(), None);
    /// ```
    pub fn to_system_time(self) -> Option<SystemTime> {
        let magnitude = self.unix_nanos.unsigned_abs();
        let nanos_per_second = NANOS_PER_SECOND.unsigned_abs();
        let secs = u64::try_from(magnitude / nanos_per_second).ok()?;
        // The remainder is below 10^9, so it always fits in u32.
        let subsec_nanos = u32::try_from(magnitude % nanos_per_second).ok()?;
        let duration = Duration::new(secs, subsec_nanos);
        if self.unix_nanos >= 0 {
            UNIX_EPOCH.checked_add(duration)
        } else {
            UNIX_EPOCH.checked_sub(duration)
        }
    }

    /// Whole seconds since the epoch, rounded toward negative infinity and
    /// saturated to the `i64` range.
    pub const fn unix_seconds(self) -> i64 {
        budget_rules::convert::saturating_i64_from_i128(
            self.unix_nanos.div_euclid(NANOS_PER_SECOND),
        )
    }

    /// Signed seconds from `earlier` to `self` (positive when `self` is later).
    pub fn seconds_since(self, earlier: Self) -> f64 {
        let delta = self.unix_nanos.saturating_sub(earlier.unix_nanos);
        delta as f64 / NANOS_PER_SECOND as f64
    }

    /// The current time.
    pub fn now() -> Self {
        SystemTime::now().into()
    }
}

const fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

const fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ => {
            if is_leap(year) {
                29
            } else {
                28
            }
        }
    }
}

/// Days from 1970-01-01 to the given civil date (Howard Hinnant's algorithm).
const fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count from 1970-01-01 (inverse of
/// `days_from_civil`). Works in `i128`, where no day count of a
/// [`Timestamp`] (at most about 2 × 10^24) can overflow it.
fn civil_from_days(days: i128) -> (i128, i128, i128) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    // `doy - (153 * mp + 2) / 5 + 1` is in 1..=31 and `mp` in 0..=11.
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    (year, month, day)
}

impl From<SystemTime> for Timestamp {
    fn from(time: SystemTime) -> Self {
        let nanos = match time.duration_since(UNIX_EPOCH) {
            Ok(after) => i128::try_from(after.as_nanos()).unwrap_or(i128::MAX),
            Err(before) => i128::try_from(before.duration().as_nanos())
                .map(|n| -n)
                .unwrap_or(i128::MIN),
        };
        Self { unix_nanos: nanos }
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Timestamp {
    /// RFC 3339 in UTC, with a fractional part only when it is non-zero.
    /// Years beyond 9999 (or before 0) are written in full, with a sign
    /// when negative, so every instant has its proleptic Gregorian date.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.unix_nanos.div_euclid(NANOS_PER_SECOND);
        let nanos = self.unix_nanos.rem_euclid(NANOS_PER_SECOND);
        let days = secs.div_euclid(86_400);
        let day_secs = secs.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        write!(
            f,
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            day_secs / 3_600,
            day_secs % 3_600 / 60,
            day_secs % 60
        )?;
        if nanos != 0 {
            write!(f, ".{nanos:09}")?;
        }
        f.write_str("Z")
    }
}

#[cfg(feature = "chrono")]
impl From<chrono::DateTime<chrono::Utc>> for Timestamp {
    fn from(time: chrono::DateTime<chrono::Utc>) -> Self {
        let nanos =
            time.timestamp() as i128 * NANOS_PER_SECOND + time.timestamp_subsec_nanos() as i128;
        Self { unix_nanos: nanos }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_round_trip() {
        let t = Timestamp::from_ymd_hms(2024, 2, 29, 23, 59, 58).unwrap();
        assert_eq!(t.to_string(), "2024-02-29T23:59:58Z");
        assert_eq!(Timestamp::UNIX_EPOCH.to_string(), "1970-01-01T00:00:00Z");
        let before = Timestamp::from_ymd_hms(1969, 12, 31, 23, 59, 59).unwrap();
        assert_eq!(before.unix_seconds(), -1);
        assert_eq!(before.to_string(), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn invalid_dates_are_none() {
        assert!(Timestamp::from_ymd_hms(2023, 2, 29, 0, 0, 0).is_none());
        assert!(Timestamp::from_ymd_hms(2024, 13, 1, 0, 0, 0).is_none());
        assert!(Timestamp::from_ymd_hms(2024, 4, 31, 0, 0, 0).is_none());
        assert!(Timestamp::from_ymd_hms(2024, 1, 1, 24, 0, 0).is_none());
    }

    #[test]
    fn system_time_conversion_round_trips() {
        let now = SystemTime::now();
        let ts = Timestamp::from(now);
        assert_eq!(ts.to_system_time(), Some(now));
        let past = UNIX_EPOCH - Duration::from_secs(86_400);
        assert_eq!(Timestamp::from(past).unix_seconds(), -86_400);
    }

    #[test]
    fn extreme_values_do_not_panic() {
        let max = Timestamp::from_unix_nanos(i128::MAX);
        let min = Timestamp::from_unix_nanos(i128::MIN);
        assert_eq!(max.unix_seconds(), i64::MAX);
        assert_eq!(min.unix_seconds(), i64::MIN);
        assert!(max.seconds_since(min).is_finite());
        assert!(!max.to_string().is_empty());
        assert_eq!(max.to_system_time(), None);
    }

    /// Audit row: `{}` / `{:?}` of a day count near `i64::MAX` overflowed
    /// (`days + 719_468`). Dates worked out with Python: `divmod(days,
    /// 146_097)` 400-year cycles plus `date(1970, 1, 1) + timedelta(days =
    /// remainder)`.
    #[test]
    fn display_covers_the_whole_i128_range() {
        let days_i64_max = Timestamp::from_unix_nanos(i128::from(i64::MAX) * 86_400_000_000_000);
        assert_eq!(
            days_i64_max.to_string(),
            "25252734927768524-07-27T00:00:00Z"
        );
        assert_eq!(
            format!("{days_i64_max:?}"),
            "25252734927768524-07-27T00:00:00Z"
        );
        let max = Timestamp::from_unix_nanos(i128::MAX);
        assert_eq!(
            max.to_string(),
            "5391559471918239498981-03-22T13:41:55.884105727Z"
        );
        let min_days = Timestamp::from_unix_nanos(i128::from(i64::MIN) * 86_400_000_000_000);
        assert_eq!(min_days.to_string(), "-25252734927764585-06-07T00:00:00Z");
    }
}
