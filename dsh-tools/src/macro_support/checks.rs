//! Compile-time checks the macros emit into never-called functions: they make the compiler reject
//! a default of the wrong type or a length bound on a number, with messages
//! (`#[diagnostic::on_unimplemented]`) that say what to change.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

/// The schema the docs of a generated item show, as JSON text (tests compare it with the runtime
/// schema).
pub trait DocumentedSchema {
    /// The documented JSON Schema.
    const DOCUMENTED_SCHEMA: &'static str;
}

/// The output schema a `#[tool]`'s docs show, as JSON text (tests compare it with the runtime
/// output schema).
pub trait DocumentedOutput {
    /// The documented JSON Schema of the tool's value.
    const DOCUMENTED_OUTPUT_SCHEMA: &'static str;
}

/// `Self` is a literal that can be a default, `enum` member or `const` of a field of type `T`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a valid value for a field of type `{T}`",
    label = "this value does not fit the field's type"
)]
pub trait DefaultLiteral<T> {}

/// Type-checks `literal` against the field type `T`.
pub fn check_literal<T, L: DefaultLiteral<T>>(literal: L) {
    let _ = literal;
}

macro_rules! literal_of_itself {
    ($($ty:ty),* $(,)?) => {$(impl DefaultLiteral<$ty> for $ty {})*};
}

literal_of_itself!(
    bool, char, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

// A float field accepts an integer literal, as JSON does (`default = 1` on an `f64`).
impl DefaultLiteral<f64> for i32 {}
impl DefaultLiteral<f32> for i32 {}

impl DefaultLiteral<String> for &'static str {}
impl DefaultLiteral<PathBuf> for &'static str {}
impl DefaultLiteral<std::borrow::Cow<'static, str>> for &'static str {}
impl DefaultLiteral<String> for char {}

macro_rules! literal_into_value {
    ($($ty:ty),* $(,)?) => {$(impl DefaultLiteral<Value> for $ty {})*};
}

literal_into_value!(&'static str, bool, i32, i64, u64, f64, char);

impl<T, L: DefaultLiteral<T>> DefaultLiteral<Option<T>> for L {}
impl<T, L: DefaultLiteral<T>> DefaultLiteral<Box<T>> for L {}
impl<T, L: DefaultLiteral<T>> DefaultLiteral<Arc<T>> for L {}
impl<T, L: DefaultLiteral<T>> DefaultLiteral<Rc<T>> for L {}

/// An empty array literal (`default = []`), whose item type cannot be inferred from its items.
#[derive(Clone, Copy, Debug)]
pub struct EmptyArray;

impl<T> DefaultLiteral<Vec<T>> for EmptyArray {}
impl<T> DefaultLiteral<VecDeque<T>> for EmptyArray {}
impl<T> DefaultLiteral<HashSet<T>> for EmptyArray {}
impl<T> DefaultLiteral<BTreeSet<T>> for EmptyArray {}
impl<T> DefaultLiteral<[T; 0]> for EmptyArray {}
impl DefaultLiteral<Value> for EmptyArray {}

impl<T, L: DefaultLiteral<T>, const N: usize> DefaultLiteral<Vec<T>> for [L; N] {}
impl<T, L: DefaultLiteral<T>, const N: usize> DefaultLiteral<VecDeque<T>> for [L; N] {}
impl<T, L: DefaultLiteral<T>, const N: usize> DefaultLiteral<HashSet<T>> for [L; N] {}
impl<T, L: DefaultLiteral<T>, const N: usize> DefaultLiteral<BTreeSet<T>> for [L; N] {}
impl<T, L: DefaultLiteral<T>, const N: usize> DefaultLiteral<[T; N]> for [L; N] {}

/// A type whose schema is a string.
#[diagnostic::on_unimplemented(
    message = "`min_length`, `max_length` and `pattern` apply to strings, and `{Self}` is not one",
    label = "not a string field"
)]
pub trait StringField {}

/// A type whose schema is a number.
#[diagnostic::on_unimplemented(
    message = "`minimum` and `maximum` apply to numbers, and `{Self}` is not one",
    label = "not a number field"
)]
pub trait NumberField {}

/// A type whose schema is an array.
#[diagnostic::on_unimplemented(
    message = "`min_items` and `max_items` apply to arrays, and `{Self}` is not one",
    label = "not an array field"
)]
pub trait ArrayField {}

impl StringField for String {}
impl StringField for PathBuf {}
impl StringField for std::borrow::Cow<'static, str> {}
impl StringField for char {}

macro_rules! number_fields {
    ($($ty:ty),* $(,)?) => {$(impl NumberField for $ty {})*};
}

number_fields!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

impl<T> ArrayField for Vec<T> {}
impl<T> ArrayField for VecDeque<T> {}
impl<T, S> ArrayField for HashSet<T, S> {}
impl<T> ArrayField for BTreeSet<T> {}
impl<T> ArrayField for Box<[T]> {}
impl<T, const N: usize> ArrayField for [T; N] {}

macro_rules! through_wrappers {
    ($($marker:ident),*) => {$(
        impl<T: $marker> $marker for Option<T> {}
        impl<T: $marker> $marker for Box<T> {}
        impl<T: $marker> $marker for Arc<T> {}
        impl<T: $marker> $marker for Rc<T> {}
    )*};
}

through_wrappers!(StringField, NumberField);

impl<T: ArrayField> ArrayField for Option<T> {}
impl<T: ArrayField> ArrayField for Arc<T> {}
impl<T: ArrayField> ArrayField for Rc<T> {}

/// `T` takes `min_length`/`max_length`/`pattern`.
pub fn assert_string<T: StringField>() {}

/// `T` takes `minimum`/`maximum`.
pub fn assert_number<T: NumberField>() {}

/// `T` takes `min_items`/`max_items`.
pub fn assert_array<T: ArrayField>() {}
