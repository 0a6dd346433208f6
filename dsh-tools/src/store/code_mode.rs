//! Code Mode in the store: each scope's [`CodeMode`] (the nearest scope of the chain that sets
//! one decides, else the global layer's), the registry's [`CodeLimits`], who may call each tool,
//! and what a view makes of them — `run_code` with the declaration of what programs can call,
//! and the calls refused before any policy because their caller may not make them.

use std::sync::Arc;

use serde_json::Value;

use crate::call::definition::ToolSchema;
use crate::call::run_code::{DESCRIPTION, RUN_CODE};
use crate::call::tool_search::TOOL_SEARCH;
use crate::code_mode::{CodeLimits, CodeMode, DeclaredTool, typescript_declarations};
use crate::error::ToolError;
use crate::ids::AgentId;
use crate::store::core::Core;
use crate::store::error::RegistryError;
use crate::store::state::RUN_CODE_ENTRY;
use crate::store::state::ToolEntry;
use crate::store::view::View;

/// The registry-wide part: the global layer's mode and the bounds of every program.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CodeState {
    pub(crate) mode: CodeMode,
    pub(crate) limits: CodeLimits,
}

impl Core {
    /// Sets the Code Mode of `agent`'s scope (`None`: the global layer's; `Some(None)` for a
    /// scope: inherit again).
    pub(crate) fn set_code_mode(
        &self,
        agent: Option<(&AgentId, u64)>,
        mode: Option<CodeMode>,
    ) -> Result<(), RegistryError> {
        self.update(|state, changes| {
            let changed = match agent {
                None => {
                    let mode = mode.unwrap_or_default();
                    std::mem::replace(&mut state.code.mode, mode) != mode
                }
                Some((agent, instance)) => {
                    let scope = state
                        .scope_mut(agent, instance)
                        .ok_or_else(|| RegistryError::scope_disposed(agent.as_str()))?;
                    std::mem::replace(&mut scope.code_mode, mode) != mode
                }
            };
            changes.changed |= changed;
            Ok(())
        })
    }

    /// Sets the bounds of every `run_code` program from now on.
    pub(crate) fn set_code_limits(&self, limits: CodeLimits) {
        let _ = self.update(|state, _changes| {
            state.code.limits = limits;
            Ok::<_, RegistryError>(())
        });
    }
}

impl<'s> View<'s> {
    /// The mode in force here.
    pub(crate) fn code_mode(&self) -> CodeMode {
        self.scopes()
            .iter()
            .rev()
            .find_map(|scope| scope.code_mode)
            .unwrap_or(self.registry().code.mode)
    }

    /// `run_code`'s entry when the mode here has it.
    pub(crate) fn run_code_entry(&self) -> Option<&'static ToolEntry> {
        (self.code_mode() != CodeMode::Native).then_some(&*RUN_CODE_ENTRY)
    }

    /// Why a call of `name` is refused before any policy (`nested`: it has a parent), if it
    /// is: a direct call in Code mode of a tool other than `run_code` and `tool_search`, a
    /// direct call of a tool only programs call, a nested call of a tool only the model
    /// calls, a program starting a program.
    pub(crate) fn refusal(&self, name: &str, nested: bool) -> Option<ToolError> {
        if name == RUN_CODE {
            return (nested && self.run_code_entry().is_some())
                .then(|| ToolError::unknown_tool(name));
        }
        if name == TOOL_SEARCH {
            return None;
        }
        let entry = self.resolve_entry(name)?;
        let mode = self.code_mode();
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

    /// `run_code`'s schema here, its description ending with the declaration of the tools
    /// programs can call (visible, listed or loaded, taking program callers), in name order;
    /// `None` when the mode has no `run_code`.
    pub(crate) fn run_code_schema(&self) -> Option<ToolSchema> {
        let entry = self.run_code_entry()?;
        let deferral = self.deferral();
        let loaded = self.loaded();
        let mut callable: Vec<(&ToolEntry, Option<Value>)> = Vec::new();
        self.for_each_visible(|name, tool| {
            let listed = !deferral.defers(name, tool.deferred) || loaded.contains(name);
            if listed && tool.callers.takes_program() {
                let output = tool
                    .definition
                    .output_schema()
                    .map(|schema| schema.schema().to_json_schema());
                callable.push((tool, output));
            }
        });
        callable.sort_unstable_by(|a, b| a.0.schema.name.cmp(&b.0.schema.name));
        let declared: Vec<DeclaredTool<'_>> = callable
            .iter()
            .map(|(tool, output)| DeclaredTool {
                name: &tool.schema.name,
                description: &tool.schema.description,
                parameters: &tool.schema.parameters,
                output: output.as_ref(),
            })
            .collect();
        let declarations = typescript_declarations(&declared);
        let mut schema = entry.schema.clone();
        schema.description = format!(
            "{DESCRIPTION}\n\nThe tools a program can call:\n```typescript\n{}```",
            declarations
        );
        schema.parameters = Arc::clone(&entry.schema.parameters);
        Some(schema)
    }
}
