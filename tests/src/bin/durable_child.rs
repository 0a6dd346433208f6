//! The child of the call store's restart tests: opens a store, makes one call through a
//! journaled registry, prints its result and exits — or, with `hang`, is killed by the test in
//! the middle of the body (see `dsh_tools_tests::durable_restart`).
//!
//! `durable_child <sqlite:PATH | postgres:CONFIG> <COUNTER FILE> <TOOL> <CALL ID> <finish | hang>`

use dsh_tools::{ToolExecutionInput, json};
use dsh_tools_tests::durable_restart::{Backend, registry};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [backend, counter, tool, call_id, mode] = args.as_slice() else {
        panic!("usage: durable_child <backend> <counter> <tool> <call id> <finish|hang>");
    };
    let store = Backend::parse(backend).open().await;
    let registry = registry(store, "child", counter.into(), mode == "hang");
    let input = ToolExecutionInput::new(call_id.clone(), tool.clone(), json!({"cents": 500}));
    let result = registry.execute(input).await;
    println!("RESULT {}", result.text());
}
