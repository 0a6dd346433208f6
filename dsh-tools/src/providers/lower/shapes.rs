//! Small shapes of JSON Schema the passes share: pointer escaping, null schemas, types of
//! values, merged forms, descriptions of constraints.

use serde_json::{Map, Value};

/// JSON Pointer escaping of one segment.
pub(crate) fn escape(segment: &str) -> String {
    if segment.contains(['~', '/']) {
        segment.replace('~', "~0").replace('/', "~1")
    } else {
        segment.to_owned()
    }
}

pub(super) fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// Compact JSON text.
pub(super) fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

pub(super) fn null_schema() -> Value {
    Value::Object(
        [("type".to_owned(), Value::from("null"))]
            .into_iter()
            .collect(),
    )
}

pub(super) fn is_null_schema(schema: &Value) -> bool {
    schema.as_object().is_some_and(|node| {
        node.get("type") == Some(&Value::from("null"))
            && node.keys().all(|key| key == "type" || key == "description")
    })
}

pub(super) fn is_object(node: &Map<String, Value>) -> bool {
    match node.get("type") {
        Some(Value::String(name)) => name == "object",
        Some(Value::Array(names)) => names.iter().any(|name| name == "object"),
        Some(_) => false,
        None => {
            node.contains_key("properties")
                || node.contains_key("additionalProperties")
                || node.contains_key("patternProperties")
        }
    }
}

pub(super) fn single_type_of(node: &Map<String, Value>) -> Option<String> {
    match node.get("type")? {
        Value::String(name) => Some(name.clone()),
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .find(|name| *name != "null")
            .map(str::to_owned),
        _ => None,
    }
}

/// Adds `null` to a node's type (a single type becomes a `[T, "null"]` array).
pub(super) fn add_null_type(node: &mut Map<String, Value>) {
    match node.get_mut("type") {
        Some(Value::String(name)) if name != "null" => {
            let name = std::mem::take(name);
            node.insert(
                "type".to_owned(),
                Value::Array(vec![Value::String(name), Value::from("null")]),
            );
        }
        Some(Value::Array(names)) if !names.iter().any(|name| name == "null") => {
            names.push(Value::from("null"));
        }
        _ => {}
    }
}

/// Makes a schema accept `null` in the plainest form (later passes rewrite the form per dialect).
pub(super) fn make_nullable(schema: &mut Value) {
    let Value::Object(node) = schema else {
        return;
    };
    if let Some(Value::Array(members)) = node.get_mut("enum") {
        members.push(Value::Null);
    }
    if let Some(constant) = node.shift_remove("const") {
        node.insert("enum".to_owned(), Value::Array(vec![constant, Value::Null]));
    }
    if node.contains_key("type") {
        add_null_type(node);
        return;
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        branches.push(null_schema());
        return;
    }
    if node.contains_key("enum") {
        return;
    }
    // A `$ref` or anything else: wrap it.
    let inner = std::mem::take(node);
    let mut inner = inner;
    let description = inner.shift_remove("description");
    if let Some(description) = description {
        node.insert("description".to_owned(), description);
    }
    node.insert(
        "anyOf".to_owned(),
        Value::Array(vec![Value::Object(inner), null_schema()]),
    );
}

/// The JSON type of a value (`integer` for an integral number).
pub(super) fn json_type(value: &Value) -> Option<&'static str> {
    Some(match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) => {
            if number.is_i64() || number.is_u64() {
                "integer"
            } else {
                "number"
            }
        }
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    })
}

/// The one JSON type every member has.
pub(super) fn common_type(members: &[Value]) -> Option<&'static str> {
    let mut kinds = members
        .iter()
        .filter(|member| !member.is_null())
        .map(json_type);
    let first = kinds.next()??;
    let mut kind = first;
    for other in kinds {
        match (kind, other?) {
            (a, b) if a == b => {}
            ("integer", "number") | ("number", "integer") => kind = "number",
            _ => return None,
        }
    }
    Some(kind)
}

/// The forms a merged root property takes: one form as it is, constants of one type as one
/// `enum`, anything else as an `anyOf`.
pub(super) fn merge_forms(mut forms: Vec<Value>) -> Value {
    if forms.len() == 1 {
        return forms.pop().unwrap_or(Value::Object(Map::new()));
    }
    let mut constants = Vec::new();
    let mut description = None;
    let all_constants = forms.iter().all(|form| {
        let Some(node) = form.as_object() else {
            return false;
        };
        let mut found = false;
        for (key, value) in node {
            match key.as_str() {
                "const" => {
                    constants.push(value.clone());
                    found = true;
                }
                "enum" => {
                    if let Value::Array(members) = value {
                        constants.extend(members.iter().cloned());
                        found = true;
                    }
                }
                "type" => {}
                "description" => {
                    description.get_or_insert_with(|| value.clone());
                }
                _ => return false,
            }
        }
        found
    });
    if all_constants && let Some(kind) = common_type(&constants) {
        let mut node = Map::new();
        if let Some(description) = description {
            node.insert("description".to_owned(), description);
        }
        node.insert("type".to_owned(), Value::from(kind));
        node.insert("enum".to_owned(), Value::Array(constants));
        return Value::Object(node);
    }
    Value::Object(
        [("anyOf".to_owned(), Value::Array(forms))]
            .into_iter()
            .collect(),
    )
}

/// One line describing a root-union branch: its constants, its required properties, its words.
pub(super) fn describe_shape(index: usize, branch: &Map<String, Value>) -> String {
    let mut parts = Vec::new();
    if let Some(Value::Object(properties)) = branch.get("properties") {
        for (name, schema) in properties {
            if let Some(constant) = schema.get("const") {
                parts.push(format!("{name} = {}", compact(constant)));
            } else if let Some(Value::Array(members)) = schema.get("enum")
                && members.len() == 1
            {
                parts.push(format!("{name} = {}", compact(&members[0])));
            }
        }
    }
    if let Some(Value::Array(required)) = branch.get("required") {
        let names: Vec<&str> = required.iter().filter_map(Value::as_str).collect();
        if !names.is_empty() {
            parts.push(format!("requires {}", names.join(", ")));
        }
    }
    if let Some(Value::Object(properties)) = branch.get("properties") {
        let names: Vec<&str> = properties.keys().map(String::as_str).collect();
        parts.push(format!("properties {}", names.join(", ")));
    }
    let mut line = format!("{}. {}", index + 1, parts.join("; "));
    if let Some(Value::String(description)) = branch.get("description") {
        line.push_str(" — ");
        line.push_str(description);
    }
    line
}

/// Appends `text` to the node's description (a new paragraph when there is one).
pub(super) fn append_description(node: &mut Map<String, Value>, text: &str) {
    match node.get_mut("description") {
        Some(Value::String(description)) if !description.is_empty() => {
            description.push(' ');
            description.push_str(text);
        }
        _ => {
            node.insert("description".to_owned(), Value::from(text));
        }
    }
}

/// Whether a keyword constrains values of JSON type `kind` (for splitting type unions).
pub(super) fn keyword_applies_to(key: &str, kind: &str) -> bool {
    match key {
        "minLength" | "maxLength" | "pattern" | "format" => kind == "string",
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            kind == "number" || kind == "integer"
        }
        "items" | "prefixItems" | "minItems" | "maxItems" | "uniqueItems" | "contains" => {
            kind == "array"
        }
        "properties"
        | "required"
        | "additionalProperties"
        | "patternProperties"
        | "minProperties"
        | "maxProperties"
        | "propertyNames" => kind == "object",
        _ => false,
    }
}

/// A constraint in words, for the description.
pub(super) fn constraint_text(key: &str, value: &Value) -> String {
    let plural = |n: &Value, one: &str, many: &str| {
        if n.as_u64() == Some(1) {
            format!("1 {one}")
        } else {
            format!("{} {many}", compact(n))
        }
    };
    match key {
        "minLength" => format!("at least {}", plural(value, "character", "characters")),
        "maxLength" => format!("at most {}", plural(value, "character", "characters")),
        "pattern" => format!(
            "must match the regular expression {}",
            value
                .as_str()
                .map_or_else(|| compact(value), |p| format!("`{p}`"))
        ),
        "format" => format!("format: {}", value.as_str().unwrap_or_default()),
        "minimum" => format!("minimum {}", compact(value)),
        "maximum" => format!("maximum {}", compact(value)),
        "exclusiveMinimum" => format!("greater than {}", compact(value)),
        "exclusiveMaximum" => format!("less than {}", compact(value)),
        "multipleOf" => format!("a multiple of {}", compact(value)),
        "minItems" => format!("at least {}", plural(value, "item", "items")),
        "maxItems" => format!("at most {}", plural(value, "item", "items")),
        "uniqueItems" if value == &Value::Bool(true) => "items must be distinct".to_owned(),
        "minProperties" => format!("at least {}", plural(value, "property", "properties")),
        "maxProperties" => format!("at most {}", plural(value, "property", "properties")),
        "default" => format!("default: {}", compact(value)),
        "not" => format!("must not match {}", compact(value)),
        "contains" => format!("must contain an item matching {}", compact(value)),
        "propertyNames" => format!("property names must match {}", compact(value)),
        "title" => format!(
            "title: {}",
            value.as_str().map_or_else(|| compact(value), str::to_owned)
        ),
        "allOf" => format!("must also match all of {}", compact(value)),
        "prefixItems" => format!("items by position: {}", compact(value)),
        _ => format!("{key}: {}", compact(value)),
    }
}
