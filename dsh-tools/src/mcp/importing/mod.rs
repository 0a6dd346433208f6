//! The importing side of MCP: an MCP server's tools registered as raw tools of a registry or a
//! scope, its requests for input answered by the client's handler, its definitions pinned.
//!
//! | file | owns |
//! |---|---|
//! | `client.rs` | [`McpClient`](crate::mcp::McpClient): connecting and importing |
//! | `imported.rs` | an imported tool ([`ToolDefinition`](crate::ToolDefinition)) and its calls |
//! | `names.rs` | how server tool names become registry names |
//! | `pins.rs` | pinned imports: fingerprints, saved [`Pins`](crate::mcp::Pins), the policies for changed and new tools, held changes |
//! | `elicitation.rs` | an imported server's elicitation requests and the handler that answers them |
//! | `input_required.rs` | an imported server's requests for input (`InputRequiredResult`, a task's `input_required`): answered by that handler, bounded |
//! | `task_client.rs` | following a task an imported tool's server answered a call with |
//! | `progress_in_order.rs` | the client's transport, delivering a server's progress notifications to their calls before the call's result |
//! | `progress_routes.rs` | where those notifications go: the run of the call whose token they carry |

pub(super) mod client;
pub(super) mod elicitation;
pub(super) mod imported;
pub(super) mod input_required;
pub(super) mod names;
pub(super) mod pins;
pub(super) mod progress_in_order;
pub(super) mod progress_routes;
pub(super) mod task_client;
