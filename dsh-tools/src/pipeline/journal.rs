//! Dispatch through the call journal (feature `durable`), for a registry with a call store: the
//! intent is recorded before the body runs and the outcome after; a retry of a completed call
//! gives the recorded result again (its `meta` says it was replayed) without running the body; a
//! retry of a call in doubt runs only for an idempotent or read-only tool, otherwise it ends
//! `CALL_IN_DOUBT`; a store that fails before the body ends the call `STORE_FAILED`. The rules
//! are the journal's (`durable/journal.rs`); this file puts them around dispatch's steps.
//!
//! Two ways round a body: [`dispatch`] and [`dispatch_short`] are futures of their own, which
//! the full path awaits and the short path boxes, for any store; on the short path the store in
//! memory decides at once ([`admitted_now`], [`recorded_now`]), so the body runs in the call's
//! own future as without a journal, the attempt waiting in the call's execution meanwhile.

use serde_json::json;

use crate::call::context::CallContext;
use crate::call::options::ToolAnnotations;
use crate::call::run::ToolRun;
use crate::durable::approval::arguments_digest;
use crate::durable::attempt::{Admission, Attempt, Intent, KeptAttempt};
use crate::durable::call_key::CallKey;
use crate::durable::clock::format_time;
use crate::durable::journal::{Durability, in_doubt};
use crate::durable::position::position_of;
use crate::durable::record::JournalEntry;
use crate::durable::store::StoreError;
use crate::errors::tool_error::ToolError;
use crate::idempotency::KeyDigest;
use crate::ids::AgentId;
use crate::pipeline::dispatch::runnable_definition;
use crate::pipeline::failure::failed;
use crate::pipeline::phases::dispatch_steps;
use crate::result::REPLAYED_META_KEY;
use crate::result::ToolExecutionResult;

/// Phase 9 through the journal of `durability`.
///
/// Only what the body's own run needs is kept across its wait: the attempt. The rest
/// (the definition, its policy, the admission) is read before, so that the future of every
/// journaled call, boxed and moved whole, stays small.
pub(crate) async fn dispatch(
    call: &CallContext,
    run: &ToolRun,
    durability: &Durability,
) -> ToolExecutionResult {
    let attempt = match admitted(call, run, durability).await {
        Admitted::Run(attempt) => attempt,
        Admitted::Unjournaled => return dispatch_steps!(call, run),
        Admitted::Ended(result) => return result,
    };
    let result = dispatch_steps!(call, run);
    recorded(run, durability, attempt, &result).await;
    result
}

/// [`dispatch`] on the short path, where nothing but the body watches the call: once the
/// journal has read the arguments (for the call's key), a body that takes them by value is
/// handed them, as on the short path without a journal, instead of converting a copy.
pub(crate) async fn dispatch_short(
    call: &mut CallContext,
    durability: &Durability,
) -> ToolExecutionResult {
    let attempt = match admitted(call, &call.run, durability).await {
        Admitted::Run(attempt) => attempt,
        Admitted::Unjournaled => {
            return dispatch_steps!(
                &*call,
                &call.run,
                give_up_arguments: call.run.execution_mut().take_arguments()
            );
        }
        Admitted::Ended(result) => return result,
    };
    let result = dispatch_steps!(
        &*call,
        &call.run,
        give_up_arguments: call.run.execution_mut().take_arguments()
    );
    recorded(&call.run, durability, attempt, &result).await;
    result
}

/// What the journal decided about a call before its body: `A` is the attempt admitted (see
/// [`Admission`]).
pub(crate) enum Admitted<A = Attempt> {
    /// Run the body as this attempt.
    Run(A),
    /// The tool is not journaled: run the body as without a journal.
    Unjournaled,
    /// The call's result, without running the body: replayed, in doubt, diverged, refused, or
    /// the store failed.
    Ended(ToolExecutionResult),
}

/// Admits an attempt of `call` (run as `run`) through the journal of `durability`.
async fn admitted(call: &CallContext, run: &ToolRun, durability: &Durability) -> Admitted {
    let (intent, resumable_run) = match intent(call) {
        Ok(Some(intent)) => intent,
        Ok(None) => return Admitted::Unjournaled,
        Err(refused) => return Admitted::Ended(refused),
    };
    // The store in memory decides at once; any other is waited for, boxed: the file's and the
    // server's waits are long, and the admission's future (an entry, the intent, a race's
    // state) would otherwise be part of this one, which is boxed and moved whole.
    let admission = match durability.admit_now(intent) {
        Ok(admission) => Ok(admission.map_run(Attempt::Kept)),
        Err(intent) => Box::pin(durability.admit(intent)).await,
    };
    let admitted = judged(call, run, admission);
    if let Admitted::Run(attempt) = &admitted {
        first_attempt(run, resumable_run, attempt.number());
    }
    admitted
}

/// Admits an attempt of `call` through the journal of `durability` at once, when its store is
/// the one in memory (`None` for any other, which [`dispatch_short`] waits for). The short path
/// then keeps the attempt in the call's execution ([`ToolExecution::keep_attempt`]), runs the
/// body in its own future and records the outcome with [`recorded_now`]: nothing of the journal
/// is boxed, and the call's future, which every call moves, holds nothing of it.
///
/// [`ToolExecution::keep_attempt`]: crate::call::execution::ToolExecution::keep_attempt
pub(crate) fn admitted_now(
    call: &CallContext,
    durability: &Durability,
) -> Option<Admitted<KeptAttempt>> {
    if !durability.in_memory() {
        return None;
    }
    let (intent, resumable_run) = match intent(call) {
        Ok(Some(intent)) => intent,
        Ok(None) => return Some(Admitted::Unjournaled),
        Err(refused) => return Some(Admitted::Ended(refused)),
    };
    let admission = durability.admit_now(intent).ok()?;
    let admitted = judged(call, &call.run, Ok(admission));
    if let Admitted::Run(attempt) = &admitted {
        first_attempt(&call.run, resumable_run, attempt.number);
    }
    Some(admitted)
}

/// Records how the attempt [`admitted_now`] kept in `call`'s execution ended with `result`, if
/// one was kept (the tool may not be journaled).
pub(crate) fn recorded_now(
    call: &CallContext,
    durability: &Durability,
    result: &ToolExecutionResult,
) {
    if let Some(attempt) = call.execution().take_attempt() {
        durability.record_kept(&attempt, result);
    }
}

/// What `admission` means for the call run as `run`.
fn judged<A>(
    call: &CallContext,
    run: &ToolRun,
    admission: Result<Admission<A>, StoreError>,
) -> Admitted<A> {
    let execution = run.execution();
    match admission {
        Ok(Admission::Run(attempt)) => Admitted::Run(attempt),
        Err(error) => Admitted::Ended(failed(execution, ToolError::store_failed(error.message()))),
        Ok(Admission::Replay(entry)) => Admitted::Ended(replayed(call, &entry)),
        Ok(Admission::InDoubt(entry)) => Admitted::Ended(failed(execution, in_doubt(&entry))),
        Ok(Admission::Diverged(divergence)) => Admitted::Ended(failed(
            execution,
            ToolError::code_run_diverged(
                execution.given_idempotency_key().map_or(0, position_of),
                &divergence.recorded_tool,
                divergence.same_tool,
                execution.name(),
                execution.arguments(),
            ),
        )),
    }
}

/// Notes an admitted attempt `number` of a Code Mode run (`resumable_run`) that is its first.
fn first_attempt(run: &ToolRun, resumable_run: bool, number: u64) {
    if resumable_run && number == 1 {
        // Nothing was recorded under the run's key: its program's calls find nothing at their
        // positions, so the run need not read them before they start.
        run.execution().mark_first_attempt();
    }
}

/// Records how `attempt` of the call run as `run` ended.
async fn recorded(
    run: &ToolRun,
    durability: &Durability,
    attempt: Attempt,
    result: &ToolExecutionResult,
) {
    // The key as recorded (the body may have been handed the arguments it is made from), held
    // as it is: its text is written only for the line below.
    let key = attempt.key().clone();
    if let Some(recording) = durability.record(attempt, result)
        && let Err(error) = recording.await
    {
        // The body ran; its result stands. A retry will find the call in doubt.
        tracing::error!(
            tool = run.execution().name(),
            key = key.text().as_str(),
            "the call store could not record the outcome: {error}"
        );
    }
}

/// What the journal is told about `call`, with whether it is a Code Mode run (`Ok(None)`: its
/// tool is not journaled; `Err`: the call's result, without a store: a call whose tool does
/// not resolve or whose arguments could not be read, or a resumed run's call replayed from the
/// entry its run read).
fn intent(call: &CallContext) -> Result<Option<(Intent<'_>, bool)>, ToolExecutionResult> {
    let execution = call.execution();
    let definition = runnable_definition(call)?;
    let policy = definition.options().journal;
    if !policy.enabled {
        return Ok(None);
    }
    // A resumed Code Mode run read its call's position before the call started, and found it
    // completed: a completed entry never changes, so the store is not asked again.
    if let Some(entry) = execution.recorded_at_position() {
        return Err(replayed(call, entry));
    }
    let annotations = &definition.options().annotations;
    let read_only = annotations.read_only == Some(true);
    let agent = execution.agent().map(AgentId::as_str);
    let answer = match policy.answer_within_ms {
        Some(within_ms) if read_only => {
            // The same tool, agent and arguments, whatever the call id.
            let digest = crate::idempotency::idempotency_key(
                "",
                execution.name(),
                agent,
                execution.arguments(),
            );
            Some((digest, within_ms))
        }
        _ => None,
    };
    // A Code Mode run may run its program again after an attempt that left no outcome (its
    // process died, its wall time ran out): each of its nested calls is journaled under its own
    // key and answers for itself (replayed, in doubt, or run for the first time), so running the
    // program again repeats no call's side effect.
    let resumable_run = crate::store::code_mode::kept::is_run_code(execution.name());
    // The key is made once, as its digest: the store in memory keeps it as it is, and its text
    // is written only when something reads it.
    let key = match execution.given_idempotency_key() {
        Some(given) => CallKey::from_text(given),
        None => CallKey::Made(KeyDigest::of(
            execution.call_id(),
            execution.name(),
            agent,
            execution.arguments(),
        )),
    };
    let intent = Intent {
        key,
        tool: execution.name(),
        agent,
        rerunnable: may_run_again(annotations, resumable_run),
        answer,
        // A Code Mode run's nested call keeps what it asked at its position, so a re-run of the
        // program that asks something else there is told apart.
        call_digest: execution
            .given_idempotency_key()
            .map(|_| arguments_digest(execution.arguments())),
    };
    Ok(Some((intent, resumable_run)))
}

/// Whether a call may run again after an earlier attempt that recorded no outcome: its tool is
/// idempotent or read-only (`annotations`), or it is a Code Mode run (`run_code`), whose nested
/// calls answer for themselves.
pub(crate) fn may_run_again(annotations: &ToolAnnotations, run_code: bool) -> bool {
    annotations.read_only == Some(true) || annotations.idempotent == Some(true) || run_code
}

/// The recorded outcome of `entry` as this call's result, marked as replayed.
fn replayed(call: &CallContext, entry: &JournalEntry) -> ToolExecutionResult {
    let execution = call.execution();
    let Some(outcome) = &entry.outcome else {
        return failed(execution, in_doubt(entry));
    };
    let marker = json!({
        REPLAYED_META_KEY: {
            "attempt": entry.attempt,
            "startedAt": format_time(entry.started_at_ms),
            "place": entry.place,
        }
    });
    outcome
        .to_result()
        .with_meta(marker)
        .stamped(execution.token())
}
