//! The vendored ACP JSON Schema (`acp-schema/schema.v1.json`, see its README for the version) as a
//! test oracle: every `session/update` notification the ACP bridge emits must validate against
//! the schema's `SessionNotification` definition, and every whole JSON-RPC message against the
//! root schema.

use std::sync::LazyLock;

use jsonschema::Validator;
use serde_json::{Value, json};

/// The schema file, read once.
static SCHEMA: LazyLock<Value> = LazyLock::new(|| {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/acp-schema/schema.v1.json");
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("the vendored ACP schema {path}: {error}"));
    serde_json::from_str(&text).expect("the vendored ACP schema is JSON")
});

/// Any message of the protocol (the root schema).
static MESSAGE: LazyLock<Validator> =
    LazyLock::new(|| jsonschema::draft202012::new(&SCHEMA).expect("the ACP schema compiles"));

/// The parameters of a `session/update` notification.
static SESSION_NOTIFICATION: LazyLock<Validator> = LazyLock::new(|| {
    let mut schema = SCHEMA.clone();
    let root = schema.as_object_mut().expect("the schema is an object");
    root.remove("anyOf");
    root.remove("title");
    root.insert("$ref".into(), json!("#/$defs/SessionNotification"));
    jsonschema::draft202012::new(&schema).expect("the SessionNotification schema compiles")
});

fn assert_valid(validator: &Validator, value: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} does not validate against the ACP schema:\n{}\n{}",
        errors.join("\n"),
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

/// Asserts that `params` is a valid `session/update` notification, alone and as a whole
/// JSON-RPC message.
pub fn assert_valid_session_notification(params: &Value) {
    assert_valid(&SESSION_NOTIFICATION, params, "the session/update params");
    let message = json!({"jsonrpc": "2.0", "method": "session/update", "params": params});
    assert_valid(&MESSAGE, &message, "the session/update message");
}

/// Asserts that `line`, as read from an agent's output, is a valid `session/update` message.
pub fn assert_valid_session_update_line(line: &str) {
    let message: Value = serde_json::from_str(line)
        .unwrap_or_else(|error| panic!("an agent wrote a line that is not JSON ({error}): {line}"));
    assert_eq!(message["method"], "session/update", "{line}");
    assert_valid(&MESSAGE, &message, "the session/update message");
    assert_valid(
        &SESSION_NOTIFICATION,
        &message["params"],
        "the session/update params",
    );
}
