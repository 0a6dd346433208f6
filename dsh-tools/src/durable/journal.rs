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
//!
//! The table is `attempt.rs`'s [`judge`]; two drivers apply it. [`Durability::admit`] and
//! [`Durability::record`] drive any store through the [`CallStore`] trait (insert, then compare
//! and set, trying again when another process moved the entry on). The store in memory is driven
//! by plain calls instead ([`MemoryStore::admit`](crate::durable::MemoryStore), under its lock):
//! a journaled call then boxes no store future and copies no entry (see `memory.rs`).

use std::any::Any;
use std::future::Future;
use std::sync::Arc;

use crate::durable::attempt::{
    Admission, Attempt, Found, Intent, KeptAttempt, finished_state, fresh, judge, judge_state,
};
use crate::durable::clock::{Stamp, format_time, now_ms, this_process};
use crate::durable::memory::MemoryStore;
use crate::durable::record::{CallDecision, JournalEntry, JournalState, RecordedOutcome};
use crate::durable::store::{CallStore, StoreError};
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
    /// The same store when it is a [`MemoryStore`], which the journal drives without futures.
    local: Option<Arc<MemoryStore>>,
    /// Shared with every entry the store in memory keeps.
    pub(crate) place: Arc<str>,
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

impl Durability {
    /// The journal and approvals on `store`, with this process named as `<host> pid <pid>`. A
    /// store shared with others is passed as its `Arc` (`Durability::new(Arc::clone(&store))`).
    pub fn new(store: impl CallStore) -> Self {
        let store = into_shared(store);
        let any: Arc<dyn Any + Send + Sync> = Arc::clone(&store) as _;
        Self {
            local: any.downcast::<MemoryStore>().ok(),
            store,
            place: Arc::from(this_process()),
            approvals: None,
        }
    }

    /// Names this process as `place` in what it records (a replica's name, say).
    #[must_use]
    pub fn with_place(mut self, place: impl Into<String>) -> Self {
        self.place = Arc::from(place.into());
        self
    }

    /// The store.
    #[cfg(any(feature = "mcp", test))]
    pub(crate) fn store(&self) -> &Arc<dyn CallStore> {
        &self.store
    }

    /// What this process is called in what it records.
    #[cfg(any(feature = "mcp", test))]
    pub(crate) fn place(&self) -> &str {
        &self.place
    }

    /// Whether the store is the one in memory, which [`admit_now`](Self::admit_now) decides for
    /// at once.
    #[inline]
    pub(crate) fn in_memory(&self) -> bool {
        self.local.is_some()
    }

    /// Decides what an attempt of the call `intent` names may do, recording its intent when it
    /// may run: at once for the store in memory (`Ok`), otherwise the intent back (`Err`) for
    /// [`admit`](Self::admit).
    pub(crate) fn admit_now<'a>(
        &self,
        intent: Intent<'a>,
    ) -> Result<Admission<KeptAttempt>, Intent<'a>> {
        match &self.local {
            Some(memory) => Ok(memory.admit(intent, &self.place)),
            None => Err(intent),
        }
    }

    /// Decides what an attempt of the call `intent` names may do, recording its intent when it
    /// may run, through the [`CallStore`] trait.
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
    ) -> impl Future<Output = Result<Admission, StoreError>> + Send + 'a {
        async move {
            if let Some((digest, within_ms)) = &intent.answer
                && let Some(answer) = self.store.answer(digest).await?
                && fresh(answer.finished_at_ms, *within_ms, now_ms())
            {
                return Ok(Admission::Replay(Box::new(answer)));
            }
            let mut entry = JournalEntry {
                key: intent.key.text(),
                tool: intent.tool.to_owned(),
                agent: intent.agent.map(str::to_owned),
                arguments_digest: intent.answer.as_ref().map(|(digest, _)| digest.clone()),
                call_digest: intent.call_digest.clone(),
                state: JournalState::Started,
                attempt: 1,
                started_at_ms: now_ms(),
                place: String::from(&*self.place),
                finished_at_ms: None,
                outcome: None,
            };
            for _ in 0..RACES {
                let Some(existing) = self.store.insert_entry(&entry).await? else {
                    return Ok(Admission::Run(Attempt::Entry {
                        entry: Box::new(entry),
                        key: intent.key,
                    }));
                };
                match judge(
                    &existing.tool,
                    existing.call_digest.as_deref(),
                    existing.state,
                    &intent,
                ) {
                    Found::Replay => return Ok(Admission::Replay(Box::new(existing))),
                    Found::InDoubt => return Ok(Admission::InDoubt(Box::new(existing))),
                    Found::Diverged(divergence) => return Ok(Admission::Diverged(divergence)),
                    Found::RunNext => {}
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
                    return Ok(Admission::Run(Attempt::Entry {
                        entry: Box::new(entry),
                        key: intent.key,
                    }));
                }
            }
            // Another process keeps moving the entry on: it is running the call. (A store never
            // removes an entry, so the key still has one.)
            Ok(match self.store.entry(&entry.key).await? {
                Some(recorded) if recorded.state == JournalState::Completed => {
                    Admission::Replay(Box::new(recorded))
                }
                Some(recorded) => Admission::InDoubt(Box::new(recorded)),
                None => Admission::InDoubt(Box::new(entry)),
            })
        }
    }

    /// Records how `attempt` ended (see [`finished_state`]). In memory the outcome is kept at
    /// once and nothing is left to wait for (`None`); through the trait the entry moves on to
    /// the outcome and into the store, whose write (`Some`) answers whether it recorded it. Not
    /// `async`: only the store's own future is waited for.
    pub(crate) fn record(
        &self,
        attempt: Attempt,
        result: &ToolExecutionResult,
    ) -> Option<BoxFuture<'_, Result<bool, StoreError>>> {
        match attempt {
            Attempt::Kept(kept) => {
                self.record_kept(&kept, result);
                None
            }
            Attempt::Entry { entry, .. } => {
                let state = finished_state(result)?;
                let mut entry = *entry;
                entry.state = state;
                entry.finished_at_ms = Some(now_ms());
                entry.outcome = Some(RecordedOutcome::of(result));
                Some(
                    self.store
                        .replace_entry(entry.attempt, JournalState::Started, entry),
                )
            }
        }
    }

    /// Records how `attempt`, which the store in memory admitted, ended (see
    /// [`finished_state`]), at once.
    pub(crate) fn record_kept(&self, attempt: &KeptAttempt, result: &ToolExecutionResult) {
        if let Some(state) = finished_state(result)
            && let Some(memory) = &self.local
        {
            // Not recorded means another attempt moved the entry on: as through the trait, the
            // body's result stands.
            let _recorded = memory.finish(attempt, state, Stamp::now(), result);
        }
    }

    /// Whether the journal answers the next attempt of the call of `key` without running its
    /// body: its entry completed (replayed), or started with nothing recorded after for a tool
    /// that may not run again (`rerunnable`: idempotent, read-only or a Code Mode run), which is
    /// in doubt: the rows of [`judge_state`] that run no body. No entry, a failed one or one let
    /// run again runs it.
    pub(crate) async fn answers_without_body(
        &self,
        key: &str,
        rerunnable: bool,
    ) -> Result<bool, StoreError> {
        Ok(self.store.entry(key).await?.is_some_and(|entry| {
            matches!(
                judge_state(entry.state, rerunnable),
                Found::Replay | Found::InDoubt
            )
        }))
    }

    /// Takes `decision` about the call of `key`, if it is in doubt (`started`); answers whether
    /// it was taken (`false`: no such call, or it is not in doubt, or another process decided
    /// first).
    pub(crate) async fn decide(
        &self,
        key: &str,
        decision: CallDecision,
    ) -> Result<bool, StoreError> {
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
    ) -> Result<Vec<JournalEntry>, StoreError> {
        self.store.entries(state).await
    }
}

/// `store` behind one `Arc`: a store already shared (`Arc<dyn CallStore>`, `Arc<MemoryStore>`)
/// as it is, so that the journal reaches it without a second indirection and still finds the
/// store in memory.
fn into_shared<S: CallStore>(store: S) -> Arc<dyn CallStore> {
    let mut slot = Some(store);
    let any: &mut dyn Any = &mut slot;
    if let Some(shared) = any
        .downcast_mut::<Option<Arc<dyn CallStore>>>()
        .and_then(Option::take)
    {
        return shared;
    }
    if let Some(memory) = any
        .downcast_mut::<Option<Arc<MemoryStore>>>()
        .and_then(Option::take)
    {
        return memory;
    }
    match slot {
        Some(store) => Arc::new(store),
        None => unreachable!("only a shared store is taken out of the slot"),
    }
}

/// The `CALL_IN_DOUBT` error for the in-doubt `entry`.
pub(crate) fn in_doubt(entry: &JournalEntry) -> ToolError {
    ToolError::call_in_doubt(&format_time(entry.started_at_ms), &entry.place)
}

#[cfg(test)]
mod tests {
    use super::Durability;
    use crate::durable::attempt::{Admission, Attempt, Intent, KeptAttempt};
    use crate::durable::call_key::CallKey;
    use crate::durable::memory::MemoryStore;
    use crate::durable::position::Divergence;
    use crate::durable::record::JournalState;
    use crate::errors::tool_error::ToolError;
    use crate::result::ToolExecutionResult;

    fn position<'a>(tool: &'a str, digest: &str) -> Intent<'a> {
        Intent {
            key: CallKey::from_text("idem-run/1"),
            tool,
            agent: None,
            rerunnable: false,
            answer: None,
            call_digest: Some(digest.to_owned()),
        }
    }

    #[tokio::test]
    async fn a_position_recorded_for_another_call_is_not_replayed() {
        let durability = Durability::new(MemoryStore::default());
        let Ok(Admission::Run(attempt)) = durability.admit(position("a", "d1")).await else {
            panic!("the first attempt runs");
        };
        let result = ToolExecutionResult::success(serde_json::json!(1));
        let recording = durability
            .record(attempt, &result)
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

    #[tokio::test]
    async fn an_outcome_kept_without_its_rendering_reads_back_as_recorded() {
        use crate::content::{ContentBlock, render_value_as_text};
        let durability = Durability::new(MemoryStore::default());
        let shown = [
            serde_json::json!("/src"),
            serde_json::json!(null),
            serde_json::json!(true),
            serde_json::json!(3),
        ];
        for (n, value) in shown.iter().enumerate() {
            let contents = [
                vec![render_value_as_text(value)],
                vec![ContentBlock::text("other")],
            ];
            for (m, content) in contents.into_iter().enumerate() {
                let key = format!("idem-shown/{n}/{m}");
                let intent = Intent {
                    key: CallKey::from_text(&key),
                    ..call(false)
                };
                let Ok(Admission::Run(attempt)) = durability.admit_now(intent) else {
                    panic!("a new call runs");
                };
                let result =
                    ToolExecutionResult::success(value.clone()).with_content(content.clone());
                assert!(durability.record(Attempt::Kept(attempt), &result).is_none());
                let stored = durability.store().entry(&key).await;
                let outcome = stored.expect("answers").expect("kept").outcome;
                assert_eq!(
                    outcome.expect("recorded"),
                    crate::durable::record::RecordedOutcome::of(&result),
                    "{value} shown as {content:?}"
                );
            }
        }
    }

    fn call(rerunnable: bool) -> Intent<'static> {
        Intent {
            key: CallKey::from_text("idem-call"),
            tool: "send",
            agent: None,
            rerunnable,
            answer: None,
            call_digest: None,
        }
    }

    #[tokio::test]
    async fn the_store_in_memory_is_driven_at_once_by_the_same_rules() {
        let durability = Durability::new(MemoryStore::default());
        let Ok(Admission::Run(attempt)) = durability.admit_now(call(false)) else {
            panic!("the first attempt runs at once");
        };
        assert!(matches!(attempt, KeptAttempt { number: 1, .. }));
        // Not recorded (the body timed out, say): in doubt, unless the tool may run again.
        let in_doubt = durability.admit_now(call(false));
        assert!(
            matches!(&in_doubt, Ok(Admission::InDoubt(entry)) if entry.attempt == 1),
            "{in_doubt:?}"
        );
        let Ok(Admission::Run(attempt)) = durability.admit_now(call(true)) else {
            panic!("an idempotent tool runs again");
        };
        assert_eq!(attempt.number, 2);
        // A failure with a code of its own (one that says the body ended, not how far it got).
        let failure = ToolExecutionResult::failure(ToolError::store_failed("no"));
        assert!(
            durability
                .record(Attempt::Kept(attempt), &failure)
                .is_none(),
            "kept at once"
        );
        let Ok(Admission::Run(attempt)) = durability.admit_now(call(false)) else {
            panic!("a failed call runs again");
        };
        assert_eq!(attempt.number, 3);
        let result = ToolExecutionResult::success(serde_json::json!(7));
        assert!(durability.record(Attempt::Kept(attempt), &result).is_none());
        let replayed = durability.admit_now(call(false));
        let Ok(Admission::Replay(entry)) = replayed else {
            panic!("a completed call replays: {replayed:?}");
        };
        assert_eq!((entry.key.as_str(), entry.attempt), ("idem-call", 3));
        // The trait reads what was kept, as any backend would have it.
        let stored = durability.store().entry("idem-call").await;
        let stored = stored.expect("the store answers").expect("kept");
        assert_eq!(stored, *entry);
        assert_eq!(stored.state, JournalState::Completed);
        assert_eq!(stored.place, durability.place());
        assert_eq!(
            stored.outcome.expect("recorded").value,
            Some(serde_json::json!(7))
        );
    }
}
