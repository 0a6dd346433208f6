//! `pattern` and `format`: what a string must match, a regular expression anywhere in it or a
//! named grammar. The grammars themselves live with their types ([`Pattern`] in `pattern.rs`,
//! [`StringFormat`] in `format.rs`); this file is the one place the two keywords' rules are
//! written: their JSON names, the violation each reports, writing them back, and the checks
//! `#[derive(ToolArgs)]`'s validators run.
//!
//! It must not know any engine's tree or walk: engines hand it the pattern or format and the
//! text.

use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::format::StringFormat;
use crate::pattern::Pattern;
use crate::violation::ViolationKind;

/// `pattern`'s JSON name.
pub const PATTERN: &str = "pattern";
/// `format`'s JSON name.
pub const FORMAT: &str = "format";

/// `pattern`: whether `text` has a match of `pattern` anywhere.
#[inline(always)]
pub(crate) fn pattern_holds(pattern: &Pattern, text: &str) -> bool {
    pattern.is_match(text)
}

/// `format`: whether `text` is in `format` (always, for a format the engine does not check).
#[inline(always)]
pub(crate) fn format_holds(format: &StringFormat, text: &str) -> bool {
    format.matches(text)
}

/// `pattern`'s violation, if `text` has no match of `pattern`.
#[inline(always)]
pub(crate) fn pattern_violation<'p>(pattern: &'p Pattern, text: &str) -> Option<ViolationKind<'p>> {
    (!pattern_holds(pattern, text)).then(|| ViolationKind::Pattern(pattern.as_str()))
}

/// `format`'s violation, if `text` is not in `format` (never, for a format the engine does not
/// check).
#[inline(always)]
pub(crate) fn format_violation<'f>(
    format: &'f StringFormat,
    text: &str,
) -> Option<ViolationKind<'f>> {
    (!format_holds(format, text)).then_some(ViolationKind::Format(format))
}

/// Writes `pattern` and `format`, those present, into a rendered schema object.
pub(crate) fn render(
    out: &mut Map<String, Value>,
    pattern: Option<&Pattern>,
    format: Option<&StringFormat>,
) {
    if let Some(pattern) = pattern {
        out.insert(PATTERN.to_owned(), Value::from(pattern.as_str()));
    }
    if let Some(format) = format {
        out.insert(FORMAT.to_owned(), Value::from(format.name()));
    }
}

/// A string containing a match of `pattern`, for generated validators (`None`: the pattern does
/// not compile, and the schema build reports that).
#[inline]
pub fn matches_pattern(value: &Value, pattern: &LazyLock<Option<Pattern>>) -> bool {
    match (value, pattern.as_ref()) {
        (Value::String(text), Some(pattern)) => pattern.is_match(text),
        _ => false,
    }
}

/// A string in the format `name` (any string, for a format the engine does not check), for
/// generated validators.
#[inline]
pub fn matches_format(value: &Value, name: &str) -> bool {
    // Called per value: a format the engine does not check is not allocated to say so.
    value.as_str().is_some_and(|text| {
        StringFormat::checked_by_name(name).is_none_or(|format| format.matches(text))
    })
}

/// Compiles a pattern for [`matches_pattern`].
pub fn compile_pattern(source: &str) -> Option<Pattern> {
    Pattern::new(source).ok()
}
