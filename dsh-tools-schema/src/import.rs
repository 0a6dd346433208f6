//! Import: raw JSON Schema (and `schemars` schemas, which are JSON Schema) into the model, where
//! it fits what the engine enforces; anything else is a [`SchemaError`] listing every problem
//! with its path.
//!
//! The rule: a keyword is accepted only when the validator enforces it or when it is a pure
//! annotation. Accepted:
//! - enforced: `type` (one type, or a `[T, "null"]` pair, which beside `enum`/`const` takes
//!   `null` only when they list it too), `properties`, `required` (missing properties are
//!   reported in its order), `additionalProperties` (boolean or schema), `items` (one schema),
//!   `enum`, `const`, `oneOf`,
//!   `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` (beside
//!   `"type": "number"` or `"integer"`), `minLength`, `maxLength`, `pattern` (ECMA-262,
//!   translated; look-around and backreferences are refused), `minItems`, `maxItems`,
//!   `uniqueItems` (beside `"type": "array"`), `minProperties`, `maxProperties` (beside
//!   `"type": "object"`);
//!   `anyOf` only in the nullable form `[<schema>, {"type": "null"}]` that schemars emits for
//!   `Option<T>`; local `$ref`s (`#/…`), inlined, with `$defs`/`definitions` as their targets,
//!   except a `$ref` back to a target still being imported: that target becomes a
//!   [`Definition`](super::Definition) and the `$ref` a reference to it (recursive schemas);
//! - annotations: `title`, `description`, `default`, `examples`, `format`, `$comment`,
//!   `deprecated`, `readOnly`, `writeOnly`, `contentEncoding`, `contentMediaType`, and `$schema`
//!   at the root. (From schemars, the integer formats `int8`…`uint64` also become the bounds of
//!   their Rust type, since deserialization enforces them.)
//!
//! Everything else (`allOf`, `not`, `if`, `prefixItems`, `patternProperties`, `propertyNames`,
//! a constraint without a `type` it applies to, remote `$ref`, …) is rejected here, and
//! [`Schema::from_json_schema`] hands the document to the keyword engine instead.
//!
//! Import is bounded: nesting deeper than [`MAX_IMPORT_DEPTH`] (counting `$ref` hops) and
//! expansion past [`MAX_IMPORT_NODES`] nodes (a `$ref` graph that doubles at every level) are
//! errors, so a hostile schema costs bounded time, memory and stack.

use serde_json::{Map, Number, Value};

use super::error::SchemaError;
use super::format::StringFormat;
use super::keywords::{KeywordSchema, SchemaImportOptions, decode_fragment};
use super::limits::{MAX_IMPORT_DEPTH, MAX_IMPORT_NODES};
use super::model::{
    AdditionalProperties, Annotations, ArrayRules, ObjectRules, Property, Schema, SchemaKind,
    StringRules,
};
use super::rules::arrays::{self, ArrayConstraints};
use super::rules::lengths::{self, Lengths};
use super::rules::matching::{self, FORMAT, Matching};
use super::rules::members::{CONST, ENUM};
use super::rules::numbers::{self, NumberRules};
use super::rules::objects::{self, ObjectConstraints};
use super::rules::read::KeywordSource;
use super::semantics::{compare_numbers, json_equal};
use std::cmp::Ordering;
use std::collections::HashMap;

/// The typed families' value keywords, in the order the accepted vocabulary names them: each
/// family lists its own (`KEYWORDS` in its file under `rules/`), so a new keyword is accepted,
/// listed and placed by its family.
const FAMILY_KEYWORDS: &[&[&str]] = &[
    numbers::KEYWORDS,
    lengths::KEYWORDS,
    matching::KEYWORDS,
    arrays::KEYWORDS,
    objects::KEYWORDS,
];

/// The accepted vocabulary, as quoted in "not a supported keyword" messages: the structure, the
/// families' value keywords, references and annotations.
fn subset() -> String {
    let mut subset =
        "type/oneOf/properties/required/additionalProperties/items/enum/const".to_owned();
    for keyword in FAMILY_KEYWORDS.iter().copied().flatten() {
        subset.push('/');
        subset.push_str(keyword);
    }
    subset.push_str("/$ref/$defs + annotations");
    subset
}

/// The keywords of the structure the validator enforces; with the families' value keywords
/// ([`is_structural`]), what constrains a value.
const STRUCTURAL: &[&str] = &[
    "type",
    "oneOf",
    "anyOf",
    "$ref",
    ENUM,
    CONST,
    "properties",
    "required",
    "additionalProperties",
    "items",
];

/// Whether `keyword` constrains a value: one of the structure's or of a typed family's.
fn is_structural(keyword: &str) -> bool {
    STRUCTURAL.contains(&keyword)
        || FAMILY_KEYWORDS
            .iter()
            .any(|family| family.contains(&keyword))
}

/// Annotations accepted and dropped (they do not change what is valid).
const IGNORED_ANNOTATIONS: &[&str] = &[
    FORMAT,
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
];

impl Schema {
    /// Imports a JSON Schema 2020-12 document into the model, or lists every problem (each with
    /// its path) in one [`SchemaError`].
    ///
    /// A document within the typed subset becomes typed nodes (what the provider views, the
    /// docs and the fastest validation read): `type` (one type, or a `[T, "null"]` pair),
    /// `properties`, `required`, `additionalProperties`, `items` (one schema), `enum`, `const`,
    /// `oneOf`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`,
    /// `minLength`, `maxLength`, `pattern`, `minItems`, `maxItems`, `uniqueItems`,
    /// `minProperties`, `maxProperties` (each beside a `type` it applies to),
    /// `anyOf` as `[<schema>, {"type": "null"}]`, local `$ref`s into
    /// `$defs`/`definitions` (inlined; a recursive one becomes a [`Schema::definition`]), and
    /// the annotations `title`, `description`, `default`, `examples`, `format`, `$comment`,
    /// `deprecated`, `readOnly`, `writeOnly`, `contentEncoding`, `contentMediaType`.
    ///
    /// Any other document becomes one node of the keyword engine: kept as written and
    /// enforced keyword by keyword (all of 2020-12's core, applicator, unevaluated, validation
    /// and format-annotation vocabularies, `format` asserted for the formats
    /// engine knows: every [`StringFormat`] but `Other`). Refused: keyword values the specification does not
    /// allow, patterns the engine cannot run (look-around, backreferences), references to
    /// nothing, remote references (see [`Schema::from_json_schema_with`]), and documents nested
    /// deeper than 64 levels (each `$ref` hop a level) or larger than 100,000 nodes once its
    /// `$ref`s are inlined.
    pub fn from_json_schema(schema: &Value) -> Result<Schema, SchemaError> {
        Self::from_json_schema_with(schema, &SchemaImportOptions::default())
    }

    /// [`Schema::from_json_schema`] as `options` say: the documents remote references name
    /// (`"$ref": "https://example.com/address.json"`), and whether `format` asserts.
    pub fn from_json_schema_with(
        schema: &Value,
        options: &SchemaImportOptions,
    ) -> Result<Schema, SchemaError> {
        let mut importer = Importer::new(schema, false);
        importer.formats_asserted = options.assert_formats;
        importer
            .run()
            .or_else(|_| KeywordSchema::with_options(schema, options).map(Schema::keywords))
    }

    /// Imports a schema produced by `schemars`, for a type from another crate
    /// (`Schema::from_schemars(&schemars::schema_for!(T))`): local `$ref`s into
    /// `$defs` are inlined, `Option<T>`'s `anyOf` becomes a nullable schema, and the integer
    /// `format`s become the bounds of their Rust type, and a set's `uniqueItems` is kept; an
    /// object with `properties` and no `additionalProperties` (a struct without
    /// `#[serde(deny_unknown_fields)]`) is closed, as a `ToolArgs` struct is, so an undeclared
    /// key is reported rather than dropped by serde (`additionalProperties: true` keeps one
    /// open); what
    /// schemars emits beyond the typed subset (`allOf`, …) becomes a node of the keyword
    /// engine, as in [`Schema::from_json_schema`].
    pub fn from_schemars(schema: &schemars::Schema) -> Result<Schema, SchemaError> {
        Importer::new(schema.as_value(), true)
            .run()
            .or_else(|_| KeywordSchema::new(schema.as_value()).map(Schema::keywords))
    }
}

struct Importer<'a> {
    root: &'a Value,
    from_schemars: bool,
    /// Whether a checked `format` asserts (else it is kept as an annotation only).
    formats_asserted: bool,
    errors: SchemaError,
    nodes: usize,
    /// The JSON pointers (decoded) of the `$ref` targets being imported, innermost last, each
    /// with whether a reference inside it came back to it: such a target becomes a
    /// definition, and the reference a [`SchemaKind::Ref`] to it. The root is `""`.
    resolving: Vec<(String, bool)>,
    /// The name the root gets should a reference come back to it: `#`, or from schemars the
    /// root's title (the Rust type's name, which is not published as a title).
    root_name: String,
}

impl<'a> Importer<'a> {
    fn new(root: &'a Value, from_schemars: bool) -> Self {
        Self {
            root,
            from_schemars,
            formats_asserted: true,
            errors: SchemaError::empty(),
            nodes: 0,
            resolving: Vec::new(),
            root_name: match root.get("title").and_then(Value::as_str) {
                Some(title) if from_schemars => title.to_owned(),
                _ => "#".to_owned(),
            },
        }
    }

    fn run(mut self) -> Result<Schema, SchemaError> {
        self.resolving.push((String::new(), false));
        let schema = self.convert(self.root, "schema", 0);
        let schema = self.defined_if_referenced(schema);
        match schema {
            Some(schema) if self.errors.is_empty() => Ok(schema),
            _ => {
                if self.errors.is_empty() {
                    // Every `None` comes with a problem; this keeps the error non-empty anyway.
                    self.errors
                        .push("schema".to_owned(), "schema is not supported".to_owned());
                }
                Err(self.errors)
            }
        }
    }

    fn problem(&mut self, path: impl Into<String>, message: impl Into<String>) {
        let (path, message) = (path.into(), message.into());
        // A `$defs` entry inlined at several places reports its problems once.
        if !self.errors.problems.iter().any(|p| p.message == message) {
            self.errors.push(path, message);
        }
    }

    fn convert(&mut self, node: &'a Value, path: &str, depth: usize) -> Option<Schema> {
        if depth > MAX_IMPORT_DEPTH {
            self.problem(
                path,
                format!("{path} nests deeper than {MAX_IMPORT_DEPTH} levels"),
            );
            return None;
        }
        self.nodes += 1;
        if self.nodes > MAX_IMPORT_NODES {
            self.problem(
                "schema",
                format!("schema expands to more than {MAX_IMPORT_NODES} nodes"),
            );
            return None;
        }
        let map = match node {
            Value::Object(map) => map,
            Value::Bool(true) => return Some(Schema::any()),
            _ => {
                self.problem(path, format!("{path} must be a schema object"));
                return None;
            }
        };
        let before = self.errors.problems.len() + self.errors.omitted;
        let annotations = self.annotations(map, path, depth == 0);
        let schema = self.convert_structure(map, path, depth);
        let clean = self.errors.problems.len() + self.errors.omitted == before;
        let mut schema = schema?;
        if !self.apply_format(map, &mut schema, path) {
            return None;
        }
        if !clean {
            return None;
        }
        merge_annotations(&mut schema.annotations, annotations);
        Some(schema)
    }

    /// Reads the annotations and reports every keyword outside the subset.
    fn annotations(
        &mut self,
        map: &'a Map<String, Value>,
        path: &str,
        is_root: bool,
    ) -> Annotations {
        let mut annotations = Annotations::default();
        for (keyword, value) in map {
            match keyword.as_str() {
                // schemars titles the root with the Rust type's name (`Nullable_DateTime`):
                // not something to show the model.
                "title" if is_root && self.from_schemars => {}
                "title" | "description" => match value.as_str() {
                    Some(text) if keyword == "title" => annotations.title = Some(text.to_owned()),
                    Some(text) => annotations.description = Some(text.to_owned()),
                    None => self.problem(
                        format!("{path}.{keyword}"),
                        format!("{path}.{keyword} must be a string"),
                    ),
                },
                "default" => annotations.default = Some(value.clone()),
                "examples" => match value {
                    Value::Array(examples) => annotations.examples = examples.clone(),
                    _ => self.problem(
                        format!("{path}.examples"),
                        format!("{path}.examples must be an array"),
                    ),
                },
                "$defs" | "definitions" => {
                    if !value.is_object() {
                        self.problem(
                            format!("{path}.{keyword}"),
                            format!("{path}.{keyword} must be an object of schemas"),
                        );
                    }
                }
                "$schema" if is_root => {}
                other if IGNORED_ANNOTATIONS.contains(&other) || is_structural(other) => {}
                other => self.problem(
                    format!("{path}.{other}"),
                    format!(
                        "{path}.{other} is not a supported keyword (subset: {})",
                        subset()
                    ),
                ),
            }
        }
        annotations
    }

    /// Keeps a checked `format` beside `schema` when the model can enforce it: on a string
    /// schema (one reached through `$ref` or a nullable `anyOf` too) it is the string's format;
    /// on a schema that takes no strings it means nothing; on one that takes strings some other
    /// way (no `type`, `enum`, `oneOf`) or already has another format it cannot be kept, which
    /// is a problem rather than a check silently dropped.
    fn apply_format(&mut self, map: &Map<String, Value>, schema: &mut Schema, path: &str) -> bool {
        let Some(name) = map.get(FORMAT).and_then(Value::as_str) else {
            return true;
        };
        let format = self.format_named(name);
        if !format.is_checked() {
            return true;
        }
        match &mut schema.kind {
            SchemaKind::String(rules)
                if rules
                    .matching
                    .format
                    .as_ref()
                    .is_none_or(|own| *own == format) =>
            {
                rules.matching.format = Some(format);
                true
            }
            SchemaKind::Number(_)
            | SchemaKind::Integer(_)
            | SchemaKind::Boolean
            | SchemaKind::Null
            | SchemaKind::Array(_)
            | SchemaKind::Object(_) => true,
            _ => {
                self.problem(
                    format!("{path}.format"),
                    format!(
                        "{path}.format \"{name}\" is supported only beside \"type\": \"string\""
                    ),
                );
                false
            }
        }
    }

    fn convert_structure(
        &mut self,
        map: &'a Map<String, Value>,
        path: &str,
        depth: usize,
    ) -> Option<Schema> {
        if let Some(reference) = map.get("$ref") {
            self.only_beside(map, path, "$ref");
            return self.resolve(reference, path, depth);
        }
        if let Some(any_of) = map.get("anyOf") {
            self.only_beside(map, path, "anyOf");
            return self.convert_nullable_any_of(any_of, path, depth);
        }
        if let Some(one_of) = map.get("oneOf") {
            if map.contains_key("type") {
                self.problem(path, format!("{path} cannot declare both type and oneOf"));
                return None;
            }
            self.only_beside(map, path, "oneOf");
            let branches = match one_of.as_array() {
                Some(branches) if branches.len() >= 2 => branches,
                _ => {
                    self.problem(
                        format!("{path}.oneOf"),
                        format!("{path}.oneOf must be an array of at least two schemas"),
                    );
                    return None;
                }
            };
            let mut converted = Vec::with_capacity(branches.len());
            for (index, branch) in branches.iter().enumerate() {
                converted.push(self.convert(branch, &format!("{path}.oneOf[{index}]"), depth + 1));
            }
            let branches: Option<Vec<Schema>> = converted.into_iter().collect();
            return Some(Schema::new(SchemaKind::OneOf(branches?)));
        }
        let Some(type_value) = map.get("type") else {
            return self.convert_untyped(map, path);
        };
        let (name, nullable) = self.read_type(type_value, path)?;
        let base = self.convert_typed(map, path, depth, name);
        let base = Schema { nullable, ..base? };
        self.restrict_to_values(map, path, name, base)
    }

    /// Reports every enforced keyword beside `keyword` (only annotations may sit beside it).
    fn only_beside(&mut self, map: &Map<String, Value>, path: &str, keyword: &str) {
        for other in map.keys() {
            if other != keyword && is_structural(other) {
                self.problem(
                    format!("{path}.{other}"),
                    format!("{path}.{other} is not supported beside {keyword}"),
                );
            }
        }
    }

    fn resolve(&mut self, reference: &'a Value, path: &str, depth: usize) -> Option<Schema> {
        let Some(reference) = reference.as_str() else {
            self.problem(
                format!("{path}.$ref"),
                format!("{path}.$ref must be a string"),
            );
            return None;
        };
        let Some(pointer) = reference.strip_prefix('#') else {
            self.problem(
                format!("{path}.$ref"),
                format!("{path}.$ref \"{reference}\" is not a local reference (#/…)"),
            );
            return None;
        };
        let pointer = decode_fragment(pointer);
        let Some(target) = self.root.pointer(&pointer) else {
            self.problem(
                format!("{path}.$ref"),
                format!("{path}.$ref \"{reference}\" does not resolve"),
            );
            return None;
        };
        if let Some(open) = self
            .resolving
            .iter_mut()
            .find(|(resolving, _)| *resolving == pointer)
        {
            // Back at a target still being imported: a recursive schema.
            open.1 = true;
            let name = self.definition_name(&pointer);
            return Some(Schema::reference(name));
        }
        self.resolving.push((pointer.clone(), false));
        let target_path = pointer_path(&pointer);
        let schema = self.convert(target, &target_path, depth + 1);
        self.defined_if_referenced(schema)
    }

    /// Closes the innermost target being imported: `schema` itself, or a definition of it when
    /// a reference inside came back to it.
    fn defined_if_referenced(&mut self, schema: Option<Schema>) -> Option<Schema> {
        let (pointer, referenced) = self.resolving.pop()?;
        let schema = schema?;
        Some(if referenced {
            Schema::definition(self.definition_name(&pointer), schema)
        } else {
            schema
        })
    }

    /// `anyOf: [X, {"type": "null"}]` (either order): `X`, nullable.
    fn convert_nullable_any_of(
        &mut self,
        any_of: &'a Value,
        path: &str,
        depth: usize,
    ) -> Option<Schema> {
        let branches = any_of.as_array().filter(|branches| branches.len() == 2);
        let null_index = branches.and_then(|branches| branches.iter().position(is_null_schema));
        let (Some(branches), Some(null_index)) = (branches, null_index) else {
            self.problem(
                format!("{path}.anyOf"),
                format!(
                    "{path}.anyOf is not supported (only the nullable form anyOf: [<schema>, {{\"type\": \"null\"}}])"
                ),
            );
            return None;
        };
        let index = 1 - null_index;
        let mut schema = self.convert(
            &branches[index],
            &format!("{path}.anyOf[{index}]"),
            depth + 1,
        )?;
        schema.nullable = true;
        Some(schema)
    }

    /// A node without `type`: an `enum`/`const` (self-typed) or any JSON value.
    fn convert_untyped(&mut self, map: &'a Map<String, Value>, path: &str) -> Option<Schema> {
        let mut ok = true;
        for keyword in map.keys() {
            if is_structural(keyword) && !matches!(keyword.as_str(), ENUM | CONST) {
                self.problem(
                    format!("{path}.{keyword}"),
                    format!("{path}.{keyword} requires type or oneOf"),
                );
                ok = false;
            }
        }
        let schema = self.restrict_to_values(map, path, "", Schema::any())?;
        ok.then_some(schema)
    }

    /// Reads `type`: one type name, or a pair with `"null"` (nullable).
    fn read_type(&mut self, value: &Value, path: &str) -> Option<(&'static str, bool)> {
        let (name, nullable) = match value {
            Value::String(name) => (name.as_str(), false),
            Value::Array(names) => {
                let strings: Option<Vec<&str>> = names.iter().map(Value::as_str).collect();
                match strings.as_deref() {
                    Some([name]) => (*name, false),
                    Some([name, "null"] | ["null", name]) if *name != "null" => (*name, true),
                    _ => {
                        self.problem(
                            format!("{path}.type"),
                            format!(
                                "{path}.type must be a single type string or a [type, \"null\"] pair (other type arrays are not supported)"
                            ),
                        );
                        return None;
                    }
                }
            }
            _ => ("", false),
        };
        let name = match name {
            "object" => "object",
            "array" => "array",
            "string" => "string",
            "number" => "number",
            "integer" => "integer",
            "boolean" => "boolean",
            "null" => "null",
            _ => {
                self.problem(
                    format!("{path}.type"),
                    format!(
                        "{path}.type must be one of object/array/string/number/integer/boolean/null"
                    ),
                );
                return None;
            }
        };
        Some((name, nullable))
    }

    fn convert_typed(
        &mut self,
        map: &'a Map<String, Value>,
        path: &str,
        depth: usize,
        name: &'static str,
    ) -> Option<Schema> {
        // The structure's keywords the type takes, and its families'.
        let (own, families): (&[&str], &[&[&str]]) = match name {
            "string" => (&[], &[lengths::KEYWORDS, matching::KEYWORDS]),
            "number" | "integer" => (&[], &[numbers::KEYWORDS]),
            "array" => (&["items"], &[arrays::KEYWORDS]),
            "object" => (
                &["properties", "required", "additionalProperties"],
                &[objects::KEYWORDS],
            ),
            _ => (&[], &[]),
        };
        let allowed = |keyword: &str| {
            own.contains(&keyword) || families.iter().any(|family| family.contains(&keyword))
        };
        let mut ok = true;
        for keyword in map.keys() {
            let keyword = keyword.as_str();
            let always = matches!(keyword, "type" | ENUM | CONST);
            if is_structural(keyword) && !always && !allowed(keyword) {
                self.problem(
                    format!("{path}.{keyword}"),
                    format!("{path}.{keyword} is not supported on type \"{name}\""),
                );
                ok = false;
            }
        }
        let kind = match name {
            "string" => {
                let mut source = self.source(map, path, &mut ok);
                let matching = Matching::read(&mut source);
                let lengths = Lengths::read(&mut source);
                SchemaKind::String(StringRules { lengths, matching })
            }
            "number" | "integer" => {
                let mut rules = NumberRules::read(&mut self.source(map, path, &mut ok));
                if name == "integer" && self.from_schemars {
                    apply_integer_format(&mut rules, map.get(FORMAT).and_then(Value::as_str));
                }
                if name == "integer" {
                    SchemaKind::Integer(rules)
                } else {
                    SchemaKind::Number(rules)
                }
            }
            "boolean" => SchemaKind::Boolean,
            "null" => SchemaKind::Null,
            "array" => {
                let items = match map.get("items") {
                    None => None,
                    Some(items @ (Value::Object(_) | Value::Bool(true))) => {
                        match self.convert(items, &format!("{path}.items"), depth + 1) {
                            Some(items) => Some(Box::new(items)),
                            None => {
                                ok = false;
                                None
                            }
                        }
                    }
                    Some(_) => {
                        self.problem(
                            format!("{path}.items"),
                            format!("{path}.items must be a schema object"),
                        );
                        ok = false;
                        None
                    }
                };
                let constraints = ArrayConstraints::read(&mut self.source(map, path, &mut ok));
                SchemaKind::Array(ArrayRules { items, constraints })
            }
            _ => SchemaKind::Object(self.convert_object(map, path, depth, &mut ok)?),
        };
        ok.then(|| Schema::new(kind))
    }

    fn convert_object(
        &mut self,
        map: &'a Map<String, Value>,
        path: &str,
        depth: usize,
        ok: &mut bool,
    ) -> Option<ObjectRules> {
        let mut properties = Vec::new();
        let mut required_order = Vec::new();
        match map.get("properties") {
            None => {}
            Some(Value::Object(declared)) => {
                for (name, schema) in declared {
                    let converted =
                        self.convert(schema, &format!("{path}.properties.{name}"), depth + 1);
                    match converted {
                        Some(schema) => properties.push(Property {
                            name: name.clone(),
                            schema,
                            required: false,
                        }),
                        None => *ok = false,
                    }
                }
            }
            Some(_) => {
                self.problem(
                    format!("{path}.properties"),
                    format!("{path}.properties must be an object of schemas"),
                );
                *ok = false;
            }
        }
        match map.get("required") {
            None => {}
            Some(Value::Array(names)) if names.iter().all(Value::is_string) => {
                // `properties` converted in declaration order (or the import already failed), so
                // a key's position is its property's index.
                let positions: HashMap<&str, usize> = map
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|declared| {
                        declared
                            .keys()
                            .enumerate()
                            .map(|(index, name)| (name.as_str(), index))
                            .collect()
                    })
                    .unwrap_or_default();
                for name in names.iter().filter_map(Value::as_str) {
                    if let Some(&index) = positions.get(name) {
                        if let Some(property) = properties.get_mut(index)
                            && property.name == name
                            && !property.required
                        {
                            property.required = true;
                            required_order.push(index);
                        }
                    } else {
                        self.problem(
                            format!("{path}.required"),
                            format!("{path}.required names \"{name}\" which is not in properties"),
                        );
                        *ok = false;
                    }
                }
            }
            Some(_) => {
                self.problem(
                    format!("{path}.required"),
                    format!("{path}.required must be an array of strings"),
                );
                *ok = false;
            }
        }
        let additional = match map.get("additionalProperties") {
            // A struct from schemars is closed, as a `ToolArgs` struct is: serde would drop an
            // undeclared key silently, so the model is told instead. A type stays open when its
            // schema says so (`additionalProperties: true`, a map's value schema).
            None if self.from_schemars && map.contains_key("properties") => {
                AdditionalProperties::Forbidden
            }
            // JSON Schema's default: undeclared keys are allowed.
            None | Some(Value::Bool(true)) => AdditionalProperties::Allowed,
            Some(Value::Bool(false)) => AdditionalProperties::Forbidden,
            Some(schema @ Value::Object(_)) => {
                let converted =
                    self.convert(schema, &format!("{path}.additionalProperties"), depth + 1);
                match converted {
                    Some(schema) => AdditionalProperties::Schema(Box::new(schema)),
                    None => {
                        *ok = false;
                        AdditionalProperties::Allowed
                    }
                }
            }
            Some(_) => {
                self.problem(
                    format!("{path}.additionalProperties"),
                    format!("{path}.additionalProperties must be a boolean or a schema object"),
                );
                *ok = false;
                AdditionalProperties::Allowed
            }
        };
        let mut rules = ObjectRules::new(properties, additional);
        rules.constraints = ObjectConstraints::read(&mut self.source(map, path, ok));
        // Declaration order needs no record; any other is kept for reports and rendering.
        if !required_order.is_sorted() {
            rules.required_order = required_order;
        }
        Some(rules)
    }

    /// Applies `enum`/`const` to `base`: the result accepts exactly the listed values that `base`
    /// accepts (members are checked against the type first).
    fn restrict_to_values(
        &mut self,
        map: &'a Map<String, Value>,
        path: &str,
        type_name: &str,
        base: Schema,
    ) -> Option<Schema> {
        let members = map.get(ENUM);
        let constant = map.get(CONST);
        if members.is_none() && constant.is_none() {
            return Some(base);
        }
        let type_phrase = if type_name.is_empty() {
            "JSON"
        } else {
            type_name
        };
        let fits =
            |value: &Value| type_name.is_empty() || fits_type(value, type_name, base.nullable);
        let mut ok = true;
        if let Some(members) = members {
            let good = members
                .as_array()
                .is_some_and(|list| !list.is_empty() && list.iter().all(fits));
            if !good {
                self.problem(
                    format!("{path}.enum"),
                    format!("{path}.enum must be a non-empty array of {type_phrase} values"),
                );
                ok = false;
            }
        }
        if let Some(constant) = constant {
            if !fits(constant) {
                let article = if type_phrase.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                self.problem(
                    format!("{path}.const"),
                    format!("{path}.const must be {article} {type_phrase} value"),
                );
                ok = false;
            } else if let Some(list) = members.and_then(Value::as_array)
                && !list.iter().any(|member| json_equal(member, constant))
            {
                self.problem(
                    format!("{path}.const"),
                    format!("{path}.const must be one of {path}.enum when both are declared"),
                );
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        let annotations = base.annotations.clone();
        // The listed values that also satisfy the type's constraints (`minLength` beside `enum`
        // and the like) are exactly what the node accepts.
        let kind = match constant {
            Some(constant) => SchemaKind::Const(constant.clone()),
            None => SchemaKind::Enum(
                members
                    .and_then(Value::as_array)
                    .map(|list| list.iter().filter(|m| base.is_valid(m)).cloned().collect())
                    .unwrap_or_default(),
            ),
        };
        let satisfiable = match &kind {
            SchemaKind::Const(constant) => base.is_valid(constant),
            SchemaKind::Enum(kept) => !kept.is_empty(),
            _ => true,
        };
        if !satisfiable {
            let keyword = if constant.is_some() { CONST } else { ENUM };
            self.problem(
                format!("{path}.{keyword}"),
                format!("{path}.{keyword} has no value that satisfies the other keywords"),
            );
            return None;
        }
        // `null` passes a nullable type (`["integer", "null"]`), but `enum`/`const` must list it
        // too: the node accepts only what every keyword accepts. When both do, the flag says so
        // and the members keep the type's values, so the node renders as it was written.
        let mut kind = kind;
        let nullable = base.nullable
            && match &mut kind {
                SchemaKind::Const(constant) => constant.is_null(),
                SchemaKind::Enum(kept) if kept.len() > 1 && kept.iter().any(Value::is_null) => {
                    kept.retain(|member| !member.is_null());
                    true
                }
                SchemaKind::Enum(kept) => kept.iter().any(Value::is_null),
                _ => false,
            };
        Some(Schema {
            kind,
            nullable,
            annotations,
        })
    }

    /// The schema object `map` at `path`, for its families to read their keywords from: a
    /// keyword they refuse is a problem at its path, and clears `ok`.
    fn source<'i>(
        &'i mut self,
        map: &'i Map<String, Value>,
        path: &'i str,
        ok: &'i mut bool,
    ) -> Source<'i, 'a> {
        Source {
            importer: self,
            map,
            path,
            ok,
        }
    }
}

/// One schema object being imported, as its families read it ([`KeywordSource`]).
struct Source<'i, 'a> {
    importer: &'i mut Importer<'a>,
    map: &'i Map<String, Value>,
    path: &'i str,
    ok: &'i mut bool,
}

impl KeywordSource for Source<'_, '_> {
    fn get(&self, keyword: &str) -> Option<&Value> {
        self.map.get(keyword)
    }

    fn refuse(&mut self, keyword: &str, why: &str) {
        let path = self.path;
        self.importer.problem(
            format!("{path}.{keyword}"),
            format!("{path}.{keyword} {why}"),
        );
        *self.ok = false;
    }

    fn format_named(&self, name: &str) -> StringFormat {
        self.importer.format_named(name)
    }
}

/// Outer annotations (beside a `$ref` or `anyOf`) win over the inlined target's.
fn merge_annotations(into: &mut Annotations, outer: Annotations) {
    if outer.title.is_some() {
        into.title = outer.title;
    }
    if outer.description.is_some() {
        into.description = outer.description;
    }
    if outer.default.is_some() {
        into.default = outer.default;
    }
    if !outer.examples.is_empty() {
        into.examples = outer.examples;
    }
}

fn is_null_schema(value: &Value) -> bool {
    value.as_object().is_some_and(|map| {
        map.get("type").and_then(Value::as_str) == Some("null")
            && map.keys().all(|key| key == "type" || !is_structural(key))
    })
}

fn fits_type(value: &Value, type_name: &str, nullable: bool) -> bool {
    match value {
        Value::Null => nullable || type_name == "null",
        Value::Bool(_) => type_name == "boolean",
        Value::Number(number) => {
            type_name == "number"
                || (type_name == "integer" && super::semantics::is_integral(number))
        }
        Value::String(_) => type_name == "string",
        Value::Array(_) | Value::Object(_) => false,
    }
}

/// The bounds of the Rust integer type a schemars `format` names, tightened into `rules`.
fn apply_integer_format(rules: &mut NumberRules, format: Option<&str>) {
    let (min, max): (Number, Number) = match format {
        Some("int8") => (i8::MIN.into(), i8::MAX.into()),
        Some("int16") => (i16::MIN.into(), i16::MAX.into()),
        Some("int32") => (i32::MIN.into(), i32::MAX.into()),
        Some("int64" | "int") => (i64::MIN.into(), i64::MAX.into()),
        Some("uint8") => (0.into(), u8::MAX.into()),
        Some("uint16") => (0.into(), u16::MAX.into()),
        Some("uint32") => (0.into(), u32::MAX.into()),
        Some("uint64" | "uint") => (0.into(), u64::MAX.into()),
        _ => return,
    };
    rules.implied_by_type = true;
    if rules
        .minimum
        .as_ref()
        .is_none_or(|current| compare_numbers(current, &min) == Ordering::Less)
    {
        rules.minimum = Some(min);
    }
    if rules
        .maximum
        .as_ref()
        .is_none_or(|current| compare_numbers(current, &max) == Ordering::Greater)
    {
        rules.maximum = Some(max);
    }
}

/// `/$defs/Foo` as a problem path: `schema.$defs.Foo`.
fn pointer_path(pointer: &str) -> String {
    let mut path = String::from("schema");
    for segment in pointer.split('/').skip(1) {
        path.push('.');
        path.push_str(&segment.replace("~1", "/").replace("~0", "~"));
    }
    path
}

impl Importer<'_> {
    /// The format `name`, checked only when formats assert.
    fn format_named(&self, name: &str) -> StringFormat {
        if self.formats_asserted {
            StringFormat::from(name)
        } else {
            StringFormat::Other(name.to_owned())
        }
    }

    /// The name of the definition an imported recursive `$ref` target becomes: `#` and its JSON
    /// pointer, or the root's name.
    fn definition_name(&self, pointer: &str) -> String {
        if pointer.is_empty() {
            self.root_name.clone()
        } else {
            format!("#{pointer}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{is_structural, subset};

    /// The vocabulary the "not a supported keyword" message quotes, gathered from the families'
    /// lists, reads as it always has.
    #[test]
    fn the_quoted_vocabulary_keeps_its_wording() {
        assert_eq!(
            subset(),
            "type/oneOf/properties/required/additionalProperties/items/enum/const/minimum/\
             maximum/exclusiveMinimum/exclusiveMaximum/multipleOf/minLength/maxLength/pattern/\
             minItems/maxItems/uniqueItems/minProperties/maxProperties/$ref/$defs + annotations"
        );
        assert!(is_structural("multipleOf") && is_structural("items"));
        assert!(!is_structural("format") && !is_structural("title"));
    }
}
