//! OpenTelemetry (feature `otel`), seen through the SDK's in-memory exporters: each call's span
//! and its GenAI attributes, parents of nested calls, policy events, metrics, and trace context
//! across MCP.

/// Trace context across MCP: in process both ways, and from the official Python SDK's client.
mod mcp;
/// The opt-in metrics: the duration histogram and calls by outcome.
mod metrics;
/// Policy as events on the call's span.
mod policy;
/// The span of a call: name, kind, attributes, opt-in arguments and results, parents.
mod spans;
