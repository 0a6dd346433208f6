//! `pattern` and `format`: what a string must match, a regular expression anywhere in it or a
//! named grammar. The grammars themselves live with their types ([`Pattern`] in `pattern.rs`,
//! [`StringFormat`] in `format.rs`); this file is the one place the two keywords' rules are
//! written: their JSON names, the violation each reports, writing them back, and the checks
//! `#[derive(ToolArgs)]`'s validators run.
//!
//! The typed model carries the family as [`Matching`] (`StringRules::matching`): import and
//! rendering call `Matching::read` and `Matching::render`, and the builder's methods and the
//! macros' steps are written here as text `builder.rs` and `derive.rs` expand
//! (`matching_methods!`, `matching_steps!`), as `lengths.rs` explains.
//!
//! Every engine holds the family's [`Matching`]: the interpreter runs `first_violation`, the
//! keyword engine reads it (`parse`) and reports every keyword a string breaks
//! (`each_violation`), and the compiled tree holds the form `compiled` gives, with only what is
//! checked.
//!
//! It must not know any engine's tree or walk: engines hand it the rules and the text.

use std::sync::LazyLock;

use serde_json::{Map, Value};

use super::read::KeywordSource;
use crate::error::pattern_refusal;
use crate::format::StringFormat;
use crate::pattern::Pattern;
use crate::violation::ViolationKind;

/// `pattern`'s JSON name.
pub const PATTERN: &str = "pattern";
/// `format`'s JSON name.
pub const FORMAT: &str = "format";

/// The family's keywords that apply beside `"type": "string"` only, in the order the importer's
/// list of its vocabulary names them (`format` is read on any type, and kept as an annotation
/// where it checks nothing).
pub(crate) const KEYWORDS: &[&str] = &[PATTERN];

/// What a string must match, as a schema states it: [`StringRules::matching`](crate::StringRules::matching).
///
/// `#[non_exhaustive]`: a new keyword of the family is a new field, so build one from
/// [`Default`] and set the fields (or use the [`Schema::string`](crate::Schema::string) builder).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Matching {
    /// `pattern` (unanchored, as JSON Schema specifies).
    pub pattern: Option<Pattern>,
    /// `format`: checked when it is one of the formats the engine knows
    /// (every [`StringFormat`] but `Other`), published either way.
    pub format: Option<StringFormat>,
}

impl Matching {
    /// Both keywords as an imported schema writes them: a pattern that does not compile, or
    /// either keyword not a string, is reported through `source`.
    pub(crate) fn read(source: &mut impl KeywordSource) -> Self {
        let pattern = read_pattern(source);
        let format = match source.get(FORMAT) {
            None => Ok(None),
            Some(Value::String(name)) => Ok(Some(source.format_named(name))),
            Some(_) => Err(()),
        };
        let format = format.unwrap_or_else(|()| {
            source.refuse(FORMAT, "must be a string");
            None
        });
        Self { pattern, format }
    }

    /// The keywords as the keyword engine reads them: `pattern` as import reads it, `format`
    /// only when it names a format `source` checks (one that is not a string is no format, and
    /// not reported). Empty when nothing is left to check.
    pub(crate) fn parse(source: &mut impl KeywordSource) -> Self {
        let pattern = read_pattern(source);
        let format = match source.get(FORMAT) {
            Some(Value::String(name)) => Some(source.format_named(name)),
            _ => None,
        };
        Self { pattern, format }.compiled().unwrap_or_default()
    }

    /// Whether either keyword is present.
    pub(crate) fn is_set(&self) -> bool {
        self.pattern.is_some() || self.format.is_some()
    }

    /// Drops the keywords of JSON Schema's validation vocabulary (`pattern`), for a document
    /// whose meta-schema leaves it out; `format` belongs to a vocabulary of its own.
    pub(crate) fn drop_validation(&mut self) {
        self.pattern = None;
    }

    /// The keywords that check anything (`format` only when the engine checks it), or `None`
    /// when none does: the form the compiled tree holds.
    pub(crate) fn compiled(&self) -> Option<Self> {
        let format = self.format.clone().filter(StringFormat::is_checked);
        (self.pattern.is_some() || format.is_some()).then(|| Self {
            pattern: self.pattern.clone(),
            format,
        })
    }

    /// Whether `text` breaks no keyword: the yes/no check.
    #[inline(always)]
    pub(crate) fn holds(&self, text: &str) -> bool {
        if let Some(pattern) = &self.pattern
            && !pattern_holds(pattern, text)
        {
            return false;
        }
        match &self.format {
            Some(format) => format_holds(format, text),
            None => true,
        }
    }

    /// Every keyword `text` breaks, each handed to `broken` (`pattern` before `format`): the
    /// keyword engine's report.
    pub(crate) fn each_violation<'s>(
        &'s self,
        text: &str,
        mut broken: impl FnMut(ViolationKind<'s>),
    ) {
        if let Some(kind) = self
            .pattern
            .as_ref()
            .and_then(|pattern| pattern_violation(pattern, text))
        {
            broken(kind);
        }
        if let Some(kind) = self
            .format
            .as_ref()
            .and_then(|format| format_violation(format, text))
        {
            broken(kind);
        }
    }

    /// The first keyword `text` breaks (`pattern` before `format`): the interpreter's leaf.
    #[inline(always)]
    pub(crate) fn first_violation(&self, text: &str) -> Option<ViolationKind<'_>> {
        if let Some(pattern) = &self.pattern
            && !pattern_holds(pattern, text)
        {
            return Some(ViolationKind::Pattern(pattern.as_str()));
        }
        match &self.format {
            Some(format) if !format_holds(format, text) => Some(ViolationKind::Format(format)),
            _ => None,
        }
    }

    /// Writes the keywords that are present into a rendered schema object.
    pub(crate) fn render(&self, out: &mut Map<String, Value>) {
        if let Some(pattern) = &self.pattern {
            out.insert(PATTERN.to_owned(), Value::from(pattern.as_str()));
        }
        if let Some(format) = &self.format {
            out.insert(FORMAT.to_owned(), Value::from(format.name()));
        }
    }
}

/// `pattern` as a schema object writes it: one that does not compile, or is not a string, is
/// reported through `source`.
fn read_pattern(source: &mut impl KeywordSource) -> Option<Pattern> {
    let pattern = match source.get(PATTERN) {
        None => Ok(None),
        Some(Value::String(text)) => Pattern::new(text)
            .map(Some)
            .map_err(|error| pattern_refusal(&error)),
        Some(_) => Err("must be a string".to_owned()),
    };
    pattern.unwrap_or_else(|why| {
        source.refuse(PATTERN, &why);
        None
    })
}

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

/// The string builder's methods for the family, expanded inside `impl SchemaBuilder<StringRules>` in
/// `builder.rs`, where the builder's `rules` (a `StringRules`), `Pattern`, `StringFormat`,
/// `SchemaError` and `Value` are in scope.
macro_rules! matching_methods {
    () => {
        /// `pattern`: the string must contain a match (unanchored, as in JSON Schema). The
        /// pattern is an ECMA-262 regular expression, as JSON Schema specifies, so `\d` is
        /// `[0-9]` and `.` stops at line terminators whatever engine a client checks it with.
        /// Fails with a [`SchemaError`] naming the pattern and the construct when
        /// it is not ECMA-262, or uses look-around or backreferences, which the engine cannot
        /// run.
        pub fn pattern(self, source: &str) -> Result<Self, SchemaError> {
            let pattern = Pattern::new(source).map_err(|error| {
                SchemaError::new(format!("pattern {}: {error}", Value::from(source)))
            })?;
            Ok(self.with_pattern(pattern))
        }

        /// Sets `format` (`date-time`, `uuid`, `email`, …): checked when the engine knows the
        /// format (every [`StringFormat`] but `Other`), published as written either way.
        #[must_use]
        pub fn format(mut self, format: StringFormat) -> Self {
            self.rules.matching.format = Some(format);
            self
        }

        /// `pattern`, already compiled. Not API, as `Pattern` is not.
        #[doc(hidden)]
        #[must_use]
        pub fn with_pattern(mut self, pattern: Pattern) -> Self {
            self.rules.matching.pattern = Some(pattern);
            self
        }
    };
}
pub(crate) use matching_methods;

/// The steps `#[arg(pattern, format)]` lower to, expanded in `derive.rs`, where `Schema`,
/// `SchemaError`, `Pattern`, `StringFormat`, `Value` and its `string_rules` are in scope.
macro_rules! matching_steps {
    () => {
        /// `pattern` (checked at compile time too; compiled here).
        pub fn with_pattern(mut schema: Schema, source: &str) -> Result<Schema, SchemaError> {
            let pattern = Pattern::new(source).map_err(|error| {
                SchemaError::new(format!("`pattern` {}: {error}", Value::from(source)))
            })?;
            string_rules(&mut schema, "pattern")?.matching.pattern = Some(pattern);
            Ok(schema)
        }

        /// `format`.
        pub fn with_format(mut schema: Schema, name: &str) -> Result<Schema, SchemaError> {
            string_rules(&mut schema, "format")?.matching.format = Some(StringFormat::from(name));
            Ok(schema)
        }
    };
}
pub(crate) use matching_steps;
