//! Programmatic tool calling on the provider's side: the provider runs a program the model
//! wrote in its own sandbox, and the program's tool calls come back as ordinary calls naming
//! their caller. This is our Code Mode (`run_code`) run by the provider, and the same rules
//! decide: a scope's Code Mode says whether programs may call tools at all, each tool's
//! `ToolCallers` who may call it.
//!
//! - **Request.** With `ProviderTools::programmatic` on,
//!   for a scope whose programs may call tools, the list is the tools someone may call there
//!   (program-only tools included, `run_code` left out), each with its `allowed_callers`, and
//!   the provider's tool that runs programs: OpenAI Responses' `{"type":
//!   "programmatic_tool_calling"}` (callers `"direct"`, `"programmatic"`), Anthropic's
//!   `{"type": "code_execution_20260120", "name": "code_execution"}` (callers `"direct"`,
//!   `"code_execution_20260120"`).
//! - **Calls.** A call whose `caller` names a program (OpenAI: `{"type": "program",
//!   "caller_id"}`; Anthropic: `{"type": "code_execution_20260120", "tool_id"}`) is read into an
//!   input marked with that program ([`ToolExecutionInput::with_program_caller`]): the registry
//!   treats it as a nested call, so a tool only the model calls is refused before policy as a
//!   `run_code` program's call of it is.
//! - **Results.** OpenAI's `function_call_output` echoes the call's `caller`; Anthropic's
//!   answer to a program's calls is a user message of `tool_result` blocks only (the results'
//!   additional contexts go inside the last one).
//!
//! The program's own items (OpenAI's `program` and `program_output`, Anthropic's
//! `server_tool_use` and its result) are the provider's: the readers skip them, and
//! `assistant_turn` repeats them as the next request must. Anthropic's program runs in a
//! container whose `id` the response gives; the next request names it (`container`), which is
//! the caller's part of the request, as the model and messages are. A stream knows at once that
//! a program's call of a tool only the model calls ends `UNKNOWN_TOOL`.
//!
//! [`ToolExecutionInput::with_program_caller`]: crate::ToolExecutionInput::with_program_caller

use serde_json::Value;

use super::calls::field;
use super::dialect::Dialect;

/// The provider's id of the program that made the call `item` (an OpenAI Responses
/// `function_call` item or an Anthropic `tool_use` block), if a program made it: a direct call's
/// `caller` (`{"type": "direct"}`), or none, names no program.
pub(crate) fn program_caller(dialect: Dialect, item: &Value) -> Option<&str> {
    let caller = field(item, "caller")?;
    let kind = field(caller, "type").and_then(Value::as_str)?;
    let id = match dialect {
        Dialect::OpenAiResponses { .. } if kind == "program" => field(caller, "caller_id"),
        // Every version of Anthropic's code execution tool names its program so.
        Dialect::Anthropic { .. } if kind.starts_with("code_execution_") => {
            field(caller, "tool_id")
        }
        _ => None,
    };
    id.and_then(Value::as_str)
}

// The rest of `providers` reaches Code Mode only through these two: with the feature off they
// are the no-ops of the same shape, and a list is never lowered for programs.
#[cfg(not(feature = "code-mode"))]
pub(crate) use self::off::{finish_request, list};
#[cfg(feature = "code-mode")]
pub(crate) use self::request::{finish_request, list};

/// The seam without Code Mode: no scope lets programs call tools.
#[cfg(not(feature = "code-mode"))]
mod off {
    use std::sync::Arc;

    use serde_json::Value;

    use super::super::report::LoweringReport;
    use super::super::{LoweredTool, LoweredTools, Programs, ProviderTools};
    use super::Dialect;
    use crate::call::definition::ToolSchema;
    use crate::ids::AgentId;
    use crate::registry::ToolScope;

    pub(crate) fn list(
        _: &ProviderTools,
        _: Option<&ToolScope>,
        _: &Arc<[ToolSchema]>,
        _: &[ToolSchema],
        _: Option<&AgentId>,
    ) -> Option<LoweredTools> {
        None
    }

    pub(crate) fn finish_request(
        _: &mut Value,
        _: &[LoweredTool],
        _: Option<&Programs>,
        _: Dialect,
        _: &mut LoweringReport,
    ) {
    }
}

/// What the request says of programs (feature `code-mode`, which has scope modes).
#[cfg(feature = "code-mode")]
mod request {
    use std::collections::HashMap;
    use std::sync::Arc;

    use serde_json::Value;

    use super::super::calls::object;
    use super::super::dialect::Dialect;
    use super::super::report::{Change, LoweringReport};
    use super::super::{LoweredTool, LoweredTools, Programs, ProviderTools};
    use crate::call::definition::ToolSchema;
    use crate::callers::ToolCallers;
    use crate::ids::AgentId;
    use crate::registry::ToolScope;

    /// OpenAI Responses' tool that runs the model's programs.
    const OPENAI_TOOL: &str = "programmatic_tool_calling";
    /// Anthropic's code execution tool whose programs call tools, and the name it is sent under.
    const ANTHROPIC_TOOL: &str = "code_execution_20260120";
    const ANTHROPIC_TOOL_NAME: &str = "code_execution";

    /// Whether `dialect` has programmatic tool calling.
    fn supports(dialect: Dialect) -> bool {
        matches!(
            dialect,
            Dialect::OpenAiResponses { .. } | Dialect::Anthropic { .. }
        )
    }

    /// The `allowed_callers` value for `callers` in `dialect`'s words.
    fn allowed_callers(dialect: Dialect, callers: ToolCallers) -> Value {
        let program = match dialect {
            Dialect::Anthropic { .. } => ANTHROPIC_TOOL,
            _ => "programmatic",
        };
        let mut list = Vec::with_capacity(2);
        if callers.takes_model() {
            list.push(Value::from("direct"));
        }
        if callers.takes_program() {
            list.push(Value::from(program));
        }
        Value::Array(list)
    }

    /// Writes each tool's `allowed_callers` into `request` (the dialect's `tools` array, whose
    /// first entries are `tools` in order) and adds the provider's tool that runs programs. A
    /// tool `callers` does not name (the registry's `tool_search`) is the model's only.
    fn add_to_request(
        request: &mut Value,
        tools: &[LoweredTool],
        callers: &HashMap<String, ToolCallers>,
        dialect: Dialect,
    ) {
        let Value::Array(list) = request else {
            return;
        };
        for (entry, tool) in list.iter_mut().zip(tools) {
            let who = callers
                .get(&tool.name)
                .copied()
                .unwrap_or(ToolCallers::Model);
            if let Value::Object(entry) = entry {
                entry.insert("allowed_callers".to_owned(), allowed_callers(dialect, who));
            }
        }
        let runner = match dialect {
            Dialect::Anthropic { .. } => object([
                ("type", Value::from(ANTHROPIC_TOOL)),
                ("name", Value::from(ANTHROPIC_TOOL_NAME)),
            ]),
            _ => object([("type", Value::from(OPENAI_TOOL))]),
        };
        list.push(runner);
    }

    /// The report's account of what programmatic tool calling changed: the provider runs the
    /// programs, so the registry's `run_code` is not sent.
    fn report_left_out(dialect: Dialect, report: &mut LoweringReport) {
        let runner = match dialect {
            Dialect::Anthropic { .. } => ANTHROPIC_TOOL,
            _ => OPENAI_TOOL,
        };
        report.push(
            crate::registry::RUN_CODE,
            "",
            Change::Rewritten,
            format!(
                "left out: the provider's {runner} runs the model's programs, and each tool is \
                 sent with the callers it takes (allowed_callers)"
            ),
        );
    }

    /// Ends `request` (the dialect's `tools` array, whose first entries are `tools`) for the
    /// provider's programmatic tool calling when the list was lowered for it (`programs`, who
    /// may call each tool), and says so in `report`.
    pub(crate) fn finish_request(
        request: &mut Value,
        tools: &[LoweredTool],
        programs: Option<&Programs>,
        dialect: Dialect,
        report: &mut LoweringReport,
    ) {
        if let Some(programs) = programs {
            add_to_request(request, tools, programs, dialect);
            report_left_out(dialect, report);
        }
    }

    /// The list lowered for the provider's programmatic tool calling, when `provider` asks for
    /// it, the dialect has it and programs may call tools in `layer`; `None` otherwise.
    pub(crate) fn list(
        provider: &ProviderTools,
        layer: Option<&ToolScope>,
        schemas: &Arc<[ToolSchema]>,
        deferred: &[ToolSchema],
        agent: Option<&AgentId>,
    ) -> Option<LoweredTools> {
        if !provider.programmatic || !supports(provider.dialect) {
            return None;
        }
        let tools = layer?.program_tools()?;
        // The registry's `tool_search` stays the model's while tools are deferred.
        let search = schemas
            .iter()
            .filter(|schema| schema.name == crate::registry::TOOL_SEARCH)
            .cloned();
        let mut listed: Vec<ToolSchema> = tools.listed.into_iter().chain(search).collect();
        listed.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        let deferred: Vec<ToolSchema> = deferred
            .iter()
            .filter(|schema| tools.callers.contains_key(&schema.name))
            .cloned()
            .collect();
        let mut lowered = LoweredTools::lower(
            listed.into(),
            &deferred,
            provider.search,
            provider.dialect,
            agent.cloned(),
            Some(&tools.callers),
        );
        lowered.origin = Some(Arc::clone(schemas));
        Some(lowered)
    }
}
