//! The schema model: one tree that describes a JSON value, from which the JSON Schema the model
//! sees is rendered and against which values are validated.
//!
//! This file owns only the data; rendering (`render.rs`), validation (`validate.rs`), import
//! (`import.rs`) and the builder API (`builder.rs`) live beside it.
//!
//! The tree's layout is not API (`#[doc(hidden)]`): users build a [`Schema`] with the builder
//! or import one, and read it back as JSON Schema ([`Schema::to_json_schema`]); the runtime, the
//! macros' generated code and the tests, which walk the tree, reach it all the same. So the
//! engines' representation can change (a node packed differently, a keyword family moved)
//! without a breaking release.

use super::keywords::KeywordSchema;
use super::rules::arrays::ArrayConstraints;
use super::rules::lengths::Lengths;
use super::rules::matching::Matching;
use super::rules::numbers::NumberRules;
use super::rules::objects::ObjectConstraints;
use serde_json::Value;

/// A value schema: what kind of value, whether `null` is also accepted, and annotations.
///
/// Built with the builder ([`Schema::object`], [`Schema::string`], …) or imported
/// ([`Schema::from_json_schema`]); its layout is not API.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    /// The kind of value and its constraints.
    #[doc(hidden)]
    pub kind: SchemaKind,
    /// `null` is accepted as well (Rust's `Option<T>`).
    #[doc(hidden)]
    pub nullable: bool,
    /// Description, title, default and examples; they never affect validation.
    #[doc(hidden)]
    pub annotations: Annotations,
}

impl Schema {
    /// Whether validating a value against this node either fails at once or goes one level down
    /// into the value (an object or an array node). A reference to such a node cannot loop
    /// without the value getting deeper, so it is not a level of its own: the depth cap then
    /// counts the value's own levels, and a recursive type is followed as deep as any value.
    pub(crate) fn descends_at_once(&self) -> bool {
        matches!(self.kind, SchemaKind::Object(_) | SchemaKind::Array(_))
    }
}

/// Human-facing annotations rendered into the JSON Schema.
#[derive(Clone, Debug, Default, PartialEq)]
#[doc(hidden)]
pub struct Annotations {
    /// `title`.
    pub title: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `default`: what an absent property means.
    pub default: Option<Value>,
    /// `examples`.
    pub examples: Vec<Value>,
}

/// The kinds of values the engine can describe and enforce.
// `repr(u8)` gives the kind a plain tag byte instead of a niche packed into a field: the
// validator dispatches on it for every node, and decoding a niche costs several instructions.
#[derive(Clone, Debug, PartialEq)]
#[repr(u8)]
#[doc(hidden)]
pub enum SchemaKind {
    /// `{"type":"string"}`.
    String(StringRules),
    /// `{"type":"number"}`: a finite JSON number.
    Number(NumberRules),
    /// `{"type":"integer"}`: a number with no fractional part (`1.0` counts).
    Integer(NumberRules),
    /// `{"type":"boolean"}`.
    Boolean,
    /// `{"type":"null"}`.
    Null,
    /// `{"type":"array"}`.
    Array(ArrayRules),
    /// `{"type":"object"}`.
    Object(ObjectRules),
    /// Any JSON value (`{}`).
    Any,
    /// One of the listed scalar values (`enum`); numbers compare by value.
    Enum(Vec<Value>),
    /// Exactly this scalar value (`const`).
    Const(Value),
    /// Exactly one of the branches (`oneOf`).
    OneOf(Vec<Schema>),
    /// A named definition that [`Ref`](Self::Ref)s inside it refer back to: what a recursive
    /// type (`struct Outline { children: Vec<Outline> }`) becomes. It validates as its
    /// [`schema`](Definition::schema); this node's own `nullable` and annotations are those of
    /// the place it is used, not of the definition.
    Defined(Box<Definition>),
    /// The definition of this name that encloses this node (the nearest one, should two share
    /// a name): it validates as that definition's schema. A reference with no enclosing
    /// definition of its name matches nothing.
    Ref(String),
    /// A JSON Schema 2020-12 document outside the typed subset (`allOf`, `not`, `if`,
    /// `unevaluatedProperties`, keywords without `type`, …), kept as written and enforced
    /// keyword by keyword. This node's own `nullable` and annotations apply around it.
    Keywords(KeywordSchema),
}

/// A named schema that references within it refer back to; see [`SchemaKind::Defined`].
///
/// The name identifies the definition within one schema (the derive uses the type's path,
/// an import the JSON pointer it came from); rendering publishes it under `$defs` by a short
/// key made from it.
#[derive(Clone, Debug, PartialEq)]
#[doc(hidden)]
pub struct Definition {
    /// What the references are matched against.
    pub name: String,
    /// The schema the definition stands for.
    pub schema: Schema,
}

/// Constraints on a string, one struct per family of keywords (each defined with its keywords'
/// rules in `rules/`), so that a new keyword adds a field there, not here.
///
/// `#[non_exhaustive]`: build one from [`Default`] and set the fields (or use the
/// [`Schema::string`](crate::Schema::string) builder).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
#[doc(hidden)]
pub struct StringRules {
    /// `minLength` and `maxLength`, in Unicode code points.
    pub lengths: Lengths,
    /// `pattern` and `format`.
    pub matching: Matching,
}

/// Constraints on an array: the schema of its items, and what its keywords ask of the array
/// itself (a struct of their family, defined with their rules in `rules/arrays.rs`).
///
/// `#[non_exhaustive]`: build one from [`Default`] and set the fields (or use the
/// [`Schema::array`](crate::Schema::array) builder).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
#[doc(hidden)]
pub struct ArrayRules {
    /// The schema of every item; `None` accepts any item.
    pub items: Option<Box<Schema>>,
    /// `minItems`, `maxItems` and `uniqueItems`.
    pub constraints: ArrayConstraints,
}

/// Declared properties of an object, what happens to undeclared ones, and how many properties
/// it may have.
///
/// [`Default`] is a closed object with no properties, as [`ObjectRules::new`] with
/// [`AdditionalProperties::Forbidden`] makes it.
#[derive(Clone, Debug, PartialEq)]
#[doc(hidden)]
pub struct ObjectRules {
    /// Declared properties, in declaration order (the order they are rendered and reported in).
    pub properties: Vec<Property>,
    /// Undeclared keys: rejected, accepted, or accepted when they match a schema (a map).
    pub additional: AdditionalProperties,
    /// The order JSON Schema's `required` lists the required properties in, as indices into
    /// [`properties`](Self::properties), when it is not declaration order (an imported schema's
    /// `required: ["b", "a"]`); empty means declaration order. Missing properties are reported
    /// and `required` is rendered in this order ([`required_indices`](Self::required_indices)
    /// reads it). Whether a property is required is its own [`Property::required`]; indices of
    /// properties that are not required are ignored.
    pub(crate) required_order: Vec<usize>,
    /// `minProperties` and `maxProperties` (a struct of their family, defined with their rules
    /// in `rules/objects.rs`).
    pub constraints: ObjectConstraints,
}

impl Default for ObjectRules {
    fn default() -> Self {
        Self::new(Vec::new(), AdditionalProperties::Forbidden)
    }
}

impl ObjectRules {
    /// Rules for `properties` (required ones in declaration order) and undeclared keys, with no
    /// bound on the number of properties.
    #[doc(hidden)]
    pub fn new(properties: Vec<Property>, additional: AdditionalProperties) -> Self {
        Self {
            properties,
            additional,
            required_order: Vec::new(),
            constraints: ObjectConstraints::default(),
        }
    }

    /// The indices of the required properties, in `required` order: those JSON Schema's
    /// `required` listed first when an imported schema's order differs from declaration order,
    /// then any other in declaration order.
    #[doc(hidden)]
    pub fn required_indices(&self) -> Vec<usize> {
        let properties = &self.properties;
        if self.required_order.is_empty() {
            return (0..properties.len())
                .filter(|&index| properties[index].required)
                .collect();
        }
        let mut listed = vec![false; properties.len()];
        let mut order = Vec::with_capacity(properties.len());
        for &index in &self.required_order {
            if index < properties.len() && properties[index].required && !listed[index] {
                listed[index] = true;
                order.push(index);
            }
        }
        order.extend(
            (0..properties.len()).filter(|&index| properties[index].required && !listed[index]),
        );
        order
    }
}

/// One declared property.
#[derive(Clone, Debug, PartialEq)]
#[doc(hidden)]
pub struct Property {
    /// The key.
    pub name: String,
    /// The value schema.
    pub schema: Schema,
    /// Whether the key must be present.
    pub required: bool,
}

/// `additionalProperties`.
#[derive(Clone, Debug, PartialEq)]
#[doc(hidden)]
pub enum AdditionalProperties {
    /// `false`: undeclared keys are violations (the default for tool arguments).
    Forbidden,
    /// `true`: undeclared keys are accepted as any JSON.
    Allowed,
    /// A schema every undeclared value must match (`HashMap<String, T>`).
    Schema(Box<Schema>),
}
