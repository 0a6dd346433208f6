//! Reading one line a client sent into rmcp's message, for the stdio transport
//! (`stdio_transport.rs`).
//!
//! rmcp reads a line with `serde_json` into [`ClientJsonRpcMessage`]: an untagged envelope
//! buffered into serde's `Content`, then the request enum tried variant by variant, each failed
//! variant a formatted error thrown away. For a `tools/call` that is most of what a served call
//! costs. The messages a session is made of (`tools/call`, `tools/list`, `ping`,
//! `notifications/initialized`) in their plain shape are read here directly into the message rmcp
//! would build — the same id, the same parameters, `_meta` moved into the request's extensions
//! as a [`RequestMetaObject`], parameters absent where the line has none. Every other line (a
//! field not listed here, a float or `null` id, a response, an error, a batch, another method,
//! malformed JSON, a byte order mark) goes to rmcp's own codec, so its message, its skipped
//! notifications and its errors stay rmcp's.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientJsonRpcMessage, ClientNotification,
    ClientRequest, Extensions, GetExtensions, InitializedNotification,
    InitializedNotificationMethod, JsonObject, JsonRpcMessage, JsonRpcNotification,
    JsonRpcVersion2_0, ListToolsRequest, ListToolsRequestMethod, NumberOrString, PingRequest,
    PingRequestMethod, RequestId, RequestMetaObject,
};
use rmcp::transport::async_rw::{JsonRpcMessageCodec, JsonRpcMessageCodecError};
use serde::Deserialize;
use serde::de::{Deserializer, Visitor};
use serde_json::value::RawValue;
use tokio_util::bytes::BytesMut;
use tokio_util::codec::Decoder;

/// Reads one line (without its `\n` and the one `\r` before it, as rmcp's stdio transport hands
/// a line to its parse) the way rmcp's codec does: `Ok(Some(_))` a message, `Ok(None)` a
/// notification rmcp skips (one it does not know), `Err` what `serde_json` said of a line that is
/// no message (the caller tells unparsable input from a protocol error by the error's category,
/// as rmcp does).
///
/// Not API: public for the bench harness and the differential tests, which measure and check
/// it against rmcp's codec.
#[doc(hidden)]
pub fn parse_client_line(line: &[u8]) -> Result<Option<ClientJsonRpcMessage>, serde_json::Error> {
    match parse_client_line_directly(line) {
        Some(message) => Ok(Some(message)),
        None => parse_as_rmcp(line),
    }
}

/// The direct reading alone: the message when the line is one of the shapes read here, `None`
/// when it is left to rmcp.
///
/// Not API: public for the differential tests, which check that the lines meant to be read
/// directly are.
#[doc(hidden)]
pub fn parse_client_line_directly(line: &[u8]) -> Option<ClientJsonRpcMessage> {
    // serde_json refuses more than 128 nested arrays and objects. rmcp counts them from the
    // line's start; the parameters read on their own below would count from theirs, one level
    // deeper than rmcp allows. A line with fewer opening brackets (in strings too) cannot reach
    // the limit either way.
    if opening_brackets(line) >= NESTING_FREE {
        return None;
    }
    let envelope: Envelope<'_> = serde_json::from_slice(line).ok()?;
    if envelope.jsonrpc != JSONRPC_VERSION {
        return None;
    }
    match (envelope.method.as_ref(), envelope.id, envelope.params) {
        ("tools/call", Some(id), Some(params)) => {
            let params: CallParams = serde_json::from_str(params.get()).ok()?;
            let mut call = CallToolRequestParams::new(params.name);
            call.arguments = params.arguments;
            let mut request = CallToolRequest::new(call);
            if let Some(meta) = params.meta {
                request
                    .extensions_mut()
                    .insert(RequestMetaObject::from(meta));
            }
            Some(JsonRpcMessage::request(ClientRequest::from(request), id))
        }
        ("tools/list", Some(id), None) => Some(JsonRpcMessage::request(
            ClientRequest::from(ListToolsRequest {
                method: ListToolsRequestMethod,
                params: None,
                extensions: Extensions::new(),
            }),
            id,
        )),
        ("ping", Some(id), None) => Some(JsonRpcMessage::request(
            ClientRequest::from(PingRequest {
                method: PingRequestMethod,
                extensions: Extensions::new(),
            }),
            id,
        )),
        ("notifications/initialized", None, None) => {
            Some(JsonRpcMessage::Notification(JsonRpcNotification {
                jsonrpc: JsonRpcVersion2_0,
                notification: ClientNotification::from(InitializedNotification {
                    method: InitializedNotificationMethod,
                    extensions: Extensions::new(),
                }),
            }))
        }
        _ => None,
    }
}

/// The JSON-RPC version every message names.
const JSONRPC_VERSION: &str = "2.0";

/// Opening brackets from which a line may nest too deeply for the direct reading to match
/// rmcp's: serde_json's nesting limit (128) less the envelope's level.
const NESTING_FREE: usize = 127;

/// How many `{` and `[` the line holds. `{` is 0x7B and `[` 0x5B: setting bit 5 maps exactly
/// these two bytes to 0x7B. Counted per 255 bytes into a `u8`, which the compiler turns into a
/// vector loop: a plain count costs about five instructions a byte, a tenth of a served call's
/// reading.
fn opening_brackets(line: &[u8]) -> usize {
    line.chunks(usize::from(u8::MAX))
        .map(|chunk| {
            usize::from(
                chunk
                    .iter()
                    .fold(0u8, |count, &byte| count + u8::from(byte | 0x20 == b'{')),
            )
        })
        .sum()
}

/// rmcp's own reading of the line: its codec's decoder, handed the line as its stdio transport
/// hands it over. The decoder takes its line up to a `\n` and drops one `\r` before it, so the
/// line is given a `\r\n` of its own: it reaches the parse unchanged, a `\r` it ends with
/// included.
fn parse_as_rmcp(line: &[u8]) -> Result<Option<ClientJsonRpcMessage>, serde_json::Error> {
    let mut buffer = BytesMut::with_capacity(line.len() + 2);
    buffer.extend_from_slice(line);
    buffer.extend_from_slice(b"\r\n");
    JsonRpcMessageCodec::<ClientJsonRpcMessage>::default()
        .decode(&mut buffer)
        .map_err(|error| match error {
            JsonRpcMessageCodecError::Serde(error) => error,
            // The decoder has no length limit and reads from memory: it fails on what it parses
            // only. Any other failure is reported as the reading error it would be.
            other => serde_json::Error::io(other.into()),
        })
}

/// The envelope of a message read directly: exactly these fields, each at most once, anything
/// else left to rmcp.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope<'a> {
    #[serde(borrow)]
    jsonrpc: Cow<'a, str>,
    /// Absent for a notification; present, it must be a request id rmcp reads the same way
    /// (an integer within `i64` or a string; `null` and floats are left to rmcp).
    #[serde(default, deserialize_with = "present_id")]
    id: Option<RequestId>,
    #[serde(borrow)]
    method: Cow<'a, str>,
    /// Absent, or the parameters' text — `null` included, which is not "absent" to rmcp.
    #[serde(default, borrow, deserialize_with = "present_raw")]
    params: Option<&'a RawValue>,
}

/// A `tools/call`'s parameters read directly: the name, the arguments, `_meta`; a retry's
/// `inputResponses` or `requestState` (rare, and rmcp's to read) leaves the line to rmcp.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CallParams {
    /// rmcp takes `_meta` out of the parameters into the request's extensions: the parameters'
    /// own `meta` stays `None`. A `null` is no metadata.
    #[serde(rename = "_meta", default)]
    meta: Option<JsonObject>,
    name: String,
    #[serde(default)]
    arguments: Option<JsonObject>,
}

fn present_raw<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

fn present_id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<RequestId>, D::Error> {
    deserializer.deserialize_any(IdVisitor).map(Some)
}

/// A request id as rmcp's `NumberOrString` reads it, for the forms that need no number
/// conversion: an integer within `i64`, or a string.
struct IdVisitor;

impl Visitor<'_> for IdVisitor {
    type Value = RequestId;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("an integer or a string")
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<RequestId, E> {
        Ok(NumberOrString::Number(value))
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<RequestId, E> {
        i64::try_from(value)
            .map(NumberOrString::Number)
            .map_err(|_| E::custom("id out of range"))
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<RequestId, E> {
        Ok(NumberOrString::String(Arc::from(value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_read_directly_with_its_meta_in_the_extensions() {
        let line = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"a":1},"_meta":{"progressToken":"p"}}}"#;
        let Some(JsonRpcMessage::Request(request)) = parse_client_line_directly(line) else {
            panic!("read directly")
        };
        assert_eq!(request.id, NumberOrString::Number(7));
        let ClientRequest::CallToolRequest(call) = request.request else {
            panic!("a call")
        };
        assert_eq!(call.params.name, "t");
        assert!(call.params.meta.is_none());
        let meta = call.extensions.get::<RequestMetaObject>().expect("meta");
        assert_eq!(meta.0.0["progressToken"], "p");
    }

    #[test]
    fn only_opening_brackets_are_counted() {
        let every_byte: Vec<u8> = (0..=u8::MAX).collect();
        assert_eq!(opening_brackets(&every_byte), 2);
        assert_eq!(opening_brackets(&[b'['; 600]), 600);
        assert_eq!(opening_brackets(b"{\"a\":[1,{}]}"), 3);
    }

    #[test]
    fn other_shapes_are_left_to_rmcp() {
        for line in [
            &br#"{"jsonrpc":"2.0","id":1.0,"method":"ping"}"#[..],
            br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}"#,
            br#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","requestState":"s"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
        ] {
            assert!(
                parse_client_line_directly(line).is_none(),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }
}
