//! The yes/no walk over a [`CompiledSchema`](super::CompiledSchema)'s nodes: the whole cost of
//! validating a valid value. It follows `validate.rs`'s `check` rule for rule (same depth cap,
//! same JSON semantics); the differential tests hold the two and `jsonschema` to the same answers.

use serde_json::{Map, Number, Value};

use super::compile::{
    Additional, ArrayTest, Each, Node, ObjectTest, PropertyTest, RuledNumberTest, SizedObjectTest,
    Test,
};
use super::key::{Probe, guess_from_hint, search};
use super::limits::MAX_VALIDATION_DEPTH;
use super::rules::numbers::NumberRange;
use super::semantics::{count_up_to_two, is_integral, json_equal};

/// Whether `value` matches `node`. Inlined into the container walks: the common leaves
/// are decided in place (most nodes of a payload are scalars, and a call per scalar is a large
/// share of the whole cost) and containers are entered with a single call.
#[inline(always)]
pub(super) fn check(node: &Node, value: &Value, depth: usize) -> bool {
    match (&node.test, value) {
        (Test::AnyString, Value::String(_)) => true,
        (Test::String(lengths), Value::String(text)) => lengths.holds(text),
        (Test::Integer(range), Value::Number(number)) => match number.as_u64() {
            Some(u) => range.holds_u64(u),
            None => is_integral(number) && range.holds_exactly(number),
        },
        (Test::Boolean, Value::Bool(_)) | (Test::Any, _) => true,
        (Test::Object(object), Value::Object(map)) => {
            depth < MAX_VALIDATION_DEPTH && check_object(object, map, depth)
        }
        (Test::Array(array), Value::Array(items)) => {
            depth < MAX_VALIDATION_DEPTH && check_array(array, items, depth)
        }
        // Straight to the keyword engine's own walk: `check_rest`'s frame would cost a
        // keyword schema's value more than a typed leaf.
        (Test::Keywords(keywords), _) => {
            node.nullable && value.is_null() || keywords.check(value, depth)
        }
        _ => check_rest(node, value, depth),
    }
}

/// The whole check of `node`, out of line. [`check`] decides the common cases in place and
/// leaves the rest here; this function still handles every case, so it stands on its own.
///
/// It dispatches on the test first, with one jump, and every arm that walks further is a call:
/// inlined here, the walks' registers would be saved on every entry.
#[inline(never)]
fn check_rest(node: &Node, value: &Value, depth: usize) -> bool {
    if node.nullable && value.is_null() {
        return true;
    }
    match &node.test {
        Test::Any => true,
        Test::AnyString => value.is_string(),
        Test::Boolean => value.is_boolean(),
        Test::Null => value.is_null(),
        Test::String(lengths) => matches!(value, Value::String(text) if lengths.holds(text)),
        Test::MatchedString(rules) => match value {
            Value::String(text) => {
                let (lengths, matching) = &**rules;
                lengths.holds(text) && matching.holds(text)
            }
            _ => false,
        },
        Test::Integer(range) => matches!(
            value,
            Value::Number(number) if is_integral(number) && number_within(range, number)
        ),
        Test::Number(range) => {
            matches!(value, Value::Number(number) if number_within(range, number))
        }
        Test::RuledNumber(test) => {
            matches!(value, Value::Number(number) if ruled_number_holds(test, number))
        }
        Test::Object(object) => match value {
            Value::Object(map) => depth < MAX_VALIDATION_DEPTH && check_object(object, map, depth),
            _ => false,
        },
        Test::SizedObject(sized) => match value {
            Value::Object(map) => {
                depth < MAX_VALIDATION_DEPTH && check_sized_object(sized, map, depth)
            }
            _ => false,
        },
        Test::Array(array) => match value {
            Value::Array(items) => depth < MAX_VALIDATION_DEPTH && check_array(array, items, depth),
            _ => false,
        },
        Test::RelatedArray(relations, array) => match value {
            // The items are checked against their schema before they are compared.
            Value::Array(items) => {
                depth < MAX_VALIDATION_DEPTH
                    && check_array(array, items, depth)
                    && relations.hold(items)
            }
            _ => false,
        },
        Test::StringEnum(members) => match value {
            Value::String(text) => members.iter().any(|member| **member == **text),
            _ => false,
        },
        Test::Enum(members) => members.iter().any(|member| json_equal(member, value)),
        Test::Const(constant) => json_equal(constant, value),
        Test::OneOf(branches) => check_one_of(branches, value, depth),
        Test::Defined(node) => check_defined(node, value, depth),
        // A reference counts as a level where the interpreter counts one.
        Test::Ref {
            target,
            counts_a_level,
        } => {
            let depth = depth + usize::from(*counts_a_level);
            depth <= MAX_VALIDATION_DEPTH
                && target
                    .upgrade()
                    .is_some_and(|node| check_defined(&node, value, depth))
        }
        Test::Keywords(keywords) => keywords.check(value, depth),
    }
}

#[inline(never)]
fn check_one_of(branches: &[Node], value: &Value, depth: usize) -> bool {
    depth < MAX_VALIDATION_DEPTH
        && count_up_to_two(branches, |branch| check(branch, value, depth + 1)) == 1
}

/// [`check`] out of line, for the arms above that apply another node.
#[inline(never)]
fn check_defined(node: &Node, value: &Value, depth: usize) -> bool {
    check(node, value, depth)
}

#[inline(never)]
fn check_object(object: &ObjectTest, map: &Map<String, Value>, depth: usize) -> bool {
    let mut required_seen = 0usize;
    let mut hint = 0usize;
    for (key, item) in map {
        match find_property(object, key, hint) {
            Some((index, property)) => {
                if !check(&property.node, item, depth + 1) {
                    return false;
                }
                required_seen += usize::from(property.required);
                hint = index + 1;
            }
            None => match &object.additional {
                Additional::Forbidden => return false,
                Additional::Allowed => {}
                Additional::Matching(values) => {
                    if !check(values, item, depth + 1) {
                        return false;
                    }
                }
            },
        }
    }
    // Payload keys are unique and each names at most one property, so the count says whether
    // every required property was present.
    required_seen == object.required
}

#[inline(never)]
fn check_sized_object(sized: &SizedObjectTest, map: &Map<String, Value>, depth: usize) -> bool {
    sized.counts.holds(map.len() as u64) && check_object(&sized.object, map, depth)
}

#[inline(never)]
fn check_array(array: &ArrayTest, items: &[Value], depth: usize) -> bool {
    if !array.counts.holds(items.len() as u64) {
        return false;
    }
    // Each loop runs out of line (a tail call from here), so that this dispatch, which short
    // arrays pay for in full, needs no frame; an item costs a test of its type, eight at a time,
    // for the item schemas of most arrays (see [`Each`]).
    match array.each {
        Each::Anything => true,
        Each::String => all_in_blocks(items, Value::is_string),
        Each::StringOrNull => all_in_blocks(items, |value| {
            matches!(value, Value::String(_) | Value::Null)
        }),
        Each::Boolean => all_in_blocks(items, Value::is_boolean),
        Each::Number => all_in_blocks(items, Value::is_number),
        Each::StringWithin(lengths) => all_in_blocks(
            items,
            |value| matches!(value, Value::String(text) if lengths.holds(text)),
        ),
        Each::Node => array
            .items
            .as_deref()
            .is_none_or(|item| all_match(item, items, depth + 1)),
    }
}

/// Whether every one of `values` matches `node`, each checked in turn.
#[inline(never)]
fn all_match(node: &Node, values: &[Value], depth: usize) -> bool {
    values.iter().all(|value| check(node, value, depth))
}

/// Whether `test` holds for every value, deciding blocks of eight without a branch per value
/// (valid arrays are the common case; an invalid one stops at the block that fails).
#[inline(never)]
fn all_in_blocks(values: &[Value], test: impl Fn(&Value) -> bool) -> bool {
    // Taken apart by pattern rather than with `chunks_exact`: nothing to set up before the first
    // block, which a short array would pay for as much as a long one.
    let mut rest = values;
    while let [a, b, c, d, e, f, g, h, tail @ ..] = rest {
        if !(test(a) & test(b) & test(c) & test(d) & test(e) & test(f) & test(g) & test(h)) {
            return false;
        }
        rest = tail;
    }
    rest.iter().all(test)
}

/// The property named `key`, and its index: where the hint expects it (see
/// [`guess_from_hint`]), else from the object's index or a scan.
#[inline(always)]
fn find_property<'p>(
    object: &'p ObjectTest,
    key: &str,
    hint: usize,
) -> Option<(usize, &'p PropertyTest)> {
    let properties = &object.properties;
    let index = guess_from_hint(properties.len(), hint, |index| {
        properties[index].key.matches(key)
    })
    .or_else(|| find_elsewhere(object, key))?;
    Some((index, &properties[index]))
}

/// The miss path: the key is read once ([`Probe`]) for the hash and every comparison.
#[inline(never)]
fn find_elsewhere(object: &ObjectTest, key: &str) -> Option<usize> {
    let properties = &object.properties;
    let probe = Probe::new(key);
    let is_named = |index: usize| properties[index].key.matches_probe(&probe);
    match &object.index {
        Some(index) => index.get_probe(&probe, is_named),
        None => search(properties.len(), is_named),
    }
}

/// Whether `number` is within `range`: a `u64` against the precomputed range, anything else
/// exactly against the rules as written.
#[inline(always)]
fn number_within(range: &NumberRange, number: &Number) -> bool {
    range.holds(number)
}

/// Whether `number` passes a number node with rules beyond its bounds.
#[inline(never)]
fn ruled_number_holds(test: &RuledNumberTest, number: &Number) -> bool {
    (!test.integer || is_integral(number)) && test.rules.holds_all(number)
}
