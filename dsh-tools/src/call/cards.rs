//! Cards every UI can trust: how the pending card, the progress card and the result card of a
//! call are made from its definition's presenters, so that showing a call never fails and never
//! shows a blank or misleading card.
//!
//! - Pending: the presenter's card; when it returns nothing or panics (logged), a generic card
//!   titled with the definition's title (its options' `annotations.title`) or the tool name, of its
//!   annotated kind, with the raw arguments. An unknown tool gets the same generic card. A blank
//!   title becomes the tool's title, or its name.
//! - Progress: the presenter's progress card, else the pending card unchanged (the progress
//!   itself is shown beside it).
//! - Result: the presenter's card, else a generic card, then made trustworthy: a terminal card
//!   for a call that was not a terminal card becomes generic; a generic card without content
//!   shows the result's raw content (or its value, or a placeholder: never blank); a diff card
//!   without diffs becomes generic, and so does one for a failed call (under the pending title:
//!   nothing was changed); a terminal card without output shows the raw content; a failed call's
//!   card always carries its error text.
//!
//! Presenters are pure functions of the arguments (and the result), so each function here may be
//! called again for the same call (a replayed session, an observer and a UI) with the same card.

use serde_json::Value;

use crate::call::definition::{ToolDefinition, render_value_as_text};
use crate::call::execution::{ToolExecution, ToolExecutionInput};
use crate::content::{ContentBlock, joined_text};
use crate::future::catch_panic;
use crate::ids::AgentId;
use crate::present::{ResultSummary, ToolCallKind, ToolCallRef, ToolCallView, ToolResultView};
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;

/// What a successful result with nothing to show is shown as.
const EMPTY_RESULT: &str = "(empty result)";

impl ToolCallRef for ToolExecutionInput {
    fn tool_name(&self) -> &str {
        &self.name
    }

    fn tool_arguments(&self) -> &Value {
        &self.arguments
    }

    fn tool_agent(&self) -> Option<&AgentId> {
        self.agent()
    }
}

impl ToolCallRef for ToolExecution {
    fn tool_name(&self) -> &str {
        self.name()
    }

    fn tool_arguments(&self) -> &Value {
        self.arguments()
    }

    fn tool_agent(&self) -> Option<&AgentId> {
        self.agent()
    }
}

impl ToolCallView {
    /// The pending card of a call of `name` with `arguments`, as `definition` presents it (`None`:
    /// the tool is unknown). Never fails: see the module docs for the fallbacks.
    pub(crate) fn present(
        definition: Option<&dyn ToolDefinition>,
        name: &str,
        arguments: &Value,
    ) -> Self {
        pending_card(
            definition,
            name,
            arguments,
            "call presenter",
            |definition| definition.present_call(arguments),
        )
    }

    /// The card of a call of `name` the model is still writing, from its `arguments` so far, as
    /// `definition` presents them ([`ToolDefinition::present_partial_call`]); else the generic
    /// card with the raw input so far. Never fails.
    pub(crate) fn present_partial(
        definition: Option<&dyn ToolDefinition>,
        name: &str,
        arguments: &Value,
    ) -> Self {
        pending_card(
            definition,
            name,
            arguments,
            "partial call presenter",
            |definition| definition.present_partial_call(arguments),
        )
    }

    /// The card of a running call after a progress report: the definition's progress card, or
    /// `pending` (the call's pending card) unchanged. Never fails.
    pub(crate) fn present_progress(
        definition: Option<&dyn ToolDefinition>,
        arguments: &Value,
        pending: &ToolCallView,
        progress: &ToolProgress,
    ) -> Self {
        let presented = definition.and_then(|definition| {
            catch_panic(|| definition.present_progress(arguments, progress)).unwrap_or_else(
                |message| {
                    tracing::warn!(
                        tool = definition.name(),
                        "progress presenter panicked: {message}"
                    );
                    None
                },
            )
        });
        match presented {
            Some(card) => with_title(card, || pending.title().to_owned()),
            None => pending.clone(),
        }
    }
}

impl ToolResultView {
    /// The result card of a call whose pending card was `call`, as `definition` presents
    /// `result` (`None`: the tool is unknown). Never fails and is never blank; a failure always
    /// shows its error text (see the module docs).
    pub(crate) fn present(
        definition: Option<&dyn ToolDefinition>,
        arguments: &Value,
        call: &ToolCallView,
        result: &ToolExecutionResult,
    ) -> Self {
        let view = ResultSummary::of(result);
        let presented = definition.and_then(|definition| {
            catch_panic(|| definition.present_result(arguments, &view)).unwrap_or_else(|message| {
                tracing::warn!(
                    tool = definition.name(),
                    "result presenter panicked: {message}"
                );
                None
            })
        });
        let card = presented.unwrap_or(ToolResultView::Generic {
            title: None,
            content: Vec::new(),
        });
        trusted(card, call, result)
    }
}

/// The generic card of a call nothing presented: the tool's title, the annotated kind, the raw
/// arguments.
fn generic_call_card(
    definition: Option<&dyn ToolDefinition>,
    name: &str,
    arguments: &Value,
) -> ToolCallView {
    let kind = definition
        .and_then(|definition| catch_panic(|| definition.options().annotations.kind).ok())
        .flatten();
    ToolCallView::Generic {
        title: tool_title(definition, name),
        kind: kind.unwrap_or(ToolCallKind::Other),
        raw_input: Some(arguments.clone()),
        content: Vec::new(),
        locations: Vec::new(),
    }
}

/// What names a call when its card does not: the tool's title (by default the annotations'
/// own; a blank one or a panic counts as none), else the tool's name.
/// The card `present` makes of a pending call, titled when its title is blank; the generic card
/// when it makes none or panics (logged as a panic of `presenter`).
fn pending_card(
    definition: Option<&dyn ToolDefinition>,
    name: &str,
    arguments: &Value,
    presenter: &str,
    present: impl FnOnce(&dyn ToolDefinition) -> Option<ToolCallView>,
) -> ToolCallView {
    let presented = definition.and_then(|definition| {
        catch_panic(|| present(definition)).unwrap_or_else(|message| {
            tracing::warn!(tool = name, "{presenter} panicked: {message}");
            None
        })
    });
    match presented {
        Some(card) => with_title(card, || tool_title(definition, name)),
        None => generic_call_card(definition, name, arguments),
    }
}

fn tool_title(definition: Option<&dyn ToolDefinition>, name: &str) -> String {
    definition
        .and_then(|definition| {
            catch_panic(|| definition.options().annotations.title.clone())
                .ok()
                .flatten()
        })
        .filter(|title| !title.trim().is_empty())
        .unwrap_or_else(|| name.to_owned())
}

/// `card` with the `fallback` title when its own is blank.
fn with_title(mut card: ToolCallView, fallback: impl FnOnce() -> String) -> ToolCallView {
    let title = match &mut card {
        ToolCallView::Generic { title, .. }
        | ToolCallView::Terminal { title, .. }
        | ToolCallView::Diff { title, .. } => title,
    };
    if title.trim().is_empty() {
        *title = fallback();
    }
    card
}

/// `card` made safe to show for `result` of a call shown as `call`.
fn trusted(
    card: ToolResultView,
    call: &ToolCallView,
    result: &ToolExecutionResult,
) -> ToolResultView {
    let error_text = result.error().map(|error| error.model_text());
    let card = match card {
        ToolResultView::Terminal { title, .. }
            if !matches!(call, ToolCallView::Terminal { .. }) =>
        {
            ToolResultView::Generic {
                title,
                content: Vec::new(),
            }
        }
        // A failed call did not make its change: its diff (and a title written for it) would say
        // otherwise.
        ToolResultView::Diff { .. } if error_text.is_some() => ToolResultView::Generic {
            title: None,
            content: Vec::new(),
        },
        ToolResultView::Diff { title, diffs } if diffs.is_empty() => ToolResultView::Generic {
            title,
            content: Vec::new(),
        },
        card => card,
    };
    match card {
        ToolResultView::Generic { title, content } => {
            let mut content = if content.is_empty() {
                raw_content(result)
            } else {
                content
            };
            if let Some(error_text) = &error_text
                && !joined_text(&content).contains(error_text.as_str())
            {
                content.insert(0, ContentBlock::text(error_text.clone()));
            }
            ToolResultView::Generic { title, content }
        }
        ToolResultView::Terminal {
            title,
            output,
            exit_code,
            signal,
        } => {
            let mut output = output.unwrap_or_else(|| joined_text(result.content()));
            if let Some(error_text) = &error_text
                && !output.contains(error_text.as_str())
            {
                if !output.is_empty() && !output.ends_with('\n') {
                    output.push('\n');
                }
                output.push_str(error_text);
            }
            ToolResultView::Terminal {
                title,
                output: Some(output),
                exit_code,
                signal,
            }
        }
        diff @ ToolResultView::Diff { .. } => diff,
    }
}

/// What the model saw, or when that is empty, the value (a failure's error text is added by the
/// caller); never nothing.
fn raw_content(result: &ToolExecutionResult) -> Vec<ContentBlock> {
    if !result.content().is_empty() {
        return result.content().to_vec();
    }
    let text = match result.value() {
        Some(value) => render_value_as_text(value)
            .as_text()
            .map(str::to_owned)
            .unwrap_or_default(),
        None => String::new(),
    };
    if text.is_empty() && result.error().is_none() {
        return vec![ContentBlock::text(EMPTY_RESULT)];
    }
    if text.is_empty() {
        return Vec::new();
    }
    vec![ContentBlock::text(text)]
}
