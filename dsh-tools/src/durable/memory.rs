//! [`MemoryStore`]: the call store in this process's memory. What a registry with a journal but
//! no file or server keeps: retries within the process are replayed, and a restart forgets
//! everything. By default it keeps every call; a long-running process bounds how many finished
//! calls it remembers ([`MemoryStore::keeping_finished`]), forgetting the oldest first.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

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

    fn replace_entry<'a>(
        &'a self,
        attempt: u64,
        state: JournalState,
        entry: &'a JournalEntry,
    ) -> BoxFuture<'a, StoreResult<bool>> {
        let replaced = self.with(|records| {
            let replaced = match records.entries.get_mut(&entry.key) {
                Some(current) if current.attempt == attempt && current.state == state => {
                    current.clone_from(entry);
                    true
                }
                _ => false,
            };
            if replaced {
                records.note_answer(entry);
                self.bound(records, entry);
            }
            replaced
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
