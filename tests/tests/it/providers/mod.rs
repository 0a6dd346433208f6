//! Provider views and adapters.

/// Every provider's view of the corpus against its published constraints and golden files.
mod lowering;
/// Maps through strict views, as `{key, value}` pairs and back.
mod maps;
/// Programmatic tool calling run by the provider: callers out, programs' calls in.
mod programmatic;
/// Round trips from recorded provider responses to result messages.
mod round_trip;
/// One lowering rule at a time, on small raw schemas.
mod views;

use dsh_tools::providers::{Change, LoweredTools};

/// How many tools of `tools` fell back from strict mode.
fn fallbacks(tools: &LoweredTools) -> usize {
    tools
        .report
        .entries
        .iter()
        .filter(|entry| entry.change == Change::StrictFallback)
        .count()
}
