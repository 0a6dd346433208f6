//! Canonical JSON: compact, every object's keys sorted, so that the order a peer wrote its keys
//! in never changes a digest (MCP definition fingerprints, approval states, the digest an
//! approval binds to).

use serde_json::Value;

/// `value` as compact JSON with every object's keys sorted (by their UTF-8 bytes), so that the
/// order a server wrote its keys in never changes a fingerprint.
pub(crate) fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            out.push('{');
            for (index, key) in keys.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&fields[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}
