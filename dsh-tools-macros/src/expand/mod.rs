//! Code generation, one file per generated piece: the schema builder (`schema.rs`), the
//! conversion (`convert.rs`), the compile-time checks of attribute values against the field
//! types (`checks.rs`), the `ToolArgs` derive that assembles them (`derive.rs`), the
//! documented schema (`docs.rs`), presenters (`present.rs`) and `#[tool]` (`tool.rs`, with one
//! emitter per generated piece under `tool/`).

pub(crate) mod checks;
pub(crate) mod convert;
pub(crate) mod derive;
pub(crate) mod docs;
pub(crate) mod present;
pub(crate) mod schema;
pub(crate) mod tool;
pub(crate) mod validate;
