//! The grammars of the checked `format`s, each exactly as its RFC writes it (ASCII only; no
//! leniency a client's parser might not share). `format.rs` says which name maps to which.

use std::net::{Ipv4Addr, Ipv6Addr};

/// RFC 3339 `date-time`: `full-date "T" full-time` (`T` and `Z` in either case).
pub(super) fn is_date_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() > 11
        && matches!(bytes[10], b'T' | b't')
        && is_date(&text[..10])
        && is_time(&text[11..])
}

/// RFC 3339 `full-date`: `YYYY-MM-DD` with a day the month has.
pub(super) fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (
        digits(&bytes[0..4]),
        digits(&bytes[5..7]),
        digits(&bytes[8..10]),
    ) else {
        return false;
    };
    (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
}

/// RFC 3339 `full-time`: `HH:MM:SS[.frac]` and an offset (`Z` or `±HH:MM`); second 60 (a leap
/// second) only at 23:59 UTC.
pub(super) fn is_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() < 9 || bytes[2] != b':' || bytes[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (
        digits(&bytes[0..2]),
        digits(&bytes[3..5]),
        digits(&bytes[6..8]),
    ) else {
        return false;
    };
    let mut rest = &bytes[8..];
    if let [b'.', tail @ ..] = rest {
        let fraction = tail.iter().take_while(|b| b.is_ascii_digit()).count();
        if fraction == 0 {
            return false;
        }
        rest = &tail[fraction..];
    }
    // The offset, in minutes east of UTC.
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(hours), Some(minutes)) = (digits(&[*h1, *h2]), digits(&[*m1, *m2])) else {
                return false;
            };
            if hours > 23 || minutes > 59 {
                return false;
            }
            let east = i64::from(hours * 60 + minutes);
            if *sign == b'+' { east } else { -east }
        }
        _ => return false,
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    if second == 60 {
        let utc = (i64::from(hour * 60 + minute) - offset).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// An ISO 8601 duration as RFC 3339 appendix A gives it: `P` and a run of date parts (`Y`,
/// `M`, `D`, consecutive) with an optional time part (`T` and a run of `H`, `M`, `S`), or `P`
/// and weeks alone (`P2W`).
pub(super) fn is_duration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('P') else {
        return false;
    };
    let (date, time) = match rest.split_once('T') {
        Some((date, time)) => (date, Some(time)),
        None => (rest, None),
    };
    if time.is_none() && date.len() > 1 && date.ends_with('W') {
        return date[..date.len() - 1].bytes().all(|b| b.is_ascii_digit());
    }
    let date_ok = date.is_empty() || is_consecutive_run(date, b"YMD");
    let time_ok = match time {
        None => true,
        Some(time) => !time.is_empty() && is_consecutive_run(time, b"HMS"),
    };
    date_ok && time_ok && !(date.is_empty() && time.is_none())
}

/// Whether `text` is one or more `<digits><designator>` whose designators are consecutive
/// entries of `order` (`Y` `M`, `M` `D`, never `Y` `D`).
fn is_consecutive_run(text: &str, order: &[u8]) -> bool {
    let mut expected: Option<usize> = None;
    let mut rest = text.as_bytes();
    while !rest.is_empty() {
        let count = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if count == 0 || count == rest.len() {
            return false;
        }
        let Some(position) = order.iter().position(|d| *d == rest[count]) else {
            return false;
        };
        if expected.is_some_and(|expected| expected != position) {
            return false;
        }
        expected = Some(position + 1);
        rest = &rest[count + 1..];
    }
    expected.is_some()
}

/// An RFC 4122 UUID: 32 hex digits in groups of 8-4-4-4-12.
pub(super) fn is_uuid(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(index, byte)| match index {
            8 | 13 | 18 | 23 => *byte == b'-',
            _ => byte.is_ascii_hexdigit(),
        })
}

/// An RFC 5321 mailbox: a dot-atom or quoted local part, `@`, and a domain name or an address
/// literal (`[192.0.2.1]`, `[IPv6:2001:db8::1]`).
pub(super) fn is_email(text: &str) -> bool {
    let Some(at) = text.rfind('@') else {
        return false;
    };
    let (local, domain) = (&text[..at], &text[at + 1..]);
    let local_ok = if local.len() >= 2 && local.starts_with('"') && local.ends_with('"') {
        is_quoted_local(&local[1..local.len() - 1])
    } else {
        is_dot_atom(local)
    };
    local_ok && local.len() <= 64 && is_mail_domain(domain)
}

fn is_dot_atom(text: &str) -> bool {
    !text.is_empty()
        && text.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b))
        })
}

fn is_quoted_local(text: &str) -> bool {
    let mut bytes = text.bytes();
    while let Some(byte) = bytes.next() {
        match byte {
            b'\\' => {
                if !bytes
                    .next()
                    .is_some_and(|escaped| (32..=126).contains(&escaped))
                {
                    return false;
                }
            }
            b'"' => return false,
            32..=126 => {}
            _ => return false,
        }
    }
    true
}

fn is_mail_domain(domain: &str) -> bool {
    if let Some(literal) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        return match literal.strip_prefix("IPv6:") {
            Some(address) => is_ipv6(address),
            None => is_ipv4(literal),
        };
    }
    is_host_name(domain)
}

/// A DNS host name: labels of letters, digits and inner hyphens, at most 63 each.
fn is_host_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// An absolute RFC 3986 URI: `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
pub(super) fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut scheme_bytes = scheme.bytes();
    if !scheme_bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        || !scheme_bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    {
        return false;
    }
    let (rest, fragment) = match rest.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (rest, None),
    };
    let (hier, query) = match rest.split_once('?') {
        Some((hier, query)) => (hier, Some(query)),
        None => (rest, None),
    };
    let query_ok = |part: Option<&str>| {
        part.is_none_or(|part| all_uri_chars(part, |b| is_pchar(b) || b == b'/' || b == b'?'))
    };
    if !query_ok(query) || !query_ok(fragment) {
        return false;
    }
    match hier.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            let (authority, path) = after.split_at(end);
            is_authority(authority) && is_path(path)
        }
        None => is_path(hier),
    }
}

fn is_authority(authority: &str) -> bool {
    let (userinfo, host_port) = match authority.rsplit_once('@') {
        Some((userinfo, host_port)) => (Some(userinfo), host_port),
        None => (None, authority),
    };
    if userinfo.is_some_and(|userinfo| {
        !all_uri_chars(userinfo, |b| {
            is_unreserved(b) || is_sub_delim(b) || b == b':'
        })
    }) {
        return false;
    }
    let (host, port) = if let Some(literal) = host_port.strip_prefix('[') {
        let Some((inside, after)) = literal.split_once(']') else {
            return false;
        };
        if !is_ipv6(inside) && !is_ip_future(inside) {
            return false;
        }
        match after {
            "" => ("", None),
            _ => match after.strip_prefix(':') {
                Some(port) => ("", Some(port)),
                None => return false,
            },
        }
    } else {
        match host_port.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_port, None),
        }
    };
    all_uri_chars(host, |b| is_unreserved(b) || is_sub_delim(b))
        && port.is_none_or(|port| port.bytes().all(|b| b.is_ascii_digit()))
}

/// `IPvFuture`: `v` hex digits `.` and unreserved, sub-delims or `:`.
fn is_ip_future(text: &str) -> bool {
    let Some(rest) = text.strip_prefix(['v', 'V']) else {
        return false;
    };
    let Some((version, address)) = rest.split_once('.') else {
        return false;
    };
    !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_hexdigit())
        && !address.is_empty()
        && address
            .bytes()
            .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':')
}

fn is_path(path: &str) -> bool {
    all_uri_chars(path, |b| is_pchar(b) || b == b'/')
}

/// Whether every character of `part` is `allowed` or a percent-encoded octet.
fn all_uri_chars(part: &str, allowed: impl Fn(u8) -> bool) -> bool {
    let bytes = part.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if byte == b'%' {
            let hex = bytes.get(index + 1..index + 3);
            if !hex.is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)) {
                return false;
            }
            index += 3;
        } else if allowed(byte) {
            index += 1;
        } else {
            return false;
        }
    }
    true
}

fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(byte: u8) -> bool {
    b"!$&'()*+,;=".contains(&byte)
}

fn is_pchar(byte: u8) -> bool {
    is_unreserved(byte) || is_sub_delim(byte) || byte == b':' || byte == b'@'
}

/// A dotted-quad IPv4 address, each octet without leading zeros.
pub(super) fn is_ipv4(text: &str) -> bool {
    text.parse::<Ipv4Addr>().is_ok()
}

/// An RFC 4291 IPv6 address (no zone, no prefix length).
pub(super) fn is_ipv6(text: &str) -> bool {
    text.parse::<Ipv6Addr>().is_ok()
}

/// The value of ASCII decimal digits.
fn digits(bytes: &[u8]) -> Option<u32> {
    bytes.iter().try_fold(0u32, |value, byte| {
        byte.is_ascii_digit()
            .then(|| value * 10 + u32::from(byte - b'0'))
    })
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_follow_rfc_3339() {
        assert!(is_date_time("2026-12-02T10:00:00Z"));
        assert!(is_date_time("2026-12-02t10:00:00.25+01:30"));
        assert!(is_date_time("1998-12-31T23:59:60Z"));
        assert!(is_date_time("1998-12-31T15:59:60-08:00"));
        assert!(!is_date_time("1998-12-31T22:59:60Z"));
        assert!(!is_date_time("2026-12-02 10:00:00Z"));
        assert!(!is_date_time("2026-12-02T10:00:00"));
        assert!(is_date("2024-02-29") && !is_date("2023-02-29") && !is_date("2100-02-29"));
        assert!(!is_date("2026-13-01") && !is_date("2026-1-01"));
        assert!(!is_time("24:00:00Z") && !is_time("01:01:01,1111Z"));
    }

    #[test]
    fn durations_are_consecutive_runs() {
        for valid in ["P4DT12H30M5S", "P1Y", "PT1M", "P2W", "P1M1D", "PT36H"] {
            assert!(is_duration(valid), "{valid}");
        }
        for invalid in [
            "P", "PT", "P1YT", "P1D2H", "P2W1D", "P1Y1D", "PT1H1S", "1D", "P1",
        ] {
            assert!(!is_duration(invalid), "{invalid}");
        }
    }

    #[test]
    fn addresses_and_identifiers() {
        assert!(is_uuid("2eb8aa08-aa98-11ea-b4aa-73b441d16380"));
        assert!(!is_uuid("2eb8aa08aa9811eab4aa73b441d16380"));
        assert!(is_email("joe.bloggs@example.com") && is_email("\"joe bloggs\"@example.com"));
        assert!(is_email("joe@[IPv6:::1]") && !is_email("te..st@example.com"));
        assert!(is_ipv4("192.168.0.1") && !is_ipv4("087.10.0.1") && !is_ipv4("1.2.3"));
        assert!(is_ipv6("::ffff:192.168.0.1") && !is_ipv6("fe80::a%eth1"));
        assert!(is_uri("http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com"));
        assert!(is_uri("ldap://[2001:db8::7]/c=GB?objectClass?one") && is_uri("urn:isbn:0451"));
        assert!(!is_uri("//foo.bar/?baz=qux#quux") && !is_uri("http:// shouldfail.com"));
        assert!(!is_uri("bar,baz:foo") && !is_uri("abc"));
    }
}
