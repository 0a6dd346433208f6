//! Time and place as the journal writes them: milliseconds since the Unix epoch, shown as an
//! RFC 3339 UTC time, and the process a record came from (`<host> pid <pid>`).

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, in milliseconds since the Unix epoch (0 for a clock set before it).
pub(crate) fn now_ms() -> u64 {
    ms_since_epoch(SystemTime::now())
}

/// `time` in milliseconds since the Unix epoch (0 before it).
///
/// From whole seconds and the millisecond of the second, in 64 bits: `as_millis` multiplies and
/// divides in 128.
fn ms_since_epoch(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |since| {
        since
            .as_secs()
            .saturating_mul(1000)
            .saturating_add(u64::from(since.subsec_millis()))
    })
}

/// A time the journal recorded, as the clock gave it or in milliseconds since the Unix epoch,
/// read as milliseconds ([`Stamp::ms`]) only when something reads it.
///
/// The store in memory stamps every journaled call's start and finish and reads a stamp back
/// only when an entry is read or a read-only call's answer is weighed: turning a clock reading
/// into milliseconds (`SystemTime::duration_since`, which std offers no cheaper way round) was
/// most of each stamp's cost. A reading and the milliseconds written from it read back the
/// same: [`now_ms`] is `Stamp::now().ms()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stamp {
    /// As the clock gave it.
    Read(SystemTime),
    /// In milliseconds since the Unix epoch: a time given with a whole entry.
    Ms(u64),
}

impl Stamp {
    /// Now, as the clock gives it.
    #[inline]
    pub(crate) fn now() -> Self {
        Self::Read(SystemTime::now())
    }

    /// The time in milliseconds since the Unix epoch (0 for a reading before it).
    pub(crate) fn ms(self) -> u64 {
        match self {
            Self::Read(time) => ms_since_epoch(time),
            Self::Ms(ms) => ms,
        }
    }
}

/// `ms` as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub(crate) fn format_time(ms: u64) -> String {
    let seconds = ms / 1000;
    let (days, of_day) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days);
    // Digit by digit rather than through `format!`: every replayed call shows one.
    let mut text = String::with_capacity(24);
    if year > 9999 {
        // Past the four digits RFC 3339 has: written in full, as `{year:04}` would.
        text.push_str(&year.to_string());
    } else {
        push_digits(&mut text, year, 4);
    }
    for (separator, value, width) in [
        ('-', month, 2),
        ('-', day, 2),
        ('T', of_day / 3600, 2),
        (':', of_day % 3600 / 60, 2),
        (':', of_day % 60, 2),
        ('.', ms % 1000, 3),
    ] {
        text.push(separator);
        push_digits(&mut text, value, width);
    }
    text.push('Z');
    text
}

/// Pushes the last `width` decimal digits of `value`, zero-padded.
fn push_digits(text: &mut String, value: u64, width: u32) {
    for place in (0..width).rev() {
        let digit = (value / 10_u64.pow(place) % 10) as u8;
        text.push(char::from(b'0' + digit));
    }
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// This process, as a record names where it came from: `<host> pid <pid>`.
pub(crate) fn this_process() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".to_owned());
    format!("{host} pid {}", std::process::id())
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::{Stamp, format_time};

    #[test]
    fn a_stamp_reads_as_its_milliseconds() {
        // A reading's milliseconds are the whole ones: the sub-millisecond rest is dropped, as
        // `now_ms` drops it, and a reading before the epoch is 0.
        let readings = [
            (UNIX_EPOCH, 0),
            (
                UNIX_EPOCH + Duration::from_nanos(1_796_563_275_001_999_999),
                1_796_563_275_001,
            ),
            (
                UNIX_EPOCH + Duration::from_millis(951_782_400_123),
                951_782_400_123,
            ),
            (UNIX_EPOCH - Duration::from_secs(1), 0),
        ];
        for (time, ms) in readings {
            assert_eq!(Stamp::Read(time).ms(), ms, "{time:?}");
        }
        assert_eq!(Stamp::Ms(42).ms(), 42);
        let before = super::now_ms();
        let stamp = Stamp::now().ms();
        assert!(before <= stamp && stamp <= super::now_ms());
    }

    #[test]
    fn times_read_as_rfc_3339_utc() {
        assert_eq!(format_time(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_time(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(format_time(1_796_563_275_001), "2026-12-06T13:21:15.001Z");
        assert_eq!(
            format_time(253_402_300_800_000),
            "10000-01-01T00:00:00.000Z"
        );
    }
}
