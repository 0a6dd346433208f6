//! MCP both ways: serving a registry and importing a server's tools.

/// Approval through the client's elicitation, in process.
mod elicitation;
/// The streamable HTTP server's safety rules, with plain HTTP requests.
mod http;
/// Importing a server's tools, in process, against our own server.
mod import;
/// Approval and input over multi-round-trip requests, both ways.
mod input_required;
/// One client on one kept HTTP connection: calls without a stall, a session's `DELETE`.
mod kept_connection;
/// Pinned imports: changed and new definitions under each policy.
mod pinning;
/// Elicitation against the official Python MCP SDK, both ways.
mod python_elicitation;
/// Importing from a server written with the official Python MCP SDK.
mod python_import;
/// Serving to the official Python MCP SDK's client, over stdio and HTTP.
mod python_serve;
/// The stdio transport's reading of a line, against rmcp's codec.
mod request_parse;
/// Two stateless HTTP server processes behind a round-robin proxy.
mod scale_out;
/// Serving a registry, driven by rmcp's client and by raw JSON-RPC lines.
mod serve;
/// The stdio server over real pipes, against the same server on rmcp's transport.
mod stdio;
/// Long calls as tasks, served and imported.
mod tasks;
