//! Checkers of provider requests, written from each provider's published constraints (see
//! `shared/spec/provider-constraints.md` for the sources), independently of the lowering code:
//! given a request's `tools` value, each lists every rule the request breaks.

use std::collections::{BTreeSet, HashSet};

use dsh_tools::Value;
use dsh_tools::providers::{Dialect, GeminiSchema};

/// Every rule `tools` (a request's `tools` value for `dialect`) breaks, as `tool path: rule`.
pub fn check_request(dialect: Dialect, tools: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(entries) = tools.as_array() else {
        return vec!["tools must be an array".to_owned()];
    };
    match dialect {
        Dialect::OpenAiChat { .. } | Dialect::DeepSeek { .. } => {
            if matches!(dialect, Dialect::OpenAiChat { .. }) && entries.len() > 128 {
                out.push(format!("{} functions; at most 128", entries.len()));
            }
            for entry in entries {
                if entry["type"] != "function" {
                    out.push(format!("{entry}: type must be \"function\""));
                }
                let function = &entry["function"];
                let name = function["name"].as_str().unwrap_or_default();
                check_name(name, false, &mut out);
                let strict = function.get("strict") == Some(&Value::Bool(true));
                let parameters = &function["parameters"];
                check_root_object(name, parameters, false, &mut out);
                if strict {
                    if matches!(dialect, Dialect::DeepSeek { .. }) {
                        check_deepseek_strict(name, parameters, &mut out);
                    } else {
                        check_openai_strict(name, parameters, &mut out);
                    }
                }
            }
        }
        Dialect::OpenAiResponses { .. } => {
            for entry in entries {
                let name = entry["name"].as_str().unwrap_or_default();
                if entry["type"] != "function" {
                    out.push(format!("{name}: type must be \"function\""));
                }
                check_name(name, false, &mut out);
                // The Responses API defaults to strict: the field must say what is meant.
                let Some(strict) = entry.get("strict").and_then(Value::as_bool) else {
                    out.push(format!("{name}: strict must be given explicitly"));
                    continue;
                };
                check_root_object(name, &entry["parameters"], false, &mut out);
                if strict {
                    check_openai_strict(name, &entry["parameters"], &mut out);
                }
            }
        }
        Dialect::Anthropic { .. } => check_anthropic(entries, &mut out),
        Dialect::Gemini { schema } => {
            let [group] = entries.as_slice() else {
                return vec!["Gemini tools must be one functionDeclarations group".to_owned()];
            };
            let Some(declarations) = group["functionDeclarations"].as_array() else {
                return vec!["functionDeclarations must be an array".to_owned()];
            };
            for declaration in declarations {
                let name = declaration["name"].as_str().unwrap_or_default();
                check_name(name, true, &mut out);
                match schema {
                    GeminiSchema::OpenApi => {
                        if declaration.get("parametersJsonSchema").is_some() {
                            out.push(format!("{name}: parametersJsonSchema in OpenAPI mode"));
                        }
                        if let Some(parameters) = declaration.get("parameters") {
                            check_root_object(name, parameters, false, &mut out);
                            check_gemini_openapi(name, parameters, "", true, &mut out);
                        }
                    }
                    GeminiSchema::JsonSchema => {
                        if declaration.get("parameters").is_some() {
                            out.push(format!("{name}: parameters beside parametersJsonSchema"));
                        }
                        let parameters = &declaration["parametersJsonSchema"];
                        check_root_object(name, parameters, false, &mut out);
                        walk(parameters, "", &mut |node, path| {
                            check_gemini_json(name, node, path, &mut out)
                        });
                    }
                }
            }
        }
    }
    out
}

/// OpenAI, Anthropic, DeepSeek: `^[a-zA-Z0-9_-]{1,64}$`. Gemini: a letter or `_` first, then
/// `[a-zA-Z0-9_.:-]`, at most 64 (the smaller of Google's published bounds).
fn check_name(name: &str, gemini: bool, out: &mut Vec<String>) {
    let ok = if gemini {
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || "_.:-".contains(c))
            && name.len() <= 64
    } else {
        !name.is_empty()
            && name.len() <= 64
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if !ok {
        out.push(format!(
            "{name:?}: the name breaks the provider's name rule"
        ));
    }
}

fn check_root_object(name: &str, parameters: &Value, no_union: bool, out: &mut Vec<String>) {
    if parameters.get("type") != Some(&Value::from("object")) {
        out.push(format!(
            "{name}: the parameters' root must be type \"object\""
        ));
    }
    if no_union {
        for key in ["anyOf", "oneOf", "allOf"] {
            if parameters.get(key).is_some() {
                out.push(format!("{name}: {key} at the root of input_schema"));
            }
        }
    }
}

/// Visits every subschema with its JSON Pointer.
fn walk(schema: &Value, path: &str, visit: &mut dyn FnMut(&serde_json::Map<String, Value>, &str)) {
    let Value::Object(node) = schema else {
        return;
    };
    visit(node, path);
    for key in ["properties", "$defs", "definitions", "patternProperties"] {
        if let Some(Value::Object(map)) = node.get(key) {
            for (name, child) in map {
                walk(child, &format!("{path}/{key}/{name}"), visit);
            }
        }
    }
    for key in ["items", "additionalProperties", "not", "if", "then", "else"] {
        if let Some(child @ Value::Object(_)) = node.get(key) {
            walk(child, &format!("{path}/{key}"), visit);
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(list)) = node.get(key) {
            for (index, child) in list.iter().enumerate() {
                walk(child, &format!("{path}/{key}/{index}"), visit);
            }
        }
    }
}

fn types_of(node: &serde_json::Map<String, Value>) -> Vec<String> {
    match node.get("type") {
        Some(Value::String(name)) => vec![name.clone()],
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

fn check_keywords(
    name: &str,
    node: &serde_json::Map<String, Value>,
    path: &str,
    allowed: &[&str],
    out: &mut Vec<String>,
) {
    for key in node.keys() {
        if !allowed.contains(&key.as_str()) {
            out.push(format!("{name} {path}: keyword {key} is not supported"));
        }
    }
}

/// Every object closed and every property required (OpenAI and DeepSeek strict).
fn check_closed_and_required(
    name: &str,
    node: &serde_json::Map<String, Value>,
    path: &str,
    out: &mut Vec<String>,
) {
    let is_object = types_of(node).iter().any(|kind| kind == "object");
    if !is_object {
        return;
    }
    if node.get("additionalProperties") != Some(&Value::Bool(false)) {
        out.push(format!("{name} {path}: additionalProperties must be false"));
    }
    let Some(Value::Object(properties)) = node.get("properties") else {
        out.push(format!("{name} {path}: an object must list its properties"));
        return;
    };
    let declared: BTreeSet<&str> = properties.keys().map(String::as_str).collect();
    let required: BTreeSet<&str> = node
        .get("required")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if declared != required {
        out.push(format!("{name} {path}: required must list every property"));
    }
}

fn check_typed(
    name: &str,
    node: &serde_json::Map<String, Value>,
    path: &str,
    out: &mut Vec<String>,
) {
    let typed = ["type", "anyOf", "$ref", "enum", "const"]
        .iter()
        .any(|key| node.contains_key(*key));
    if !typed {
        out.push(format!("{name} {path}: every schema needs a type"));
    }
    if types_of(node).iter().any(|kind| kind == "array") {
        let items_typed = node
            .get("items")
            .and_then(Value::as_object)
            .is_some_and(|items| !items.is_empty());
        if !items_typed && !node.contains_key("prefixItems") {
            out.push(format!("{name} {path}: array items must be typed"));
        }
    }
}

/// OpenAI Structured Outputs, "Supported schemas".
fn check_openai_strict(name: &str, parameters: &Value, out: &mut Vec<String>) {
    const ALLOWED: &[&str] = &[
        "type",
        "description",
        "title",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "$ref",
        "$defs",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "prefixItems",
    ];
    const FORMATS: &[&str] = &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    if parameters.get("anyOf").is_some() {
        out.push(format!("{name}: the root must not be anyOf"));
    }
    let mut properties = 0;
    let mut enum_values = 0;
    walk(parameters, "", &mut |node, path| {
        check_keywords(name, node, path, ALLOWED, out);
        check_closed_and_required(name, node, path, out);
        check_typed(name, node, path, out);
        if node.contains_key("$ref") && node.len() > 1 {
            out.push(format!("{name} {path}: $ref must stand alone"));
        }
        if let Some(format) = node.get("format").and_then(Value::as_str)
            && !FORMATS.contains(&format)
        {
            out.push(format!("{name} {path}: format {format} is not supported"));
        }
        for kind in types_of(node) {
            if ![
                "string", "number", "integer", "boolean", "object", "array", "null",
            ]
            .contains(&kind.as_str())
            {
                out.push(format!("{name} {path}: type {kind}"));
            }
        }
        if let Some(Value::Object(map)) = node.get("properties") {
            properties += map.len();
        }
        if let Some(Value::Array(members)) = node.get("enum") {
            enum_values += members.len();
        }
        let depth = path.matches("/properties/").count();
        if depth > 10 {
            out.push(format!("{name} {path}: nested deeper than 10 levels"));
        }
    });
    if properties > 5_000 {
        out.push(format!("{name}: more than 5000 properties"));
    }
    if enum_values > 1_000 {
        out.push(format!("{name}: more than 1000 enum values"));
    }
}

/// DeepSeek strict mode (beta): OpenAI-style closing, a smaller keyword set.
fn check_deepseek_strict(name: &str, parameters: &Value, out: &mut Vec<String>) {
    const ALLOWED: &[&str] = &[
        "type",
        "description",
        "title",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "anyOf",
        "$ref",
        "$defs",
        "format",
    ];
    const FORMATS: &[&str] = &["email", "hostname", "ipv4", "ipv6", "uuid"];
    walk(parameters, "", &mut |node, path| {
        check_keywords(name, node, path, ALLOWED, out);
        check_closed_and_required(name, node, path, out);
        check_typed(name, node, path, out);
        if let Some(format) = node.get("format").and_then(Value::as_str)
            && !FORMATS.contains(&format)
        {
            out.push(format!("{name} {path}: format {format} is not supported"));
        }
        let types = types_of(node);
        if types.len() > 1 && types.iter().any(|kind| kind == "object" || kind == "array") {
            out.push(format!("{name} {path}: a type list with object or array"));
        }
    });
}

/// Anthropic Messages tools: no union at the root even non-strict; strict limits.
fn check_anthropic(entries: &[Value], out: &mut Vec<String>) {
    const ALLOWED: &[&str] = &[
        "type",
        "description",
        "title",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "anyOf",
        "allOf",
        "$ref",
        "$defs",
        "format",
        "minItems",
    ];
    const FORMATS: &[&str] = &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    let (mut strict_tools, mut optional, mut unions) = (0, 0, 0);
    for entry in entries {
        let name = entry["name"].as_str().unwrap_or_default();
        check_name(name, false, out);
        let schema = &entry["input_schema"];
        check_root_object(name, schema, true, out);
        if entry.get("strict") != Some(&Value::Bool(true)) {
            continue;
        }
        strict_tools += 1;
        let mut refs = HashSet::new();
        walk(schema, "", &mut |node, path| {
            check_keywords(name, node, path, ALLOWED, out);
            if let Some(format) = node.get("format").and_then(Value::as_str)
                && !FORMATS.contains(&format)
            {
                out.push(format!("{name} {path}: format {format} is not supported"));
            }
            if let Some(min) = node.get("minItems").and_then(Value::as_u64)
                && min > 1
            {
                out.push(format!("{name} {path}: minItems above 1"));
            }
            if types_of(node).iter().any(|kind| kind == "object")
                && node.get("additionalProperties") != Some(&Value::Bool(false))
            {
                out.push(format!("{name} {path}: additionalProperties must be false"));
            }
            if let Some(Value::Array(members)) = node.get("enum")
                && members
                    .iter()
                    .any(|member| member.is_array() || member.is_object())
            {
                out.push(format!("{name} {path}: enum of non-primitive values"));
            }
            if let Some(target) = node.get("$ref").and_then(Value::as_str) {
                refs.insert(target.to_owned());
            }
            if let Some(Value::Object(properties)) = node.get("properties") {
                let required: Vec<&str> = node
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|list| list.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                for (key, child) in properties {
                    if !required.contains(&key.as_str()) {
                        optional += 1;
                    }
                    if child.get("anyOf").is_some()
                        || child.get("type").is_some_and(Value::is_array)
                    {
                        unions += 1;
                    }
                }
            }
        });
        if !refs.is_empty() {
            out.push(format!(
                "{name}: $ref in a strict tool (recursion is not supported)"
            ));
        }
    }
    if strict_tools > 20 {
        out.push(format!("{strict_tools} strict tools; at most 20"));
    }
    if optional > 24 {
        out.push(format!(
            "{optional} optional parameters across strict tools; at most 24"
        ));
    }
    if unions > 16 {
        out.push(format!(
            "{unions} union parameters across strict tools; at most 16"
        ));
    }
}

/// Gemini's OpenAPI `Schema` (python-genai `types.Schema`; Developer API restrictions).
fn check_gemini_openapi(name: &str, schema: &Value, path: &str, root: bool, out: &mut Vec<String>) {
    const ALLOWED: &[&str] = &[
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "items",
        "properties",
        "required",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "anyOf",
        "default",
        "example",
        "propertyOrdering",
        "minProperties",
        "maxProperties",
    ];
    let Value::Object(node) = schema else {
        out.push(format!("{name} {path}: a schema must be an object"));
        return;
    };
    check_keywords(name, node, path, ALLOWED, out);
    match node.get("type") {
        Some(Value::String(kind)) => {
            if ![
                "string", "number", "integer", "boolean", "object", "array", "null",
            ]
            .contains(&kind.as_str())
            {
                out.push(format!("{name} {path}: type {kind}"));
            }
            if kind == "object"
                && !root
                && let Some(Value::Object(properties)) = node.get("properties")
                && properties.is_empty()
            {
                out.push(format!("{name} {path}: empty properties on an object"));
            }
        }
        Some(other) => out.push(format!("{name} {path}: type must be one name, not {other}")),
        // The Schema's `type` is required; only a node of `anyOf` branches may leave it out.
        None if !node.contains_key("anyOf") => {
            out.push(format!(
                "{name} {path}: a schema needs a type unless it is an anyOf"
            ));
        }
        None => {}
    }
    if types_of(node).iter().any(|kind| kind == "array") && !node.contains_key("items") {
        out.push(format!("{name} {path}: an array needs items"));
    }
    if let Some(Value::Array(members)) = node.get("enum")
        && members.iter().any(|member| !member.is_string())
    {
        out.push(format!("{name} {path}: enum must hold strings only"));
    }
    if let Some(format) = node.get("format").and_then(Value::as_str)
        && !["enum", "date-time"].contains(&format)
    {
        out.push(format!("{name} {path}: format {format} is not supported"));
    }
    if let Some(Value::Object(properties)) = node.get("properties") {
        for (key, child) in properties {
            check_gemini_openapi(name, child, &format!("{path}/properties/{key}"), false, out);
        }
    }
    if let Some(items) = node.get("items") {
        check_gemini_openapi(name, items, &format!("{path}/items"), false, out);
    }
    if let Some(Value::Array(branches)) = node.get("anyOf") {
        for (index, branch) in branches.iter().enumerate() {
            check_gemini_openapi(name, branch, &format!("{path}/anyOf/{index}"), false, out);
        }
    }
}

/// Gemini `parametersJsonSchema`: the keywords Google documents for its JSON Schema support.
fn check_gemini_json(
    name: &str,
    node: &serde_json::Map<String, Value>,
    path: &str,
    out: &mut Vec<String>,
) {
    const ALLOWED: &[&str] = &[
        "$id",
        "$defs",
        "$ref",
        "$anchor",
        "type",
        "format",
        "title",
        "description",
        "enum",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "anyOf",
        "oneOf",
        "properties",
        "additionalProperties",
        "required",
        "propertyOrdering",
    ];
    check_keywords(name, node, path, ALLOWED, out);
    if node.contains_key("$ref") && node.keys().any(|key| !key.starts_with('$')) {
        out.push(format!(
            "{name} {path}: a $ref node may carry only $-keywords"
        ));
    }
    if let Some(Value::Array(members)) = node.get("enum")
        && members
            .iter()
            .any(|member| !member.is_string() && !member.is_number())
    {
        out.push(format!(
            "{name} {path}: enum must hold strings and numbers only"
        ));
    }
}
