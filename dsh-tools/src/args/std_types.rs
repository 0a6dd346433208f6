//! [`ToolArgs`] for the standard types: the type → schema rules of the macros.
//!
//! Integers carry their own type's bounds into the schema, so the validator rejects what the type
//! cannot hold (`300` for a `u8`) instead of the conversion failing later. Integral floats (`1.0`,
//! `1e3`) are integers, as JSON Schema says, and convert. Sets carry `uniqueItems`, so a
//! duplicate is reported instead of being dropped on conversion.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Map, Number, Value};

use super::{ConvertError, ToolArgs};
use crate::__private::fast_checks::is_integer_in;
use dsh_tools_schema::derive;
use dsh_tools_schema::rules::arrays::has_unique_items;
use dsh_tools_schema::{Annotations, NumberRules, Schema, SchemaError, SchemaKind, StringRules};

fn node(kind: SchemaKind) -> Schema {
    Schema {
        kind,
        nullable: false,
        annotations: Annotations::default(),
    }
}

fn string_schema(rules: StringRules) -> Schema {
    node(SchemaKind::String(rules))
}

fn as_str(value: &Value) -> Result<&str, ConvertError> {
    value
        .as_str()
        .ok_or_else(|| ConvertError::expected("a string", value))
}

impl ToolArgs for String {
    fn schema() -> Result<Schema, SchemaError> {
        Ok(string_schema(StringRules::default()))
    }
    fn is_valid_json(value: &Value) -> bool {
        value.is_string()
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        as_str(value).map(str::to_owned)
    }
    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        match value {
            Value::String(text) => Ok(text),
            other => Err(ConvertError::expected("a string", &other)),
        }
    }
}

impl ToolArgs for Cow<'static, str> {
    fn schema() -> Result<Schema, SchemaError> {
        String::schema()
    }
    fn is_valid_json(value: &Value) -> bool {
        value.is_string()
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        String::from_json(value).map(Cow::Owned)
    }
    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        String::from_json_owned(value).map(Cow::Owned)
    }
}

impl ToolArgs for PathBuf {
    fn schema() -> Result<Schema, SchemaError> {
        String::schema()
    }
    fn is_valid_json(value: &Value) -> bool {
        value.is_string()
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        as_str(value).map(PathBuf::from)
    }
    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        String::from_json_owned(value).map(PathBuf::from)
    }
}

impl ToolArgs for char {
    fn schema() -> Result<Schema, SchemaError> {
        Ok(derive::single_character())
    }
    fn is_valid_json(value: &Value) -> bool {
        value.as_str().is_some_and(|text| {
            let mut chars = text.chars();
            chars.next().is_some() && chars.next().is_none()
        })
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        let text = as_str(value)?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(only), None) => Ok(only),
            _ => Err(ConvertError::new("expected exactly one character")),
        }
    }
}

impl ToolArgs for bool {
    fn schema() -> Result<Schema, SchemaError> {
        Ok(node(SchemaKind::Boolean))
    }
    fn is_valid_json(value: &Value) -> bool {
        value.is_boolean()
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        value
            .as_bool()
            .ok_or_else(|| ConvertError::expected("a boolean", value))
    }
}

impl ToolArgs for () {
    fn schema() -> Result<Schema, SchemaError> {
        Ok(derive::null_schema())
    }
    fn is_valid_json(value: &Value) -> bool {
        value.is_null()
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        if value.is_null() {
            Ok(())
        } else {
            Err(ConvertError::expected("null", value))
        }
    }
}

/// An integral JSON number as `i128` (`1.0` and `1e3` included).
fn integral(value: &Value) -> Result<i128, ConvertError> {
    let number = value
        .as_number()
        .ok_or_else(|| ConvertError::expected("an integer", value))?;
    if let Some(i) = number.as_i64() {
        return Ok(i128::from(i));
    }
    if let Some(u) = number.as_u64() {
        return Ok(i128::from(u));
    }
    match number.as_f64() {
        // Every integral f64 below 2^64 in magnitude is exactly representable as i128.
        Some(f) if f.fract() == 0.0 && f.abs() < 18_446_744_073_709_551_616.0 => Ok(f as i128),
        _ => Err(ConvertError::new(format!(
            "expected an integer, got {number}"
        ))),
    }
}

macro_rules! integer_args {
    ($($ty:ty),* $(,)?) => {$(
        impl ToolArgs for $ty {
            fn schema() -> Result<Schema, SchemaError> {
                Ok(derive::integer_of_type(Number::from(<$ty>::MIN), Number::from(<$ty>::MAX)))
            }
            // Inlined into the generated checks, where the caller's own match on the value and
            // its bounds fold into this one (a call here cost about as much as the check).
            #[inline]
            fn is_valid_json(value: &Value) -> bool {
                is_integer_in(value, <$ty>::MIN as i128, <$ty>::MAX as i128)
            }
            fn from_json(value: &Value) -> Result<Self, ConvertError> {
                // The common case first: a JSON integer that fits, without the detour through
                // `i128` and a `Result` as wide, which about doubled an integer's conversion.
                // Anything else (an integral float, a number out of range) takes the long way.
                if let Value::Number(number) = value
                    && let Some(narrow) = number.as_i64().and_then(|wide| <$ty>::try_from(wide).ok())
                {
                    return Ok(narrow);
                }
                let wide = integral(value)?;
                <$ty>::try_from(wide).map_err(|_| {
                    ConvertError::new(format!(
                        "{wide} is out of range for {}",
                        stringify!($ty)
                    ))
                })
            }
        }
    )*};
}

integer_args!(i8, i16, i32, i64, u8, u16, u32, u64, isize, usize);

macro_rules! wide_integer_args {
    ($($ty:ty),* $(,)?) => {$(
        /// JSON numbers carry at most 64-bit integers, so the schema bounds are those of `i64`/`u64`.
        impl ToolArgs for $ty {
            fn schema() -> Result<Schema, SchemaError> {
                let minimum = if <$ty>::MIN == 0 { Number::from(0) } else { Number::from(i64::MIN) };
                Ok(derive::integer_of_type(minimum, Number::from(u64::MAX)))
            }
            #[inline]
            fn is_valid_json(value: &Value) -> bool {
                let minimum = if <$ty>::MIN == 0 { 0 } else { i128::from(i64::MIN) };
                is_integer_in(value, minimum, i128::from(u64::MAX))
            }
            fn from_json(value: &Value) -> Result<Self, ConvertError> {
                let wide = integral(value)?;
                <$ty>::try_from(wide).map_err(|_| {
                    ConvertError::new(format!(
                        "{wide} is out of range for {}",
                        stringify!($ty)
                    ))
                })
            }
        }
    )*};
}

wide_integer_args!(i128, u128);

impl ToolArgs for f64 {
    fn schema() -> Result<Schema, SchemaError> {
        Ok(node(SchemaKind::Number(NumberRules::default())))
    }
    fn is_valid_json(value: &Value) -> bool {
        value.is_number()
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        value
            .as_f64()
            .ok_or_else(|| ConvertError::expected("a number", value))
    }
}

impl ToolArgs for f32 {
    /// Bounded by `f32::MAX` so that no accepted number becomes an infinity.
    fn schema() -> Result<Schema, SchemaError> {
        Ok(derive::number_of_type(f64::from(f32::MAX)))
    }
    fn is_valid_json(value: &Value) -> bool {
        value
            .as_f64()
            .is_some_and(|number| number.abs() <= f64::from(f32::MAX))
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        let wide = f64::from_json(value)?;
        let narrow = wide as f32;
        if narrow.is_finite() {
            Ok(narrow)
        } else {
            Err(ConvertError::new(format!("{wide} is out of range for f32")))
        }
    }
}

impl ToolArgs for Value {
    fn schema() -> Result<Schema, SchemaError> {
        Ok(node(SchemaKind::Any))
    }
    fn is_valid_json(_: &Value) -> bool {
        true
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        Ok(value.clone())
    }
    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        Ok(value)
    }
}

impl ToolArgs for Map<String, Value> {
    fn schema() -> Result<Schema, SchemaError> {
        Ok(derive::any_object())
    }
    fn is_valid_json(value: &Value) -> bool {
        value.is_object()
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        value
            .as_object()
            .cloned()
            .ok_or_else(|| ConvertError::expected("an object", value))
    }
    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        match value {
            Value::Object(map) => Ok(map),
            other => Err(ConvertError::expected("an object", &other)),
        }
    }
}

impl<T: ToolArgs> ToolArgs for Option<T> {
    const OPTIONAL: bool = true;
    const VALUE_NOTES: &'static [(&'static str, &'static str)] = T::VALUE_NOTES;

    /// `T`'s schema that also accepts `null`; an absent or `null` value is `None`.
    fn schema() -> Result<Schema, SchemaError> {
        let mut schema = T::schema()?;
        schema.nullable = true;
        Ok(schema)
    }
    fn is_valid_json(value: &Value) -> bool {
        value.is_null() || T::is_valid_json(value)
    }
    // Inlined: a test for `null` around `T`'s conversion, which every optional field calls.
    #[inline]
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        if value.is_null() {
            Ok(None)
        } else {
            T::from_json(value).map(Some)
        }
    }
    #[inline]
    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        if value.is_null() {
            Ok(None)
        } else {
            T::from_json_owned(value).map(Some)
        }
    }
    fn absent() -> Option<Self> {
        Some(None)
    }
}

macro_rules! pointer_args {
    ($($pointer:ident),* $(,)?) => {$(
        impl<T: ToolArgs> ToolArgs for $pointer<T> {
            const OPTIONAL: bool = T::OPTIONAL;
            const VALUE_NOTES: &'static [(&'static str, &'static str)] = T::VALUE_NOTES;
            fn schema() -> Result<Schema, SchemaError> {
                T::schema()
            }
            fn is_valid_json(value: &Value) -> bool {
                T::is_valid_json(value)
            }
            fn from_json(value: &Value) -> Result<Self, ConvertError> {
                T::from_json(value).map($pointer::new)
            }
            fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
                T::from_json_owned(value).map($pointer::new)
            }
            fn absent() -> Option<Self> {
                T::absent().map($pointer::new)
            }
        }
    )*};
}

pointer_args!(Box, Arc, Rc);

fn array_schema<T: ToolArgs>(
    min_items: Option<u64>,
    max_items: Option<u64>,
) -> Result<Schema, SchemaError> {
    Ok(derive::array_of(T::schema()?, min_items, max_items))
}

/// The schema of a set of `T`: an array of distinct items.
fn set_schema<T: ToolArgs>() -> Result<Schema, SchemaError> {
    Ok(derive::set_of(T::schema()?))
}

/// An array whose every item is valid for `T`.
fn all_items<T: ToolArgs>(value: &Value) -> bool {
    value
        .as_array()
        .is_some_and(|items| items.iter().all(T::is_valid_json))
}

/// A collection built item by item, with room for every item reserved before the first: a
/// converted array or object never grows (and copies itself) on the way.
trait Collect<T>: Sized {
    fn with_room(len: usize) -> Self;
    fn add(&mut self, item: T);
}

impl<T> Collect<T> for Vec<T> {
    fn with_room(len: usize) -> Self {
        Vec::with_capacity(len)
    }
    fn add(&mut self, item: T) {
        self.push(item);
    }
}

impl<T> Collect<T> for VecDeque<T> {
    fn with_room(len: usize) -> Self {
        VecDeque::with_capacity(len)
    }
    fn add(&mut self, item: T) {
        self.push_back(item);
    }
}

impl<T: Eq + Hash, S: BuildHasher + Default> Collect<T> for HashSet<T, S> {
    fn with_room(len: usize) -> Self {
        HashSet::with_capacity_and_hasher(len, S::default())
    }
    fn add(&mut self, item: T) {
        self.insert(item);
    }
}

impl<T: Ord> Collect<T> for BTreeSet<T> {
    fn with_room(_: usize) -> Self {
        BTreeSet::new()
    }
    fn add(&mut self, item: T) {
        self.insert(item);
    }
}

impl<T, S: BuildHasher + Default> Collect<(String, T)> for HashMap<String, T, S> {
    fn with_room(len: usize) -> Self {
        HashMap::with_capacity_and_hasher(len, S::default())
    }
    fn add(&mut self, (key, item): (String, T)) {
        self.insert(key, item);
    }
}

impl<T> Collect<(String, T)> for BTreeMap<String, T> {
    fn with_room(_: usize) -> Self {
        BTreeMap::new()
    }
    fn add(&mut self, (key, item): (String, T)) {
        self.insert(key, item);
    }
}

/// Converts every item of an array, naming the index of the first failure.
fn items<T: ToolArgs, C: Collect<T>>(value: &Value) -> Result<C, ConvertError> {
    let list = value
        .as_array()
        .ok_or_else(|| ConvertError::expected("an array", value))?;
    let mut collected = C::with_room(list.len());
    for (index, item) in list.iter().enumerate() {
        collected.add(T::from_json(item).map_err(|error| error.at_index(index))?);
    }
    Ok(collected)
}

/// The items of an array given up, or the error of a value that is not one.
#[inline]
fn owned_array(value: Value) -> Result<Vec<Value>, ConvertError> {
    match value {
        Value::Array(list) => Ok(list),
        other => Err(ConvertError::expected("an array", &other)),
    }
}

/// [`items`], moving each item out of the array.
fn items_owned<T: ToolArgs, C: Collect<T>>(value: Value) -> Result<C, ConvertError> {
    let list = owned_array(value)?;
    let mut collected = C::with_room(list.len());
    for (index, item) in list.into_iter().enumerate() {
        collected.add(T::from_json_owned(item).map_err(|error| error.at_index(index))?);
    }
    Ok(collected)
}

/// [`items_owned`] into a `Vec`: where a converted item fits a JSON value's slot evenly (a
/// `String`, a `Vec`, a struct of a value's size), the items are converted where the array held
/// them (the standard library's in-place `collect`), so the array's allocation becomes the
/// `Vec`'s instead of a second one being made and the first freed: an allocation and a free per
/// array. An item much smaller than a value (a number, a flag) is collected into a `Vec` of its
/// own, which does not keep the array's larger block alive.
fn vec_owned<T: ToolArgs>(value: Value) -> Result<Vec<T>, ConvertError> {
    if !converts_in_place::<T>() {
        return items_owned(value);
    }
    owned_array(value)?
        .into_iter()
        .enumerate()
        .map(|(index, item)| T::from_json_owned(item).map_err(|error| error.at_index(index)))
        .collect()
}

/// Whether `T`'s items are converted in the array's own allocation ([`vec_owned`]): a whole
/// number of them fills a value's slot (so the block is kept as it is, not reallocated to fit),
/// at most four, so that no more than three quarters of the block is left unused.
const fn converts_in_place<T>() -> bool {
    let item = size_of::<T>();
    let slot = size_of::<Value>();
    item != 0
        && slot.is_multiple_of(item)
        && item * 4 >= slot
        && align_of::<T>() <= align_of::<Value>()
}

/// Implements `ToolArgs` for collections that are JSON arrays of `T`, each converting an array
/// given up with `$owned`.
macro_rules! array_args {
    ($([$($bounds:tt)*] $ty:ty => $owned:ident),* $(,)?) => {$(
        impl<$($bounds)*> ToolArgs for $ty {
            fn schema() -> Result<Schema, SchemaError> {
                array_schema::<T>(None, None)
            }
            fn is_valid_json(value: &Value) -> bool {
                all_items::<T>(value)
            }
            fn from_json(value: &Value) -> Result<Self, ConvertError> {
                items(value)
            }
            fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
                $owned(value)
            }
        }
    )*};
}

array_args!(
    [T: ToolArgs] Vec<T> => vec_owned,
    [T: ToolArgs] VecDeque<T> => items_owned,
);

/// Implements `ToolArgs` for sets: arrays of `T` with `uniqueItems`, since a set would drop a
/// duplicate silently (JSON-equal items convert to equal values: `1` and `1.0` are one integer).
macro_rules! set_args {
    ($([$($bounds:tt)*] $ty:ty),* $(,)?) => {$(
        impl<$($bounds)*> ToolArgs for $ty {
            fn schema() -> Result<Schema, SchemaError> {
                set_schema::<T>()
            }
            fn is_valid_json(value: &Value) -> bool {
                all_items::<T>(value) && has_unique_items(value)
            }
            fn from_json(value: &Value) -> Result<Self, ConvertError> {
                items(value)
            }
            fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
                items_owned(value)
            }
        }
    )*};
}

set_args!(
    [T: ToolArgs + Eq + Hash, S: BuildHasher + Default] HashSet<T, S>,
    [T: ToolArgs + Ord] BTreeSet<T>,
);

impl<T: ToolArgs> ToolArgs for Box<[T]> {
    fn schema() -> Result<Schema, SchemaError> {
        array_schema::<T>(None, None)
    }
    fn is_valid_json(value: &Value) -> bool {
        all_items::<T>(value)
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        items::<T, Vec<T>>(value).map(Vec::into_boxed_slice)
    }
    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        items_owned::<T, Vec<T>>(value).map(Vec::into_boxed_slice)
    }
}

impl<T: ToolArgs, const N: usize> ToolArgs for [T; N] {
    /// Exactly `N` items.
    fn schema() -> Result<Schema, SchemaError> {
        array_schema::<T>(Some(N as u64), Some(N as u64))
    }
    fn is_valid_json(value: &Value) -> bool {
        value.as_array().is_some_and(|items| items.len() == N) && all_items::<T>(value)
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        fixed_length(items(value)?)
    }
    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        fixed_length(items_owned(value)?)
    }
}

/// The array of exactly `N` items `list` must be.
fn fixed_length<T, const N: usize>(list: Vec<T>) -> Result<[T; N], ConvertError> {
    let found = list.len();
    list.try_into()
        .map_err(|_| ConvertError::new(format!("expected {N} items, got {found}")))
}

fn map_schema<T: ToolArgs>() -> Result<Schema, SchemaError> {
    Ok(derive::map_of(T::schema()?))
}

/// Converts every entry of an object, naming the key of the first failure.
fn entries<T: ToolArgs, C: Collect<(String, T)>>(value: &Value) -> Result<C, ConvertError> {
    let map = value
        .as_object()
        .ok_or_else(|| ConvertError::expected("an object", value))?;
    let mut collected = C::with_room(map.len());
    for (key, item) in map {
        let converted = T::from_json(item).map_err(|error| error.at_key(key))?;
        collected.add((key.clone(), converted));
    }
    Ok(collected)
}

/// [`entries`], moving each key and value out of the object.
fn entries_owned<T: ToolArgs, C: Collect<(String, T)>>(value: Value) -> Result<C, ConvertError> {
    let map = match value {
        Value::Object(map) => map,
        other => return Err(ConvertError::expected("an object", &other)),
    };
    let mut collected = C::with_room(map.len());
    for (key, item) in map {
        match T::from_json_owned(item) {
            Ok(converted) => collected.add((key, converted)),
            Err(error) => return Err(error.at_key(&key)),
        }
    }
    Ok(collected)
}

/// Implements `ToolArgs` for maps from `String` keys: JSON objects whose values are `T`. A map of
/// other keys is reported as the map type (`#[diagnostic::do_not_recommend]`), not with these
/// impls quoted as the similar ones.
macro_rules! map_args {
    ($([$($bounds:tt)*] $ty:ty),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($bounds)*> ToolArgs for $ty {
            fn schema() -> Result<Schema, SchemaError> {
                map_schema::<T>()
            }
            fn is_valid_json(value: &Value) -> bool {
                value
                    .as_object()
                    .is_some_and(|map| map.values().all(T::is_valid_json))
            }
            fn from_json(value: &Value) -> Result<Self, ConvertError> {
                entries(value)
            }
            fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
                entries_owned(value)
            }
        }
    )*};
}

map_args!(
    [T: ToolArgs, S: BuildHasher + Default] HashMap<String, T, S>,
    [T: ToolArgs] BTreeMap<String, T>,
);
