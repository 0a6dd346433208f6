//! Programmatic tool calling, one turn per provider that has it, written from each provider's
//! published documentation: the provider runs a program the model wrote in its own sandbox, and
//! the program's tool calls come back as ordinary calls naming the program as their caller. Each
//! fixture has the model's turn whole and streamed, and the follow-up the documentation shows
//! (the turn repeated, then the results, which answer the program).
//!
//! Every turn is in [`program_registry`]: `get_weather` (the model and programs call it),
//! `query_sales` (programs only) and `ask_user` (the model only), in Code Mode `Both`.
//!
//! Sources:
//! - OpenAI Responses: "Programmatic tool calling" (platform.openai.com/docs/guides/tools-programmatic-tool-calling)
//!   and the Responses API reference (platform.openai.com/docs/api-reference/responses): the
//!   `{"type": "programmatic_tool_calling"}` tool, a function's `allowed_callers`
//!   (`"direct"`, `"programmatic"`), the `program` output item, and a `function_call` whose
//!   `caller` is `{"type": "program", "caller_id"}` — the `call_id` of the program item that
//!   made it — echoed by its `function_call_output`.
//! - Anthropic Messages: "Programmatic tool calling" (docs.claude.com/en/docs/agents-and-tools/tool-use/programmatic-tool-calling)
//!   and "Tool reference" (docs.claude.com/en/docs/agents-and-tools/tool-use/tool-reference):
//!   the `code_execution_20260120` tool, a tool's `allowed_callers` (`"direct"`,
//!   `"code_execution_20260120"`), a `tool_use` whose `caller` is `{"type":
//!   "code_execution_20260120", "tool_id"}` — the id of the `server_tool_use` running the
//!   program — and an answer to a program's calls of `tool_result` blocks only.

use dsh_tools::call::ToolCallers;
use dsh_tools::code_mode::CodeMode;
use dsh_tools::providers::Dialect;
use dsh_tools::{FnTool, ToolRegistry, Value, json, schema::Schema};

/// One provider's programmatic turn.
pub struct ProgramFixture {
    /// The dialect the turn is read with.
    pub dialect: Dialect,
    /// The request's key that holds the conversation (`input`, `messages`).
    pub conversation: &'static str,
    /// The first request, without its tools.
    pub request: Value,
    /// The provider's id of the program that made the calls.
    pub program: &'static str,
    /// The model's turn as stream events.
    pub events: Vec<Value>,
    /// The same turn as a whole response.
    pub response: Value,
    /// The follow-up request the documentation shows.
    pub follow_up: Value,
}

/// A registry in Code Mode `Both` with `get_weather` (model and programs), `query_sales`
/// (programs only) and `ask_user` (the model only).
pub fn program_registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let weather = FnTool::builder("get_weather", "Get the current weather in a location.")
        .arguments(Schema::object().required("location", Schema::string()))
        .handler(|arguments, _| async move {
            let location = arguments["location"].as_str().unwrap_or_default();
            Ok(Value::from(format!("{location}: 15°C, sunny")))
        });
    let sales = FnTool::builder("query_sales", "Total sales of a region, in euros.")
        .arguments(Schema::object().required("region", Schema::string()))
        .options(dsh_tools::call::ToolOptions {
            allowed_callers: ToolCallers::Program,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|arguments, _| async move {
            let total = match arguments["region"].as_str() {
                Some("west") => 1200,
                _ => 800,
            };
            Ok(json!(total))
        });
    let ask = FnTool::builder("ask_user", "Ask the user a question.")
        .arguments(Schema::object().required("question", Schema::string()))
        .options(dsh_tools::call::ToolOptions {
            allowed_callers: ToolCallers::Model,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|_, _| async move { Ok(Value::from("yes")) });
    for tool in [weather, sales, ask] {
        let _ = registry.register(tool).expect("a fresh registry");
    }
    registry
        .set_code_mode(CodeMode::Both)
        .expect("the global layer takes a mode");
    registry
}

const QUESTION: &str = "Which region sold more, west or east?";

/// The program both providers run: it calls `query_sales` twice.
const CODE: &str = "const west = await query_sales({region: \"west\"});\n\
                    const east = await query_sales({region: \"east\"});\n\
                    print(west > east ? \"west\" : \"east\");";

/// OpenAI Responses: a `program` item, then two `function_call` items whose `caller` names it;
/// the follow-up repeats them and answers each with a `function_call_output` echoing `caller`.
pub fn openai_responses() -> ProgramFixture {
    let program = "call_prog_7Qe";
    let caller = json!({"type": "program", "caller_id": program});
    let program_item = json!({"id": "prog_68b1", "type": "program", "call_id": program,
        "code": CODE, "status": "in_progress"});
    let west = json!({"id": "fc_68b2", "type": "function_call", "status": "completed",
        "call_id": "call_w1", "name": "query_sales", "arguments": "{\"region\":\"west\"}",
        "caller": caller});
    let east = json!({"id": "fc_68b3", "type": "function_call", "status": "completed",
        "call_id": "call_e1", "name": "query_sales", "arguments": "{\"region\":\"east\"}",
        "caller": caller});
    let added = |index: u64, item: &Value| {
        let mut item = item.clone();
        item["status"] = json!("in_progress");
        if item["type"] == "function_call" {
            item["arguments"] = json!("");
        }
        json!({"type": "response.output_item.added", "output_index": index, "item": item})
    };
    let delta = |index: u64, item_id: &str, delta: &str| {
        json!({"type": "response.function_call_arguments.delta", "output_index": index,
               "item_id": item_id, "delta": delta})
    };
    let done = |index: u64, item: &Value| json!({"type": "response.output_item.done", "output_index": index, "item": item});
    let output = json!([program_item, west, east]);
    let events = vec![
        json!({"type": "response.created",
               "response": {"id": "resp_68b0", "status": "in_progress", "output": []}}),
        added(0, &program_item),
        done(0, &program_item),
        added(1, &west),
        delta(1, "fc_68b2", "{\"region\":"),
        delta(1, "fc_68b2", "\"west\"}"),
        done(1, &west),
        added(2, &east),
        delta(2, "fc_68b3", "{\"region\":\"east\"}"),
        done(2, &east),
        json!({"type": "response.completed",
               "response": {"id": "resp_68b0", "status": "completed", "output": output}}),
    ];
    let request = json!({"model": "gpt-5.2", "store": false,
        "input": [{"role": "user", "content": QUESTION}]});
    let mut follow_up = request.clone();
    follow_up["input"] = json!([
        {"role": "user", "content": QUESTION},
        program_item,
        west,
        east,
        {"type": "function_call_output", "call_id": "call_w1", "output": "1200",
         "caller": caller},
        {"type": "function_call_output", "call_id": "call_e1", "output": "800",
         "caller": caller}
    ]);
    ProgramFixture {
        dialect: Dialect::OpenAiResponses { strict: false },
        conversation: "input",
        request,
        program,
        events,
        response: json!({"id": "resp_68b0", "object": "response", "status": "completed",
            "output": output}),
        follow_up,
    }
}

/// Anthropic: a `server_tool_use` running the program, then two `tool_use` blocks whose
/// `caller` names it; the follow-up repeats the assistant's content and answers with a user
/// message of `tool_result` blocks only.
pub fn anthropic() -> ProgramFixture {
    let program = "srvtoolu_01Fq7c";
    let caller = json!({"type": "code_execution_20260120", "tool_id": program});
    let content = json!([
        {"type": "text", "text": "I'll compare the regions in code."},
        {"type": "server_tool_use", "id": program, "name": "code_execution",
         "input": {"code": CODE}},
        {"type": "tool_use", "id": "toolu_01W", "name": "query_sales",
         "input": {"region": "west"}, "caller": caller},
        {"type": "tool_use", "id": "toolu_01E", "name": "query_sales",
         "input": {"region": "east"}, "caller": caller}
    ]);
    let delta = |index: u64, delta: Value| json!({"type": "content_block_delta", "index": index, "delta": delta});
    let events = vec![
        json!({"type": "message_start", "message": {"id": "msg_01P", "type": "message",
            "role": "assistant", "model": "claude-opus-4-5", "content": [],
            "stop_reason": null, "usage": {"input_tokens": 530, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0,
               "content_block": {"type": "text", "text": ""}}),
        delta(
            0,
            json!({"type": "text_delta", "text": "I'll compare the regions in code."}),
        ),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block":
            {"type": "server_tool_use", "id": program, "name": "code_execution", "input": {}}}),
        delta(
            1,
            json!({"type": "input_json_delta",
                   "partial_json": serde_json::to_string(&json!({"code": CODE}))
                       .expect("a string serializes")}),
        ),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block":
            {"type": "tool_use", "id": "toolu_01W", "name": "query_sales", "input": {},
             "caller": caller}}),
        delta(
            2,
            json!({"type": "input_json_delta", "partial_json": "{\"region\": \"we"}),
        ),
        delta(
            2,
            json!({"type": "input_json_delta", "partial_json": "st\"}"}),
        ),
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "content_block_start", "index": 3, "content_block":
            {"type": "tool_use", "id": "toolu_01E", "name": "query_sales", "input": {},
             "caller": caller}}),
        delta(
            3,
            json!({"type": "input_json_delta", "partial_json": "{\"region\": \"east\"}"}),
        ),
        json!({"type": "content_block_stop", "index": 3}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use",
            "stop_sequence": null}, "usage": {"output_tokens": 120}}),
        json!({"type": "message_stop"}),
    ];
    let request = json!({"model": "claude-opus-4-5", "max_tokens": 4096,
        "messages": [{"role": "user", "content": QUESTION}]});
    let mut follow_up = request.clone();
    follow_up["messages"] = json!([
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": content},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01W",
             "content": [{"type": "text", "text": "1200"}]},
            {"type": "tool_result", "tool_use_id": "toolu_01E",
             "content": [{"type": "text", "text": "800"}]}
        ]}
    ]);
    ProgramFixture {
        dialect: Dialect::Anthropic { strict: false },
        conversation: "messages",
        request,
        program,
        events,
        response: json!({"id": "msg_01P", "type": "message", "role": "assistant",
            "model": "claude-opus-4-5", "content": content, "stop_reason": "tool_use",
            "container": {"id": "container_011CZ", "expires_at": "2026-12-06T13:00:00Z"}}),
        follow_up,
    }
}

/// Both providers' turns.
pub fn all() -> Vec<ProgramFixture> {
    vec![openai_responses(), anthropic()]
}
