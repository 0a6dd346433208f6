//! What the macros can tell about a type from its tokens alone.
//!
//! Semantics never depend on this (they go through the `ToolArgs` trait, so aliases and shadowed
//! names behave); it only serves pointed compile errors (`Option` marked required) and the schema
//! shown in the docs, which is rendered at compile time for the types it recognizes.

use syn::{GenericArgument, PathArguments, Type};

/// The last path segment of a plain path type, with its generic arguments.
pub(crate) fn last_segment(ty: &Type) -> Option<(&syn::Ident, Vec<&Type>)> {
    let ty = peel(ty);
    let Type::Path(path) = ty else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let segment = path.path.segments.last()?;
    let args = match &segment.arguments {
        PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some((&segment.ident, args))
}

/// Removes invisible groups and parentheses.
pub(crate) fn peel(ty: &Type) -> &Type {
    match ty {
        Type::Group(group) => peel(&group.elem),
        Type::Paren(paren) => peel(&paren.elem),
        other => other,
    }
}

/// `Option<T>` (by name).
pub(crate) fn is_option(ty: &Type) -> bool {
    matches!(last_segment(ty), Some((ident, args)) if ident == "Option" && args.len() == 1)
}

/// Types whose schema is not an object with named properties: a single `#[tool]` parameter of
/// one of these is an argument, not the whole argument object.
const STANDARD_TYPES: &[&str] = &[
    "String", "str", "char", "bool", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16",
    "u32", "u64", "u128", "usize", "f32", "f64", "Option", "Patch", "Vec", "VecDeque", "HashSet",
    "BTreeSet", "HashMap", "BTreeMap", "Box", "Arc", "Rc", "Value", "Map", "PathBuf", "Cow",
];

/// Whether `ty` names a standard type (so a lone parameter of it is an ordinary argument).
pub(crate) fn is_standard(ty: &Type) -> bool {
    match peel(ty) {
        Type::Path(_) => last_segment(ty)
            .is_some_and(|(ident, _)| STANDARD_TYPES.iter().any(|name| ident == name)),
        Type::Tuple(_) | Type::Array(_) | Type::Slice(_) | Type::Reference(_) => true,
        _ => false,
    }
}

/// A reference to a type named `ToolRun` (the run context parameter).
pub(crate) fn is_tool_run_ref(ty: &Type) -> bool {
    match peel(ty) {
        Type::Reference(reference) if reference.mutability.is_none() => {
            matches!(last_segment(&reference.elem), Some((ident, args)) if ident == "ToolRun" && args.is_empty())
        }
        _ => false,
    }
}
