//! The builder: how hand-written tools (and macro-generated code) assemble a [`Schema`].
//!
//! Constructors on [`Schema`] start a schema; kinds with constraints return one generic
//! builder, [`SchemaBuilder`], typed by the kind's rules, so that a constraint can only be set
//! where it means something (`length` on a string, never on an integer): each kind's
//! methods are in its own `impl` block. Every builder converts into a [`Schema`] (`.build()` or
//! `Into`), and every method that takes a schema accepts `impl Into<Schema>`.
//!
//! ```
//! use dsh_tools_schema::{CompiledSchema, Schema};
//!
//! let read_file: Schema = Schema::object()
//!     .required("path", Schema::string().length(1..).description("Absolute file path"))
//!     .optional("limit", Schema::integer().range(1..=10_000).default_value(200))
//!     .optional("mode", Schema::enumeration(["text", "bytes"]))
//!     .build();
//! let read_file = CompiledSchema::from(read_file);
//! assert!(read_file.is_valid(&serde_json::json!({"path": "/etc/hosts", "limit": 20})));
//! ```
//!
//! Building never fails except where the input can be malformed (a string's `pattern` compiles
//! an ECMA-262 pattern and says why it cannot, a number's `multiple_of` takes only a factor
//! above 0); nothing here panics.
//!
//! The builder's methods for the value keywords (`length`, `range`, `unique_items`,
//! …) are written with their keywords' rules in `rules/` and expanded into the builders here, so
//! a new keyword adds its method in its family's file.

use serde_json::{Number, Value};

use super::error::SchemaError;
use super::format::StringFormat;
use super::keywords::KeywordSchema;
use super::model::{
    AdditionalProperties, Annotations, ArrayRules, Definition, ObjectRules, Property, Schema,
    SchemaKind, StringRules,
};
use super::pattern::Pattern;
use super::rules::numbers::NumberRules;

impl Schema {
    /// A schema of `kind`, not nullable, without annotations.
    #[doc(hidden)]
    pub fn new(kind: SchemaKind) -> Self {
        Self {
            kind,
            nullable: false,
            annotations: Annotations::default(),
        }
    }

    /// A string (`{"type":"string"}`); constraints on the returned builder.
    pub fn string() -> SchemaBuilder<StringRules> {
        SchemaBuilder::of(StringRules::default())
    }

    /// A finite number (`{"type":"number"}`); bounds on the returned builder.
    pub fn number() -> SchemaBuilder<NumberRules> {
        SchemaBuilder::of(NumberRules::default())
    }

    /// An integer (`{"type":"integer"}`; `1.0` and `1e3` count); bounds on the returned builder.
    pub fn integer() -> SchemaBuilder<NumberRules> {
        SchemaBuilder {
            integer: true,
            ..Self::number()
        }
    }

    /// `true` or `false`.
    pub fn boolean() -> Self {
        Self::new(SchemaKind::Boolean)
    }

    /// Only `null` (Rust's `()`).
    pub fn null() -> Self {
        Self::new(SchemaKind::Null)
    }

    /// Any JSON value (`{}`; the spec's `json`, Rust's `serde_json::Value`).
    pub fn any() -> Self {
        Self::new(SchemaKind::Any)
    }

    /// A JSON Schema 2020-12 document compiled by the keyword engine
    /// ([`SchemaKind::Keywords`]). Not API, as the model's layout is not: users import raw JSON
    /// Schema with [`Schema::from_json_schema`].
    #[doc(hidden)]
    pub fn keywords(document: KeywordSchema) -> Self {
        Self::new(SchemaKind::Keywords(document))
    }

    /// An array whose every item matches `items`; `Schema::array(Schema::any())` is an array of
    /// any items, `{"type":"array"}`.
    pub fn array(items: impl Into<Schema>) -> SchemaBuilder<ArrayRules> {
        let items = items.into();
        // Items that can be anything constrain nothing: no `items` keyword, as JSON Schema
        // writes such an array.
        let items = (items != Schema::any()).then(|| Box::new(items));
        SchemaBuilder::of(ArrayRules {
            items,
            ..ArrayRules::default()
        })
    }

    /// A closed object with no properties yet (`additionalProperties: false`); add properties
    /// with [`required`](SchemaBuilder::required) and [`optional`](SchemaBuilder::optional). A
    /// map (`HashMap<String, T>`) is an object whose keys all match one schema:
    /// `Schema::object().additional_schema(values)`.
    pub fn object() -> SchemaBuilder<ObjectRules> {
        SchemaBuilder::of(ObjectRules::new(
            Vec::new(),
            AdditionalProperties::Forbidden,
        ))
    }

    /// One of the listed values (`enum`); numbers compare by value, so `1` and `1.0` are the same
    /// member. `Schema::enumeration(["literal", "regex"])`. An empty list matches nothing.
    pub fn enumeration<I>(values: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Value>,
    {
        Self::new(SchemaKind::Enum(
            values.into_iter().map(Into::into).collect(),
        ))
    }

    /// Exactly `value` (`const`), e.g. the tag of a tagged enum variant.
    pub fn constant(value: impl Into<Value>) -> Self {
        Self::new(SchemaKind::Const(value.into()))
    }

    /// The schema itself: every builder chain can end in `.build()`, whichever constructor began
    /// it. Generated code relies on this; a user holding a `Schema` has nothing to build, so it
    /// is not API.
    #[doc(hidden)]
    pub fn build(self) -> Schema {
        self
    }

    /// Exactly one of `branches` (`oneOf`).
    pub fn one_of<I>(branches: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Schema>,
    {
        Self::new(SchemaKind::OneOf(
            branches.into_iter().map(Into::into).collect(),
        ))
    }

    /// A definition named `name` that [`Schema::reference`]s to `name` within `schema` refer
    /// back to: how a recursive shape is written.
    ///
    /// ```
    /// use dsh_tools_schema::{CompiledSchema, Schema};
    /// use serde_json::json;
    ///
    /// // An outline: a title and any number of outlines below it.
    /// let outline = Schema::definition(
    ///     "Outline",
    ///     Schema::object()
    ///         .required("title", Schema::string())
    ///         .optional("children", Schema::array(Schema::reference("Outline")))
    ///         .build(),
    /// );
    /// let outline = CompiledSchema::from(outline);
    /// assert!(outline.is_valid(&json!({"title": "a", "children": [{"title": "b"}]})));
    /// assert_eq!(
    ///     outline.validate(&json!({"title": "a", "children": [{"title": 7}]})).unwrap_err().to_string(),
    ///     r#""children[0].title" must be a string"#,
    /// );
    /// ```
    pub fn definition(name: impl Into<String>, schema: impl Into<Schema>) -> Self {
        Self::new(SchemaKind::Defined(Box::new(Definition {
            name: name.into(),
            schema: schema.into(),
        })))
    }

    /// A reference to the enclosing [`Schema::definition`] named `name`.
    pub fn reference(name: impl Into<String>) -> Self {
        Self::new(SchemaKind::Ref(name.into()))
    }

    /// The object rules of a schema that is always an object (not nullable), seen through
    /// definitions: what a tool's arguments must be.
    #[doc(hidden)]
    pub fn as_object(&self) -> Option<&ObjectRules> {
        if self.nullable {
            return None;
        }
        match &self.kind {
            SchemaKind::Object(rules) => Some(rules),
            SchemaKind::Defined(definition) => definition.schema.as_object(),
            _ => None,
        }
    }

    /// Whether a [`Schema::definition`], or a keyword document with references
    /// ([`SchemaKind::Keywords`]), appears anywhere in this schema (its values can nest without
    /// limit). Not API: how the runtime picks a validator for a schema, a fact of the layout.
    #[doc(hidden)]
    pub fn is_recursive(&self) -> bool {
        match &self.kind {
            SchemaKind::Defined(_) | SchemaKind::Ref(_) => true,
            SchemaKind::Array(rules) => rules.items.as_deref().is_some_and(Schema::is_recursive),
            SchemaKind::Object(rules) => {
                rules
                    .properties
                    .iter()
                    .any(|property| property.schema.is_recursive())
                    || matches!(&rules.additional, AdditionalProperties::Schema(values) if values.is_recursive())
            }
            SchemaKind::OneOf(branches) => branches.iter().any(Schema::is_recursive),
            SchemaKind::Keywords(keywords) => keywords.has_references(),
            SchemaKind::String(_)
            | SchemaKind::Number(_)
            | SchemaKind::Integer(_)
            | SchemaKind::Boolean
            | SchemaKind::Null
            | SchemaKind::Any
            | SchemaKind::Enum(_)
            | SchemaKind::Const(_) => false,
        }
    }
}

/// Annotation and nullability setters shared by [`Schema`] and the builder.
macro_rules! common_setters {
    (impl $($head:tt)*) => {
        impl $($head)* {
            /// Accepts `null` as well (Rust's `Option<T>`); rendered as `"type": [T, "null"]`.
            #[must_use]
            pub fn nullable(mut self) -> Self {
                self.nullable = true;
                self
            }

            /// Sets `title`.
            #[must_use]
            pub fn title(mut self, title: impl Into<String>) -> Self {
                self.annotations.title = Some(title.into());
                self
            }

            /// Sets `description` (what the model reads about this value).
            #[must_use]
            pub fn description(mut self, description: impl Into<String>) -> Self {
                self.annotations.description = Some(description.into());
                self
            }

            /// Sets `default`: what an absent property means. An annotation only; it is not
            /// checked against the schema here.
            #[must_use]
            pub fn default_value(mut self, value: impl Into<Value>) -> Self {
                self.annotations.default = Some(value.into());
                self
            }

            /// Appends entries to `examples`.
            #[must_use]
            pub fn examples<I>(mut self, values: I) -> Self
            where
                I: IntoIterator,
                I::Item: Into<Value>,
            {
                self.annotations
                    .examples
                    .extend(values.into_iter().map(Into::into));
                self
            }
        }
    };
}

common_setters!(impl Schema);
common_setters!(impl<R> SchemaBuilder<R>);

/// Builds a schema of one kind: what [`Schema::string`], [`Schema::number`],
/// [`Schema::integer`], [`Schema::array`] and [`Schema::object`] return.
///
/// `R` is the kind's rules (not API); the methods a kind takes are in its own `impl` block
/// (`SchemaBuilder<StringRules>`: `min_length`, `pattern`, …), so a constraint is only set where
/// it means something. [`build`](Self::build) (or `Into<Schema>`) finishes it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SchemaBuilder<R> {
    rules: R,
    /// A number's rules build an `integer` rather than a `number`; unread for other kinds.
    integer: bool,
    nullable: bool,
    annotations: Annotations,
}

impl<R> SchemaBuilder<R> {
    /// A builder of `rules`, not nullable, without annotations.
    fn of(rules: R) -> Self {
        Self {
            rules,
            integer: false,
            nullable: false,
            annotations: Annotations::default(),
        }
    }
}

impl<R: BuilderRules> SchemaBuilder<R> {
    /// The finished schema.
    pub fn build(self) -> Schema {
        Schema {
            kind: self.rules.into_kind(self.integer),
            nullable: self.nullable,
            annotations: self.annotations,
        }
    }
}

/// The rules of a kind [`SchemaBuilder`] builds, and the kind they make. Not API: the rules
/// are the model's layout.
#[doc(hidden)]
pub trait BuilderRules {
    /// The kind these rules make (`integer`: a number's rules make an `integer`).
    fn into_kind(self, integer: bool) -> SchemaKind;
}

impl BuilderRules for StringRules {
    fn into_kind(self, _integer: bool) -> SchemaKind {
        SchemaKind::String(self)
    }
}

impl BuilderRules for NumberRules {
    fn into_kind(self, integer: bool) -> SchemaKind {
        if integer {
            SchemaKind::Integer(self)
        } else {
            SchemaKind::Number(self)
        }
    }
}

impl BuilderRules for ArrayRules {
    fn into_kind(self, _integer: bool) -> SchemaKind {
        SchemaKind::Array(self)
    }
}

impl BuilderRules for ObjectRules {
    fn into_kind(self, _integer: bool) -> SchemaKind {
        SchemaKind::Object(self)
    }
}

impl<R: BuilderRules> From<SchemaBuilder<R>> for Schema {
    fn from(builder: SchemaBuilder<R>) -> Self {
        builder.build()
    }
}

/// A string's methods: its lengths, `pattern` and `format`.
impl SchemaBuilder<StringRules> {
    super::rules::lengths::length_methods!();
    super::rules::matching::matching_methods!();
}

/// A number's (or an integer's) methods: its bounds and `multipleOf`.
impl SchemaBuilder<NumberRules> {
    super::rules::numbers::number_methods!();
}

/// Which bound a [`NumberBound`] becomes; decides how a non-finite float is read. Not API: only
/// the implementations of [`NumberBound`] here read it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundSide {
    /// `minimum`.
    Minimum,
    /// `maximum`.
    Maximum,
}

/// A Rust number usable as a `minimum`/`maximum`: every primitive integer, `f32`, `f64` and
/// [`serde_json::Number`].
///
/// Integers convert exactly. A float is not always a JSON number: `-∞` as a minimum and `+∞` as a
/// maximum bound nothing and leave the bound unset; `+∞` as a minimum and `-∞` as a maximum
/// become the largest finite float of that sign (so no ordinary number passes); `NaN` compares
/// with nothing and leaves the bound unset.
pub trait NumberBound {
    /// The bound as an exact JSON number, or `None` for no bound. Not API: the builders call
    /// it; users pass numbers.
    #[doc(hidden)]
    fn into_bound(self, side: BoundSide) -> Option<Number>;
}

macro_rules! integer_bounds {
    ($($ty:ty),*) => {
        $(
            impl NumberBound for $ty {
                fn into_bound(self, _side: BoundSide) -> Option<Number> {
                    Some(Number::from(self))
                }
            }
        )*
    };
}

integer_bounds!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl NumberBound for i128 {
    /// Saturates at the `i64`/`u64` range JSON numbers can hold exactly.
    fn into_bound(self, _side: BoundSide) -> Option<Number> {
        Some(if let Ok(value) = i64::try_from(self) {
            Number::from(value)
        } else if self > 0 {
            Number::from(u64::try_from(self).unwrap_or(u64::MAX))
        } else {
            Number::from(i64::MIN)
        })
    }
}

impl NumberBound for u128 {
    /// Saturates at `u64::MAX`.
    fn into_bound(self, _side: BoundSide) -> Option<Number> {
        Some(Number::from(u64::try_from(self).unwrap_or(u64::MAX)))
    }
}

impl NumberBound for f64 {
    fn into_bound(self, side: BoundSide) -> Option<Number> {
        if self.is_nan() {
            return None;
        }
        if self.is_infinite() {
            let unbounded = match side {
                BoundSide::Minimum => self < 0.0,
                BoundSide::Maximum => self > 0.0,
            };
            if unbounded {
                return None;
            }
            return Number::from_f64(if self > 0.0 { f64::MAX } else { f64::MIN });
        }
        Number::from_f64(self)
    }
}

impl NumberBound for f32 {
    fn into_bound(self, side: BoundSide) -> Option<Number> {
        f64::from(self).into_bound(side)
    }
}

impl NumberBound for Number {
    fn into_bound(self, _side: BoundSide) -> Option<Number> {
        Some(self)
    }
}

impl NumberBound for &Number {
    fn into_bound(self, _side: BoundSide) -> Option<Number> {
        Some(self.clone())
    }
}

/// An array's methods: its item counts and `uniqueItems`.
impl SchemaBuilder<ArrayRules> {
    super::rules::arrays::array_methods!();
}

/// An object's methods: its properties, what happens to undeclared ones, and its property
/// counts.
impl SchemaBuilder<ObjectRules> {
    /// Declares a property that must be present. A property declared twice keeps its first
    /// position and takes the last declaration.
    #[must_use]
    pub fn required(self, name: impl Into<String>, schema: impl Into<Schema>) -> Self {
        self.property(Property::required(name, schema))
    }

    /// Declares a property that may be absent. An optional property given `null` is a type
    /// error unless its schema is [`nullable`](Schema::nullable) (Rust's `Option<T>` is both).
    #[must_use]
    pub fn optional(self, name: impl Into<String>, schema: impl Into<Schema>) -> Self {
        self.property(Property::optional(name, schema))
    }

    /// Declares `property` (for generated code that computes `required`).
    #[doc(hidden)]
    #[must_use]
    pub fn property(mut self, property: Property) -> Self {
        match self
            .rules
            .properties
            .iter_mut()
            .find(|existing| existing.name == property.name)
        {
            Some(existing) => *existing = property,
            None => self.rules.properties.push(property),
        }
        self
    }

    /// `additionalProperties: true` (open: undeclared keys accepted as any JSON) or `false`
    /// (closed, the default: undeclared keys are violations).
    #[must_use]
    pub fn additional_properties(mut self, allowed: bool) -> Self {
        self.rules.additional = if allowed {
            AdditionalProperties::Allowed
        } else {
            AdditionalProperties::Forbidden
        };
        self
    }

    /// Undeclared keys are accepted when their values match `schema`: with no declared
    /// properties, a map (`{"type":"object","additionalProperties":{…}}`); with some, a map with
    /// some fixed keys.
    #[must_use]
    pub fn additional_schema(mut self, schema: impl Into<Schema>) -> Self {
        self.rules.additional = AdditionalProperties::Schema(Box::new(schema.into()));
        self
    }

    super::rules::objects::object_methods!();
}

impl Property {
    /// A property that must be present.
    #[doc(hidden)]
    pub fn required(name: impl Into<String>, schema: impl Into<Schema>) -> Self {
        Self {
            name: name.into(),
            schema: schema.into(),
            required: true,
        }
    }

    /// A property that may be absent.
    #[doc(hidden)]
    pub fn optional(name: impl Into<String>, schema: impl Into<Schema>) -> Self {
        Self {
            required: false,
            ..Self::required(name, schema)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::Bound;

    #[test]
    fn objects_are_closed_and_properties_keep_declaration_order() {
        let schema = Schema::object()
            .required("b", Schema::string())
            .optional("a", Schema::integer())
            .required("b", Schema::boolean())
            .build();
        let SchemaKind::Object(rules) = &schema.kind else {
            panic!("not an object")
        };
        assert_eq!(rules.additional, AdditionalProperties::Forbidden);
        let names: Vec<_> = rules.properties.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["b", "a"]);
        assert_eq!(rules.properties[0].schema.kind, SchemaKind::Boolean);
    }

    #[test]
    fn invalid_pattern_is_an_error() {
        let error = Schema::string().pattern("(").unwrap_err();
        assert_eq!(
            error.to_string(),
            "unsupported JSON schema: pattern \"(\": the group \"(\" at offset 0 is not valid \
             ECMA-262 regular expression syntax (it is never closed)"
        );
    }

    #[test]
    fn multiple_of_takes_only_factors_above_zero() {
        let rules = |schema: SchemaBuilder<NumberRules>| schema.rules.multiple_of().cloned();
        assert_eq!(
            rules(Schema::integer().multiple_of(5).unwrap()),
            Some(Number::from(5))
        );
        assert_eq!(
            rules(Schema::number().multiple_of(0.25).unwrap()),
            Number::from_f64(0.25)
        );
        for refused in [0.0, -2.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let error = Schema::number().multiple_of(refused).unwrap_err();
            assert_eq!(
                error.to_string(),
                "unsupported JSON schema: multipleOf must be a finite number greater than 0",
                "{refused}"
            );
        }
        assert!(Schema::integer().multiple_of(-3).is_err());
        assert!(Schema::integer().multiple_of(0_u64).is_err());
    }

    #[test]
    fn exclusive_bounds_follow_their_side() {
        let schema = Schema::number().range(f64::NEG_INFINITY..f64::INFINITY);
        assert_eq!(schema.rules, NumberRules::default());
        let schema = Schema::integer().range((Bound::Excluded(0), Bound::Excluded(10)));
        assert_eq!(schema.rules.exclusive_minimum(), Some(&Number::from(0)));
        assert_eq!(schema.rules.exclusive_maximum(), Some(&Number::from(10)));
        assert_eq!((schema.rules.minimum, schema.rules.maximum), (None, None));
    }

    #[test]
    fn float_bounds_follow_their_side() {
        let schema = Schema::number().range(f64::NEG_INFINITY..=f64::INFINITY);
        assert_eq!(schema.rules, NumberRules::default());
        let schema = Schema::number().range(f64::INFINITY..=f64::NAN);
        assert_eq!(schema.rules.minimum, Number::from_f64(f64::MAX));
        assert_eq!(schema.rules.maximum, None);
        let schema = Schema::integer().range(-1_i128 << 100..=i128::MAX);
        assert_eq!(schema.rules.minimum, Some(Number::from(i64::MIN)));
        assert_eq!(schema.rules.maximum, Some(Number::from(u64::MAX)));
    }

    #[test]
    fn a_range_replaces_the_bounds_before_it() {
        let schema = Schema::integer().range(0..10).range(5..);
        assert_eq!(schema.rules.minimum, Some(Number::from(5)));
        assert_eq!(schema.rules.exclusive_maximum(), None);
        assert_eq!(schema.rules, Schema::integer().range(5..).rules);
    }

    #[test]
    fn count_ranges_become_inclusive_bounds() {
        let lengths = |builder: SchemaBuilder<StringRules>| {
            let lengths = builder.rules.lengths;
            (lengths.min, lengths.max)
        };
        assert_eq!(lengths(Schema::string().length(1..)), (Some(1), None));
        assert_eq!(lengths(Schema::string().length(..64)), (None, Some(63)));
        assert_eq!(lengths(Schema::string().length(2..=4)), (Some(2), Some(4)));
        assert_eq!(lengths(Schema::string().length(..)), (None, None));
        // An empty range: no length meets both bounds.
        let nothing = Schema::string().length(..0).build();
        assert!(!nothing.is_valid(&serde_json::json!("")));
        let items = Schema::array(Schema::any()).item_count(1..=3).build();
        assert_eq!(
            items.to_json_schema(),
            serde_json::json!({"type": "array", "minItems": 1, "maxItems": 3})
        );
        let keys = Schema::object()
            .additional_schema(Schema::any())
            .property_count(..2)
            .build();
        assert!(keys.is_valid(&serde_json::json!({"a": 1})));
        assert!(!keys.is_valid(&serde_json::json!({"a": 1, "b": 2})));
    }
}
