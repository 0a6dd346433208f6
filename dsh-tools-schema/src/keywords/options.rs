//! [`SchemaImportOptions`]: what an import is given beside the document: the documents its
//! remote references name, and whether `format` asserts.

use std::collections::HashMap;

use serde_json::Value;

/// How a JSON Schema document is imported ([`Schema::from_json_schema_with`]): the documents
/// remote references name, and whether `format` asserts.
///
/// [`Default`] has no documents, and checked formats assert: a remote reference
/// (`"$ref": "https://example.com/address.json"`) is an `UNSUPPORTED_SCHEMA` error naming it, and the formats [`StringFormat::is_checked`] names are
/// checked (what the model is shown is what is enforced). JSON Schema's own default is `format`
/// as an annotation only: [`formats_as_annotations`](Self::formats_as_annotations).
///
/// [`Schema::from_json_schema_with`]: crate::Schema::from_json_schema_with
/// [`StringFormat::is_checked`]: crate::StringFormat::is_checked
#[derive(Clone, Debug)]
pub struct SchemaImportOptions {
    documents: HashMap<String, Value>,
    asserts_formats: bool,
}

impl Default for SchemaImportOptions {
    fn default() -> Self {
        Self {
            documents: HashMap::new(),
            asserts_formats: true,
        }
    }
}

impl SchemaImportOptions {
    /// Adds the document `schema` under `uri` (absolute; a fragment is ignored), for remote
    /// references to resolve to.
    pub fn with_document(mut self, uri: impl Into<String>, schema: Value) -> Self {
        let uri = uri.into();
        let uri = match uri.split_once('#') {
            Some((resource, _)) => resource.to_owned(),
            None => uri,
        };
        self.documents.insert(uri, schema);
        self
    }

    /// The document added under `uri`.
    pub(crate) fn document(&self, uri: &str) -> Option<&Value> {
        self.documents.get(uri)
    }

    /// `format` is an annotation only, as JSON Schema specifies by default: published, never
    /// checked.
    pub fn formats_as_annotations(mut self) -> Self {
        self.asserts_formats = false;
        self
    }

    /// Whether the checked formats assert.
    pub(crate) fn asserts_formats(&self) -> bool {
        self.asserts_formats
    }
}
