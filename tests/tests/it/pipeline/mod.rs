//! The pipeline a call runs through.

/// The batch runner: modes, bounded concurrency, exclusive barriers, model order.
mod batch;
/// Cancellation: what it supersedes and which abort code it becomes.
mod cancellation;
/// Many calls at once while tools and hooks change.
mod concurrency;
/// Dispatch: the body, its errors and panics, arguments, the output contract.
mod dispatch;
/// Every error result carries a code.
mod error_codes;
/// A tool calling tools through the whole pipeline.
mod nested_calls;
/// Arguments moved into the tool's types on a call nothing watches.
mod owned_arguments;
/// The short path and the full pipeline agree on every rule.
mod paths;
/// Progress reports from a body to the caller's sink.
mod progress;
/// The result budget: content cut to the tool's or the registry's budget.
mod result_budget;
/// The result budget's debug log of a cut.
mod result_budget_log;
/// The short path keeps the full pipeline's rules up to a call's first poll.
mod short_path;
/// Timeouts: budgets, grace, cooperative cancellation, `TOOL_TIMEOUT`.
mod timeout;
/// Invalid arguments end a call before any policy; hooks see validated ones.
mod validate_before_policy;
