//! Policy as events on the call's span (feature `otel`; without it these do nothing): which hook
//! denied, asked or blocked, how an approval ended, and a guard's denial.
//!
//! Only guards are guardrails (deny-only checks of a call before it runs), so only their denial
//! uses the GenAI security vocabulary (`gen_ai.security.decision.type`, `…target.type`,
//! `…decision.reason`); the decisions of `pre-execute` and `post-execute` listeners and of the
//! approver are `dsh_tools.*` events. Each is an `INFO` event whose message is its name, which
//! `tracing-opentelemetry` exports as the event's name.

/// A `pre-execute` listener denied (`deny`) or asked (`ask`), or a `post-execute` listener
/// blocked (`block`).
#[inline]
pub(crate) fn hook_decided(hook: &'static str, decision: &'static str, reason: Option<&str>) {
    #[cfg(feature = "otel")]
    tracing::info!(
        dsh_tools.hook = hook,
        dsh_tools.decision = decision,
        dsh_tools.reason = reason,
        "dsh_tools.policy.decision"
    );
    #[cfg(not(feature = "otel"))]
    let _ = (hook, decision, reason);
}

/// How an `ask` ended: `allowed_once`, `rejected`, `cancelled`, `unavailable`, `pending`,
/// `no_approver` or `failed`.
#[inline]
pub(crate) fn approval_resolved(outcome: &'static str) {
    #[cfg(feature = "otel")]
    tracing::info!(dsh_tools.approval.outcome = outcome, "dsh_tools.approval");
    #[cfg(not(feature = "otel"))]
    let _ = outcome;
}

/// A guard denied the call.
#[inline]
pub(crate) fn guard_denied(reason: &str) {
    #[cfg(feature = "otel")]
    tracing::info!(
        gen_ai.security.target.type = "tool_call",
        gen_ai.security.decision.type = "deny",
        gen_ai.security.decision.reason = reason,
        "gen_ai.guardrail.decision"
    );
    #[cfg(not(feature = "otel"))]
    let _ = reason;
}
