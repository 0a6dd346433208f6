//! Code Mode as the store sees it. The rest of the store names what it keeps for Code Mode and
//! asks what Code Mode decides only through `kept.rs` and `decide.rs`, with no `cfg` of its own
//! beyond leaving the fields it keeps unread: with the feature off each of their items is the
//! no-op of the same shape.
//!
//! | file | owns |
//! |---|---|
//! | `kept.rs` | what the store keeps for Code Mode (callers, modes, bounds, engines) and the name it reserves |
//! | `decide.rs` | what Code Mode decides over a view's entries: the mode in force, refusals, who calls, `run_code`'s entry and listing |
//! | `on.rs` | the feature's side of both: modes in force, refusals, `run_code`'s entry and schema |
//! | `edits.rs` | the edits that set a mode or the bounds of programs, and the engines programs run on |
//! | `programmatic.rs` | what a provider running the model's programs on its side is told of a view |
//! | `programs.rs` | the store as a `run_code` program's host: the tools its calls resolve to, its bounds, engines and journal |

pub(crate) mod decide;
#[cfg(feature = "code-mode")]
mod edits;
pub(crate) mod kept;
#[cfg(feature = "code-mode")]
mod on;
#[cfg(feature = "code-mode")]
pub(crate) mod programmatic;
#[cfg(feature = "code-mode")]
mod programs;
