//! How a tool's [`TaskSupport`] travels in an MCP tool listing: under the tasks extension's id in
//! the tool's `_meta`, as `{"taskSupport": "forbidden" | "optional" | "required"}` — the values
//! of the 2025-11-25 `execution.taskSupport`, which the extension's tool model no longer has a
//! field for. Serving writes it (`listing.rs`); importing reads it back (`imported.rs`).

use rmcp::model as mcp;
use serde_json::{Map, Value};

use crate::call::options::TaskSupport;

/// The key of a tool's `_meta` entry under the extension's id.
const TASK_SUPPORT_KEY: &str = "taskSupport";

/// The `_meta` entry that publishes `support`; none for [`TaskSupport::Forbidden`], which is what
/// a tool without one means.
pub(crate) fn task_support_meta(support: TaskSupport) -> Option<(String, Value)> {
    if support == TaskSupport::Forbidden {
        return None;
    }
    let entry = Map::from_iter([(TASK_SUPPORT_KEY.to_owned(), Value::from(support.as_str()))]);
    Some((mcp::TASKS_EXTENSION_ID.to_owned(), Value::Object(entry)))
}

/// The support a listed tool declares; [`TaskSupport::Forbidden`] when it declares none or a
/// value this version does not know.
pub(crate) fn task_support_of(tool: &mcp::Tool) -> TaskSupport {
    tool.meta
        .as_ref()
        .and_then(|meta| meta.get(mcp::TASKS_EXTENSION_ID))
        .and_then(|entry| entry.get(TASK_SUPPORT_KEY))
        .and_then(Value::as_str)
        .and_then(TaskSupport::from_name)
        .unwrap_or_default()
}
