//! The registry and its scopes.

/// Deferred tools, `tool_search` and per-scope loading.
mod deferred;
/// Hybrid search: an application's embedding model fused with the keyword ranking.
mod hybrid_search;
/// Name guards: guards on a tool's name, which listings and searches ask too.
mod name_guards;
/// Registration, duplicates, disposal, `get`, `schemas`, change events, `Debug`.
mod rules;
/// Agent scopes: shadowing, inheritance, restrictions, disposal.
mod scopes;
/// Tool search over more than 500 tools.
mod search_catalog;
/// Tool search's hit rates on the evaluation set of MCP-like servers.
mod search_eval;
