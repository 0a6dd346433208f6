//! Provider adapters: one registry speaking OpenAI (Chat Completions and Responses), Anthropic
//! Messages, Gemini and DeepSeek, with nothing lost silently.
//!
//! A model loop sends the tool list with a request, reads the tool calls from the response, runs
//! them and sends the results back. This module does the three provider-specific parts with
//! plain `serde_json` values (bring your own HTTP client):
//!
//! - **Tool lists.** [`ProviderTools::tools`] lowers the registry's schemas for a [`Dialect`]
//!   (provider and mode) into [`LoweredTools`]: the request's `tools` value, a
//!   [`LoweringReport`] of every change per tool and JSON path (moved into the description,
//!   dropped, made nullable, rewritten, strict fallbacks, renamed tools) and each tool's
//!   [`provider_name`](LoweredTool::provider_name), mapped when the provider could not take its
//!   name. Lowered lists are cached per registry snapshot.
//! - **Calls in.** [`LoweredTools::parse_response`] reads a response into [`ToolCalls`]: the
//!   calls in the model's order and the [`ToolExecutionInput`]s to run, names mapped back, and
//!   what the strict view changed undone before validation: the `null`s that stand for absent
//!   removed, the `{key, value}` pairs it sent for a map (`HashMap<String, T>`) made the object
//!   again (a key given twice is `INVALID_ARGS`).
//! - **Results out.** [`LoweredTools::format_results`] / [`LoweredTools::format_batch`] turn
//!   results into the provider's next-turn messages, additional contexts after all results.
//!
//! - **Programs run by the provider.** With `ProviderTools::programmatic` (feature
//!   `code-mode`), OpenAI Responses and Anthropic run the model's programs themselves; the
//!   programs' calls are read with their caller ([`ToolCall::program_caller`](ToolCall)) and run as a
//!   `run_code` program's nested calls would.
//!
//! The registry keeps validating every call against the tool's canonical schema, so what a view
//! could not express is still enforced (a [`LoweringReport`]'s text ends by saying so).
//!
//! ```
//! # use dsh_tools::{FnTool, ToolRegistry, json, schema::Schema};
//! use dsh_tools::providers::{Dialect, ProviderTools};
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! # let registry = ToolRegistry::new();
//! # let _ = registry.register(FnTool::builder("echo", "Echo the text back.")
//! #     .arguments(Schema::object().required("text", Schema::string()))
//! #     .handler(|arguments, _| async move { Ok(arguments["text"].clone()) })).unwrap();
//! let openai = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: true });
//! let tools = openai.tools(None);
//! let request = json!({"model": "gpt-4.1", "messages": [], "tools": tools.request_tools});
//! # let _ = request;
//! // … send it; the model answers:
//! let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
//!     {"id": "call_1", "type": "function",
//!      "function": {"name": "echo", "arguments": "{\"text\":\"hi\"}"}}]}}]});
//! let mut calls = tools.parse_response(&response).unwrap();
//! let outcome = registry.execute_batch(std::mem::take(&mut calls.inputs), 4).await;
//! let messages = tools.format_batch(&calls.calls, &outcome).unwrap();
//! assert_eq!(messages[0], json!({"role": "tool", "tool_call_id": "call_1", "content": "hi"}));
//! # }
//! ```
//!
//! | file | owns |
//! |---|---|
//! | `dialect.rs` | [`Dialect`] and each dialect's keyword rules |
//! | `lower.rs` | the lowering passes, one tool at a time |
//! | `nulls.rs` | where a strict view's `null` means "absent", and removing it |
//! | `maps.rs` | where a strict view sent a map as `{key, value}` pairs, and mapping them back |
//! | `names.rs` | each provider's name rule, and the map of names a list renamed |
//! | `report.rs` | [`LoweringReport`] |
//! | `calls.rs` | [`ToolCalls`], [`ProviderError`] and shared content helpers |
//! | `openai.rs`, `anthropic.rs`, `gemini.rs`, `deepseek.rs` | each provider's envelope, response parsing and result messages |
//! | `programmatic.rs` | programmatic tool calling: the provider runs the model's programs ([`ProviderTools::programmatic`]) |
//! | `prompt.rs` | the tool catalog as system-prompt text, and reading calls back from text |
//! | `stream.rs`, `stream/` | [`stream::ToolCallStream`]: tool calls read from a provider's stream events |

mod anthropic;
mod calls;
mod deepseek;
mod dialect;
mod gemini;
mod lower;
mod maps;
mod names;
mod nulls;
mod openai;
mod programmatic;
mod prompt;
mod report;
pub mod stream;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

pub use self::calls::{ProviderError, ToolCall, ToolCalls};
pub use self::dialect::{Dialect, GeminiSchema};
pub(crate) use self::names::NameMap;
#[doc(hidden)]
pub use self::names::NameRule;
pub use self::prompt::{parse_prompt_calls, render_system_prompt};
pub use self::report::{Change, LoweringReport, ReportEntry};

use self::lower::{LoweredSchema, lower_non_strict, lower_tool};
use self::maps::ToolMapPlan;
use self::nulls::ToolNullPlan;
use crate::call::definition::ToolSchema;
use crate::call::execution::ToolExecutionInput;
use crate::ids::AgentId;
use crate::registry::BatchOutcome;
use crate::registry::{ToolRegistry, ToolScope};
use crate::result::ToolExecutionResult;

/// One tool as a provider sees it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LoweredTool {
    /// The canonical (registered) name.
    pub name: String,
    /// The name the provider sees.
    pub provider_name: String,
    /// The description.
    pub description: String,
    /// The lowered parameter schema.
    pub parameters: Value,
    /// Whether the tool is sent strict.
    pub strict: bool,
    /// Whether the tool is sent deferred, for the provider's native tool search
    /// (`defer_loading: true`).
    pub deferred: bool,
    /// The input examples sent with it (Anthropic's `input_examples`; empty for other
    /// providers): the tool's own, less any the lowered schema does not accept (reported).
    pub input_examples: Vec<Value>,
    /// Whether it is sent with Anthropic's `eager_input_streaming: true` (the tool's
    /// [`RequestSettings`](crate::call::RequestSettings); always `false` for other providers).
    pub eager_input_streaming: bool,
}

/// Where a view's deferred tools are searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolSearchForm {
    /// The provider's own tool search where it has one (Anthropic's
    /// `tool_search_tool_bm25_20251119`, OpenAI Responses' hosted `tool_search`): every deferred
    /// tool is sent with `defer_loading: true`, the registry's `tool_search` is not sent, and
    /// what the provider's search loads is read back from the response
    /// ([`ToolCalls::loaded_tools`]). Elsewhere, as [`Registry`](Self::Registry).
    #[default]
    Native,
    /// The registry's `tool_search` tool, as listed by `schemas()`, for every provider.
    Registry,
    /// A search of the client's own that the provider knows of, where it has one: on
    /// Anthropic (its "custom tool search"), every deferred tool is sent with
    /// `defer_loading: true` beside the registry's `tool_search`, and what a `tool_search` call
    /// found goes back as `tool_reference` blocks, which load those tools into the model's
    /// context ([`LoweredTools::format_results`]). Elsewhere, as [`Registry`](Self::Registry).
    Client,
}

/// A tool list lowered for one dialect: the request's `tools`, the report of what changed, the
/// name map, and what parsing responses and formatting results for this list needs.
///
/// What the lowering made is read from its public fields; `#[non_exhaustive]`: only
/// [`new`](Self::new) and [`ProviderTools::tools`] make one.
#[derive(Debug)]
#[non_exhaustive]
pub struct LoweredTools {
    /// The dialect this list was lowered for.
    pub dialect: Dialect,
    agent: Option<AgentId>,
    /// The schemas this list was lowered from.
    pub source: Arc<[ToolSchema]>,
    /// The deferred tools the list's scope can call without listing them, canonical schemas.
    deferred: Vec<ToolSchema>,
    /// The tools as the provider sees them: sorted by canonical name, then (sent for a native
    /// tool search) the deferred tools, sorted by canonical name.
    pub tools: Vec<LoweredTool>,
    /// The request's `tools` value (for Gemini, `[{"functionDeclarations": […]}]`).
    pub request_tools: Value,
    /// Every change the lowering made.
    pub report: LoweringReport,
    /// Canonical ↔ provider names (each tool's are its [`LoweredTool::provider_name`]).
    pub(crate) names: NameMap,
    nulls: HashMap<String, ToolNullPlan>,
    maps: HashMap<String, ToolMapPlan>,
    /// Where the provider's native searches are loaded (set by [`ProviderTools`]).
    registry: Option<ToolRegistry>,
    /// Whether the registry's `tool_search` answers with `tool_reference` blocks
    /// ([`ToolSearchForm::Client`] on Anthropic).
    references: bool,
    /// The registry's schema list this list was made for, when `source` is another list (a
    /// programmatic list): what [`ProviderTools`]' cache compares.
    origin: Option<Arc<[ToolSchema]>>,
    /// Who may call each tool, for a list sent for the provider's programmatic tool calling.
    programs: Option<Programs>,
}

/// Whether `dialect` has a tool search of its own.
fn has_native_search(dialect: Dialect) -> bool {
    matches!(
        dialect,
        Dialect::Anthropic { .. } | Dialect::OpenAiResponses { .. }
    )
}

impl LoweredTools {
    /// Lowers `schemas` (as [`ToolScope::schemas`] returns them) for `dialect`; parsed calls
    /// will run on behalf of `agent`.
    pub fn new(schemas: Arc<[ToolSchema]>, dialect: Dialect, agent: Option<AgentId>) -> Self {
        Self::with_deferred(schemas, &[], ToolSearchForm::Registry, dialect, agent)
    }

    /// [`new`](Self::new), with the deferred tools the list's scope can call
    /// ([`ToolScope::deferred_schemas`]) searched as `form` says: natively, the deferred
    /// tools are sent with `defer_loading: true` after the others and the registry's
    /// `tool_search` is left out; otherwise `schemas` is sent as it is (with `tool_search`). The
    /// report says which form was used. In either form a call of a deferred tool is read as a
    /// call of a tool the scope has, listed or not (a stream never reports it unknown). Users
    /// lower a scope with its deferred tools through [`ProviderTools`], whose
    /// [`tool_search_form`](ProviderTools::tool_search_form) picks `form`.
    pub(crate) fn with_deferred(
        schemas: Arc<[ToolSchema]>,
        deferred: &[ToolSchema],
        form: ToolSearchForm,
        dialect: Dialect,
        agent: Option<AgentId>,
    ) -> Self {
        Self::lower(schemas, deferred, form, dialect, agent, None)
    }

    /// [`with_deferred`](Self::with_deferred); with `programs` (who may call each tool), for
    /// the provider's programmatic tool calling (`programmatic.rs`).
    fn lower(
        schemas: Arc<[ToolSchema]>,
        deferred: &[ToolSchema],
        form: ToolSearchForm,
        dialect: Dialect,
        agent: Option<AgentId>,
        programs: Option<&Programs>,
    ) -> Self {
        let native =
            form == ToolSearchForm::Native && has_native_search(dialect) && !deferred.is_empty();
        let references = form == ToolSearchForm::Client
            && matches!(dialect, Dialect::Anthropic { .. })
            && !deferred.is_empty();
        let deferred_names: std::collections::HashSet<&str> =
            deferred.iter().map(|schema| schema.name.as_str()).collect();
        let listed: Vec<(&ToolSchema, bool)> = if native || references {
            schemas
                .iter()
                .filter(|schema| {
                    // A native search replaces the registry's; a client search is it.
                    (references || schema.name != crate::registry::TOOL_SEARCH)
                        && !deferred_names.contains(schema.name.as_str())
                })
                .map(|schema| (schema, false))
                .chain(deferred.iter().map(|schema| (schema, true)))
                .collect()
        } else {
            schemas.iter().map(|schema| (schema, false)).collect()
        };
        let names = NameMap::build(
            dialect.name_rule(),
            listed.iter().map(|(schema, _)| schema.name.as_str()),
        );
        let mut report = LoweringReport::default();
        report_search_form(native, references, deferred.len(), dialect, &mut report);
        let mut tools = Vec::with_capacity(listed.len());
        let mut nulls = HashMap::new();
        let mut maps = HashMap::new();
        let mut budget = anthropic::StrictBudget::default();
        for (schema, deferred) in listed {
            let provider_name = names.provider_name(&schema.name).to_owned();
            if provider_name != schema.name {
                report.push(
                    &schema.name,
                    "",
                    Change::Renamed,
                    format!(
                        "sent as {provider_name:?} (the provider's names must match {}); \
                         mapped back when the model calls it",
                        dialect.name_rule().pattern()
                    ),
                );
            }
            let parameters: &Value = &schema.parameters;
            let mut tool_report = LoweringReport::default();
            // The tool's own setting wins over the dialect's mode.
            let tool_dialect = match schema.settings.strict {
                Some(strict) => dialect.with_strict(strict),
                None => dialect,
            };
            let mut lowered = lower_tool(&schema.name, parameters, tool_dialect, &mut tool_report);
            if lowered.strict
                && matches!(dialect, Dialect::Anthropic { .. })
                && let Err(reason) = budget.admit(&lowered.parameters)
            {
                // What the strict attempt changed was not sent: report the view that is.
                tool_report = LoweringReport::default();
                tool_report.push(&schema.name, "", Change::StrictFallback, reason);
                lowered =
                    lower_non_strict(&schema.name, parameters, tool_dialect, &mut tool_report);
            }
            report.entries.append(&mut tool_report.entries);
            if let Dialect::Gemini {
                schema: GeminiSchema::OpenApi,
            } = dialect
            {
                gemini::check_property_names(&schema.name, &lowered.parameters, &mut report);
            }
            let LoweredSchema {
                parameters,
                strict,
                nulls: plan,
                maps: pairs,
            } = lowered;
            let map_plan = ToolMapPlan::build(&parameters, &pairs);
            if let Some(plan) = plan {
                nulls.insert(schema.name.clone(), plan);
            }
            let input_examples = if matches!(dialect, Dialect::Anthropic { .. }) {
                examples_for(schema, &parameters, map_plan.as_ref(), &mut report)
            } else {
                Vec::new()
            };
            if let Some(plan) = map_plan {
                maps.insert(schema.name.clone(), plan);
            }
            if deferred {
                report.push(
                    &schema.name,
                    "",
                    Change::Deferred,
                    "sent with defer_loading: the provider's tool search loads it when the \
                     model asks",
                );
            }
            let eager_input_streaming = matches!(dialect, Dialect::Anthropic { .. })
                && schema.settings.eager_input_streaming;
            tools.push(LoweredTool {
                name: schema.name.clone(),
                provider_name,
                description: schema.description.clone(),
                parameters,
                strict,
                deferred,
                input_examples,
                eager_input_streaming,
            });
        }
        openai::check_tool_count(dialect, tools.len(), &mut report);
        if let Dialect::DeepSeek { .. } = dialect {
            deepseek::report_strict(&tools, &mut report);
        }
        let mut request = match dialect {
            Dialect::OpenAiChat { strict } | Dialect::DeepSeek { strict } => {
                openai::chat_tools(&tools, strict)
            }
            Dialect::OpenAiResponses { .. } => openai::responses_tools(&tools),
            Dialect::Anthropic { .. } => anthropic::tools(&tools, native),
            Dialect::Gemini { schema } => gemini::tools(&tools, schema),
        };
        programmatic::finish_request(&mut request, &tools, programs, dialect, &mut report);
        Self {
            dialect,
            agent,
            source: schemas,
            deferred: deferred.to_vec(),
            tools,
            request_tools: request,
            report,
            names,
            nulls,
            maps,
            registry: None,
            references,
            origin: None,
            programs: programs.cloned(),
        }
    }

    /// Reads the tool calls of a provider response, in the model's order, names mapped back.
    /// A response with no tool calls yields none. Arguments that are not valid JSON still make
    /// an input, which ends as `INVALID_ARGS`; a response that is not the provider's shape (a
    /// call without an id or a name) is an error, and so is a Gemini candidate that ended because
    /// the call the model wrote is invalid (`finishReason: MALFORMED_FUNCTION_CALL` or
    /// `UNEXPECTED_TOOL_CALL`: no call, and not a text answer either).
    ///
    /// Accepted: OpenAI Chat and DeepSeek — a completion (`choices[0].message`) or the message
    /// itself; OpenAI Responses — a response (`output`) or its item list; Anthropic — a message
    /// (`content`) or its block list; Gemini — a `generateContent` response
    /// (`candidates[0].content`) or the content itself.
    ///
    /// What a provider's native tool search loaded is in [`ToolCalls::loaded_tools`]; a list
    /// from [`ProviderTools`] also loads it into the agent's scope.
    pub fn parse_response(&self, response: &Value) -> Result<ToolCalls, ProviderError> {
        let mut calls = self.parse_calls(response)?;
        // Most responses load nothing: skip the scope's bookkeeping for them.
        if !calls.loaded_tools.is_empty() {
            let loaded = self.load_found(&calls.loaded_tools);
            calls.set_loaded(loaded);
        }
        Ok(calls)
    }

    /// The model's turn in `response` as the next request must repeat it, opaque fields
    /// included: append the values to the request's `messages` / `input` / `contents`, then the
    /// [`format_results`](Self::format_results) messages. OpenAI Chat — the assistant message
    /// (content, refusal, tool calls, an audio reply's id); DeepSeek — the same with its
    /// `reasoning_content`, which thinking mode wants back after a tool call; OpenAI Responses —
    /// every `output` item, reasoning items (ids, `encrypted_content`) included; Anthropic — one
    /// assistant message of every block, thinking blocks with their signatures; Gemini — the
    /// candidate's model content, each part's `thoughtSignature` kept on its part. Nothing for a
    /// turn with no content. A stream gives the same from
    /// [`ToolCallStream::assistant_turn`](stream::ToolCallStream::assistant_turn).
    pub fn assistant_turn(&self, response: &Value) -> Result<Vec<Value>, ProviderError> {
        match self.dialect {
            Dialect::OpenAiChat { .. } => openai::chat_assistant(response, false),
            Dialect::DeepSeek { .. } => openai::chat_assistant(response, true),
            Dialect::OpenAiResponses { .. } => openai::responses_assistant(response),
            Dialect::Anthropic { .. } => anthropic::assistant(response),
            Dialect::Gemini { .. } => gemini::assistant(response),
        }
    }

    /// Loads into the agent's scope the deferred tools (canonical names) a provider's native
    /// tool search found, for a list from [`ProviderTools`]; the one place both the
    /// whole-response and the stream readers load them. Returns the names that are loaded: a
    /// name that is not a deferred tool of this list (one the model or provider made up, or one
    /// the scope cannot call) is not, nor, for a list from [`ProviderTools`], one the scope could
    /// no longer load (it went away since the list was sent).
    pub(crate) fn load_found(&self, names: &[String]) -> Vec<String> {
        let mut known: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|name| self.deferred.iter().any(|schema| schema.name == *name))
            .collect();
        if let Some(registry) = &self.registry
            && !known.is_empty()
        {
            let _ = registry
                .core()
                .load(self.agent.as_ref(), None, &known, false);
            let loaded = registry.core().loaded_among(self.agent.as_ref(), &known);
            known.retain(|name| loaded.contains(name));
        }
        known.into_iter().map(str::to_owned).collect()
    }

    /// Whether the registry refuses a call of `name` made by the provider's program, known
    /// from the list alone: a tool of a programmatic list that only the model calls (as
    /// `code_mode::refusal` decides for a nested call; `tool_search` is every caller's).
    pub(crate) fn refuses_to_programs(&self, name: &str) -> bool {
        name != crate::registry::TOOL_SEARCH
            && self
                .programs
                .as_ref()
                .and_then(|programs| programs.get(name))
                .is_some_and(|callers| !callers.takes_program())
    }

    /// The canonical schema of tool `name` as the list knows it: one it lists, or a deferred
    /// tool its scope can call unlisted.
    pub(crate) fn schema_of(&self, name: &str) -> Option<&ToolSchema> {
        self.source
            .iter()
            .chain(&self.deferred)
            .find(|schema| schema.name == name)
    }

    fn parse_calls(&self, response: &Value) -> Result<ToolCalls, ProviderError> {
        match self.dialect {
            Dialect::OpenAiChat { .. } | Dialect::DeepSeek { .. } => {
                openai::parse_chat(self, response)
            }
            Dialect::OpenAiResponses { .. } => openai::parse_responses(self, response),
            Dialect::Anthropic { .. } => anthropic::parse(self, response),
            Dialect::Gemini { .. } => gemini::parse(self, response),
        }
    }

    /// The next-turn messages for `results` (one per call, in the calls' order): OpenAI `tool`
    /// messages, Responses `function_call_output` items, one Anthropic user message of
    /// `tool_result` blocks (under [`ToolSearchForm::Client`], a `tool_search` that found tools
    /// answers with a `tool_reference` block per tool), one Gemini user content of
    /// `functionResponse` parts. The results'
    /// additional contexts come after all results. Append the returned values to the request's
    /// `messages` / `input` / `contents`.
    pub fn format_results(
        &self,
        calls: &[ToolCall],
        results: &[ToolExecutionResult],
    ) -> Result<Vec<Value>, ProviderError> {
        calls::check_pairs(calls, results.len())?;
        let contexts = calls::contexts_of(results);
        Ok(self.format(calls, results, &contexts))
    }

    /// [`format_results`](Self::format_results) for a batch: its contexts come after all results.
    pub fn format_batch(
        &self,
        calls: &[ToolCall],
        batch: &BatchOutcome,
    ) -> Result<Vec<Value>, ProviderError> {
        calls::check_pairs(calls, batch.results.len())?;
        Ok(self.format(calls, &batch.results, &batch.additional_contexts))
    }

    fn format(
        &self,
        calls: &[ToolCall],
        results: &[ToolExecutionResult],
        contexts: &[crate::ContentBlock],
    ) -> Vec<Value> {
        match self.dialect {
            Dialect::OpenAiChat { .. } => {
                openai::format_chat(calls, results, contexts, openai::ChatFlavor::OpenAi)
            }
            Dialect::DeepSeek { .. } => deepseek::format(calls, results, contexts),
            Dialect::OpenAiResponses { .. } => openai::format_responses(calls, results, contexts),
            Dialect::Anthropic { .. } => {
                let references = self.references.then_some(&self.names);
                anthropic::format(calls, results, contexts, references)
            }
            Dialect::Gemini { .. } => gemini::format(calls, results, contexts),
        }
    }

    /// An input for a call whose arguments arrived as a JSON string.
    pub(crate) fn input_from_raw(&self, call: &ToolCall, raw: &str) -> ToolExecutionInput {
        let mut input = ToolExecutionInput::from_raw(call.id.clone(), call.name.clone(), raw);
        if !input.is_malformed() {
            self.strip_nulls(call.name.as_str(), &mut input.arguments);
            self.map_back(call.name.as_str(), &mut input);
        }
        self.attribute(call, input)
    }

    /// An input for a call whose arguments arrived as JSON.
    pub(crate) fn input_from_value(
        &self,
        call: &ToolCall,
        mut arguments: Value,
    ) -> ToolExecutionInput {
        self.strip_nulls(call.name.as_str(), &mut arguments);
        let mut input = ToolExecutionInput::new(call.id.clone(), call.name.clone(), arguments);
        self.map_back(call.name.as_str(), &mut input);
        self.attribute(call, input)
    }

    /// Maps the `{key, value}` pairs of the maps a strict view sent as pairs back to objects,
    /// so the call is validated and run with its canonical arguments. A key given twice makes
    /// the input end as `INVALID_ARGS` (`duplicate property "env.PATH"`). In place: an input is
    /// 128 bytes, copied on every move, and most lists send no pairs.
    #[inline]
    fn map_back(&self, name: &str, input: &mut ToolExecutionInput) {
        if self.maps.is_empty() {
            return;
        }
        if let Some(plan) = self.maps.get(name)
            && let Err(repeats) = plan.to_objects(&mut input.arguments)
        {
            input.refuse_arguments(repeats.to_string());
        }
    }

    /// Arguments of tool `name` still being written, in the tool's own form as far as they can
    /// be: the view's `null`s removed and its pairs mapped back to objects (an unfinished last
    /// pair left out; a key given twice keeps its first value here, the finished input refuses
    /// it).
    pub(crate) fn canonical_so_far(&self, name: &str, arguments: &mut Value) {
        self.strip_nulls(name, arguments);
        if let Some(plan) = self.maps.get(name) {
            plan.to_objects_so_far(arguments);
        }
    }

    /// Whether the view sent some map of tool `name` as pairs (streamed arguments then have
    /// the view's shape, not the tool's).
    pub(crate) fn sends_pairs(&self, name: &str) -> bool {
        self.maps.contains_key(name)
    }

    /// Whether the view stands `null` in for some absent property of tool `name` (what
    /// streams then differs from the tool's arguments where the stand-ins are).
    pub(crate) fn sends_nulls(&self, name: &str) -> bool {
        self.nulls.contains_key(name)
    }

    pub(crate) fn strip_nulls(&self, name: &str, arguments: &mut Value) {
        if self.nulls.is_empty() {
            return;
        }
        if let Some(plan) = self.nulls.get(name) {
            plan.apply(arguments);
        }
    }

    /// `input`, marked with the list's agent and with the provider's program that made `call`,
    /// if one did: the registry then treats it as a program's call (`programmatic.rs`). Most
    /// calls have neither, and keep the input where it is.
    #[inline]
    fn attribute(&self, call: &ToolCall, mut input: ToolExecutionInput) -> ToolExecutionInput {
        if let Some(program) = call.program_caller.as_deref() {
            input = input.with_program_caller(program);
        }
        if let Some(agent) = &self.agent {
            input = input.with_agent(agent.clone());
        }
        input
    }

    /// The call record for a provider name and id.
    pub(crate) fn call(&self, id: String, provider_name: &str, generated_id: bool) -> ToolCall {
        let name = self.names.canonical_name(provider_name);
        let renamed = (name != provider_name).then(|| provider_name.to_owned());
        ToolCall::new(id, name.to_owned(), renamed, generated_id)
    }
}

/// Who may call each tool of a programmatic list, by canonical name.
type Programs = HashMap<String, crate::callers::ToolCallers>;

/// The report's account of where deferred tools are searched.
fn report_search_form(
    native: bool,
    references: bool,
    deferred: usize,
    dialect: Dialect,
    report: &mut LoweringReport,
) {
    if deferred == 0 {
        return;
    }
    let detail = if references {
        format!(
            "{deferred} deferred tools sent with defer_loading, found by the registry's \
             tool_search, whose results load them as tool_reference blocks"
        )
    } else if native {
        let search = match dialect {
            Dialect::Anthropic { .. } => anthropic::NATIVE_SEARCH_TYPE,
            _ => "tool_search (hosted)",
        };
        format!(
            "{deferred} deferred tools sent with defer_loading, searched by the provider's \
             native {search} instead of the registry's tool_search"
        )
    } else {
        format!("{deferred} deferred tools left out until the registry's tool_search loads them")
    };
    report.push("", "", Change::Deferred, detail);
}

/// The input examples of `schema` that its lowered `parameters` accept; each one dropped is
/// reported (a strict view that made a property required-and-nullable rejects an example that
/// leaves it out).
fn examples_for(
    schema: &ToolSchema,
    parameters: &Value,
    maps: Option<&ToolMapPlan>,
    report: &mut LoweringReport,
) -> Vec<Value> {
    if schema.input_examples.is_empty() {
        return Vec::new();
    }
    if parameters == &*schema.parameters {
        return schema.input_examples.clone();
    }
    // Maps sent as pairs: the examples are written as pairs too.
    let examples: Vec<Value> = schema
        .input_examples
        .iter()
        .map(|example| {
            let mut example = example.clone();
            if let Some(plan) = maps {
                plan.to_pairs(&mut example);
            }
            example
        })
        .collect();
    let Ok(lowered) = dsh_tools_schema::Schema::from_json_schema(parameters) else {
        return examples;
    };
    let mut kept = Vec::new();
    for (index, example) in examples.into_iter().enumerate() {
        if lowered.is_valid(&example) {
            kept.push(example);
        } else {
            report.push(
                &schema.name,
                "",
                Change::Dropped,
                format!(
                    "input example {} is not valid against the lowered schema",
                    index + 1
                ),
            );
        }
    }
    kept
}

/// A registry's tools for one dialect, lowered once per registry snapshot and scope.
///
/// [`tools`](Self::tools) is cheap while the registry is unchanged: it compares the registry's
/// cached schema list with the one the lowered list was made from and returns the same
/// [`LoweredTools`]; any change to the registry (a tool registered or disposed) makes the next
/// call lower again.
pub struct ProviderTools {
    registry: ToolRegistry,
    dialect: Dialect,
    search: ToolSearchForm,
    /// Whether the provider runs the model's programs (see [`programmatic`](Self::programmatic)).
    #[cfg(feature = "code-mode")]
    programmatic: bool,
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    global: Option<Arc<LoweredTools>>,
    scoped: HashMap<AgentId, Arc<LoweredTools>>,
}

impl ProviderTools {
    /// The tools of `registry` for `dialect`.
    pub fn new(registry: &ToolRegistry, dialect: Dialect) -> Self {
        Self {
            registry: registry.clone(),
            dialect,
            search: ToolSearchForm::default(),
            #[cfg(feature = "code-mode")]
            programmatic: false,
            cache: Mutex::new(Cache::default()),
        }
    }

    /// Lets the provider run the model's programs itself (programmatic tool calling; off
    /// unless asked, and the request is then as without it). Where the dialect has it (OpenAI
    /// Responses, Anthropic) and the scope's [`CodeMode`](crate::code_mode::CodeMode) lets
    /// programs call tools (`Code` or `Both`), the list is every tool the model or a program
    /// may call there, each with its `allowed_callers` from its
    /// [`ToolCallers`](crate::call::ToolCallers) (in `Code` mode, programs only), and the
    /// provider's tool that runs programs in place of `run_code`. The calls its programs make
    /// are read as programs' calls ([`ToolCall::program_caller`]), which the registry admits
    /// as it admits a `run_code` program's; their results echo the caller where the provider
    /// asks. Elsewhere, and in `Native` mode, the list is as without it.
    #[cfg(feature = "code-mode")]
    #[must_use]
    pub fn programmatic(mut self, on: bool) -> Self {
        self.programmatic = on;
        self
    }

    /// Where deferred tools are searched ([`ToolSearchForm::Native`] unless changed).
    #[must_use]
    pub fn tool_search_form(mut self, form: ToolSearchForm) -> Self {
        self.search = form;
        self
    }

    /// The tools visible to `agent` (`None`: the global layer), lowered for the dialect.
    pub fn tools(&self, agent: Option<&AgentId>) -> Arc<LoweredTools> {
        // What a call naming `agent` sees; nothing for an agent without a live scope (unless
        // unscoped agents see the global layer).
        let layer = match agent {
            None => Some(self.registry.global().clone()),
            Some(agent) => self.registry.layer_for(agent),
        };
        let schemas = layer
            .as_ref()
            .map_or_else(|| Arc::from([]), ToolScope::schemas);
        {
            let cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
            let cached = match agent {
                None => cache.global.as_ref(),
                Some(agent) => cache.scoped.get(agent),
            };
            if let Some(cached) = cached {
                // Holding `source` keeps its address from being reused by another list.
                if Arc::ptr_eq(cached.origin.as_ref().unwrap_or(&cached.source), &schemas) {
                    return Arc::clone(cached);
                }
            }
        }
        let deferred = if schemas
            .iter()
            .any(|schema| schema.name == crate::registry::TOOL_SEARCH)
        {
            layer
                .as_ref()
                .map(ToolScope::deferred_schemas)
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let lowered = programmatic::list(self, layer.as_ref(), &schemas, &deferred, agent);
        let mut lowered = lowered.unwrap_or_else(|| {
            LoweredTools::with_deferred(
                schemas,
                &deferred,
                self.search,
                self.dialect,
                agent.cloned(),
            )
        });
        lowered.registry = Some(self.registry.clone());
        let lowered = Arc::new(lowered);
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        match agent {
            None => cache.global = Some(Arc::clone(&lowered)),
            Some(agent) => {
                cache.scoped.insert(agent.clone(), Arc::clone(&lowered));
            }
        }
        lowered
    }
}

impl std::fmt::Debug for ProviderTools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderTools")
            .field("dialect", &self.dialect)
            .finish_non_exhaustive()
    }
}
