//! The schemas the docs of generated items show, which tests compare with the runtime's.

/// The schema the docs of a generated item show, as JSON text (tests compare it with the runtime
/// schema).
pub trait DocumentedSchema {
    /// The documented JSON Schema.
    const DOCUMENTED_SCHEMA: &'static str;
}

/// The output schema a `#[tool]`'s docs show, as JSON text (tests compare it with the runtime
/// output schema).
pub trait DocumentedOutput {
    /// The documented JSON Schema of the tool's value.
    const DOCUMENTED_OUTPUT_SCHEMA: &'static str;
}
