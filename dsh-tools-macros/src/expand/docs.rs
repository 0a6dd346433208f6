//! The JSON Schema shown in rustdoc, rendered at compile time.
//!
//! A proc macro cannot run the runtime's renderer, so this file mirrors its rules (key order,
//! nullable forms, integer bounds per type) for every type it recognizes from tokens. A type it
//! cannot see into (another `ToolArgs` type, a `schemars` type) is shown as `{"$ref": "Name"}`
//! and listed under the schema as an intra-doc link to its page, which shows its schema; the
//! model receives it inlined. A test renders the runtime schema of representative types and
//! compares it with what the docs show.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::Type;

use crate::ast::{ArgsType, Field, Payload, Shape, Tagging, Variant};
use crate::attr::arg::DefaultSpec;
use crate::literal::{JsonLiteral, format_float, json_string};
use crate::types::{last_segment, peel};

/// A schema node as far as the tokens tell.
#[derive(Clone)]
pub(crate) struct DocNode {
    kind: DocKind,
    nullable: bool,
    title: Option<String>,
    description: Option<String>,
    default: Option<String>,
    examples: Vec<String>,
}

#[derive(Clone)]
enum DocKind {
    String {
        min_length: Option<u64>,
        max_length: Option<u64>,
        pattern: Option<String>,
        format: Option<String>,
    },
    Number {
        integer: bool,
        minimum: Option<Bound>,
        maximum: Option<Bound>,
        exclusive_minimum: Option<Bound>,
        exclusive_maximum: Option<Bound>,
        multiple_of: Option<Bound>,
    },
    Boolean,
    Null,
    Array {
        items: Option<Box<DocNode>>,
        min_items: Option<u64>,
        max_items: Option<u64>,
        unique_items: bool,
    },
    Object {
        properties: Vec<(String, DocNode, Required)>,
        additional: Additional,
        min_properties: Option<u64>,
        max_properties: Option<u64>,
    },
    Any,
    Enum(Vec<JsonLiteral>),
    Const(JsonLiteral),
    OneOf(Vec<DocNode>),
    /// A type whose schema lives in its own docs; extra keys are shown beside the `$ref`.
    Ref {
        name: String,
        extra: Vec<(String, Extra)>,
        /// How the docs point at the type's page.
        link: Link,
    },
}

/// A key shown beside a `$ref`: a JSON scalar's text, or a list of them.
#[derive(Clone)]
enum Extra {
    Scalar(String),
    List(Vec<String>),
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

/// A numeric bound: its JSON text and its value for comparisons.
#[derive(Clone)]
struct Bound {
    text: String,
    value: f64,
}

impl Bound {
    fn integer(value: i128) -> Self {
        Self {
            text: value.to_string(),
            value: value as f64,
        }
    }

    fn from_literal(literal: &JsonLiteral) -> Option<Self> {
        match literal {
            JsonLiteral::Integer(value) => Some(Self::integer(*value)),
            JsonLiteral::Float(value) => Some(Self {
                text: format_float(*value),
                value: *value,
            }),
            _ => None,
        }
    }
}

/// Whether a property is required, when the tokens can tell.
#[derive(Clone, Copy, PartialEq)]
enum Required {
    Yes,
    No,
}

#[derive(Clone)]
enum Additional {
    Forbidden,
    Allowed,
    Schema(Box<DocNode>),
}

impl DocNode {
    fn new(kind: DocKind) -> Self {
        Self {
            kind,
            nullable: false,
            title: None,
            description: None,
            default: None,
            examples: Vec::new(),
        }
    }

    fn is_ref(&self) -> bool {
        matches!(self.kind, DocKind::Ref { .. })
    }
}

/// A number node with these inclusive bounds and no other rule.
fn number_node(integer: bool, minimum: Option<Bound>, maximum: Option<Bound>) -> DocNode {
    DocNode::new(DocKind::Number {
        integer,
        minimum,
        maximum,
        exclusive_minimum: None,
        exclusive_maximum: None,
        multiple_of: None,
    })
}

/// An object node with no bound on its number of keys.
fn object_node(properties: Vec<(String, DocNode, Required)>, additional: Additional) -> DocNode {
    DocNode::new(DocKind::Object {
        properties,
        additional,
        min_properties: None,
        max_properties: None,
    })
}

/// The documented schema of a derived type.
pub(crate) fn document_type(args: &ArgsType) -> DocNode {
    let mut node = match &args.shape {
        Shape::Struct(fields) => object(fields, args.open, None),
        Shape::Newtype { ty, .. } => of_type(ty),
        Shape::Unit => DocNode::new(DocKind::Null),
        Shape::Enum { variants, tagging } => {
            enumeration(variants, tagging, args.open, args.description.as_deref())
        }
    };
    let is_plain_string_enum = matches!(&args.shape, Shape::Enum { variants, tagging: Tagging::External }
        if variants.iter().all(|variant| matches!(variant.payload, Payload::Unit)));
    if !is_plain_string_enum && let Some(description) = &args.description {
        node.description = Some(description.clone());
    }
    if let Some(title) = &args.title {
        node.title = Some(title.clone());
    }
    node
}

/// The documented schema of an object with `fields`.
pub(crate) fn object(fields: &[Field], open: bool, tag: Option<(&str, &str)>) -> DocNode {
    let mut properties = Vec::new();
    if let Some((tag, name)) = tag {
        properties.push((
            tag.to_owned(),
            DocNode::new(DocKind::Const(JsonLiteral::String(name.to_owned()))),
            Required::Yes,
        ));
    }
    for field in fields.iter().filter(|field| !field.skip) {
        properties.push((field.key.clone(), property(field), required(field)));
    }
    object_node(
        properties,
        if open {
            Additional::Allowed
        } else {
            Additional::Forbidden
        },
    )
}

fn required(field: &Field) -> Required {
    if field.default.is_some() {
        Required::No
    } else if field.attrs.required.is_some() || !crate::types::is_option(&field.ty) {
        Required::Yes
    } else {
        Required::No
    }
}

fn property(field: &Field) -> DocNode {
    let attrs = &field.attrs;
    let mut node = if attrs.schemars.is_some() {
        schemars_type(&field.ty).unwrap_or_else(|| {
            let mut node = reference(&field.ty);
            if let DocKind::Ref { link, .. } = &mut node.kind {
                *link = Link::Schemars;
            }
            node
        })
    } else {
        of_type(&field.ty)
    };
    if node.is_ref() {
        // The type's own values (and the notes on them) live on its page; the ones this field
        // allows are shown beside the `$ref`, as the runtime renders them (`null` included for an
        // `Option`).
        let nullable = node.nullable;
        let listed = |values: &[JsonLiteral]| {
            let mut members: Vec<String> = values.iter().map(JsonLiteral::to_json).collect();
            if nullable {
                members.push("null".to_owned());
            }
            Extra::List(members)
        };
        if let DocKind::Ref { extra, .. } = &mut node.kind {
            if let Some(values) = &attrs.enum_values {
                extra.push(("enum".to_owned(), listed(&values.value)));
            }
            if let Some(constant) = &attrs.constant {
                extra.push(match nullable {
                    true => (
                        "enum".to_owned(),
                        listed(std::slice::from_ref(&constant.value)),
                    ),
                    false => ("const".to_owned(), Extra::Scalar(constant.value.to_json())),
                });
            }
        }
    } else {
        if let Some(values) = &attrs.enum_values {
            node = retype(node, DocKind::Enum(values.value.clone()));
        }
        if let Some(constant) = &attrs.constant {
            node = retype(node, DocKind::Const(constant.value.clone()));
        }
    }
    let extra_on_ref = node.is_ref();
    match &mut node.kind {
        DocKind::Number {
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
            ..
        } => {
            if let Some(bound) = attrs
                .minimum
                .as_ref()
                .and_then(|spanned| Bound::from_literal(&spanned.value))
                && minimum
                    .as_ref()
                    .is_none_or(|current| bound.value > current.value)
            {
                *minimum = Some(bound);
            }
            if let Some(bound) = attrs
                .maximum
                .as_ref()
                .and_then(|spanned| Bound::from_literal(&spanned.value))
                && maximum
                    .as_ref()
                    .is_none_or(|current| bound.value < current.value)
            {
                *maximum = Some(bound);
            }
            for (slot, attr) in [
                (exclusive_minimum, &attrs.exclusive_minimum),
                (exclusive_maximum, &attrs.exclusive_maximum),
                (multiple_of, &attrs.multiple_of),
            ] {
                if let Some(bound) = attr
                    .as_ref()
                    .and_then(|spanned| Bound::from_literal(&spanned.value))
                {
                    *slot = Some(bound);
                }
            }
        }
        DocKind::String {
            min_length,
            max_length,
            pattern,
            format,
        } => {
            if let Some(text) = &attrs.format {
                *format = Some(text.value());
            }
            if let Some((value, _)) = attrs.min_length {
                *min_length = Some(value);
            }
            if let Some((value, _)) = attrs.max_length {
                *max_length = Some(value);
            }
            if let Some(text) = &attrs.pattern {
                *pattern = Some(text.value());
            }
        }
        DocKind::Array {
            min_items,
            max_items,
            unique_items,
            ..
        } => {
            if let Some((value, _)) = attrs.min_items {
                *min_items = Some(value);
            }
            if let Some((value, _)) = attrs.max_items {
                *max_items = Some(value);
            }
            *unique_items |= attrs.unique_items.is_some();
        }
        DocKind::Object {
            min_properties,
            max_properties,
            ..
        } => {
            if let Some((value, _)) = attrs.min_properties {
                *min_properties = Some(value);
            }
            if let Some((value, _)) = attrs.max_properties {
                *max_properties = Some(value);
            }
        }
        DocKind::Ref { extra, .. } if extra_on_ref => {
            let bounds = [
                (
                    "minimum",
                    attrs
                        .minimum
                        .as_ref()
                        .map(|spanned| spanned.value.to_json()),
                ),
                (
                    "maximum",
                    attrs
                        .maximum
                        .as_ref()
                        .map(|spanned| spanned.value.to_json()),
                ),
                (
                    "exclusiveMinimum",
                    attrs
                        .exclusive_minimum
                        .as_ref()
                        .map(|spanned| spanned.value.to_json()),
                ),
                (
                    "exclusiveMaximum",
                    attrs
                        .exclusive_maximum
                        .as_ref()
                        .map(|spanned| spanned.value.to_json()),
                ),
                (
                    "multipleOf",
                    attrs
                        .multiple_of
                        .as_ref()
                        .map(|spanned| spanned.value.to_json()),
                ),
                (
                    "minLength",
                    attrs.min_length.map(|(value, _)| value.to_string()),
                ),
                (
                    "maxLength",
                    attrs.max_length.map(|(value, _)| value.to_string()),
                ),
                (
                    "minItems",
                    attrs.min_items.map(|(value, _)| value.to_string()),
                ),
                (
                    "maxItems",
                    attrs.max_items.map(|(value, _)| value.to_string()),
                ),
                (
                    "uniqueItems",
                    attrs.unique_items.as_ref().map(|_| "true".to_owned()),
                ),
                (
                    "minProperties",
                    attrs.min_properties.map(|(value, _)| value.to_string()),
                ),
                (
                    "maxProperties",
                    attrs.max_properties.map(|(value, _)| value.to_string()),
                ),
            ];
            extra.extend(bounds.into_iter().filter_map(|(key, value)| {
                value.map(|value| (key.to_owned(), Extra::Scalar(value)))
            }));
        }
        _ => {}
    }
    if let Some(description) = &field.description {
        node.description = Some(description.clone());
    }
    if let Some(title) = &attrs.title {
        node.title = Some(title.value());
    }
    if let Some(DefaultSpec::Literal(default)) = &field.default {
        node.default = Some(default.value.to_json());
    }
    node.examples = attrs
        .examples
        .iter()
        .map(|example| example.value.to_json())
        .collect();
    node
}

/// Replaces the kind, keeping nullability and annotations (what `with_enum`/`with_const` do).
fn retype(mut node: DocNode, kind: DocKind) -> DocNode {
    node.kind = kind;
    node
}

/// The schema `schemars` gives the types tool arguments most often bring through
/// `#[arg(schemars)]` (chrono's dates and times, `uuid::Uuid`, `url::Url`), by the type's last
/// path segment, `Option` around them included; `None` for any other type, which the docs then
/// name.
fn schemars_type(ty: &Type) -> Option<DocNode> {
    let (ident, args) = last_segment(peel(ty))?;
    if ident == "Option" && args.len() == 1 {
        let mut node = schemars_type(args[0])?;
        node.nullable = true;
        return Some(node);
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
    Some(DocNode::new(DocKind::String {
        min_length: None,
        max_length: None,
        pattern: None,
        format: Some(format.to_owned()),
    }))
}

fn reference(ty: &Type) -> DocNode {
    let link = if is_linkable(ty) {
        Link::Page
    } else {
        Link::Name
    };
    DocNode::new(DocKind::Ref {
        name: type_name(ty),
        extra: Vec::new(),
        link,
    })
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

/// The schema of a type from its tokens (the rules of the runtime's `ToolArgs` impls).
pub(crate) fn of_type(ty: &Type) -> DocNode {
    let ty = peel(ty);
    match ty {
        Type::Tuple(tuple) if tuple.elems.is_empty() => return DocNode::new(DocKind::Null),
        Type::Array(array) => {
            let count = match &array.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(int),
                    ..
                }) => int.base10_parse::<u64>().ok(),
                _ => None,
            };
            if let Some(count) = count {
                return array_of(&array.elem, Some(count), Some(count));
            }
            return reference(ty);
        }
        _ => {}
    }
    let Some((ident, args)) = last_segment(ty) else {
        return reference(ty);
    };
    let name = ident.to_string();
    // A type's own bounds are published only within ±(2^53 - 1), as the runtime renders them.
    let safe = |bound: i128| (bound.unsigned_abs() < 1 << 53).then(|| Bound::integer(bound));
    let integer = |min: i128, max: i128| number_node(true, safe(min), safe(max));
    match (name.as_str(), args.as_slice()) {
        ("String" | "PathBuf", []) | ("Cow", [_]) => string(None, None),
        ("char", []) => string(Some(1), Some(1)),
        ("bool", []) => DocNode::new(DocKind::Boolean),
        ("i8", []) => integer(i8::MIN.into(), i8::MAX.into()),
        ("i16", []) => integer(i16::MIN.into(), i16::MAX.into()),
        ("i32", []) => integer(i32::MIN.into(), i32::MAX.into()),
        ("i64" | "isize", []) => integer(i64::MIN.into(), i64::MAX.into()),
        ("u8", []) => integer(0, u8::MAX.into()),
        ("u16", []) => integer(0, u16::MAX.into()),
        ("u32", []) => integer(0, u32::MAX.into()),
        ("u64" | "usize", []) => integer(0, u64::MAX.into()),
        ("i128", []) => integer(i64::MIN.into(), u64::MAX.into()),
        ("u128", []) => integer(0, u64::MAX.into()),
        ("f64", []) => number_node(false, None, None),
        // `f32`'s own bounds lie beyond ±(2^53 - 1): enforced, not published.
        ("f32", []) => number_node(false, None, None),
        ("Value", []) => DocNode::new(DocKind::Any),
        ("Map", [key, value]) if is_named(key, "String") && is_named(value, "Value") => {
            object_node(Vec::new(), Additional::Allowed)
        }
        ("Option", [inner]) => {
            let mut node = of_type(inner);
            node.nullable = true;
            node
        }
        ("Box", [inner]) if matches!(peel(inner), Type::Slice(_)) => {
            let Type::Slice(slice) = peel(inner) else {
                return reference(ty);
            };
            array_of(&slice.elem, None, None)
        }
        ("Box" | "Arc" | "Rc", [inner]) => of_type(inner),
        ("Vec" | "VecDeque", [item, ..]) => array_of(item, None, None),
        // A set's items are distinct (`uniqueItems`), as the runtime's schema says.
        ("HashSet" | "BTreeSet", [item, ..]) => {
            let mut node = array_of(item, None, None);
            if let DocKind::Array { unique_items, .. } = &mut node.kind {
                *unique_items = true;
            }
            node
        }
        ("HashMap" | "BTreeMap", [key, value, ..]) if is_named(key, "String") => {
            object_node(Vec::new(), Additional::Schema(Box::new(of_type(value))))
        }
        _ => reference(ty),
    }
}

fn is_named(ty: &Type, expected: &str) -> bool {
    last_segment(ty).is_some_and(|(ident, args)| ident == expected && args.is_empty())
}

fn string(min_length: Option<u64>, max_length: Option<u64>) -> DocNode {
    DocNode::new(DocKind::String {
        min_length,
        max_length,
        pattern: None,
        format: None,
    })
}

fn array_of(item: &Type, min_items: Option<u64>, max_items: Option<u64>) -> DocNode {
    DocNode::new(DocKind::Array {
        items: Some(Box::new(of_type(item))),
        min_items,
        max_items,
        unique_items: false,
    })
}

/// The documented schema of an enum (see the runtime's enum representation).
fn enumeration(
    variants: &[Variant],
    tagging: &Tagging,
    open: bool,
    description: Option<&str>,
) -> DocNode {
    let units: Vec<&Variant> = variants
        .iter()
        .filter(|variant| matches!(variant.payload, Payload::Unit))
        .collect();
    let string_enum = |units: &[&Variant], description: Option<&str>| {
        let mut node = DocNode::new(DocKind::Enum(
            units
                .iter()
                .map(|variant| JsonLiteral::String(variant.name.clone()))
                .collect(),
        ));
        node.description = enum_description(description, units);
        node
    };
    if units.len() == variants.len() && matches!(tagging, Tagging::External) {
        return string_enum(&units, description);
    }
    let mut branches = Vec::new();
    if matches!(tagging, Tagging::External) && !units.is_empty() {
        branches.push(string_enum(&units, None));
    }
    for variant in variants {
        let name = variant.name.as_str();
        let single = |key: &str, node: DocNode| {
            object_node(
                vec![(key.to_owned(), node, Required::Yes)],
                Additional::Forbidden,
            )
        };
        let tag_const = || DocNode::new(DocKind::Const(JsonLiteral::String(name.to_owned())));
        let mut branch = match (tagging, &variant.payload) {
            (Tagging::External, Payload::Unit) => continue,
            (Tagging::External, Payload::Newtype(ty)) => single(name, of_type(ty)),
            (Tagging::External, Payload::Struct(fields)) => {
                single(name, object(fields, open, None))
            }
            (Tagging::Internal { tag }, Payload::Unit) => object(&[], open, Some((tag, name))),
            (Tagging::Internal { tag }, Payload::Struct(fields)) => {
                object(fields, open, Some((tag, name)))
            }
            (Tagging::Internal { .. }, Payload::Newtype(ty)) => reference(ty),
            (Tagging::Adjacent { tag, .. }, Payload::Unit) => object(&[], false, Some((tag, name))),
            (Tagging::Adjacent { tag, content }, Payload::Newtype(ty)) => object_node(
                vec![
                    (tag.clone(), tag_const(), Required::Yes),
                    (content.clone(), of_type(ty), Required::Yes),
                ],
                Additional::Forbidden,
            ),
            (Tagging::Adjacent { tag, content }, Payload::Struct(fields)) => object_node(
                vec![
                    (tag.clone(), tag_const(), Required::Yes),
                    (content.clone(), object(fields, open, None), Required::Yes),
                ],
                Additional::Forbidden,
            ),
        };
        if let Some(description) = &variant.description {
            branch.description = Some(description.clone());
        }
        branches.push(branch);
    }
    if branches.len() == 1 {
        branches.remove(0)
    } else {
        DocNode::new(DocKind::OneOf(branches))
    }
}

/// The description of a string enum: the type's own text, then one line per documented value.
/// Mirrors the runtime's `string_enum`.
pub(crate) fn enum_description(description: Option<&str>, units: &[&Variant]) -> Option<String> {
    let notes: Vec<String> = units
        .iter()
        .filter_map(|variant| {
            variant
                .description
                .as_ref()
                .map(|text| format!("- `{}`: {text}", variant.name))
        })
        .collect();
    match (description, notes.is_empty()) {
        (None, true) => None,
        (Some(text), true) => Some(text.to_owned()),
        (None, false) => Some(notes.join("\n")),
        (Some(text), false) => Some(format!("{text}\n\n{}", notes.join("\n"))),
    }
}

/// JSON text, pretty-printed the way `serde_json::to_string_pretty` does.
pub(crate) fn render(node: &DocNode) -> String {
    let mut out = String::new();
    write_value(&to_json(node), 0, &mut out);
    out
}

/// A JSON value with keys in insertion order; scalars are kept as their JSON text.
enum Json {
    Object(Vec<(String, Json)>),
    Array(Vec<Json>),
    Raw(String),
}

fn raw(text: impl Into<String>) -> Json {
    Json::Raw(text.into())
}

fn to_json(node: &DocNode) -> Json {
    let mut out: Vec<(String, Json)> = Vec::new();
    if let Some(title) = &node.title {
        out.push(("title".into(), raw(json_string(title))));
    }
    if let Some(description) = &node.description {
        out.push(("description".into(), raw(json_string(description))));
    }
    let type_of = |name: &str, nullable: bool| {
        if nullable && name != "null" {
            Json::Array(vec![raw(json_string(name)), raw("\"null\"")])
        } else {
            raw(json_string(name))
        }
    };
    let nullable = node.nullable;
    match &node.kind {
        DocKind::String {
            min_length,
            max_length,
            pattern,
            format,
        } => {
            out.push(("type".into(), type_of("string", nullable)));
            if let Some(value) = min_length {
                out.push(("minLength".into(), raw(value.to_string())));
            }
            if let Some(value) = max_length {
                out.push(("maxLength".into(), raw(value.to_string())));
            }
            if let Some(pattern) = pattern {
                out.push(("pattern".into(), raw(json_string(pattern))));
            }
            if let Some(format) = format {
                out.push(("format".into(), raw(json_string(format))));
            }
        }
        DocKind::Number {
            integer,
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
        } => {
            out.push((
                "type".into(),
                type_of(if *integer { "integer" } else { "number" }, nullable),
            ));
            for (key, bound) in [
                ("minimum", minimum),
                ("maximum", maximum),
                ("exclusiveMinimum", exclusive_minimum),
                ("exclusiveMaximum", exclusive_maximum),
                ("multipleOf", multiple_of),
            ] {
                if let Some(bound) = bound {
                    out.push((key.into(), raw(bound.text.clone())));
                }
            }
        }
        DocKind::Boolean => out.push(("type".into(), type_of("boolean", nullable))),
        DocKind::Null => out.push(("type".into(), raw("\"null\""))),
        DocKind::Array {
            items,
            min_items,
            max_items,
            unique_items,
        } => {
            out.push(("type".into(), type_of("array", nullable)));
            if let Some(items) = items {
                out.push(("items".into(), to_json(items)));
            }
            if let Some(value) = min_items {
                out.push(("minItems".into(), raw(value.to_string())));
            }
            if let Some(value) = max_items {
                out.push(("maxItems".into(), raw(value.to_string())));
            }
            if *unique_items {
                out.push(("uniqueItems".into(), raw("true")));
            }
        }
        DocKind::Object {
            properties,
            additional,
            min_properties,
            max_properties,
        } => {
            out.push(("type".into(), type_of("object", nullable)));
            let is_map = matches!(additional, Additional::Schema(_));
            if !properties.is_empty() || !is_map {
                out.push((
                    "properties".into(),
                    Json::Object(
                        properties
                            .iter()
                            .map(|(key, node, _)| (key.clone(), to_json(node)))
                            .collect(),
                    ),
                ));
            }
            let required: Vec<Json> = properties
                .iter()
                .filter(|(_, _, required)| *required == Required::Yes)
                .map(|(key, _, _)| raw(json_string(key)))
                .collect();
            if !required.is_empty() {
                out.push(("required".into(), Json::Array(required)));
            }
            let additional = match additional {
                Additional::Forbidden => raw("false"),
                Additional::Allowed => raw("true"),
                Additional::Schema(node) => to_json(node),
            };
            out.push(("additionalProperties".into(), additional));
            if let Some(value) = min_properties {
                out.push(("minProperties".into(), raw(value.to_string())));
            }
            if let Some(value) = max_properties {
                out.push(("maxProperties".into(), raw(value.to_string())));
            }
        }
        DocKind::Any => {}
        DocKind::Enum(members) => {
            if let Some(name) = common_type(members) {
                out.push(("type".into(), type_of(name, nullable)));
            }
            let mut members: Vec<Json> =
                members.iter().map(|member| raw(member.to_json())).collect();
            if nullable && !node_has_null(&node.kind) {
                members.push(raw("null"));
            }
            out.push(("enum".into(), Json::Array(members)));
        }
        DocKind::Const(constant) => {
            if let Some(name) = common_type(std::slice::from_ref(constant)) {
                out.push(("type".into(), type_of(name, nullable)));
            }
            if nullable && *constant != JsonLiteral::Null {
                out.push((
                    "enum".into(),
                    Json::Array(vec![raw(constant.to_json()), raw("null")]),
                ));
            } else {
                out.push(("const".into(), raw(constant.to_json())));
            }
        }
        DocKind::OneOf(branches) => {
            let mut rendered: Vec<Json> = branches.iter().map(to_json).collect();
            if nullable {
                rendered.push(Json::Object(vec![("type".into(), raw("\"null\""))]));
            }
            out.push(("oneOf".into(), Json::Array(rendered)));
        }
        DocKind::Ref { name, extra, .. } => {
            let mut reference = vec![("$ref".to_owned(), raw(json_string(name)))];
            reference.extend(extra.iter().map(|(key, value)| {
                let value = match value {
                    Extra::Scalar(text) => raw(text.clone()),
                    Extra::List(items) => {
                        Json::Array(items.iter().map(|item| raw(item.clone())).collect())
                    }
                };
                (key.clone(), value)
            }));
            if nullable {
                out.push((
                    "anyOf".into(),
                    Json::Array(vec![
                        Json::Object(reference),
                        Json::Object(vec![("type".into(), raw("\"null\""))]),
                    ]),
                ));
            } else {
                out.extend(reference);
            }
        }
    }
    if let Some(default) = &node.default {
        out.push(("default".into(), raw(default.clone())));
    }
    if !node.examples.is_empty() {
        out.push((
            "examples".into(),
            Json::Array(
                node.examples
                    .iter()
                    .map(|example| raw(example.clone()))
                    .collect(),
            ),
        ));
    }
    Json::Object(out)
}

fn node_has_null(kind: &DocKind) -> bool {
    matches!(kind, DocKind::Enum(members) if members.contains(&JsonLiteral::Null))
}

/// The JSON type all `members` share (`integer` when every number is integral).
fn common_type(members: &[JsonLiteral]) -> Option<&'static str> {
    let kind = |member: &JsonLiteral| match member {
        JsonLiteral::String(_) => "string",
        JsonLiteral::Integer(_) => "integer",
        JsonLiteral::Float(value) if value.fract() == 0.0 => "integer",
        JsonLiteral::Float(_) => "number",
        JsonLiteral::Bool(_) => "boolean",
        JsonLiteral::Null => "null",
        JsonLiteral::Array(_) => "array",
    };
    let first = kind(members.first()?);
    let numeric = |name: &str| name == "integer" || name == "number";
    if numeric(first) && members.iter().all(|member| numeric(kind(member))) {
        return Some(if members.iter().all(|member| kind(member) == "integer") {
            "integer"
        } else {
            "number"
        });
    }
    members
        .iter()
        .all(|member| kind(member) == first)
        .then_some(first)
}

fn write_value(value: &Json, indent: usize, out: &mut String) {
    match value {
        Json::Raw(text) => out.push_str(text),
        Json::Array(items) if items.is_empty() => out.push_str("[]"),
        Json::Object(entries) if entries.is_empty() => out.push_str("{}"),
        Json::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                out.push_str(if index == 0 { "\n" } else { ",\n" });
                push_indent(indent + 1, out);
                write_value(item, indent + 1, out);
            }
            out.push('\n');
            push_indent(indent, out);
            out.push(']');
        }
        Json::Object(entries) => {
            out.push('{');
            for (index, (key, item)) in entries.iter().enumerate() {
                out.push_str(if index == 0 { "\n" } else { ",\n" });
                push_indent(indent + 1, out);
                out.push_str(&json_string(key));
                out.push_str(": ");
                write_value(item, indent + 1, out);
            }
            out.push('\n');
            push_indent(indent, out);
            out.push('}');
        }
    }
}

fn push_indent(level: usize, out: &mut String) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

/// A documented schema: its JSON text, and the types it names by `$ref`.
pub(crate) struct Documented {
    /// The JSON text (what `DocumentedSchema` holds).
    pub(crate) json: String,
    references: Vec<(String, Link)>,
    /// Whether some `$ref` has keys beside it.
    annotated_reference: bool,
}

impl Documented {
    pub(crate) fn of(node: &DocNode) -> Self {
        let mut documented = Self {
            json: render(node),
            references: Vec::new(),
            annotated_reference: false,
        };
        documented.collect_references(node);
        documented
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

    fn collect_references(&mut self, node: &DocNode) {
        match &node.kind {
            DocKind::Ref { name, link, extra } => {
                if !self.references.iter().any(|(known, _)| known == name) {
                    self.references.push((name.clone(), *link));
                }
                self.annotated_reference |= node.description.is_some()
                    || node.title.is_some()
                    || node.default.is_some()
                    || !node.examples.is_empty()
                    || !extra.is_empty();
            }
            DocKind::Array {
                items: Some(items), ..
            } => self.collect_references(items),
            DocKind::Object {
                properties,
                additional,
                ..
            } => {
                for (_, property, _) in properties {
                    self.collect_references(property);
                }
                if let Additional::Schema(value) = additional {
                    self.collect_references(value);
                }
            }
            DocKind::OneOf(branches) => {
                for branch in branches {
                    self.collect_references(branch);
                }
            }
            _ => {}
        }
    }
}

/// `TokenStream` of a `#[doc = ".."]` attribute for each line of `text`, spanned on the user's
/// `span`: rustdoc checks the intra-doc links of docs written there (it skips docs that come from
/// another crate's macro), so a generated link that does not resolve fails `-Dwarnings`.
pub(crate) fn doc_attrs(text: &str, span: proc_macro2::Span) -> TokenStream {
    let lines = text.lines().map(|line| format!(" {line}"));
    quote::quote_spanned!(span=> #(#[doc = #lines])*)
}
