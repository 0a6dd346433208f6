//! The JSON Schema shown in rustdoc, rendered at compile time by the schema engine itself.
//!
//! From what the tokens tell, this file builds a `dsh_tools_schema::Schema` with the same steps
//! the generated `ToolArgs::schema()` takes at run time (`dsh_tools_schema::derive`: a standard
//! type's schema, then each `#[arg]` key), and renders it with the engine's renderer: no rule of
//! the schema or of its rendering lives here. A type the macro cannot see into (another
//! `ToolArgs` type, a `schemars` type) is a reference rendered as `{"$ref": "Name"}` and listed
//! under the schema as an intra-doc link to its page, which shows its schema; the model receives
//! it inlined. The `#[arg]` keys of a field of such a type are shown beside its `$ref`, replacing
//! the type's own. A test renders the runtime schema of representative types and compares it
//! with what the docs show.

use dsh_tools_schema::derive;
use dsh_tools_schema::rules::members;
use dsh_tools_schema::{AdditionalProperties, Property, Schema, SchemaKind};
use proc_macro2::TokenStream;
use quote::ToTokens;
use serde_json::{Map, Number, Value};
use syn::Type;

use crate::ast::{ArgsType, Field, Payload, Shape, Tagging, Variant};
use crate::attr::arg::{ArgAttrs, DefaultSpec, KeywordValue};
use crate::keyword_table::Takes;
use crate::literal::JsonLiteral;
use crate::types::{last_segment, peel};

/// A documented schema: its JSON text, and the types it names by `$ref`.
pub(crate) struct Documented {
    /// The JSON text (what `DocumentedSchema` holds), pretty-printed as `serde_json` does.
    pub(crate) json: String,
    references: Vec<(String, Link)>,
    /// Whether some `$ref` has keys beside it.
    annotated_reference: bool,
}

impl Documented {
    /// The documented schema of a derived type (or of a tool's arguments struct).
    pub(crate) fn of_args(args: &ArgsType) -> Self {
        let mut builder = Builder::default();
        let schema = builder.args_type(args);
        builder.finish(&schema)
    }

    /// The documented schema of a type, as a field or a tool's output has it.
    pub(crate) fn of_type(ty: &Type) -> Self {
        let mut builder = Builder::default();
        let schema = builder.of_type(ty);
        builder.finish(&schema)
    }

    /// The rustdoc section showing the schema (Markdown), with every `$ref`'d type linked.
    pub(crate) fn section(&self, heading: &str) -> String {
        format!(
            "# {heading}\n\n```json\n{}\n```{}",
            self.json,
            self.references_note()
        )
    }

    /// Where the `$ref`'d types' schemas are: intra-doc links to their pages.
    pub(crate) fn references_note(&self) -> String {
        if self.references.is_empty() {
            return String::new();
        }
        let names: Vec<String> = self
            .references
            .iter()
            .filter_map(|(name, link)| match link {
                Link::Page => Some(format!("[`{name}`]")),
                Link::Name => Some(format!("`{name}`")),
                Link::Schemars => None,
            })
            .collect();
        let schemars: Vec<String> = self
            .references
            .iter()
            .filter(|(_, link)| *link == Link::Schemars)
            .map(|(name, _)| format!("`{name}`"))
            .collect();
        let mut note = String::new();
        if !names.is_empty() {
            note.push_str(&format!(
                "\n\nReferenced types, each showing its schema on its page (the model receives them inlined): {}.",
                names.join(", ")
            ));
        }
        if self.annotated_reference {
            note.push_str(" Keys beside a `$ref` replace the type's own; a `description` keeps a string enum's notes on its values after it.");
        }
        if !schemars.is_empty() {
            note.push_str(&format!(
                "\n\nSchemas from `schemars::JsonSchema`, built when the tool is registered and inlined for the model: {}.",
                schemars.join(", ")
            ));
        }
        note
    }
}

/// How a `$ref`'d type is pointed at below the schema.
#[derive(Clone, Copy, PartialEq)]
enum Link {
    /// A path: an intra-doc link to the type's page, which shows its schema.
    Page,
    /// A type the docs cannot link (an array of non-literal length, a tuple, …): named only.
    Name,
    /// A `#[arg(schemars)]` type: its schema comes from `schemars::JsonSchema`.
    Schemars,
}

/// One use of a type the docs cannot see into: the reference in the built schema is named by
/// its index here (a name no Rust type has), and replaced once rendered.
struct Reference {
    name: String,
    link: Link,
    /// The field's `#[arg]` keys, shown beside the `$ref`.
    beside: Map<String, Value>,
}

/// The name of the `index`th reference while the schema is built.
fn marker(index: usize) -> String {
    format!("\u{0}{index}")
}

/// Builds the schema of one documented item, keeping the references it makes.
#[derive(Default)]
struct Builder {
    references: Vec<Reference>,
}

impl Builder {
    /// Renders `schema`, naming each reference by its type with its keys beside it.
    fn finish(self, schema: &Schema) -> Documented {
        let mut value = derive::documented_json_schema(schema);
        self.name_references(&mut value);
        let mut references: Vec<(String, Link)> = Vec::new();
        for reference in &self.references {
            if !references.iter().any(|(known, _)| *known == reference.name) {
                references.push((reference.name.clone(), reference.link));
            }
        }
        Documented {
            json: serde_json::to_string_pretty(&value).unwrap_or_default(),
            references,
            annotated_reference: self.annotated(schema),
        }
    }

    fn name_references(&self, value: &mut Value) {
        match value {
            Value::Object(map) => {
                let index = map
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|target| target.strip_prefix('\u{0}'))
                    .and_then(|index| index.parse::<usize>().ok());
                if let Some(reference) = index.and_then(|index| self.references.get(index)) {
                    let mut named = Map::new();
                    for (key, item) in std::mem::take(map) {
                        if key == "$ref" {
                            named.insert(key, Value::String(reference.name.clone()));
                            named.extend(reference.beside.clone());
                        } else {
                            named.insert(key, item);
                        }
                    }
                    *map = named;
                    return;
                }
                map.values_mut().for_each(|item| self.name_references(item));
            }
            Value::Array(items) => items.iter_mut().for_each(|item| self.name_references(item)),
            _ => {}
        }
    }

    /// Whether some reference of `schema` has keys beside its `$ref` (annotations or `#[arg]`
    /// keys), which the docs then explain.
    fn annotated(&self, schema: &Schema) -> bool {
        match &schema.kind {
            SchemaKind::Ref(name) => {
                let annotations = &schema.annotations;
                annotations.title.is_some()
                    || annotations.description.is_some()
                    || annotations.default.is_some()
                    || !annotations.examples.is_empty()
                    || name
                        .strip_prefix('\u{0}')
                        .and_then(|index| index.parse::<usize>().ok())
                        .and_then(|index| self.references.get(index))
                        .is_some_and(|reference| !reference.beside.is_empty())
            }
            SchemaKind::Array(rules) => rules
                .items
                .as_deref()
                .is_some_and(|items| self.annotated(items)),
            SchemaKind::Object(rules) => {
                rules
                    .properties
                    .iter()
                    .any(|property| self.annotated(&property.schema))
                    || matches!(&rules.additional, AdditionalProperties::Schema(values) if self.annotated(values))
            }
            SchemaKind::OneOf(branches) => branches.iter().any(|branch| self.annotated(branch)),
            _ => false,
        }
    }

    /// A reference to `ty`, a type whose schema is on its own page.
    fn reference(&mut self, ty: &Type, link: Link) -> Schema {
        let index = self.references.len();
        self.references.push(Reference {
            name: type_name(ty),
            link,
            beside: Map::new(),
        });
        Schema::reference(marker(index))
    }

    /// The reference's entry, when `schema` is one this builder made.
    fn reference_of(&mut self, schema: &Schema) -> Option<&mut Reference> {
        let SchemaKind::Ref(name) = &schema.kind else {
            return None;
        };
        let index = name.strip_prefix('\u{0}')?.parse::<usize>().ok()?;
        self.references.get_mut(index)
    }

    /// The schema of a derived type: `ToolArgs::schema()`'s steps.
    fn args_type(&mut self, args: &ArgsType) -> Schema {
        let schema = match &args.shape {
            Shape::Enum {
                variants,
                tagging: Tagging::External,
            } if variants
                .iter()
                .all(|variant| matches!(variant.payload, Payload::Unit)) =>
            {
                // Plain strings: one `enum`; each variant's doc is listed after the type's own.
                let names: Vec<&str> = variants
                    .iter()
                    .map(|variant| variant.name.as_str())
                    .collect();
                let schema = derive::string_enum(
                    &names,
                    args.description.as_deref(),
                    &variant_notes(variants),
                );
                return match &args.title {
                    Some(title) => derive::titled(schema, title),
                    None => schema,
                };
            }
            Shape::Struct(fields) => self.object(fields, args.open, None),
            Shape::Newtype {
                field: Some(field), ..
            } => self.property(field),
            Shape::Newtype { ty, .. } => self.of_type(ty),
            Shape::Unit => derive::null_schema(),
            Shape::Enum { variants, tagging } => self.enumeration(variants, tagging, args.open),
        };
        let schema = match &args.description {
            Some(description) => derive::describe(schema, description),
            None => schema,
        };
        match &args.title {
            Some(title) => derive::titled(schema, title),
            None => schema,
        }
    }

    /// An object of `fields` (skipped ones left out); `tag` puts `{tag: const name}` first.
    fn object(&mut self, fields: &[Field], open: bool, tag: Option<(&str, &str)>) -> Schema {
        let mut properties = Vec::with_capacity(fields.len() + usize::from(tag.is_some()));
        if let Some((tag, name)) = tag {
            properties.push(Property::required(tag, derive::const_string(name)));
        }
        for field in fields.iter().filter(|field| !field.skip) {
            let schema = self.property(field);
            properties.push(Property {
                name: field.key.clone(),
                schema,
                required: is_required(field),
            });
        }
        derive::object(properties, open)
    }

    /// A field's schema: its type's, then every `#[arg]` key, in the order the generated code
    /// applies them. A step the runtime would refuse (the registration then fails) is left out.
    fn property(&mut self, field: &Field) -> Schema {
        let attrs = &field.attrs;
        let schema = match &attrs.schemars {
            Some(_) => schemars_type(&field.ty)
                .unwrap_or_else(|| self.reference(&field.ty, Link::Schemars)),
            None => self.of_type(&field.ty),
        };
        let mut schema = match self.reference_of(&schema) {
            Some(reference) => {
                reference.beside = keys_beside(attrs, schema.nullable);
                schema
            }
            None => constrained(schema, attrs),
        };
        if let Some(description) = &field.description {
            schema = derive::describe(schema, description);
        }
        if let Some(title) = &attrs.title {
            schema = derive::titled(schema, &title.value());
        }
        if let Some(DefaultSpec::Literal(default)) = &field.default {
            schema = derive::with_default(schema, default.value.to_value());
        }
        if !attrs.examples.is_empty() {
            let examples = attrs
                .examples
                .iter()
                .map(|example| example.value.to_value())
                .collect();
            schema = derive::with_examples(schema, examples);
        }
        schema
    }

    /// The schema of a type from its tokens (the rules of the runtime's `ToolArgs` impls for the
    /// standard types); a reference for any other type.
    fn of_type(&mut self, ty: &Type) -> Schema {
        let ty = peel(ty);
        match ty {
            Type::Tuple(tuple) if tuple.elems.is_empty() => return derive::null_schema(),
            Type::Array(array) => {
                let count = match &array.len {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(int),
                        ..
                    }) => int.base10_parse::<u64>().ok(),
                    _ => None,
                };
                return match count {
                    Some(count) => {
                        derive::array_of(self.of_type(&array.elem), Some(count), Some(count))
                    }
                    None => self.reference(ty, link_of(ty)),
                };
            }
            _ => {}
        }
        let Some((ident, args)) = last_segment(ty) else {
            return self.reference(ty, link_of(ty));
        };
        let integer =
            |min: i128, max: i128| derive::integer_of_type(number_of(min), number_of(max));
        match (ident.to_string().as_str(), args.as_slice()) {
            ("String" | "PathBuf", []) | ("Cow", [_]) => Schema::string().build(),
            ("char", []) => derive::single_character(),
            ("bool", []) => Schema::boolean(),
            ("i8", []) => integer(i8::MIN.into(), i8::MAX.into()),
            ("i16", []) => integer(i16::MIN.into(), i16::MAX.into()),
            ("i32", []) => integer(i32::MIN.into(), i32::MAX.into()),
            ("i64" | "isize", []) => integer(i64::MIN.into(), i64::MAX.into()),
            ("u8", []) => integer(0, u8::MAX.into()),
            ("u16", []) => integer(0, u16::MAX.into()),
            ("u32", []) => integer(0, u32::MAX.into()),
            ("u64" | "usize", []) => integer(0, u64::MAX.into()),
            // JSON numbers carry at most 64-bit integers.
            ("i128", []) => integer(i64::MIN.into(), u64::MAX.into()),
            ("u128", []) => integer(0, u64::MAX.into()),
            ("f64", []) => Schema::number().build(),
            ("f32", []) => derive::number_of_type(f64::from(f32::MAX)),
            ("Value", []) => Schema::any(),
            ("Map", [key, value]) if is_named(key, "String") && is_named(value, "Value") => {
                derive::any_object()
            }
            // `Patch` (`dsh_tools::fields::Patch`) has `Option`'s schema.
            ("Option" | "Patch", [inner]) => {
                let mut schema = self.of_type(inner);
                schema.nullable = true;
                schema
            }
            ("Box", [inner]) if matches!(peel(inner), Type::Slice(_)) => match peel(inner) {
                Type::Slice(slice) => derive::array_of(self.of_type(&slice.elem), None, None),
                _ => self.reference(ty, link_of(ty)),
            },
            ("Box" | "Arc" | "Rc", [inner]) => self.of_type(inner),
            ("Vec" | "VecDeque", [item, ..]) => derive::array_of(self.of_type(item), None, None),
            ("HashSet" | "BTreeSet", [item, ..]) => derive::set_of(self.of_type(item)),
            ("HashMap" | "BTreeMap", [key, value, ..]) if is_named(key, "String") => {
                derive::map_of(self.of_type(value))
            }
            _ => self.reference(ty, link_of(ty)),
        }
    }

    /// An enum with data: `oneOf` of its variants in serde's representation of `tagging`.
    fn enumeration(&mut self, variants: &[Variant], tagging: &Tagging, open: bool) -> Schema {
        let mut branches = Vec::new();
        let units: Vec<&Variant> = variants
            .iter()
            .filter(|variant| matches!(variant.payload, Payload::Unit))
            .collect();
        if matches!(tagging, Tagging::External) && !units.is_empty() {
            let names: Vec<&str> = units.iter().map(|variant| variant.name.as_str()).collect();
            branches.push(derive::string_enum(
                &names,
                None,
                &variant_notes(units.iter().copied()),
            ));
        }
        for variant in variants {
            let name = variant.name.as_str();
            let single = |key: &str, schema: Schema| {
                derive::object(vec![Property::required(key, schema)], false)
            };
            let branch = match (tagging, &variant.payload) {
                (Tagging::External, Payload::Unit) => continue,
                (Tagging::External, Payload::Newtype(ty)) => {
                    let payload = self.of_type(ty);
                    single(name, payload)
                }
                (Tagging::External, Payload::Struct(fields)) => {
                    let payload = self.object(fields, open, None);
                    single(name, payload)
                }
                (Tagging::Internal { tag }, Payload::Unit) => {
                    self.object(&[], open, Some((tag, name)))
                }
                (Tagging::Internal { tag }, Payload::Struct(fields)) => {
                    self.object(fields, open, Some((tag, name)))
                }
                // The payload's own properties sit beside the tag, on its page.
                (Tagging::Internal { .. }, Payload::Newtype(ty)) => self.of_type(ty),
                (Tagging::Adjacent { tag, .. }, Payload::Unit) => {
                    self.object(&[], false, Some((tag, name)))
                }
                (Tagging::Adjacent { tag, content }, Payload::Newtype(ty)) => {
                    let payload = self.of_type(ty);
                    adjacent(tag, name, content, payload)
                }
                (Tagging::Adjacent { tag, content }, Payload::Struct(fields)) => {
                    let payload = self.object(fields, open, None);
                    adjacent(tag, name, content, payload)
                }
            };
            branches.push(match &variant.description {
                Some(description) => derive::describe(branch, description),
                None => branch,
            });
        }
        derive::one_of(branches)
    }
}

/// `{tag: const name, content: payload}`, closed: an adjacently tagged variant.
fn adjacent(tag: &str, name: &str, content: &str, payload: Schema) -> Schema {
    derive::object(
        vec![
            Property::required(tag, derive::const_string(name)),
            Property::required(content, payload),
        ],
        false,
    )
}

/// `schema` with a field's constraints applied by the runtime's steps, each left out if the
/// runtime would refuse it.
fn constrained(mut schema: Schema, attrs: &ArgAttrs) -> Schema {
    fn step<E>(schema: Schema, apply: impl FnOnce(Schema) -> Result<Schema, E>) -> Schema {
        apply(schema.clone()).unwrap_or(schema)
    }
    if let Some(values) = &attrs.enum_values {
        let members = values.value.iter().map(JsonLiteral::to_value).collect();
        schema = step(schema, |schema| derive::with_enum(schema, members));
    }
    if let Some(constant) = &attrs.constant {
        let value = constant.value.to_value();
        schema = step(schema, |schema| derive::with_const(schema, value));
    }
    // The value keywords, each through the step its row names (`keyword_table.rs`).
    for constraint in attrs.constraints_in_step_order() {
        schema = match (constraint.keyword().takes, &constraint.value) {
            (Takes::Number(apply) | Takes::Positive(apply), KeywordValue::Number(number)) => {
                match number.value.to_number() {
                    Some(number) => step(schema, |schema| apply(schema, number)),
                    None => schema,
                }
            }
            (Takes::Count(apply), KeywordValue::Count(count, _)) => {
                step(schema, |schema| apply(schema, *count))
            }
            (Takes::True(apply), KeywordValue::Flag(_)) => step(schema, apply),
            (Takes::Pattern(apply) | Takes::Text(apply), KeywordValue::Text(text)) => {
                step(schema, |schema| apply(schema, &text.value()))
            }
            // The attribute's reader gives each keyword the value its row takes.
            _ => schema,
        };
    }
    schema
}

/// The `#[arg]` keys of a field whose type's schema is on its own page, shown beside its `$ref`:
/// the values it allows (`null` among them for an `Option`) and its bounds.
fn keys_beside(attrs: &ArgAttrs, nullable: bool) -> Map<String, Value> {
    let mut keys = Map::new();
    let listed = |values: &[JsonLiteral]| {
        let mut members: Vec<Value> = values.iter().map(JsonLiteral::to_value).collect();
        if nullable {
            members.push(Value::Null);
        }
        Value::Array(members)
    };
    if let Some(values) = &attrs.enum_values {
        keys.insert(members::ENUM.to_owned(), listed(&values.value));
    }
    if let Some(constant) = &attrs.constant {
        if nullable {
            keys.insert(
                members::ENUM.to_owned(),
                listed(std::slice::from_ref(&constant.value)),
            );
        } else {
            keys.insert(members::CONST.to_owned(), constant.value.to_value());
        }
    }
    // The bounds, under the JSON names the engine renders them with (`keyword_table.rs` takes
    // them from `dsh_tools_schema::rules`); a text (`pattern`, `format`) stays on the type's
    // page.
    for constraint in &attrs.constraints {
        let value = match &constraint.value {
            KeywordValue::Number(number) => number.value.to_value(),
            KeywordValue::Count(count, _) => Value::from(*count),
            KeywordValue::Flag(_) => Value::Bool(true),
            KeywordValue::Text(_) => continue,
        };
        keys.insert(constraint.keyword().json.to_owned(), value);
    }
    keys
}

/// Whether the property is required: never with a default; always with `required`; otherwise
/// unless the type is an `Option`.
fn is_required(field: &Field) -> bool {
    field.default.is_none()
        && (field.attrs.required.is_some() || !crate::types::is_option(&field.ty))
}

/// `("name", "doc")` of the documented unit variants, for a string enum's description.
fn variant_notes<'a>(variants: impl IntoIterator<Item = &'a Variant>) -> Vec<(&'a str, &'a str)> {
    variants
        .into_iter()
        .filter_map(|variant| {
            variant
                .description
                .as_deref()
                .map(|description| (variant.name.as_str(), description))
        })
        .collect()
}

/// An integer bound as the runtime writes it (`Number::from` of the type's `MIN`/`MAX`).
fn number_of(value: i128) -> Number {
    match (i64::try_from(value), u64::try_from(value)) {
        (Ok(small), _) => Number::from(small),
        (_, Ok(unsigned)) => Number::from(unsigned),
        _ => Number::from(0),
    }
}

/// The schema `schemars` gives the types tool arguments most often bring through
/// `#[arg(schemars)]` (chrono's dates and times, `uuid::Uuid`, `url::Url`), by the type's last
/// path segment, `Option` around them included; `None` for any other type, which the docs then
/// name.
fn schemars_type(ty: &Type) -> Option<Schema> {
    let (ident, args) = last_segment(peel(ty))?;
    if ident == "Option" && args.len() == 1 {
        let mut schema = schemars_type(args[0])?;
        schema.nullable = true;
        return Some(schema);
    }
    let format = match ident.to_string().as_str() {
        "DateTime" => "date-time",
        "NaiveDate" => "date",
        "NaiveDateTime" => "partial-date-time",
        "NaiveTime" => "partial-time",
        "Uuid" => "uuid",
        "Url" => "uri",
        _ => return None,
    };
    derive::with_format(Schema::string().build(), format).ok()
}

fn is_named(ty: &Type, expected: &str) -> bool {
    last_segment(ty).is_some_and(|(ident, args)| ident == expected && args.is_empty())
}

/// How the docs point at `ty`: its page when it is a path.
fn link_of(ty: &Type) -> Link {
    if is_linkable(ty) {
        Link::Page
    } else {
        Link::Name
    }
}

/// How a type is written in the docs (its tokens without spaces: `Vec<Match>`).
fn type_name(ty: &Type) -> String {
    ty.to_token_stream().to_string().replace(' ', "")
}

/// A plain path, which an intra-doc link can point at.
fn is_linkable(ty: &Type) -> bool {
    matches!(peel(ty), Type::Path(path) if path.qself.is_none())
}

/// Markdown naming `ty`: an intra-doc link to its page when it is a path. The items carrying
/// these links allow `rustdoc::private_intra_doc_links`: a public type may have a field of a
/// private type, whose page exists only in docs with private items.
pub(crate) fn type_link(ty: &Type) -> String {
    if is_linkable(ty) {
        format!("[`{}`]", type_name(ty))
    } else {
        format!("`{}`", type_name(ty))
    }
}

/// `TokenStream` of a `#[doc = ".."]` attribute for each line of `text`, spanned on the user's
/// `span`: rustdoc checks the intra-doc links of docs written there (it skips docs that come from
/// another crate's macro), so a generated link that does not resolve fails `-Dwarnings`.
pub(crate) fn doc_attrs(text: &str, span: proc_macro2::Span) -> TokenStream {
    let lines = text.lines().map(|line| format!(" {line}"));
    quote::quote_spanned!(span=> #(#[doc = #lines])*)
}
