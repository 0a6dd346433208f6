//! Code Mode in the store, when the feature is on: which mode is in force for a chain of scopes,
//! which calls are refused before any policy because their caller may not make them, `run_code`'s
//! entry and its schema with the declaration of what programs can call. The rest of the store
//! reaches it only through `decide.rs`.

use std::sync::{Arc, LazyLock};

use serde_json::Value;

use crate::call::definition::ToolSchema;
use crate::call::run_code::{DESCRIPTION, RUN_CODE};
use crate::call::tool_search::TOOL_SEARCH;
use crate::code_mode::{CodeMode, DeclaredTool, typescript_declarations};
use crate::errors::tool_error::ToolError;
use crate::store::state::{ScopeState, ToolEntry};

/// The mode in force for `chain` (farthest ancestor first): the nearest scope's that sets one,
/// else `global`.
pub(super) fn mode_of(chain: &[&ScopeState], global: CodeMode) -> CodeMode {
    chain
        .iter()
        .rev()
        .find_map(|scope| scope.code_mode)
        .unwrap_or(global)
}

/// Why a call of `name` is refused before any policy (`nested`: it has a parent; `entry`: what
/// the name resolves to), if it is: a direct call in Code mode of a tool other than `run_code`
/// and `tool_search`, a direct call of a tool only programs call, a nested call of a tool only
/// the model calls, a program starting a program. Always inlined: every call asks, and most
/// are answered by its first tests, in fewer instructions than a call and its answer's return.
#[inline(always)]
pub(super) fn refusal(
    name: &str,
    nested: bool,
    mode: CodeMode,
    entry: Option<&ToolEntry>,
) -> Option<ToolError> {
    if name == RUN_CODE {
        return (nested && mode != CodeMode::Native).then(|| ToolError::unknown_tool(name));
    }
    if name == TOOL_SEARCH {
        return None;
    }
    let entry = entry?;
    if nested {
        return (!entry.callers.takes_program()).then(|| ToolError::unknown_tool(name));
    }
    if mode == CodeMode::Code || !entry.callers.takes_model() {
        return Some(if mode == CodeMode::Native {
            ToolError::unknown_tool(name)
        } else {
            ToolError::only_from_programs(name)
        });
    }
    None
}

/// `run_code`'s schema (from its `entry`), its description ending with the declaration of
/// `callable`, the tools programs can call here.
pub(super) fn run_code_schema(entry: &ToolEntry, mut callable: Vec<&ToolEntry>) -> ToolSchema {
    callable.sort_unstable_by(|a, b| a.schema.name.cmp(&b.schema.name));
    let outputs: Vec<Option<Value>> = callable
        .iter()
        .map(|tool| {
            tool.definition
                .output_schema()
                .map(|schema| schema.schema().to_json_schema())
        })
        .collect();
    let declared: Vec<DeclaredTool<'_>> = callable
        .iter()
        .zip(&outputs)
        .map(|(tool, output)| DeclaredTool {
            name: &tool.schema.name,
            description: &tool.schema.description,
            parameters: &tool.schema.parameters,
            output: output.as_ref(),
        })
        .collect();
    let mut schema = entry.schema.clone();
    schema.description = format!(
        "{DESCRIPTION}\n\nThe tools a program can call:\n```typescript\n{}```",
        typescript_declarations(&declared)
    );
    schema.parameters = Arc::clone(&entry.schema.parameters);
    schema
}

/// The built-in `run_code`, present in a view whose Code Mode is `Code` or `Both` (the view
/// lists it with the declaration of what programs can call in its description).
static RUN_CODE_ENTRY: LazyLock<ToolEntry> = LazyLock::new(|| {
    let definition = crate::call::run_code::definition();
    let schema = definition.schema();
    ToolEntry::new(0, definition, schema, false)
});

/// `run_code`'s entry when `mode` has it.
pub(super) fn run_code_entry(mode: CodeMode) -> Option<&'static ToolEntry> {
    (mode != CodeMode::Native).then_some(&*RUN_CODE_ENTRY)
}
