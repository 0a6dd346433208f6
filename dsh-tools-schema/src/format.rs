//! `format`: the names a string schema may carry, which of them the validator checks, and how a
//! violation words each. The grammars themselves are `format_checks.rs`.
//!
//! JSON Schema 2020-12 makes `format` an annotation unless a validator opts in; this engine checks
//! the formats whose grammar is exact and that tool arguments use (dates and times, durations,
//! UUIDs, e-mail addresses, URIs, IP addresses) and keeps any other name as an annotation, so what
//! the model is shown is never less than what is enforced.

use super::format_checks;

/// The `format` of a string schema.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StringFormat {
    /// `date-time`: an RFC 3339 date-time, `2026-12-02T10:00:00Z`.
    DateTime,
    /// `date`: an RFC 3339 full-date, `2026-12-02`.
    Date,
    /// `time`: an RFC 3339 full-time, `10:00:00+01:00`.
    Time,
    /// `duration`: an ISO 8601 duration (RFC 3339 appendix A), `P1DT2H`.
    Duration,
    /// `uuid`: an RFC 4122 UUID in its hyphenated form.
    Uuid,
    /// `email`: an RFC 5321 mailbox, `someone@example.com`.
    Email,
    /// `uri`: an absolute RFC 3986 URI, `https://example.com/a?b#c`.
    Uri,
    /// `ipv4`: a dotted-quad IPv4 address, without leading zeros.
    Ipv4,
    /// `ipv6`: an RFC 4291 IPv6 address.
    Ipv6,
    /// Any other name: published as written, not checked.
    Other(String),
}

impl From<&str> for StringFormat {
    /// The format named `name` (`"date-time"`, `"uuid"`, …; any other name is
    /// [`Other`](Self::Other)).
    fn from(name: &str) -> Self {
        Self::checked_by_name(name).unwrap_or_else(|| Self::Other(name.to_owned()))
    }
}

impl StringFormat {
    /// The checked format named `name`, without allocating; `None` for any other name.
    pub(crate) fn checked_by_name(name: &str) -> Option<Self> {
        Some(match name {
            "date-time" => Self::DateTime,
            "date" => Self::Date,
            "time" => Self::Time,
            "duration" => Self::Duration,
            "uuid" => Self::Uuid,
            "email" => Self::Email,
            "uri" => Self::Uri,
            "ipv4" => Self::Ipv4,
            "ipv6" => Self::Ipv6,
            _ => return None,
        })
    }

    /// The name, as `format` carries it.
    pub fn name(&self) -> &str {
        match self {
            Self::DateTime => "date-time",
            Self::Date => "date",
            Self::Time => "time",
            Self::Duration => "duration",
            Self::Uuid => "uuid",
            Self::Email => "email",
            Self::Uri => "uri",
            Self::Ipv4 => "ipv4",
            Self::Ipv6 => "ipv6",
            Self::Other(name) => name,
        }
    }

    /// Whether the validator checks this format (every one but [`Other`](Self::Other)).
    pub(crate) fn is_checked(&self) -> bool {
        !matches!(self, Self::Other(_))
    }

    /// Whether `text` is in this format; always for a format that is not checked. Not API: the
    /// engines' check, which validation runs.
    #[doc(hidden)]
    pub fn matches(&self, text: &str) -> bool {
        match self {
            Self::DateTime => format_checks::is_date_time(text),
            Self::Date => format_checks::is_date(text),
            Self::Time => format_checks::is_time(text),
            Self::Duration => format_checks::is_duration(text),
            Self::Uuid => format_checks::is_uuid(text),
            Self::Email => format_checks::is_email(text),
            Self::Uri => format_checks::is_uri(text),
            Self::Ipv4 => format_checks::is_ipv4(text),
            Self::Ipv6 => format_checks::is_ipv6(text),
            Self::Other(_) => true,
        }
    }

    /// What a value in this format is, as a violation says it: `"since" must be <this>`.
    pub(crate) fn phrase(&self) -> &'static str {
        match self {
            Self::DateTime => "a date-time (RFC 3339)",
            Self::Date => "a date (RFC 3339 full-date)",
            Self::Time => "a time (RFC 3339 full-time)",
            Self::Duration => "a duration (ISO 8601)",
            Self::Uuid => "a UUID",
            Self::Email => "an email address",
            Self::Uri => "an absolute URI (RFC 3986)",
            Self::Ipv4 => "an IPv4 address",
            Self::Ipv6 => "an IPv6 address",
            Self::Other(_) => "a string",
        }
    }
}
