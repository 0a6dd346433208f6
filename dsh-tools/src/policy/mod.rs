//! Policies every call runs under: the [`CallLimits`] a registry enforces by default (timeouts,
//! result budget) and [`TimeoutPolicy`], an outer time budget of your own. The approval seam is a
//! hook contract ([`hooks::Approver`](crate::hooks::Approver)); parallel batches are the
//! registry's ([`ToolRegistry::execute_batch`](crate::ToolRegistry::execute_batch)).

pub(crate) mod timeout;

pub use self::timeout::TimeoutPolicy;
pub use crate::limits::CallLimits;
