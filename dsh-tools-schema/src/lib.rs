//! The schema engine of dsh-tools: one model of a JSON value's shape ([`Schema`]), rendered to
//! the JSON Schema a model sees and enforced by a validator that reports every violation.
//!
//! What the model is told is exactly what is enforced: rendering and validation read the same
//! tree, and nothing is accepted that the rendered schema forbids. Raw JSON Schema 2020-12 comes
//! in through [`Schema::from_json_schema`] (all of it: what the typed model does not describe is
//! a node of the keyword engine); arguments still being streamed are read by [`PartialJson`]
//! and checked with [`Schema::definite_violations`].
//!
//! The engine knows nothing of tools: its errors are [`SchemaError`] and [`Violations`], which
//! the runtime (`dsh-tools`, where this crate is `dsh_tools::schema`) carries into its own
//! error results and codes.
//!
//! | file | owns |
//! |---|---|
//! | `model.rs` | the data: [`Schema`], its kinds and the rules of each kind, which carry their families' structs (the layout is not API) |
//! | `builder.rs` | building schemas in code: [`Schema::object`], [`Schema::string`], …, one [`SchemaBuilder`] |
//! | `render.rs` | JSON Schema 2020-12 output: [`Schema::to_json_schema`] |
//! | `validate.rs` | the interpreter, and the reporting walk [`CompiledSchema::validate`] shares |
//! | `compile.rs` | lowering a schema, once, into a tree of precomputed checks |
//! | `compiled_check.rs` | the yes/no walk of that tree |
//! | `key.rs` | property names prepared for matching payload keys |
//! | `property_index.rs` | a hash index of property names, for objects with many of them |
//! | `derive.rs` | the steps `#[derive(ToolArgs)]` builds schemas with, at run time and for rustdoc (not API) |
//! | `definite.rs` | [`Schema::definite_violations`]: what a value still being written already breaks |
//! | `compiled.rs` | [`CompiledSchema`]: validation on that tree, for schemas that check many values |
//! | `violation.rs` | what validation reports, in the spec's wording |
//! | `format.rs`, `format_checks.rs` | [`StringFormat`]: the `format`s, and the grammars of those checked |
//! | `pattern.rs` | `Pattern`: a compiled `pattern` (not API), and [`PatternError`] |
//! | `pattern_shortcut.rs` | `pattern`s of the simplest shapes decided without the regex engine |
//! | `limits.rs` | how deep validation and import go, and how large an import grows (not API) |
//! | `rules/` | each keyword family in one file: its struct in the model (`Lengths`, `NumberRules`, …), reading and writing it, its builder methods and the macros' steps, and the checks every engine runs (the module itself is not API) |
//! | `multiple_of.rs` | `multipleOf` decided exactly, on the decimals JSON wrote |
//! | `semantics.rs` | JSON's notion of number equality, integers and string length, shared with the runtime (not API) |
//! | `keywords/` | `KeywordSchema`: all of JSON Schema 2020-12, for what the typed model does not describe, and [`SchemaImportOptions`] |
//! | `import.rs` | raw JSON Schema and `schemars` into the model: [`Schema::from_json_schema`] |
//! | `subset.rs` | the structured-output check of a raw schema (supported, object-rooted) |
//! | `error.rs` | [`SchemaError`]: why a schema cannot be built or imported |
//! | `partial_json.rs` + `partial_json/` | [`PartialJson`]: JSON text read while it is still being written |
//! | `text_bounds.rs` | untrusted text quoted in messages, cut with a marker, shared with the runtime (not API) |

mod builder;
mod compile;
mod compiled;
mod compiled_check;
mod definite;
#[doc(hidden)]
pub mod derive;
mod error;
mod format;
mod format_checks;
mod import;
mod key;
mod keywords;
mod limits;
mod model;
mod multiple_of;
// Not API beyond what the root re-exports: the stream reader's node view and open path.
#[doc(hidden)]
pub mod partial_json;
mod pattern;
mod pattern_shortcut;
mod property_index;
mod render;
#[doc(hidden)]
pub mod rules;
#[doc(hidden)]
pub mod semantics;
mod subset;
#[doc(hidden)]
pub mod text_bounds;
mod validate;
mod violation;

pub use builder::{NumberBound, SchemaBuilder};
// How `NumberBound` reads a float for each side: the trait's plumbing, not API.
#[doc(hidden)]
pub use builder::{BoundSide, BuilderRules};
pub use compiled::CompiledSchema;
pub use definite::DefiniteProgress;
pub use error::{SchemaError, SchemaProblem};
pub use format::StringFormat;
pub use keywords::SchemaImportOptions;
pub use model::Schema;
pub use partial_json::{PartialJson, PartialJsonError};
pub use pattern::{PatternError, PatternErrorKind};
pub use subset::assert_supported_object_json_schema;
pub use violation::{Violation, Violations};

// The model's layout, the keyword families' structs it carries and the engine's fixed limits:
// not API (see `model.rs`). The runtime, the macros' generated code and the tests walk the tree
// and read the limits through these names; users build a `Schema` and read it as JSON Schema.
#[doc(hidden)]
pub use error::MAX_REPORTED_SCHEMA_PROBLEMS;
#[doc(hidden)]
pub use keywords::KeywordSchema;
#[doc(hidden)]
pub use limits::{MAX_IMPORT_DEPTH, MAX_IMPORT_NODES, MAX_VALIDATION_DEPTH};
#[doc(hidden)]
pub use model::{
    AdditionalProperties, Annotations, ArrayRules, Definition, ObjectRules, Property, SchemaKind,
    StringRules,
};
#[doc(hidden)]
pub use pattern::Pattern;
#[doc(hidden)]
pub use rules::arrays::ArrayConstraints;
#[doc(hidden)]
pub use rules::lengths::Lengths;
#[doc(hidden)]
pub use rules::matching::Matching;
#[doc(hidden)]
pub use rules::numbers::{ExtraNumberRules, NumberRules};
#[doc(hidden)]
pub use rules::objects::ObjectConstraints;
#[doc(hidden)]
pub use violation::{JsonType, MAX_REPORTED_VIOLATIONS};
// The walk's collector, which the runtime reports duplicate keys into: not API.
#[doc(hidden)]
pub use violation::ValidationContext;

// The README's example is compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
