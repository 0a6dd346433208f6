//! Rendering a [`Schema`] as JSON Schema 2020-12: what a tool's `parameters` carries.
//!
//! Subschemas are inlined (no `$ref`: many clients and providers cannot resolve one), except a
//! definition ([`SchemaKind::Defined`], what a recursive type becomes): it is published once
//! under the root's `$defs`, by a key made from its name, and every use of it and every
//! reference back to it is a `{"$ref": "#/$defs/<key>"}`. A definition that is the root itself
//! (a tool whose arguments are a recursive struct) stays inline and its references are
//! `{"$ref": "#"}`, so the root is still an object. Every node writes its keys in one fixed order, so the same schema renders byte-identical output on
//! every run and prompt caches stay warm. The rendered schema accepts exactly what the validator
//! accepts; the differential tests hold the two together.
//!
//! Key order of a node: `title`, `description`, `type`, `enum`/`const`, string constraints
//! (`minLength`, `maxLength`, `pattern`, `format`), number constraints (`minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`), `items`, `minItems`, `maxItems`,
//! `uniqueItems`, `properties`, `required`, `additionalProperties`, `minProperties`,
//! `maxProperties`, `oneOf`/`anyOf`, `default`, `examples`; the root's `$defs` last. A `$ref`
//! takes the place of `type` (its annotations beside it, `anyOf` with `{"type": "null"}` around
//! it when nullable).
//!
//! Nullable schemas render in the forms both providers and validators read: a type array
//! (`"type": ["string", "null"]`), `null` added to an `enum` (a nullable `const` becomes a
//! two-member `enum`), and for `oneOf` a `{"type": "null"}` branch, or an
//! `anyOf: [{"oneOf": …}, {"type": "null"}]` wrapper when branches already accept `null`.

use serde_json::{Map, Value};

use super::keywords::KeywordSchema;
use super::model::{AdditionalProperties, Annotations, Definition, Schema, SchemaKind};
use super::rules::members::{CONST, ENUM};
use super::semantics::is_integral;

impl Schema {
    /// The JSON Schema of this schema, as a tool's `parameters` carries it (no `$schema` key).
    pub fn to_json_schema(&self) -> Value {
        Value::Object(Renderer::document(self))
    }
}

/// [`Schema::to_json_schema`], except that a reference with no enclosing definition names a
/// schema published elsewhere and is rendered as `{"$ref": "<name>"}`: what rustdoc shows for a
/// type whose schema is on its own page (`derive::documented_json_schema`).
pub(crate) fn render_with_external_references(schema: &Schema) -> Map<String, Value> {
    Renderer::document_with(
        schema,
        Renderer {
            external_references: true,
            ..Renderer::default()
        },
    )
}

/// What rendering one document keeps: the definitions published under `$defs` and the keys of
/// those that enclose the node being rendered.
#[derive(Default)]
struct Renderer<'s> {
    /// A reference with no enclosing definition is `{"$ref": "<name>"}` rather than matching
    /// nothing (`{"not": {}}`).
    external_references: bool,
    /// Published definitions: name, schema, key, rendered body (in first-use order).
    published: Vec<(&'s str, &'s Schema, String, Map<String, Value>)>,
    /// The definitions enclosing the current node, innermost last: name and `$ref` target.
    enclosing: Vec<(&'s str, String)>,
}

impl<'s> Renderer<'s> {
    fn document(schema: &'s Schema) -> Map<String, Value> {
        Self::document_with(schema, Renderer::default())
    }

    fn document_with(schema: &'s Schema, mut renderer: Renderer<'s>) -> Map<String, Value> {
        let mut out = match &schema.kind {
            // The root definition stays inline: a tool's arguments must be an object at the root.
            SchemaKind::Defined(definition) if !schema.nullable => {
                renderer.enclosing.push((&definition.name, "#".to_owned()));
                let mut out = renderer.render(&definition.schema);
                overlay(&mut out, &schema.annotations);
                out
            }
            // A keyword document at the root is the document as written.
            SchemaKind::Keywords(keywords) if !schema.nullable => {
                let mut out = keyword_body(keywords.as_json());
                overlay(&mut out, &schema.annotations);
                out
            }
            _ => renderer.render(schema),
        };
        if !renderer.published.is_empty() {
            let defs = renderer
                .published
                .into_iter()
                .map(|(_, _, key, body)| (key, Value::Object(body)))
                .collect();
            out.insert("$defs".to_owned(), Value::Object(defs));
        }
        out
    }

    /// The `$ref` target of `definition`, publishing it at its first use.
    fn publish(&mut self, definition: &'s Definition) -> String {
        let existing = self
            .published
            .iter()
            .find(|(name, schema, _, _)| *name == definition.name && **schema == definition.schema);
        if let Some((_, _, key, _)) = existing {
            return format!("#/$defs/{key}");
        }
        let key = self.fresh_key(definition);
        let target = format!("#/$defs/{key}");
        let slot = self.published.len();
        self.published
            .push((&definition.name, &definition.schema, key, Map::new()));
        self.enclosing.push((&definition.name, target.clone()));
        let body = self.render(&definition.schema);
        self.enclosing.pop();
        self.published[slot].3 = body;
        target
    }

    /// A `$defs` key for `definition` that no published definition has: its name's last path
    /// segment, without module paths, in characters every client takes; a definition of a
    /// whole document (`#`, what an imported root that refers to itself is) goes by its title.
    fn fresh_key(&self, definition: &Definition) -> String {
        let name = match &definition.schema.annotations.title {
            Some(title) if definition.name == "#" => title.as_str(),
            _ => &definition.name,
        };
        self.fresh_key_for(name)
    }

    /// A `$defs` key made from `name` that no published definition has.
    fn fresh_key_for(&self, name: &str) -> String {
        let base = definition_key(name);
        let taken = |key: &str| self.published.iter().any(|(_, _, taken, _)| taken == key);
        if !taken(&base) {
            return base;
        }
        (2..)
            .map(|n| format!("{base}_{n}"))
            .find(|key| !taken(key))
            .unwrap_or(base)
    }

    /// A keyword document inside a larger schema: as written when it refers to nothing of
    /// itself; else published under the root's `$defs` with its own references moved there
    /// (`#/$defs/a` becomes `#/$defs/<key>/$defs/a`), and referred to.
    fn keywords(&mut self, schema: &'s Schema, keywords: &KeywordSchema) -> Map<String, Value> {
        let source = keywords.as_json();
        if !refers_to_itself(source) {
            let body = keyword_body(source);
            let mut out = if schema.nullable {
                let mut out = Map::new();
                out.insert(
                    "anyOf".to_owned(),
                    Value::Array(vec![Value::Object(body), null_schema()]),
                );
                out
            } else {
                body
            };
            overlay(&mut out, &schema.annotations);
            return out;
        }
        let existing = self
            .published
            .iter()
            .find(|(name, published, _, _)| name.is_empty() && published.kind == schema.kind);
        let target = match existing {
            Some((_, _, key, _)) => format!("#/$defs/{key}"),
            None => {
                let title = source
                    .get("title")
                    .and_then(Value::as_str)
                    .unwrap_or("Schema");
                let key = self.fresh_key_for(title);
                let mut body = keyword_body(source);
                relocate_references(&mut body, &format!("#/$defs/{key}"));
                let target = format!("#/$defs/{key}");
                self.published.push(("", schema, key, body));
                target
            }
        };
        self.reference(schema, &target)
    }

    /// A `$ref` to `target`, with the node's annotations beside it.
    fn reference(&self, schema: &Schema, target: &str) -> Map<String, Value> {
        let mut reference = Map::new();
        reference.insert("$ref".to_owned(), Value::from(target));
        let mut out = if schema.nullable {
            let mut out = Map::new();
            out.insert(
                "anyOf".to_owned(),
                Value::Array(vec![Value::Object(reference), null_schema()]),
            );
            out
        } else {
            reference
        };
        overlay(&mut out, &schema.annotations);
        out
    }

    fn render(&mut self, schema: &'s Schema) -> Map<String, Value> {
        let mut out = Map::new();
        let annotations = &schema.annotations;
        put_names(&mut out, annotations);
        let nullable = schema.nullable;
        match &schema.kind {
            SchemaKind::String(rules) => {
                put_type(&mut out, "string", nullable);
                rules.lengths.render(&mut out);
                rules.matching.render(&mut out);
            }
            SchemaKind::Number(rules) | SchemaKind::Integer(rules) => {
                let name = if matches!(schema.kind, SchemaKind::Integer(_)) {
                    "integer"
                } else {
                    "number"
                };
                put_type(&mut out, name, nullable);
                rules.render(&mut out);
            }
            SchemaKind::Boolean => put_type(&mut out, "boolean", nullable),
            SchemaKind::Null => put_type(&mut out, "null", false),
            SchemaKind::Array(rules) => {
                put_type(&mut out, "array", nullable);
                if let Some(items) = &rules.items {
                    out.insert("items".to_owned(), Value::Object(self.render(items)));
                }
                rules.constraints.render(&mut out);
            }
            SchemaKind::Object(rules) => {
                put_type(&mut out, "object", nullable);
                // A map renders without `properties`; any other object lists them, even when there
                // are none, because providers expect the key on a tool's parameters.
                let is_map = matches!(rules.additional, AdditionalProperties::Schema(_));
                if !rules.properties.is_empty() || !is_map {
                    let properties = rules
                        .properties
                        .iter()
                        .map(|property| {
                            (
                                property.name.clone(),
                                Value::Object(self.render(&property.schema)),
                            )
                        })
                        .collect();
                    out.insert("properties".to_owned(), Value::Object(properties));
                }
                let required: Vec<Value> = rules
                    .required_indices()
                    .into_iter()
                    .map(|index| Value::from(rules.properties[index].name.as_str()))
                    .collect();
                if !required.is_empty() {
                    out.insert("required".to_owned(), Value::Array(required));
                }
                let additional = match &rules.additional {
                    AdditionalProperties::Forbidden => Value::Bool(false),
                    AdditionalProperties::Allowed => Value::Bool(true),
                    AdditionalProperties::Schema(values) => Value::Object(self.render(values)),
                };
                out.insert("additionalProperties".to_owned(), additional);
                rules.constraints.render(&mut out);
            }
            SchemaKind::Any => {}
            SchemaKind::Enum(members) => {
                if let Some(name) = common_type(members) {
                    put_type(&mut out, name, nullable);
                }
                let mut members = members.clone();
                if nullable && !members.iter().any(Value::is_null) {
                    members.push(Value::Null);
                }
                out.insert(ENUM.to_owned(), Value::Array(members));
            }
            SchemaKind::Const(constant) => {
                if let Some(name) = common_type(std::slice::from_ref(constant)) {
                    put_type(&mut out, name, nullable);
                }
                if nullable && !constant.is_null() {
                    out.insert(
                        ENUM.to_owned(),
                        Value::Array(vec![constant.clone(), Value::Null]),
                    );
                } else {
                    out.insert(CONST.to_owned(), constant.clone());
                }
            }
            SchemaKind::OneOf(branches) => {
                let mut rendered: Vec<Value> = branches
                    .iter()
                    .map(|branch| Value::Object(self.render(branch)))
                    .collect();
                let null_branches = if nullable {
                    branches
                        .iter()
                        .filter(|branch| branch.is_valid(&Value::Null))
                        .count()
                } else {
                    1
                };
                match null_branches {
                    // `null` already matches exactly one branch: nullable changes nothing.
                    1 => {
                        out.insert("oneOf".to_owned(), Value::Array(rendered));
                    }
                    // No branch takes `null`: a `null` branch makes it match exactly one.
                    0 => {
                        rendered.push(null_schema());
                        out.insert("oneOf".to_owned(), Value::Array(rendered));
                    }
                    // Several branches take `null`: only a wrapper can accept it.
                    _ => {
                        let mut one_of = Map::new();
                        one_of.insert("oneOf".to_owned(), Value::Array(rendered));
                        out.insert(
                            "anyOf".to_owned(),
                            Value::Array(vec![Value::Object(one_of), null_schema()]),
                        );
                    }
                }
            }
            SchemaKind::Defined(definition) => {
                let target = self.publish(definition);
                return self.reference(schema, &target);
            }
            SchemaKind::Keywords(keywords) => return self.keywords(schema, keywords),
            SchemaKind::Ref(name) => {
                let target = self
                    .enclosing
                    .iter()
                    .rev()
                    .find(|(defined, _)| *defined == name)
                    .map(|(_, target)| target.clone());
                return match target {
                    Some(target) => self.reference(schema, &target),
                    None if self.external_references => self.reference(schema, name),
                    // A reference outside its definition matches nothing; so does `not: {}`.
                    None => {
                        let mut out = Map::new();
                        out.insert("not".to_owned(), Value::Object(Map::new()));
                        out
                    }
                };
            }
        }
        put_values(&mut out, annotations);
        out
    }
}

/// A keyword document as the map a node renders: booleans in their object forms, and without
/// `$schema`, which only a document's root may carry.
fn keyword_body(source: &Value) -> Map<String, Value> {
    match source {
        Value::Object(map) => {
            let mut body = map.clone();
            body.remove("$schema");
            body
        }
        Value::Bool(false) => {
            let mut body = Map::new();
            body.insert("not".to_owned(), Value::Object(Map::new()));
            body
        }
        _ => Map::new(),
    }
}

/// The keywords whose values are data rather than schemas: references are not looked for in
/// them.
const DATA_KEYWORDS: &[&str] = &[ENUM, CONST, "default", "examples"];

/// Whether a keyword document has a reference into itself (`#`, `#/…` or `#name`) outside
/// subschemas with their own `$id`, whose references resolve against that.
fn refers_to_itself(source: &Value) -> bool {
    let Value::Object(map) = source else {
        return false;
    };
    if map.contains_key("$id") {
        return false;
    }
    fn walk(map: &Map<String, Value>) -> bool {
        map.iter().any(|(key, value)| {
            if DATA_KEYWORDS.contains(&key.as_str()) {
                return false;
            }
            if matches!(key.as_str(), "$ref" | "$dynamicRef") {
                return value.as_str().is_some_and(|target| target.starts_with('#'));
            }
            inner(value)
        })
    }
    fn inner(value: &Value) -> bool {
        match value {
            Value::Object(map) => !map.contains_key("$id") && walk(map),
            Value::Array(items) => items.iter().any(inner),
            _ => false,
        }
    }
    walk(map)
}

/// Rewrites the JSON-pointer references of a keyword document moved to `location`.
fn relocate_references(body: &mut Map<String, Value>, location: &str) {
    for (key, value) in body.iter_mut() {
        if DATA_KEYWORDS.contains(&key.as_str()) {
            continue;
        }
        if matches!(key.as_str(), "$ref" | "$dynamicRef") {
            if let Value::String(target) = value {
                if target == "#" {
                    *target = location.to_owned();
                } else if let Some(pointer) = target.strip_prefix("#/") {
                    *target = format!("{location}/{pointer}");
                }
            }
            continue;
        }
        relocate_value(value, location);
    }
}

fn relocate_value(value: &mut Value, location: &str) {
    match value {
        Value::Object(map) if !map.contains_key("$id") => relocate_references(map, location),
        Value::Array(items) => {
            for item in items {
                relocate_value(item, location);
            }
        }
        _ => {}
    }
}

/// Sets the annotations a use of a definition or a reference has over what it refers to.
fn overlay(out: &mut Map<String, Value>, annotations: &Annotations) {
    put_names(out, annotations);
    put_values(out, annotations);
}

/// `title` and `description`, which a node writes first.
fn put_names(out: &mut Map<String, Value>, annotations: &Annotations) {
    if let Some(title) = &annotations.title {
        out.insert("title".to_owned(), Value::from(title.as_str()));
    }
    if let Some(description) = &annotations.description {
        out.insert("description".to_owned(), Value::from(description.as_str()));
    }
}

/// `default` and `examples`, which a node writes last.
fn put_values(out: &mut Map<String, Value>, annotations: &Annotations) {
    if let Some(default) = &annotations.default {
        out.insert("default".to_owned(), default.clone());
    }
    if !annotations.examples.is_empty() {
        out.insert(
            "examples".to_owned(),
            Value::Array(annotations.examples.clone()),
        );
    }
}

/// The `$defs` key of the definition `name`: a Rust path's type names without their modules
/// (`my_crate::Outline<alloc::string::String>` is `Outline_String`), a JSON pointer's last
/// segment, in ASCII letters, digits and `_`.
fn definition_key(name: &str) -> String {
    let last = name.rsplit('/').next().unwrap_or(name);
    let mut key = String::with_capacity(last.len());
    let mut word = String::new();
    let mut chars = last.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if c == ':' && chars.peek() == Some(&':') {
            // A module: what came before it is not part of the type's name.
            chars.next();
            word.clear();
            continue;
        }
        flush_word(&mut key, &mut word);
    }
    flush_word(&mut key, &mut word);
    if key.is_empty() {
        key.push_str("definition");
    }
    key
}

fn flush_word(key: &mut String, word: &mut String) {
    if word.is_empty() {
        return;
    }
    if !key.is_empty() {
        key.push('_');
    }
    key.push_str(word);
    word.clear();
}

fn null_schema() -> Value {
    let mut out = Map::new();
    out.insert("type".to_owned(), Value::from("null"));
    Value::Object(out)
}

fn put_type(out: &mut Map<String, Value>, name: &'static str, nullable: bool) {
    let value = if nullable && name != "null" {
        Value::Array(vec![Value::from(name), Value::from("null")])
    } else {
        Value::from(name)
    };
    out.insert("type".to_owned(), value);
}

/// The one JSON type every member has (`integer` when all numbers are integral), if any; a
/// redundant `type` beside `enum`/`const` helps providers that require one.
fn common_type(members: &[Value]) -> Option<&'static str> {
    let first = members.first()?;
    let name = match first {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => {
            if members
                .iter()
                .all(|m| m.as_number().is_some_and(is_integral))
            {
                "integer"
            } else {
                "number"
            }
        }
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let same = |member: &Value| match first {
        Value::Null => member.is_null(),
        Value::Bool(_) => member.is_boolean(),
        Value::Number(_) => member.is_number(),
        Value::String(_) => member.is_string(),
        Value::Array(_) => member.is_array(),
        Value::Object(_) => member.is_object(),
    };
    members.iter().all(same).then_some(name)
}
