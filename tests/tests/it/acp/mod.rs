//! The ACP bridge.

/// The `acp_agent` example through one prompt turn, driven by a real ACP client.
mod agent;
/// Golden JSON of every ACP mapping of a call's cards through its life.
mod cards;
