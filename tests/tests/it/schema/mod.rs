//! The schema engine.

/// Model-facing text built from untrusted input stays bounded.
mod bounded_text;
/// Stack safety of the validator and schemas nested past the cap.
mod depth;
/// Differential property test against `jsonschema` on generated schemas.
mod differential;
/// A hand-written tool's shown and enforced schemas come from one place.
mod fn_tool;
/// `format`: kept, published, checked, against the official suite's cases.
mod formats;
/// Golden rendered schemas (`golden/schema/`).
mod golden;
/// Import of raw JSON Schema and `schemars` schemas.
mod import;
/// Differential property test of import against `jsonschema`.
mod import_differential;
/// The official JSON Schema Test Suite, draft 2020-12.
mod json_schema_suite;
/// Differential property test of the keyword engine.
mod keyword_differential;
/// The keyword engine: import, wording, remote references, rendering.
mod keywords;
/// Objects with thousands of declared properties.
mod large_objects;
/// The validator's reports: wording, paths, order, cap, envelope.
mod messages;
/// `pattern` against JavaScript's `RegExp` as the ECMA-262 oracle.
mod pattern;
/// Recursive argument types: published, validated, converted, lowered.
mod recursive_types;
