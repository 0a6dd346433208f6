//! [`SchemaImportOptions`]: what an import is given beside the document: the documents its
//! remote references name, and whether `format` asserts.

use std::collections::HashMap;

use serde_json::Value;

/// How a JSON Schema document is imported ([`Schema::from_json_schema_with`]): the documents
/// remote references name, and whether `format` asserts. Set the parts you want, the rest from
/// the default:
///
/// ```
/// use dsh_tools_schema::{CompiledSchema, Schema, SchemaImportOptions};
/// use serde_json::json;
///
/// let options = SchemaImportOptions {
///     documents: [("https://example.com/address.json".to_owned(), json!({"required": ["city"]}))]
///         .into(),
///     ..SchemaImportOptions::default()
/// };
/// let schema = json!({"properties": {"address": {"$ref": "https://example.com/address.json"}}});
/// let schema = CompiledSchema::from(Schema::from_json_schema_with(&schema, &options).unwrap());
/// assert!(!schema.is_valid(&json!({"address": {}})));
/// ```
///
/// [`Default`] has no documents, and checked formats assert: a remote reference
/// (`"$ref": "https://example.com/address.json"`) is an `UNSUPPORTED_SCHEMA` error naming it, and
/// the formats the engine knows (every [`StringFormat`] but `Other`) are checked (what the model is shown is what is
/// enforced). JSON Schema's own default is `format` as an annotation only: `assert_formats:
/// false`.
///
/// [`Schema::from_json_schema_with`]: crate::Schema::from_json_schema_with
/// [`StringFormat`]: crate::StringFormat
#[derive(Clone, Debug)]
pub struct SchemaImportOptions {
    /// The documents remote references resolve to, by their absolute URI (a fragment after `#`
    /// is ignored). Default: none.
    pub documents: HashMap<String, Value>,
    /// Whether the checked formats assert; `false` makes `format` an annotation only, as JSON
    /// Schema specifies by default: published, never checked. Default: `true`.
    pub assert_formats: bool,
}

impl Default for SchemaImportOptions {
    fn default() -> Self {
        Self {
            documents: HashMap::new(),
            assert_formats: true,
        }
    }
}

impl SchemaImportOptions {
    /// The document given under `uri` (a resource's URI, without a fragment), whether its key
    /// was written with a fragment or not. The scan for a key with a fragment runs only for a
    /// remote reference, once per document an import loads.
    pub(crate) fn document(&self, uri: &str) -> Option<&Value> {
        self.documents.get(uri).or_else(|| {
            self.documents
                .iter()
                .find(|(key, _)| {
                    key.split_once('#')
                        .is_some_and(|(resource, _)| resource == uri)
                })
                .map(|(_, document)| document)
        })
    }
}
