//! [`ToolRestriction`]: a scope's filter over the tools it inherits, and its compiled form.
//!
//! A scope inherits the global layer's tools and the own tools of each of its ancestors. A
//! restriction masks inherited tools only — never the scope's own, which it registered itself —
//! and it reaches the scope's descendants: for a call, a tool found in some layer stays visible
//! only if every restriction of every scope below that layer, down to the call's own scope,
//! admits its name. So restrictions intersect, an ancestor's restriction also masks what its own
//! ancestors registered, and a scope's own tool is masked by its descendants' restrictions only
//! (for them, it is inherited).
//!
//! Restrictions go by name. An `allow` list admits only the names it lists, so a tool an
//! ancestor registers later under another name stays hidden; a deny-only filter hides only the
//! names it lists, so such a tool is admitted. A scope's own tool that shadows an inherited one of
//! the same name is still visible to the scope when the restriction names it (the scope's own is
//! never masked), and the name must be an inherited tool when the restriction is made: naming a
//! tool that is only the scope's own, or no tool at all, is refused.

use std::collections::HashSet;

use crate::name_hash::NameHash;
use crate::store::error::RegistryError;

/// A filter over the inherited tools a scope (and its descendants) can see.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolRestriction {
    /// When set, only these inherited tools stay visible (`Some(vec![])` hides every inherited
    /// tool).
    pub allow: Option<Vec<String>>,
    /// These inherited tools are hidden.
    pub deny: Vec<String>,
}

impl ToolRestriction {
    /// Only `names` of the inherited tools stay visible; inherited tools registered later under
    /// other names stay hidden.
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

    /// `names` of the inherited tools are hidden; every other inherited tool, including later
    /// ones, stays visible.
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
}

/// The names a restriction is checked against when it is made: the tools a scope inherits.
pub(crate) trait InheritedNames {
    /// Whether some inherited tool is called `name`.
    fn contains(&self, name: &str) -> bool;
    /// Every inherited name once, sorted.
    fn sorted_names(&self) -> Vec<&str>;
}

/// A restriction checked against the inherited tools, ready for lookups.
#[derive(Clone, Debug)]
pub(crate) struct CompiledRestriction {
    allow: Option<HashSet<Box<str>, NameHash>>,
    deny: HashSet<Box<str>, NameHash>,
}

impl CompiledRestriction {
    /// Checks `restriction` against the tools the scope inherits.
    pub(crate) fn compile(
        restriction: ToolRestriction,
        inherited: &impl InheritedNames,
    ) -> Result<Self, RegistryError> {
        if restriction.allow.is_none() && restriction.deny.is_empty() {
            return Err(RegistryError::empty_restriction(&inherited.sorted_names()));
        }
        let named = restriction.allow.iter().flatten().chain(&restriction.deny);
        if let Some(refusal) = crate::store::code_mode::kept::restricted(named) {
            return Err(refusal);
        }
        let mut unknown: Vec<&str> = Vec::new();
        let named = restriction.allow.iter().flatten().chain(&restriction.deny);
        for name in named {
            if !inherited.contains(name) && !unknown.contains(&name.as_str()) {
                unknown.push(name);
            }
        }
        if !unknown.is_empty() {
            return Err(RegistryError::unknown_restricted(
                &unknown,
                &inherited.sorted_names(),
            ));
        }
        let set = |names: Vec<String>| names.into_iter().map(String::into_boxed_str).collect();
        Ok(Self {
            allow: restriction.allow.map(set),
            deny: set(restriction.deny),
        })
    }

    /// Whether an inherited tool `name` stays visible under this restriction.
    #[inline]
    pub(crate) fn admits(&self, name: &str) -> bool {
        self.allow.as_ref().is_none_or(|allow| allow.contains(name)) && !self.deny.contains(name)
    }
}
