//! [`PartialJsonError`]: the text given to a [`PartialJson`](super::PartialJson) is not the
//! beginning of any JSON value (or, at its end, not a whole one).

use std::fmt;

/// Why the text read so far cannot be (the beginning of) one JSON value, and where.
///
/// `#[non_exhaustive]`: made by the reader; its fields are read. `Display` writes
/// `<reason> at byte <offset>`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PartialJsonError {
    /// The byte offset in the whole text where it went wrong (the text's length when it ended
    /// too early).
    pub offset: usize,
    /// What went wrong, without the offset.
    pub reason: String,
}

impl PartialJsonError {
    pub(crate) fn new(offset: usize, reason: impl Into<String>) -> Self {
        Self {
            offset,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for PartialJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.reason, self.offset)
    }
}

impl std::error::Error for PartialJsonError {}
