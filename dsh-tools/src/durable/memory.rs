//! [`MemoryStore`]: the call store in this process's memory. What a registry with a journal but
//! no file or server keeps: retries within the process are replayed, and a restart forgets
//! everything. By default it keeps every record; a long-running process bounds how many settled
//! records it remembers ([`MemoryStore::keeping_finished`]): finished calls, settled approvals and
//! finished tasks, each forgetting the oldest first.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

use crate::durable::clock::now_ms;
use crate::durable::record::{
    ApprovalRecord, ApprovalState, JournalEntry, JournalState, TaskRecord, TaskState,
};
use crate::durable::store::{CallStore, StoreResult};
use crate::future::BoxFuture;
use crate::name_hash::SeededNameHash;

/// The call store in memory (see the module docs).
#[derive(Default)]
pub struct MemoryStore {
    inner: Mutex<Records>,
    /// How many finished calls it remembers at most (`None`: all of them).
    keep_finished: Option<usize>,
}

/// The maps keyed by call keys and digests hash with [`SeededNameHash`]: a key is a digest of
/// what a model sent, short and hashed on every journaled call, for which SipHash's setup was
/// most of a lookup.
#[derive(Default)]
struct Records {
    entries: HashMap<String, JournalEntry, SeededNameHash>,
    /// For each digest of a read-only call (see [`JournalEntry::arguments_digest`]), the key of
    /// its latest completed entry: answering within a time to live is one lookup, not a scan.
    answers: HashMap<String, String, SeededNameHash>,
    approvals: BTreeMap<String, ApprovalRecord>,
    tasks: BTreeMap<String, TaskRecord>,
    /// With a bound: the entries that finished (completed or failed), oldest first, each with
    /// the number of its finish, and the number of the latest finish of each key still
    /// finished. An entry that runs again leaves the second map; its older place in the queue
    /// is skipped.
    finished: VecDeque<(u64, String)>,
    finished_at: HashMap<String, u64, SeededNameHash>,
    finishes: u64,
    /// With a bound: the sizes past which the approvals and the tasks are swept next.
    sweep_approvals_at: usize,
    sweep_tasks_at: usize,
}

impl MemoryStore {
    /// An empty store that remembers every call.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store that remembers at most `limit` finished calls (completed or failed),
    /// forgetting the oldest first, so that a process running for months holds a bounded
    /// journal. A retry of a forgotten call runs its body again, as after a restart; a call
    /// started and not finished (running, or in doubt) is never forgotten.
    ///
    /// The same bound holds for approvals and served MCP tasks, swept in batches: once a map has
    /// grown by `limit` records (at least 16) since its last sweep, the settled approvals
    /// (rejected, used, or expired) past the latest `limit` are forgotten, the oldest asked
    /// first, and so are the finished tasks (completed, failed or cancelled), the oldest
    /// finished first. A retry of a call whose approval was forgotten asks again with a new
    /// pending approval; polling a forgotten task reports it unknown, as after its time to live.
    /// A pending approval and a task still working are never forgotten.
    pub fn keeping_finished(limit: usize) -> Self {
        Self {
            keep_finished: Some(limit),
            ..Self::default()
        }
    }

    fn with<R>(&self, f: impl FnOnce(&mut Records) -> R) -> R {
        f(&mut self.inner.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Notes what `entry`, just stored, means for the bound: a finished call joins the queue,
    /// one that runs again leaves it, and the oldest finished ones past the bound are forgotten.
    fn bound(&self, records: &mut Records, entry: &JournalEntry) {
        let Some(limit) = self.keep_finished else {
            return;
        };
        if matches!(entry.state, JournalState::Completed | JournalState::Failed) {
            records.finishes += 1;
            records
                .finished
                .push_back((records.finishes, entry.key.clone()));
            records
                .finished_at
                .insert(entry.key.clone(), records.finishes);
        } else {
            records.finished_at.remove(&entry.key);
        }
        while records.finished_at.len() > limit {
            let Some((finish, key)) = records.finished.pop_front() else {
                break;
            };
            if records.finished_at.get(&key) == Some(&finish) {
                records.forget(&key);
            }
        }
        // Places of keys that ran again or finished again since: dropped once they are most.
        if records.finished.len() > 2 * records.finished_at.len() + 64 {
            let finished_at = &records.finished_at;
            records
                .finished
                .retain(|(finish, key)| finished_at.get(key) == Some(finish));
        }
    }
}

impl Records {
    /// Forgets the finished entry `key`, and its digest's answer if it was that.
    fn forget(&mut self, key: &str) {
        self.finished_at.remove(key);
        let Some(entry) = self.entries.remove(key) else {
            return;
        };
        if let Some(digest) = &entry.arguments_digest
            && self.answers.get(digest).is_some_and(|answer| answer == key)
        {
            self.answers.remove(digest);
        }
    }

    /// Keeps `entry` as its digest's answer when it is the latest completed one.
    fn note_answer(&mut self, entry: &JournalEntry) {
        let (JournalState::Completed, Some(digest)) = (entry.state, &entry.arguments_digest) else {
            return;
        };
        let latest = match self.answers.get(digest) {
            Some(key) if *key == entry.key => true,
            Some(key) => self
                .entries
                .get(key)
                .is_none_or(|known| known.finished_at_ms <= entry.finished_at_ms),
            None => true,
        };
        if latest {
            self.answers.insert(digest.clone(), entry.key.clone());
        }
    }
}

/// Forgets the oldest settled records of `records` until at most `limit` settled ones remain,
/// once the map has grown past `*next` since the last sweep: a sweep reads every record, so it
/// runs once per `limit` (at least 16) insertions, and the records still open (a pending
/// approval, a working task), which are never forgotten, do not make each insertion a scan.
fn sweep<R>(
    records: &mut BTreeMap<String, R>,
    next: &mut usize,
    limit: usize,
    settled_at: impl Fn(&R) -> Option<u64>,
) {
    if records.len() <= limit.max(*next) {
        return;
    }
    let mut settled: Vec<(u64, String)> = records
        .iter()
        .filter_map(|(id, record)| Some((settled_at(record)?, id.clone())))
        .collect();
    if settled.len() > limit {
        settled.sort_unstable();
        for (_, id) in settled.drain(..settled.len() - limit) {
            records.remove(&id);
        }
    }
    *next = records.len().saturating_add(limit.max(16));
}

/// When `approval` settled, by the time it was asked, if it did at `now`: rejected, used, or
/// expired before anyone used it. An approval still pending or approved and unused within its
/// time waits for its call.
fn approval_settled_at(approval: &ApprovalRecord, now: u64) -> Option<u64> {
    let settled = matches!(
        approval.state,
        ApprovalState::Rejected | ApprovalState::Used
    ) || now > approval.expires_at_ms;
    settled.then_some(approval.created_at_ms)
}

/// When `task` finished, if it did.
fn task_finished_at(task: &TaskRecord) -> Option<u64> {
    task.state.is_final().then_some(task.updated_at_ms)
}

impl std::fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (entries, approvals) =
            self.with(|records| (records.entries.len(), records.approvals.len()));
        f.debug_struct("MemoryStore")
            .field("entries", &entries)
            .field("approvals", &approvals)
            .field("keep_finished", &self.keep_finished)
            .finish()
    }
}

impl CallStore for MemoryStore {
    fn insert_entry<'a>(
        &'a self,
        entry: &'a JournalEntry,
    ) -> BoxFuture<'a, StoreResult<Option<JournalEntry>>> {
        let existing = self.with(|records| match records.entries.get(&entry.key) {
            Some(existing) => Some(existing.clone()),
            None => {
                records.note_answer(entry);
                records.entries.insert(entry.key.clone(), entry.clone());
                self.bound(records, entry);
                None
            }
        });
        Box::pin(std::future::ready(Ok(existing)))
    }

    fn replace_entry(
        &self,
        attempt: u64,
        state: JournalState,
        entry: JournalEntry,
    ) -> BoxFuture<'_, StoreResult<bool>> {
        let replaced = self.with(|records| {
            let is_at =
                |current: &JournalEntry| current.attempt == attempt && current.state == state;
            // Kept as given: the entry and its outcome are not copied.
            let bookkept = self.keep_finished.is_some()
                || (entry.state == JournalState::Completed && entry.arguments_digest.is_some());
            if !bookkept {
                return match records.entries.get_mut(&entry.key) {
                    Some(current) if is_at(current) => {
                        *current = entry;
                        true
                    }
                    _ => false,
                };
            }
            if !records.entries.get(&entry.key).is_some_and(is_at) {
                return false;
            }
            records.note_answer(&entry);
            self.bound(records, &entry);
            // The bound may have forgotten the entry at once (a bound of none).
            if let Some(current) = records.entries.get_mut(&entry.key) {
                *current = entry;
            }
            true
        });
        Box::pin(std::future::ready(Ok(replaced)))
    }

    fn entry<'a>(&'a self, key: &'a str) -> BoxFuture<'a, StoreResult<Option<JournalEntry>>> {
        let entry = self.with(|records| records.entries.get(key).cloned());
        Box::pin(std::future::ready(Ok(entry)))
    }

    fn entries(
        &self,
        state: Option<JournalState>,
    ) -> BoxFuture<'_, StoreResult<Vec<JournalEntry>>> {
        let mut entries: Vec<JournalEntry> = self.with(|records| {
            records
                .entries
                .values()
                .filter(|entry| state.is_none_or(|state| entry.state == state))
                .cloned()
                .collect()
        });
        entries.sort_by(|a, b| a.key.cmp(&b.key));
        Box::pin(std::future::ready(Ok(entries)))
    }

    fn answer<'a>(&'a self, digest: &'a str) -> BoxFuture<'a, StoreResult<Option<JournalEntry>>> {
        let entry = self.with(|records| {
            let key = records.answers.get(digest)?;
            records.entries.get(key).cloned()
        });
        Box::pin(std::future::ready(Ok(entry)))
    }

    fn insert_approval<'a>(
        &'a self,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, StoreResult<Option<ApprovalRecord>>> {
        let existing = self.with(|records| match records.approvals.get(&approval.id) {
            Some(existing) => Some(existing.clone()),
            None => {
                records
                    .approvals
                    .insert(approval.id.clone(), approval.clone());
                if let Some(limit) = self.keep_finished {
                    let now = now_ms();
                    sweep(
                        &mut records.approvals,
                        &mut records.sweep_approvals_at,
                        limit,
                        |approval| approval_settled_at(approval, now),
                    );
                }
                None
            }
        });
        Box::pin(std::future::ready(Ok(existing)))
    }

    fn replace_approval<'a>(
        &'a self,
        state: ApprovalState,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, StoreResult<bool>> {
        let replaced = self.with(|records| match records.approvals.get_mut(&approval.id) {
            Some(current) if current.state == state => {
                *current = approval.clone();
                true
            }
            _ => false,
        });
        Box::pin(std::future::ready(Ok(replaced)))
    }

    fn approval<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<Option<ApprovalRecord>>> {
        let approval = self.with(|records| records.approvals.get(id).cloned());
        Box::pin(std::future::ready(Ok(approval)))
    }

    fn approvals(
        &self,
        state: Option<ApprovalState>,
    ) -> BoxFuture<'_, StoreResult<Vec<ApprovalRecord>>> {
        let approvals = self.with(|records| {
            records
                .approvals
                .values()
                .filter(|approval| state.is_none_or(|state| approval.state == state))
                .cloned()
                .collect()
        });
        Box::pin(std::future::ready(Ok(approvals)))
    }

    fn insert_task<'a>(
        &'a self,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, StoreResult<Option<TaskRecord>>> {
        let existing = self.with(|records| match records.tasks.get(&task.id) {
            Some(existing) => Some(existing.clone()),
            None => {
                records.tasks.insert(task.id.clone(), task.clone());
                if let Some(limit) = self.keep_finished {
                    sweep(
                        &mut records.tasks,
                        &mut records.sweep_tasks_at,
                        limit,
                        task_finished_at,
                    );
                }
                None
            }
        });
        Box::pin(std::future::ready(Ok(existing)))
    }

    fn replace_task<'a>(
        &'a self,
        revision: u64,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, StoreResult<bool>> {
        let replaced = self.with(|records| match records.tasks.get_mut(&task.id) {
            Some(current) if current.revision == revision => {
                *current = task.clone();
                true
            }
            _ => false,
        });
        Box::pin(std::future::ready(Ok(replaced)))
    }

    fn task<'a>(&'a self, id: &'a str) -> BoxFuture<'a, StoreResult<Option<TaskRecord>>> {
        let task = self.with(|records| records.tasks.get(id).cloned());
        Box::pin(std::future::ready(Ok(task)))
    }

    fn tasks(&self, state: Option<TaskState>) -> BoxFuture<'_, StoreResult<Vec<TaskRecord>>> {
        let tasks = self.with(|records| {
            records
                .tasks
                .values()
                .filter(|task| state.is_none_or(|state| task.state == state))
                .cloned()
                .collect()
        });
        Box::pin(std::future::ready(Ok(tasks)))
    }
}
