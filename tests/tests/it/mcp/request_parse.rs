//! The stdio transport's reading of a line (`dsh_tools::__private::parse_client_line`) against
//! rmcp's codec, line by line: the same message (its `Debug`, its serialized text, the metadata
//! in its extensions), the same skipped lines, the same errors. A corpus of lines says which
//! ones are read directly, without rmcp's parse, so the direct reading is checked where it is
//! used; generated `tools/call` lines (ids, names, arguments with escapes and non-ASCII text,
//! `_meta`, extra fields) are checked the same way.

use dsh_tools::__private::{parse_client_line, parse_client_line_directly};
use proptest::prelude::*;
use rmcp::model::{
    ClientJsonRpcMessage, GetExtensions, JsonRpcMessage, NotificationMetaObject, RequestMetaObject,
};
use rmcp::transport::async_rw::{JsonRpcMessageCodec, JsonRpcMessageCodecError};
use serde_json::{Value, json};
use tokio_util::bytes::BytesMut;
use tokio_util::codec::Decoder;

type Read = Result<Option<ClientJsonRpcMessage>, serde_json::Error>;

/// rmcp's codec reading a line as it came over the wire (without its `\n`).
fn rmcp_reads(wire: &[u8]) -> Read {
    let mut buffer = BytesMut::from(wire);
    buffer.extend_from_slice(b"\n");
    JsonRpcMessageCodec::<ClientJsonRpcMessage>::default()
        .decode(&mut buffer)
        .map_err(|error| match error {
            JsonRpcMessageCodecError::Serde(error) => error,
            other => panic!("the codec fails only on what it parses: {other}"),
        })
}

/// What of a message its `Debug` and serialized text may not show: the request's or
/// notification's metadata as its extensions hold it.
fn extensions_of(message: &ClientJsonRpcMessage) -> String {
    match message {
        JsonRpcMessage::Request(request) => format!(
            "{:?}",
            request.request.extensions().get::<RequestMetaObject>()
        ),
        JsonRpcMessage::Notification(notification) => format!(
            "{:?}",
            notification
                .notification
                .extensions()
                .get::<NotificationMetaObject>()
        ),
        JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_) => String::new(),
    }
}

/// Why the two readings differ, if they do.
fn difference(ours: &Read, theirs: &Read) -> Option<String> {
    match (ours, theirs) {
        (Ok(Some(ours)), Ok(Some(theirs))) => {
            let ours_text = serde_json::to_string(ours).expect("serializes");
            let theirs_text = serde_json::to_string(theirs).expect("serializes");
            if format!("{ours:?}") != format!("{theirs:?}") {
                Some(format!("messages differ:\n{ours:?}\n{theirs:?}"))
            } else if ours_text != theirs_text {
                Some(format!("serialized differ:\n{ours_text}\n{theirs_text}"))
            } else if extensions_of(ours) != extensions_of(theirs) {
                Some(format!(
                    "extensions differ:\n{}\n{}",
                    extensions_of(ours),
                    extensions_of(theirs)
                ))
            } else {
                None
            }
        }
        (Ok(None), Ok(None)) => None,
        (Err(ours), Err(theirs)) => (ours.classify() != theirs.classify()
            || ours.to_string() != theirs.to_string())
        .then(|| format!("errors differ: {ours} / {theirs}")),
        _ => Some(format!("outcomes differ: {ours:?} / {theirs:?}")),
    }
}

/// Checks one line as it came over the wire (without its `\n`) both ways, and that it is read
/// directly exactly when `direct`. The transport hands the parse the line without one `\r` at its
/// end, and skips it when nothing is left.
fn check(wire: &[u8], direct: bool) {
    let shown = String::from_utf8_lossy(wire);
    let line = wire.strip_suffix(b"\r").unwrap_or(wire);
    assert!(!line.is_empty(), "a blank line is never parsed: {shown:?}");
    assert_eq!(
        parse_client_line_directly(line).is_some(),
        direct,
        "read directly: {shown}"
    );
    if let Some(why) = difference(&parse_client_line(line), &rmcp_reads(wire)) {
        panic!("{shown}: {why}");
    }
}

const DIRECT: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_files","arguments":{"pattern":"fn main","path":"/src"}}}"#,
    r#"{"jsonrpc":"2.0","id":"req-1","method":"tools/call","params":{"name":"t","arguments":{}}}"#,
    r#"{"jsonrpc":"2.0","id":-5,"method":"tools/call","params":{"name":"t"}}"#,
    r#"{"jsonrpc":"2.0","id":9223372036854775807,"method":"tools/call","params":{"name":"t","arguments":null}}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,2.5,-0,1e300,true,null,{"b":"c"}]},"_meta":{"progressToken":"p-1"}}}"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"progressToken":7,"other":{"x":1}},"name":"t","arguments":{"a":1}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t","_meta":null}}"#,
    r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t","_meta":{}}}"#,
    r#"{"params":{"arguments":{"k":"v"},"name":"t"},"method":"tools/call","id":6,"jsonrpc":"2.0"}"#,
    r#" { "jsonrpc" : "2.0" , "id" : 7 , "method" : "tools/call" , "params" : { "name" : "t" } } "#,
    r#"{"jsonrpc":"2.0","id":"\u00e9\ud83d\ude00\"\\\n","method":"tools/call","params":{"name":"n\u00e4me \u2603","arguments":{"p\u00e4th":"/\u00fcber/\ud83d\ude00\t\"q\"","s":"\\/"}}}"#,
    r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"t","arguments":{"big":18446744073709551615,"neg":-9223372036854775808,"f":0.1}}}"#,
    r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"t","arguments":{"dup":1,"dup":2}}}"#,
    r#"{"jsonrpc":"2\u002e0","id":9,"method":"tools\/call","params":{"name":"t"}}"#,
    r#"{"jsonrpc":"2.0","id":10,"method":"tools/list"}"#,
    r#"{"jsonrpc":"2.0","id":"l","method":"tools/list"}"#,
    r#"{"jsonrpc":"2.0","id":11,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\r",
    "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}\r",
];

const LEFT_TO_RMCP: &[&str] = &[
    // Ids rmcp converts, or refuses.
    r#"{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"t"}}"#,
    r#"{"jsonrpc":"2.0","id":1e2,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#,
    r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":true,"method":"tools/call","params":{"name":"t"}}"#,
    // Fields the direct reading does not take.
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"extra":1}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","extra":1}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","requestState":"s"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","inputResponses":{}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{"ttl":1000}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"result":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"error":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","name":"u"}}"#,
    // Parameters rmcp reads as another request, or refuses.
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":1}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":[1]}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":[]}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1,2]}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"c"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":1}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":{"a":1}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t"}}"#,
    // Other messages and methods.
    r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/custom","params":{"a":1}}"#,
    r#"{"jsonrpc":"2.0","method":"something/else"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"something/else","params":{"a":1}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"no"}}"#,
    r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
    // Wrong version, malformed lines.
    r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
    r#"{"jsonrpc":2.0,"id":1,"method":"ping"}"#,
    r#"{"id":1,"method":"ping"}"#,
    r#"{"foo":"bar"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}} x"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"ping",}"#,
    "not json",
    "42",
    "\"text\"",
    "null",
    "\r\r",
    " ",
    " \r",
    "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":1e400}}}"#,
];

#[test]
fn the_corpus_reads_as_rmcp_reads_it() {
    for line in DIRECT {
        check(line.as_bytes(), true);
    }
    for line in LEFT_TO_RMCP {
        check(line.as_bytes(), false);
    }
    // Invalid UTF-8 in a string.
    check(
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\xff\"}",
        false,
    );
    check(
        b"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}",
        false,
    );
}

#[test]
fn nesting_at_the_limit_reads_as_rmcp_reads_it() {
    for depth in [120, 125, 126, 127, 128, 130] {
        let arguments = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"a":{arguments}}}}}}}"#
        );
        check(line.as_bytes(), depth + 3 < 127);
    }
}

/// Any JSON value, strings with non-ASCII text and characters JSON escapes.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |value| value.is_finite())
            .prop_map(Value::from),
        "[a-z\"\\\\/\\x00-\\x1fé☃😀]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-zé_]{0,6}", inner), 0..4)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

fn request_id() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        "[a-z0-9é\"-]{0,8}".prop_map(Value::String),
    ]
}

/// Writes every non-ASCII character of `line` as a `\u` escape (as a client that escapes its
/// output does); only strings hold any.
fn ascii_escaped(line: &str) -> String {
    let mut escaped = String::with_capacity(line.len());
    for c in line.chars() {
        if c.is_ascii() {
            escaped.push(c);
        } else {
            let mut units = [0; 2];
            for unit in c.encode_utf16(&mut units) {
                escaped.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    escaped
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn generated_calls_read_as_rmcp_reads_them(
        id in request_id(),
        name in "[a-z_é😀]{0,10}",
        arguments in prop::option::of(prop::collection::vec(("[a-zé]{0,6}", json_value()), 0..5)),
        meta in prop::option::of((prop::option::of(request_id()), json_value())),
        extra_in_envelope in any::<bool>(),
        extra_in_params in any::<bool>(),
        escaped in any::<bool>(),
        params_first in any::<bool>(),
    ) {
        let mut params = serde_json::Map::new();
        if let Some((token, other)) = meta {
            let mut meta = serde_json::Map::new();
            if let Some(token) = token {
                meta.insert("progressToken".into(), token);
            }
            meta.insert("other".into(), other);
            params.insert("_meta".into(), Value::Object(meta));
        }
        params.insert("name".into(), Value::String(name));
        if let Some(arguments) = arguments {
            params.insert("arguments".into(), Value::Object(arguments.into_iter().collect()));
        }
        if extra_in_params {
            params.insert("unexpected".into(), json!(1));
        }
        let mut envelope = serde_json::Map::new();
        if params_first {
            envelope.insert("params".into(), Value::Object(params.clone()));
        }
        envelope.insert("jsonrpc".into(), json!("2.0"));
        envelope.insert("id".into(), id);
        envelope.insert("method".into(), json!("tools/call"));
        if !params_first {
            envelope.insert("params".into(), Value::Object(params));
        }
        if extra_in_envelope {
            envelope.insert("unexpected".into(), json!(null));
        }
        let mut line = serde_json::to_string(&envelope).expect("serializes");
        if escaped {
            line = ascii_escaped(&line);
        }
        check(line.as_bytes(), !extra_in_envelope && !extra_in_params);
    }
}
