//! Golden files of the schemas macro-defined tools publish (`tests/golden/tools/`), so a change
//! to what the model is told shows up in review. `UPDATE_GOLDEN=1` rewrites them.

// The argument types exist for their schemas; not every field is read back.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap, HashSet};

use dsh_tools::{ToolArgs, ToolDefinition, ToolError, Value, tool};
use dsh_tools_tests::golden::assert_golden;
use dsh_tools_tests::workload::SearchArgs;

#[derive(ToolArgs)]
struct ReadFile {
    /// Absolute path of the file.
    path: String,
    /// First line to return (0-based).
    offset: Option<u64>,
    /// How many lines to return.
    #[arg(default = 200, maximum = 10_000)]
    limit: u32,
}

/// Read a text file, or a window of its lines.
#[tool(name = "read_file", kind = "read", read_only, timeout_ms = 5_000)]
async fn read_file(args: ReadFile) -> Result<String, ToolError> {
    Ok(args.path)
}

/// Search files under a directory for a pattern.
#[tool(kind = "search", read_only, concurrency_safe)]
async fn search_files(args: SearchArgs) -> Vec<String> {
    vec![args.path]
}

/// Run a shell command and return its output.
#[tool(kind = "execute", destructive, open_world, timeout_ms = 600_000)]
async fn run_command(
    /// The command line, run by `sh -c`.
    #[arg(min_length = 1)]
    command: String,
    /// Working directory; the workspace root when absent.
    cwd: Option<String>,
    /// Seconds before the command is killed.
    #[arg(default = 60, minimum = 1, maximum = 600)]
    timeout_secs: u32,
) -> String {
    let _ = (cwd, timeout_secs);
    command
}

/// Replace text in a file.
#[tool(kind = "edit", destructive, idempotent, card_title = "Edit {path}", location = path)]
async fn edit_file(
    /// The file to edit.
    path: String,
    /// The exact text to replace.
    old_text: String,
    /// The replacement.
    new_text: String,
    /// Replace every occurrence instead of exactly one.
    #[arg(default = false)]
    replace_all: bool,
) -> u32 {
    let _ = (path, old_text, new_text, replace_all);
    1
}

/// A shape to draw.
#[derive(ToolArgs)]
#[tool_args(tag = "type", rename_all = "snake_case")]
enum Shape {
    /// A circle around the origin.
    Circle {
        /// Radius in pixels.
        #[arg(minimum = 0)]
        radius: f64,
    },
    /// An axis-aligned rectangle.
    Rectangle { width: u32, height: u32 },
    /// A single point.
    Point,
}

/// Draw shapes on the canvas.
#[tool]
async fn draw(
    /// What to draw, back to front.
    #[arg(min_items = 1)]
    shapes: Vec<Shape>,
    /// Fill color as `#rrggbb`.
    #[arg(pattern = "^#[0-9a-f]{6}$", examples = ["#ff8800"])]
    fill: Option<String>,
) -> usize {
    let _ = fill;
    shapes.len()
}

/// Set configuration values.
#[tool]
async fn set_config(
    /// Keys to set, with any JSON value.
    values: HashMap<String, Value>,
    /// Keys to remove.
    #[arg(default = [])]
    remove: Vec<String>,
) -> usize {
    values.len() + remove.len()
}

/// What an edit does with the text it matched.
#[derive(ToolArgs)]
#[tool_args(rename_all = "snake_case")]
enum EditMode {
    /// Replace the matched text.
    Replace,
    /// Insert before the matched text.
    InsertBefore,
    /// Delete the matched text.
    Delete,
}

/// Which occurrence.
#[derive(ToolArgs)]
#[tool_args(rename_all = "lowercase")]
enum Occurrence {
    /// The first one.
    First,
    /// The last one.
    Last,
}

#[derive(ToolArgs)]
struct Anchor {
    /// The text to find.
    text: String,
    /// Which occurrence to use when the text appears more than once.
    occurrence: Option<Occurrence>,
}

/// How to report the change.
#[derive(ToolArgs)]
#[tool_args(tag = "kind", rename_all = "snake_case")]
enum Report {
    /// No report.
    Quiet,
    /// A unified diff.
    Diff {
        /// Lines of context.
        context: u8,
    },
}

/// The mode of new files.
#[derive(ToolArgs)]
struct NewFileMode(EditMode);

/// Apply an edit at an anchor: documented enum fields keep the notes on their values.
#[tool]
async fn apply_edit(
    /// What to do with the matched text.
    mode: EditMode,
    /// What to do next time; `mode` again when absent.
    next_mode: Option<EditMode>,
    /// Modes to try in order when the anchor is missing.
    fallbacks: Vec<EditMode>,
    /// Where the edit applies.
    anchor: Anchor,
    /// How to report the change.
    report: Report,
    /// The mode when the file is read-only: only replacing or deleting.
    #[arg(enum = ["replace", "delete"])]
    read_only_mode: Option<EditMode>,
    /// The mode for files the edit creates.
    new_file_mode: NewFileMode,
) -> usize {
    let _ = (
        mode,
        next_mode,
        anchor,
        report,
        read_only_mode,
        new_file_mode,
    );
    fallbacks.len()
}

/// Schedule a recurring job.
#[tool(kind = "execute")]
async fn schedule_job(
    /// The job's labels, each once.
    labels: HashSet<String>,
    /// Minutes between runs, in steps of five.
    #[arg(multiple_of = 5, exclusive_minimum = 0, maximum = 1_440)]
    every_minutes: u32,
    /// The share of the machine the job may take.
    #[arg(exclusive_minimum = 0, maximum = 1, multiple_of = 0.05)]
    share: Option<f64>,
    /// Hosts to run on, in order, each once.
    #[arg(unique_items, min_items = 1, max_items = 8)]
    hosts: Vec<String>,
    /// Environment variables for the job.
    #[arg(max_properties = 16)]
    env: Option<BTreeMap<String, String>>,
) -> String {
    let _ = (labels, every_minutes, share, env);
    hosts.join(",")
}

fn check(definition: &dyn ToolDefinition) {
    let schema = serde_json::to_value(definition.schema()).expect("serializable");
    assert_golden("tools", definition.name(), &schema);
}

#[test]
fn read_file_schema() {
    check(&ReadFileTool);
}

#[test]
fn search_files_schema() {
    check(&SearchFilesTool);
}

#[test]
fn run_command_schema() {
    check(&RunCommandTool);
}

#[test]
fn edit_file_schema() {
    check(&EditFileTool);
}

#[test]
fn draw_schema() {
    check(&DrawTool);
}

#[test]
fn set_config_schema() {
    check(&SetConfigTool);
}

#[test]
fn apply_edit_schema() {
    check(&ApplyEditTool);
}

#[test]
fn schedule_job_schema() {
    check(&ScheduleJobTool);
}
