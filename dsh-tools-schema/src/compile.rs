//! Lowering a [`Schema`] tree into the [`Node`] tree a [`CompiledSchema`] checks values with.
//!
//! Everything the interpreter works out on every call is worked out here once: absent bounds
//! become sentinels so a check is a plain comparison, number bounds (inclusive and exclusive)
//! are resolved into the range of `u64` values they admit (exactly, float bounds included), the
//! rules few schemas set (`multipleOf`, `uniqueItems`, `minProperties`, `maxProperties`) get
//! tests of their own so that nodes without them check nothing more, property names are
//! prepared for matching ([`Key`]), large objects get a hash index of their names, each object
//! knows how many of its properties are required, and an `enum` of strings becomes a list of
//! strings. Children are stored inline in their parent (a
//! property's node sits next to its key), so checking a property follows no extra pointer.
//!
//! The tree has the schema's shape (a property's node is at the property's index, and so on),
//! so the reporting walk can follow it alongside the schema. Lowering recurses over the schema,
//! as cloning or rendering it does.
//!
//! [`CompiledSchema`]: super::CompiledSchema

use std::sync::{Arc, Weak};

use serde_json::{Number, Value};

use super::format::StringFormat;
use super::key::Key;
use super::keywords::KeywordSchema;
use super::model::{AdditionalProperties, Schema, SchemaKind};
use super::pattern::Pattern;
use super::property_index::{INDEXED_PROPERTIES, PropertyIndex};
use super::rules::counts::CountRange;
use super::rules::lengths::LengthRange;
use super::rules::numbers::NumberRules;

/// One schema node, lowered.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// What a non-null value must satisfy.
    pub(super) test: Test,
    /// `null` is accepted as well.
    pub(super) nullable: bool,
}

/// The check of one node, with everything that does not depend on the value precomputed. The
/// rare and large cases are boxed to keep the common ones compact.
// `repr(u8)` gives the tag a byte of its own instead of a niche in a field: the check
// dispatches on it for every node, and decoding a niche costs several instructions.
#[derive(Clone, Debug)]
#[repr(u8)]
pub(super) enum Test {
    /// Any JSON value.
    Any,
    /// `true` or `false`.
    Boolean,
    /// `null`.
    Null,
    /// Any string.
    AnyString,
    /// A string whose length is within bounds; no pattern.
    String(LengthRange),
    /// A string within bounds that also contains a match for the pattern.
    PatternString(Box<(LengthRange, Pattern)>),
    /// A string within bounds, matching the pattern when there is one, in a checked format.
    FormatString(Box<(LengthRange, Option<Pattern>, StringFormat)>),
    /// An integral number within bounds.
    Integer(Bounds),
    /// A finite number within bounds.
    Number(Bounds),
    /// An array.
    Array(ArrayTest),
    /// An object.
    Object(ObjectTest),
    /// One of these strings (an `enum` whose members are all strings).
    StringEnum(Box<[Box<str>]>),
    /// One of these values, compared by JSON equality.
    Enum(Box<[Value]>),
    /// Exactly this value, compared by JSON equality.
    Const(Box<Value>),
    /// Exactly one of these branches.
    OneOf(Box<[Node]>),
    /// A definition: its schema's node, shared with the references inside it.
    Defined(Arc<Node>),
    /// A reference to an enclosing definition's node (held weakly: the definition owns it, and
    /// a strong count would make the tree a cycle that is never freed). Dangling for a
    /// reference with no definition, which matches nothing.
    Ref {
        target: Weak<Node>,
        /// Whether following it is a level of the depth cap (see
        /// [`Schema::descends_at_once`]).
        counts_a_level: bool,
    },
    /// A document the keyword engine enforces.
    Keywords(KeywordSchema),
    // The rules few schemas set, last: the tags of the common tests stay what they were.
    /// A number within bounds that is a multiple of a factor (`multipleOf`).
    Multiple(Box<MultipleTest>),
    /// An array whose items are all different (`uniqueItems`).
    UniqueArray(ArrayTest),
    /// An object with a bounded number of keys (`minProperties`, `maxProperties`).
    SizedObject(Box<SizedObjectTest>),
}

/// Number bounds, resolved for the common case and kept exact for the rest.
#[derive(Clone, Debug)]
pub(super) struct Bounds {
    /// The smallest `u64` value within the bounds (inclusive and exclusive).
    pub(super) lowest: u64,
    /// The largest `u64` value within the bounds; below `lowest` when there is none.
    pub(super) highest: u64,
    /// The rules as written, for every value that is not a `u64`.
    pub(super) rules: Box<NumberRules>,
}

/// A number node with `multipleOf`.
#[derive(Clone, Debug)]
pub(super) struct MultipleTest {
    /// Whether the number must be integral.
    pub(super) integer: bool,
    pub(super) bounds: Bounds,
    /// The factor (above 0: a rule with any other matches no number).
    pub(super) factor: Number,
}

/// An object with key-count bounds (`0` and `u64::MAX` when absent).
#[derive(Clone, Debug)]
pub(super) struct SizedObjectTest {
    pub(super) object: ObjectTest,
    pub(super) counts: CountRange,
}

/// An array's item schema and item-count bounds (`0` and `u64::MAX` when absent).
#[derive(Clone, Debug)]
pub(super) struct ArrayTest {
    pub(super) items: Option<Box<Node>>,
    /// How the items are checked, decided from `items` here rather than on every array.
    pub(super) each: Each,
    pub(super) counts: CountRange,
}

/// How every item of an array is checked: the item schemas of most arrays take a test of the
/// item's type alone; any other is checked node by node.
#[derive(Clone, Copy, Debug)]
pub(super) enum Each {
    /// Any item goes (no item schema, or one that takes anything).
    Anything,
    /// Strings.
    String,
    /// Strings or `null`.
    StringOrNull,
    /// Booleans.
    Boolean,
    /// Strings of a length within these bounds.
    StringWithin(LengthRange),
    /// Numbers, of any value.
    Number,
    /// Each item against the item node.
    Node,
}

impl Each {
    /// How the items of an array whose item node is `items` are checked.
    fn of(items: Option<&Node>) -> Self {
        let Some(node) = items else {
            return Self::Anything;
        };
        match (&node.test, node.nullable) {
            (Test::Any, _) => Self::Anything,
            (Test::AnyString, false) => Self::String,
            (Test::AnyString, true) => Self::StringOrNull,
            (Test::Boolean, false) => Self::Boolean,
            (Test::String(lengths), false) => Self::StringWithin(*lengths),
            (Test::Number(bounds), false)
                if bounds.rules.minimum.is_none()
                    && bounds.rules.maximum.is_none()
                    && bounds.rules.extra.is_none() =>
            {
                Self::Number
            }
            _ => Self::Node,
        }
    }
}

/// An object's declared properties, in declaration order, and what happens to other keys.
#[derive(Clone, Debug)]
pub(super) struct ObjectTest {
    pub(super) properties: Box<[PropertyTest]>,
    /// How many of `properties` are required.
    pub(super) required: usize,
    pub(super) additional: Additional,
    /// Property names to positions, when there are more than
    /// [`INDEXED_PROPERTIES`](super::property_index::INDEXED_PROPERTIES).
    pub(super) index: Option<Box<PropertyIndex>>,
}

/// One declared property.
#[derive(Clone, Debug)]
pub(super) struct PropertyTest {
    pub(super) key: Key,
    pub(super) node: Node,
    pub(super) required: bool,
}

/// What happens to an undeclared key.
#[derive(Clone, Debug)]
pub(super) enum Additional {
    Forbidden,
    Allowed,
    Matching(Box<Node>),
}

impl Node {
    /// The object test of an object node.
    fn object(&self) -> Option<&ObjectTest> {
        match &self.test {
            Test::Object(object) => Some(object),
            Test::SizedObject(sized) => Some(&sized.object),
            _ => None,
        }
    }

    /// The node of the object property at `index` (declaration order).
    pub(super) fn property(&self, index: usize) -> Option<&Node> {
        self.object()?
            .properties
            .get(index)
            .map(|property| &property.node)
    }

    /// The node of an array's items.
    pub(super) fn items(&self) -> Option<&Node> {
        match &self.test {
            Test::Array(array) | Test::UniqueArray(array) => array.items.as_deref(),
            _ => None,
        }
    }

    /// The node undeclared values of an object must match.
    pub(super) fn additional(&self) -> Option<&Node> {
        match &self.object()?.additional {
            Additional::Matching(values) => Some(values),
            _ => None,
        }
    }

    /// The node of the `oneOf` branch at `index`.
    pub(super) fn branch(&self, index: usize) -> Option<&Node> {
        match &self.test {
            Test::OneOf(branches) => branches.get(index),
            _ => None,
        }
    }

    /// The node of a definition's schema.
    pub(super) fn defined(&self) -> Option<&Node> {
        match &self.test {
            Test::Defined(node) => Some(node),
            _ => None,
        }
    }

    /// The node a reference refers to, while its definition lives.
    pub(super) fn referenced(&self) -> Option<Arc<Node>> {
        match &self.test {
            Test::Ref { target, .. } => target.upgrade(),
            _ => None,
        }
    }
}

/// The definitions enclosing the node being lowered, innermost last.
type Enclosing<'s> = Vec<(&'s str, Weak<Node>, bool)>;

/// Lowers `schema`.
pub(super) fn lower(schema: &Schema) -> Node {
    lower_in(schema, &mut Vec::new())
}

fn lower_in<'s>(schema: &'s Schema, enclosing: &mut Enclosing<'s>) -> Node {
    Node {
        test: test_of(schema, enclosing),
        nullable: schema.nullable,
    }
}

fn test_of<'s>(schema: &'s Schema, enclosing: &mut Enclosing<'s>) -> Test {
    let mut lower = |schema: &'s Schema| lower_in(schema, enclosing);
    match &schema.kind {
        SchemaKind::Any => Test::Any,
        SchemaKind::Boolean => Test::Boolean,
        SchemaKind::Null => Test::Null,
        SchemaKind::String(rules) => {
            let lengths = rules.lengths.compiled();
            if let Some(format) = rules
                .matching
                .format
                .as_ref()
                .filter(|format| format.is_checked())
            {
                return Test::FormatString(Box::new((
                    lengths,
                    rules.matching.pattern.clone(),
                    format.clone(),
                )));
            }
            match &rules.matching.pattern {
                Some(pattern) => Test::PatternString(Box::new((lengths, pattern.clone()))),
                None if lengths.is_unbounded() => Test::AnyString,
                None => Test::String(lengths),
            }
        }
        SchemaKind::Integer(rules) | SchemaKind::Number(rules) => {
            let integer = matches!(schema.kind, SchemaKind::Integer(_));
            let bounds = Bounds::of(rules);
            match rules.multiple_of() {
                Some(factor) => Test::Multiple(Box::new(MultipleTest {
                    integer,
                    bounds,
                    factor: factor.clone(),
                })),
                None if integer => Test::Integer(bounds),
                None => Test::Number(bounds),
            }
        }
        SchemaKind::Array(rules) => {
            let items = rules.items.as_deref().map(|items| Box::new(lower(items)));
            let array = ArrayTest {
                each: Each::of(items.as_deref()),
                items,
                counts: rules.constraints.counts().compiled(),
            };
            if rules.constraints.unique_items {
                Test::UniqueArray(array)
            } else {
                Test::Array(array)
            }
        }
        SchemaKind::Object(rules) => {
            let properties: Box<[PropertyTest]> = rules
                .properties
                .iter()
                .map(|property| PropertyTest {
                    key: Key::new(&property.name),
                    node: lower(&property.schema),
                    required: property.required,
                })
                .collect();
            let additional = match &rules.additional {
                AdditionalProperties::Forbidden => Additional::Forbidden,
                AdditionalProperties::Allowed => Additional::Allowed,
                AdditionalProperties::Schema(values) => {
                    Additional::Matching(Box::new(lower(values)))
                }
            };
            let index = (properties.len() > INDEXED_PROPERTIES).then(|| {
                let names = rules.properties.iter().map(|p| p.name.as_str());
                Box::new(PropertyIndex::new(names))
            });
            let object = ObjectTest {
                required: properties.iter().filter(|p| p.required).count(),
                properties,
                additional,
                index,
            };
            let counts = rules.constraints.counts();
            if counts.is_set() {
                Test::SizedObject(Box::new(SizedObjectTest {
                    object,
                    counts: counts.compiled(),
                }))
            } else {
                Test::Object(object)
            }
        }
        SchemaKind::Enum(members) => {
            let strings: Option<Box<[Box<str>]>> = members
                .iter()
                .map(|member| member.as_str().map(Box::from))
                .collect();
            match strings {
                Some(strings) => Test::StringEnum(strings),
                None => Test::Enum(members.as_slice().into()),
            }
        }
        SchemaKind::Const(constant) => Test::Const(Box::new(constant.clone())),
        SchemaKind::OneOf(branches) => Test::OneOf(branches.iter().map(lower).collect()),
        SchemaKind::Defined(definition) => Test::Defined(Arc::new_cyclic(|node: &Weak<Node>| {
            enclosing.push((
                definition.name.as_str(),
                node.clone(),
                definition.schema.descends_at_once(),
            ));
            let lowered = lower_in(&definition.schema, enclosing);
            enclosing.pop();
            lowered
        })),
        SchemaKind::Ref(name) => {
            let (target, descends) = enclosing
                .iter()
                .rev()
                .find(|(defined, ..)| *defined == name)
                .map_or_else(
                    || (Weak::new(), false),
                    |(_, node, descends)| (node.clone(), *descends),
                );
            Test::Ref {
                target,
                counts_a_level: !descends,
            }
        }
        SchemaKind::Keywords(keywords) => Test::Keywords(keywords.clone()),
    }
}

/// No `u64` is inside: `lowest > highest`.
const NO_U64: (u64, u64) = (1, 0);

impl Bounds {
    fn of(rules: &NumberRules) -> Self {
        let lowest = [
            rules.minimum.as_ref().map_or(Some(0), lowest_at_or_above),
            rules.exclusive_minimum().map_or(Some(0), lowest_above),
        ]
        .into_iter()
        .try_fold(0, |lowest, bound| bound.map(|bound| lowest.max(bound)));
        let highest = [
            rules
                .maximum
                .as_ref()
                .map_or(Some(u64::MAX), highest_at_or_below),
            rules
                .exclusive_maximum()
                .map_or(Some(u64::MAX), highest_below),
        ]
        .into_iter()
        .try_fold(u64::MAX, |highest, bound| {
            bound.map(|bound| highest.min(bound))
        });
        let (lowest, highest) = match (lowest, highest) {
            (Some(lowest), Some(highest)) => (lowest, highest),
            _ => NO_U64,
        };
        Self {
            lowest,
            highest,
            rules: Box::new(rules.clone()),
        }
    }
}

/// The smallest `u64` that is `>= bound`, if any. Exact: for an integer `u`, `u >= b` exactly
/// when `u >= ceil(b)`.
fn lowest_at_or_above(bound: &Number) -> Option<u64> {
    if let Some(u) = bound.as_u64() {
        return Some(u);
    }
    if bound.as_i64().is_some() {
        // Only negative integers are `i64` but not `u64`.
        return Some(0);
    }
    let f = bound.as_f64()?.ceil();
    if f <= 0.0 {
        Some(0)
    } else if f >= U64_LIMIT {
        None
    } else {
        // `f` is integral and inside the `u64` range, so `as` is exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(f as u64)
    }
}

/// The largest `u64` that is `<= bound`, if any. Exact: `u <= b` exactly when `u <= floor(b)`.
fn highest_at_or_below(bound: &Number) -> Option<u64> {
    if let Some(u) = bound.as_u64() {
        return Some(u);
    }
    if bound.as_i64().is_some() {
        return None;
    }
    let f = bound.as_f64()?.floor();
    if f < 0.0 {
        None
    } else if f >= U64_LIMIT {
        Some(u64::MAX)
    } else {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(f as u64)
    }
}

/// The smallest `u64` that is `> bound`, if any. Exact: for an integer `u`, `u > b` exactly when
/// `u >= floor(b) + 1`, the addition done in integers (in doubles it would round beyond 2^53).
fn lowest_above(bound: &Number) -> Option<u64> {
    if let Some(u) = bound.as_u64() {
        return u.checked_add(1);
    }
    if bound.as_i64().is_some() {
        return Some(0);
    }
    let f = bound.as_f64()?.floor();
    if f < 0.0 {
        Some(0)
    } else if f >= U64_LIMIT {
        None
    } else {
        // `f` is integral and inside the `u64` range, so `as` is exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (f as u64).checked_add(1)
    }
}

/// The largest `u64` that is `< bound`, if any. Exact: `u < b` exactly when `u <= ceil(b) - 1`.
fn highest_below(bound: &Number) -> Option<u64> {
    if let Some(u) = bound.as_u64() {
        return u.checked_sub(1);
    }
    if bound.as_i64().is_some() {
        return None;
    }
    let f = bound.as_f64()?.ceil();
    if f <= 0.0 {
        None
    } else if f >= U64_LIMIT {
        Some(u64::MAX)
    } else {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(f as u64 - 1)
    }
}

/// 2^64: every float at or above it is beyond `u64`.
const U64_LIMIT: f64 = 18_446_744_073_709_551_616.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ExtraNumberRules;
    use serde_json::json;

    fn number(value: Value) -> Number {
        match value {
            Value::Number(n) => n,
            other => panic!("not a number: {other}"),
        }
    }

    fn range(min: Option<Value>, max: Option<Value>) -> (u64, u64) {
        let bounds = Bounds::of(&NumberRules {
            minimum: min.map(number),
            maximum: max.map(number),
            ..NumberRules::default()
        });
        (bounds.lowest, bounds.highest)
    }

    fn exclusive_range(min: Option<Value>, max: Option<Value>) -> (u64, u64) {
        let bounds = Bounds::of(&NumberRules {
            extra: Some(Box::new(ExtraNumberRules {
                exclusive_minimum: min.map(number),
                exclusive_maximum: max.map(number),
                multiple_of: None,
            })),
            ..NumberRules::default()
        });
        (bounds.lowest, bounds.highest)
    }

    #[test]
    fn exclusive_bounds_resolve_to_the_values_strictly_inside() {
        assert_eq!(exclusive_range(Some(json!(0)), Some(json!(10))), (1, 9));
        assert_eq!(exclusive_range(Some(json!(-1)), Some(json!(1))), (0, 0));
        assert_eq!(exclusive_range(Some(json!(2.5)), Some(json!(7.5))), (3, 7));
        assert_eq!(exclusive_range(Some(json!(-0.5)), Some(json!(0.5))), (0, 0));
        assert_eq!(exclusive_range(Some(json!(-0.0)), None), (1, u64::MAX));
        assert_eq!(exclusive_range(Some(json!(u64::MAX)), None), NO_U64);
        assert_eq!(exclusive_range(None, Some(json!(0))), NO_U64);
        assert_eq!(exclusive_range(None, Some(json!(-0.0))), NO_U64);
        assert_eq!(exclusive_range(None, Some(json!(1e300))), (0, u64::MAX));
        // Beyond 2^53 the neighbour is found in integers, not in doubles.
        assert_eq!(
            exclusive_range(Some(json!(1_152_921_504_606_846_976.0)), None).0,
            1_152_921_504_606_846_977
        );
        let both = Bounds::of(&NumberRules {
            minimum: Some(number(json!(3))),
            maximum: Some(number(json!(8))),
            extra: Some(Box::new(ExtraNumberRules {
                exclusive_minimum: Some(number(json!(5))),
                exclusive_maximum: Some(number(json!(100))),
                multiple_of: None,
            })),
            ..NumberRules::default()
        });
        assert_eq!((both.lowest, both.highest), (6, 8));
    }

    #[test]
    fn integer_bounds_resolve_to_themselves() {
        assert_eq!(range(Some(json!(1)), Some(json!(10_000))), (1, 10_000));
        assert_eq!(range(None, None), (0, u64::MAX));
        assert_eq!(range(Some(json!(-5)), Some(json!(u64::MAX))), (0, u64::MAX));
    }

    #[test]
    fn float_bounds_round_inwards() {
        assert_eq!(range(Some(json!(2.5)), Some(json!(7.5))), (3, 7));
        assert_eq!(range(Some(json!(-0.0)), Some(json!(-0.0))), (0, 0));
        assert_eq!(range(Some(json!(-2.5)), Some(json!(1e300))), (0, u64::MAX));
    }

    #[test]
    fn bounds_without_u64_values_are_empty() {
        assert_eq!(range(None, Some(json!(-1))), NO_U64);
        assert_eq!(range(None, Some(json!(-0.5))), NO_U64);
        assert_eq!(range(Some(json!(1e20)), None), NO_U64);
        assert_eq!(range(Some(json!(5)), Some(json!(4))), (5, 4));
    }
}
