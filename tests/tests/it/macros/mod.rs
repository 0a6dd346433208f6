//! `#[tool]` and `#[derive(ToolArgs)]`.

/// `#[derive(ToolArgs)]`: schemas, conversion, defaults and serde attributes.
mod args;
/// Property tests: generated checks agree with the interpreter, the compiled schema and `jsonschema`.
mod differential;
/// The schema rustdoc shows is the schema the model receives.
mod docs;
/// Macro-defined tools end to end through the registry.
mod e2e;
/// Golden schemas of macro-defined tools (`golden/tools/`).
mod golden;
/// A `#[tool]` with one parameter: the whole argument object or one property.
mod lone_parameter;
/// `#[tool]` presenters through the registry.
mod present;
/// `#[tool]`: the generated struct, its schema, the typed shim.
mod tool;
