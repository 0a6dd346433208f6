//! The walk of an object's properties that generated conversions share: one function, compiled
//! once in the runtime, hands each value to the slot of its field, which the struct's match of
//! its keys (a function from a key to a field's index) names; the generated code keeps only that
//! match and the conversion of each field, through helpers generic over the field's type alone.
//!
//! A value arrives read ([`Json::Read`], when something else still needs the arguments) or given
//! up ([`Json::Given`], its strings and arrays moved into the Rust value), and one generated
//! conversion serves both: a slot holds a property read or one borrowed from the object given
//! up, and each field converts it by reference or takes it by value accordingly.

use serde_json::Value;

use super::convert::absent_or_missing;
use crate::args::ConvertError;

/// A JSON value to convert: read, or given up so that its parts can be moved out.
pub enum Json<'a> {
    /// A value someone else keeps: converted by reference (`ToolArgs::from_json`).
    Read(&'a Value),
    /// A value nothing else needs: converted by value (`ToolArgs::from_json_owned`).
    Given(Value),
}

/// The value of one property of an object being converted, as the conversion may use it: read,
/// or borrowed from the object given up, to be taken (`null` is left behind). Two words, so a
/// struct's slots are cheap to set and to take from.
pub enum Slot<'a> {
    /// The object has no such property.
    Absent,
    /// The property of an object read.
    Read(&'a Value),
    /// The property of an object given up, which its field moves out.
    Given(&'a mut Value),
}

/// A `fn(&Value)` conversion (`ToolArgs::from_json`).
type Read<T> = fn(&Value) -> Result<T, ConvertError>;

/// A `fn(Value)` conversion (`ToolArgs::from_json_owned`).
type Given<T> = fn(Value) -> Result<T, ConvertError>;

/// Hands each property of the object `value` to the slot its key's index names (`index_of`, the
/// struct's match of its keys: an index past the slots for a key it does not have); the others
/// are left alone, as are the slots of absent ones. Fails only when `value` is not an object.
/// Compiled once: a struct's conversion passes its match of keys and its slots. Inlined into
/// the conversions of an optimised build, where the key match becomes a direct call.
#[inline]
pub fn fill_slots<'s>(
    value: &'s mut Json<'_>,
    index_of: fn(&str) -> usize,
    slots: &mut [Slot<'s>],
) -> Result<(), ConvertError> {
    match value {
        Json::Read(value) => {
            // Matched here rather than through `expect_object`: a call per conversion saved.
            let Value::Object(map) = value else {
                return Err(ConvertError::expected("an object", value));
            };
            for (key, item) in map {
                if let Some(slot) = slots.get_mut(index_of(key)) {
                    *slot = Slot::Read(item);
                }
            }
        }
        Json::Given(value) => {
            let Value::Object(map) = value else {
                return Err(ConvertError::expected("an object", value));
            };
            for (key, item) in map.iter_mut() {
                if let Some(slot) = slots.get_mut(index_of(key)) {
                    *slot = Slot::Given(item);
                }
            }
        }
    }
    Ok(())
}

/// Converts the whole value with `read` or `given`, as it arrived.
#[inline]
pub fn convert_whole<T>(
    value: Json<'_>,
    read: Read<T>,
    given: Given<T>,
) -> Result<T, ConvertError> {
    match value {
        Json::Read(value) => read(value),
        Json::Given(value) => given(value),
    }
}

/// Converts the property `key` from its slot with `read` or `given` (a field type's
/// `ToolArgs::from_json` and `from_json_owned`), placing a failure under the key; `None` when
/// the property is absent. Generic over the field's type alone, so every field of one type
/// shares it in a build with debug assertions (there only a hint to inline); always inlined into
/// the conversions of a build without them (an optimised one), where `read` and `given` become
/// direct calls: a mere hint left it out of line for some field types, each of their calls then
/// going through the two pointers.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn field_at<T>(
    slot: &mut Slot<'_>,
    read: Read<T>,
    given: Given<T>,
    key: &str,
) -> Result<Option<T>, ConvertError> {
    let converted = match std::mem::replace(slot, Slot::Absent) {
        Slot::Absent => return Ok(None),
        Slot::Read(value) => read(value),
        Slot::Given(value) => given(std::mem::take(value)),
    };
    match converted {
        Ok(converted) => Ok(Some(converted)),
        Err(error) => Err(error.at_key(key)),
    }
}

/// [`field_at`] of a field without a default: an absent property takes `absent()`
/// (`ToolArgs::absent`: `None` for an `Option`) or is missing. Inlined as [`field_at`] is, and
/// written so that a converted value is returned where the field's conversion put it: a
/// failure is placed under its key in place (`place_at_key`), not unwrapped and wrapped again,
/// which in an optimised build copied every field's result once more.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn required_at<T>(
    slot: &mut Slot<'_>,
    read: Read<T>,
    given: Given<T>,
    absent: fn() -> Option<T>,
    key: &str,
) -> Result<T, ConvertError> {
    let mut converted = match std::mem::replace(slot, Slot::Absent) {
        Slot::Absent => return absent_or_missing(absent(), key),
        Slot::Read(value) => read(value),
        Slot::Given(value) => given(std::mem::take(value)),
    };
    if let Err(error) = &mut converted {
        place_at_key(error, key);
    }
    converted
}

/// Places `error` under the property `key` where it lies. Out of line and cold: validation has
/// passed, so a conversion fails only when a schema and its type disagree.
#[cold]
#[inline(never)]
fn place_at_key(error: &mut ConvertError, key: &str) {
    *error = std::mem::replace(error, ConvertError::new(String::new())).at_key(key);
}

/// The value in a slot, by reference, for conversions that only read (`#[arg(schemars)]`
/// fields, through `Deserialize`).
pub fn slot_value<'s>(slot: &'s Slot<'_>) -> Option<&'s Value> {
    match slot {
        Slot::Absent => None,
        Slot::Read(value) => Some(value),
        Slot::Given(value) => Some(value),
    }
}
