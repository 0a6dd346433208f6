//! The schema engine: one model of a JSON value's shape ([`Schema`]), rendered to the JSON Schema
//! the model sees and enforced by a validator that reports every violation.
//!
//! What the model is told is exactly what is enforced: rendering and validation read the same
//! tree, and nothing is accepted that the rendered schema forbids.

mod model;
mod validate;
mod violation;

pub use model::{
    AdditionalProperties, Annotations, ArrayRules, NumberRules, ObjectRules, Pattern, Property,
    Schema, SchemaKind, StringRules,
};
pub use violation::{
    JsonType, MAX_REPORTED_VIOLATIONS, PathRoot, ValidationContext, Violation, ViolationKind,
    Violations,
};
