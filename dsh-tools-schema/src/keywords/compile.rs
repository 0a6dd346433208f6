//! Compiling a JSON Schema document into the [`Arena`]: a scan of each document for its
//! resources (`$id`) and anchors (`$anchor`, `$dynamicAnchor`), then every schema reachable from
//! the root compiled once, references resolved to the nodes they name (loading the documents
//! of remote references from the resolver).
//!
//! Problems are collected, not stopped at: a keyword whose value is not what the specification
//! allows (`"minLength": -1`), a `pattern` the engine cannot run, a reference that names nothing
//! or a remote document the resolver does not have, each with its path.

use std::collections::HashMap;

use serde_json::{Map, Number, Value};

use super::super::error::{SchemaError, pattern_refusal};
use super::super::format::StringFormat;
use super::super::key::Key;
use super::super::limits::{MAX_IMPORT_DEPTH, MAX_IMPORT_NODES};
use super::super::pattern::Pattern;
use super::super::rules::arrays::ArrayConstraints;
use super::super::rules::counts::Counts;
use super::super::rules::lengths::Lengths;
use super::super::rules::matching::Matching;
use super::super::rules::members::{CONST, ENUM};
use super::super::rules::numbers::NumberRules;
use super::super::rules::objects;
use super::super::rules::read::KeywordSource;
use super::super::violation::JsonType;
use super::node::{
    Arena, ArrayKeywords, ArrayShape, Condition, DynamicReference, Node, NodeId, ObjectKeywords,
    Property, Resource, Rules, StringKeywords,
};
use super::options::SchemaImportOptions;
use super::simplify::simplify;
use super::uri::{DEFAULT_BASE, decode_fragment, resolve, split_fragment};

/// What a `type` that names no JSON type is told.
const TYPE_NAMES: &str = "must be one of object/array/string/number/integer/boolean/null \
(or an array of them)";

/// Keywords whose value is one schema.
const SCHEMA_KEYWORDS: &[&str] = &[
    "items",
    "contains",
    "additionalProperties",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Keywords whose value maps names to schemas.
const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is a list of schemas.
const SCHEMA_LIST_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// One document taking part: the root, or one the resolver gave for a remote reference.
struct Document<'a> {
    json: &'a Value,
    /// How problems in it are named: `schema` for the root, else its URI.
    name: String,
    /// Whether its meta-schema takes in the validation vocabulary (every one does but a
    /// custom meta-schema whose `$vocabulary` leaves it out).
    validation: bool,
}

/// The vocabularies of 2020-12, which a meta-schema's `$vocabulary` may require.
const VOCABULARY: &str = "https://json-schema.org/draft/2020-12/vocab/";
const KNOWN_VOCABULARIES: &[&str] = &[
    "core",
    "applicator",
    "unevaluated",
    "validation",
    "meta-data",
    "format-annotation",
    "format-assertion",
    "content",
];

/// Where a schema sits: a document and a JSON pointer into it.
type Location = (usize, String);

/// What the scan learned of a location that holds a schema.
#[derive(Clone)]
struct Scanned {
    /// The base URI references inside it resolve against.
    base: String,
    resource: u32,
}

/// A resource: the location of its root.
struct ResourceRoot {
    location: Location,
    index: u32,
}

pub(crate) struct Compiler<'a> {
    options: &'a SchemaImportOptions,
    documents: Vec<Document<'a>>,
    /// Resources by their URI (without fragment).
    resources: HashMap<String, ResourceRoot>,
    /// Plain-name fragments by resource URI and name: the location, and whether it is a
    /// `$dynamicAnchor`.
    anchors: HashMap<(String, String), (Location, bool)>,
    scanned: HashMap<Location, Scanned>,
    located: HashMap<Location, NodeId>,
    pending: Vec<(NodeId, Location)>,
    arena: Arena,
    errors: SchemaError,
}

impl<'a> Compiler<'a> {
    pub(crate) fn new(options: &'a SchemaImportOptions) -> Self {
        Self {
            options,
            documents: Vec::new(),
            resources: HashMap::new(),
            anchors: HashMap::new(),
            scanned: HashMap::new(),
            located: HashMap::new(),
            pending: Vec::new(),
            arena: Arena::default(),
            errors: SchemaError::empty(),
        }
    }

    /// Compiles `root` and everything it reaches.
    pub(crate) fn compile(mut self, root: &'a Value) -> Result<Arena, SchemaError> {
        let document = self.load(root, DEFAULT_BASE, "schema".to_owned());
        // A document too deep to scan is not compiled at all: its nodes would be as deep.
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        self.arena.root = self.node_at((document, String::new()));
        while let Some((id, location)) = self.pending.pop() {
            let node = self.compile_node(&location);
            self.arena.nodes[id as usize] = node;
            if self.arena.nodes.len() > MAX_IMPORT_NODES {
                self.errors.push(
                    "schema".to_owned(),
                    format!("schema expands to more than {MAX_IMPORT_NODES} nodes"),
                );
                break;
            }
        }
        if self.errors.is_empty() {
            simplify(&mut self.arena);
            Ok(self.arena)
        } else {
            Err(self.errors)
        }
    }

    // -----------------------------------------------------------------------------------------
    // documents and their scan
    // -----------------------------------------------------------------------------------------

    /// Takes a document in, registered at `uri`, and scans it; returns its index.
    fn load(&mut self, json: &'a Value, uri: &str, name: String) -> usize {
        let index = self.documents.len();
        let validation = self.validation_vocabulary(json, &name);
        self.documents.push(Document {
            json,
            name,
            validation,
        });
        let resource = self.add_resource(uri, (index, String::new()));
        self.scan(json, index, String::new(), uri.to_owned(), resource, 0);
        index
    }

    /// Whether the meta-schema `json` names (`$schema`) takes in the validation vocabulary: a
    /// meta-schema the import was given may list its vocabularies (`$vocabulary`); one that
    /// requires a vocabulary the engine does not know is refused.
    fn validation_vocabulary(&mut self, json: &Value, name: &str) -> bool {
        let Some(uri) = json.get("$schema").and_then(Value::as_str) else {
            return true;
        };
        let Some(Value::Object(vocabularies)) = self
            .options
            .document(split_fragment(uri).0)
            .and_then(|meta| meta.get("$vocabulary"))
        else {
            return true;
        };
        for (vocabulary, required) in vocabularies {
            let known = vocabulary
                .strip_prefix(VOCABULARY)
                .is_some_and(|name| KNOWN_VOCABULARIES.contains(&name));
            if !known && required == &Value::Bool(true) {
                self.problem(
                    format!("{name}.$schema"),
                    format!(
                        "{name}.$schema requires the vocabulary {vocabulary:?}, which the engine \
                         does not know"
                    ),
                );
            }
        }
        vocabularies.contains_key(&format!("{VOCABULARY}validation"))
    }

    fn add_resource(&mut self, uri: &str, location: Location) -> u32 {
        let (uri, _) = split_fragment(uri);
        if let Some(existing) = self.resources.get(uri) {
            return existing.index;
        }
        let index = self.arena.resources.len() as u32;
        self.arena.resources.push(Resource::default());
        self.resources
            .insert(uri.to_owned(), ResourceRoot { location, index });
        index
    }

    /// Records the resources and anchors of the schema at `pointer` and of those inside it.
    fn scan(
        &mut self,
        node: &'a Value,
        document: usize,
        pointer: String,
        mut base: String,
        mut resource: u32,
        depth: usize,
    ) {
        if depth > MAX_IMPORT_DEPTH {
            let path = self.path(document, &pointer);
            self.problem(
                path.clone(),
                format!("{path} nests deeper than {MAX_IMPORT_DEPTH} levels"),
            );
            return;
        }
        let Value::Object(map) = node else {
            self.scanned
                .insert((document, pointer), Scanned { base, resource });
            return;
        };
        if let Some(Value::String(id)) = map.get("$id") {
            let (uri, _) = split_fragment(id);
            base = resolve(&base, uri);
            resource = self.add_resource(&base, (document, pointer.clone()));
        }
        let (resource_uri, _) = split_fragment(&base);
        let resource_uri = resource_uri.to_owned();
        for (keyword, dynamic) in [("$anchor", false), ("$dynamicAnchor", true)] {
            if let Some(Value::String(name)) = map.get(keyword) {
                let location = (document, pointer.clone());
                let entry = self
                    .anchors
                    .entry((resource_uri.clone(), name.clone()))
                    .or_insert((location.clone(), dynamic));
                entry.1 |= dynamic;
                if dynamic {
                    let id = self.node_at(location);
                    let name = self.arena.anchor_name(name);
                    self.arena.resources[resource as usize]
                        .dynamic_anchors
                        .push((name, id));
                }
            }
        }
        self.scanned.insert(
            (document, pointer.clone()),
            Scanned {
                base: base.clone(),
                resource,
            },
        );
        for (keyword, value) in map {
            let keyword = keyword.as_str();
            let child = |suffix: &str| format!("{pointer}/{}{suffix}", escape(keyword));
            if SCHEMA_KEYWORDS.contains(&keyword) {
                self.scan(
                    value,
                    document,
                    child(""),
                    base.clone(),
                    resource,
                    depth + 1,
                );
            } else if SCHEMA_MAP_KEYWORDS.contains(&keyword) {
                if let Value::Object(entries) = value {
                    for (name, schema) in entries {
                        let at = child(&format!("/{}", escape(name)));
                        self.scan(schema, document, at, base.clone(), resource, depth + 1);
                    }
                }
            } else if SCHEMA_LIST_KEYWORDS.contains(&keyword)
                && let Value::Array(list) = value
            {
                for (index, schema) in list.iter().enumerate() {
                    let at = child(&format!("/{index}"));
                    self.scan(schema, document, at, base.clone(), resource, depth + 1);
                }
            }
        }
    }

    /// What the scan knows of `location`, or of the nearest schema around it (a reference
    /// may point into a place no keyword makes a schema).
    fn scanned(&self, location: &Location) -> Scanned {
        let (document, pointer) = location;
        let mut prefix = pointer.as_str();
        loop {
            if let Some(scanned) = self.scanned.get(&(*document, prefix.to_owned())) {
                return scanned.clone();
            }
            match prefix.rfind('/') {
                Some(slash) => prefix = &prefix[..slash],
                None => {
                    return Scanned {
                        base: DEFAULT_BASE.to_owned(),
                        resource: 0,
                    };
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // nodes
    // -----------------------------------------------------------------------------------------

    /// The node of the schema at `location`, compiled later if it is new.
    fn node_at(&mut self, location: Location) -> NodeId {
        if let Some(&id) = self.located.get(&location) {
            return id;
        }
        let id = self.arena.nodes.len() as NodeId;
        self.arena.nodes.push(Node::Anything);
        self.located.insert(location.clone(), id);
        self.pending.push((id, location));
        id
    }

    fn json_at(&self, location: &Location) -> Option<&'a Value> {
        let (document, pointer) = location;
        let json = self.documents[*document].json;
        if pointer.is_empty() {
            Some(json)
        } else {
            json.pointer(pointer)
        }
    }

    fn compile_node(&mut self, location: &Location) -> Node {
        let Some(json) = self.json_at(location) else {
            return Node::Nothing;
        };
        let path = self.path(location.0, &location.1);
        let map = match json {
            Value::Bool(true) => return Node::Anything,
            Value::Bool(false) => return Node::Nothing,
            Value::Object(map) => map,
            _ => {
                self.problem(
                    path.clone(),
                    format!("{path} must be a schema object or a boolean"),
                );
                return Node::Nothing;
            }
        };
        let scanned = self.scanned(location);
        let mut reader = Reader {
            compiler: self,
            map,
            location,
            path: &path,
            base: &scanned.base,
        };
        let mut rules = reader.rules(scanned.resource);
        if !self.documents[location.0].validation {
            without_validation(&mut rules);
        }
        Node::of_checks(rules.into_checks())
    }

    /// Resolves the reference `reference` made at a schema whose base URI is `base`: the
    /// location of its target.
    fn target(&mut self, base: &str, reference: &str, path: &str) -> Option<(Location, bool)> {
        let absolute = resolve(base, reference);
        let (resource_uri, fragment) = split_fragment(&absolute);
        if !self.resources.contains_key(resource_uri) {
            let document = self.options.document(resource_uri);
            match document {
                Some(json) => {
                    self.load(json, resource_uri, resource_uri.to_owned());
                }
                None => {
                    self.problem(
                        path.to_owned(),
                        format!(
                            "{path} refers to the remote document {resource_uri:?}, which the \
                             import was not given (SchemaImportOptions::documents)"
                        ),
                    );
                    return None;
                }
            }
        }
        let root = self.resources.get(resource_uri)?.location.clone();
        if fragment.is_empty() {
            return Some((root, false));
        }
        if fragment.starts_with('/') {
            let pointer = format!("{}{}", root.1, decode_fragment(fragment));
            let location = (root.0, pointer);
            if self.json_at(&location).is_none() {
                self.problem(
                    path.to_owned(),
                    format!("{path} {reference:?} does not resolve"),
                );
                return None;
            }
            return Some((location, false));
        }
        let key = (resource_uri.to_owned(), decode_fragment(fragment));
        match self.anchors.get(&key) {
            Some((location, dynamic)) => Some((location.clone(), *dynamic)),
            None => {
                self.problem(
                    path.to_owned(),
                    format!("{path} {reference:?} does not resolve"),
                );
                None
            }
        }
    }

    fn problem(&mut self, path: String, message: String) {
        if !self.errors.problems.iter().any(|p| p.message == message) {
            self.errors.push(path, message);
        }
    }

    /// A location as problems name it: `schema.properties.a`, `schema.allOf[1]`.
    fn path(&self, document: usize, pointer: &str) -> String {
        let mut path = self.documents[document].name.clone();
        let mut previous_is_list = false;
        for segment in pointer.split('/').skip(1) {
            let segment = segment.replace("~1", "/").replace("~0", "~");
            if previous_is_list && segment.parse::<usize>().is_ok() {
                path.push('[');
                path.push_str(&segment);
                path.push(']');
            } else {
                path.push('.');
                path.push_str(&segment);
            }
            previous_is_list = SCHEMA_LIST_KEYWORDS.contains(&segment.as_str());
        }
        path
    }
}

/// The families read their keywords from the schema object being compiled as import does
/// (`rules/read.rs`), with the keyword engine's own reading of a count and its problems'
/// wording.
impl KeywordSource for Reader<'_, '_> {
    fn get(&self, keyword: &str) -> Option<&Value> {
        self.map.get(keyword)
    }

    fn refuse(&mut self, keyword: &str, why: &str) {
        self.problem(keyword, why);
    }

    /// A known format checked only when the options say `format` asserts.
    fn format_named(&self, name: &str) -> StringFormat {
        if self.compiler.options.assert_formats {
            StringFormat::from(name)
        } else {
            StringFormat::Other(name.to_owned())
        }
    }

    fn count(&mut self, keyword: &str) -> Option<u64> {
        Reader::count(self, keyword)
    }

    fn number(&mut self, keyword: &str) -> Option<Number> {
        Reader::number(self, keyword)
    }
}

/// Drops the keywords of the validation vocabulary, for a document whose meta-schema leaves it
/// out.
fn without_validation(rules: &mut Rules) {
    rules.types = None;
    rules.enumeration = None;
    rules.constant = None;
    rules.numbers = None;
    if let Some(strings) = &mut rules.strings {
        strings.lengths = Lengths::default();
        strings.matching.drop_validation();
    }
    if let Some(arrays) = &mut rules.arrays {
        arrays.constraints = ArrayConstraints::default();
        arrays.min_contains = None;
        arrays.max_contains = None;
    }
    if let Some(objects) = &mut rules.objects {
        objects.required.clear();
        objects.required_elsewhere.clear();
        objects.required_properties = 0;
        for property in &mut objects.properties {
            property.required = false;
        }
        objects.dependent_required.clear();
        objects.property_counts = Counts::default();
    }
}

/// A key escaped for a JSON pointer.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Reads the keywords of one schema object.
struct Reader<'c, 'a> {
    compiler: &'c mut Compiler<'a>,
    map: &'a Map<String, Value>,
    location: &'c Location,
    path: &'c str,
    base: &'c str,
}

impl<'a> Reader<'_, 'a> {
    fn rules(&mut self, resource: u32) -> Rules {
        let mut rules = Rules {
            resource,
            ..Rules::default()
        };
        rules.types = self.types();
        rules.enumeration = match self.map.get(ENUM) {
            None => None,
            Some(Value::Array(members)) => Some(members.clone()),
            Some(_) => {
                self.problem(ENUM, "must be an array");
                None
            }
        };
        rules.constant = self.map.get(CONST).cloned();
        rules.numbers = self.numbers().map(Box::new);
        rules.strings = self.strings().map(Box::new);
        rules.arrays = self.arrays().map(Box::new);
        rules.objects = self.objects().map(Box::new);
        rules.all_of = self.schema_list("allOf");
        rules.any_of = self.schema_list("anyOf");
        rules.one_of = self.schema_list("oneOf");
        rules.not = self.schema("not");
        let condition = Condition {
            test: self.schema("if"),
            then: self.schema("then"),
            otherwise: self.schema("else"),
        };
        if condition.test.is_some() {
            rules.condition = Some(Box::new(condition));
        }
        if let Some(reference) = self.string("$ref") {
            let path = self.keyword_path("$ref");
            if let Some((location, _)) = self.compiler.target(self.base, reference, &path) {
                rules.reference = Some(self.compiler.node_at(location));
            }
        }
        if let Some(reference) = self.string("$dynamicRef") {
            let path = self.keyword_path("$dynamicRef");
            if let Some((location, dynamic)) = self.compiler.target(self.base, reference, &path) {
                let (_, fragment) = split_fragment(reference);
                let anchor = (dynamic && !fragment.is_empty() && !fragment.starts_with('/'))
                    .then(|| self.compiler.arena.anchor_name(&decode_fragment(fragment)));
                self.compiler.arena.dynamic |= anchor.is_some();
                rules.dynamic_reference = Some(DynamicReference {
                    target: self.compiler.node_at(location),
                    anchor,
                });
            }
        }
        self.compiler.arena.references |=
            rules.reference.is_some() || rules.dynamic_reference.is_some();
        rules.needs_marks = self.map.contains_key("unevaluatedProperties")
            || self.map.contains_key("unevaluatedItems");
        rules
    }

    fn types(&mut self) -> Option<Vec<JsonType>> {
        let named = |name: &str| -> Option<JsonType> {
            Some(match name {
                "object" => JsonType::Object,
                "array" => JsonType::Array,
                "string" => JsonType::String,
                "number" => JsonType::Number,
                "integer" => JsonType::Integer,
                "boolean" => JsonType::Boolean,
                "null" => JsonType::Null,
                _ => return None,
            })
        };
        match self.map.get("type")? {
            Value::String(name) => match named(name) {
                Some(wanted) => Some(vec![wanted]),
                None => {
                    self.problem("type", TYPE_NAMES);
                    None
                }
            },
            Value::Array(names) => {
                let mut types = Vec::with_capacity(names.len());
                for name in names {
                    match name.as_str().and_then(named) {
                        Some(wanted) if !types.contains(&wanted) => types.push(wanted),
                        Some(_) => {}
                        None => {
                            self.problem("type", TYPE_NAMES);
                            return None;
                        }
                    }
                }
                Some(types)
            }
            _ => {
                self.problem("type", TYPE_NAMES);
                None
            }
        }
    }

    fn numbers(&mut self) -> Option<NumberRules> {
        NumberRules::parse(self)
    }

    fn strings(&mut self) -> Option<StringKeywords> {
        let keywords = StringKeywords {
            lengths: Lengths::parse(|keyword| self.count(keyword)),
            matching: Matching::parse(self),
        };
        let any = keywords.lengths.is_set() || keywords.matching.is_set();
        any.then_some(keywords)
    }

    fn arrays(&mut self) -> Option<ArrayKeywords> {
        let keywords = ArrayKeywords {
            prefix_items: self.schema_list("prefixItems"),
            items: self.schema("items"),
            contains: self.schema("contains"),
            min_contains: self.count("minContains"),
            max_contains: self.count("maxContains"),
            constraints: ArrayConstraints::read(self),
            unevaluated_items: self.schema("unevaluatedItems"),
            shape: ArrayShape::General,
        };
        let any = !keywords.prefix_items.is_empty()
            || keywords.items.is_some()
            || keywords.contains.is_some()
            || keywords.constraints.is_set()
            || keywords.unevaluated_items.is_some();
        any.then_some(keywords)
    }

    fn objects(&mut self) -> Option<ObjectKeywords> {
        let properties = self.schema_map("properties");
        let mut pattern_properties = Vec::new();
        if let Some(Value::Object(entries)) = self.map.get("patternProperties") {
            for (source, _) in entries {
                let at = format!("patternProperties/{}", escape(source));
                if let (Some(pattern), Some(node)) = (
                    self.pattern(&format!("patternProperties.{source}"), source),
                    self.schema_at(&at),
                ) {
                    pattern_properties.push((pattern, node));
                }
            }
        }
        let required = self.names("required");
        let mut dependent_required = Vec::new();
        match self.map.get("dependentRequired") {
            None => {}
            Some(Value::Object(entries)) => {
                for (name, list) in entries {
                    let names = match list {
                        Value::Array(items) if items.iter().all(Value::is_string) => items
                            .iter()
                            .filter_map(|item| item.as_str().map(Key::new))
                            .collect(),
                        _ => {
                            self.problem(
                                &format!("dependentRequired.{name}"),
                                "must be a list of property names",
                            );
                            Vec::new()
                        }
                    };
                    dependent_required.push((Key::new(name), names));
                }
            }
            Some(_) => self.problem("dependentRequired", "must be an object"),
        }
        let mut required_elsewhere = Vec::new();
        let mut properties: Vec<Property> = properties
            .into_iter()
            .map(|(name, node)| Property {
                name,
                node,
                required: false,
            })
            .collect();
        for name in &required {
            match properties
                .iter_mut()
                .find(|property| property.name.as_str() == name.as_str())
            {
                Some(property) => property.required = true,
                None if !required_elsewhere
                    .iter()
                    .any(|other: &Key| other.as_str() == name.as_str()) =>
                {
                    required_elsewhere.push(name.clone());
                }
                None => {}
            }
        }
        let required_properties = properties
            .iter()
            .filter(|property| property.required)
            .count();
        let keywords = ObjectKeywords {
            properties,
            required_elsewhere,
            required_properties,
            declared_only: false,
            pattern_properties,
            additional_properties: self.schema("additionalProperties"),
            property_names: self.schema("propertyNames"),
            required,
            dependent_required,
            dependent_schemas: self.schema_map("dependentSchemas"),
            property_counts: objects::parse_counts(|keyword| self.count(keyword)),
            unevaluated_properties: self.schema("unevaluatedProperties"),
        };
        let any = !keywords.properties.is_empty()
            || !keywords.pattern_properties.is_empty()
            || keywords.additional_properties.is_some()
            || keywords.property_names.is_some()
            || !keywords.required.is_empty()
            || !keywords.dependent_required.is_empty()
            || !keywords.dependent_schemas.is_empty()
            || keywords.property_counts.is_set()
            || keywords.unevaluated_properties.is_some();
        any.then_some(keywords)
    }

    // -----------------------------------------------------------------------------------------
    // keyword values
    // -----------------------------------------------------------------------------------------

    fn keyword_path(&self, keyword: &str) -> String {
        format!("{}.{keyword}", self.path)
    }

    fn problem(&mut self, keyword: &str, what: &str) {
        let path = self.keyword_path(keyword);
        let message = format!("{path} {what}");
        self.compiler.problem(path, message);
    }

    fn string(&self, keyword: &str) -> Option<&'a str> {
        self.map.get(keyword).and_then(Value::as_str)
    }

    fn number(&mut self, keyword: &str) -> Option<Number> {
        match self.map.get(keyword)? {
            Value::Number(number) => Some(number.clone()),
            _ => {
                self.problem(keyword, "must be a number");
                None
            }
        }
    }

    /// A non-negative integer (`2.0` counts, as the specification allows).
    fn count(&mut self, keyword: &str) -> Option<u64> {
        let value = self.map.get(keyword)?;
        let count = value.as_u64().or_else(|| {
            value
                .as_f64()
                .filter(|number| number.fract() == 0.0 && *number >= 0.0)
                .map(|number| number.min(u64::MAX as f64) as u64)
        });
        if count.is_none() {
            self.problem(keyword, "must be a non-negative integer");
        }
        count
    }

    fn names(&mut self, keyword: &str) -> Vec<Key> {
        match self.map.get(keyword) {
            None => Vec::new(),
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => items
                .iter()
                .filter_map(|item| item.as_str().map(Key::new))
                .collect(),
            Some(_) => {
                self.problem(keyword, "must be an array of strings");
                Vec::new()
            }
        }
    }

    fn pattern(&mut self, keyword: &str, source: &str) -> Option<Pattern> {
        match Pattern::new(source) {
            Ok(pattern) => Some(pattern),
            Err(error) => {
                self.problem(keyword, &pattern_refusal(&error));
                None
            }
        }
    }

    /// The node of the schema at `suffix` (a pointer relative to this schema, unescaped
    /// keyword first).
    fn schema_at(&mut self, suffix: &str) -> Option<NodeId> {
        let (document, pointer) = self.location;
        let location = (*document, format!("{pointer}/{suffix}"));
        Some(self.compiler.node_at(location))
    }

    fn schema(&mut self, keyword: &str) -> Option<NodeId> {
        self.map.get(keyword)?;
        self.schema_at(&escape(keyword))
    }

    fn schema_list(&mut self, keyword: &str) -> Vec<NodeId> {
        match self.map.get(keyword) {
            None => Vec::new(),
            Some(Value::Array(list)) if !list.is_empty() => (0..list.len())
                .filter_map(|index| self.schema_at(&format!("{keyword}/{index}")))
                .collect(),
            Some(_) => {
                self.problem(keyword, "must be a non-empty list of schemas");
                Vec::new()
            }
        }
    }

    fn schema_map(&mut self, keyword: &str) -> Vec<(Key, NodeId)> {
        match self.map.get(keyword) {
            None => Vec::new(),
            Some(Value::Object(entries)) => {
                let mut nodes = Vec::with_capacity(entries.len());
                for name in entries.keys() {
                    if let Some(node) = self.schema_at(&format!("{keyword}/{}", escape(name))) {
                        nodes.push((Key::new(name), node));
                    }
                }
                nodes
            }
            Some(_) => {
                self.problem(keyword, "must be an object of schemas");
                Vec::new()
            }
        }
    }
}
