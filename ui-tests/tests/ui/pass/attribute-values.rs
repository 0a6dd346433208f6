//! Every kind of literal `#[arg]` takes, on every kind of field that takes it: the schema builds
//! and shows the values as written.
#![deny(warnings)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use dsh_tools::{ToolArgs, Value, json};

#[derive(ToolArgs)]
enum Mode {
    Fast,
    Slow,
}

// Only described, never converted here.
#[allow(dead_code)]
#[derive(ToolArgs)]
struct Values {
    #[arg(default = "Fast")]
    mode: Mode,
    #[arg(default = ["Fast", "Slow"])]
    modes: Vec<Mode>,
    #[arg(default = 'x')]
    letter: char,
    #[arg(default = 'x')]
    text: String,
    #[arg(default = "/tmp")]
    dir: PathBuf,
    #[arg(default = 1)]
    ratio: f64,
    #[arg(default = -3, minimum = -5)]
    offset: Option<Box<i64>>,
    #[arg(default = [255, 0, 0])]
    rgb: [u8; 3],
    #[arg(default = [])]
    empty: [u8; 0],
    #[arg(default = [["a"], []])]
    nested: Vec<Vec<String>>,
    #[arg(default = ["x"], min_items = 1)]
    tags: BTreeSet<String>,
    #[arg(default = [1, "a", true, 0.5, None])]
    anything: Value,
    #[arg(enum = ["a", "b", None])]
    choice: Option<String>,
    #[arg(const = false)]
    flag: bool,
}

fn main() {
    let schema = Values::schema()
        .unwrap_or_else(|error| panic!("the schema builds: {error}"))
        .to_json_schema();
    let properties = &schema["properties"];
    assert_eq!(properties["mode"]["default"], json!("Fast"));
    assert_eq!(properties["modes"]["default"], json!(["Fast", "Slow"]));
    assert_eq!(properties["text"]["default"], json!("x"));
    assert_eq!(properties["offset"]["default"], json!(-3));
    assert_eq!(properties["rgb"]["default"], json!([255, 0, 0]));
    assert_eq!(properties["nested"]["default"], json!([["a"], []]));
    assert_eq!(properties["anything"]["default"], json!([1, "a", true, 0.5, null]));
    assert_eq!(properties["choice"]["enum"], json!(["a", "b", null]));
}
