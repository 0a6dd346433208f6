//! The journal's rules, written once over any [`CallStore`]: the intent recorded before a body
//! runs ([`Durability::admit`]), the outcome after ([`Durability::record`]), and the decisions
//! about a call in doubt ([`Durability::decide`]).
//!
//! | the key's entry | the tool | what the attempt does |
//! |---|---|---|
//! | none | any | records `started` (attempt 1) and runs the body |
//! | `completed` | any | replays the recorded outcome; the body does not run |
//! | `failed` (the body reported a failure) or `run_again` (decided) | any | records `started` (the next attempt) and runs the body |
//! | `started` (running, or its process died) | idempotent or read-only | records `started` (the next attempt) and runs the body |
//! | `started` | any other | `CALL_IN_DOUBT`, saying when and where it started; nothing runs |
//!
//! A body that timed out, panicked or was cancelled leaves its attempt `started`: whatever it did
//! before it stopped is not known, so a retry is in doubt too.

use std::future::Future;
use std::sync::Arc;

use crate::durable::clock::{format_time, now_ms, this_process};
use crate::durable::position::Divergence;
use crate::durable::record::{CallDecision, JournalEntry, JournalState, RecordedOutcome};
use crate::durable::store::{CallStore, StoreResult};
use crate::errors::code::ErrorCode;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::result::ToolExecutionResult;

/// How many times an attempt tries again when another process moved the entry on meanwhile.
const RACES: usize = 4;

/// A registry's call store and what its journal and approvals need besides: where this process
/// is, and the key approvals are signed with. Set with
/// [`ToolRegistry::set_durability`](crate::ToolRegistry::set_durability).
#[derive(Clone)]
pub struct Durability {
    pub(crate) store: Arc<dyn CallStore>,
    pub(crate) place: String,
    pub(crate) approvals: Option<crate::durable::approval_key::ApprovalKey>,
}

impl std::fmt::Debug for Durability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Durability")
            .field("place", &self.place)
            .field("approvals", &self.approvals.is_some())
            .finish_non_exhaustive()
    }
}

/// What one call's attempt may do, as the journal decided.
#[derive(Debug)]
pub(crate) enum Admission {
    /// Run the body; record its outcome as this attempt.
    Run {
        /// The entry as recorded before the body runs.
        entry: JournalEntry,
    },
    /// Give this recorded outcome again.
    Replay(JournalEntry),
    /// An earlier attempt started and recorded nothing after.
    InDoubt(JournalEntry),
    /// The key is a Code Mode run's position, where an earlier attempt of the run recorded
    /// another call (see `durable/program.rs`).
    Diverged(Divergence),
}

/// What a call tells the journal about itself.
#[derive(Debug)]
pub(crate) struct Intent<'a> {
    pub(crate) key: String,
    pub(crate) tool: &'a str,
    pub(crate) agent: Option<&'a str>,
    /// Whether an attempt may run again when an earlier one is in doubt (idempotent or
    /// read-only, or a Code Mode run, whose nested calls answer for themselves).
    pub(crate) rerunnable: bool,
    /// For an answer within a time to live: the digest of tool, agent and arguments, and the
    /// time to live.
    pub(crate) answer: Option<(String, u64)>,
    /// For a nested call of a Code Mode run: the digest of its arguments, recorded with the
    /// position (see [`JournalEntry::call_digest`]).
    pub(crate) call_digest: Option<String>,
}

impl Durability {
    /// The journal and approvals on `store`, with this process named as `<host> pid <pid>`.
    pub fn new(store: impl CallStore) -> Self {
        Self::shared(Arc::new(store))
    }

    /// Like [`new`](Self::new), with a store shared with others.
    pub fn shared(store: Arc<dyn CallStore>) -> Self {
        Self {
            store,
            place: this_process(),
            approvals: None,
        }
    }

    /// Names this process as `place` in what it records (a replica's name, say).
    #[must_use]
    pub fn with_place(mut self, place: impl Into<String>) -> Self {
        self.place = place.into();
        self
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn CallStore> {
        &self.store
    }

    /// What this process is called in what it records.
    pub fn place(&self) -> &str {
        &self.place
    }

    /// Decides what an attempt of the call `intent` names may do, recording its intent when it
    /// may run.
    ///
    /// An `async` block rather than an `async fn` (whose argument would take a second slot), and
    /// nothing as large as an entry kept across a wait but the attempt's own: the future is
    /// held inside every journaled call's, which is boxed and moved whole.
    #[expect(
        clippy::manual_async_fn,
        reason = "an `async fn` would copy its argument into a second slot of the future"
    )]
    pub(crate) fn admit<'a>(
        &'a self,
        intent: Intent<'a>,
    ) -> impl Future<Output = StoreResult<Admission>> + Send + 'a {
        async move {
            if let Some((digest, within_ms)) = &intent.answer
                && let Some(answer) = self.store.answer(digest).await?
            {
                let fresh = answer
                    .finished_at_ms
                    .is_some_and(|at| now_ms().saturating_sub(at) <= *within_ms);
                if fresh {
                    return Ok(Admission::Replay(answer));
                }
            }
            let rerunnable = intent.rerunnable;
            let mut entry = JournalEntry {
                key: intent.key,
                tool: intent.tool.to_owned(),
                agent: intent.agent.map(str::to_owned),
                arguments_digest: intent.answer.map(|(digest, _)| digest),
                call_digest: intent.call_digest,
                state: JournalState::Started,
                attempt: 1,
                started_at_ms: now_ms(),
                place: self.place.clone(),
                finished_at_ms: None,
                outcome: None,
            };
            for _ in 0..RACES {
                let Some(existing) = self.store.insert_entry(&entry).await? else {
                    return Ok(Admission::Run { entry });
                };
                // A run's position is compared here too: its first attempt reads nothing before
                // its calls start, and another attempt of the run may have recorded the position
                // since.
                if let Some(digest) = &entry.call_digest
                    && let Some(divergence) = Divergence::between(
                        &existing.tool,
                        existing.call_digest.as_deref(),
                        &entry.tool,
                        digest,
                    )
                {
                    return Ok(Admission::Diverged(divergence));
                }
                let may_run = match existing.state {
                    JournalState::Completed => return Ok(Admission::Replay(existing)),
                    JournalState::Failed | JournalState::RunAgain => true,
                    JournalState::Started => rerunnable,
                };
                if !may_run {
                    return Ok(Admission::InDoubt(existing));
                }
                let (attempt, state) = (existing.attempt, existing.state);
                drop(existing);
                entry.attempt = attempt + 1;
                entry.started_at_ms = now_ms();
                if self
                    .store
                    .replace_entry(attempt, state, entry.clone())
                    .await?
                {
                    return Ok(Admission::Run { entry });
                }
            }
            // Another process keeps moving the entry on: it is running the call. (A store never
            // removes an entry, so the key still has one.)
            Ok(match self.store.entry(&entry.key).await? {
                Some(recorded) if recorded.state == JournalState::Completed => {
                    Admission::Replay(recorded)
                }
                Some(recorded) => Admission::InDoubt(recorded),
                None => Admission::InDoubt(entry),
            })
        }
    }

    /// Records how the attempt `entry` ended, moving `entry` on to it and into the store: a
    /// success as `completed`, a failure the body reported as `failed`; a body that timed out,
    /// panicked or was cancelled stays `started` (in doubt), and nothing is recorded (`None`).
    /// The store's write answers whether it recorded the outcome. Not `async`: the entry goes to
    /// the store at once, and only the store's own future is waited for.
    pub(crate) fn record(
        &self,
        mut entry: JournalEntry,
        result: &ToolExecutionResult,
    ) -> Option<BoxFuture<'_, StoreResult<bool>>> {
        // A body that ended by one of these never said how far it got.
        const IN_DOUBT: [ErrorCode; 4] = [
            ErrorCode::ToolTimeout,
            ErrorCode::ToolPanicked,
            ErrorCode::Aborted,
            ErrorCode::TimerUnavailable,
        ];
        let state = match result.error_code() {
            None => JournalState::Completed,
            Some(code) if IN_DOUBT.iter().any(|in_doubt| *in_doubt == code) => return None,
            Some(_) => JournalState::Failed,
        };
        entry.state = state;
        entry.finished_at_ms = Some(now_ms());
        entry.outcome = Some(RecordedOutcome::of(result));
        Some(
            self.store
                .replace_entry(entry.attempt, JournalState::Started, entry),
        )
    }

    /// Takes `decision` about the call of `key`, if it is in doubt (`started`); answers whether
    /// it was taken (`false`: no such call, or it is not in doubt, or another process decided
    /// first).
    pub(crate) async fn decide(&self, key: &str, decision: CallDecision) -> StoreResult<bool> {
        let Some(entry) = self.store.entry(key).await? else {
            return Ok(false);
        };
        if entry.state != JournalState::Started {
            return Ok(false);
        }
        let attempt = entry.attempt;
        let mut decided = entry;
        match decision {
            CallDecision::RunAgain => decided.state = JournalState::RunAgain,
            CallDecision::GiveUp { reason } => {
                let error = ToolError::call_given_up(
                    &format_time(decided.started_at_ms),
                    &decided.place,
                    &reason,
                );
                decided.state = JournalState::Completed;
                decided.outcome = Some(RecordedOutcome::failure(&error));
                decided.finished_at_ms = Some(now_ms());
            }
            CallDecision::Record(outcome) => {
                decided.state = JournalState::Completed;
                decided.outcome = Some(outcome);
                decided.finished_at_ms = Some(now_ms());
            }
        }
        self.store
            .replace_entry(attempt, JournalState::Started, decided)
            .await
    }

    /// The journal's entries in `state` (or all of them), ordered by key.
    pub(crate) async fn entries(
        &self,
        state: Option<JournalState>,
    ) -> StoreResult<Vec<JournalEntry>> {
        self.store.entries(state).await
    }
}

/// The `CALL_IN_DOUBT` error for the in-doubt `entry`.
pub(crate) fn in_doubt(entry: &JournalEntry) -> ToolError {
    ToolError::call_in_doubt(&format_time(entry.started_at_ms), &entry.place)
}

#[cfg(test)]
mod tests {
    use super::{Admission, Durability, Intent};
    use crate::durable::memory::MemoryStore;
    use crate::durable::position::Divergence;
    use crate::result::ToolExecutionResult;

    fn position<'a>(tool: &'a str, digest: &str) -> Intent<'a> {
        Intent {
            key: "idem-run/1".to_owned(),
            tool,
            agent: None,
            rerunnable: false,
            answer: None,
            call_digest: Some(digest.to_owned()),
        }
    }

    #[tokio::test]
    async fn a_position_recorded_for_another_call_is_not_replayed() {
        let durability = Durability::new(MemoryStore::new());
        let Ok(Admission::Run { entry }) = durability.admit(position("a", "d1")).await else {
            panic!("the first attempt runs");
        };
        let result = ToolExecutionResult::success(serde_json::json!(1));
        let recording = durability
            .record(entry, &result)
            .expect("a success is recorded");
        assert_eq!(recording.await, Ok(true));

        let diverged = durability.admit(position("b", "d1")).await;
        let Ok(Admission::Diverged(divergence)) = diverged else {
            panic!("another tool diverges: {diverged:?}");
        };
        assert_eq!(
            divergence,
            Divergence {
                recorded_tool: "a".to_owned(),
                same_tool: false
            }
        );
        let diverged = durability.admit(position("a", "d2")).await;
        assert!(
            matches!(&diverged, Ok(Admission::Diverged(d)) if d.same_tool),
            "other arguments diverge: {diverged:?}"
        );
        let replayed = durability.admit(position("a", "d1")).await;
        assert!(
            matches!(replayed, Ok(Admission::Replay(_))),
            "the same call replays: {replayed:?}"
        );
    }
}
