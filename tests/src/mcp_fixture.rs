//! The tools the MCP tests serve, shared by the in-process tests and the stdio test server
//! (`src/bin/mcp_test_server.rs`), so a test can compare what a client saw with what the registry
//! shows.
//!
//! - `search_files`: the shared workload's tool, with an object output (structured content).
//! - `slow`: reports progress step by step and counts the calls that saw their signal cancelled;
//!   `cancellations` returns that count.
//! - `media`: content of every kind (text, image, audio, resource link, embedded resource).
//! - `add_tool`: registers a new tool, so a client can watch `list_changed`.
//! - `call_id`: returns its call id.
//! - `forbidden`: denied by a guard.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use dsh_tools::{
    ContentBlock, ToolArgs, ToolDefinition, ToolError, ToolRegistry, ToolRun, Value,
    call::{SharedState, ToolAnnotations, ToolOptions, ToolProgress},
    content::EmbeddedResource,
    json, tool,
};
use serde::Serialize;

use crate::workload::SearchArgs;

/// A client user's answer to an approval question (`decision`: `approve` or `deny`), as an
/// elicitation handler gives it.
pub fn decision(decision: &str) -> dsh_tools::mcp::ElicitationAnswer {
    let mut form = serde_json::Map::new();
    form.insert("decision".to_owned(), Value::from(decision));
    dsh_tools::mcp::ElicitationAnswer::Accept(form)
}

/// The reason the guard gives for `forbidden`.
pub const FORBIDDEN_REASON: &str = "forbidden is not allowed here";

/// The reason a `pre-execute` hook gives when it asks for approval of a call.
pub const ASK_REASON: &str = "it reads the whole workspace";

/// How many `slow` calls saw their signal cancelled.
#[derive(Default)]
pub struct Cancellations(AtomicU64);

impl Cancellations {
    /// The count so far.
    pub fn count(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// What `search_files` found.
#[derive(ToolArgs, Serialize)]
pub struct Found {
    /// The directory searched.
    pub path: String,
    /// The pattern.
    pub pattern: String,
    /// How many matches.
    pub count: u32,
}

fn render_found(found: &Found) -> String {
    format!(
        "{} matches for {:?} under {}",
        found.count, found.pattern, found.path
    )
}

/// Search files under a directory for a pattern.
#[tool(render = render_found, read_only, idempotent, open_world = false, concurrency_safe)]
async fn search_files(args: SearchArgs) -> Found {
    Found {
        count: args.max_results.unwrap_or(7).min(7),
        path: args.path,
        pattern: args.pattern,
    }
}

/// Work in steps, reporting progress after each; stops when cancelled.
#[tool]
async fn slow(
    /// How many steps.
    steps: u32,
    /// How long each step takes, in milliseconds.
    delay_ms: u64,
    run: &ToolRun,
    #[state] cancellations: &Arc<Cancellations>,
) -> Result<String, ToolError> {
    for step in 1..=steps {
        tokio::select! {
            () = run.signal().cancelled() => {
                cancellations.0.fetch_add(1, Ordering::SeqCst);
                return Err(ToolError::new("stopped: the call was cancelled"));
            }
            () = tokio::time::sleep(Duration::from_millis(delay_ms)) => {}
        }
        run.report_progress(ToolProgress {
            total: Some(f64::from(steps)),
            message: Some(format!("step {step}")),
            ..ToolProgress::from(f64::from(step))
        });
    }
    Ok(format!("done after {steps} steps"))
}

/// How many `slow` calls saw their signal cancelled.
#[tool]
async fn cancellations(#[state] seen: &Arc<Cancellations>) -> u64 {
    seen.count()
}

/// Return the call id this call runs under.
#[tool]
async fn call_id(run: &ToolRun) -> String {
    run.execution().call_id().to_owned()
}

/// Do something a guard forbids.
#[tool(destructive)]
async fn forbidden() -> String {
    "this never runs".to_owned()
}

/// A PNG of one pixel, base64.
pub const PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/// The content `media` returns, block for block.
pub fn media_content() -> Vec<ContentBlock> {
    vec![
        ContentBlock::text("one of each"),
        ContentBlock::Image {
            data: PIXEL_PNG.into(),
            mime_type: "image/png".to_owned(),
        },
        ContentBlock::Audio {
            data: "UklGRg==".to_owned(),
            mime_type: "audio/wav".to_owned(),
        },
        ContentBlock::ResourceLink {
            uri: "file:///workspace/README.md".to_owned(),
            name: Some("README.md".to_owned()),
            mime_type: Some("text/markdown".to_owned()),
        },
        ContentBlock::Resource {
            resource: EmbeddedResource::Text {
                uri: "file:///workspace/notes.txt".to_owned(),
                mime_type: Some("text/plain".to_owned()),
                text: "notes".to_owned(),
            },
        },
        ContentBlock::Resource {
            resource: EmbeddedResource::Blob {
                uri: "file:///workspace/data.bin".to_owned(),
                mime_type: None,
                blob: "AAEC".to_owned(),
            },
        },
    ]
}

/// A hand-written tool whose rendering is content of every kind.
struct Media;

impl ToolDefinition for Media {
    fn name(&self) -> &str {
        "media"
    }

    fn description(&self) -> &str {
        "Return content of every kind."
    }

    fn parameters(&self) -> &Value {
        static PARAMETERS: std::sync::LazyLock<Value> = std::sync::LazyLock::new(
            || json!({"type": "object", "properties": {}, "additionalProperties": false}),
        );
        &PARAMETERS
    }

    fn execute<'a>(
        &'a self,
        _arguments: &'a Value,
        _run: &'a ToolRun,
    ) -> dsh_tools::call::BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async { Ok(json!("media")) })
    }

    fn render(
        &self,
        _arguments: &Value,
        _value: &Value,
    ) -> Result<Cow<'static, [ContentBlock]>, ToolError> {
        Ok(media_content().into())
    }

    fn options(&self) -> &ToolOptions {
        static OPTIONS: std::sync::LazyLock<ToolOptions> =
            std::sync::LazyLock::new(|| ToolOptions {
                annotations: ToolAnnotations {
                    title: Some("Media sampler".to_owned()),
                    read_only: Some(true),
                    ..ToolAnnotations::default()
                },
                ..ToolOptions::default()
            });
        &OPTIONS
    }
}

/// A tool that echoes its `text`, registered at run time by `add_tool`.
pub struct Echo {
    name: String,
    description: String,
}

impl Echo {
    /// An echo tool called `name`.
    pub fn named(name: impl Into<String>) -> Self {
        Self::described(name, "Echo the text back.")
    }

    /// An echo tool called `name` with its own description.
    pub fn described(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
        }
    }
}

impl ToolDefinition for Echo {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn parameters(&self) -> &Value {
        static PARAMETERS: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| {
            json!({
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "required": ["text"]
            })
        });
        &PARAMETERS
    }

    fn execute<'a>(
        &'a self,
        arguments: &'a Value,
        _run: &'a ToolRun,
    ) -> dsh_tools::call::BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move { Ok(arguments["text"].clone()) })
    }
}

/// Registers an echo tool named by its argument.
struct AddTool {
    registry: ToolRegistry,
}

impl ToolDefinition for AddTool {
    fn name(&self) -> &str {
        "add_tool"
    }

    fn description(&self) -> &str {
        "Register an echo tool with the given name."
    }

    fn parameters(&self) -> &Value {
        static PARAMETERS: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| {
            json!({
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"]
            })
        });
        &PARAMETERS
    }

    fn execute<'a>(
        &'a self,
        arguments: &'a Value,
        _run: &'a ToolRun,
    ) -> dsh_tools::call::BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            let name = arguments["name"]
                .as_str()
                .ok_or_else(|| ToolError::new("name must be a string"))?;
            // The registration stays for the registry's lifetime.
            let _registration = self
                .registry
                .register(Echo::named(name))
                .map_err(|error| ToolError::new(error.to_string()))?;
            Ok(json!(format!("registered {name}")))
        })
    }
}

/// The registry every MCP test serves, and the cancellation count its `slow` tool keeps.
pub fn registry() -> (ToolRegistry, Arc<Cancellations>) {
    let cancellations = Arc::new(Cancellations::default());
    let mut state = SharedState::default();
    state.insert(Arc::clone(&cancellations));
    let registry = ToolRegistry::with_state(state);
    let _ = registry.register(SearchFilesTool).expect("registers");
    let _ = registry.register(SlowTool).expect("registers");
    let _ = registry.register(CancellationsTool).expect("registers");
    let _ = registry.register(CallIdTool).expect("registers");
    let _ = registry.register(ForbiddenTool).expect("registers");
    let _ = registry.register(Media).expect("registers");
    let _ = registry
        .register(AddTool {
            registry: registry.clone(),
        })
        .expect("registers");
    let _guard =
        registry.guard(|call| (call.name() == "forbidden").then(|| FORBIDDEN_REASON.to_owned()));
    (registry, cancellations)
}

/// The shared workload (`search_files`'s valid and invalid arguments).
pub fn workload() -> Value {
    serde_json::from_str(include_str!("../benches/data/search_files.json"))
        .expect("workload is JSON")
}
