//! Serializing a tool's value to JSON without silent loss.
//!
//! `serde_json::to_value` turns `f64::NAN` and the infinities into `null` without a word, so a
//! tool returning `{"ratio": NaN}` would reach the model as `{"ratio": null}`. This serializer
//! builds the same `Value` but refuses those numbers (and map keys JSON cannot hold), naming the
//! path of the offending value, so the registry can report `INVALID_TOOL_OUTPUT` instead.

use std::fmt;

use serde::ser::{self, Serialize};
use serde_json::{Map, Number, Value};

/// Why a value is not lossless JSON; its `Display` is the explanation, e.g. `"value.ratio" must
/// be a finite JSON number`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotLossless {
    message: String,
}

impl NotLossless {
    fn at(path: PathNode<'_>, what: impl fmt::Display) -> Self {
        Self {
            message: format!("\"{}\" {what}", path.render()),
        }
    }
}

impl fmt::Display for NotLossless {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NotLossless {}

impl ser::Error for NotLossless {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Self {
            message: message.to_string(),
        }
    }
}

/// Serializes `value` into a JSON `Value`, failing where `serde_json::to_value` would silently
/// lose data (non-finite floats) or fail (map keys that are not strings, numbers or booleans).
pub fn to_lossless_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, NotLossless> {
    value.serialize(ValueSerializer {
        path: PathNode::Root,
    })
}

/// Converts the output of a typed body: a `Value` or a `String` is moved in as it is (no walk, no
/// copy: the common outputs of tools), anything else goes through [`to_lossless_value`].
pub(crate) fn output_into_value<T: Serialize + 'static>(output: T) -> Result<Value, NotLossless> {
    let mut slot = Some(output);
    let any = &mut slot as &mut dyn std::any::Any;
    if let Some(value) = any.downcast_mut::<Option<Value>>() {
        return Ok(value.take().unwrap_or(Value::Null));
    }
    if let Some(text) = any.downcast_mut::<Option<String>>() {
        return Ok(text.take().map_or(Value::Null, Value::String));
    }
    match &slot {
        Some(output) => to_lossless_value(output),
        None => Ok(Value::Null),
    }
}

/// Where the node being serialized sits, as a chain of borrowed links up to the root. It lives on
/// the stack and is only turned into text when a value is refused, so success costs nothing.
#[derive(Clone, Copy)]
enum PathNode<'a> {
    Root,
    Key(&'a PathNode<'a>, &'a str),
    Index(&'a PathNode<'a>, usize),
}

impl PathNode<'_> {
    fn render(self) -> String {
        let mut links = Vec::new();
        let mut node = self;
        loop {
            match node {
                PathNode::Root => break,
                PathNode::Key(parent, key) => {
                    links.push(format!(".{key}"));
                    node = *parent;
                }
                PathNode::Index(parent, index) => {
                    links.push(format!("[{index}]"));
                    node = *parent;
                }
            }
        }
        links.reverse();
        format!("value{}", links.concat())
    }
}

/// Builds a `Value` for the node at `path`.
struct ValueSerializer<'a> {
    path: PathNode<'a>,
}

impl ValueSerializer<'_> {
    fn float(&self, number: f64) -> Result<Value, NotLossless> {
        Number::from_f64(number).map(Value::Number).ok_or_else(|| {
            // NaN and the infinities alike: the wording of the validator's number violations.
            NotLossless::at(self.path, "must be a finite JSON number")
        })
    }

    fn out_of_range(&self, number: impl fmt::Display) -> NotLossless {
        NotLossless::at(
            self.path,
            format_args!("is {number}, beyond the 64-bit integers JSON numbers carry here"),
        )
    }
}

/// Serializes `value` as the child `key` of `parent` (under the variant name, when there is one).
fn serialize_key<T: Serialize + ?Sized>(
    parent: PathNode<'_>,
    variant: Option<&'static str>,
    key: &str,
    value: &T,
) -> Result<Value, NotLossless> {
    match variant {
        Some(variant) => {
            let tagged = PathNode::Key(&parent, variant);
            value.serialize(ValueSerializer {
                path: PathNode::Key(&tagged, key),
            })
        }
        None => value.serialize(ValueSerializer {
            path: PathNode::Key(&parent, key),
        }),
    }
}

/// Serializes `value` as the item `index` of `parent` (under the variant name, when there is one).
fn serialize_item<T: Serialize + ?Sized>(
    parent: PathNode<'_>,
    variant: Option<&'static str>,
    index: usize,
    value: &T,
) -> Result<Value, NotLossless> {
    match variant {
        Some(variant) => {
            let tagged = PathNode::Key(&parent, variant);
            value.serialize(ValueSerializer {
                path: PathNode::Index(&tagged, index),
            })
        }
        None => value.serialize(ValueSerializer {
            path: PathNode::Index(&parent, index),
        }),
    }
}

/// `{"Variant": payload}`: serde's externally tagged form.
fn tagged(variant: Option<&'static str>, payload: Value) -> Value {
    match variant {
        Some(variant) => {
            let mut map = Map::new();
            map.insert(variant.to_owned(), payload);
            Value::Object(map)
        }
        None => payload,
    }
}

impl<'a> ser::Serializer for ValueSerializer<'a> {
    type Ok = Value;
    type Error = NotLossless;
    type SerializeSeq = SeqBuilder<'a>;
    type SerializeTuple = SeqBuilder<'a>;
    type SerializeTupleStruct = SeqBuilder<'a>;
    type SerializeTupleVariant = SeqBuilder<'a>;
    type SerializeMap = MapBuilder<'a>;
    type SerializeStruct = MapBuilder<'a>;
    type SerializeStructVariant = MapBuilder<'a>;

    fn serialize_bool(self, v: bool) -> Result<Value, NotLossless> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, NotLossless> {
        Ok(Value::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Value, NotLossless> {
        Ok(Value::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Value, NotLossless> {
        Ok(Value::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Value, NotLossless> {
        Ok(Value::from(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Value, NotLossless> {
        if let Ok(small) = i64::try_from(v) {
            Ok(Value::from(small))
        } else if let Ok(unsigned) = u64::try_from(v) {
            Ok(Value::from(unsigned))
        } else {
            Err(self.out_of_range(v))
        }
    }
    fn serialize_u8(self, v: u8) -> Result<Value, NotLossless> {
        Ok(Value::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Value, NotLossless> {
        Ok(Value::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Value, NotLossless> {
        Ok(Value::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Value, NotLossless> {
        Ok(Value::from(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Value, NotLossless> {
        u64::try_from(v)
            .map(Value::from)
            .map_err(|_| self.out_of_range(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Value, NotLossless> {
        self.float(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Value, NotLossless> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Result<Value, NotLossless> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, NotLossless> {
        Ok(Value::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, NotLossless> {
        Ok(Value::Array(
            v.iter().map(|byte| Value::from(*byte)).collect(),
        ))
    }
    fn serialize_none(self) -> Result<Value, NotLossless> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, NotLossless> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, NotLossless> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, NotLossless> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, NotLossless> {
        Ok(Value::String(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value, NotLossless> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, NotLossless> {
        let payload = serialize_key(self.path, None, variant, value)?;
        Ok(tagged(Some(variant), payload))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder<'a>, NotLossless> {
        Ok(SeqBuilder {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            path: self.path,
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder<'a>, NotLossless> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqBuilder<'a>, NotLossless> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqBuilder<'a>, NotLossless> {
        let mut builder = self.serialize_seq(Some(len))?;
        builder.variant = Some(variant);
        Ok(builder)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapBuilder<'a>, NotLossless> {
        Ok(MapBuilder {
            map: Map::new(),
            pending_key: None,
            path: self.path,
            variant: None,
        })
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<MapBuilder<'a>, NotLossless> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<MapBuilder<'a>, NotLossless> {
        let mut builder = self.serialize_map(Some(len))?;
        builder.variant = Some(variant);
        Ok(builder)
    }
}

/// Collects the items of a sequence, tuple or tuple variant.
struct SeqBuilder<'a> {
    items: Vec<Value>,
    path: PathNode<'a>,
    variant: Option<&'static str>,
}

impl SeqBuilder<'_> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotLossless> {
        let item = serialize_item(self.path, self.variant, self.items.len(), value)?;
        self.items.push(item);
        Ok(())
    }

    fn finish(self) -> Result<Value, NotLossless> {
        Ok(tagged(self.variant, Value::Array(self.items)))
    }
}

impl ser::SerializeSeq for SeqBuilder<'_> {
    type Ok = Value;
    type Error = NotLossless;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotLossless> {
        self.push(value)
    }
    fn end(self) -> Result<Value, NotLossless> {
        self.finish()
    }
}

impl ser::SerializeTuple for SeqBuilder<'_> {
    type Ok = Value;
    type Error = NotLossless;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotLossless> {
        self.push(value)
    }
    fn end(self) -> Result<Value, NotLossless> {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for SeqBuilder<'_> {
    type Ok = Value;
    type Error = NotLossless;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotLossless> {
        self.push(value)
    }
    fn end(self) -> Result<Value, NotLossless> {
        self.finish()
    }
}

impl ser::SerializeTupleVariant for SeqBuilder<'_> {
    type Ok = Value;
    type Error = NotLossless;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotLossless> {
        self.push(value)
    }
    fn end(self) -> Result<Value, NotLossless> {
        self.finish()
    }
}

/// Collects the entries of a map, struct or struct variant.
struct MapBuilder<'a> {
    map: Map<String, Value>,
    pending_key: Option<String>,
    path: PathNode<'a>,
    variant: Option<&'static str>,
}

impl MapBuilder<'_> {
    fn insert<T: Serialize + ?Sized>(&mut self, key: String, value: &T) -> Result<(), NotLossless> {
        let item = serialize_key(self.path, self.variant, &key, value)?;
        self.map.insert(key, item);
        Ok(())
    }

    fn finish(self) -> Result<Value, NotLossless> {
        Ok(tagged(self.variant, Value::Object(self.map)))
    }
}

impl ser::SerializeMap for MapBuilder<'_> {
    type Ok = Value;
    type Error = NotLossless;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NotLossless> {
        // JSON object keys are strings; numbers and booleans become their text, as serde_json does.
        let key = match key.serialize(ValueSerializer { path: self.path })? {
            Value::String(text) => text,
            Value::Number(number) => number.to_string(),
            Value::Bool(flag) => flag.to_string(),
            _ => {
                return Err(NotLossless::at(
                    self.path,
                    "has a map key that is not a string, number or boolean",
                ));
            }
        };
        self.pending_key = Some(key);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotLossless> {
        let key = self.pending_key.take().unwrap_or_default();
        self.insert(key, value)
    }
    fn end(self) -> Result<Value, NotLossless> {
        self.finish()
    }
}

impl ser::SerializeStruct for MapBuilder<'_> {
    type Ok = Value;
    type Error = NotLossless;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotLossless> {
        self.insert(key.to_owned(), value)
    }
    fn end(self) -> Result<Value, NotLossless> {
        self.finish()
    }
}

impl ser::SerializeStructVariant for MapBuilder<'_> {
    type Ok = Value;
    type Error = NotLossless;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotLossless> {
        self.insert(key.to_owned(), value)
    }
    fn end(self) -> Result<Value, NotLossless> {
        self.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    struct Stats {
        name: &'static str,
        ratio: f64,
        tags: Vec<f32>,
    }

    #[test]
    fn matches_serde_json_for_lossless_values() {
        let stats = Stats {
            name: "x",
            ratio: 0.5,
            tags: vec![1.0, 2.5],
        };
        assert_eq!(
            to_lossless_value(&stats).unwrap(),
            serde_json::to_value(&stats).unwrap()
        );
        let mut map = BTreeMap::new();
        map.insert(3_u8, "three");
        assert_eq!(
            to_lossless_value(&map).unwrap(),
            serde_json::json!({"3": "three"})
        );
    }

    #[test]
    fn names_the_path_of_a_non_finite_number() {
        let stats = Stats {
            name: "x",
            ratio: 1.0,
            tags: vec![1.0, f32::NAN],
        };
        let error = to_lossless_value(&stats).unwrap_err();
        assert_eq!(
            error.to_string(),
            "\"value.tags[1]\" must be a finite JSON number"
        );
        let error = to_lossless_value(&f64::NEG_INFINITY).unwrap_err();
        assert_eq!(error.to_string(), "\"value\" must be a finite JSON number");
        #[derive(Serialize)]
        enum Shape {
            Circle { radius: f64 },
        }
        let error = to_lossless_value(&vec![Shape::Circle {
            radius: f64::INFINITY,
        }])
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "\"value[0].Circle.radius\" must be a finite JSON number"
        );
        let error = to_lossless_value(&f64::NEG_INFINITY).unwrap_err();
        assert_eq!(error.to_string(), "\"value\" must be a finite JSON number");
    }
}
