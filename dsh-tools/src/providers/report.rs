//! What a lowering changed: one [`ReportEntry`] per tool, JSON path and change, collected into a
//! [`LoweringReport`].
//!
//! A provider view is a lossy projection of the canonical schema. The report is how nothing is
//! lost silently: every keyword moved into a description, dropped, made nullable or rewritten,
//! every tool that fell back from strict mode and every renamed tool is listed here.

use std::fmt;

use serde::Serialize;

/// What a lowering did at one place of one tool's schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Change {
    /// A keyword the provider cannot take was removed and written into the `description`.
    MovedToDescription,
    /// An annotation-only keyword was removed (it never changed what is valid).
    Dropped,
    /// An optional property was made nullable and required (strict modes require every
    /// property); the adapter removes a `null` it sends for it before the call runs.
    MadeNullable,
    /// The schema was rewritten into an equivalent or wider form the provider takes
    /// (`oneOf` → `anyOf`, `const` → `enum`, a merged `allOf`, a nullable form, …).
    Rewritten,
    /// An object was closed (`additionalProperties: false`), as strict modes require.
    Closed,
    /// The tool cannot be made strict without changing its meaning; it is sent non-strict.
    StrictFallback,
    /// The tool's name does not fit the provider's rule; it is sent under another name and
    /// mapped back when the model calls it.
    Renamed,
    /// Something the provider may reject or ignore that no rewrite can fix (a limit, a
    /// property name); the request is sent as is.
    Warning,
    /// The tool is deferred: sent for the provider's native tool search, or (for the whole
    /// request) which search finds the deferred tools.
    Deferred,
}

impl fmt::Display for Change {
    /// The change in words, as [`ReportEntry`]'s `Display` writes it (`moved to description`,
    /// `strict fallback`, …).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::MovedToDescription => "moved to description",
            Self::Dropped => "dropped",
            Self::MadeNullable => "made nullable",
            Self::Rewritten => "rewritten",
            Self::Closed => "closed",
            Self::StrictFallback => "strict fallback",
            Self::Renamed => "renamed",
            Self::Warning => "warning",
            Self::Deferred => "deferred",
        })
    }
}

/// One change at one place of one tool's schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ReportEntry {
    /// The tool's canonical name (as registered); empty for a change to the whole request.
    pub tool: String,
    /// A JSON Pointer to the place in the tool's `parameters` (`""` is the root,
    /// `/properties/options/properties/depth` a nested property). It names the canonical place
    /// unless an earlier rewrite moved it (an inlined `$ref` sits where it was used, the
    /// properties of a merged root union at the root, a nullable wrapper's schema under
    /// `anyOf/0`). Empty for whole-tool changes.
    pub path: String,
    /// What happened.
    pub change: Change,
    /// The details: the keyword and its value, the reason, the new name.
    pub detail: String,
}

impl fmt::Display for ReportEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "" } else { &self.path };
        write!(
            f,
            "{} {}: {}: {}",
            self.tool,
            if path.is_empty() { "(tool)" } else { path },
            self.change,
            self.detail
        )
    }
}

/// Everything one lowering changed, tool by tool (sorted by tool name, then in the order the
/// passes made the changes). `Display` writes an entry a line, then a note that calls are still
/// validated against each tool's canonical schema.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct LoweringReport {
    /// The changes.
    pub entries: Vec<ReportEntry>,
}

impl LoweringReport {
    /// What this report cannot show by itself: the registry never validates against a view.
    /// Not API: `Display` ends with it.
    #[doc(hidden)]
    pub const ENFORCEMENT_NOTE: &'static str = "Calls are still validated against each tool's \
canonical schema when they run (tools made with #[tool], and FnTools given an argument schema), \
so every constraint a view moved into a description or could not express is still enforced.";

    pub(crate) fn push(
        &mut self,
        tool: &str,
        path: &str,
        change: Change,
        detail: impl Into<String>,
    ) {
        self.entries.push(ReportEntry {
            tool: tool.to_owned(),
            path: path.to_owned(),
            change,
            detail: detail.into(),
        });
    }
}

impl fmt::Display for LoweringReport {
    /// One line per entry, then the enforcement note.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for entry in &self.entries {
            writeln!(f, "{entry}")?;
        }
        f.write_str(Self::ENFORCEMENT_NOTE)
    }
}
