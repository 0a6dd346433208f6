//! [`RegistryError`]: why a registration, a restriction or a scope operation was refused.
//!
//! These are programming errors of the host (a duplicate name, a restriction naming a tool that
//! does not exist), reported when the host makes them, never results a model sees. Their wording
//! lives here so it exists in one place.

use std::fmt;

/// What kind of registry operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RegistryErrorKind {
    /// A tool of that name is already registered in the same layer.
    DuplicateTool,
    /// The definition breaks a rule the registry enforces (an empty name, a zero timeout).
    InvalidDefinition,
    /// The definition's schema cannot be built or enforced (`UNSUPPORTED_SCHEMA`).
    UnsupportedSchema,
    /// The definition needs shared state of a type the registry was not given.
    MissingState,
    /// A restriction names tools the scope does not inherit (the global layer inherits none).
    UnknownRestrictedTool,
    /// A restriction with neither `allow` nor `deny`.
    EmptyRestriction,
    /// A scope for that agent already exists.
    ScopeExists,
    /// The parent scope does not exist.
    UnknownScope,
    /// The scope the operation goes through was disposed.
    ScopeDisposed,
    /// The name is the registry's own (`tool_search`, `run_code`).
    ReservedName,
    /// A tool named to be loaded is not a deferred tool the scope can call.
    NotDeferred,
}

/// A refused registry operation: what kind, and a message that names what was wrong (its
/// `Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RegistryError {
    /// What kind of operation failed.
    pub kind: RegistryErrorKind,
    message: String,
}

impl RegistryError {
    pub(super) fn new(kind: RegistryErrorKind, message: String) -> Self {
        Self { kind, message }
    }

    pub(crate) fn duplicate_global(name: &str) -> Self {
        Self::new(
            RegistryErrorKind::DuplicateTool,
            format!(
                "tool \"{name}\" is already registered (for a per-agent variant, register it \
                 through that agent's scope instead)"
            ),
        )
    }

    pub(crate) fn duplicate_in_scope(name: &str) -> Self {
        Self::new(
            RegistryErrorKind::DuplicateTool,
            format!("tool \"{name}\" is already registered in this scope"),
        )
    }

    pub(crate) fn empty_name() -> Self {
        Self::new(
            RegistryErrorKind::InvalidDefinition,
            "tool name must not be empty".to_owned(),
        )
    }

    pub(crate) fn reserved_name(name: &str) -> Self {
        Self::new(
            RegistryErrorKind::ReservedName,
            format!(
                "tool name \"{name}\" is reserved: the registry provides it to search deferred \
                 tools"
            ),
        )
    }

    /// `index`: the example's position, from 0 (shown from 1).
    pub(crate) fn invalid_example(name: &str, index: usize, violations: &str) -> Self {
        Self::new(
            RegistryErrorKind::InvalidDefinition,
            format!(
                "tool \"{name}\" input example {} does not match its parameters: {violations}",
                index + 1
            ),
        )
    }

    /// `unknown`: the names that are not deferred tools of the scope, in the order given.
    pub(crate) fn not_deferred(unknown: &[&str]) -> Self {
        let quoted: Vec<String> = unknown.iter().map(|name| format!("\"{name}\"")).collect();
        Self::new(
            RegistryErrorKind::NotDeferred,
            format!(
                "cannot load {}: not a deferred tool this scope can call",
                quoted.join(", ")
            ),
        )
    }

    pub(crate) fn zero_timeout(name: &str) -> Self {
        Self::new(
            RegistryErrorKind::InvalidDefinition,
            format!("tool \"{name}\" timeout_ms must be a positive number of milliseconds"),
        )
    }

    pub(crate) fn zero_result_budget(name: &str) -> Self {
        Self::new(
            RegistryErrorKind::InvalidDefinition,
            format!("tool \"{name}\" max_result_chars must be a positive number of characters"),
        )
    }

    pub(crate) fn unusable_definition(
        name: &str,
        reason: &crate::errors::tool_error::ToolError,
    ) -> Self {
        Self::new(
            RegistryErrorKind::UnsupportedSchema,
            format!("tool \"{name}\" cannot be registered: {reason}"),
        )
    }

    /// `missing`: the type names, in the order the definition declares them.
    pub(crate) fn missing_state(name: &str, missing: &[&str]) -> Self {
        let named: Vec<String> = missing.iter().map(|ty| format!("`{ty}`")).collect();
        let (noun, pronoun) = if missing.len() == 1 {
            ("type", "it")
        } else {
            ("types", "them")
        };
        Self::new(
            RegistryErrorKind::MissingState,
            format!(
                "tool \"{name}\" needs shared state of {noun} {}, which this registry was not \
                 given: insert {pronoun} into the SharedState passed to ToolRegistry::with_state",
                named.join(", ")
            ),
        )
    }

    /// `known`: the tools the scope inherits, sorted.
    pub(crate) fn empty_restriction(known: &[&str]) -> Self {
        Self::new(
            RegistryErrorKind::EmptyRestriction,
            format!(
                "restrict() with an empty filter is a no-op: pass `allow` and/or `deny` (an \
                 empty filter is almost always an empty configuration by mistake); known \
                 inherited tools: {}",
                known_list(known)
            ),
        )
    }

    /// `unknown`: the names in the order the restriction gives them; `known`: the tools the
    /// scope inherits, sorted.
    pub(crate) fn unknown_restricted(unknown: &[&str], known: &[&str]) -> Self {
        let named: Vec<String> = unknown.iter().map(|name| format!("\"{name}\"")).collect();
        let noun = if unknown.len() == 1 { "tool" } else { "tools" };
        Self::new(
            RegistryErrorKind::UnknownRestrictedTool,
            format!(
                "restrict() names unknown inherited {noun} {}; known inherited tools: {}",
                named.join(", "),
                known_list(known)
            ),
        )
    }

    /// A restriction of the global layer, which inherits nothing to mask.
    pub(crate) fn global_restriction() -> Self {
        Self::new(
            RegistryErrorKind::UnknownRestrictedTool,
            "restrict() on the global layer: it inherits no tools to mask; restrict an agent \
             scope instead"
                .to_owned(),
        )
    }

    pub(crate) fn scope_exists(agent: &str) -> Self {
        Self::new(
            RegistryErrorKind::ScopeExists,
            format!("a scope for agent \"{agent}\" already exists"),
        )
    }

    pub(crate) fn unknown_parent(agent: &str) -> Self {
        Self::new(
            RegistryErrorKind::UnknownScope,
            format!("no scope for parent agent \"{agent}\""),
        )
    }

    pub(crate) fn unknown_agent(agent: &str) -> Self {
        Self::new(
            RegistryErrorKind::UnknownScope,
            format!("no scope for agent \"{agent}\""),
        )
    }

    pub(crate) fn scope_disposed(agent: &str) -> Self {
        Self::new(
            RegistryErrorKind::ScopeDisposed,
            format!("the scope of agent \"{agent}\" was disposed"),
        )
    }
}

/// `a, b, c` (sorted by the caller) or `(none)`.
fn known_list(known: &[&str]) -> String {
    if known.is_empty() {
        "(none)".to_owned()
    } else {
        known.join(", ")
    }
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RegistryError {}
