//! The schema of a derived struct built from constant data: `#[derive(ToolArgs)]` describes each
//! field (its key, its type's schema as a function pointer, whether it is required, and its
//! `#[arg]` keys and doc as steps) in a constant, and `schema()` hands that description to
//! [`struct_schema`], compiled once here, instead of generating the calls for every field.
//!
//! Generated code then holds only data and the one call, so a user's crate type-checks a struct
//! literal per field where it checked a chain of generic calls and `?`s. The steps are the schema
//! engine's own (`dsh_tools_schema::derive`, named by the macros' keyword table), applied in the
//! order the generated calls applied them, so the schema, its key order and the errors of a
//! default or `enum` value that does not fit are the ones those calls gave.

use serde_json::{Number, Value};

use dsh_tools_schema::derive;
use dsh_tools_schema::{Property, Schema, SchemaError};

/// A JSON value written in an attribute (`default`, `enum`, `const`, `examples`), as constant
/// data: [`Literal::to_value`] builds the value when the schema is built.
#[derive(Clone, Copy, Debug)]
pub enum Literal {
    /// `null` (`None`).
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer that fits `i64`.
    Int(i64),
    /// An integer above `i64::MAX`.
    Uint(u64),
    /// A float (a non-finite one is `null`, as `serde_json` makes it).
    Float(f64),
    /// A string.
    Str(&'static str),
    /// An array of literals.
    Array(&'static [Literal]),
}

impl Literal {
    /// The JSON value.
    pub fn to_value(&self) -> Value {
        match *self {
            Self::Null => Value::Null,
            Self::Bool(flag) => Value::Bool(flag),
            Self::Int(value) => Value::from(value),
            Self::Uint(value) => Value::from(value),
            Self::Float(value) => Value::from(value),
            Self::Str(text) => Value::String(text.to_owned()),
            Self::Array(items) => Value::Array(items.iter().map(Self::to_value).collect()),
        }
    }
}

/// A number a keyword takes (`minimum`, `multiple_of`, …), as constant data.
#[derive(Clone, Copy, Debug)]
pub enum NumberLiteral {
    /// An integer that fits `i64`.
    Int(i64),
    /// An integer above `i64::MAX`.
    Uint(u64),
    /// A float; one that is not finite fails the step's schema with the engine's error.
    Float(f64),
}

impl NumberLiteral {
    fn to_number(self) -> Result<Number, SchemaError> {
        match self {
            Self::Int(value) => Ok(Number::from(value)),
            Self::Uint(value) => Ok(Number::from(value)),
            Self::Float(value) => derive::float_number(value),
        }
    }
}

/// One step applied to a schema: `enum`, `const`, a value keyword through the step its row in
/// the macros' keyword table names (`with_min_length`, …), then the annotations. The derive lists
/// a field's steps in the order they apply; the first that fails is the error reported.
#[derive(Clone, Copy)]
pub enum SchemaStep {
    /// `#[arg(enum = [..])]`: every member must be a value the schema accepted before.
    Enum(&'static [Literal]),
    /// `#[arg(const = ..)]`.
    Const(Literal),
    /// A keyword that takes a number.
    Number(
        fn(Schema, Number) -> Result<Schema, SchemaError>,
        NumberLiteral,
    ),
    /// A keyword that takes a count.
    Count(fn(Schema, u64) -> Result<Schema, SchemaError>, u64),
    /// A keyword that is a flag.
    Flag(fn(Schema) -> Result<Schema, SchemaError>),
    /// A keyword that takes a string.
    Text(
        fn(Schema, &str) -> Result<Schema, SchemaError>,
        &'static str,
    ),
    /// A doc, which replaces the type's, followed by the notes on the values the type documents
    /// (`ToolArgs::VALUE_NOTES`) that the schema still accepts.
    Describe(&'static str, &'static [(&'static str, &'static str)]),
    /// `title`.
    Title(&'static str),
    /// A literal `default`, which [`object_schema`] checks against the property's schema.
    Default(Literal),
    /// `examples`.
    Examples(&'static [Literal]),
}

impl SchemaStep {
    fn apply(self, schema: Schema) -> Result<Schema, SchemaError> {
        Ok(match self {
            Self::Enum(members) => {
                derive::with_enum(schema, members.iter().map(Literal::to_value).collect())?
            }
            Self::Const(value) => derive::with_const(schema, value.to_value())?,
            Self::Number(step, number) => step(schema, number.to_number()?)?,
            Self::Count(step, count) => step(schema, count)?,
            Self::Flag(step) => step(schema)?,
            Self::Text(step, text) => step(schema, text)?,
            Self::Describe(description, notes) => {
                derive::describe_value(schema, description, notes)
            }
            Self::Title(title) => derive::titled(schema, title),
            Self::Default(value) => derive::with_default(schema, value.to_value()),
            Self::Examples(values) => {
                derive::with_examples(schema, values.iter().map(Literal::to_value).collect())
            }
        })
    }
}

/// `schema` with `steps` applied in order.
fn stepped(mut schema: Schema, steps: &[SchemaStep]) -> Result<Schema, SchemaError> {
    for step in steps {
        schema = step.apply(schema)?;
    }
    Ok(schema)
}

/// One field of a derived type, as `#[derive(ToolArgs)]` describes it.
pub struct FieldSchema {
    /// Its JSON key.
    pub key: &'static str,
    /// Its type's schema (`<T as ToolArgs>::schema`, or `schemars`' for `#[arg(schemars)]`).
    pub schema: fn() -> Result<Schema, SchemaError>,
    /// Whether the property is required.
    pub required: bool,
    /// Its `#[arg]` keys and doc, in the order they apply.
    pub steps: &'static [SchemaStep],
}

/// The schema of one field (a newtype's whole value, or a property's): its type's schema with
/// its steps applied.
pub fn field_schema(field: &FieldSchema) -> Result<Schema, SchemaError> {
    stepped((field.schema)()?, field.steps)
}

/// An object of `fields` (closed unless `open`); `tag` (the tag's key and the variant's name)
/// comes first as `{tag: const name}`. A default that does not fit its property's schema fails.
pub fn object_schema(
    fields: &[FieldSchema],
    open: bool,
    tag: Option<(&str, &str)>,
) -> Result<Schema, SchemaError> {
    let mut properties: Vec<Property> =
        Vec::with_capacity(fields.len() + usize::from(tag.is_some()));
    if let Some((tag, name)) = tag {
        properties.push(derive::property(tag, derive::const_string(name), true)?);
    }
    for field in fields {
        let schema = field_schema(field)?;
        properties.push(derive::property(field.key, schema, field.required)?);
    }
    Ok(derive::object(properties, open))
}

/// The schema of a struct: [`object_schema`] with the type's own steps (its doc and title).
pub fn struct_schema(
    fields: &[FieldSchema],
    open: bool,
    steps: &[SchemaStep],
) -> Result<Schema, SchemaError> {
    stepped(object_schema(fields, open, None)?, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string() -> Result<Schema, SchemaError> {
        Ok(Schema::string().build())
    }

    fn field(steps: &'static [SchemaStep]) -> FieldSchema {
        FieldSchema {
            key: "name",
            schema: string,
            required: false,
            steps,
        }
    }

    /// The data gives the schema the steps give when called one by one.
    #[test]
    fn builds_what_the_steps_build() {
        let fields = [field(&[
            SchemaStep::Count(derive::with_min_length, 2),
            SchemaStep::Describe("A name.", &[]),
        ])];
        let built = struct_schema(
            &fields,
            false,
            &[
                SchemaStep::Describe("A thing.", &[]),
                SchemaStep::Title("Thing"),
            ],
        );
        let by_steps = derive::with_min_length(Schema::string().build(), 2)
            .map(|schema| derive::describe_value(schema, "A name.", &[]))
            .and_then(|schema| derive::property("name", schema, false))
            .map(|property| derive::object(vec![property], false))
            .map(|schema| derive::titled(derive::describe(schema, "A thing."), "Thing"));
        match (built, by_steps) {
            (Ok(built), Ok(by_steps)) => {
                assert_eq!(built.to_json_schema(), by_steps.to_json_schema());
            }
            (built, by_steps) => panic!("built {built:?}, by steps {by_steps:?}"),
        }
    }

    /// A default the field's schema refuses fails with the property's error.
    #[test]
    fn refuses_a_default_that_does_not_fit() {
        let fields = [field(&[
            SchemaStep::Count(derive::with_min_length, 2),
            SchemaStep::Default(Literal::Str("a")),
        ])];
        let error = object_schema(&fields, false, None)
            .err()
            .map(|error| error.to_string());
        assert_eq!(
            error.as_deref(),
            Some(
                "unsupported JSON schema: the default \"a\" of property \"name\" does not match its own schema"
            )
        );
    }

    /// An `enum` member the type does not accept fails with the step's error.
    #[test]
    fn refuses_an_enum_member_of_another_type() {
        let fields = [field(&[SchemaStep::Enum(&[
            Literal::Str("a"),
            Literal::Int(1),
        ])])];
        let error = object_schema(&fields, false, Some(("kind", "named")))
            .err()
            .map(|error| error.to_string());
        assert_eq!(
            error.as_deref(),
            Some("unsupported JSON schema: `enum` lists 1, which the field's type does not accept")
        );
    }
}
