//! What `#[arg(..)]` asks of a field's type, as traits the compiler checks.
//!
//! A `default`, an `enum` member or a `const` is written as a Rust literal and must be a value of
//! the field's type: a string literal needs [`TakesString`], a character [`TakesChar`], an integer
//! [`TakesInteger`], a number with a fraction [`TakesFloat`], `true`/`false` [`TakesBool`], `None`
//! [`TakesNone`], and an array [`TakesArray`] (each item then checked against its item type). A
//! constraint must suit the type: `min_length`, `max_length`, `pattern` and `format` need
//! [`StringField`], `minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum` and
//! `multiple_of` [`NumberField`], `min_items`, `max_items` and `unique_items` [`ArrayField`],
//! `min_properties` and `max_properties` [`MapField`].
//!
//! `#[derive(ToolArgs)]` checks every attribute against these traits, so a mistake is a compile
//! error at the attribute (or at the field's type) that says what does not fit. The standard
//! types implement them as their schemas say, and `Option`, `Box`, `Arc` and `Rc` pass their inner
//! type's on; `#[derive(ToolArgs)]` implements [`TakesString`] for enums whose variants are all
//! units, whose values are strings. A type with a hand-written [`ToolArgs`](crate::ToolArgs) impl
//! may implement the traits its schema allows, to take the same attributes.
//!
//! [`SchemarsType`] is what `#[arg(schemars)]` and `#[tool(schemars_output)]` ask of a type of
//! another crate. [`Patch`] is here too: a field type with three states (left out, `null`, a value), taking
//! what its inner type takes, as an `Option` does.
//!
//! The impls are marked `#[diagnostic::do_not_recommend]`, so a message says what the field's
//! type does not take rather than listing every type that does.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Map, Value};

pub use crate::args::Patch;

/// A type that takes a string literal (`default = "fast"`).
#[diagnostic::on_unimplemented(
    message = "a string is not a value of type `{Self}`",
    label = "this value does not fit the field's type",
    note = "strings are values of `String`, `PathBuf`, `Cow<str>`, `serde_json::Value` and enums of unit variants deriving `ToolArgs`, and of `Option`s of those"
)]
pub trait TakesString {
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type `#[arg(schemars)]` (or `#[tool(schemars_output)]`) can bring in: its schema from
/// `schemars::JsonSchema` — schemars 1, the major version dsh-tools reads — and its value through
/// `serde::Deserialize`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot come in through `schemars`: it needs schemars 1's `JsonSchema` and `serde::Deserialize`",
    label = "not described by schemars 1, or not `Deserialize`",
    note = "dsh-tools reads schemas with schemars 1.x: derive or implement its `JsonSchema` (a `JsonSchema` of schemars 0.8 is another trait), and `serde::Deserialize`; or derive `ToolArgs` for a type of your own"
)]
pub trait SchemarsType {
    #[doc(hidden)]
    const CHECK: () = ();
}

#[diagnostic::do_not_recommend]
impl<T: schemars::JsonSchema + serde::de::DeserializeOwned> SchemarsType for T {}

/// A type that takes a character literal (`default = 'x'`).
#[diagnostic::on_unimplemented(
    message = "a character is not a value of type `{Self}`",
    label = "this value does not fit the field's type",
    note = "characters are values of `char`, `String` and `serde_json::Value`, and of `Option`s of those"
)]
pub trait TakesChar {
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type that takes `true` or `false`.
#[diagnostic::on_unimplemented(
    message = "a boolean is not a value of type `{Self}`",
    label = "this value does not fit the field's type",
    note = "`true` and `false` are values of `bool` and `serde_json::Value`, and of `Option`s of those"
)]
pub trait TakesBool {
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type that takes `None` (JSON's `null`).
#[diagnostic::on_unimplemented(
    message = "`None` is not a value of type `{Self}`",
    label = "this value does not fit the field's type",
    note = "`None` is a value of `Option` fields and of `serde_json::Value`"
)]
pub trait TakesNone {
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type that takes an integer literal (`default = 20`).
#[diagnostic::on_unimplemented(
    message = "an integer is not a value of type `{Self}`",
    label = "this value does not fit the field's type",
    note = "integers are values of the integer and float types and of `serde_json::Value`, and of `Option`s of those"
)]
pub trait TakesInteger {
    /// The type the literal is checked as: the field's own integer type, so a literal out of its
    /// range is refused (`default = 300` on a `u8`), or a wide integer for a float or a `Value`.
    type Integer;
}

/// A type that takes a number with a fraction or an exponent (`default = 0.5`).
#[diagnostic::on_unimplemented(
    message = "a number with a fraction is not a value of type `{Self}`",
    label = "this value does not fit the field's type",
    note = "numbers with a fraction are values of `f32`, `f64` and `serde_json::Value`, and of `Option`s of those"
)]
pub trait TakesFloat {
    /// The type the literal is checked as.
    type Float;
}

/// A type that takes an array literal (`default = ["*.rs"]`, `default = []`).
#[diagnostic::on_unimplemented(
    message = "an array is not a value of type `{Self}`",
    label = "this value does not fit the field's type",
    note = "arrays are values of `Vec`, `VecDeque`, `HashSet`, `BTreeSet`, `Box<[T]>`, `[T; N]` and `serde_json::Value`, and of `Option`s of those"
)]
pub trait TakesArray {
    /// The type each item of the array must be a value of.
    type Item;
    /// The number of items the type holds, when it is fixed (`[T; N]`).
    const LEN: Option<usize> = None;
}

/// A type whose schema is a string: it takes `min_length`, `max_length` and `pattern`.
#[diagnostic::on_unimplemented(
    message = "`min_length`, `max_length` and `pattern` apply to strings, and `{Self}` is not one",
    label = "not a string field",
    note = "string fields are `String`, `PathBuf`, `Cow<str>` and `char`, and `Option`s of those"
)]
pub trait StringField {
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type whose schema is a number: it takes `minimum`, `maximum`, `exclusive_minimum`,
/// `exclusive_maximum` and `multiple_of`.
#[diagnostic::on_unimplemented(
    message = "`minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum` and `multiple_of` apply to numbers, and `{Self}` is not one",
    label = "not a number field",
    note = "number fields are the integer types, `f32` and `f64`, and `Option`s of those"
)]
pub trait NumberField {
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type whose schema is an array: it takes `min_items`, `max_items` and `unique_items`.
#[diagnostic::on_unimplemented(
    message = "`min_items`, `max_items` and `unique_items` apply to arrays, and `{Self}` is not one",
    label = "not an array field",
    note = "array fields are `Vec`, `VecDeque`, `HashSet`, `BTreeSet`, `Box<[T]>` and `[T; N]`, and `Option`s of those"
)]
pub trait ArrayField {
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type whose schema is a map (an object of any keys): it takes `min_properties` and
/// `max_properties`. A struct's keys are its fields, fixed by its type, so it takes neither.
#[diagnostic::on_unimplemented(
    message = "`min_properties` and `max_properties` apply to maps, and `{Self}` is not one",
    label = "not a map field",
    note = "map fields are `HashMap<String, T>`, `BTreeMap<String, T>` and `serde_json::Map<String, Value>`, and `Option`s of those"
)]
pub trait MapField {
    #[doc(hidden)]
    const CHECK: () = ();
}

macro_rules! marks {
    ($marker:ident: $($ty:ty),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl $marker for $ty {}
    )*};
}

marks!(TakesString: String, PathBuf, Cow<'static, str>, Value);
marks!(TakesChar: char, String, Value);
marks!(TakesBool: bool, Value);
marks!(TakesNone: Value);
marks!(StringField: String, PathBuf, Cow<'static, str>, char);
marks!(
    NumberField: i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

#[diagnostic::do_not_recommend]
impl<T> TakesNone for Option<T> {}

macro_rules! integers {
    ($($ty:ty),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl TakesInteger for $ty {
            type Integer = $ty;
        }
    )*};
}

integers!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

// Floats and `Value` take any integer the macros accept (they refuse one beyond 64 bits).
macro_rules! wide_integers {
    ($($ty:ty),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl TakesInteger for $ty {
            type Integer = i128;
        }
    )*};
}

wide_integers!(f32, f64, Value);

#[diagnostic::do_not_recommend]
impl TakesFloat for f32 {
    type Float = f32;
}

#[diagnostic::do_not_recommend]
impl TakesFloat for f64 {
    type Float = f64;
}

#[diagnostic::do_not_recommend]
impl TakesFloat for Value {
    type Float = f64;
}

macro_rules! sequences {
    ($([$($params:tt)*] $ty:ty),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($params)*> TakesArray for $ty {
            type Item = T;
        }

        #[diagnostic::do_not_recommend]
        impl<$($params)*> ArrayField for $ty {}
    )*};
}

sequences!(
    [T] Vec<T>,
    [T] VecDeque<T>,
    [T, S] HashSet<T, S>,
    [T] BTreeSet<T>,
    [T] Box<[T]>,
);

#[diagnostic::do_not_recommend]
impl<T, const N: usize> TakesArray for [T; N] {
    type Item = T;
    const LEN: Option<usize> = Some(N);
}

#[diagnostic::do_not_recommend]
impl<T, const N: usize> ArrayField for [T; N] {}

#[diagnostic::do_not_recommend]
impl TakesArray for Value {
    type Item = Value;
}

#[diagnostic::do_not_recommend]
impl<T, S> MapField for HashMap<String, T, S> {}

#[diagnostic::do_not_recommend]
impl<T> MapField for BTreeMap<String, T> {}

#[diagnostic::do_not_recommend]
impl MapField for Map<String, Value> {}

// `Option`, `Box`, `Arc` and `Rc` take what their inner type takes (`Box<[T]>` is an array of
// its own, so `Box` does not pass `ArrayField` on).
macro_rules! through_wrappers {
    ($($wrapper:ident),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl<T: TakesString> TakesString for $wrapper<T> {}

        #[diagnostic::do_not_recommend]
        impl<T: TakesChar> TakesChar for $wrapper<T> {}

        #[diagnostic::do_not_recommend]
        impl<T: TakesBool> TakesBool for $wrapper<T> {}

        #[diagnostic::do_not_recommend]
        impl<T: TakesInteger> TakesInteger for $wrapper<T> {
            type Integer = T::Integer;
        }

        #[diagnostic::do_not_recommend]
        impl<T: TakesFloat> TakesFloat for $wrapper<T> {
            type Float = T::Float;
        }

        #[diagnostic::do_not_recommend]
        impl<T: TakesArray> TakesArray for $wrapper<T> {
            type Item = T::Item;
            const LEN: Option<usize> = T::LEN;
        }

        #[diagnostic::do_not_recommend]
        impl<T: StringField> StringField for $wrapper<T> {}

        #[diagnostic::do_not_recommend]
        impl<T: NumberField> NumberField for $wrapper<T> {}

        #[diagnostic::do_not_recommend]
        impl<T: MapField> MapField for $wrapper<T> {}
    )*};
}

through_wrappers!(Option, Patch, Box, Arc, Rc);

macro_rules! none_through_pointers {
    ($($pointer:ident),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl<T: TakesNone> TakesNone for $pointer<T> {}
    )*};
}

none_through_pointers!(Box, Arc, Rc);

macro_rules! arrays_through_pointers {
    ($($pointer:ident),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl<T: ArrayField> ArrayField for $pointer<T> {}
    )*};
}

arrays_through_pointers!(Option, Patch, Arc, Rc);
