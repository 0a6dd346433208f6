//! The function `#[tool]` is written on: its parameters sorted into the run context, shared
//! state and the model's arguments, and the signature rules a tool function follows.

use proc_macro2::TokenStream;
use syn::{FnArg, Ident, ItemFn, Pat, Type};

use crate::ast::Field;
use crate::attr::arg::ArgAttrs;
use crate::attr::doc_text;
use crate::attr::serde::SerdeField;
use crate::attr::tool::ToolAttrs;
use crate::errors::Errors;
use crate::types::is_tool_run_ref;

/// One parameter of the tool function.
pub(super) enum Param {
    /// `run: &ToolRun`.
    Run,
    /// `#[state] db: &Db`: shared state provided to the registry.
    State { ident: Ident, ty: Box<Type> },
    /// An argument the model supplies.
    Argument(Box<Field>),
}

/// The function with its `#[tool(..)]` keys and parameters read.
pub(super) struct ToolItem {
    /// The function as it is emitted: its parameters' `#[arg]`, `#[state]` and doc attributes
    /// are taken off.
    pub(super) function: ItemFn,
    pub(super) attrs: ToolAttrs,
    pub(super) params: Vec<Param>,
}

impl ToolItem {
    /// Reads `#[tool(attr)]` on `function`; problems go to `errors`.
    pub(super) fn read(attr: TokenStream, mut function: ItemFn, errors: &mut Errors) -> Self {
        let attrs = ToolAttrs::parse(attr, errors);
        let params = read_params(&mut function, errors);
        check_signature(&function, attrs.blocking, errors);
        Self {
            function,
            attrs,
            params,
        }
    }
}

/// Reads the parameters, taking their `#[arg]`, `#[state]` and doc attributes off the function
/// (they are not valid on parameters once `#[tool]` is done with them).
fn read_params(function: &mut ItemFn, errors: &mut Errors) -> Vec<Param> {
    let mut params = Vec::new();
    let mut seen_run = false;
    for input in function.sig.inputs.iter_mut() {
        let typed = match input {
            FnArg::Receiver(receiver) => {
                errors.error_at(
                    receiver,
                    "#[tool] goes on a free `async fn`, not a method; reach shared state with a `#[state] name: &Type` parameter",
                );
                continue;
            }
            FnArg::Typed(typed) => typed,
        };
        let docs = doc_text(&typed.attrs);
        let state_attr = typed
            .attrs
            .iter()
            .find(|attr| attr.path().is_ident("state"))
            .cloned();
        let arg_attrs = ArgAttrs::from_attrs(&typed.attrs, errors);
        typed.attrs.retain(|attr| {
            !(attr.path().is_ident("arg")
                || attr.path().is_ident("state")
                || attr.path().is_ident("doc"))
        });
        let ident = match &*typed.pat {
            Pat::Ident(pat) if pat.subpat.is_none() && pat.by_ref.is_none() => pat.ident.clone(),
            other => {
                errors.error_at(other, "#[tool] parameters must be plain names (`name: Type`): the name is the argument's JSON key");
                continue;
            }
        };
        let ty = (*typed.ty).clone();
        if is_tool_run_ref(&ty) {
            if seen_run {
                errors.error_at(&typed.ty, "only one `&ToolRun` parameter is allowed");
            }
            seen_run = true;
            params.push(Param::Run);
            continue;
        }
        if let Some(state) = state_attr {
            match &ty {
                Type::Reference(reference) if reference.mutability.is_none() => params.push(Param::State {
                    ident,
                    ty: reference.elem.clone(),
                }),
                _ => errors.error_at(
                    &state,
                    "a `#[state]` parameter is a shared reference to the state's type, e.g. `#[state] db: &Database`",
                ),
            }
            continue;
        }
        if let Type::Reference(reference) = &ty {
            errors.error_at(
                reference,
                "tool arguments are owned values built from the model's JSON: use an owned type (`String`, not `&str`); `&ToolRun` and `#[state]` references are the exceptions",
            );
            continue;
        }
        if let Type::ImplTrait(impl_trait) = &ty {
            errors.error_at(
                impl_trait,
                "#[tool] parameters need concrete types: the schema is derived from them",
            );
            continue;
        }
        let field = Field::build(
            ident,
            ty,
            docs,
            arg_attrs,
            SerdeField::default(),
            None,
            errors,
        );
        params.push(Param::Argument(Box::new(field)));
    }
    params
}

fn check_signature(function: &ItemFn, blocking: bool, errors: &mut Errors) {
    let sig = &function.sig;
    match (&sig.asyncness, blocking) {
        (None, false) => errors.error_at(
            sig.fn_token,
            "#[tool] requires an `async fn`; for a synchronous body that blocks its thread (file or process I/O), write `#[tool(blocking)]` on a plain `fn`",
        ),
        (Some(asyncness), true) => errors.error_at(
            asyncness,
            "#[tool(blocking)] runs a plain `fn` on tokio's blocking pool: remove `async`",
        ),
        _ => {}
    }
    if !sig.generics.params.is_empty() {
        errors.error_at(
            &sig.generics,
            "#[tool] functions cannot be generic: a tool has one schema, fixed at compile time",
        );
    }
    if let Some(unsafety) = &sig.unsafety {
        errors.error_at(unsafety, "#[tool] functions cannot be `unsafe`");
    }
    if let Some(constness) = &sig.constness {
        errors.error_at(constness, "#[tool] functions cannot be `const`");
    }
    if let Some(abi) = &sig.abi {
        errors.error_at(abi, "#[tool] functions cannot have an `extern` ABI");
    }
    if let Some(variadic) = &sig.variadic {
        errors.error_at(variadic, "#[tool] functions cannot be variadic");
    }
}
