//! The schema engine: one model of a JSON value's shape ([`Schema`]), rendered to the JSON Schema
//! the model sees and enforced by a validator that reports every violation.
//!
//! What the model is told is exactly what is enforced: rendering and validation read the same
//! tree, and nothing is accepted that the rendered schema forbids.
//!
//! | file | owns |
//! |---|---|
//! | `model.rs` | the data: [`Schema`], [`SchemaKind`] and the rule structs |
//! | `builder.rs` | building schemas in code: [`Schema::object`], [`Schema::string`], … |
//! | `render.rs` | JSON Schema 2020-12 output: [`Schema::to_json_schema`] |
//! | `validate.rs` | the interpreter: [`Schema::is_valid`], [`Schema::validate`] |
//! | `compile.rs` | lowering a schema, once, into a tree of precomputed checks |
//! | `key.rs` | property names prepared for matching payload keys |
//! | `property_index.rs` | a hash index of property names, for objects with many of them |
//! | `definite.rs` | [`Schema::definite_violations`]: what a value still being written already breaks |
//! | `compiled.rs` | [`CompiledSchema`]: validation on that tree, for schemas that check many values |
//! | `violation.rs` | what validation reports, in the spec's wording |
//! | `format.rs`, `format_checks.rs` | [`StringFormat`]: the `format`s, and the grammars of those checked |
//! | `pattern_shortcut.rs` | `pattern`s of the simplest shapes decided without the regex engine |
//! | `semantics.rs` | JSON's notion of number equality, integers and string length |
//! | `keywords/` | [`KeywordSchema`]: all of JSON Schema 2020-12, for what the typed model does not describe |
//! | `import.rs` | raw JSON Schema and `schemars` into the model: [`Schema::from_json_schema`] |
//! | `subset.rs` | the spec's structured-output functions over raw schemas |
//! | `error.rs` | [`SchemaError`]: why a schema cannot be built or imported |

mod builder;
mod compile;
mod compiled;
mod compiled_check;
mod definite;
mod error;
mod format;
mod format_checks;
mod import;
mod key;
mod keywords;
mod limits;
mod model;
mod pattern_shortcut;
mod property_index;
mod render;
mod semantics;
mod subset;
mod validate;
mod violation;

pub use builder::{ArraySchema, BoundSide, NumberBound, NumberSchema, ObjectSchema, StringSchema};
pub use compiled::CompiledSchema;
pub(crate) use definite::definite_violations_of;
pub use error::{MAX_REPORTED_SCHEMA_PROBLEMS, SchemaError, SchemaProblem};
pub use import::{MAX_IMPORT_DEPTH, MAX_IMPORT_NODES};
pub use keywords::{KeywordSchema, SchemaImportOptions};
pub use limits::MAX_VALIDATION_DEPTH;
pub(crate) use limits::is_positive_multiple;
pub use model::{
    AdditionalProperties, Annotations, ArrayRules, Definition, ExtraNumberRules, MAX_SAFE_INTEGER,
    NumberRules, ObjectRules, Pattern, PatternError, PatternErrorKind, Property, Schema,
    SchemaKind, StringFormat, StringRules,
};
pub use render::JSON_SCHEMA_DIALECT;
pub(crate) use semantics::{
    compare_numbers, first_repeat, has_at_least_code_points, has_at_most_code_points, is_integral,
    whole_number,
};
pub use subset::{
    JsonSchemaValueError, assert_supported_json_schema, assert_supported_object_json_schema,
    validate_json_schema_value,
};
pub use violation::{
    JsonType, MAX_REPORTED_VIOLATIONS, PathRoot, ValidationContext, Violation, ViolationKind,
    Violations,
};
