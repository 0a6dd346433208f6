//! [`PatternError`]: why a pattern cannot be enforced.

use std::fmt;

/// Why a pattern is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternErrorKind {
    /// Not an ECMA-262 regular expression (with the `u` flag): JavaScript's `new RegExp(p, "u")`
    /// throws on it too.
    Invalid,
    /// A valid ECMA-262 regular expression using a construct the regex engine cannot run
    /// (look-around, backreferences), or one it cannot compile within its limits.
    Unsupported,
}

/// A pattern that cannot be enforced, with the construct at fault and where it starts.
///
/// `Display` is one sentence naming the construct, e.g.
/// `look-ahead "(?=" at offset 3 is not supported (the regex engine has no look-around)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    kind: PatternErrorKind,
    offset: usize,
    message: String,
}

impl PatternError {
    pub(crate) fn invalid(offset: usize, message: impl Into<String>) -> Self {
        Self {
            kind: PatternErrorKind::Invalid,
            offset,
            message: message.into(),
        }
    }

    pub(crate) fn unsupported(offset: usize, message: impl Into<String>) -> Self {
        Self {
            kind: PatternErrorKind::Unsupported,
            offset,
            message: message.into(),
        }
    }

    /// Whether the pattern is not ECMA-262 at all, or valid but beyond the engine.
    pub fn kind(&self) -> PatternErrorKind {
        self.kind
    }

    /// Where the construct at fault starts, in characters from the start of the pattern.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The sentence `Display` shows.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PatternError {}
