#![deny(unused_must_use)]

use dsh_tools::{FnTool, ToolRegistry};

fn main() {
    let registry = ToolRegistry::new();
    let echo = FnTool::builder("echo", "Echo.").handler(|_, _| async { Ok("hi") });
    // Dropping the handle keeps the tool registered: the warning says so.
    registry.register(echo).unwrap();
}
