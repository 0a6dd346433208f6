//! The compiled form of a JSON Schema document: every schema of it (and of the documents its
//! references reach) as a node in one arena, its keywords read once into typed fields and its
//! references resolved to node indices.

use serde_json::{Number, Value};

use super::super::format::StringFormat;
use super::super::model::Pattern;
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
}

/// One schema resource (a document, or a subschema with its own `$id`).
#[derive(Debug, Default)]
pub(crate) struct Resource {
    pub(crate) dynamic_anchors: Vec<(String, NodeId)>,
}

impl Resource {
    pub(crate) fn dynamic_anchor(&self, name: &str) -> Option<NodeId> {
        self.dynamic_anchors
            .iter()
            .find(|(anchor, _)| anchor == name)
            .map(|&(_, node)| node)
    }
}

/// One schema.
#[derive(Debug)]
pub(crate) enum Node {
    /// `true` or `{}` (with nothing but annotations).
    Anything,
    /// `false`.
    Nothing,
    /// An object of keywords that only read the value itself (`type`, `minLength`,
    /// `required`, …): no subschema, so its evaluation needs no depth, marks or scope.
    Leaf(Box<Checks>),
    /// An object of keywords, some of them applying subschemas.
    Checks(Box<Checks>),
}

impl Node {
    /// The node these checks make: a schema of annotations alone checks nothing.
    pub(crate) fn of_checks(checks: Checks) -> Self {
        if checks.checks.is_empty() && checks.types == ANY_TYPE {
            Self::Anything
        } else if checks.in_place || checks.descends || checks.needs_marks {
            Self::Checks(Box::new(checks))
        } else {
            Self::Leaf(Box::new(checks))
        }
    }
}

/// The checks of one schema object: `type` first, then only the other keywords present, in
/// the order they are evaluated and reported (values, number, string, array and object
/// keywords, then the in-place applicators, then `unevaluated*`, which read what the others
/// evaluated).
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
    pub(crate) checks: Box<[Check]>,
}

/// One keyword's check (or a group of them that read the same part of the value).
#[derive(Debug)]
pub(crate) enum Check {
    Enum(Box<[Value]>),
    Const(Box<Value>),
    Minimum(Number),
    Maximum(Number),
    ExclusiveMinimum(Number),
    ExclusiveMaximum(Number),
    MultipleOf(Number),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Box<Pattern>),
    Format(StringFormat),
    Array(Box<ArrayKeywords>),
    Object(Box<ObjectKeywords>),
    DependentSchemas(Box<[(String, NodeId)]>),
    AllOf(Box<[NodeId]>),
    AnyOf(Box<[NodeId]>),
    OneOf(Box<[NodeId]>),
    Not(NodeId),
    Condition(Box<Condition>),
    Ref(NodeId),
    DynamicRef(Box<DynamicReference>),
    UnevaluatedItems(NodeId),
    UnevaluatedProperties(NodeId),
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
    /// The checks these keywords make, in evaluation order.
    pub(crate) fn into_checks(self) -> Checks {
        let mut checks = Vec::new();
        let (types, type_names) = match self.types {
            Some(names) => (
                names
                    .iter()
                    .fold(0, |bits, wanted| bits | type_bit(*wanted)),
                names.into_boxed_slice(),
            ),
            None => (ANY_TYPE, Box::default()),
        };
        if let Some(members) = self.enumeration {
            checks.push(Check::Enum(members.into_boxed_slice()));
        }
        if let Some(constant) = self.constant {
            checks.push(Check::Const(Box::new(constant)));
        }
        if let Some(numbers) = self.numbers {
            let NumberKeywords {
                minimum,
                maximum,
                exclusive_minimum,
                exclusive_maximum,
                multiple_of,
            } = *numbers;
            checks.extend(minimum.map(Check::Minimum));
            checks.extend(maximum.map(Check::Maximum));
            checks.extend(exclusive_minimum.map(Check::ExclusiveMinimum));
            checks.extend(exclusive_maximum.map(Check::ExclusiveMaximum));
            checks.extend(multiple_of.map(Check::MultipleOf));
        }
        if let Some(strings) = self.strings {
            let StringKeywords {
                min_length,
                max_length,
                pattern,
                format,
            } = *strings;
            checks.extend(min_length.map(Check::MinLength));
            checks.extend(max_length.map(Check::MaxLength));
            checks.extend(pattern.map(|pattern| Check::Pattern(Box::new(pattern))));
            checks.extend(format.map(Check::Format));
        }
        let mut unevaluated_items = None;
        let mut unevaluated_properties = None;
        let mut dependent_schemas = Vec::new();
        let mut descends = false;
        if let Some(mut arrays) = self.arrays {
            unevaluated_items = arrays.unevaluated_items.take();
            descends |= !arrays.prefix_items.is_empty()
                || arrays.items.is_some()
                || arrays.contains.is_some();
            checks.push(Check::Array(arrays));
        }
        if let Some(mut objects) = self.objects {
            unevaluated_properties = objects.unevaluated_properties.take();
            dependent_schemas = std::mem::take(&mut objects.dependent_schemas);
            descends |= objects.descends();
            checks.push(Check::Object(objects));
        }
        let before_applicators = checks.len();
        if !dependent_schemas.is_empty() {
            checks.push(Check::DependentSchemas(
                dependent_schemas.into_boxed_slice(),
            ));
        }
        if !self.all_of.is_empty() {
            checks.push(Check::AllOf(self.all_of.into_boxed_slice()));
        }
        if !self.any_of.is_empty() {
            checks.push(Check::AnyOf(self.any_of.into_boxed_slice()));
        }
        if !self.one_of.is_empty() {
            checks.push(Check::OneOf(self.one_of.into_boxed_slice()));
        }
        checks.extend(self.not.map(Check::Not));
        checks.extend(self.condition.map(Check::Condition));
        checks.extend(self.reference.map(Check::Ref));
        checks.extend(
            self.dynamic_reference
                .map(|reference| Check::DynamicRef(Box::new(reference))),
        );
        let in_place = checks.len() > before_applicators;
        descends |= unevaluated_items.is_some() || unevaluated_properties.is_some();
        checks.extend(unevaluated_items.map(Check::UnevaluatedItems));
        checks.extend(unevaluated_properties.map(Check::UnevaluatedProperties));
        Checks {
            types,
            type_names,
            resource: self.resource,
            needs_marks: self.needs_marks,
            in_place,
            descends,
            checks: checks.into_boxed_slice(),
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
    pub(crate) numbers: Option<Box<NumberKeywords>>,
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

/// `minimum`, `maximum`, their exclusive forms and `multipleOf`.
#[derive(Debug, Default)]
pub(crate) struct NumberKeywords {
    pub(crate) minimum: Option<Number>,
    pub(crate) maximum: Option<Number>,
    pub(crate) exclusive_minimum: Option<Number>,
    pub(crate) exclusive_maximum: Option<Number>,
    pub(crate) multiple_of: Option<Number>,
}

/// `minLength`, `maxLength`, `pattern` and a checked `format`.
#[derive(Debug, Default)]
pub(crate) struct StringKeywords {
    pub(crate) min_length: Option<u64>,
    pub(crate) max_length: Option<u64>,
    pub(crate) pattern: Option<Pattern>,
    pub(crate) format: Option<StringFormat>,
}

/// The keywords that apply to arrays.
#[derive(Debug, Default)]
pub(crate) struct ArrayKeywords {
    pub(crate) prefix_items: Vec<NodeId>,
    pub(crate) items: Option<NodeId>,
    pub(crate) contains: Option<NodeId>,
    pub(crate) min_contains: Option<u64>,
    pub(crate) max_contains: Option<u64>,
    pub(crate) min_items: Option<u64>,
    pub(crate) max_items: Option<u64>,
    pub(crate) unique_items: bool,
    /// Taken out into its own [`Check`] when the checks are made.
    pub(crate) unevaluated_items: Option<NodeId>,
}

/// The keywords that apply to objects.
#[derive(Debug, Default)]
pub(crate) struct ObjectKeywords {
    pub(crate) properties: Vec<(String, NodeId)>,
    pub(crate) pattern_properties: Vec<(Pattern, NodeId)>,
    pub(crate) additional_properties: Option<NodeId>,
    pub(crate) property_names: Option<NodeId>,
    pub(crate) required: Vec<String>,
    pub(crate) dependent_required: Vec<(String, Vec<String>)>,
    pub(crate) dependent_schemas: Vec<(String, NodeId)>,
    pub(crate) min_properties: Option<u64>,
    pub(crate) max_properties: Option<u64>,
    /// Taken out into its own [`Check`] when the checks are made, as `dependent_schemas` is.
    pub(crate) unevaluated_properties: Option<NodeId>,
}

impl ObjectKeywords {
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
    pub(crate) anchor: Option<String>,
}
