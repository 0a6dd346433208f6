//! Converting a typed output into JSON without losing anything.
//!
//! `serde_json::to_value` turns `f64::NAN` and `±Infinity` into `null`, silently. A tool's output
//! must never change meaning on its way to the model, so [`to_lossless_value`] first walks the
//! value with a serializer that only looks for non-finite floats (and remembers where it met
//! one), then converts. This file owns that check and nothing else; turning its answer into an
//! `INVALID_TOOL_OUTPUT` result is the caller's business.

use std::fmt;

use serde::ser::{self, Serialize};
use serde_json::Value;

/// Why a value is not lossless JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotLossless {
    message: String,
}

impl NotLossless {
    /// The reason, e.g. `"value.score" must be a finite JSON number`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for NotLossless {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Converts `value` into JSON, refusing what JSON cannot carry: a non-finite float (which
/// `serde_json::to_value` would turn into `null`) or anything `serde_json` rejects (a map with
/// non-string keys). Paths in the reason are rooted at `value`.
pub fn to_lossless_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, NotLossless> {
    let mut check = FiniteCheck { path: Vec::new() };
    value
        .serialize(&mut check)
        .map_err(|error| NotLossless { message: error.0 })?;
    serde_json::to_value(value).map_err(|error| NotLossless {
        message: format!("value is not lossless JSON: {error}"),
    })
}

/// Converts the output of a typed body: a `Value` passes as it is (no walk, no copy), anything
/// else goes through [`to_lossless_value`].
pub(crate) fn output_into_value<T: Serialize + 'static>(output: T) -> Result<Value, NotLossless> {
    let mut slot = Some(output);
    if let Some(value) = (&mut slot as &mut dyn std::any::Any).downcast_mut::<Option<Value>>() {
        return Ok(value.take().unwrap_or(Value::Null));
    }
    match &slot {
        Some(output) => to_lossless_value(output),
        None => Ok(Value::Null),
    }
}

/// One step of the path to the value being serialized.
enum Segment {
    Key(String),
    Index(usize),
}

/// A serializer that produces nothing and fails on the first non-finite float.
struct FiniteCheck {
    path: Vec<Segment>,
}

impl FiniteCheck {
    fn non_finite(&self) -> CheckError {
        let mut path = String::from("value");
        for segment in &self.path {
            match segment {
                Segment::Key(key) => {
                    path.push('.');
                    path.push_str(key);
                }
                Segment::Index(index) => {
                    path.push('[');
                    path.push_str(&index.to_string());
                    path.push(']');
                }
            }
        }
        CheckError(format!("\"{path}\" must be a finite JSON number"))
    }

    fn check_float(&self, value: f64) -> Result<(), CheckError> {
        if value.is_finite() {
            Ok(())
        } else {
            Err(self.non_finite())
        }
    }

    fn nested<T: Serialize + ?Sized>(
        &mut self,
        segment: Segment,
        value: &T,
    ) -> Result<(), CheckError> {
        self.path.push(segment);
        let result = value.serialize(&mut *self);
        self.path.pop();
        result
    }
}

#[derive(Debug)]
struct CheckError(String);

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CheckError {}

impl ser::Error for CheckError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Self(format!("value is not lossless JSON: {message}"))
    }
}

/// A compound being walked: sequences count indices, maps remember the pending key.
struct Compound<'a> {
    check: &'a mut FiniteCheck,
    index: usize,
    key: Option<String>,
}

impl<'a> Compound<'a> {
    fn new(check: &'a mut FiniteCheck) -> Self {
        Self {
            check,
            index: 0,
            key: None,
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CheckError> {
        let index = self.index;
        self.index += 1;
        self.check.nested(Segment::Index(index), value)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), CheckError> {
        self.check.nested(Segment::Key(key.to_owned()), value)
    }
}

macro_rules! accept_scalars {
    ($($method:ident: $ty:ty),* $(,)?) => {
        $(fn $method(self, _: $ty) -> Result<(), CheckError> { Ok(()) })*
    };
}

impl<'a> ser::Serializer for &'a mut FiniteCheck {
    type Ok = ();
    type Error = CheckError;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    accept_scalars!(
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_char: char,
        serialize_str: &str, serialize_bytes: &[u8],
    );

    fn serialize_f32(self, value: f32) -> Result<(), CheckError> {
        self.check_float(f64::from(value))
    }

    fn serialize_f64(self, value: f64) -> Result<(), CheckError> {
        self.check_float(value)
    }

    fn serialize_none(self) -> Result<(), CheckError> {
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), CheckError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), CheckError> {
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), CheckError> {
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<(), CheckError> {
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), CheckError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), CheckError> {
        self.nested(Segment::Key(variant.to_owned()), value)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, CheckError> {
        Ok(Compound::new(self))
    }

    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, CheckError> {
        Ok(Compound::new(self))
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, CheckError> {
        Ok(Compound::new(self))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, CheckError> {
        Ok(Compound::new(self))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, CheckError> {
        Ok(Compound::new(self))
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, CheckError> {
        Ok(Compound::new(self))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, CheckError> {
        Ok(Compound::new(self))
    }
}

macro_rules! sequence_like {
    ($($trait:ident :: $method:ident),* $(,)?) => {
        $(impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = CheckError;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CheckError> {
                self.element(value)
            }

            fn end(self) -> Result<(), CheckError> {
                Ok(())
            }
        })*
    };
}

sequence_like!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

macro_rules! struct_like {
    ($($trait:ident),* $(,)?) => {
        $(impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = CheckError;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), CheckError> {
                self.field(key, value)
            }

            fn end(self) -> Result<(), CheckError> {
                Ok(())
            }
        })*
    };
}

struct_like!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = CheckError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), CheckError> {
        // Keys are only needed for the path; a key JSON cannot take is reported by the
        // conversion that follows the check.
        self.key = match serde_json::to_value(key) {
            Ok(Value::String(key)) => Some(key),
            Ok(other) => Some(other.to_string()),
            Err(_) => None,
        };
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CheckError> {
        let key = self.key.take().unwrap_or_else(|| "?".to_owned());
        self.check.nested(Segment::Key(key), value)
    }

    fn end(self) -> Result<(), CheckError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;

    #[derive(serde::Serialize)]
    struct Report {
        name: String,
        scores: Vec<f64>,
    }

    #[test]
    fn finite_values_convert_like_serde_json() {
        let report = Report {
            name: "a".into(),
            scores: vec![1.5, 2.0],
        };
        assert_eq!(
            to_lossless_value(&report),
            Ok(json!({"name": "a", "scores": [1.5, 2.0]}))
        );
    }

    #[test]
    fn nan_is_reported_with_its_path() {
        let report = Report {
            name: "a".into(),
            scores: vec![1.0, f64::NAN],
        };
        let error = to_lossless_value(&report).unwrap_err();
        assert_eq!(
            error.message(),
            "\"value.scores[1]\" must be a finite JSON number"
        );
    }

    #[test]
    fn infinity_at_the_root_and_in_maps() {
        assert_eq!(
            to_lossless_value(&f32::INFINITY).unwrap_err().message(),
            "\"value\" must be a finite JSON number"
        );
        let map = BTreeMap::from([("k", f64::NEG_INFINITY)]);
        assert_eq!(
            to_lossless_value(&map).unwrap_err().message(),
            "\"value.k\" must be a finite JSON number"
        );
    }

    #[test]
    fn non_string_map_keys_are_rejected_not_dropped() {
        let map = BTreeMap::from([((1, 2), 3)]);
        assert!(
            to_lossless_value(&map)
                .unwrap_err()
                .message()
                .starts_with("value is not lossless JSON")
        );
    }

    #[test]
    fn a_value_output_passes_without_a_walk() {
        assert_eq!(output_into_value(json!({"a": 1})), Ok(json!({"a": 1})));
        assert_eq!(
            output_into_value(f64::NAN).unwrap_err().message(),
            "\"value\" must be a finite JSON number"
        );
    }
}
