//! The partial JSON reader (`providers::stream::PartialJson`): fed a value's text in fragments,
//! cut anywhere (inside strings, escapes, surrogate pairs, UTF-8 characters, numbers and
//! literals), it ends with exactly the value `serde_json` parses from the whole text, keeps the
//! best value of every prefix, knows which parts are finished, and reports text that can no
//! longer be JSON with where and why.

use dsh_tools::providers::stream::{PartialJson, PartialNode};
use dsh_tools::{Value, json};
use dsh_tools_tests::json_values::{any_json, cases};
use proptest::prelude::*;

/// Texts with every token kind, escapes and multi-byte characters.
const DOCUMENTS: &[&str] = &[
    r#"{"path":"src/lib.rs","offset":null,"limit":200}"#,
    r#" { "a" : [ 1 , -2.5e+3 , 0 , 1E2 , true , false , null , { } , [ ] ] , "b" : "x" } "#,
    r#"{"text":"say \"hi\"\n\t\\ \/ \b\f\r caf\u00e9 \ud83d\ude00 é😀 日本"}"#,
    r#"[[[{"deep":[{"er":["est"]}]}]]]"#,
    r#""a lone string""#,
    "-0.125",
    "[-0, 1.5, 10, 1e-7]",
    r#"{"":"","é":{"😀":[]}}"#,
];

fn parse_in(fragments: &[&str]) -> PartialJson {
    let mut reader = PartialJson::default();
    for fragment in fragments {
        reader.push(fragment).expect("a prefix of JSON");
    }
    reader
}

/// Every fragment boundary on a char boundary: each text split in two everywhere, and in
/// single characters, reads as `serde_json` reads the whole.
#[test]
fn every_split_reads_the_value_serde_json_reads() {
    for text in DOCUMENTS {
        let whole: Value = serde_json::from_str(text).unwrap();
        for (cut, _) in text.char_indices() {
            let mut reader = parse_in(&[&text[..cut], &text[cut..]]);
            reader.end().unwrap();
            assert_eq!(reader.value().as_ref(), Some(&whole), "{text} cut at {cut}");
        }
        let mut reader = PartialJson::default();
        for (at, c) in text.char_indices() {
            reader.push(&text[at..at + c.len_utf8()]).unwrap();
        }
        reader.end().unwrap();
        assert_eq!(reader.into_value(), Some(whole), "{text} by characters");
    }
}

/// Bytes cut inside UTF-8 characters are joined across fragments.
#[test]
fn bytes_cut_inside_a_character_are_joined() {
    for text in DOCUMENTS {
        let whole: Value = serde_json::from_str(text).unwrap();
        let mut reader = PartialJson::default();
        for byte in text.as_bytes() {
            reader.push_bytes(std::slice::from_ref(byte)).unwrap();
        }
        reader.end().unwrap();
        assert_eq!(reader.value(), Some(whole), "{text} byte by byte");
    }
    let mut reader = PartialJson::default();
    let text = "\"é😀\"".as_bytes();
    reader.push_bytes(&text[..2]).unwrap();
    // The first byte of `é` is held back: the value so far is the empty string.
    assert_eq!(reader.value(), Some(json!("")));
    reader.push_bytes(&text[2..4]).unwrap();
    assert_eq!(reader.value(), Some(json!("é")));
    reader.push_bytes(&text[4..]).unwrap();
    assert_eq!(reader.value(), Some(json!("é😀")));
    let mut broken = PartialJson::default();
    assert_eq!(
        broken.push_bytes(b"\"\xff").unwrap_err().to_string(),
        "the text is not UTF-8 at byte 1"
    );
}

/// The value of each prefix: open strings hold what came, numbers their whole prefix, keys and
/// literals not yet whole are left out.
#[test]
fn prefixes_keep_the_best_value_so_far() {
    let steps: &[(&str, Option<Value>)] = &[
        ("", None),
        (" ", None),
        ("{", Some(json!({}))),
        ("\"pa", Some(json!({}))),
        ("th\"", Some(json!({}))),
        (":", Some(json!({}))),
        (" \"src/ma", Some(json!({"path": "src/ma"}))),
        ("in.rs\\", Some(json!({"path": "src/main.rs"}))),
        ("n\", \"n\": -", Some(json!({"path": "src/main.rs\n"}))),
        ("1", Some(json!({"path": "src/main.rs\n", "n": -1}))),
        ("2.", Some(json!({"path": "src/main.rs\n", "n": -12}))),
        ("5e", Some(json!({"path": "src/main.rs\n", "n": -12.5}))),
        (
            "1, \"ok\": tr",
            Some(json!({"path": "src/main.rs\n", "n": -125.0})),
        ),
        (
            "ue, \"xs\": [1, \"a",
            Some(json!({"path": "src/main.rs\n", "n": -125.0, "ok": true, "xs": [1, "a"]})),
        ),
        (
            "\\u00",
            Some(json!({"path": "src/main.rs\n", "n": -125.0, "ok": true, "xs": [1, "a"]})),
        ),
        (
            "e9\\ud83d",
            Some(json!({"path": "src/main.rs\n", "n": -125.0, "ok": true, "xs": [1, "aé"]})),
        ),
        (
            "\\ude00\"]}",
            Some(json!({"path": "src/main.rs\n", "n": -125.0, "ok": true, "xs": [1, "aé😀"]})),
        ),
    ];
    let mut reader = PartialJson::default();
    for (fragment, expected) in steps {
        reader.push(fragment).unwrap();
        assert_eq!(&reader.value(), expected, "after {fragment:?}");
    }
    assert!(reader.is_complete());
    reader.end().unwrap();
}

/// The view of the value so far: finished members, the open one, and what it is.
#[test]
fn the_node_view_tells_finished_parts_from_open_ones() {
    let reader = parse_in(&[r#"{"a": 1, "b": [true, "x", 12"#]);
    let Some(PartialNode::Object(object)) = reader.node() else {
        panic!("an open object");
    };
    assert_eq!(object.entries(), json!({"a": 1}).as_object().unwrap());
    assert_eq!(object.open_key(), Some("b"));
    let Some(PartialNode::Array(array)) = object.open_value() else {
        panic!("an open array");
    };
    assert_eq!(array.items(), [json!(true), json!("x")]);
    assert!(matches!(array.open_item(), Some(PartialNode::Number("12"))));

    // A delimiter finishes the number; a closing bracket the array.
    let reader = parse_in(&[r#"{"a": 1, "b": [12] , "c"#]);
    let Some(PartialNode::Object(object)) = reader.node() else {
        panic!("an open object");
    };
    assert_eq!(
        object.entries(),
        json!({"a": 1, "b": [12]}).as_object().unwrap()
    );
    assert_eq!(object.open_key(), None);
    assert_eq!(object.key_being_written(), Some("c"));
    assert!(object.open_value().is_none());

    let reader = parse_in(&["[\"ab", "c\\"]);
    let Some(PartialNode::Array(array)) = reader.node() else {
        panic!("an open array");
    };
    assert!(matches!(
        array.open_item(),
        Some(PartialNode::String("abc"))
    ));
    let reader = parse_in(&["[fal"]);
    let Some(PartialNode::Array(array)) = reader.node() else {
        panic!("an open array");
    };
    assert!(matches!(
        array.open_item(),
        Some(PartialNode::Literal("fal"))
    ));
    let reader = parse_in(&["[1]"]);
    assert!(reader.node().is_some_and(|node| node.is_finished()));
    assert!(PartialJson::default().node().is_none());
}

/// A top-level number is finished only by the end of the text.
#[test]
fn the_end_finishes_a_top_level_number_and_refuses_open_values() {
    let mut reader = parse_in(&["12"]);
    assert!(!reader.is_complete());
    assert!(matches!(reader.node(), Some(PartialNode::Number("12"))));
    reader.end().unwrap();
    assert_eq!(reader.value(), Some(json!(12)));

    let ends: &[(&str, &str)] = &[
        ("", "the text holds no value at byte 0"),
        ("  ", "the text holds no value at byte 2"),
        ("{\"a\": \"b", "the text ends inside a string at byte 8"),
        ("{\"a", "the text ends inside an object key at byte 3"),
        ("[1", "the text ends inside a number at byte 2"),
        ("[tr", "the text ends inside a literal at byte 3"),
        (
            "{\"a\": [1, 2]",
            "the text ends inside an object at byte 12",
        ),
        ("[[]", "the text ends inside an array at byte 3"),
        ("1.", "invalid number: `1.` is not a whole number at byte 2"),
    ];
    for (text, message) in ends {
        let mut reader = parse_in(&[text]);
        assert_eq!(reader.end().unwrap_err().to_string(), *message, "{text:?}");
    }
}

/// Text that can no longer be JSON: where and why, once, and the value before it is kept.
#[test]
fn errors_say_where_and_why_and_stick() {
    let errors: &[(&str, &str)] = &[
        (
            "{\"a\" 1",
            "expected `:` after an object key, found `1` at byte 5",
        ),
        (
            "{1",
            "expected an object key (a string), found `1` at byte 1",
        ),
        (
            "{\"a\":1,}",
            "expected an object key (a string), found `}` at byte 7",
        ),
        (
            "[1 2",
            "expected `,` or `]` after an array item, found `2` at byte 3",
        ),
        (
            "{\"a\":1]",
            "expected `,` or `}` after an object member, found `]` at byte 6",
        ),
        ("[,", "expected a value, found `,` at byte 1"),
        ("01", "invalid number: `1` cannot follow `0` at byte 1"),
        ("[1.e", "invalid number: `e` cannot follow `1.` at byte 3"),
        ("[1e999]", "number out of range: `1e999` at byte 6"),
        ("trux", "expected `true`, found `x` at byte 3"),
        ("\"a\\x", "invalid escape `\\x` at byte 3"),
        ("\"\\u12g", "invalid hex digit in a `\\u` escape at byte 5"),
        (
            "\"\\ude00",
            "a trailing surrogate without a leading one at byte 6",
        ),
        (
            "\"\\ud83dx",
            "a leading surrogate must be followed by a `\\u` escape at byte 7",
        ),
        (
            "\"\\ud83d\\u0041",
            "a leading surrogate must be followed by a trailing one at byte 12",
        ),
        (
            "\"a\nb\"",
            "a control character must be escaped inside a string at byte 2",
        ),
        (
            "{\"a\":1,\"a\":2}",
            "the object gives the key \"a\" twice at byte 9",
        ),
        ("[] x", "trailing characters after the value: `x` at byte 3"),
    ];
    for (text, message) in errors {
        let mut reader = PartialJson::default();
        let error = reader.push(text).unwrap_err();
        assert_eq!(error.to_string(), *message, "{text:?}");
        assert_eq!(reader.error(), Some(&error));
        assert_eq!(reader.push("]").unwrap_err(), error, "the error sticks");
    }
    let mut reader = parse_in(&["{\"a\": [1, 2"]);
    assert!(reader.push("}").is_err());
    assert_eq!(reader.value(), Some(json!({"a": [1, 2]})));
}

/// `serde_json`'s nesting limit: 127 levels read, the 128th is refused, as a call's raw
/// arguments are.
#[test]
fn nesting_stops_where_serde_json_stops() {
    let fine = format!("{}{}", "[".repeat(127), "]".repeat(127));
    assert!(serde_json::from_str::<Value>(&fine).is_ok());
    let mut reader = parse_in(&[&fine]);
    reader.end().unwrap();
    let deep = "[".repeat(128);
    assert!(serde_json::from_str::<Value>(&format!("{deep}{}", "]".repeat(128))).is_err());
    let mut reader = PartialJson::default();
    assert_eq!(
        reader.push(&deep).unwrap_err().to_string(),
        "nested deeper than 127 levels at byte 127"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Any JSON text (compact or pretty), cut at any two char boundaries, reads as the whole,
    /// and every prefix's value is a value (never a panic).
    #[test]
    fn any_value_cut_anywhere_reads_as_the_whole(
        value in any_json(),
        pretty in any::<bool>(),
        cuts in (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
    ) {
        let text = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        let boundaries: Vec<usize> = text.char_indices().map(|(at, _)| at).chain([text.len()]).collect();
        let mut points = [cuts.0.get(&boundaries), cuts.1.get(&boundaries)];
        points.sort_unstable();
        let [first, second] = points.map(|at| *at);
        let mut reader = PartialJson::default();
        for fragment in [&text[..first], &text[first..second], &text[second..]] {
            reader.push(fragment).unwrap();
            let _ = reader.value();
        }
        reader.end().unwrap();
        let whole: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(reader.into_value(), Some(whole));
    }

    /// Arbitrary bytes never make the reader panic, and text it accepts whole is JSON.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64), cut in any::<prop::sample::Index>()) {
        let at = cut.index(bytes.len() + 1);
        let mut reader = PartialJson::default();
        let _ = reader.push_bytes(&bytes[..at]);
        let _ = reader.value();
        let _ = reader.push_bytes(&bytes[at..]);
        if reader.end().is_ok() {
            let parsed: Value = serde_json::from_slice(&bytes).expect("accepted text is JSON");
            prop_assert_eq!(reader.value(), Some(parsed));
        }
    }
}
