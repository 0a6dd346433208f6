//! The walk of an object's properties that generated conversions share: one function, compiled
//! once in the runtime, matches the object's keys against a struct's table of property names and
//! hands each value to the slot of its field; the generated code keeps only the conversion of each
//! field, through helpers generic over the field's type alone.
//!
//! A value arrives read ([`Json::Read`], when something else still needs the arguments) or given
//! up ([`Json::Given`], its strings and arrays moved into the Rust value), and one generated
//! conversion serves both: a slot holds whichever it was given, and each field converts it by
//! reference or by value accordingly.

use serde_json::{Map, Value};

use super::convert::missing;
use crate::args::ConvertError;

/// A JSON value to convert: read, or given up so that its parts can be moved out.
pub enum Json<'a> {
    /// A value someone else keeps: converted by reference (`ToolArgs::from_json`).
    Read(&'a Value),
    /// A value nothing else needs: converted by value (`ToolArgs::from_json_owned`).
    Given(Value),
}

/// The value of one property, or `None` when the object does not have it.
pub type Slot<'a> = Option<Json<'a>>;

/// A `fn(&Value)` conversion (`ToolArgs::from_json`).
type Read<T> = fn(&Value) -> Result<T, ConvertError>;

/// A `fn(Value)` conversion (`ToolArgs::from_json_owned`).
type Given<T> = fn(Value) -> Result<T, ConvertError>;

/// The properties of the object `value` named in `keys`, each in the slot of its index (`None`
/// for an absent one); other properties are left out. Fails only when `value` is not an object.
/// Generic over the number of fields alone; the walk itself is [`fill`].
#[inline]
pub fn object_slots<'a, const N: usize>(
    value: Json<'a>,
    keys: &[&str; N],
) -> Result<[Slot<'a>; N], ConvertError> {
    let mut slots = [const { None }; N];
    fill(value, keys, &mut slots)?;
    Ok(slots)
}

/// [`object_slots`] into `slots`, as long as `keys`.
fn fill<'a>(value: Json<'a>, keys: &[&str], slots: &mut [Slot<'a>]) -> Result<(), ConvertError> {
    match value {
        Json::Read(value) => {
            let map = super::convert::expect_object(value)?;
            for (key, item) in map {
                if let Some(slot) = slot_of(keys, slots, key) {
                    *slot = Some(Json::Read(item));
                }
            }
        }
        Json::Given(value) => {
            let map: Map<String, Value> = super::convert::into_object(value)?;
            for (key, item) in map {
                if let Some(slot) = slot_of(keys, slots, &key) {
                    *slot = Some(Json::Given(item));
                }
            }
        }
    }
    Ok(())
}

/// The slot of the property `key`, when the struct has a field of that name.
#[inline]
fn slot_of<'s, 'a>(
    keys: &[&str],
    slots: &'s mut [Slot<'a>],
    key: &str,
) -> Option<&'s mut Slot<'a>> {
    let index = keys.iter().position(|known| *known == key)?;
    slots.get_mut(index)
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
/// shares it.
pub fn field_at<T>(
    slot: &mut Slot<'_>,
    read: Read<T>,
    given: Given<T>,
    key: &str,
) -> Result<Option<T>, ConvertError> {
    match slot.take() {
        None => Ok(None),
        Some(value) => match convert_whole(value, read, given) {
            Ok(converted) => Ok(Some(converted)),
            Err(error) => Err(error.at_key(key)),
        },
    }
}

/// [`field_at`] of a field without a default: an absent property takes `absent()`
/// (`ToolArgs::absent`: `None` for an `Option`) or is missing.
pub fn required_at<T>(
    slot: &mut Slot<'_>,
    read: Read<T>,
    given: Given<T>,
    absent: fn() -> Option<T>,
    key: &str,
) -> Result<T, ConvertError> {
    match field_at(slot, read, given, key) {
        Ok(Some(converted)) => Ok(converted),
        Ok(None) => match absent() {
            Some(value) => Ok(value),
            None => Err(missing(key)),
        },
        Err(error) => Err(error),
    }
}

/// The value in a slot, by reference, for conversions that only read (`#[arg(schemars)]`
/// fields, through `Deserialize`).
pub fn slot_value<'s>(slot: &'s Slot<'_>) -> Option<&'s Value> {
    match slot {
        None => None,
        Some(Json::Read(value)) => Some(value),
        Some(Json::Given(value)) => Some(value),
    }
}
