//! [`Pattern`]: a string schema's `pattern`, compiled once: an ECMA-262 regular expression run
//! by the `regex` crate (through `dsh-tools-pattern`), or decided without it for the simplest
//! shapes (`pattern_shortcut.rs`). Shared by the typed model and the keyword engine, below both.

pub use dsh_tools_pattern::{PatternError, PatternErrorKind};

use super::pattern_shortcut::Shortcut;

/// A compiled `pattern`; equality is by source text.
///
/// The source is an ECMA-262 regular expression, as JSON Schema specifies (read with the `u`
/// flag): it is translated into the `regex` crate's dialect so that `\d`, `\w`, `\s`, `\b`, `.`
/// and the rest mean what ECMA-262 says, or refused with a [`PatternError`] naming the construct
/// (look-around and backreferences, which the engine cannot run, or text that is not ECMA-262).
///
/// Not API: a schema's `pattern` is set as text (a string builder's `pattern`, or
/// imported); the runtime's generated validators and the tests reach the compiled form.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct Pattern {
    source: String,
    regex: dsh_tools_pattern::Regex,
    /// What decides the pattern without the engine, for the simplest shapes.
    shortcut: Option<Shortcut>,
}

impl Pattern {
    /// Compiles the ECMA-262 pattern `source`, or explains why it cannot be enforced.
    #[doc(hidden)]
    pub fn new(source: &str) -> Result<Self, PatternError> {
        Ok(Self {
            source: source.to_owned(),
            regex: dsh_tools_pattern::compile(source)?,
            shortcut: Shortcut::of(source),
        })
    }

    /// The pattern text, as written (ECMA-262).
    #[doc(hidden)]
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether `text` contains a match (JSON Schema patterns are not anchored).
    #[doc(hidden)]
    pub fn is_match(&self, text: &str) -> bool {
        match &self.shortcut {
            Some(shortcut) => shortcut.is_match(text),
            None => self.regex.is_match(text),
        }
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}
