//! The schema model: one tree that describes a JSON value, from which the JSON Schema the model
//! sees is rendered and against which values are validated.
//!
//! This file owns only the data; rendering (`render.rs`), validation (`validate.rs`), import
//! (`import.rs`) and the builder API (`builder.rs`) live beside it.

use super::format::StringFormat;
use super::keywords::KeywordSchema;
use super::pattern::Pattern;
use super::rules::counts::Counts;
use super::rules::lengths::Lengths;
use serde_json::{Number, Value};

/// A value schema: what kind of value, whether `null` is also accepted, and annotations.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    /// The kind of value and its constraints.
    pub kind: SchemaKind,
    /// `null` is accepted as well (Rust's `Option<T>`).
    pub nullable: bool,
    /// Description, title, default and examples; they never affect validation.
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
pub struct Definition {
    /// What the references are matched against.
    pub name: String,
    /// The schema the definition stands for.
    pub schema: Schema,
}

/// Constraints on a string. Lengths count Unicode code points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StringRules {
    /// `minLength`.
    pub min_length: Option<u64>,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `pattern` (unanchored, as JSON Schema specifies).
    pub pattern: Option<Pattern>,
    /// `format`: checked when it is one of the formats the engine knows
    /// ([`StringFormat::is_checked`]), published either way.
    pub format: Option<StringFormat>,
}

impl StringRules {
    /// `minLength` and `maxLength`, for their rules (`rules/lengths.rs`).
    #[inline(always)]
    pub(crate) fn lengths(&self) -> Lengths {
        Lengths {
            min: self.min_length,
            max: self.max_length,
        }
    }
}

/// Constraints on a number or an integer, kept as exact JSON numbers so that `u64::MAX` and
/// `i64::MIN` bounds compare exactly.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NumberRules {
    /// `minimum` (inclusive).
    pub minimum: Option<Number>,
    /// `maximum` (inclusive).
    pub maximum: Option<Number>,
    /// The inclusive bounds are a Rust type's own range (`u64`, `i64`, `f32`, …, or a schemars
    /// integer `format`): always enforced, but published only within ±(2^53 − 1), since most
    /// clients read a JSON number as a double and would round a larger bound.
    pub implied_by_type: bool,
    /// `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, when any is set
    /// ([`extra_mut`](Self::extra_mut) sets one; [`exclusive_minimum`](Self::exclusive_minimum)
    /// and its siblings read them). Boxed: few schemas set them, and a number is checked against
    /// none of them with one test. How they are kept is the engine's own business.
    pub(crate) extra: Option<Box<ExtraNumberRules>>,
}

/// The rules of a number few schemas set; see [`NumberRules::extra_mut`]. One with none of them
/// set means the same as none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExtraNumberRules {
    /// `exclusiveMinimum`: the number must be above it.
    pub exclusive_minimum: Option<Number>,
    /// `exclusiveMaximum`: the number must be below it.
    pub exclusive_maximum: Option<Number>,
    /// `multipleOf`: the number must be an integral multiple of it, decided exactly on the
    /// decimals JSON wrote (`0.0075` is a multiple of `0.0001`). JSON Schema requires it to be
    /// above 0; the builder and import refuse any other, and a rule holding one matches no
    /// number.
    pub multiple_of: Option<Number>,
}

/// The largest integer every JSON reader holds exactly (2^53 − 1, JavaScript's
/// `Number.MAX_SAFE_INTEGER`): implied bounds beyond it are not published.
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

impl NumberRules {
    /// `exclusiveMinimum`.
    pub fn exclusive_minimum(&self) -> Option<&Number> {
        self.extra.as_deref()?.exclusive_minimum.as_ref()
    }

    /// `exclusiveMaximum`.
    pub fn exclusive_maximum(&self) -> Option<&Number> {
        self.extra.as_deref()?.exclusive_maximum.as_ref()
    }

    /// `multipleOf`.
    pub fn multiple_of(&self) -> Option<&Number> {
        self.extra.as_deref()?.multiple_of.as_ref()
    }

    /// The rules few schemas set, created empty when there are none, to set one:
    /// `rules.extra_mut().multiple_of = Some(5.into())`.
    pub fn extra_mut(&mut self) -> &mut ExtraNumberRules {
        self.extra.get_or_insert_with(Box::default)
    }

    /// Drops an `extra` with nothing set, which means the same as none.
    pub(crate) fn drop_empty_extra(&mut self) {
        if self
            .extra
            .as_deref()
            .is_some_and(|extra| *extra == ExtraNumberRules::default())
        {
            self.extra = None;
        }
    }

    /// Whether the inclusive `bound` is published: always, unless it is implied by the type and
    /// lies beyond ±(2^53 − 1), the largest integer every JSON reader holds exactly
    /// (JavaScript's `Number.MAX_SAFE_INTEGER`).
    pub(crate) fn publishes(&self, bound: &Number) -> bool {
        // Every integer up to 2^53 converts to a double exactly, and every larger one to a
        // double beyond 2^53 - 1, so the comparison in doubles is exact.
        !self.implied_by_type
            || bound
                .as_f64()
                .is_some_and(|value| value.abs() <= MAX_SAFE_INTEGER as f64)
    }
}

/// Constraints on an array.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArrayRules {
    /// The schema of every item; `None` accepts any item.
    pub items: Option<Box<Schema>>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems`: no two items are equal as JSON values (numbers by value, objects whatever
    /// their key order). What a Rust set (`HashSet`, `BTreeSet`) asks of its array: a
    /// duplicate would be dropped silently on conversion.
    pub unique_items: bool,
}

/// Declared properties of an object, what happens to undeclared ones, and how many properties
/// it may have.
///
/// [`Default`] is a closed object with no properties, as [`ObjectRules::new`] with
/// [`AdditionalProperties::Forbidden`] makes it.
#[derive(Clone, Debug, PartialEq)]
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
    /// `minProperties`: the fewest keys the object may have, declared or not.
    pub min_properties: Option<u64>,
    /// `maxProperties`: the most keys the object may have, declared or not.
    pub max_properties: Option<u64>,
}

impl Default for ObjectRules {
    fn default() -> Self {
        Self::new(Vec::new(), AdditionalProperties::Forbidden)
    }
}

impl ArrayRules {
    /// `minItems` and `maxItems`, for their rules (`rules/arrays.rs`).
    #[inline(always)]
    pub(crate) fn item_counts(&self) -> Counts {
        Counts {
            min: self.min_items,
            max: self.max_items,
        }
    }
}

impl ObjectRules {
    /// `minProperties` and `maxProperties`, for their rules (`rules/objects.rs`).
    #[inline(always)]
    pub(crate) fn property_counts(&self) -> Counts {
        Counts {
            min: self.min_properties,
            max: self.max_properties,
        }
    }

    /// Rules for `properties` (required ones in declaration order) and undeclared keys, with no
    /// bound on the number of properties.
    pub fn new(properties: Vec<Property>, additional: AdditionalProperties) -> Self {
        Self {
            properties,
            additional,
            required_order: Vec::new(),
            min_properties: None,
            max_properties: None,
        }
    }

    /// The indices of the required properties, in `required` order: those JSON Schema's
    /// `required` listed first when an imported schema's order differs from declaration order,
    /// then any other in declaration order.
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
pub enum AdditionalProperties {
    /// `false`: undeclared keys are violations (the default for tool arguments).
    Forbidden,
    /// `true`: undeclared keys are accepted as any JSON.
    Allowed,
    /// A schema every undeclared value must match (`HashMap<String, T>`).
    Schema(Box<Schema>),
}
