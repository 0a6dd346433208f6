//! Every kind of literal `#[arg]` takes, on every kind of field that takes it: the schema builds
//! and shows the values as written.
#![deny(warnings)]

use std::collections::{BTreeMap, BTreeSet, HashMap};
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
    #[arg(default = 10, multiple_of = 5, exclusive_minimum = 0, exclusive_maximum = 100)]
    every: u32,
    #[arg(multiple_of = 0.5, exclusive_maximum = 1e3)]
    halves: Option<Box<f64>>,
    #[arg(unique_items, default = [1, 2])]
    distinct: Vec<u8>,
    #[arg(unique_items)]
    also_a_set: Option<BTreeSet<i8>>,
    #[arg(min_properties = 1, max_properties = 3)]
    labels: HashMap<String, String>,
    #[arg(max_properties = 0)]
    nothing: Option<BTreeMap<String, Value>>,
    #[arg(min_properties = 1)]
    object: serde_json::Map<String, Value>,
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
    assert_eq!(properties["every"]["multipleOf"], json!(5));
    assert_eq!(properties["every"]["exclusiveMaximum"], json!(100));
    assert_eq!(properties["halves"]["multipleOf"], json!(0.5));
    assert_eq!(properties["distinct"]["uniqueItems"], json!(true));
    assert_eq!(properties["also_a_set"]["uniqueItems"], json!(true));
    assert_eq!(properties["labels"]["maxProperties"], json!(3));
    assert_eq!(properties["nothing"]["maxProperties"], json!(0));
    assert_eq!(properties["object"]["minProperties"], json!(1));
}
