//! The W3C trace context of a call that crosses a process: `traceparent`, `tracestate` and
//! `baggage` as text (MCP carries them in a request's `params._meta`, SEP-414), read into an
//! OpenTelemetry context and written from one. Parsed here rather than through a global
//! propagator, so that the keys SEP-414 fixes work whatever the process installed.

use opentelemetry::baggage::BaggageExt;
use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState};
use opentelemetry::{Context, KeyValue};
use serde_json::{Map, Value};

const TRACEPARENT: &str = "traceparent";
const TRACESTATE: &str = "tracestate";
const BAGGAGE: &str = "baggage";

/// A W3C trace context as it travels: the `traceparent` that names the remote span, and the
/// `tracestate` and `baggage` that go with it, as text.
///
/// ```
/// # use dsh_tools::telemetry::TraceContext;
/// let parent = TraceContext {
///     traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".to_owned(),
///     tracestate: None,
///     baggage: Some("tenant=acme".to_owned()),
/// };
/// let mut meta = serde_json::Map::new();
/// parent.write_meta(&mut meta);
/// assert_eq!(TraceContext::from_meta(&meta), Some(parent));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceContext {
    /// The remote span, `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`; checked when it
    /// is used.
    pub traceparent: String,
    /// The vendors' `tracestate` list, if any.
    pub tracestate: Option<String>,
    /// A W3C `baggage` list (`key=value,…`, values percent-encoded), if any.
    pub baggage: Option<String>,
}

impl TraceContext {
    /// The context in a request's `_meta` object (`traceparent`, `tracestate`, `baggage`, all
    /// strings); `None` without a `traceparent` string.
    pub fn from_meta(meta: &Map<String, Value>) -> Option<Self> {
        let text = |key: &str| meta.get(key).and_then(Value::as_str).map(str::to_owned);
        Some(Self {
            traceparent: text(TRACEPARENT)?,
            tracestate: text(TRACESTATE),
            baggage: text(BAGGAGE),
        })
    }

    /// Writes the context into a request's `_meta` object, under the same keys.
    pub fn write_meta(&self, meta: &mut Map<String, Value>) {
        meta.insert(
            TRACEPARENT.to_owned(),
            Value::String(self.traceparent.clone()),
        );
        if let Some(tracestate) = &self.tracestate {
            meta.insert(TRACESTATE.to_owned(), Value::String(tracestate.clone()));
        }
        if let Some(baggage) = &self.baggage {
            meta.insert(BAGGAGE.to_owned(), Value::String(baggage.clone()));
        }
    }

    /// The context of the current `tracing` span as `tracing-opentelemetry` exports it; `None`
    /// when it has no valid OpenTelemetry span (nothing records it).
    pub fn current() -> Option<Self> {
        use tracing_opentelemetry::OpenTelemetrySpanExt;
        Self::from_context(&tracing::Span::current().context())
    }

    /// The context of `context`'s span and baggage; `None` when its span context is not valid.
    pub(crate) fn from_context(context: &Context) -> Option<Self> {
        let span = context.span();
        let span_context = span.span_context();
        if !span_context.is_valid() {
            return None;
        }
        let traceparent = format!(
            "00-{}-{}-{:02x}",
            span_context.trace_id(),
            span_context.span_id(),
            span_context.trace_flags().to_u8()
        );
        let tracestate = span_context.trace_state().header();
        let baggage = context
            .baggage()
            .iter()
            .map(|(key, (value, _))| format!("{}={}", key.as_str(), percent_encode(value.as_str())))
            .collect::<Vec<_>>()
            .join(",");
        Some(Self {
            traceparent,
            tracestate: (!tracestate.is_empty()).then_some(tracestate),
            baggage: (!baggage.is_empty()).then_some(baggage),
        })
    }

    /// An OpenTelemetry context whose span is the remote one named here, with the baggage;
    /// `None` when `traceparent` is malformed (W3C: then the call starts a trace of its own). A
    /// malformed `tracestate` is dropped; unreadable baggage entries are skipped.
    pub(crate) fn to_context(&self) -> Option<Context> {
        let (trace_id, span_id, flags) = parse_traceparent(&self.traceparent)?;
        let trace_state = self
            .tracestate
            .as_deref()
            .and_then(|text| text.parse::<TraceState>().ok())
            .unwrap_or_default();
        let span_context = SpanContext::new(trace_id, span_id, flags, true, trace_state);
        let context = Context::new().with_remote_span_context(span_context);
        let entries = self
            .baggage
            .as_deref()
            .map(parse_baggage)
            .unwrap_or_default();
        Some(if entries.is_empty() {
            context
        } else {
            context.with_baggage(entries)
        })
    }
}

/// `version-traceid-spanid-flags`, as W3C Trace Context level 1 reads it: version `00` has
/// exactly these four fields, a later version may add more; ids are lowercase hex, not all zero.
fn parse_traceparent(text: &str) -> Option<(TraceId, SpanId, TraceFlags)> {
    let text = text.trim();
    let mut fields = text.split('-');
    let version = fields.next()?;
    let trace_id = fields.next()?;
    let span_id = fields.next()?;
    let flags = fields.next()?;
    let lower_hex = |field: &str, len: usize| {
        field.len() == len
            && field
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    if !lower_hex(version, 2) || version == "ff" || (version == "00" && fields.next().is_some()) {
        return None;
    }
    if !lower_hex(trace_id, 32) || !lower_hex(span_id, 16) || !lower_hex(flags, 2) {
        return None;
    }
    let trace_id = TraceId::from_hex(trace_id).ok()?;
    let span_id = SpanId::from_hex(span_id).ok()?;
    if trace_id == TraceId::INVALID || span_id == SpanId::INVALID {
        return None;
    }
    let flags = u8::from_str_radix(flags, 16).ok()?;
    Some((
        trace_id,
        span_id,
        TraceFlags::new(flags) & TraceFlags::SAMPLED,
    ))
}

/// The `key=value` entries of a W3C baggage list; properties after `;` are left out.
fn parse_baggage(text: &str) -> Vec<KeyValue> {
    text.split(',')
        .filter_map(|entry| {
            let member = entry.split(';').next()?;
            let (key, value) = member.split_once('=')?;
            let key = key.trim();
            if key.is_empty() {
                return None;
            }
            let value = percent_decode(value.trim())?;
            Some(KeyValue::new(key.to_owned(), value))
        })
        .collect()
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = text.get(at + 1..at + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Percent-encodes what a baggage value may not hold as it is (W3C: no controls, whitespace,
/// `"`, `,`, `;`, `\` or `%`, ASCII only).
fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        let plain = byte.is_ascii_graphic() && !matches!(byte, b'"' | b',' | b';' | b'\\' | b'%');
        if plain {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARENT: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    fn only(traceparent: &str) -> TraceContext {
        TraceContext {
            traceparent: traceparent.to_owned(),
            tracestate: None,
            baggage: None,
        }
    }

    #[test]
    fn a_traceparent_names_a_remote_sampled_span() {
        let context = TraceContext {
            traceparent: PARENT.to_owned(),
            tracestate: Some("congo=t61rcWkgMzE".to_owned()),
            baggage: Some("user=al%20ice;p=1, tenant=acme".to_owned()),
        }
        .to_context()
        .expect("a valid traceparent");
        let span = context.span();
        let span_context = span.span_context();
        assert!(span_context.is_remote() && span_context.is_sampled());
        assert_eq!(
            span_context.trace_id().to_string(),
            "0af7651916cd43dd8448eb211c80319c"
        );
        assert_eq!(span_context.span_id().to_string(), "b7ad6b7169203331");
        assert_eq!(span_context.trace_state().header(), "congo=t61rcWkgMzE");
        assert_eq!(
            context.baggage().get("user").map(|v| v.as_str().to_owned()),
            Some("al ice".to_owned())
        );
        let back = TraceContext::from_context(&context).expect("a valid span");
        assert_eq!(back.traceparent, PARENT);
        assert_eq!(back.tracestate.as_deref(), Some("congo=t61rcWkgMzE"));
        let baggage = back.baggage.expect("baggage");
        assert!(baggage.contains("user=al%20ice") && baggage.contains("tenant=acme"));
    }

    #[test]
    fn malformed_traceparents_start_no_parent() {
        for bad in [
            "",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331",
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",
        ] {
            assert!(only(bad).to_context().is_none(), "{bad:?}");
        }
        let later = "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra";
        assert!(only(later).to_context().is_some());
    }

    #[test]
    fn meta_round_trip() {
        let mut meta = Map::new();
        assert_eq!(TraceContext::from_meta(&meta), None);
        let context = TraceContext {
            baggage: Some("a=b".to_owned()),
            ..only(PARENT)
        };
        context.write_meta(&mut meta);
        assert_eq!(meta.get("tracestate"), None);
        assert_eq!(TraceContext::from_meta(&meta), Some(context));
    }
}
