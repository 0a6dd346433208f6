//! The tool corpus the provider views are checked on: the quickstart's tools plus adversarial
//! ones — optional nested objects, maps (nested, optional, in lists), `Vec<Option<T>>`, integer enums, patterns, defaults,
//! a tagged enum at the root, recursive types, 100-character names, names that collide after
//! mapping, a leading digit, untyped values and keywords no provider takes.

// Argument types exist for their schemas; not every field is read back.
#![allow(dead_code)]

use std::collections::HashMap;

use dsh_tools::{FnTool, ToolArgs, ToolRegistry, Value, json, tool};

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::coding_tools::{self, Workspace};

/// A fresh scratch workspace of its own (tests run in parallel, and some edit files).
///
/// Named after the test binary and a counter, and emptied before use, so repeated runs reuse the
/// same few directories instead of leaving one behind per run.
pub fn scratch_workspace() -> Workspace {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let binary = std::env::current_exe()
        .ok()
        .and_then(|path| {
            path.file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "tests".to_owned());
    let root = std::env::temp_dir()
        .join("dsh-tools-tests")
        .join(format!("{binary}-{}", NEXT.fetch_add(1, Ordering::Relaxed)));
    // A leftover of an earlier run may hold edited files.
    let _ = std::fs::remove_dir_all(&root);
    coding_tools::fill_workspace(&root).expect("a scratch workspace");
    Workspace { root }
}

/// A postal address.
#[derive(ToolArgs)]
struct Address {
    /// Street and number.
    street: String,
    /// Postal code, if known.
    #[arg(pattern = "^[0-9]{5}$")]
    zip: Option<String>,
}

/// Where to send a copy.
#[derive(ToolArgs)]
#[tool_args(tag = "kind", rename_all = "snake_case")]
enum Target {
    /// A file in the workspace.
    File {
        /// Path of the file.
        path: String,
    },
    /// A web hook.
    Hook {
        /// The URL to post to.
        url: String,
        /// Retries on failure.
        #[arg(default = 3, maximum = 10)]
        retries: u8,
    },
}

/// Register a contact: optional nested objects, lists of optional values, integer enums,
/// patterns, defaults and a tagged enum inside the arguments.
#[tool]
async fn register_contact(
    /// Full name.
    #[arg(min_length = 1, max_length = 200)]
    name: String,
    /// Lowercase handle.
    #[arg(pattern = "^[a-z][a-z0-9_]*$")]
    handle: String,
    /// Home address.
    address: Option<Address>,
    /// Phone numbers; unknown ones as null.
    phones: Vec<Option<String>>,
    /// Priority level.
    #[arg(enum = [1, 2, 3])]
    level: u8,
    /// How many reminders to send.
    #[arg(default = 2, minimum = 0, maximum = 5)]
    reminders: u32,
    /// Where to send a copy.
    copy_to: Option<Target>,
) -> String {
    let copy = match copy_to {
        Some(Target::File { path }) => format!("file {path}"),
        Some(Target::Hook { url, retries }) => format!("hook {url} ({retries} retries)"),
        None => "none".to_owned(),
    };
    let street = address.map(|address| address.street).unwrap_or_default();
    format!(
        "{name} @{handle} level {level}, {} phone(s), {reminders} reminder(s), street {street:?}, copy: {copy}",
        phones.len()
    )
}

/// Attach labels to a file: a map of free keys.
#[tool]
async fn set_labels(
    /// The file.
    path: String,
    /// Label name to value.
    labels: HashMap<String, String>,
) -> String {
    format!("{path}: {} label(s)", labels.len())
}

/// One service to deploy.
#[derive(ToolArgs)]
struct Deployment {
    /// The image to run.
    image: String,
    /// Environment variables.
    env: HashMap<String, String>,
    /// The port, if it listens.
    port: Option<u16>,
}

/// Deploy services: maps nested in a map's values, an optional map, a list of maps.
#[tool]
async fn deploy_services(
    /// Services by name.
    services: HashMap<String, Deployment>,
    /// Labels, if any.
    labels: Option<HashMap<String, String>>,
    /// Weights per group.
    weights: Vec<HashMap<String, u32>>,
) -> String {
    let variables: usize = services.values().map(|service| service.env.len()).sum();
    format!(
        "{} service(s), {variables} variable(s), {} label(s), {} group(s)",
        services.len(),
        labels.map_or(0, |labels| labels.len()),
        weights.len()
    )
}

/// Store any JSON document: an untyped value.
#[tool]
async fn store_document(
    /// Document key.
    key: String,
    /// The document, any JSON.
    document: Value,
) -> String {
    format!("{key}: {document}")
}

/// A raw tool: a schema shown as is and not validated here, as an MCP import has it (the
/// server checks its own calls).
fn raw_tool(name: &str, description: &str, parameters: Value) -> FnTool {
    FnTool::builder(name, description)
        .raw_parameters(parameters)
        .handler(|arguments, _| async move { Ok(json!({"received": arguments})) })
}

/// A tagged union at the root (legal in MCP, rejected at the root by Anthropic).
fn draw_shape() -> FnTool {
    raw_tool(
        "draw_shape",
        "Draw one shape.",
        json!({
            "oneOf": [
                {
                    "description": "A circle.",
                    "type": "object",
                    "properties": {
                        "kind": {"type": "string", "const": "circle"},
                        "radius": {"type": "number", "minimum": 0}
                    },
                    "required": ["kind", "radius"],
                    "additionalProperties": false
                },
                {
                    "description": "A rectangle.",
                    "type": "object",
                    "properties": {
                        "kind": {"type": "string", "const": "rect"},
                        "width": {"type": "integer", "minimum": 1},
                        "height": {"type": "integer", "minimum": 1}
                    },
                    "required": ["kind", "width", "height"],
                    "additionalProperties": false
                }
            ]
        }),
    )
}

/// A recursive type through `$defs` (an outline of nested sections).
fn write_outline() -> FnTool {
    raw_tool(
        "write_outline",
        "Write a document outline of nested sections.",
        json!({
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "sections": {"type": "array", "items": {"$ref": "#/$defs/Section"}}
            },
            "required": ["title", "sections"],
            "additionalProperties": false,
            "$defs": {
                "Section": {
                    "type": "object",
                    "properties": {
                        "heading": {"type": "string"},
                        "note": {"type": "string"},
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Section"}}
                    },
                    "required": ["heading", "children"],
                    "additionalProperties": false
                }
            }
        }),
    )
}

/// Keywords the engine does not enforce and several providers do not take (a raw import
/// that the registry hands over unvalidated).
fn schedule_job() -> FnTool {
    raw_tool(
        "schedule_job",
        "Schedule a job.",
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "when": {"type": "string", "format": "date-time", "examples": ["2026-01-01T00:00:00Z"]},
                "contact": {"type": "string", "format": "email"},
                "every_minutes": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 5},
                "priority": {"const": "high"},
                "window": {
                    "type": "array",
                    "prefixItems": [{"type": "string"}, {"type": "string"}],
                    "items": false,
                    "minItems": 2
                },
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 8},
                "retry": {
                    "allOf": [
                        {"type": "object", "properties": {"times": {"type": "integer"}}, "required": ["times"]},
                        {"properties": {"backoff_ms": {"type": "integer", "default": 100}}}
                    ]
                },
                "label": {"$ref": "#/$defs/Label", "description": "A label for the job."}
            },
            "required": ["when"],
            "$defs": {
                "Label": {"type": "string", "minLength": 1, "maxLength": 40, "deprecated": false}
            }
        }),
    )
}

/// A raw tool with an untyped array and an open root.
fn run_pipeline() -> FnTool {
    raw_tool(
        "run_pipeline",
        "Run a pipeline of steps.",
        json!({
            "type": "object",
            "properties": {
                "steps": {"type": "array", "description": "Steps, in any shape."}
            },
            "required": ["steps"]
        }),
    )
}

/// A tool taking one string, under `name`.
fn named_tool(name: &str) -> FnTool {
    raw_tool(
        name,
        "Read an entry by key.",
        json!({
            "type": "object",
            "properties": {"key": {"type": "string"}},
            "required": ["key"],
            "additionalProperties": false
        }),
    )
}

/// The 100-character name of the corpus.
pub fn long_name() -> String {
    let mut name = String::from("summarize_the_quarterly_revenue_report_for_every_region_and_");
    while name.len() < 100 {
        name.push_str("segment_");
    }
    name.truncate(100);
    name
}

/// The names in the corpus that collide once dots become underscores.
pub const COLLIDING_NAMES: [&str; 2] = ["mcp.fs.read", "mcp_fs_read"];

/// The corpus name Gemini cannot take as it is (a leading digit).
pub const LEADING_DIGIT_NAME: &str = "3d_render";

/// Registers the adversarial tools (not the quickstart's) in `registry`.
pub fn register_adversarial(registry: &ToolRegistry) {
    let fresh = "the corpus names are distinct";
    // The registrations last as long as the registry.
    let _ = registry.register(RegisterContactTool).expect(fresh);
    let _ = registry.register(SetLabelsTool).expect(fresh);
    let _ = registry.register(DeployServicesTool).expect(fresh);
    let _ = registry.register(StoreDocumentTool).expect(fresh);
    let _ = registry.register(draw_shape()).expect(fresh);
    let _ = registry.register(write_outline()).expect(fresh);
    let _ = registry.register(schedule_job()).expect(fresh);
    let _ = registry.register(run_pipeline()).expect(fresh);
    let _ = registry.register(named_tool(&long_name())).expect(fresh);
    for name in COLLIDING_NAMES {
        let _ = registry.register(named_tool(name)).expect(fresh);
    }
    let _ = registry
        .register(named_tool(LEADING_DIGIT_NAME))
        .expect(fresh);
}

/// The whole corpus: the quickstart's tools over `workspace`, plus the adversarial ones.
pub fn corpus_registry(workspace: Workspace) -> ToolRegistry {
    let registry = coding_tools::registry(workspace).expect("the quickstart's tools register");
    register_adversarial(&registry);
    registry
}
