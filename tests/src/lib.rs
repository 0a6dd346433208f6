//! Shared helpers for the integration tests of `dsh-tools`: small tools, an ordering log, and a
//! `tracing` subscriber that captures events and spans so tests can assert what was logged, golden
//! files, generators of JSON values and raw JSON Schemas for property tests, the ACP JSON Schema
//! as an oracle, the TypeScript compiler for the Code Mode declarations (`typescript`), an MCP
//! client that keeps its HTTP connection (`kept_http`), and the bench harness (`bench`).

pub mod acp_schema;
pub mod bench;
pub mod counted;
pub mod doc_links;
pub mod durable_conformance;
pub mod durable_proof;
pub mod durable_restart;
pub mod golden;
mod installed;
pub mod json_values;
pub mod kept_http;
pub mod keyword_schemas;
pub mod mcp_fixture;
pub mod oracle;
pub mod otel;
pub mod postgres_server;
pub mod provider_checkers;
pub mod provider_corpus;
pub mod provider_follow_ups;
pub mod provider_programs;
pub mod provider_turns;
pub mod python;
pub mod raw_schemas;
pub mod round_robin;
pub mod search_eval;
pub mod tool_catalog;
pub mod typed_schemas;
pub mod typescript;
pub mod workload;

// The quickstart's tools, shared with the examples (the module documents itself).
#[path = "../../dsh-tools/examples/coding_tools/mod.rs"]
pub mod coding_tools;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use dsh_tools::{
    FnTool, Registration, ToolExecutionInput, ToolExecutionResult, ToolRegistry, ToolScope, Value,
    json, schema::Schema,
};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// An ordered log of what ran, shared by the hooks of one test.
#[derive(Clone, Default, Debug)]
pub struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends an entry.
    pub fn push(&self, entry: impl Into<String>) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(entry.into());
    }

    /// Everything appended so far, in order.
    pub fn entries(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// How many entries equal `entry`.
    pub fn count(&self, entry: &str) -> usize {
        self.entries().iter().filter(|seen| *seen == entry).count()
    }
}

/// A shared counter.
#[derive(Clone, Default, Debug)]
pub struct Counter(Arc<AtomicUsize>);

impl Counter {
    /// A counter at zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one.
    pub fn bump(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    /// The count.
    pub fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// A no-argument tool that returns the string `"ok"`.
pub fn ok_tool(name: &str) -> FnTool {
    FnTool::builder(name, "Returns ok.").handler(|_, _| async { Ok(json!("ok")) })
}

/// A no-argument tool that returns `value`.
pub fn value_tool(name: &str, value: Value) -> FnTool {
    FnTool::builder(name, "Returns a fixed value.").handler(move |_, _| {
        let value = value.clone();
        async move { Ok(value) }
    })
}

/// A tool that returns `"ok"` and logs `body` into `log` when its body runs.
pub fn logging_tool(name: &str, log: &Log) -> FnTool {
    let log = log.clone();
    FnTool::builder(name, "Returns ok and logs.").handler(move |_, _| {
        log.push("body");
        async { Ok(json!("ok")) }
    })
}

/// A tool that echoes its `text` argument (a required string; nothing else).
pub fn echo_tool() -> FnTool {
    FnTool::builder("echo", "Echo the text back.")
        .arguments(Schema::object().required("text", Schema::string()))
        .handler(|arguments, _| async move { Ok(arguments["text"].clone()) })
}

/// A call of `name` with `{}` arguments and call id `call-1`.
pub fn call(name: &str) -> ToolExecutionInput {
    ToolExecutionInput::new("call-1", name.to_owned(), json!({}))
}

/// A call of `name` with `arguments`.
pub fn call_with(name: &str, arguments: Value) -> ToolExecutionInput {
    ToolExecutionInput::new("call-1", name.to_owned(), arguments)
}

/// A registry with `tools` registered globally.
pub fn registry_with(tools: impl IntoIterator<Item = FnTool>) -> ToolRegistry {
    let registry = ToolRegistry::new();
    for tool in tools {
        let _ = registry
            .register(tool)
            .expect("test tools have distinct names");
    }
    registry
}

/// Registers a `pre-execute` listener that logs `label` and delegates.
pub fn log_pre_execute(registry: &ToolScope, log: &Log, label: &'static str) -> Registration {
    let log = log.clone();
    registry
        .on_pre_execute(move |_, next| {
            log.push(label);
            next.run()
        })
        .expect("a live layer")
}

/// Registers a guard that logs `label` and allows.
pub fn log_guard(registry: &ToolScope, log: &Log, label: &'static str) -> Registration {
    let log = log.clone();
    registry
        .guard(move |_| {
            log.push(label);
            None
        })
        .expect("a live layer")
}

/// Registers an `execute` layer that logs `label` and delegates.
pub fn log_wrapper(registry: &ToolScope, log: &Log, label: &'static str) -> Registration {
    let log = log.clone();
    registry
        .on_execute(move |request, next| {
            log.push(label);
            next.run(request)
        })
        .expect("a live layer")
}

/// Registers a `post-execute` listener that logs `label` and delegates.
pub fn log_post_execute(registry: &ToolScope, log: &Log, label: &'static str) -> Registration {
    let log = log.clone();
    registry
        .on_post_execute(move |_, _, next| {
            log.push(label);
            next.run()
        })
        .expect("a live layer")
}

/// Registers a result observer that logs `label`.
pub fn log_observer(registry: &ToolScope, log: &Log, label: &'static str) -> Registration {
    let log = log.clone();
    registry
        .on_result(move |_, _| log.push(label))
        .expect("a live layer")
}

/// Logs every phase: `pre`, `guard`, `wrapper`, `post`, `observe`.
pub fn log_every_phase(registry: &ToolScope, log: &Log) {
    let _ = log_pre_execute(registry, log, "pre");
    let _ = log_guard(registry, log, "guard");
    let _ = log_wrapper(registry, log, "wrapper");
    let _ = log_post_execute(registry, log, "post");
    let _ = log_observer(registry, log, "observe");
}

/// The single text of a result's content (panics when the content is not one text block).
pub fn only_text(result: &ToolExecutionResult) -> String {
    match result.content() {
        [block] => block_text(block).expect("a text block").to_owned(),
        other => panic!("expected one text block, got {other:?}"),
    }
}

/// The text of a text block.
pub fn block_text(block: &dsh_tools::content::ContentBlock) -> Option<&str> {
    match block {
        dsh_tools::content::ContentBlock::Text { text } => Some(text),
        _ => None,
    }
}

/// A span the capture saw: its name and recorded fields.
#[derive(Clone, Debug, Default)]
pub struct CapturedSpan {
    /// The span name.
    pub name: String,
    /// Fields recorded at creation and later.
    pub fields: BTreeMap<String, String>,
}

/// An event the capture saw: its message and its other recorded fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CapturedEvent {
    /// The event's message.
    pub message: String,
    /// The event's fields other than the message.
    pub fields: BTreeMap<String, String>,
}

/// A `tracing` subscriber that keeps every event's message and fields and every span's fields.
#[derive(Clone, Default)]
pub struct Capture {
    events: Arc<Mutex<Vec<CapturedEvent>>>,
    spans: Arc<Mutex<Vec<CapturedSpan>>>,
    next: Arc<AtomicU64>,
}

impl Capture {
    /// An empty capture.
    pub fn new() -> Self {
        Self::default()
    }

    /// The messages of the events seen so far.
    pub fn events(&self) -> Vec<String> {
        self.events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .map(|event| event.message.clone())
            .collect()
    }

    /// The events seen so far, with their fields.
    pub fn events_with_fields(&self) -> Vec<CapturedEvent> {
        self.events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The spans seen so far.
    pub fn spans(&self) -> Vec<CapturedSpan> {
        self.spans
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Installs the capture as this thread's subscriber until the guard is dropped.
    ///
    /// Tests on other threads of the same process keep running meanwhile, and may reach a
    /// callsite for the first time while this capture is installed: see `keep_interest_shared`
    /// for why that callsite still reports to this thread's capture.
    pub fn install(&self) -> tracing::subscriber::DefaultGuard {
        keep_interest_shared();
        tracing::subscriber::set_default(self.clone())
    }
}

/// Keeps a second dispatcher registered for the rest of the process, so that a callsite's
/// interest is always computed from every live dispatcher, whatever the thread.
///
/// `tracing-core` caches a callsite's interest the first time any thread reaches it. While at most
/// one dispatcher is registered, it asks only the registering thread's default subscriber: a
/// callsite another test's thread (with no subscriber) reached first while this thread's capture
/// was the only one installed cached "never", and the capture missed its events. With two
/// registered, it asks each of them (a never-interested keeper and the capture: "sometimes"),
/// and every thread's own default decides. Installing a capture registers it, which recomputes
/// every callsite already cached.
pub(crate) fn keep_interest_shared() {
    static KEEPER: OnceLock<tracing::Dispatch> = OnceLock::new();
    let _ = KEEPER.get_or_init(|| tracing::Dispatch::new(tracing::subscriber::NoSubscriber::new()));
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        let mut span = CapturedSpan {
            name: attributes.metadata().name().to_owned(),
            fields: BTreeMap::new(),
        };
        attributes.record(&mut Fields(&mut span.fields));
        let mut spans = self.spans.lock().unwrap_or_else(PoisonError::into_inner);
        spans.push(span);
        self.next.fetch_add(1, Ordering::SeqCst);
        Id::from_u64(spans.len() as u64)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.spans.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(span) = spans.get_mut(span.into_u64() as usize - 1) {
            values.record(&mut Fields(&mut span.fields));
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let message = fields.remove("message").unwrap_or_default();
        self.events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(CapturedEvent { message, fields });
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// Runs example `name` of the runtime as README says (`cargo run -p dsh-tools --example <name>`,
/// with `features` and then `args`) and returns what it printed; an example that fails fails
/// the test with its output.
pub fn run_example(name: &str, features: &[&str], args: &[&str]) -> String {
    let workspace = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut command = std::process::Command::new(env!("CARGO"));
    command.args(["run", "--quiet", "-p", "dsh-tools", "--example", name]);
    if !features.is_empty() {
        command.args(["--features", &features.join(",")]);
    }
    if !args.is_empty() {
        command.arg("--").args(args);
    }
    let output = command.current_dir(workspace).output().expect("cargo runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "the example failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}
