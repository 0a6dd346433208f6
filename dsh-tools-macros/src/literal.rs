//! JSON literals written in attributes (`default = 200`, `enum = ["a", "b"]`, `examples = [..]`):
//! read from Rust expressions, emitted as code that builds a `serde_json::Value`, and rendered as
//! JSON text for the documented schema.

use proc_macro2::TokenStream;
use quote::quote;
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

    /// Compact JSON text, the way `serde_json` writes the value the tokens build.
    pub(crate) fn to_json(&self) -> String {
        match self {
            Self::String(text) => json_string(text),
            Self::Integer(value) => value.to_string(),
            Self::Float(value) => format_float(*value),
            Self::Bool(flag) => flag.to_string(),
            Self::Null => "null".to_owned(),
            Self::Array(items) => {
                let items: Vec<String> = items.iter().map(Self::to_json).collect();
                format!("[{}]", items.join(","))
            }
        }
    }
}

/// A float as `serde_json` prints an `f64` (always with a fraction or exponent).
pub(crate) fn format_float(value: f64) -> String {
    let text = format!("{value:?}");
    if text.contains('.') || text.contains('e') || text.contains("inf") || text.contains("NaN") {
        text
    } else {
        format!("{text}.0")
    }
}

/// A JSON string literal.
pub(crate) fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            control if (control as u32) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", control as u32));
            }
            other => out.push(other),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> JsonLiteral {
        JsonLiteral::from_expr(&syn::parse_str(text).unwrap()).unwrap()
    }

    #[test]
    fn reads_literals_and_prints_json() {
        assert_eq!(parse("200").to_json(), "200");
        assert_eq!(parse("-3").to_json(), "-3");
        assert_eq!(parse("1.5").to_json(), "1.5");
        assert_eq!(parse("2e3").to_json(), "2000.0");
        assert_eq!(parse(r#"["a", "b\"c"]"#).to_json(), r#"["a","b\"c"]"#);
        assert_eq!(parse("None").to_json(), "null");
        assert!(JsonLiteral::from_expr(&syn::parse_str("foo()").unwrap()).is_err());
    }
}
