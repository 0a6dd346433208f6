//! [`ToolRestriction`]: a scope's filter over the global layer, and its compiled form.
//!
//! A restriction masks global tools only; a scope's own (and its ancestors') tools are never
//! masked. Restrictions along a scope chain intersect: a global tool is visible in a scope only if
//! every restriction of the scope and of each ancestor admits it. A deny-only filter admits
//! globals registered later; an `allow` list excludes them.

use std::collections::HashSet;

use crate::registry::error::RegistryError;

/// A filter over the global tools a scope (and its descendants) can see.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolRestriction {
    /// When set, only these global tools stay visible (`Some(vec![])` hides every global).
    pub allow: Option<Vec<String>>,
    /// These global tools are hidden.
    pub deny: Vec<String>,
}

impl ToolRestriction {
    /// Only `names` of the global layer stay visible.
    pub fn allow<I, S>(names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            allow: Some(names.into_iter().map(Into::into).collect()),
            deny: Vec::new(),
        }
    }

    /// `names` of the global layer are hidden; every other global, including later ones, stays.
    pub fn deny<I, S>(names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            allow: None,
            deny: names.into_iter().map(Into::into).collect(),
        }
    }

    /// Also hides `names`.
    #[must_use]
    pub fn and_deny<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.deny.extend(names.into_iter().map(Into::into));
        self
    }
}

/// A restriction checked against the global layer, ready for lookups.
#[derive(Clone, Debug)]
pub(crate) struct CompiledRestriction {
    allow: Option<HashSet<String>>,
    deny: HashSet<String>,
}

impl CompiledRestriction {
    /// Checks `restriction` against the global tool names `known` (sorted).
    pub(crate) fn compile(
        restriction: ToolRestriction,
        known: &[&str],
    ) -> Result<Self, RegistryError> {
        if restriction.allow.is_none() && restriction.deny.is_empty() {
            return Err(RegistryError::empty_restriction(known));
        }
        let mut unknown: Vec<&str> = Vec::new();
        let named = restriction.allow.iter().flatten().chain(&restriction.deny);
        for name in named {
            if known.binary_search(&name.as_str()).is_err() && !unknown.contains(&name.as_str()) {
                unknown.push(name);
            }
        }
        if !unknown.is_empty() {
            return Err(RegistryError::unknown_restricted(&unknown, known));
        }
        Ok(Self {
            allow: restriction.allow.map(|names| names.into_iter().collect()),
            deny: restriction.deny.into_iter().collect(),
        })
    }

    /// Whether the global tool `name` stays visible under this restriction.
    pub(crate) fn admits(&self, name: &str) -> bool {
        self.allow.as_ref().is_none_or(|allow| allow.contains(name)) && !self.deny.contains(name)
    }
}
