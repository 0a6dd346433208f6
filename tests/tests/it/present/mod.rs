//! Presentation: what a person and each bridge see of tools, calls and results.

/// Embedded resources in every provider, ACP and the text cards.
mod embedded_resources;
/// `present_call`, `present_progress` and `present_result` on the registry.
mod registry;
/// The plain-text card renderer, as golden text.
mod text_cards;
/// A tool's title, icons and callers, as every consumer sees them.
mod titles;
