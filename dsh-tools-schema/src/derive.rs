//! The schemas `#[derive(ToolArgs)]` and `#[tool]` build, step by step: a standard type's
//! schema, then each `#[arg]` key applied. Every step checks that it makes sense for the schema at
//! hand (a bound on a number, a default the schema accepts), so a mistake the compiler could not
//! see surfaces as a registration-time `UNSUPPORTED_SCHEMA` error instead of a schema that lies
//! to the model.
//!
//! Not API: the runtime's generated code calls these steps (through `dsh_tools::__private`) when
//! a tool is registered, and the macros call the same steps at compile time to render the schema
//! rustdoc shows ([`documented_json_schema`]), so the two cannot drift.

use serde_json::{Number, Value};

use super::error::SchemaError;
use super::format::StringFormat;
use super::model::{
    AdditionalProperties, ArrayRules, ObjectRules, Property, Schema, SchemaKind, StringRules,
};
use super::pattern::Pattern;
use super::render::render_with_external_references;
use super::rules::arrays::{ArrayConstraints, array_steps};
use super::rules::lengths::{Lengths, length_steps};
use super::rules::matching::matching_steps;
use super::rules::numbers::{NumberRules, number_steps};
use super::rules::objects::object_steps;
use super::semantics::compare_numbers;

/// `{"type":"null"}`: `()` and unit structs.
pub fn null_schema() -> Schema {
    Schema::new(SchemaKind::Null)
}

/// A string of exactly one code point: `char`.
pub fn single_character() -> Schema {
    Schema::new(SchemaKind::String(StringRules {
        lengths: Lengths {
            min: Some(1),
            max: Some(1),
        },
        ..StringRules::default()
    }))
}

/// An integer within a Rust type's own range (`u8`, `i64`, …): enforced always, published within
/// ±(2^53 − 1) ([`NumberRules::implied_by_type`]).
pub fn integer_of_type(minimum: Number, maximum: Number) -> Schema {
    Schema::new(SchemaKind::Integer(NumberRules {
        minimum: Some(minimum),
        maximum: Some(maximum),
        implied_by_type: true,
        ..NumberRules::default()
    }))
}

/// A number within `±limit`, a float type's own range (`f32`), as [`integer_of_type`] bounds an
/// integer.
pub fn number_of_type(limit: f64) -> Schema {
    Schema::new(SchemaKind::Number(NumberRules {
        minimum: Number::from_f64(-limit),
        maximum: Number::from_f64(limit),
        implied_by_type: true,
        ..NumberRules::default()
    }))
}

/// An array of `items` (`Vec`, `VecDeque`, slices; a fixed-size array with both counts).
pub fn array_of(items: Schema, min_items: Option<u64>, max_items: Option<u64>) -> Schema {
    Schema::new(SchemaKind::Array(ArrayRules {
        items: Some(Box::new(items)),
        constraints: ArrayConstraints {
            min_items,
            max_items,
            ..ArrayConstraints::default()
        },
    }))
}

/// An array of distinct `items` (`HashSet`, `BTreeSet`): a duplicate would be dropped silently on
/// conversion, so `uniqueItems` reports it instead.
pub fn set_of(items: Schema) -> Schema {
    let mut schema = array_of(items, None, None);
    if let SchemaKind::Array(rules) = &mut schema.kind {
        rules.constraints.unique_items = true;
    }
    schema
}

/// An object whose every value is `values` (`HashMap<String, T>`, `BTreeMap<String, T>`).
pub fn map_of(values: Schema) -> Schema {
    Schema::new(SchemaKind::Object(ObjectRules::new(
        Vec::new(),
        AdditionalProperties::Schema(Box::new(values)),
    )))
}

/// Any JSON object (`serde_json::Map<String, Value>`).
pub fn any_object() -> Schema {
    Schema::new(SchemaKind::Object(ObjectRules::new(
        Vec::new(),
        AdditionalProperties::Allowed,
    )))
}

/// The JSON Schema of `schema` as rustdoc shows it: [`Schema::to_json_schema`], except that a
/// [`SchemaKind::Ref`] with no enclosing definition names a schema shown elsewhere (another
/// type's page) and is rendered as `{"$ref": "<its name>"}`, annotations and nullability around
/// it as for any reference.
pub fn documented_json_schema(schema: &Schema) -> Value {
    Value::Object(render_with_external_references(schema))
}

/// Sets the description (a field's doc replaces its type's).
pub fn describe(mut schema: Schema, description: &str) -> Schema {
    schema.annotations.description = Some(description.to_owned());
    schema
}

/// Sets the description of a value whose type documents its values (`ToolArgs::VALUE_NOTES`):
/// the text replaces the type's own, and the notes of the values the schema still accepts follow
/// it, so a documented field of a documented enum keeps saying what each value means.
pub fn describe_value(mut schema: Schema, description: &str, notes: &[(&str, &str)]) -> Schema {
    let kept: Vec<(&str, &str)> = notes
        .iter()
        .copied()
        .filter(|(value, _)| schema.is_valid(&Value::String((*value).to_owned())))
        .collect();
    schema.annotations.description = with_value_notes(Some(description), &kept);
    schema
}

/// A description followed by one line per documented value (`- \`literal\`: …`).
fn with_value_notes(description: Option<&str>, notes: &[(&str, &str)]) -> Option<String> {
    let notes: Vec<String> = notes
        .iter()
        .map(|(name, text)| format!("- `{name}`: {text}"))
        .collect();
    match (description, notes.is_empty()) {
        (None, true) => None,
        (Some(text), true) => Some(text.to_owned()),
        (None, false) => Some(notes.join("\n")),
        (Some(text), false) => Some(format!("{text}\n\n{}", notes.join("\n"))),
    }
}

/// The schema of a struct that is a tool's whole argument object (`ToolArgs::OBJECT_STRUCT`):
/// it must be an object, which only a hand-written impl could get wrong.
pub fn whole_arguments(schema: Schema) -> Result<Schema, SchemaError> {
    match schema.as_object() {
        Some(_) => Ok(schema),
        None => Err(SchemaError::new(
            "a type with `OBJECT_STRUCT` set is a tool's whole arguments, so its schema must be a non-null object",
        )),
    }
}

/// Sets the title.
pub fn titled(mut schema: Schema, title: &str) -> Schema {
    schema.annotations.title = Some(title.to_owned());
    schema
}

/// An object of `properties`; closed unless `open`.
pub fn object(properties: Vec<Property>, open: bool) -> Schema {
    let additional = if open {
        AdditionalProperties::Allowed
    } else {
        AdditionalProperties::Forbidden
    };
    Schema::new(SchemaKind::Object(ObjectRules::new(properties, additional)))
}

/// A property; its default, when it has one, must be a value the schema accepts.
pub fn property(name: &str, schema: Schema, required: bool) -> Result<Property, SchemaError> {
    if let Some(default) = &schema.annotations.default
        && !schema.is_valid(default)
    {
        return Err(SchemaError::new(format!(
            "the default {default} of property \"{name}\" does not match its own schema"
        )));
    }
    Ok(Property {
        name: name.to_owned(),
        schema,
        required,
    })
}

/// `{"const": "<name>"}` with `"type": "string"`: an enum tag.
pub fn const_string(name: &str) -> Schema {
    Schema::new(SchemaKind::Const(Value::String(name.to_owned())))
}

/// Restricts a schema to the listed values (`#[arg(enum = [..])]`), each of which must be a
/// value the schema accepted before.
pub fn with_enum(schema: Schema, members: Vec<Value>) -> Result<Schema, SchemaError> {
    check_members(&schema, &members, "enum")?;
    Ok(retyped(schema, SchemaKind::Enum(members)))
}

/// Restricts a schema to one value (`#[arg(const = ..)]`).
pub fn with_const(schema: Schema, constant: Value) -> Result<Schema, SchemaError> {
    check_members(&schema, std::slice::from_ref(&constant), "const")?;
    Ok(retyped(schema, SchemaKind::Const(constant)))
}

fn check_members(schema: &Schema, members: &[Value], key: &str) -> Result<(), SchemaError> {
    match members.iter().find(|member| !schema.is_valid(member)) {
        Some(member) => Err(SchemaError::new(format!(
            "`{key}` lists {member}, which the field's type does not accept"
        ))),
        None => Ok(()),
    }
}

/// Replaces the kind, keeping nullability and annotations.
fn retyped(mut schema: Schema, kind: SchemaKind) -> Schema {
    schema.kind = kind;
    schema
}

/// A finite float as an exact JSON number.
pub fn float_number(value: f64) -> Result<Number, SchemaError> {
    Number::from_f64(value)
        .ok_or_else(|| SchemaError::new(format!("bound {value} is not a finite number")))
}

fn bounds_of<'a>(schema: &'a mut Schema, key: &str) -> Result<&'a mut NumberRules, SchemaError> {
    match &mut schema.kind {
        SchemaKind::Number(rules) | SchemaKind::Integer(rules) => Ok(rules),
        _ => Err(not_applicable(key, "numbers")),
    }
}

fn not_applicable(key: &str, kinds: &str) -> SchemaError {
    SchemaError::new(format!("`{key}` applies to {kinds} only"))
}

fn string_rules<'a>(schema: &'a mut Schema, key: &str) -> Result<&'a mut StringRules, SchemaError> {
    match &mut schema.kind {
        SchemaKind::String(rules) => Ok(rules),
        _ => Err(not_applicable(key, "strings")),
    }
}

fn array_rules<'a>(schema: &'a mut Schema, key: &str) -> Result<&'a mut ArrayRules, SchemaError> {
    match &mut schema.kind {
        SchemaKind::Array(rules) => Ok(rules),
        _ => Err(not_applicable(key, "arrays")),
    }
}

fn object_rules<'a>(schema: &'a mut Schema, key: &str) -> Result<&'a mut ObjectRules, SchemaError> {
    match &mut schema.kind {
        SchemaKind::Object(rules) => Ok(rules),
        _ => Err(not_applicable(key, "maps")),
    }
}

// The value keywords' steps (`with_minimum`, `with_min_length`, …), written with their rules in
// `rules/`, one family per file, and expanded here, where the model they set is named: a new
// keyword adds its step in its family's file.
number_steps!();
length_steps!();
matching_steps!();
array_steps!();
object_steps!();

/// Shows `value` as the default (checked against the schema by [`property`]).
pub fn with_default(mut schema: Schema, value: Value) -> Schema {
    schema.annotations.default = Some(value);
    schema
}

/// Shows `values` as examples.
pub fn with_examples(mut schema: Schema, values: Vec<Value>) -> Schema {
    schema.annotations.examples = values;
    schema
}

/// A string enum of `names`; the description is the type's own text followed by one line per
/// documented value (`- \`literal\`: …`), so the model learns what each value means.
pub fn string_enum(names: &[&str], description: Option<&str>, notes: &[(&str, &str)]) -> Schema {
    let mut schema = Schema::new(SchemaKind::Enum(
        names
            .iter()
            .map(|name| Value::String((*name).to_owned()))
            .collect(),
    ));
    schema.annotations.description = with_value_notes(description, notes);
    schema
}

/// `oneOf` of `branches` (a single branch is the schema itself).
pub fn one_of(mut branches: Vec<Schema>) -> Schema {
    if branches.len() == 1 {
        branches.remove(0)
    } else {
        Schema::new(SchemaKind::OneOf(branches))
    }
}

/// An internally tagged newtype variant: the payload's object with `{tag: const name}` first.
pub fn internally_tagged(tag: &str, name: &str, payload: Schema) -> Result<Schema, SchemaError> {
    let mut payload = payload;
    match &mut payload.kind {
        SchemaKind::Object(rules) => {
            if rules.properties.iter().any(|property| property.name == tag) {
                return Err(SchemaError::new(format!(
                    "variant \"{name}\" has a property named like the tag \"{tag}\""
                )));
            }
            rules.properties.insert(
                0,
                Property {
                    name: tag.to_owned(),
                    schema: const_string(name),
                    required: true,
                },
            );
            Ok(payload)
        }
        _ => Err(SchemaError::new(format!(
            "variant \"{name}\" of an internally tagged enum must hold a struct, whose fields sit beside the tag"
        ))),
    }
}

/// The schema of a type from another crate, as `schemars` describes its deserialization
/// (draft 2020-12), imported.
pub fn schemars_schema<T: schemars::JsonSchema>() -> Result<Schema, SchemaError> {
    Schema::from_schemars(&schemars::schema_for!(T))
}

/// What a derive that failed to compile reports, should its stub ever run.
pub fn macro_error_schema() -> SchemaError {
    SchemaError::new("this type's `#[derive(ToolArgs)]` did not compile")
}
