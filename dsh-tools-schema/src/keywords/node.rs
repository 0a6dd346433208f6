//! The compiled form of a JSON Schema document: every schema of it (and of the documents its
//! references reach) as a node in one arena, its keywords read once into typed fields and its
//! references resolved to node indices. A node's kind says which path of the yes/no walk
//! decides it (`simplify.rs` chooses it); its checks are what the report walk reads.

use serde_json::Value;

use super::super::key::Key;
use super::super::pattern::Pattern;
use super::super::rules::arrays::ArrayConstraints;
use super::super::rules::counts::Counts;
use super::super::rules::lengths::Lengths;
use super::super::rules::matching::Matching;
use super::super::rules::numbers::NumberRules;
use super::super::violation::JsonType;

/// A node's index in [`Arena::nodes`].
pub(crate) type NodeId = u32;

/// Every node, and the schema resources they belong to.
#[derive(Debug, Default)]
pub(crate) struct Arena {
    pub(crate) nodes: Vec<Node>,
    /// The document's root schema.
    pub(crate) root: NodeId,
    /// Each resource's dynamic anchors (`$dynamicAnchor`), by name, to the node that bears it.
    pub(crate) resources: Vec<Resource>,
    /// Whether any node has a `$dynamicRef` that can resolve dynamically, so evaluation keeps
    /// the dynamic scope (the resources entered) only when it matters.
    pub(crate) dynamic: bool,
    /// Whether any node has a `$ref` or `$dynamicRef` (values can then nest without limit).
    pub(crate) references: bool,
    /// The names of dynamic anchors, by the number they are known by here (a scope is searched
    /// by number, not by comparing names).
    pub(crate) anchor_names: Vec<String>,
}

impl Arena {
    /// Whether following a reference to `target` is a level of the depth cap: only when the
    /// target applies another schema to the same value (a reference cycle could then go on
    /// without the value getting deeper). A target that only reads the value or descends into
    /// it cannot loop, so the cap counts the value's own levels there.
    pub(crate) fn reference_counts(&self, target: NodeId) -> bool {
        self.nodes[target as usize]
            .checks()
            .is_some_and(|checks| checks.in_place)
    }

    /// The number of the dynamic anchor name `name`, new or not.
    pub(crate) fn anchor_name(&mut self, name: &str) -> u32 {
        match self.anchor_names.iter().position(|known| known == name) {
            Some(index) => index as u32,
            None => {
                self.anchor_names.push(name.to_owned());
                (self.anchor_names.len() - 1) as u32
            }
        }
    }
}

/// One schema resource (a document, or a subschema with its own `$id`).
#[derive(Debug, Default)]
pub(crate) struct Resource {
    /// Its dynamic anchors: the number of the name ([`Arena::anchor_name`]) and the node.
    pub(crate) dynamic_anchors: Vec<(u32, NodeId)>,
}

impl Resource {
    pub(crate) fn dynamic_anchor(&self, name: u32) -> Option<NodeId> {
        self.dynamic_anchors
            .iter()
            .find(|&&(anchor, _)| anchor == name)
            .map(|&(_, node)| node)
    }
}

/// One schema. Every kind but `Anything` and `Nothing` holds the schema's [`Checks`], which
/// the report walk reads whatever the kind; the kind tells the yes/no walk which of its paths
/// decides the schema fastest (`simplify.rs` chooses it once every node is compiled).
#[derive(Debug)]
pub(crate) enum Node {
    /// `true` or `{}` (with nothing but annotations).
    Anything,
    /// `false`.
    Nothing,
    /// An object of keywords that only read the value itself (`type`, `minLength`,
    /// `required`, …): no subschema, so its evaluation needs no depth, marks or scope.
    Leaf(Box<Checks>),
    /// `$ref` alone, in a document without a dynamic scope: its target, one level deeper.
    Reference(NodeId, Box<Checks>),
    /// Object keywords alone (with `"type": "object"` or no `type`), some of them applying
    /// subschemas to properties.
    Object(Box<Checks>),
    /// Array keywords alone (with `"type": "array"` or no `type`), some of them applying
    /// subschemas to items.
    Array(Box<Checks>),
    /// In-place applicators alone (`allOf`, `not`, `if`, …), in a document without a dynamic
    /// scope.
    InPlace(Box<Checks>),
    /// `type` alone: decided where the node is met, without a call.
    Type(u8, Box<Checks>),
    /// Number keywords alone (with `"type": "number"` or no `type`).
    Numbers(Box<Checks>),
    /// String keywords alone (with `"type": "string"` or no `type`).
    Strings(Box<Checks>),
    /// `enum` or `const` (or both) alone, without `type`.
    Listed(Box<Checks>),
    /// Object keywords that read the object itself alone (`required`, `minProperties`, …;
    /// with `"type": "object"` or no `type`).
    ObjectItself(Box<Checks>),
    /// Array keywords that read the array itself alone (`minItems`, `uniqueItems`, …; with
    /// `"type": "array"` or no `type`).
    ArrayItself(Box<Checks>),
    /// Any other object of keywords, some of them applying subschemas.
    Checks(Box<Checks>),
}

impl Node {
    /// The node these checks make: a schema of annotations alone checks nothing.
    pub(crate) fn of_checks(checks: Checks) -> Self {
        if checks.is_empty() {
            Self::Anything
        } else if checks.in_place || checks.descends || checks.needs_marks {
            Self::Checks(Box::new(checks))
        } else {
            Self::Leaf(Box::new(checks))
        }
    }

    /// The schema's checks (none for `true` and `false`).
    pub(crate) fn checks(&self) -> Option<&Checks> {
        match self {
            Self::Anything | Self::Nothing => None,
            Self::Leaf(checks)
            | Self::Reference(_, checks)
            | Self::Object(checks)
            | Self::Array(checks)
            | Self::InPlace(checks)
            | Self::Type(_, checks)
            | Self::Numbers(checks)
            | Self::Strings(checks)
            | Self::Listed(checks)
            | Self::ObjectItself(checks)
            | Self::ArrayItself(checks)
            | Self::Checks(checks) => Some(checks),
        }
    }

    /// The schema's checks, owned (none for `true` and `false`).
    pub(crate) fn into_checks(self) -> Option<Box<Checks>> {
        match self {
            Self::Anything | Self::Nothing => None,
            Self::Leaf(checks)
            | Self::Reference(_, checks)
            | Self::Object(checks)
            | Self::Array(checks)
            | Self::InPlace(checks)
            | Self::Type(_, checks)
            | Self::Numbers(checks)
            | Self::Strings(checks)
            | Self::Listed(checks)
            | Self::ObjectItself(checks)
            | Self::ArrayItself(checks)
            | Self::Checks(checks) => Some(checks),
        }
    }

    /// Whether applying this schema can mark properties or items evaluated.
    pub(crate) fn marks(&self) -> bool {
        !self.reads_value_alone()
    }

    /// Whether this schema reads nothing but the value itself: no subschema, so no depth,
    /// marks or scope.
    pub(crate) fn reads_value_alone(&self) -> bool {
        matches!(
            self,
            Self::Anything
                | Self::Nothing
                | Self::Leaf(_)
                | Self::Type(..)
                | Self::Numbers(_)
                | Self::Strings(_)
                | Self::Listed(_)
                | Self::ObjectItself(_)
                | Self::ArrayItself(_)
        )
    }
}

/// The checks of one schema object, grouped by what they read: `type`, then the keywords
/// that read any value (`enum`, `const`), then those of one type of value (only the group of
/// the value's type runs), then the in-place applicators, then `unevaluated*`, which read what
/// the others evaluated. That is the order they are evaluated and reported in.
#[derive(Debug)]
pub(crate) struct Checks {
    /// `type`: the bits of [`type_bit`] allowed ([`ANY_TYPE`] without the keyword).
    pub(crate) types: u8,
    /// `type` as written, for the message.
    pub(crate) type_names: Box<[JsonType]>,
    /// The resource this schema belongs to (an index into [`Arena::resources`]).
    pub(crate) resource: u32,
    /// `unevaluatedProperties` or `unevaluatedItems` is here.
    pub(crate) needs_marks: bool,
    /// A check applies another schema to the same value (counted as a level for the depth cap).
    pub(crate) in_place: bool,
    /// A check descends into an array's items or an object's properties.
    pub(crate) descends: bool,
    pub(crate) enumeration: Option<Box<[Value]>>,
    pub(crate) constant: Option<Box<Value>>,
    pub(crate) numbers: Option<Box<NumberRules>>,
    pub(crate) strings: Option<Box<StringKeywords>>,
    pub(crate) arrays: Option<Box<ArrayKeywords>>,
    pub(crate) objects: Option<Box<ObjectKeywords>>,
    /// The keywords that apply subschemas to the value itself, in evaluation order.
    pub(crate) applicators: Box<[Applicator]>,
    pub(crate) unevaluated_items: Option<NodeId>,
    pub(crate) unevaluated_properties: Option<NodeId>,
}

impl Checks {
    /// Recomputes what the keywords present imply ([`in_place`](Self::in_place),
    /// [`descends`](Self::descends), [`needs_marks`](Self::needs_marks)), after some were
    /// dropped.
    pub(crate) fn refresh(&mut self) {
        self.in_place = !self.applicators.is_empty();
        self.needs_marks =
            self.unevaluated_items.is_some() || self.unevaluated_properties.is_some();
        self.descends = self.needs_marks
            || self.arrays.as_deref().is_some_and(ArrayKeywords::descends)
            || self
                .objects
                .as_deref()
                .is_some_and(ObjectKeywords::descends);
    }

    /// Calls `each` with every subschema these checks apply, and whether a `$ref` leads to it
    /// rather than the schema containing it. A `$dynamicRef`'s target depends on the scope: it
    /// is left to the caller.
    pub(crate) fn each_subschema(&self, mut each: impl FnMut(NodeId, bool)) {
        for applicator in &self.applicators {
            match applicator {
                Applicator::DependentSchemas(dependents) => {
                    dependents.iter().for_each(|&(_, node)| each(node, false));
                }
                Applicator::AllOf(nodes) | Applicator::AnyOf(nodes) | Applicator::OneOf(nodes) => {
                    nodes.iter().for_each(|&node| each(node, false));
                }
                Applicator::Not(node) => each(*node, false),
                Applicator::Condition(condition) => {
                    [condition.test, condition.then, condition.otherwise]
                        .into_iter()
                        .flatten()
                        .for_each(|node| each(node, false));
                }
                Applicator::Ref(node) => each(*node, true),
                Applicator::DynamicRef(_) => {}
            }
        }
        if let Some(arrays) = &self.arrays {
            arrays
                .prefix_items
                .iter()
                .copied()
                .chain(arrays.items)
                .chain(arrays.contains)
                .for_each(|node| each(node, false));
        }
        if let Some(objects) = &self.objects {
            objects
                .properties
                .iter()
                .map(|property| property.node)
                .chain(objects.pattern_properties.iter().map(|&(_, node)| node))
                .chain(objects.additional_properties)
                .chain(objects.property_names)
                .for_each(|node| each(node, false));
        }
        self.unevaluated_items
            .into_iter()
            .chain(self.unevaluated_properties)
            .for_each(|node| each(node, false));
    }

    /// Whether these checks allow every value.
    pub(crate) fn is_empty(&self) -> bool {
        self.types == ANY_TYPE
            && self.enumeration.is_none()
            && self.constant.is_none()
            && self.numbers.is_none()
            && self.strings.is_none()
            && self.arrays.is_none()
            && self.objects.is_none()
            && self.applicators.is_empty()
            && self.unevaluated_items.is_none()
            && self.unevaluated_properties.is_none()
    }
}

/// A keyword that applies subschemas to the value itself ("in place").
#[derive(Debug)]
pub(crate) enum Applicator {
    DependentSchemas(Box<[(Key, NodeId)]>),
    AllOf(Box<[NodeId]>),
    AnyOf(Box<[NodeId]>),
    OneOf(Box<[NodeId]>),
    Not(NodeId),
    Condition(Box<Condition>),
    Ref(NodeId),
    DynamicRef(Box<DynamicReference>),
}

/// Every bit of [`type_bit`]: what a schema without `type` allows.
pub(crate) const ANY_TYPE: u8 = 0x7f;

/// The bit of a JSON type in [`Checks::types`].
pub(crate) const fn type_bit(wanted: JsonType) -> u8 {
    match wanted {
        JsonType::Null => 1,
        JsonType::Boolean => 2,
        JsonType::Object => 4,
        JsonType::Array => 8,
        JsonType::String => 16,
        JsonType::Number => 32,
        JsonType::Integer => 64,
    }
}

impl Rules {
    /// The checks these keywords make.
    pub(crate) fn into_checks(self) -> Checks {
        let (types, type_names) = match self.types {
            Some(names) => (
                names
                    .iter()
                    .fold(0, |bits, wanted| bits | type_bit(*wanted)),
                names.into_boxed_slice(),
            ),
            None => (ANY_TYPE, Box::default()),
        };
        let mut unevaluated_items = None;
        let mut unevaluated_properties = None;
        let mut dependent_schemas = Vec::new();
        let mut descends = false;
        let arrays = self.arrays.and_then(|mut arrays| {
            unevaluated_items = arrays.unevaluated_items.take();
            descends |= arrays.descends();
            arrays.any().then_some(arrays)
        });
        let objects = self.objects.and_then(|mut objects| {
            unevaluated_properties = objects.unevaluated_properties.take();
            dependent_schemas = std::mem::take(&mut objects.dependent_schemas);
            descends |= objects.descends();
            objects.any().then_some(objects)
        });
        let mut applicators = Vec::new();
        if !dependent_schemas.is_empty() {
            applicators.push(Applicator::DependentSchemas(
                dependent_schemas.into_boxed_slice(),
            ));
        }
        if !self.all_of.is_empty() {
            applicators.push(Applicator::AllOf(self.all_of.into_boxed_slice()));
        }
        if !self.any_of.is_empty() {
            applicators.push(Applicator::AnyOf(self.any_of.into_boxed_slice()));
        }
        if !self.one_of.is_empty() {
            applicators.push(Applicator::OneOf(self.one_of.into_boxed_slice()));
        }
        applicators.extend(self.not.map(Applicator::Not));
        applicators.extend(self.condition.map(Applicator::Condition));
        applicators.extend(self.reference.map(Applicator::Ref));
        applicators.extend(
            self.dynamic_reference
                .map(|reference| Applicator::DynamicRef(Box::new(reference))),
        );
        descends |= unevaluated_items.is_some() || unevaluated_properties.is_some();
        Checks {
            types,
            type_names,
            resource: self.resource,
            needs_marks: self.needs_marks,
            in_place: !applicators.is_empty(),
            descends,
            enumeration: self.enumeration.map(Vec::into_boxed_slice),
            constant: self.constant.map(Box::new),
            numbers: self.numbers,
            strings: self.strings,
            arrays,
            objects,
            applicators: applicators.into_boxed_slice(),
            unevaluated_items,
            unevaluated_properties,
        }
    }
}

/// The keywords of one schema object that affect validation, as compilation reads them (they
/// become [`Checks`]). Absent keywords are `None` or empty; unknown keywords and annotations are
/// not kept.
#[derive(Debug, Default)]
pub(crate) struct Rules {
    /// The resource this schema belongs to (an index into [`Arena::resources`]).
    pub(crate) resource: u32,
    /// `type`, as the set of types allowed (in the order written, for the message).
    pub(crate) types: Option<Vec<JsonType>>,
    pub(crate) enumeration: Option<Vec<Value>>,
    pub(crate) constant: Option<Value>,
    pub(crate) numbers: Option<Box<NumberRules>>,
    pub(crate) strings: Option<Box<StringKeywords>>,
    pub(crate) arrays: Option<Box<ArrayKeywords>>,
    pub(crate) objects: Option<Box<ObjectKeywords>>,
    pub(crate) all_of: Vec<NodeId>,
    pub(crate) any_of: Vec<NodeId>,
    pub(crate) one_of: Vec<NodeId>,
    pub(crate) not: Option<NodeId>,
    pub(crate) condition: Option<Box<Condition>>,
    pub(crate) reference: Option<NodeId>,
    pub(crate) dynamic_reference: Option<DynamicReference>,
    /// `unevaluatedProperties` or `unevaluatedItems` is here: the applicators of this schema
    /// must say which properties and items they evaluated.
    pub(crate) needs_marks: bool,
}

/// The keywords that apply to strings: their families' structs (`rules/lengths.rs`,
/// `rules/matching.rs`; `format` only when it is checked).
#[derive(Debug, Default)]
pub(crate) struct StringKeywords {
    pub(crate) lengths: Lengths,
    pub(crate) matching: Matching,
}

/// The keywords that apply to arrays.
#[derive(Debug, Default)]
pub(crate) struct ArrayKeywords {
    pub(crate) prefix_items: Vec<NodeId>,
    pub(crate) items: Option<NodeId>,
    pub(crate) contains: Option<NodeId>,
    pub(crate) min_contains: Option<u64>,
    pub(crate) max_contains: Option<u64>,
    /// `minItems`, `maxItems` and `uniqueItems`: their family's struct (`rules/arrays.rs`).
    pub(crate) constraints: ArrayConstraints,
    /// Which of the yes/no walk's loops these keywords need (set once the document is
    /// simplified).
    pub(crate) shape: ArrayShape,
    /// Taken out into [`Checks::unevaluated_items`] when the checks are made.
    pub(crate) unevaluated_items: Option<NodeId>,
}

/// The keywords that apply to objects.
#[derive(Debug, Default)]
pub(crate) struct ObjectKeywords {
    pub(crate) properties: Vec<Property>,
    pub(crate) pattern_properties: Vec<(Pattern, NodeId)>,
    pub(crate) additional_properties: Option<NodeId>,
    pub(crate) property_names: Option<NodeId>,
    /// `required` as written, for the report.
    pub(crate) required: Vec<Key>,
    /// The names of `required` that `properties` does not declare: the yes/no walk counts the
    /// required properties it meets and looks only these up.
    pub(crate) required_elsewhere: Vec<Key>,
    /// How many of `properties` are required.
    pub(crate) required_properties: usize,
    /// Only `properties` and `additionalProperties` are here, besides the required properties
    /// `properties` declares (set once the document is simplified).
    pub(crate) declared_only: bool,
    pub(crate) dependent_required: Vec<(Key, Vec<Key>)>,
    pub(crate) dependent_schemas: Vec<(Key, NodeId)>,
    /// `minProperties` and `maxProperties`.
    pub(crate) property_counts: Counts,
    /// Taken out into [`Checks::unevaluated_properties`] when the checks are made (and
    /// `dependent_schemas` into an [`Applicator`]).
    pub(crate) unevaluated_properties: Option<NodeId>,
}

/// What an array's keywords need of the yes/no walk, when nothing is marked.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) enum ArrayShape {
    /// `items` alone.
    Each(NodeId),
    /// `prefixItems` alone.
    Prefix,
    /// `prefixItems` and `items` alone.
    Items,
    /// `contains` (with `minContains` and `maxContains`) alone.
    Contains(NodeId),
    /// Anything else.
    #[default]
    General,
}

/// One of `properties`.
#[derive(Debug)]
pub(crate) struct Property {
    pub(crate) name: Key,
    pub(crate) node: NodeId,
    /// Whether `required` names it.
    pub(crate) required: bool,
}

impl ArrayKeywords {
    /// Whether a keyword here applies a schema to the items.
    pub(crate) fn descends(&self) -> bool {
        !self.prefix_items.is_empty() || self.items.is_some() || self.contains.is_some()
    }

    /// Sets [`shape`](Self::shape) for the keywords as they are now.
    pub(crate) fn settle(&mut self) {
        let reads_array = self.constraints.is_set();
        let has_item_schemas = !self.prefix_items.is_empty() || self.items.is_some();
        self.shape = match (reads_array, has_item_schemas, self.contains) {
            (false, true, None) if self.prefix_items.is_empty() => {
                self.items.map_or(ArrayShape::General, ArrayShape::Each)
            }
            (false, true, None) if self.items.is_none() => ArrayShape::Prefix,
            (false, true, None) => ArrayShape::Items,
            (false, false, Some(contains)) => ArrayShape::Contains(contains),
            _ => ArrayShape::General,
        };
    }

    /// Whether a keyword is here (`unevaluatedItems` aside, which is taken out first).
    pub(crate) fn any(&self) -> bool {
        !self.prefix_items.is_empty()
            || self.items.is_some()
            || self.contains.is_some()
            || self.constraints.is_set()
    }
}

impl ObjectKeywords {
    /// Whether a keyword is here (`unevaluatedProperties` and `dependentSchemas` aside, which
    /// are taken out first).
    pub(crate) fn any(&self) -> bool {
        self.descends()
            || !self.required.is_empty()
            || !self.dependent_required.is_empty()
            || self.property_counts.is_set()
    }

    /// Whether a keyword here reads the object itself, besides the required properties that
    /// `properties` declares.
    pub(crate) fn reads_object(&self) -> bool {
        !self.required_elsewhere.is_empty()
            || !self.dependent_required.is_empty()
            || self.property_counts.is_set()
    }

    /// Sets [`declared_only`](Self::declared_only) for the keywords as they are now.
    pub(crate) fn settle(&mut self) {
        self.declared_only = self.pattern_properties.is_empty()
            && self.property_names.is_none()
            && !self.reads_object();
    }

    /// Whether a keyword here applies a schema to the properties (or their names).
    pub(crate) fn descends(&self) -> bool {
        !self.properties.is_empty()
            || !self.pattern_properties.is_empty()
            || self.additional_properties.is_some()
            || self.property_names.is_some()
    }
}

/// `if`, `then` and `else`.
#[derive(Debug, Default)]
pub(crate) struct Condition {
    pub(crate) test: Option<NodeId>,
    pub(crate) then: Option<NodeId>,
    pub(crate) otherwise: Option<NodeId>,
}

/// A `$dynamicRef`: where it points when nothing in the dynamic scope overrides it, and the
/// dynamic anchor name the scope is searched for (`None` when the target is not a dynamic
/// anchor of that name, so it resolves like `$ref`).
#[derive(Debug)]
pub(crate) struct DynamicReference {
    pub(crate) target: NodeId,
    pub(crate) anchor: Option<u32>,
}
