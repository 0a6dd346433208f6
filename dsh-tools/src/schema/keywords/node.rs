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
    /// An object of keywords.
    Rules(Box<Rules>),
}

/// The keywords of one schema object that affect validation. Absent keywords are `None` or
/// empty; unknown keywords and annotations are not kept.
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
    pub(crate) unevaluated_properties: Option<NodeId>,
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
