//! JSON text into a [`Value`], as `serde_json::from_str::<Value>` parses it (key order kept,
//! the same numbers, the same nesting limit), except that an object giving one key twice is an
//! error instead of silently keeping the last value: `{"path":"a","path":"b"}` is a model's
//! mistake, and dropping one of its values would hide it.
//!
//! The parse builds the value with its own visitor, which notices a repeated key when it inserts
//! it (the map says the slot is taken), so valid text costs what `serde_json`'s own visitor costs.
//! Only when a key repeats is the text read a second time, into a tree that keeps every entry, to
//! name each repeated key with its path (`duplicate property "items[0].k"`).

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

use dsh_tools_schema::{ValidationContext, Violations};

/// Why text is not a value with unique keys.
#[derive(Debug)]
pub(crate) enum ParseError {
    /// Not JSON at all (or nested past `serde_json`'s limit).
    Syntax(serde_json::Error),
    /// JSON whose objects repeat keys: every repeated key, with its path.
    RepeatedKeys(Violations),
}

/// Parses `text`, refusing objects that repeat a key.
pub(crate) fn parse_unique(text: &str) -> Result<Value, ParseError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let parsed = UniqueValue
        .deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value));
    match parsed {
        Ok(value) => Ok(value),
        Err(error) if error.is_data() => Err(repeated_keys(text)),
        Err(error) => Err(ParseError::Syntax(error)),
    }
}

/// Reads `text` again, keeping every entry, and names each repeated key (or, when the text breaks
/// off after the repetition, the syntax error).
#[cold]
fn repeated_keys(text: &str) -> ParseError {
    let tree = match serde_json::from_str::<Entries>(text) {
        Ok(tree) => tree,
        Err(error) => return ParseError::Syntax(error),
    };
    let mut cx = ValidationContext::for_arguments();
    tree.report_repeats(&mut cx);
    match cx.finish() {
        Err(violations) => ParseError::RepeatedKeys(violations),
        // Unreachable: the first read found a repeated key. Say so rather than panic.
        Ok(()) => ParseError::Syntax(de::Error::custom("a key is repeated")),
    }
}

/// Builds a [`Value`] like `serde_json`'s own visitor, failing (with a data error) at the first
/// repeated key.
#[derive(Clone, Copy)]
struct UniqueValue;

impl<'de> DeserializeSeed<'de> for UniqueValue {
    type Value = Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueValue {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    #[inline]
    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    #[inline]
    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    #[inline]
    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    #[inline]
    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        // As `serde_json`: JSON text has no NaN or infinity, and an overflow is a syntax error.
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    #[inline]
    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    #[inline]
    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    #[inline]
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    #[inline]
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        let mut array = Vec::with_capacity(items.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = items.next_element_seed(self)? {
            array.push(item);
        }
        Ok(Value::Array(array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            match map.entry(key) {
                Entry::Vacant(slot) => {
                    slot.insert(entries.next_value_seed(self)?);
                }
                Entry::Occupied(_) => return Err(de::Error::custom("a key is repeated")),
            }
        }
        Ok(Value::Object(map))
    }
}

/// A JSON value that keeps every entry of its objects, repeats included.
enum Entries {
    Object(Vec<(String, Entries)>),
    Array(Vec<Entries>),
    Scalar,
}

impl Entries {
    /// Reports each repeated key once, where it repeats, depth-first in text order.
    fn report_repeats<'t>(&'t self, cx: &mut ValidationContext<'t>) {
        match self {
            Self::Scalar => {}
            Self::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    cx.push_index(index);
                    item.report_repeats(cx);
                    cx.pop();
                }
            }
            Self::Object(entries) => {
                let mut seen: HashSet<&str> = HashSet::with_capacity(entries.len());
                let mut reported: HashSet<&str> = HashSet::new();
                for (key, value) in entries {
                    if !seen.insert(key) && reported.insert(key) {
                        cx.report_duplicate(key);
                    }
                    cx.push_key(key);
                    value.report_repeats(cx);
                    cx.pop();
                }
            }
        }
    }
}

impl<'de> de::Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(EntriesVisitor)
    }
}

struct EntriesVisitor;

impl<'de> Visitor<'de> for EntriesVisitor {
    type Value = Entries;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Entries, E> {
        Ok(Entries::Scalar)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Entries, E> {
        Ok(Entries::Scalar)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Entries, E> {
        Ok(Entries::Scalar)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Entries, E> {
        Ok(Entries::Scalar)
    }

    fn visit_str<E>(self, _: &str) -> Result<Entries, E> {
        Ok(Entries::Scalar)
    }

    fn visit_unit<E>(self) -> Result<Entries, E> {
        Ok(Entries::Scalar)
    }

    fn visit_none<E>(self) -> Result<Entries, E> {
        Ok(Entries::Scalar)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Entries, A::Error> {
        let mut array = Vec::new();
        while let Some(item) = items.next_element()? {
            array.push(item);
        }
        Ok(Entries::Array(array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Entries, A::Error> {
        let mut list = Vec::new();
        while let Some(entry) = entries.next_entry()? {
            list.push(entry);
        }
        Ok(Entries::Object(list))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn repeats(text: &str) -> Vec<String> {
        match parse_unique(text) {
            Err(ParseError::RepeatedKeys(violations)) => violations
                .reported
                .iter()
                .map(|v| v.message().to_owned())
                .collect(),
            other => panic!("{text}: expected repeated keys, got {other:?}"),
        }
    }

    #[test]
    fn valid_text_parses_as_serde_json_parses_it() {
        for text in [
            r#"{"b":1,"a":[1.5,-2,18446744073709551615,true,null,"x\u00e9"],"c":{"d":{}}}"#,
            "[]",
            "  7 ",
            r#""s""#,
            r#"{"a":{"k":1},"b":{"k":2}}"#,
            "1e400",
        ] {
            let ours = parse_unique(text);
            let theirs = serde_json::from_str::<Value>(text);
            match (ours, theirs) {
                (Ok(ours), Ok(theirs)) => {
                    assert_eq!(ours, theirs);
                    // Key order is kept.
                    assert_eq!(ours.to_string(), theirs.to_string());
                }
                (Err(ParseError::Syntax(_)), Err(_)) => {}
                (ours, theirs) => panic!("{text}: {ours:?} vs {theirs:?}"),
            }
        }
        assert_eq!(parse_unique(r#"{"a":1}"#).unwrap(), json!({"a": 1}));
    }

    #[test]
    fn repeated_keys_are_named_at_any_depth() {
        assert_eq!(
            repeats(r#"{"path":"a","path":"b"}"#),
            ["duplicate property \"path\""]
        );
        assert_eq!(
            repeats(r#"{"a":{"x":1,"x":2},"a":{},"items":[{"k":1},{"k":1,"k":2,"k":3}]}"#),
            [
                "duplicate property \"a.x\"",
                "duplicate property \"a\"",
                "duplicate property \"items[1].k\"",
            ]
        );
        assert_eq!(
            repeats(r#"[{"x":1,"x":1}]"#),
            // A root array's items are named as validation names them.
            ["duplicate property \"arguments[0].x\""]
        );
    }

    #[test]
    fn syntax_errors_win_over_repeats() {
        for text in [r#"{"a":1,"a":2"#, r#"{"a":1,"a":2}x"#, "{", ""] {
            assert!(
                matches!(parse_unique(text), Err(ParseError::Syntax(_))),
                "{text}"
            );
        }
    }

    #[test]
    fn nesting_past_the_limit_is_a_syntax_error() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(matches!(parse_unique(&deep), Err(ParseError::Syntax(_))));
        let deep_object = format!("{}1{}", r#"{"a":"#.repeat(200), "}".repeat(200));
        assert!(matches!(
            parse_unique(&deep_object),
            Err(ParseError::Syntax(_))
        ));
    }
}
