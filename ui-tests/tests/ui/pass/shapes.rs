//! Odd but legal shapes: generic args types, newtypes, unit structs, every enum representation,
//! raw identifiers, renames, defaults of every kind, schemars fields, run and state parameters.
#![deny(warnings)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use dsh_tools::{ToolArgs, ToolError, ToolRun, tool};

#[derive(ToolArgs)]
struct Page<T> {
    items: Vec<T>,
    next: Option<String>,
}

#[derive(ToolArgs)]
struct Meters(f64);

#[derive(ToolArgs)]
struct Nothing;

#[derive(ToolArgs, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
    Dot,
}

#[derive(ToolArgs)]
#[tool_args(tag = "op", content = "args")]
enum Command {
    Move(Meters),
    Stop,
    Turn { degrees: i32 },
}

#[derive(ToolArgs)]
enum External {
    Unit,
    Wrapped(String),
    Fields { a: u8, b: Option<bool> },
}

fn default_depth() -> u32 {
    3
}

#[derive(ToolArgs, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Options {
    r#type: String,
    #[serde(default = "default_depth")]
    max_depth: u32,
    #[serde(default)]
    follow: bool,
    #[arg(default = ["*.rs"], min_items = 1)]
    globs: Vec<String>,
    #[arg(enum = ["fast", "slow"], default = "fast")]
    speed: String,
    #[arg(const = 1)]
    version: u8,
    #[arg(pattern = "^[a-z]+$", min_length = 1, max_length = 20, examples = ["abc"])]
    word: Option<String>,
    #[serde(skip)]
    cache: Option<Arc<String>>,
    scores: HashMap<String, f32>,
    sorted: BTreeMap<String, Vec<u16>>,
    unique: HashSet<char>,
    fixed: [i16; 2],
    raw: dsh_tools::Value,
    #[arg(schemars)]
    imported: Option<Imported>,
    shape: Shape,
    #[arg(default = 0.5, minimum = 0, maximum = 1)]
    ratio: f64,
}

#[derive(schemars::JsonSchema, serde::Deserialize)]
struct Imported {
    id: u64,
}

struct Database {
    name: String,
}

/// Uses state and the run context.
#[tool(concurrency_safe, read_only, idempotent, open_world = false, destructive = false)]
async fn inspect(
    run: &ToolRun,
    #[state] db: &Database,
    options: Options,
    page: Page<u8>,
    command: Option<Command>,
    external: Vec<External>,
    nothing: Option<Nothing>,
) -> Result<Shape, ToolError> {
    let _ = (run.execution().call_id(), &db.name, options.cache, page.items, page.next, command, external, nothing);
    Ok(Shape::Dot)
}

fn classify(args: &ClassifiedToolArgs) -> bool {
    args.external.is_empty()
}

/// Classifies concurrency per call.
#[tool(concurrency_safe = classify)]
async fn classified(external: Vec<External>) {
    let _ = external;
}

/// A second tool that takes a whole arguments struct, in the same module as the first.
#[tool]
async fn first_of_two(args: Options) -> u32 {
    args.max_depth
}

/// Another one.
#[tool]
async fn second_of_two(args: Options) -> u32 {
    args.max_depth
}

fn main() {
    let _ = (InspectTool, ClassifiedTool, FirstOfTwoTool, SecondOfTwoTool);
}
