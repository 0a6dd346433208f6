//! The arguments of a `#[tool]` whose only parameter is of a type the macro cannot see into
//! (`async fn read(args: ReadFile)`, a plain parameter: no doc, no `#[arg]` keys): when that type
//! is an object struct (`ToolArgs::OBJECT_STRUCT`), it is the whole argument object; otherwise it
//! is the one property named after the parameter. The macro cannot tell which, so both shapes
//! were generated in full for every such tool, and the compiler checked both. The generated
//! arguments struct now picks the shape with that constant and hands the one-property shape to
//! these functions, written once, generic over the parameter's type.
//!
//! The choice stays in the generated code, not here: there the constant is known before code is
//! generated, so the branch not taken, and the instance of these functions it names, are never
//! compiled; a generic function choosing for itself was compiled with both branches for every
//! type.

use serde_json::Value;

use super::fields::{Json, Slot, required_at};
use super::schema_data::{FieldSchema, struct_schema};
use crate::args::{ConvertError, ToolArgs};
use dsh_tools_schema::{Schema, SchemaError};

/// The arguments' schema: an object whose one property `key` has `A`'s schema (required unless
/// `A` may be absent).
pub fn property_schema<A: ToolArgs>(key: &'static str) -> Result<Schema, SchemaError> {
    let property = FieldSchema {
        key,
        schema: A::schema,
        required: !A::OPTIONAL,
        steps: &[],
    };
    struct_schema(&[property], false, &[])
}

/// Whether `value` is valid arguments: an object with no key but `key`, whose value is valid for
/// `A`, present unless `A` may be absent.
pub fn property_is_valid<A: ToolArgs>(value: &Value, key: &str) -> bool {
    let Some(map) = value.as_object() else {
        return false;
    };
    let mut seen = false;
    for (name, item) in map {
        if name != key || !A::is_valid_json(item) {
            return false;
        }
        seen = true;
    }
    seen || A::OPTIONAL
}

/// The parameter's value: the property `key` of the object `value` (absent: `A`'s value for an
/// absent property, else the missing property's error).
pub fn property_from_json<A: ToolArgs>(value: Json<'_>, key: &str) -> Result<A, ConvertError> {
    let mut value = value;
    let mut slot = property(&mut value, key)?;
    required_at(&mut slot, A::from_json, A::from_json_owned, A::absent, key)
}

/// The property `key` of the object `value`, as `fill_slots` would hand it to a struct's only
/// field; fails, as that does, when `value` is not an object.
fn property<'s>(value: &'s mut Json<'_>, key: &str) -> Result<Slot<'s>, ConvertError> {
    match value {
        Json::Read(value) => match value {
            Value::Object(map) => Ok(map.get(key).map_or(Slot::Absent, Slot::Read)),
            other => Err(ConvertError::expected("an object", other)),
        },
        Json::Given(value) => match value {
            Value::Object(map) => Ok(map.get_mut(key).map_or(Slot::Absent, Slot::Given)),
            other => Err(ConvertError::expected("an object", other)),
        },
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::__private::fill_slots;

    #[test]
    fn the_property_alone_is_valid() {
        assert!(property_is_valid::<u32>(&json!({ "n": 3 }), "n"));
        assert!(!property_is_valid::<u32>(&json!({}), "n"));
        assert!(!property_is_valid::<u32>(&json!({ "n": 3, "m": 1 }), "n"));
        assert!(!property_is_valid::<u32>(&json!({ "n": "3" }), "n"));
        assert!(!property_is_valid::<u32>(&json!(3), "n"));
        assert!(property_is_valid::<Option<u32>>(&json!({}), "n"));
        assert!(property_is_valid::<Option<u32>>(&json!({ "n": null }), "n"));
    }

    /// The one-slot walk every derived struct's conversion does, with its key match.
    fn through_slots(value: Json<'_>) -> Result<u32, ConvertError> {
        fn index_of(key: &str) -> usize {
            match key {
                "n" => 0,
                _ => 1,
            }
        }
        let mut value = value;
        let mut slots = [Slot::Absent];
        fill_slots(&mut value, index_of, &mut slots)?;
        let [slot] = &mut slots;
        required_at(slot, u32::from_json, u32::from_json_owned, u32::absent, "n")
    }

    #[test]
    fn converts_the_property_as_a_struct_of_one_field_does() {
        let values = [
            json!({ "n": 3 }),
            json!({ "n": 3, "m": "ignored" }),
            json!({}),
            json!({ "n": "3" }),
            json!([3]),
            json!(null),
        ];
        for value in values {
            for given in [false, true] {
                let json = || match given {
                    false => Json::Read(&value),
                    true => Json::Given(value.clone()),
                };
                let shared = property_from_json::<u32>(json(), "n");
                let derived = through_slots(json());
                assert_eq!(
                    shared.as_ref().map_err(|error| &error.message),
                    derived.as_ref().map_err(|error| &error.message),
                    "{value} (given: {given})"
                );
            }
        }
        assert_eq!(
            property_from_json::<Option<u32>>(Json::Read(&json!({})), "n").unwrap(),
            None
        );
    }
}
