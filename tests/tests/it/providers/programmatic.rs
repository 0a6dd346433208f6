//! Programmatic tool calling run by the provider (`ProviderTools::programmatic`): the request
//! lists the provider's tool that runs programs and each tool's `allowed_callers`; a program's
//! calls, whole or streamed, are read as calls whose caller is the provider's program; the
//! registry refuses a model-only tool to them before policy, as it refuses it to a `run_code`
//! program; and their results echo the caller where the provider asks. The turns are
//! `provider_programs`' fixtures, written from the providers' documentation.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dsh_tools::code_mode::CodeMode;
use dsh_tools::errors::ErrorCode;
use dsh_tools::providers::{Dialect, ProviderTools, ToolCalls};
use dsh_tools::registry::RUN_CODE;
use dsh_tools::{ContentBlock, ToolExecutionInput, ToolExecutionResult, Value, json};
use dsh_tools_tests::provider_programs::{self, ProgramFixture, program_registry};

/// Each sent tool's name (the runner's `type` where it has no name) and `allowed_callers`.
fn callers_of(tools: &Value) -> Vec<(String, Value)> {
    tools
        .as_array()
        .expect("a tools array")
        .iter()
        .map(|tool| {
            let name = tool
                .get("name")
                .or_else(|| tool.get("type"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            (
                name,
                tool.get("allowed_callers").cloned().unwrap_or(Value::Null),
            )
        })
        .collect()
}

#[test]
fn the_request_adds_the_providers_program_tool_with_each_tools_callers() {
    let registry = program_registry();
    let openai = ProviderTools::new(&registry, Dialect::OpenAiResponses { strict: false })
        .programmatic(true)
        .tools(None);
    let sent = callers_of(&openai.request_tools);
    assert_eq!(
        sent,
        [
            ("ask_user".to_owned(), json!(["direct"])),
            ("get_weather".to_owned(), json!(["direct", "programmatic"])),
            ("query_sales".to_owned(), json!(["programmatic"])),
            ("programmatic_tool_calling".to_owned(), Value::Null),
        ]
    );
    assert_eq!(
        openai.request_tools[3],
        json!({"type": "programmatic_tool_calling"})
    );
    // The provider runs the programs: `run_code` is not sent, and the report says so.
    assert!(
        openai
            .report
            .entries
            .iter()
            .any(|entry| entry.tool == RUN_CODE),
        "{:?}",
        openai.report
    );

    let anthropic = ProviderTools::new(&registry, Dialect::Anthropic { strict: false })
        .programmatic(true)
        .tools(None);
    assert_eq!(
        callers_of(&anthropic.request_tools),
        [
            ("ask_user".to_owned(), json!(["direct"])),
            (
                "get_weather".to_owned(),
                json!(["direct", "code_execution_20260120"])
            ),
            ("query_sales".to_owned(), json!(["code_execution_20260120"])),
            ("code_execution".to_owned(), Value::Null),
        ]
    );
    assert_eq!(
        anthropic.request_tools[3],
        json!({"type": "code_execution_20260120", "name": "code_execution"})
    );

    // In Code mode the model calls every tool from a program; a model-only tool is then
    // nobody's and is not sent.
    registry.set_code_mode(CodeMode::Code).expect("set");
    let code = ProviderTools::new(&registry, Dialect::Anthropic { strict: false })
        .programmatic(true)
        .tools(None);
    assert_eq!(
        callers_of(&code.request_tools),
        [
            ("get_weather".to_owned(), json!(["code_execution_20260120"])),
            ("query_sales".to_owned(), json!(["code_execution_20260120"])),
            ("code_execution".to_owned(), Value::Null),
        ]
    );
}

#[test]
fn a_user_who_never_asked_sees_the_request_unchanged() {
    let registry = program_registry();
    for dialect in [
        Dialect::OpenAiResponses { strict: false },
        Dialect::Anthropic { strict: false },
    ] {
        let plain = ProviderTools::new(&registry, dialect).tools(None);
        let names: Vec<String> = callers_of(&plain.request_tools)
            .into_iter()
            .map(|(name, callers)| {
                assert_eq!(callers, Value::Null, "{}", dialect.id());
                name
            })
            .collect();
        // Not asked: `run_code` is sent as always, and no tool has allowed callers.
        assert!(names.contains(&RUN_CODE.to_owned()), "{names:?}");
        let off = ProviderTools::new(&registry, dialect)
            .programmatic(false)
            .tools(None);
        assert_eq!(off.request_tools, plain.request_tools);
    }
    // Asked where the dialect has no programmatic tool calling: as without it.
    let chat = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false });
    let asked =
        ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false }).programmatic(true);
    assert_eq!(
        asked.tools(None).request_tools,
        chat.tools(None).request_tools
    );
    // Asked in Native mode, where programs call no tools: as without it.
    registry.set_code_mode(CodeMode::Native).expect("set");
    let plain = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let asked = ProviderTools::new(&registry, Dialect::Anthropic { strict: false })
        .programmatic(true)
        .tools(None);
    assert_eq!(asked.request_tools, plain.request_tools);
}

/// The calls of `fixture`'s turn, read whole and streamed, which must agree.
fn read(fixture: &ProgramFixture, tools: &dsh_tools::providers::LoweredTools) -> ToolCalls {
    let whole = tools
        .parse_response(&fixture.response)
        .expect("the whole response reads");
    let mut stream = tools.stream();
    for event in &fixture.events {
        stream.push(event).expect("the stream reads");
    }
    stream.end().expect("the stream ends whole");
    assert_eq!(
        stream.assistant_turn(),
        tools
            .assistant_turn(&fixture.response)
            .expect("the whole turn"),
        "{}: the streamed turn is the whole one",
        fixture.dialect.id()
    );
    let streamed = stream.into_tool_calls().expect("every call finished");
    assert_eq!(
        streamed.calls.as_slice(),
        whole.calls.as_slice(),
        "{}",
        fixture.dialect.id()
    );
    for (a, b) in streamed.inputs.iter().zip(whole.inputs.as_slice()) {
        assert_eq!(a.arguments, b.arguments);
        assert_eq!(a.program_caller(), b.program_caller());
    }
    whole
}

#[tokio::test]
async fn a_programs_calls_are_read_with_their_caller_and_answered_to_it() {
    for fixture in provider_programs::all() {
        let id = fixture.dialect.id();
        let registry = program_registry();
        let tools = ProviderTools::new(&registry, fixture.dialect)
            .programmatic(true)
            .tools(None);
        let mut calls = read(&fixture, &tools);
        assert_eq!(calls.calls.len(), 2, "{id}");
        for (call, input) in calls.calls.iter().zip(calls.inputs.as_slice()) {
            assert_eq!(call.name.as_str(), "query_sales", "{id}");
            assert_eq!(
                call.program_caller.as_deref(),
                Some(fixture.program),
                "{id}"
            );
            assert_eq!(input.program_caller(), Some(fixture.program), "{id}");
            // Its parent is the provider's program, not an execution of ours.
            assert!(!format!("{input:?}").contains("parent: Some"), "{id}");
        }

        // A program-only tool runs for the provider's program, through the pipeline.
        let outcome = registry
            .execute_batch(std::mem::take(&mut calls.inputs), 4)
            .await;
        assert!(
            outcome.results.iter().all(|result| !result.is_error()),
            "{id}: {:?}",
            outcome.results
        );
        let answer = tools
            .format_batch(calls.calls.as_slice(), &outcome)
            .expect("one result per call");
        let mut request = fixture.request.clone();
        let conversation = request[fixture.conversation]
            .as_array_mut()
            .expect("a conversation");
        conversation.extend(tools.assistant_turn(&fixture.response).expect("the turn"));
        conversation.extend(answer);
        assert_eq!(request, fixture.follow_up, "{id}");
    }
}

#[tokio::test]
async fn a_direct_call_of_a_program_only_tool_is_still_refused() {
    let registry = program_registry();
    let tools = ProviderTools::new(&registry, Dialect::OpenAiResponses { strict: false })
        .programmatic(true)
        .tools(None);
    let response = json!({"output": [{"type": "function_call", "call_id": "call_d",
        "name": "query_sales", "arguments": "{\"region\":\"west\"}",
        "caller": {"type": "direct"}}]});
    let mut calls = tools.parse_response(&response).expect("reads");
    assert_eq!(calls.calls[0].program_caller.as_deref(), None);
    let result = registry
        .execute(std::mem::take(&mut calls.inputs).remove(0))
        .await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::UnknownTool.as_str()),
        "{}",
        result.text()
    );
}

#[tokio::test]
async fn a_model_only_tool_is_refused_to_the_providers_program_before_policy() {
    let registry = program_registry();
    let heard = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&heard);
    let _hook = registry
        .on_pre_execute(move |_, next| {
            count.fetch_add(1, Ordering::SeqCst);
            next.run()
        })
        .expect("a hook");

    // Our own Code Mode's refusal, for comparison: a `run_code` program calling `ask_user`.
    let ours = registry
        .execute(ToolExecutionInput::new(
            "run-1",
            RUN_CODE,
            json!({"code": "try { await tools.ask_user({question: 'ok?'}); } \
                            catch (e) { return [e.code, e.message]; }"}),
        ))
        .await;
    let ours = ours.value().map(|value| value["result"].clone());
    heard.store(0, Ordering::SeqCst);

    for (dialect, response) in [
        (
            Dialect::OpenAiResponses { strict: false },
            json!({"output": [{"type": "function_call", "call_id": "call_a",
                "name": "ask_user", "arguments": "{\"question\":\"ok?\"}",
                "caller": {"type": "program", "caller_id": "call_prog_1"}}]}),
        ),
        (
            Dialect::Anthropic { strict: false },
            json!({"content": [{"type": "tool_use", "id": "toolu_a", "name": "ask_user",
                "input": {"question": "ok?"},
                "caller": {"type": "code_execution_20260120", "tool_id": "srvtoolu_1"}}]}),
        ),
    ] {
        let tools = ProviderTools::new(&registry, dialect)
            .programmatic(true)
            .tools(None);
        let mut calls = tools.parse_response(&response).expect("reads");
        let result = registry
            .execute(std::mem::take(&mut calls.inputs).remove(0))
            .await;
        assert_eq!(
            result.error_code(),
            Some(ErrorCode::UnknownTool.as_str()),
            "{}",
            dialect.id()
        );
        let error = result.error().expect("an error");
        // Exactly as our Code Mode refuses it: the same code and text.
        assert_eq!(
            ours,
            Some(json!([ErrorCode::UnknownTool.as_str(), error.message()])),
            "{}",
            dialect.id()
        );
        // Refused before policy: no hook heard it.
        assert_eq!(heard.load(Ordering::SeqCst), 0, "{}", dialect.id());
    }

    // The same tool called by the model directly runs, hook and all.
    let direct = registry
        .execute(ToolExecutionInput::new(
            "c",
            "ask_user",
            json!({"question": "ok?"}),
        ))
        .await;
    assert!(!direct.is_error(), "{}", direct.text());
    assert_eq!(heard.load(Ordering::SeqCst), 1);
}

#[test]
fn anthropic_answers_a_program_with_tool_results_only() {
    let registry = program_registry();
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false })
        .programmatic(true)
        .tools(None);
    let fixture = provider_programs::anthropic();
    let calls = tools.parse_response(&fixture.response).expect("reads");
    let results = [
        ToolExecutionResult::success(json!(1200)).with_content(vec![ContentBlock::text("1200")]),
        ToolExecutionResult::success(json!(800))
            .with_content(vec![ContentBlock::text("800")])
            .with_additional_context(ContentBlock::text("Sales are in euros.")),
    ];
    let answer = tools
        .format_results(calls.calls.as_slice(), &results)
        .expect("one result per call");
    // The program waits on its calls: the message holds tool_result blocks only, the
    // context inside the last one.
    assert_eq!(
        answer,
        [json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01W",
             "content": [{"type": "text", "text": "1200"}]},
            {"type": "tool_result", "tool_use_id": "toolu_01E",
             "content": [{"type": "text", "text": "800"},
                         {"type": "text", "text": "Sales are in euros."}]}
        ]})]
    );
}

#[test]
fn a_stream_knows_at_once_that_a_program_may_not_call_a_model_only_tool() {
    use dsh_tools::providers::stream::StreamEvent;

    let registry = program_registry();
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false })
        .programmatic(true)
        .tools(None);
    let mut stream = tools.stream();
    let start = |index: u64, id: &str, name: &str, caller: Value| {
        json!({"type": "content_block_start", "index": index, "content_block":
            {"type": "tool_use", "id": id, "name": name, "input": {}, "caller": caller}})
    };
    let program = json!({"type": "code_execution_20260120", "tool_id": "srvtoolu_1"});
    let events = stream
        .push(&start(0, "toolu_a", "ask_user", program.clone()))
        .expect("reads");
    let definite: Vec<&str> = events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Definite { error, .. } => error.info().map(|info| &*info.code),
            _ => None,
        })
        .collect();
    assert_eq!(definite, [ErrorCode::UnknownTool.as_str()]);
    // The model calling it directly, or a program calling a tool it takes: nothing known.
    for (index, name, caller) in [
        (1, "ask_user", json!({"type": "direct"})),
        (2, "query_sales", program),
    ] {
        let events = stream
            .push(&start(index, &format!("toolu_{index}"), name, caller))
            .expect("reads");
        assert!(
            !events
                .iter()
                .any(|event| matches!(event, StreamEvent::Definite { .. })),
            "{name}: {events:?}"
        );
    }
}

#[tokio::test]
async fn policy_sees_which_program_made_a_call_in_an_agents_scope() {
    let registry = program_registry();
    let scope = registry.create_child("analyst").expect("a scope");
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    let _hook = scope
        .on_pre_execute(move |execution, next| {
            record.lock().expect("not poisoned").push((
                execution.program_caller().map(str::to_owned),
                execution.agent().map(|agent| agent.as_str().to_owned()),
            ));
            next.run()
        })
        .expect("a hook");
    let tools = ProviderTools::new(&registry, Dialect::OpenAiResponses { strict: false })
        .programmatic(true)
        .tools(Some(&dsh_tools::AgentId::from("analyst")));
    let fixture = provider_programs::openai_responses();
    let mut calls = tools.parse_response(&fixture.response).expect("reads");
    let outcome = registry
        .execute_batch(std::mem::take(&mut calls.inputs), 4)
        .await;
    assert!(outcome.results.iter().all(|result| !result.is_error()));
    assert_eq!(
        *seen.lock().expect("not poisoned"),
        [
            (Some(fixture.program.to_owned()), Some("analyst".to_owned())),
            (Some(fixture.program.to_owned()), Some("analyst".to_owned()))
        ]
    );
}
