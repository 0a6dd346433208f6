//! What a provider that runs the model's programs on its side (OpenAI's programmatic tool
//! calling, Anthropic's code execution calling tools) is told of a view: the tools someone may
//! call there and, for each, who — the model directly, the provider's programs, or both. The
//! same rules as our own Code Mode decide (`code_mode.rs`): a scope in `Native` mode lets no
//! program call tools; in `Code` mode the model calls tools only from programs; a tool's
//! `ToolCallers` says the rest. The provider views (`providers/`) ask through the facade.

use std::collections::HashMap;

use crate::call::definition::ToolSchema;
use crate::callers::ToolCallers;
use crate::code_mode::CodeMode;
use crate::ids::AgentId;
use crate::store::core::Core;
use crate::store::view::View;

/// The tools a provider's programs and the model may call in one view.
#[derive(Clone, Debug, Default)]
pub(crate) struct ProgramTools {
    /// The listed tools (not deferred, or loaded) someone may call, sorted by name: what the
    /// request lists in place of the model's schemas (`run_code` is not among them: the
    /// provider runs the programs).
    pub(crate) listed: Vec<ToolSchema>,
    /// Who may call each visible tool here, deferred ones included; a tool nobody may call
    /// here is absent.
    pub(crate) callers: HashMap<String, ToolCallers>,
}

impl Core {
    /// The tools a provider's programs and the model may call in the view of `agent` (the
    /// scope `instance`, if given); `None` when programs may call no tool there (`Native`
    /// mode, or no live scope).
    pub(crate) fn program_tools(
        &self,
        agent: Option<&AgentId>,
        instance: Option<u64>,
    ) -> Option<ProgramTools> {
        let state = self.read();
        let view = View::open(&state, agent, instance).ok()?;
        let mode = view.code_mode();
        if mode == CodeMode::Native {
            return None;
        }
        let deferral = view.deferral();
        let loaded = view.loaded();
        let mut tools = ProgramTools::default();
        let guarded = view.has_name_guards();
        view.for_each_visible(|name, entry| {
            // What a name guard denies here is neither listed nor declared callable.
            if !view.shows(guarded, name) {
                return;
            }
            // In Code mode the model calls every tool from a program.
            let direct = entry.callers.takes_model() && mode != CodeMode::Code;
            let callers = match (direct, entry.callers.takes_program()) {
                (true, true) => ToolCallers::Both,
                (true, false) => ToolCallers::Model,
                (false, true) => ToolCallers::Program,
                (false, false) => return,
            };
            tools.callers.insert(name.to_owned(), callers);
            if !deferral.defers(name, entry.deferred) || loaded.contains(name) {
                tools.listed.push(entry.schema.clone());
            }
        });
        tools.listed.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        Some(tools)
    }
}
