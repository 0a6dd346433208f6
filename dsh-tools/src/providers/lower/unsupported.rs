//! Pass 3, per node, last: constraints the dialect does not support moved into the
//! `description`, annotation-only keys dropped.

use serde_json::{Map, Value};

use super::Lowerer;
use super::shapes::{append_description, compact, constraint_text, escape};
use crate::providers::dialect::Keyword;
use crate::providers::report::Change;

impl Lowerer<'_> {
    /// Moves the keywords the dialect cannot take into the description; drops annotations.
    pub(super) fn describe_unsupported(&mut self, node: &mut Map<String, Value>, path: &str) {
        let profile = self.profile;
        if !profile.rewrite {
            return;
        }
        let keys: Vec<String> = node.keys().cloned().collect();
        let mut texts = Vec::new();
        for key in keys {
            let rule = match key.as_str() {
                "type"
                | "properties"
                | "required"
                | "additionalProperties"
                | "items"
                | "anyOf"
                | "enum"
                | "const"
                | "nullable"
                | "description"
                | "$ref"
                | "$defs" => {
                    continue;
                }
                "allOf" if profile.keeps_all_of => continue,
                "prefixItems" if profile.keeps_prefix_items => continue,
                "oneOf" if !profile.one_of_to_any_of => continue,
                "format" => match (profile.formats, node.get("format").and_then(Value::as_str)) {
                    (None, _) => Keyword::Keep,
                    (Some(allowed), Some(format)) if allowed.contains(&format) => Keyword::Keep,
                    _ => Keyword::Describe,
                },
                "minItems" => {
                    let keep = (profile.keyword)("minItems") == Keyword::Keep;
                    let small_enough = match (profile.max_min_items, node.get("minItems")) {
                        (Some(max), Some(value)) => value.as_u64().is_some_and(|n| n <= max),
                        _ => true,
                    };
                    if keep && small_enough {
                        Keyword::Keep
                    } else {
                        Keyword::Describe
                    }
                }
                other => (profile.keyword)(other),
            };
            match rule {
                Keyword::Keep => {}
                Keyword::Drop => {
                    if let Some(value) = node.shift_remove(&key) {
                        self.note(
                            &format!("{path}/{}", escape(&key)),
                            Change::Dropped,
                            format!("{key}: {}", compact(&value)),
                        );
                    }
                }
                Keyword::Describe => {
                    if let Some(value) = node.shift_remove(&key) {
                        let text = constraint_text(&key, &value);
                        self.note(
                            &format!("{path}/{}", escape(&key)),
                            Change::MovedToDescription,
                            format!("{key}: {}", compact(&value)),
                        );
                        texts.push(text);
                    }
                }
            }
        }
        if !texts.is_empty() {
            append_description(node, &format!("({})", texts.join("; ")));
        }
    }
}
