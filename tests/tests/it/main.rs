//! The integration tests of `dsh-tools`, in one binary: a folder per area, a file per subject.
//!
//! One binary links the runtime (with every feature) once, where a binary per file linked it
//! eighty times. Its tests share one process, so none may rely on owning it (`shared_process.rs`
//! checks the sources): a `tracing` capture is scoped to its thread (`dsh_tools_tests::Capture`),
//! process-wide counters are read under a lock (`dsh_tools_tests::counted`), servers listen on
//! port 0. `tests/README.md` says where things are and how to run one area.

/// The ACP bridge: the `acp_agent` example driven by a real client, and golden ACP mappings.
mod acp;
/// The runtime's layers, read from its sources (see `ARCHITECTURE.md`).
mod architecture;
/// Every bench case runs natively and every suite is well formed.
mod bench_cases;
/// Code Mode: `run_code` and the TypeScript declaration of the tools.
mod code_mode;
/// The call store: every backend's conformance, the journal across a killed process.
mod durable;
/// The examples, run as README says, printing what README says they print.
mod examples;
/// The hooks: `pre-execute`, guards, `execute` layers, `post-execute`, observers and approval.
mod hooks;
/// `#[tool]` and `#[derive(ToolArgs)]`: schemas, conversion, generated checks, docs, presenters.
mod macros;
/// MCP both ways: serving a registry and importing a server, in process and against Python.
mod mcp;
/// The pipeline a call runs through: dispatch, timeouts, cancellation, budgets, batches, paths.
mod pipeline;
/// Presentation: cards on the registry, as plain text, titles and icons, embedded resources.
mod present;
/// Provider views and adapters: lowering, strict maps, round trips of recorded responses.
mod providers;
/// The public surface of the two library crates, counted from their sources, kept small.
mod public_surface;
/// The registry: registration, scopes and restrictions, deferred tools and tool search.
mod registry;
/// The schema engine: import, validation and its wording, formats, patterns, differential tests.
mod schema;
/// No test takes over what the process shares (subscriber, panic hook, environment, ...).
mod shared_process;
/// Streamed responses: readers, partial JSON, definite violations, cards and batches fed early.
mod stream;
/// OpenTelemetry: GenAI tool spans, policy events, metrics, trace context over MCP.
mod telemetry;
