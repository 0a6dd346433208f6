//! Pass 4: the size limits strict modes publish (OpenAI Structured Outputs).

use serde_json::Value;

use super::shapes::compact;
use super::{Blocked, Lowerer};

/// OpenAI strict limits (Structured Outputs "Supported schemas").
const OPENAI_MAX_NESTING: usize = 10;
const OPENAI_MAX_PROPERTIES: usize = 5_000;
const OPENAI_MAX_ENUM_VALUES: usize = 1_000;
const OPENAI_MAX_SCHEMA_TEXT: usize = 120_000;

impl Lowerer<'_> {
    pub(super) fn check_openai_limits(&self, root: &Value) -> Result<(), Blocked> {
        let mut stats = Stats::default();
        stats.walk(root, 0);
        if stats.max_nesting > OPENAI_MAX_NESTING {
            return Err(self.block(
                "",
                format!(
                    "objects nest {} levels deep; strict mode allows {OPENAI_MAX_NESTING}",
                    stats.max_nesting
                ),
            ));
        }
        if stats.properties > OPENAI_MAX_PROPERTIES {
            return Err(self.block(
                "",
                format!(
                    "{} properties; strict mode allows {OPENAI_MAX_PROPERTIES}",
                    stats.properties
                ),
            ));
        }
        if stats.enum_values > OPENAI_MAX_ENUM_VALUES {
            return Err(self.block(
                "",
                format!(
                    "{} enum values; strict mode allows {OPENAI_MAX_ENUM_VALUES}",
                    stats.enum_values
                ),
            ));
        }
        if stats.text > OPENAI_MAX_SCHEMA_TEXT {
            return Err(self.block(
                "",
                format!(
                    "{} characters of property names and enum values; strict mode allows \
                     {OPENAI_MAX_SCHEMA_TEXT}",
                    stats.text
                ),
            ));
        }
        Ok(())
    }
}

/// Counts what OpenAI's strict limits count.
#[derive(Default)]
struct Stats {
    max_nesting: usize,
    properties: usize,
    enum_values: usize,
    text: usize,
}

impl Stats {
    fn walk(&mut self, schema: &Value, nesting: usize) {
        let Value::Object(node) = schema else {
            return;
        };
        if let Some(Value::Object(properties)) = node.get("properties") {
            let nesting = nesting + 1;
            self.max_nesting = self.max_nesting.max(nesting);
            self.properties += properties.len();
            for (name, child) in properties {
                self.text += name.chars().count();
                self.walk(child, nesting);
            }
        }
        for key in ["enum", "const"] {
            if let Some(value) = node.get(key) {
                let members = value.as_array().map_or(1, Vec::len);
                self.enum_values += members;
                self.text += compact(value).chars().count();
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(child) = node.get(key) {
                self.walk(child, nesting);
            }
        }
        for key in ["anyOf", "prefixItems"] {
            if let Some(Value::Array(list)) = node.get(key) {
                for child in list {
                    self.walk(child, nesting);
                }
            }
        }
        if let Some(Value::Object(defs)) = node.get("$defs") {
            for child in defs.values() {
                self.walk(child, nesting);
            }
        }
    }
}
