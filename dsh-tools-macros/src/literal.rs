//! JSON literals written in attributes (`default = 200`, `enum = ["a", "b"]`, `examples = [..]`):
//! read from Rust expressions, emitted as code that builds a `serde_json::Value`, and built as
//! that value for the documented schema.

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::{Number, Value};
use syn::{Expr, Lit};

/// A literal JSON value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum JsonLiteral {
    String(String),
    Integer(i128),
    /// Kept as the literal's own digits (`1.5`, `2e3`), which are valid JSON.
    Float(f64),
    Bool(bool),
    Null,
    Array(Vec<JsonLiteral>),
}

impl JsonLiteral {
    /// Reads a literal, a negated number, `None` (null) or an array of those.
    pub(crate) fn from_expr(expr: &Expr) -> syn::Result<Self> {
        match expr {
            Expr::Lit(lit) => Self::from_lit(&lit.lit),
            Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Neg(_),
                expr: inner,
                ..
            }) => match Self::from_expr(inner)? {
                Self::Integer(value) => Ok(Self::Integer(-value)),
                Self::Float(value) => Ok(Self::Float(-value)),
                _ => Err(syn::Error::new_spanned(expr, "only numbers can be negated")),
            },
            Expr::Array(array) => array
                .elems
                .iter()
                .map(Self::from_expr)
                .collect::<syn::Result<Vec<_>>>()
                .map(Self::Array),
            Expr::Path(path) if path.path.is_ident("None") => Ok(Self::Null),
            Expr::Group(group) => Self::from_expr(&group.expr),
            Expr::Paren(paren) => Self::from_expr(&paren.expr),
            _ => Err(syn::Error::new_spanned(
                expr,
                "expected a literal (string, number, boolean, `None`) or an array of literals",
            )),
        }
    }

    fn from_lit(lit: &Lit) -> syn::Result<Self> {
        match lit {
            Lit::Str(text) => Ok(Self::String(text.value())),
            Lit::Char(ch) => Ok(Self::String(ch.value().to_string())),
            Lit::Bool(flag) => Ok(Self::Bool(flag.value)),
            Lit::Int(int) => int.base10_parse::<i128>().map(Self::Integer),
            Lit::Float(float) => {
                let value = float.base10_parse::<f64>()?;
                if value.is_finite() {
                    Ok(Self::Float(value))
                } else {
                    Err(syn::Error::new_spanned(
                        float,
                        "JSON numbers must be finite",
                    ))
                }
            }
            other => Err(syn::Error::new_spanned(
                other,
                "expected a string, number or boolean literal",
            )),
        }
    }

    /// Whether this is a scalar (allowed in `enum` and `const`).
    pub(crate) fn is_scalar(&self) -> bool {
        !matches!(self, Self::Array(_))
    }

    /// Code that builds this value as a `serde_json::Value`.
    pub(crate) fn to_value_tokens(&self, private: &TokenStream) -> TokenStream {
        match self {
            Self::String(text) => {
                quote!(#private::Value::String(::std::string::String::from(#text)))
            }
            Self::Integer(value) => {
                if let Ok(small) = i64::try_from(*value) {
                    quote!(#private::Value::from(#small))
                } else if let Ok(unsigned) = u64::try_from(*value) {
                    quote!(#private::Value::from(#unsigned))
                } else {
                    // Out of JSON's 64-bit range: refused at build time by `check`, kept valid here.
                    quote!(#private::Value::Null)
                }
            }
            Self::Float(value) => quote!(#private::Value::from(#value)),
            Self::Bool(flag) => quote!(#private::Value::Bool(#flag)),
            Self::Null => quote!(#private::Value::Null),
            Self::Array(items) => {
                let items = items.iter().map(|item| item.to_value_tokens(private));
                quote!(#private::Value::Array(::std::vec![#(#items),*]))
            }
        }
    }

    /// The value [`to_value_tokens`](Self::to_value_tokens) builds, built here (for the
    /// documented schema, which the schema engine renders at compile time).
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Self::String(text) => Value::String(text.clone()),
            Self::Integer(value) => {
                if let Ok(small) = i64::try_from(*value) {
                    Value::from(small)
                } else if let Ok(unsigned) = u64::try_from(*value) {
                    Value::from(unsigned)
                } else {
                    Value::Null
                }
            }
            Self::Float(value) => Value::from(*value),
            Self::Bool(flag) => Value::Bool(*flag),
            Self::Null => Value::Null,
            Self::Array(items) => Value::Array(items.iter().map(Self::to_value).collect()),
        }
    }

    /// The number a numeric bound (`minimum = ..`) stands for, as the generated code builds it;
    /// `None` for any other literal.
    pub(crate) fn to_number(&self) -> Option<Number> {
        match self {
            Self::Integer(value) => Some(match i64::try_from(*value) {
                Ok(small) => Number::from(small),
                Err(_) => Number::from(u64::try_from(*value).unwrap_or(u64::MAX)),
            }),
            Self::Float(value) => Number::from_f64(*value),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> JsonLiteral {
        JsonLiteral::from_expr(&syn::parse_str(text).unwrap()).unwrap()
    }

    #[test]
    fn reads_literals_as_the_json_values_the_tokens_build() {
        let text = |source: &str| parse(source).to_value().to_string();
        assert_eq!(text("200"), "200");
        assert_eq!(text("-3"), "-3");
        assert_eq!(text("1.5"), "1.5");
        assert_eq!(text("2e3"), "2000.0");
        assert_eq!(text(r#"["a", "b\"c"]"#), r#"["a","b\"c"]"#);
        assert_eq!(text("None"), "null");
        assert_eq!(parse("-1").to_number(), Some(Number::from(-1)));
        assert_eq!(parse("0.5").to_number(), Number::from_f64(0.5));
        assert_eq!(parse("\"x\"").to_number(), None);
        assert!(JsonLiteral::from_expr(&syn::parse_str("foo()").unwrap()).is_err());
    }
}
