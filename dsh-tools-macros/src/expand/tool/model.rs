//! What every emitter of a `#[tool]` works from: the names of the generated items, the
//! description, the argument fields and their documented schema, and how the return type is
//! read. Built once, with the rules about the tool's identity checked on the way.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Ident, ItemFn, Type};

use super::signature::{Param, ToolItem};
use crate::ast::{ArgsType, Field, Shape, crate_path};
use crate::attr::doc_text;
use crate::attr::tool::ToolAttrs;
use crate::check::check_fields;
use crate::errors::Errors;
use crate::expand::docs;
use crate::types::{is_standard, last_segment};

/// The longest tool name the providers accept.
const MAX_NAME_LEN: usize = 64;

/// What the emitters of one `#[tool]` share.
pub(super) struct ToolModel<'a> {
    pub(super) function: &'a ItemFn,
    pub(super) attrs: &'a ToolAttrs,
    pub(super) params: &'a [Param],
    pub(super) names: Names,
    /// `::dsh_tools::__private` (or under `crate = ..`): generated code names runtime items
    /// only through it.
    pub(super) private: TokenStream,
    /// What the model is told the tool does (empty when missing, which is reported).
    pub(super) description: String,
    /// The arguments the model supplies: the `Argument` parameters, in order.
    pub(super) fields: Vec<&'a Field>,
    /// The only argument, when its type alone decides whether it is the whole argument object.
    pub(super) lone: Option<&'a Field>,
    /// The generated arguments struct, as `#[derive(ToolArgs)]` would read it.
    pub(super) args_type: ArgsType,
    /// The rustdoc section on the arguments.
    pub(super) arguments_doc: String,
    /// The rustdoc section on the output.
    pub(super) output_doc: String,
    /// The documented schema of the output (what `DocumentedOutput` holds).
    pub(super) output_json: String,
    pub(super) returns: Returns<'a>,
}

/// What the generated items are called.
pub(super) struct Names {
    /// The tool name the model calls.
    pub(super) tool_name: String,
    /// `ReadFileTool`.
    pub(super) tool: Ident,
    /// `ReadFileToolArgs`.
    pub(super) args: Ident,
}

/// How the function's return type is read: a type named `Result` (`Result<T, E>`,
/// `io::Result<T>`, `anyhow::Result<T>`) is a result, and any other is the value itself.
pub(super) enum Returns<'a> {
    /// No return type: the value is `()`.
    Unit,
    /// A result: the return type, its value type `T`, and where its error type is written.
    Result {
        ty: &'a Type,
        value: &'a Type,
        error_span: Span,
    },
    /// The value itself.
    Value(&'a Type),
}

impl<'a> ToolModel<'a> {
    /// The model of `item`; an invalid name, a missing or empty description and colliding
    /// fields go to `errors`.
    pub(super) fn build(item: &'a ToolItem, errors: &mut Errors) -> Self {
        let ToolItem {
            function,
            attrs,
            params,
        } = item;
        let names = Names::of(function, attrs);
        let krate = crate_path(attrs.krate.as_ref());
        let private = quote!(#krate::__private);
        if let Some(literal) = &attrs.name
            && !is_valid_tool_name(&names.tool_name)
        {
            let name = &names.tool_name;
            errors.error_at(
                literal,
                format!("invalid tool name \"{name}\": use 1 to {MAX_NAME_LEN} ASCII letters, digits, `_` or `-` (the rule OpenAI, Anthropic and DeepSeek share)"),
            );
        }
        let description = description(function, attrs, errors);
        let fields = argument_fields(params);
        let owned_fields: Vec<Field> = fields.iter().map(|field| (*field).clone()).collect();
        check_fields(&owned_fields, None, errors);
        let lone = lone_parameter(&fields);

        // The parameters always gather into a generated struct. A lone parameter of a type of
        // the user's own is the whole argument object when that type is an object struct; the
        // trait system decides (`ToolArgs::OBJECT_STRUCT`), so schema, check and conversion
        // agree.
        let args_type = ArgsType {
            ident: names.args.clone(),
            generics: syn::Generics::default(),
            krate,
            description: None,
            title: None,
            open: false,
            shape: Shape::Struct(owned_fields),
        };
        let arguments_doc = match lone {
            Some(field) => lone_parameter_doc(field),
            None => docs::Documented::of_args(&args_type).section("Arguments"),
        };
        let output = docs::Documented::of_type(&output_type(function));
        Self {
            function,
            attrs,
            params,
            names,
            private,
            description,
            fields,
            lone,
            args_type,
            arguments_doc,
            output_doc: output.section("Output"),
            output_json: output.json,
            returns: Returns::of(&function.sig.output),
        }
    }
}

/// The tool description: `description = ".."`, else the doc comment.
fn description(function: &ItemFn, attrs: &ToolAttrs, errors: &mut Errors) -> String {
    let description = match (&attrs.description, doc_text(&function.attrs)) {
        (Some(literal), _) => literal.value(),
        (None, Some(docs)) => docs,
        (None, None) => {
            errors.error_at(
                &function.sig.ident,
                "a tool needs a description for the model: add a `///` doc comment or `#[tool(description = \"...\")]`",
            );
            String::new()
        }
    };
    if description.trim().is_empty()
        && let Some(literal) = &attrs.description
    {
        errors.error_at(literal, "the tool description is empty");
    }
    description
}

impl Names {
    fn of(function: &ItemFn, attrs: &ToolAttrs) -> Self {
        use syn::ext::IdentExt;
        let fn_ident = &function.sig.ident;
        let fn_name = fn_ident.unraw().to_string();
        let tool = format_ident!("{}Tool", upper_camel(&fn_name), span = fn_ident.span());
        Self {
            tool_name: attrs.name.as_ref().map_or(fn_name, syn::LitStr::value),
            args: format_ident!("{}Args", tool, span = fn_ident.span()),
            tool,
        }
    }
}

impl<'a> Returns<'a> {
    fn of(output: &'a syn::ReturnType) -> Self {
        let syn::ReturnType::Type(_, ty) = output else {
            return Self::Unit;
        };
        match result_value(ty) {
            Some(value) => {
                let error_span = match last_segment(ty) {
                    Some((_, args)) if args.len() == 2 => args[1].span(),
                    _ => ty.span(),
                };
                Self::Result {
                    ty,
                    value,
                    error_span,
                }
            }
            None => Self::Value(ty),
        }
    }
}

/// Whether `name` is a name OpenAI, Anthropic and DeepSeek all accept.
fn is_valid_tool_name(name: &str) -> bool {
    (1..=MAX_NAME_LEN).contains(&name.len())
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
}

/// `read_file` → `ReadFile`.
pub(super) fn upper_camel(name: &str) -> String {
    name.split('_')
        .filter(|word| !word.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// The arguments the model supplies: the `Argument` parameters.
fn argument_fields(params: &[Param]) -> Vec<&Field> {
    params
        .iter()
        .filter_map(|param| match param {
            Param::Argument(field) => Some(&**field),
            _ => None,
        })
        .collect()
}

/// The only parameter, when its type alone decides whether it is the whole argument object: a
/// type named by the user (not a standard type), neither documented nor given `#[arg]` keys
/// (which describe a property).
pub(super) fn lone_parameter<'a>(fields: &[&'a Field]) -> Option<&'a Field> {
    match fields {
        [only]
            if !is_standard(&only.ty)
                && only.description.is_none()
                && only.attrs.rename.is_none()
                && only.attrs.names_only() =>
        {
            Some(only)
        }
        _ => None,
    }
}

/// `T` of a return type named `Result`.
fn result_value(ty: &Type) -> Option<&Type> {
    match last_segment(ty) {
        Some((ident, args)) if ident == "Result" && (1..=2).contains(&args.len()) => Some(args[0]),
        _ => None,
    }
}

/// The value type of the function's return type; `()` for none.
fn output_type(function: &ItemFn) -> Type {
    match &function.sig.output {
        syn::ReturnType::Default => syn::parse_quote!(()),
        syn::ReturnType::Type(_, ty) => result_value(ty).unwrap_or(ty).clone(),
    }
}

/// The arguments section of a tool whose only parameter's type decides the shape; the docs are
/// written before the compiler knows that type, so they say what each shape means.
fn lone_parameter_doc(field: &Field) -> String {
    use syn::ext::IdentExt;
    let ty = docs::type_link(&field.ty);
    let param = field.ident.unraw().to_string();
    format!(
        "# Arguments\n\nThe fields of {ty} (its page shows their schema), the type of the only parameter, `{param}`, provided that is a `#[derive(ToolArgs)]` struct with named fields. Any other type (an enum, a newtype, …) would be the one property `\"{param}\"`."
    )
}

/// Samples for the emitters' tests.
#[cfg(test)]
pub(super) mod sample {
    use proc_macro2::TokenStream;

    use super::ToolModel;
    use crate::errors::Errors;
    use crate::expand::tool::signature::ToolItem;

    /// `#[tool(attr)] function`, which must be free of errors.
    pub(in crate::expand::tool) fn item(attr: TokenStream, function: syn::ItemFn) -> ToolItem {
        let mut errors = Errors::new();
        let item = ToolItem::read(attr, function, &mut errors);
        assert!(errors.finish().is_ok(), "the sample reads without errors");
        item
    }

    /// The model of `item`, which must be free of errors.
    pub(in crate::expand::tool) fn model(item: &ToolItem) -> ToolModel<'_> {
        let mut errors = Errors::new();
        let model = ToolModel::build(item, &mut errors);
        assert!(errors.finish().is_ok(), "the sample's model has no errors");
        model
    }

    /// Whether `tokens` contain `needle`, compared as printed tokens.
    pub(in crate::expand::tool) fn contains(tokens: &TokenStream, needle: TokenStream) -> bool {
        tokens.to_string().contains(&needle.to_string())
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;
    use crate::expand::tool::signature::ToolItem;

    #[test]
    fn validates_tool_names() {
        assert!(is_valid_tool_name("read_file"));
        assert!(is_valid_tool_name("a-b_C9"));
        assert!(!is_valid_tool_name(""));
        assert!(!is_valid_tool_name("read file"));
        assert!(!is_valid_tool_name("read.file"));
        assert!(!is_valid_tool_name(&"x".repeat(65)));
        assert!(is_valid_tool_name(&"x".repeat(64)));
    }

    #[test]
    fn names_the_tool_struct() {
        assert_eq!(upper_camel("read_file"), "ReadFile");
        assert_eq!(upper_camel("greet"), "Greet");
        assert_eq!(upper_camel("__x_y"), "XY");
    }

    #[test]
    fn reads_the_return_type() {
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f() -> std::io::Result<u8> {
                    todo!()
                }
            ),
        );
        let model = sample::model(&item);
        assert!(
            matches!(model.returns, Returns::Result { value, .. } if quote!(#value).to_string() == "u8")
        );
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f() -> Vec<u8> {
                    todo!()
                }
            ),
        );
        assert!(matches!(sample::model(&item).returns, Returns::Value(_)));
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f() {}
            ),
        );
        assert!(matches!(sample::model(&item).returns, Returns::Unit));
    }

    #[test]
    fn reports_identity_problems_in_order() {
        let mut errors = Errors::new();
        let item = ToolItem::read(
            quote!(name = "bad name", description = " "),
            syn::parse_quote!(
                async fn f() {}
            ),
            &mut errors,
        );
        let model = ToolModel::build(&item, &mut errors);
        assert_eq!(model.names.tool_name, "bad name");
        assert_eq!(model.names.tool.to_string(), "FTool");
        let messages: Vec<String> = errors
            .finish()
            .expect_err("both are reported")
            .into_iter()
            .map(|error| error.to_string())
            .collect();
        assert!(
            messages[0].starts_with("invalid tool name \"bad name\""),
            "{messages:?}"
        );
        assert_eq!(messages[1], "the tool description is empty");
    }

    #[test]
    fn a_lone_user_type_is_the_argument_object_candidate() {
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f(args: ReadFile) {}
            ),
        );
        let model = sample::model(&item);
        assert_eq!(
            model.lone.map(|field| field.ident.to_string()).as_deref(),
            Some("args")
        );
        assert!(
            model
                .arguments_doc
                .starts_with("# Arguments\n\nThe fields of [`ReadFile`]")
        );
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f(path: String) {}
            ),
        );
        assert!(sample::model(&item).lone.is_none());
    }
}
