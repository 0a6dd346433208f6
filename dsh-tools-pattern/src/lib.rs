//! # dsh-tools-pattern
//!
//! JSON Schema's `pattern` keyword takes an ECMA-262 regular expression; Rust's `regex` crate reads
//! another dialect, in which the same text can mean something else: `\d`, `\w` and `\b` are
//! Unicode-aware there (so `^\d+$` would accept `"٣٤"`), `.` matches `\r`, and `[[:alpha:]]` is
//! a POSIX class. This crate translates an ECMA-262 pattern into a `regex` pattern that matches
//! exactly the same strings, or refuses it, naming the construct:
//! - [`PatternErrorKind::Invalid`]: not ECMA-262 (JavaScript's `new RegExp(p, "u")` throws too),
//!   such as `(?i)`, `\A` or a lone `]`;
//! - [`PatternErrorKind::Unsupported`]: valid ECMA-262 the `regex` crate cannot run
//!   (look-around, backreferences) or cannot compile within its size limit.
//!
//! Patterns are read as JSON Schema recommends, with ECMA-262's `u` flag (code points, not UTF-16
//! units, and its strict grammar) and no other flag. Matching is a search, as `pattern` is not
//! anchored.
//!
//! The runtime of `dsh-tools` and its `#[arg(pattern = ..)]` compile-time check both call
//! [`compile`], so a pattern is accepted or refused alike in both places.
//!
//! ```
//! let digits = dsh_tools_pattern::compile(r"^\d+$").unwrap();
//! assert!(digits.is_match("42"));
//! assert!(!digits.is_match("٣٤")); // Arabic-Indic digits are not ECMA-262's \d
//!
//! let error = dsh_tools_pattern::compile("^(?=a)").unwrap_err();
//! assert_eq!(error.kind(), dsh_tools_pattern::PatternErrorKind::Unsupported);
//! assert!(error.to_string().starts_with("the look-ahead \"(?=\""));
//! ```

mod error;
mod properties;
mod translate;

#[cfg(test)]
mod tests;

pub use error::{PatternError, PatternErrorKind};
pub use regex::Regex;

/// The `regex` crate pattern that matches exactly what the ECMA-262 `pattern` matches.
pub fn translate(pattern: &str) -> Result<String, PatternError> {
    translate::translate(pattern)
}

/// Translates `pattern` and compiles it with the `regex` crate's default limits.
pub fn compile(pattern: &str) -> Result<Regex, PatternError> {
    let translated = translate(pattern)?;
    Regex::new(&translated).map_err(|error| match error {
        regex::Error::CompiledTooBig(limit) => PatternError::unsupported(
            0,
            format!(
                "the pattern is not supported (it compiles to more than the regex engine's limit of {limit} bytes)"
            ),
        ),
        other => {
            // The translation only writes syntax the engine reads; what it still refuses
            // (nesting past its limit, say) is named by its last line.
            let text = other.to_string();
            let reason = text.lines().last().unwrap_or_default().trim();
            let reason = reason.strip_prefix("error: ").unwrap_or(reason);
            PatternError::unsupported(
                0,
                format!("the pattern is not supported (the regex engine refuses it: {reason})"),
            )
        }
    })
}
