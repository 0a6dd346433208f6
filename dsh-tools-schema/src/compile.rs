//! Lowering a [`Schema`] tree into the [`Node`] tree a [`CompiledSchema`] checks values with.
//!
//! Everything the interpreter works out on every call is worked out here once: each keyword
//! family's rules are compiled by the family (`rules/`: a string's lengths and what it must
//! match, a number's bounds resolved into the range of `u64` values they admit, the counts of
//! an array or object, what an array's items must be to each other), the rules few schemas set
//! (a number's rules beyond its bounds, an array's items compared, an object's key counts) get
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

use serde_json::Value;

use super::key::Key;
use super::keywords::KeywordSchema;
use super::model::{AdditionalProperties, Schema, SchemaKind};
use super::property_index::{INDEXED_PROPERTIES, PropertyIndex};
use super::rules::arrays::ItemRelations;
use super::rules::counts::CountRange;
use super::rules::lengths::LengthRange;
use super::rules::matching::Matching;
use super::rules::numbers::NumberRange;

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
    /// A string within bounds that also matches what its family asks (`pattern`, a checked
    /// `format`).
    MatchedString(Box<(LengthRange, Matching)>),
    /// An integral number within bounds, with no rule beyond them.
    Integer(NumberRange),
    /// A finite number within bounds, with no rule beyond them.
    Number(NumberRange),
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
    /// A number with rules beyond its bounds (`multipleOf`).
    RuledNumber(Box<RuledNumberTest>),
    /// An array whose items must also be so to each other (`uniqueItems`): checked after the
    /// items.
    RelatedArray(ItemRelations, ArrayTest),
    /// An object with a bounded number of keys (`minProperties`, `maxProperties`).
    SizedObject(Box<SizedObjectTest>),
}

/// A number node with rules beyond its bounds.
#[derive(Clone, Debug)]
pub(super) struct RuledNumberTest {
    /// Whether the number must be integral.
    pub(super) integer: bool,
    pub(super) rules: NumberRange,
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
            (Test::Number(range), false) if range.is_unbounded() => Self::Number,
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
            Test::Array(array) | Test::RelatedArray(_, array) => array.items.as_deref(),
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
            match rules.matching.compiled() {
                Some(matching) => Test::MatchedString(Box::new((lengths, matching))),
                None if lengths.is_unbounded() => Test::AnyString,
                None => Test::String(lengths),
            }
        }
        SchemaKind::Integer(rules) | SchemaKind::Number(rules) => {
            let integer = matches!(schema.kind, SchemaKind::Integer(_));
            let rules = rules.compiled();
            if !rules.is_bounds_only() {
                Test::RuledNumber(Box::new(RuledNumberTest { integer, rules }))
            } else if integer {
                Test::Integer(rules)
            } else {
                Test::Number(rules)
            }
        }
        SchemaKind::Array(rules) => {
            let items = rules.items.as_deref().map(|items| Box::new(lower(items)));
            let array = ArrayTest {
                each: Each::of(items.as_deref()),
                items,
                counts: rules.constraints.counts().compiled(),
            };
            match rules.constraints.relations() {
                Some(relations) => Test::RelatedArray(relations, array),
                None => Test::Array(array),
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
