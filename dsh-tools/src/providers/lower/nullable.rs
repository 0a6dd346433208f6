//! Pass 3, per node: the nullable forms normalized to what the dialect takes, `const` turned
//! into `enum`.

use serde_json::{Map, Value};

use super::Lowerer;
use super::shapes::{
    add_null_type, append_description, common_type, compact, is_null_schema, json_type,
    null_schema, single_type_of,
};
use crate::providers::dialect::Nullable;
use crate::providers::report::Change;

impl Lowerer<'_> {
    /// Writes a nullable schema in the dialect's form.
    pub(super) fn normalize_nullable(&mut self, node: &mut Map<String, Value>, path: &str) {
        let profile = self.profile;
        if !profile.rewrite {
            return;
        }
        // A `null` member of an enum, where enums take no null.
        if profile.enum_without_null
            && let Some(Value::Array(members)) = node.get_mut("enum")
            && members.iter().any(Value::is_null)
        {
            members.retain(|member| !member.is_null());
            let empty = members.is_empty();
            if empty {
                node.shift_remove("enum");
                node.insert("type".to_owned(), Value::from("null"));
            } else {
                add_null_type(node);
            }
            self.note(
                &format!("{path}/enum"),
                Change::Rewritten,
                "null enum member written as a nullable type",
            );
        }
        match profile.nullable {
            Nullable::TypeArray => {}
            Nullable::AnyOfForContainers => {
                let container = matches!(
                    node.get("type"),
                    Some(Value::Array(types))
                        if types.iter().any(|name| name == "null")
                            && types.iter().any(|name| name == "object" || name == "array")
                );
                if container {
                    let kind = single_type_of(node).unwrap_or_default();
                    let mut inner = std::mem::take(node);
                    inner.insert("type".to_owned(), Value::String(kind.clone()));
                    if let Some(Value::Array(members)) = inner.get_mut("enum") {
                        members.retain(|member| !member.is_null());
                    }
                    if let Some(description) = inner.shift_remove("description") {
                        node.insert("description".to_owned(), description);
                    }
                    node.insert(
                        "anyOf".to_owned(),
                        Value::Array(vec![Value::Object(inner), null_schema()]),
                    );
                    self.note(
                        &format!("{path}/type"),
                        Change::Rewritten,
                        format!("nullable {kind} written as anyOf [{kind}, null]"),
                    );
                }
            }
            Nullable::OpenApi => {
                if let Some(Value::Array(types)) = node.get("type") {
                    let nullable = types.iter().any(|name| name == "null");
                    let rest: Vec<&str> = types
                        .iter()
                        .filter_map(Value::as_str)
                        .filter(|name| *name != "null")
                        .collect();
                    let single = match rest.as_slice() {
                        [one] => (*one).to_owned(),
                        [] => "null".to_owned(),
                        _ => return,
                    };
                    node.insert("type".to_owned(), Value::String(single));
                    if nullable {
                        node.insert("nullable".to_owned(), Value::Bool(true));
                        self.note(
                            &format!("{path}/type"),
                            Change::Rewritten,
                            "type [T, \"null\"] written as \"nullable\": true",
                        );
                    }
                }
                // `anyOf: [X, {"type": "null"}]` → X with `nullable`.
                let collapsible = matches!(
                    node.get("anyOf"),
                    Some(Value::Array(branches))
                        if branches.len() == 2 && branches.iter().any(is_null_schema)
                );
                if collapsible {
                    let Some(Value::Array(branches)) = node.shift_remove("anyOf") else {
                        return;
                    };
                    let other = branches.into_iter().find(|branch| !is_null_schema(branch));
                    if let Some(Value::Object(other)) = other {
                        for (key, value) in other {
                            if key == "description" && node.contains_key("description") {
                                continue;
                            }
                            node.insert(key, value);
                        }
                    }
                    node.insert("nullable".to_owned(), Value::Bool(true));
                    // The branch may itself be `type: [T, "null"]`.
                    self.normalize_nullable(node, path);
                    self.note(
                        &format!("{path}/anyOf"),
                        Change::Rewritten,
                        "anyOf [T, null] written as T with \"nullable\": true",
                    );
                }
            }
        }
    }

    pub(super) fn const_to_enum(&mut self, node: &mut Map<String, Value>, path: &str) {
        let profile = self.profile;
        if profile.const_to_enum
            && let Some(constant) = node.shift_remove("const")
        {
            if !node.contains_key("type")
                && let Some(kind) = json_type(&constant)
            {
                node.insert("type".to_owned(), Value::from(kind));
            }
            let detail = format!(
                "const {} -> enum [{}]",
                compact(&constant),
                compact(&constant)
            );
            node.insert("enum".to_owned(), Value::Array(vec![constant]));
            self.note(path, Change::Rewritten, detail);
        }
        if profile.string_enums_only {
            let non_string = matches!(
                node.get("enum"),
                Some(Value::Array(members)) if members.iter().any(|member| !member.is_string())
            );
            if non_string {
                let Some(members) = node.shift_remove("enum") else {
                    return;
                };
                if !node.contains_key("type")
                    && let Some(kind) = members.as_array().and_then(|list| common_type(list))
                {
                    node.insert("type".to_owned(), Value::from(kind));
                }
                let text = compact(&members);
                append_description(node, &format!("(one of {text})"));
                self.note(
                    &format!("{path}/enum"),
                    Change::MovedToDescription,
                    format!("enum {text} (only string enums are accepted)"),
                );
            }
        }
    }
}
