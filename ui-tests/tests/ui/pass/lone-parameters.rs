//! A lone parameter is the whole argument object only when its type is a struct with named
//! fields; any other shape (an enum, a newtype, a unit struct, a number, a `Vec`, a map), and a
//! documented parameter, is one property. Presenters and classifiers of a tool whose lone
//! parameter is a struct may take the struct itself.
#![deny(warnings)]

use std::collections::HashMap;

use dsh_tools::{ToolArgs, ToolRegistry, tool, present::ToolCallView};

#[derive(ToolArgs)]
enum Mode {
    Fast,
    Slow,
}

#[derive(ToolArgs)]
struct Meters(f64);

#[derive(ToolArgs)]
struct Nothing;

#[derive(ToolArgs)]
enum Shape {
    Dot,
    Circle { radius: f64 },
}

#[derive(ToolArgs)]
struct Options {
    depth: u32,
    path: String,
}

/// Runs in a mode.
#[tool]
async fn run(mode: Mode) -> bool {
    matches!(mode, Mode::Fast)
}

/// Runs in a documented mode.
#[tool]
async fn run_documented(/** How fast to run. */ mode: Mode) -> bool {
    matches!(mode, Mode::Slow)
}

/// Walks a distance.
#[tool]
async fn walk(distance: Meters) -> f64 {
    distance.0
}

/// Does nothing.
#[tool]
async fn idle(nothing: Nothing) {
    let Nothing = nothing;
}

/// Draws a shape.
#[tool]
async fn draw(shape: Shape) -> f64 {
    match shape {
        Shape::Dot => 0.0,
        Shape::Circle { radius } => radius,
    }
}

/// Squares a number.
#[tool]
async fn square(n: u32) -> u64 {
    u64::from(n) * u64::from(n)
}

/// Joins words.
#[tool]
async fn join(words: Vec<String>) -> String {
    words.join(" ")
}

/// Adds up scores.
#[tool]
async fn total(scores: HashMap<String, u32>) -> u32 {
    scores.values().sum()
}

fn card(options: &Options) -> Option<ToolCallView> {
    Some(ToolCallView::Terminal {
        title: options.path.clone(),
        description: None,
        cwd: None,
    })
}

fn shallow(args: &ConfigureToolArgs) -> bool {
    args.depth < 3
}

/// Configures the walk; the arguments are the fields of `Options`.
#[tool(present_call = card, concurrency_safe = shallow)]
async fn configure(options: Options) -> u32 {
    options.depth
}

/// Reads under a path; the card names fields of `Options`.
#[tool(card_title = "Read {path} to depth {depth}", location = path)]
async fn read_tree(options: Options) -> String {
    options.path
}

/// Takes the struct as one documented property instead.
#[tool]
async fn nested(/** Where and how deep. */ options: Options) -> u32 {
    options.depth
}

fn main() {
    let registry = ToolRegistry::new();
    let _ = registry.register(RunTool);
    let _ = registry.register(RunDocumentedTool);
    let _ = registry.register(WalkTool);
    let _ = registry.register(IdleTool);
    let _ = registry.register(DrawTool);
    let _ = registry.register(SquareTool);
    let _ = registry.register(JoinTool);
    let _ = registry.register(TotalTool);
    let _ = registry.register(ConfigureTool);
    let _ = registry.register(ReadTreeTool);
    let _ = registry.register(NestedTool);
}
