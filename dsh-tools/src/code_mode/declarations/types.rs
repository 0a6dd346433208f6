//! From a JSON Schema to a TypeScript type: objects, maps, arrays and tuples, literal unions,
//! `oneOf`/`anyOf` unions, `allOf` intersections and `$ref`s to named declarations. What has no
//! TypeScript counterpart, and anything nested deeper than [`MAX_DEPTH`], is `unknown`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// How deep a schema is followed before the rest of it is `unknown`.
pub(super) const MAX_DEPTH: usize = 32;

/// How tightly a rendered type binds, for parentheses.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) enum Prec {
    Union,
    Intersection,
    Atom,
}

/// A rendered type.
#[derive(Clone, Debug)]
pub(super) struct Ty {
    pub(super) text: String,
    pub(super) prec: Prec,
}

impl Ty {
    fn atom(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            prec: Prec::Atom,
        }
    }

    fn unknown() -> Self {
        Self::atom("unknown")
    }

    /// The text, parenthesized when it binds looser than `prec`.
    fn at(&self, prec: Prec) -> String {
        if self.prec < prec {
            format!("({})", self.text)
        } else {
            self.text.clone()
        }
    }
}

/// The names `$ref`s of one document resolve to.
pub(super) struct Refs<'a> {
    /// What `#` names (the document's root declaration).
    pub(super) root: &'a str,
    /// What `#/$defs/<key>` and `#/definitions/<key>` name.
    pub(super) defs: &'a BTreeMap<String, String>,
}

/// Whether `name` can be written bare as a JavaScript identifier or property name.
pub(super) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A property or member key: bare when an identifier, a string literal otherwise.
pub(super) fn key(name: &str) -> String {
    if is_identifier(name) {
        name.to_owned()
    } else {
        string_literal(name)
    }
}

fn string_literal(text: &str) -> String {
    Value::from(text).to_string()
}

/// A doc comment (`/** … */`) of `text` at `indent` levels, ending in a newline; nothing for an
/// empty text.
pub(super) fn doc_comment(text: &str, indent: usize) -> String {
    let text = text.trim();
    if text.is_empty() {
        return String::new();
    }
    let pad = "  ".repeat(indent);
    let text = text.replace("*/", "*\\/");
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    if let [line] = lines.as_slice() {
        return format!("{pad}/** {line} */\n");
    }
    let mut out = format!("{pad}/**\n");
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{pad} *\n"));
        } else {
            out.push_str(&format!("{pad} * {line}\n"));
        }
    }
    out.push_str(&format!("{pad} */\n"));
    out
}

/// The keywords a property's doc carries as tags, in this order: what the JSON views show and a
/// TypeScript type cannot say (a string's format and bounds, a number's range, a list's size, a
/// default). Written as the schema writes them, so a program's author reads the same rule.
const TAGGED: &[&str] = &[
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "default",
];

/// A property's doc: its description, then a tag per rule its type does not show (`@minimum 1`,
/// `@format date-time`, `@default "draft"`, `@deprecated`).
fn property_doc(property: &Value) -> String {
    let mut doc = property
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .trim()
        .to_owned();
    let tags = tags(property);
    if !tags.is_empty() {
        if !doc.is_empty() {
            doc.push('\n');
        }
        doc.push_str(&tags.join("\n"));
    }
    doc
}

/// The tags of `property`'s rules; an optional property's rules sit in the one branch of its
/// `anyOf`/`oneOf` that is not `null`, and are read from there when the property has none.
fn tags(property: &Value) -> Vec<String> {
    let Some(object) = property.as_object() else {
        return Vec::new();
    };
    let mut tags = tagged(object);
    if tags.is_empty() {
        let branch = ["anyOf", "oneOf"]
            .iter()
            .filter_map(|keyword| object.get(*keyword).and_then(Value::as_array))
            .find_map(|branches| {
                let mut others = branches
                    .iter()
                    .filter(|branch| branch.get("type").and_then(Value::as_str) != Some("null"));
                match (others.next(), others.next()) {
                    (Some(branch), None) if branches.len() == 2 => Some(branch),
                    _ => None,
                }
            });
        if let Some(branch) = branch.and_then(Value::as_object) {
            tags = tagged(branch);
        }
    }
    if object.get("deprecated") == Some(&Value::Bool(true)) {
        tags.push("@deprecated".to_owned());
    }
    tags
}

/// The tags of the rules `schema` states itself. A number's `format` (`double`, `uint32`: how
/// wide a Rust type is) is left out: its bounds say what a program must respect.
fn tagged(schema: &Map<String, Value>) -> Vec<String> {
    let is_number = |kind: &Value| matches!(kind.as_str(), Some("number" | "integer" | "null"));
    let numeric = match schema.get("type") {
        Some(Value::Array(kinds)) => kinds.iter().all(is_number),
        Some(kind) => is_number(kind),
        None => false,
    };
    TAGGED
        .iter()
        .filter(|keyword| !(numeric && **keyword == "format"))
        .filter_map(|keyword| schema.get(*keyword).map(|value| tag(keyword, value)))
        .collect()
}

/// `@keyword value`: strings bare where the keyword names text (a format, a pattern), JSON
/// otherwise.
fn tag(keyword: &str, value: &Value) -> String {
    match (keyword, value) {
        ("format" | "pattern", Value::String(text)) => format!("@{keyword} {text}"),
        _ => format!("@{keyword} {value}"),
    }
}

/// Whether `schema` is an object type with named properties: what becomes an `interface`.
pub(super) fn is_interface(schema: &Value) -> bool {
    let Some(object) = schema.as_object() else {
        return false;
    };
    let has_properties = object
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty());
    let only_object = match object.get("type") {
        Some(Value::String(kind)) => kind == "object",
        None => true,
        Some(_) => false,
    };
    let combined = ["oneOf", "anyOf", "allOf", "$ref", "enum", "const"]
        .iter()
        .any(|keyword| object.contains_key(*keyword));
    has_properties && only_object && !combined
}

/// The members of an object type, one per line at `indent` levels (each ending in a newline).
pub(super) fn members(
    object: &Map<String, Value>,
    refs: &Refs<'_>,
    depth: usize,
    indent: usize,
) -> String {
    let pad = "  ".repeat(indent);
    let required: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = String::new();
    let mut property_types = Vec::new();
    let mut any_optional = false;
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            let ty = render(property, refs, depth + 1, indent);
            out.push_str(&doc_comment(&property_doc(property), indent));
            any_optional |= !required.contains(&name.as_str());
            let optional = if required.contains(&name.as_str()) {
                ""
            } else {
                "?"
            };
            out.push_str(&format!("{pad}{}{optional}: {};\n", key(name), ty.text));
            property_types.push(ty);
        }
    }
    match object.get("additionalProperties") {
        None | Some(Value::Bool(false)) => {}
        Some(additional) => {
            let additional = render(additional, refs, depth + 1, indent);
            // Every property must fit the index signature, an optional one with `undefined`.
            let mut all = vec![additional];
            all.extend(property_types);
            if any_optional {
                all.push(Ty::atom("undefined"));
            }
            out.push_str(&format!("{pad}[key: string]: {};\n", union(all).text));
        }
    }
    out
}

/// The type of `schema`, nested `depth` deep, written for `indent` levels of indentation.
pub(super) fn render(schema: &Value, refs: &Refs<'_>, depth: usize, indent: usize) -> Ty {
    if depth > MAX_DEPTH {
        return Ty::unknown();
    }
    let object = match schema {
        Value::Bool(true) => return Ty::unknown(),
        Value::Bool(false) => return Ty::atom("never"),
        Value::Object(object) => object,
        _ => return Ty::unknown(),
    };
    let mut parts = Vec::new();
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        parts.push(reference_type(reference, refs));
    }
    if let Some(value) = object.get("const") {
        parts.push(literal(value));
    } else if let Some(values) = object.get("enum").and_then(Value::as_array) {
        parts.push(union(values.iter().map(literal).collect()));
    } else if let Some(ty) = by_type(object, refs, depth, indent) {
        let combined = ["oneOf", "anyOf", "allOf", "$ref"]
            .iter()
            .any(|keyword| object.contains_key(*keyword));
        // `"type": "object"` beside the branches says nothing the branches do not.
        if !(combined && ty.text == "Record<string, unknown>") {
            parts.push(ty);
        }
    }
    for keyword in ["oneOf", "anyOf"] {
        if let Some(branches) = object.get(keyword).and_then(Value::as_array) {
            let branches = branches
                .iter()
                .map(|branch| branch_type(branch, refs, depth + 1, indent))
                .collect();
            parts.push(union(branches));
        }
    }
    if let Some(all) = object.get("allOf").and_then(Value::as_array) {
        parts.extend(all.iter().map(|part| render(part, refs, depth + 1, indent)));
    }
    intersection(parts)
}

/// A branch of a union, its description (a variant's doc) in a comment before it.
fn branch_type(branch: &Value, refs: &Refs<'_>, depth: usize, indent: usize) -> Ty {
    let ty = render(branch, refs, depth, indent);
    let description = branch
        .get("description")
        .and_then(Value::as_str)
        .map(|text| text.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|text| !text.is_empty());
    match description {
        Some(text) if ty.text != "unknown" && ty.text != "never" => Ty {
            text: format!(
                "/** {} */ {}",
                text.replace("*/", "*\\/"),
                ty.at(Prec::Intersection)
            ),
            prec: Prec::Intersection,
        },
        _ => ty,
    }
}

/// The type the `type` keyword (or, without it, the shape keywords) says.
fn by_type(
    object: &Map<String, Value>,
    refs: &Refs<'_>,
    depth: usize,
    indent: usize,
) -> Option<Ty> {
    match object.get("type") {
        Some(Value::String(kind)) => Some(primitive(kind, object, refs, depth, indent)),
        Some(Value::Array(kinds)) => Some(union(
            kinds
                .iter()
                .map(|kind| match kind.as_str() {
                    Some(kind) => primitive(kind, object, refs, depth, indent),
                    None => Ty::unknown(),
                })
                .collect(),
        )),
        Some(_) => Some(Ty::unknown()),
        None if ["properties", "additionalProperties"]
            .iter()
            .any(|keyword| object.contains_key(*keyword)) =>
        {
            Some(object_type(object, refs, depth, indent))
        }
        None if ["items", "prefixItems"]
            .iter()
            .any(|keyword| object.contains_key(*keyword)) =>
        {
            Some(array_type(object, refs, depth, indent))
        }
        None => None,
    }
}

fn primitive(
    kind: &str,
    object: &Map<String, Value>,
    refs: &Refs<'_>,
    depth: usize,
    indent: usize,
) -> Ty {
    match kind {
        "string" => Ty::atom("string"),
        "integer" | "number" => Ty::atom("number"),
        "boolean" => Ty::atom("boolean"),
        "null" => Ty::atom("null"),
        "array" => array_type(object, refs, depth, indent),
        "object" => object_type(object, refs, depth, indent),
        _ => Ty::unknown(),
    }
}

fn object_type(object: &Map<String, Value>, refs: &Refs<'_>, depth: usize, indent: usize) -> Ty {
    let has_properties = object
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty());
    if !has_properties {
        let values = match object.get("additionalProperties") {
            Some(Value::Bool(false)) => Ty::atom("never"),
            Some(additional) => render(additional, refs, depth + 1, indent),
            None => Ty::unknown(),
        };
        // `Record<string, T>` of a named type may be a circular alias; an index signature never is.
        if matches!(
            values.text.as_str(),
            "string" | "number" | "boolean" | "null" | "unknown" | "never"
        ) {
            return Ty::atom(format!("Record<string, {}>", values.text));
        }
        return Ty::atom(format!("{{ [key: string]: {} }}", values.text));
    }
    let body = members(object, refs, depth, indent + 1);
    Ty::atom(format!("{{\n{body}{}}}", "  ".repeat(indent)))
}

fn array_type(object: &Map<String, Value>, refs: &Refs<'_>, depth: usize, indent: usize) -> Ty {
    let items = object.get("items");
    let Some(prefix) = object.get("prefixItems").and_then(Value::as_array) else {
        let item = match items {
            Some(items) => render(items, refs, depth + 1, indent),
            None => Ty::unknown(),
        };
        return Ty::atom(format!("{}[]", item.at(Prec::Atom)));
    };
    let min_items = object.get("minItems").and_then(Value::as_u64).unwrap_or(0);
    let mut elements: Vec<String> = prefix
        .iter()
        .enumerate()
        .map(|(index, element)| {
            let ty = render(element, refs, depth + 1, indent);
            if (index as u64) < min_items {
                ty.text
            } else {
                format!("{}?", ty.at(Prec::Atom))
            }
        })
        .collect();
    match items {
        Some(Value::Bool(false)) => {}
        Some(items) => {
            let rest = render(items, refs, depth + 1, indent);
            elements.push(format!("...{}[]", rest.at(Prec::Atom)));
        }
        None => elements.push("...unknown[]".to_owned()),
    }
    Ty::atom(format!("[{}]", elements.join(", ")))
}

fn reference_type(reference: &str, refs: &Refs<'_>) -> Ty {
    if reference == "#" {
        return Ty::atom(refs.root);
    }
    let key = reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"));
    key.map(|key| key.replace("~1", "/").replace("~0", "~"))
        .and_then(|key| refs.defs.get(&key))
        .map_or_else(Ty::unknown, Ty::atom)
}

fn literal(value: &Value) -> Ty {
    match value {
        Value::Null => Ty::atom("null"),
        Value::Bool(_) | Value::Number(_) | Value::String(_) => Ty::atom(value.to_string()),
        _ => Ty::unknown(),
    }
}

/// `A | B`, duplicates dropped; `unknown` absorbs the rest, `never` disappears.
fn union(members: Vec<Ty>) -> Ty {
    let mut kept: Vec<Ty> = Vec::new();
    for member in members {
        if member.text == "unknown" {
            return Ty::unknown();
        }
        if member.text != "never" && !kept.iter().any(|seen| seen.text == member.text) {
            kept.push(member);
        }
    }
    match kept.len() {
        0 => Ty::atom("never"),
        1 => kept.pop().unwrap_or_else(Ty::unknown),
        _ => Ty {
            text: kept
                .iter()
                .map(|member| member.at(Prec::Union))
                .collect::<Vec<_>>()
                .join(" | "),
            prec: Prec::Union,
        },
    }
}

/// `A & B`, `unknown` parts dropped; no parts at all is `unknown`.
fn intersection(parts: Vec<Ty>) -> Ty {
    let mut kept: Vec<Ty> = Vec::new();
    for part in parts {
        if part.text != "unknown" && !kept.iter().any(|seen| seen.text == part.text) {
            kept.push(part);
        }
    }
    match kept.len() {
        0 => Ty::unknown(),
        1 => kept.pop().unwrap_or_else(Ty::unknown),
        _ => Ty {
            text: kept
                .iter()
                .map(|part| part.at(Prec::Intersection))
                .collect::<Vec<_>>()
                .join(" & "),
            prec: Prec::Intersection,
        },
    }
}
