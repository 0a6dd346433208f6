//! `#[tool]` and `#[derive(ToolArgs)]`.

/// `#[derive(ToolArgs)]`: schemas, conversion, defaults and serde attributes.
mod args;
/// Property tests: generated checks agree with the interpreter, the compiled schema and `jsonschema`.
mod differential;
/// The schema rustdoc shows is the schema the model receives.
mod docs;
/// Macro-defined tools end to end through the registry.
mod e2e;
/// `#[tool(schemars_output)]`: a value of another crate's type, described by `schemars`.
mod foreign_output;
/// Golden schemas of macro-defined tools (`golden/tools/`).
mod golden;
/// A `#[tool]` with one parameter: the whole argument object or one property.
mod lone_parameter;
/// A newtype's field with `#[arg(..)]` keys: the type's schema with the field's rules.
mod newtype;
/// `Patch<T>`: left out, `null` and a value, three states.
mod patch;
/// `#[tool]` presenters through the registry.
mod present;
/// `#[tool]`: the generated struct, its schema, the typed shim.
mod tool;
