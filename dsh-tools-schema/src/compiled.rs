//! [`CompiledSchema`]: a schema lowered once into a tree of precomputed checks, for schemas that
//! validate many values (a tool's arguments and output). Like `jsonschema`'s validator, it is
//! built once and then only read.
//!
//! The yes/no question runs on the compiled nodes; that is the whole cost of a valid value. An
//! invalid value is then reported by the interpreter's reporting walk over the same schema (which
//! skips valid children with the compiled check), so the violations, their wording and their
//! order are exactly the interpreter's.
//!
//! The yes/no walk itself is `compiled_check.rs`; this file owns the type, its lowering and how
//! it answers.

use std::fmt;

use serde_json::Value;

use super::compile::{Node, lower};
use super::compiled_check::check;
use super::model::Schema;
use super::validate::report;
use super::violation::{PathRoot, Violations};

/// A [`Schema`] compiled for validating many values; build it once with
/// `CompiledSchema::from(schema)` (or `from(&schema)`, which compiles a copy and leaves the
/// schema to the caller) and keep it.
///
/// It is how a schema checks values: [`is_valid`](Self::is_valid), [`validate`](Self::validate)
/// (a tool's arguments) and [`validate_output`](Self::validate_output) (a value), each answering
/// exactly as the schema it was built from. The schema is owned and cannot change afterwards, so
/// the compiled form can never go stale.
///
/// ```
/// use dsh_tools_schema::{CompiledSchema, Schema};
/// use serde_json::json;
///
/// let arguments = CompiledSchema::from(
///     Schema::object()
///         .required("path", Schema::string().length(1..))
///         .optional("limit", Schema::integer().range(1..=100))
///         .build(),
/// );
/// assert!(arguments.is_valid(&json!({"path": "/tmp", "limit": 5})));
/// let violations = arguments.validate(&json!({"limit": 0})).unwrap_err();
/// assert_eq!(violations.to_string(), r#"missing required property "path"; "limit" must be >= 1"#);
/// ```
#[derive(Clone)]
pub struct CompiledSchema {
    schema: Schema,
    root: Node,
    recursive: bool,
}

impl CompiledSchema {
    /// Compiles `schema`.
    fn new(schema: Schema) -> Self {
        let root = lower(&schema);
        let recursive = schema.is_recursive();
        Self {
            schema,
            root,
            recursive,
        }
    }

    /// Whether the schema has a definition its values can nest without limit through
    /// ([`Schema::is_recursive`]). Not API, as that is not.
    #[doc(hidden)]
    pub fn is_recursive(&self) -> bool {
        self.recursive
    }

    /// The schema this was compiled from (to render it, for example).
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Whether `value` matches, without collecting anything (and without allocating).
    pub fn is_valid(&self, value: &Value) -> bool {
        check(&self.root, value, 0)
    }

    /// Validates a tool's arguments (paths rooted at `arguments`); the error lists every
    /// violation.
    pub fn validate(&self, value: &Value) -> Result<(), Violations> {
        if self.is_valid(value) {
            return Ok(());
        }
        report(&self.schema, Some(&self.root), value, PathRoot::Arguments)
    }

    /// Validates a tool's output value (paths rooted at `value`).
    pub fn validate_output(&self, value: &Value) -> Result<(), Violations> {
        if self.is_valid(value) {
            return Ok(());
        }
        report(&self.schema, Some(&self.root), value, PathRoot::Value)
    }
}

/// Compiles `schema`, keeping it.
impl From<Schema> for CompiledSchema {
    fn from(schema: Schema) -> Self {
        Self::new(schema)
    }
}

/// Compiles a copy of `schema`, which stays the caller's.
impl From<&Schema> for CompiledSchema {
    fn from(schema: &Schema) -> Self {
        Self::new(schema.clone())
    }
}

impl PartialEq for CompiledSchema {
    /// Compiled schemas are equal when their schemas are.
    fn eq(&self, other: &Self) -> bool {
        self.schema == other.schema
    }
}

impl fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompiledSchema")
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

// ---------------------------------------------------------------------------------------------
// the yes/no walk over the compiled tree
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::{CompiledSchema, Schema};

    /// Item values of every type, around and past a block of eight, valid and invalid anywhere.
    fn arrays() -> Vec<Value> {
        let items = [
            json!("ab"),
            json!("abcdefgh"),
            json!(""),
            json!("é"),
            json!(null),
            json!(true),
            json!(3),
            json!([]),
            json!({}),
        ];
        let mut arrays = vec![json!([])];
        for len in [1, 7, 8, 9, 10, 16, 17] {
            for item in &items {
                arrays.push(Value::Array(vec![item.clone(); len]));
                for odd_one in [0, len / 2, len - 1] {
                    let mut values = vec![json!("ok"); len];
                    values[odd_one] = item.clone();
                    arrays.push(Value::Array(values));
                }
            }
        }
        arrays
    }

    #[test]
    fn every_kind_of_array_item_answers_as_the_interpreter_does() {
        let item_schemas = [
            Schema::any(),
            Schema::string().into(),
            Schema::string().nullable().into(),
            Schema::boolean(),
            Schema::boolean().nullable(),
            Schema::string().length(1..=4).into(),
            Schema::string().length(1..).nullable().into(),
            Schema::integer().into(),
        ];
        for items in item_schemas {
            for schema in [
                Schema::array(items.clone()).build(),
                Schema::array(items.clone()).item_count(2..=9).build(),
            ] {
                let compiled = CompiledSchema::from(&schema);
                for array in arrays() {
                    assert_eq!(
                        compiled.is_valid(&array),
                        schema.is_valid(&array),
                        "{array} against {}",
                        schema.to_json_schema()
                    );
                }
            }
        }
        let any_items = Schema::array(Schema::any()).build();
        assert!(CompiledSchema::from(&any_items).is_valid(&json!([1, "a", null, [], {}])));
    }
}
