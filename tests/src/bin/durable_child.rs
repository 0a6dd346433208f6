//! The child of the call store's restart tests: opens a store, makes one call through a
//! journaled registry, prints its result and exits — or, with `hang`, is killed by the test in
//! the middle of the body (see `dsh_tools_tests::durable_restart`).
//!
//! `durable_child <sqlite:PATH | postgres:CONFIG> <COUNTER FILE> <TOOL> <CALL ID> <finish | hang>`
//!
//! With the first word `proof`, the child of the cross-process proof on PostgreSQL (see
//! `dsh_tools_tests::durable_proof`): it runs the Code Mode program (`run`), calls `pay`
//! (`pay`), calls `charge` (`charge`) or calls it and is killed in its body (`hang`), and prints the result as one
//! line of JSON after `RESULT_JSON `.
//!
//! `durable_child proof <CONFIG> <PLACE> <CALL ID> <run | pay | charge | hang>`

use dsh_tools::registry::RUN_CODE;
use dsh_tools::{ToolExecutionInput, json};
use dsh_tools_tests::durable_proof;
use dsh_tools_tests::durable_restart::{Backend, registry};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [proof, config, place, call_id, mode] = args.as_slice()
        && proof == "proof"
    {
        return prove(config, place, call_id, mode).await;
    }
    let [backend, counter, tool, call_id, mode] = args.as_slice() else {
        panic!("usage: durable_child <backend> <counter> <tool> <call id> <finish|hang>");
    };
    let store = Backend::parse(backend).open().await;
    let registry = registry(store, "child", counter.into(), mode == "hang");
    let input = ToolExecutionInput::new(call_id.clone(), tool.clone(), json!({"cents": 500}));
    let result = registry.execute(input).await;
    println!("RESULT {}", result.text());
}

async fn prove(config: &str, place: &str, call_id: &str, mode: &str) {
    let registry = durable_proof::registry(config, place, mode == "run", mode == "hang").await;
    let input = match mode {
        "run" => ToolExecutionInput::new(
            call_id.to_owned(),
            RUN_CODE,
            json!({"code": durable_proof::PROGRAM}),
        ),
        "pay" => ToolExecutionInput::new(call_id.to_owned(), "pay", json!({"cents": 500})),
        "charge" | "hang" => {
            ToolExecutionInput::new(call_id.to_owned(), "charge", json!({"cents": 500}))
        }
        other => panic!("a proof child runs, pays, charges or hangs, not {other:?}"),
    };
    let result = registry.execute(input).await;
    let line = json!({
        "code": result.error_code(),
        "replayed": result.is_replayed(),
        "text": result.text(),
        "value": result.value(),
    });
    println!("RESULT_JSON {line}");
}
