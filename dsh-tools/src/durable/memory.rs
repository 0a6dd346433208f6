//! [`MemoryStore`]: the call store in this process's memory. What a registry with a journal but
//! no file or server keeps: retries within the process are replayed, and a restart forgets
//! everything. By default it keeps every record; a long-running process bounds how many settled
//! records it remembers ([`MemoryStore::keeping_finished`]): finished calls, settled approvals and
//! finished tasks, each forgetting the oldest first.
//!
//! The journal drives it by plain calls ([`MemoryStore::admit`], [`MemoryStore::finish`]),
//! applying the journal's rules (`journal.rs`) under the store's lock: a journaled call boxes no
//! future, and its entry is made once, in the store. The store keeps an entry as a `Kept`
//! record keyed by the call's key as the journal holds it (`call_key.rs`: a made key as its
//! digest's 128 bits, its text written only when read), with the place shared by every entry of
//! the process, and a success shown as its value's default rendering without a copy of that
//! content (it is rendered again when read); what it answers through the [`CallStore`] trait is
//! a [`JournalEntry`] made from it, the same as it was given or as the journal recorded it.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::content::{ContentBlock, render_value_as_text};
use crate::durable::attempt::{Admission, Found, Intent, KeptAttempt, fresh, judge};
use crate::durable::call_key::CallKey;
use crate::durable::clock::{Stamp, now_ms};
use crate::durable::record::{
    ApprovalRecord, ApprovalState, JournalEntry, JournalState, RecordedOutcome, TaskRecord,
    TaskState,
};
use crate::durable::store::{CallStore, StoreError};
use crate::future::BoxFuture;
use crate::name_hash::SeededNameHash;
use crate::result::{ToolExecutionResult, ToolOutcome};

/// The call store in memory (see the module docs): `MemoryStore::default()` remembers every
/// call, [`keeping_finished`](Self::keeping_finished) a bounded number.
#[derive(Default)]
pub struct MemoryStore {
    inner: Mutex<Records>,
    /// How many finished calls it remembers at most (`None`: all of them).
    keep_finished: Option<usize>,
}

/// The maps keyed by call keys and digests hash with [`SeededNameHash`]: a key is a digest of
/// what a model sent, short and hashed on every journaled call, for which SipHash's setup was
/// most of a lookup; a made key is two words to it.
///
/// The entries sit in a slab (`slots`, each with its key) that the map indexes: an attempt the
/// store admitted remembers where its entry sits, so that recording its outcome is an index
/// and a comparison of keys, not a second hash and probe, and the map's slot (moved whenever the
/// map grows) is a key and an index rather than a whole entry.
#[derive(Default)]
struct Records {
    /// Where each key's entry sits in `slots`.
    entries: HashMap<CallKey, usize, SeededNameHash>,
    /// The entries with their keys. A forgotten entry's place is taken by the last one (whose
    /// index in `entries` moves with it): an attempt that finds another key at its place looks
    /// its own up.
    slots: Vec<(CallKey, Kept)>,
    /// The tool of the latest entry started, shared with the next one of the same tool: a
    /// process calls the same tool many times in a row, and a name compared costs less than a
    /// copy of it per entry.
    last_tool: Option<ToolName>,
    /// For each digest of a read-only call (see [`JournalEntry::arguments_digest`]), the key of
    /// its latest completed entry: answering within a time to live is one lookup, not a scan.
    answers: HashMap<String, CallKey, SeededNameHash>,
    approvals: BTreeMap<String, ApprovalRecord>,
    tasks: BTreeMap<String, TaskRecord>,
    /// With a bound: the entries that finished (completed or failed), oldest first, each with
    /// the number of its finish, and the number of the latest finish of each key still
    /// finished. An entry that runs again leaves the second map; its older place in the queue
    /// is skipped.
    finished: VecDeque<(u64, CallKey)>,
    finished_at: HashMap<CallKey, u64, SeededNameHash>,
    finishes: u64,
    /// With a bound: the sizes past which the approvals and the tasks are swept next.
    sweep_approvals_at: usize,
    sweep_tasks_at: usize,
}

/// A journal entry as the store keeps it: a [`JournalEntry`] but its key (the map's), with the
/// place shared, and what few entries have (an agent, a read-only answer's digest, a run
/// position's) and a recorded outcome other than a plain success behind one pointer each, so
/// that an entry made and moved on every call stays small: with its key, within the 128 bytes a
/// move copies inline (the map's slot is written on every call and moved when the map grows;
/// past that size each is a call to `memcpy`).
struct Kept {
    tool: ToolName,
    rare: Option<Box<Rare>>,
    state: JournalState,
    attempt: u64,
    /// The start and the finish as the clock gave them: written as milliseconds only when read.
    started: Stamp,
    finished: Option<Stamp>,
    place: Arc<str>,
    outcome: Option<KeptOutcome>,
}

/// An entry's tool, shared by the entries of the same tool behind one thin pointer (the name
/// behind a second one): the entry keeps the word a pointer with a length would take for its
/// stamps, and the name is read only when an entry is.
type ToolName = Arc<Box<str>>;

/// An entry's [`JournalEntry::agent`], [`JournalEntry::arguments_digest`] and
/// [`JournalEntry::call_digest`], when it has any.
struct Rare {
    agent: Option<String>,
    arguments: Option<String>,
    call: Option<String>,
}

impl Rare {
    /// The three, behind a pointer when there is any.
    fn kept(
        agent: Option<String>,
        arguments: Option<String>,
        call: Option<String>,
    ) -> Option<Box<Self>> {
        (agent.is_some() || arguments.is_some() || call.is_some()).then(|| {
            Box::new(Self {
                agent,
                arguments,
                call,
            })
        })
    }

    /// The three of `intent`, when it has any: most calls have none, and they are asked about
    /// before anything is copied.
    #[inline]
    fn of_intent(intent: &Intent<'_>) -> Option<Box<Self>> {
        if intent.agent.is_none() && intent.answer.is_none() && intent.call_digest.is_none() {
            return None;
        }
        Self::kept(
            intent.agent.map(str::to_owned),
            intent.answer.as_ref().map(|(digest, _)| digest.clone()),
            intent.call_digest.clone(),
        )
    }
}

/// A recorded outcome as the store keeps it. A success whose content is its value's default
/// rendering keeps the value alone (the content is rendered again when read), and only the
/// values whose rendering is checked without rendering: a string (as its text), `null` and
/// the booleans. Those are held without a [`Value`] (72 bytes with the members' order kept), so
/// that an entry stays small, and a short string in the entry itself.
enum KeptOutcome {
    /// A success whose value is this string of at most [`ShortText::MAX`] bytes, shown as its
    /// text: kept without an allocation of its own (ids, names and words are often that short).
    Short(ShortText),
    /// A success whose value is this longer string, shown as its text.
    Text(String),
    /// A success whose value is `null`, shown as `null`.
    Null,
    /// A success whose value is this boolean, shown as written.
    Bool(bool),
    /// Any other outcome, as recorded.
    Recorded(Box<RecordedOutcome>),
}

impl KeptOutcome {
    /// What the store keeps of `result`: a success shown as its value's default rendering (what
    /// [`render_value_as_text`] writes, checked without rendering) keeps no copy of its content.
    fn of(result: &ToolExecutionResult) -> Self {
        if let ToolOutcome::Success(value) = result.outcome()
            && let [ContentBlock::Text { text }] = result.content()
        {
            match value {
                Value::String(value) if same_text(value.as_bytes(), text.as_bytes()) => {
                    return ShortText::of(value)
                        .map_or_else(|| Self::Text(value.clone()), Self::Short);
                }
                Value::Null if text == "null" => return Self::Null,
                Value::Bool(flag) if text == if *flag { "true" } else { "false" } => {
                    return Self::Bool(*flag);
                }
                _ => {}
            }
        }
        Self::Recorded(Box::new(RecordedOutcome::of(result)))
    }

    /// The outcome as recorded.
    fn recorded(&self) -> RecordedOutcome {
        let value = match self {
            Self::Short(text) => Value::String(String::from(text.as_str())),
            Self::Text(text) => Value::String(text.clone()),
            Self::Null => Value::Null,
            Self::Bool(flag) => Value::Bool(*flag),
            Self::Recorded(outcome) => return RecordedOutcome::clone(outcome),
        };
        let content = vec![render_value_as_text(&value)];
        RecordedOutcome::success(value, content)
    }
}

/// A text of at most [`MAX`](Self::MAX) bytes, in place: its bytes and its length.
struct ShortText {
    bytes: [u8; ShortText::MAX],
    len: u8,
}

impl ShortText {
    /// The longest text kept in place: with its length, no more than a `String` takes, so that
    /// the entry keeps its size (a test holds it within an inline move).
    const MAX: usize = 15;

    /// `text` in place, if it is short enough.
    fn of(text: &str) -> Option<Self> {
        let len = u8::try_from(text.len())
            .ok()
            .filter(|len| usize::from(*len) <= Self::MAX)?;
        let mut bytes = [0; Self::MAX];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Some(Self { bytes, len })
    }

    fn as_str(&self) -> &str {
        // The bytes were copied from a `str`: the check passes, and the empty fallback is never
        // taken.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl Kept {
    /// The attempt `attempt` of `intent` (of the tool `tool`), started at `now` in `place`.
    fn started(
        intent: &Intent<'_>,
        tool: ToolName,
        attempt: u64,
        place: &Arc<str>,
        now: Stamp,
    ) -> Self {
        Self {
            tool,
            rare: Rare::of_intent(intent),
            state: JournalState::Started,
            attempt,
            started: now,
            place: Arc::clone(place),
            finished: None,
            outcome: None,
        }
    }

    /// `entry` but its key.
    fn of(entry: JournalEntry) -> Self {
        Self {
            tool: Arc::new(entry.tool.into_boxed_str()),
            rare: Rare::kept(entry.agent, entry.arguments_digest, entry.call_digest),
            state: entry.state,
            attempt: entry.attempt,
            started: Stamp::Ms(entry.started_at_ms),
            place: Arc::from(entry.place),
            finished: entry.finished_at_ms.map(Stamp::Ms),
            outcome: entry
                .outcome
                .map(|outcome| KeptOutcome::Recorded(Box::new(outcome))),
        }
    }

    /// The entry of `key` as the trait answers it.
    fn entry(&self, key: &CallKey) -> JournalEntry {
        JournalEntry {
            key: key.text(),
            tool: String::from(&**self.tool),
            agent: self.rare.as_ref().and_then(|rare| rare.agent.clone()),
            arguments_digest: self.arguments_digest().map(str::to_owned),
            call_digest: self.call_digest().map(str::to_owned),
            state: self.state,
            attempt: self.attempt,
            started_at_ms: self.started.ms(),
            place: String::from(&*self.place),
            finished_at_ms: self.finished_at_ms(),
            outcome: self.outcome.as_ref().map(KeptOutcome::recorded),
        }
    }

    /// See [`JournalEntry::arguments_digest`].
    fn arguments_digest(&self) -> Option<&str> {
        self.rare.as_ref()?.arguments.as_deref()
    }

    /// See [`JournalEntry::call_digest`].
    fn call_digest(&self) -> Option<&str> {
        self.rare.as_ref()?.call.as_deref()
    }

    /// See [`JournalEntry::finished_at_ms`].
    fn finished_at_ms(&self) -> Option<u64> {
        self.finished.map(Stamp::ms)
    }

    /// Whether it still stands where a writer last saw it.
    fn is_at(&self, attempt: u64, state: JournalState) -> bool {
        self.attempt == attempt && self.state == state
    }
}

impl MemoryStore {
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

    /// Notes what the entry of `key`, just stored in `state`, means for the bound: a finished
    /// call joins the queue, one that runs again leaves it, and the oldest finished ones past
    /// the bound are forgotten.
    fn bound(&self, records: &mut Records, key: &CallKey, state: JournalState) {
        let Some(limit) = self.keep_finished else {
            return;
        };
        if matches!(state, JournalState::Completed | JournalState::Failed) {
            records.finishes += 1;
            records.finished.push_back((records.finishes, key.clone()));
            records.finished_at.insert(key.clone(), records.finishes);
        } else {
            records.finished_at.remove(key);
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

    /// Whether `kept`, as just stored, needs the books kept beside the map: a bound, or a
    /// read-only call's answer.
    fn bookkept(&self, kept: &Kept) -> bool {
        self.keep_finished.is_some()
            || (kept.state == JournalState::Completed && kept.arguments_digest().is_some())
    }

    /// Keeps the books of the entry of `key`, just stored in `state` (see [`bookkept`](Self::bookkept)).
    fn keep_books(&self, records: &mut Records, key: &CallKey, state: JournalState) {
        records.note_answer(key);
        self.bound(records, key, state);
    }

    /// Decides what an attempt of the call `intent` names may do, by the journal's rules
    /// ([`judge`]), recording its intent (in `place`) when it may run. Under one lock: no other
    /// writer moves the entry on between the look and the write, so there is no race to retry.
    pub(crate) fn admit(&self, intent: Intent<'_>, place: &Arc<str>) -> Admission<KeptAttempt> {
        let now = Stamp::now();
        self.with(|records| {
            if let Some((digest, within_ms)) = &intent.answer
                && let Some((key, answer)) = records
                    .answers
                    .get(digest.as_str())
                    .and_then(|key| Some((key, records.get(key)?)))
                && fresh(answer.finished_at_ms(), *within_ms, now.ms())
            {
                return Admission::Replay(Box::new(answer.entry(key)));
            }
            // One hash and one probe: the entry API finds the slot the new entry goes into.
            let end = records.slots.len();
            let at = match records.entries.entry(intent.key.clone()) {
                Entry::Vacant(vacant) => *vacant.insert(end),
                // An index past the slab (which its own bookkeeping never leaves) is a new
                // entry's, at the end.
                Entry::Occupied(mut occupied) => {
                    let index = occupied.get_mut();
                    *index = (*index).min(end);
                    *index
                }
            };
            let attempt = match records.slots.get_mut(at) {
                None => {
                    let tool = shared_tool(&mut records.last_tool, intent.tool);
                    let kept = Kept::started(&intent, tool, 1, place, now);
                    records.slots.push((intent.key.clone(), kept));
                    1
                }
                Some((_, existing)) => {
                    match judge(
                        &existing.tool,
                        existing.call_digest(),
                        existing.state,
                        &intent,
                    ) {
                        Found::Replay => {
                            return Admission::Replay(Box::new(existing.entry(&intent.key)));
                        }
                        Found::InDoubt => {
                            return Admission::InDoubt(Box::new(existing.entry(&intent.key)));
                        }
                        Found::Diverged(divergence) => return Admission::Diverged(divergence),
                        Found::RunNext => {}
                    }
                    let next = existing.attempt + 1;
                    let tool = shared_tool(&mut records.last_tool, intent.tool);
                    *existing = Kept::started(&intent, tool, next, place, now);
                    next
                }
            };
            Admission::Run(self.admitted(records, intent.key, attempt, at))
        })
    }

    /// The attempt `number` of the call `key`, whose entry sits at `slot`, just started.
    #[inline]
    fn admitted(
        &self,
        records: &mut Records,
        key: CallKey,
        number: u64,
        slot: usize,
    ) -> KeptAttempt {
        // A started entry is no read-only call's answer: only a bound keeps books of it
        // (checked here, so that a store without one makes no call for it).
        if self.keep_finished.is_some() {
            self.bound(records, &key, JournalState::Started);
        }
        KeptAttempt { key, number, slot }
    }

    /// Records the outcome of `attempt`, which ended in `state` at `finished` with `result`,
    /// if its entry still is at that attempt, started; answers whether it was recorded. The
    /// outcome is copied once, into the entry, and a success's default rendering not at all.
    pub(crate) fn finish(
        &self,
        attempt: &KeptAttempt,
        state: JournalState,
        finished: Stamp,
        result: &ToolExecutionResult,
    ) -> bool {
        let key = &attempt.key;
        self.with(|records| {
            let Some(current) = records.at_mut(key, attempt.slot) else {
                return false;
            };
            if !current.is_at(attempt.number, JournalState::Started) {
                return false;
            }
            current.state = state;
            current.finished = Some(finished);
            current.outcome = Some(KeptOutcome::of(result));
            if self.bookkept(current) {
                self.keep_books(records, key, state);
            }
            true
        })
    }
}

/// The name `tool` shared with `last`, the latest entry's tool, when it is the same; otherwise
/// a copy, which becomes the latest. Inlined into the admission, which asks on every journaled
/// call.
#[inline(always)]
fn shared_tool(last: &mut Option<ToolName>, tool: &str) -> ToolName {
    match last {
        Some(shared) if same_text(shared.as_bytes(), tool.as_bytes()) => Arc::clone(shared),
        _ => Arc::clone(last.insert(Arc::new(Box::from(tool)))),
    }
}

/// Whether two short texts are the same (a tool's name, a success's short string and its
/// rendering), compared without the call to `memcmp` that `==` makes up to 16 bytes: from 8
/// bytes on, their first and last eight bytes as two words each; from 4, their first and last
/// four; below that, their first, middle and last bytes (which are all of them). Ends overlap
/// when shorter than twice their width, so every byte is compared.
#[inline(always)]
fn same_text(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    match len {
        0 => true,
        1..4 => a[0] == b[0] && a[len / 2] == b[len / 2] && a[len - 1] == b[len - 1],
        4..8 => {
            a.first_chunk::<4>() == b.first_chunk::<4>()
                && a.last_chunk::<4>() == b.last_chunk::<4>()
        }
        8..=16 => {
            a.first_chunk::<8>() == b.first_chunk::<8>()
                && a.last_chunk::<8>() == b.last_chunk::<8>()
        }
        _ => a == b,
    }
}

impl Records {
    /// The entry of `key`.
    fn get(&self, key: &CallKey) -> Option<&Kept> {
        let at = *self.entries.get(key)?;
        self.slots.get(at).map(|(_, kept)| kept)
    }

    /// The entry of `key`, to change.
    fn get_mut(&mut self, key: &CallKey) -> Option<&mut Kept> {
        let at = *self.entries.get(key)?;
        self.slots.get_mut(at).map(|(_, kept)| kept)
    }

    /// The entry of `key`, which sat at `slot` when it was admitted: looked up only if another
    /// entry has taken that place since.
    #[inline]
    fn at_mut(&mut self, key: &CallKey, slot: usize) -> Option<&mut Kept> {
        let at = match self.slots.get(slot) {
            Some((there, _)) if there == key => slot,
            _ => *self.entries.get(key)?,
        };
        self.slots.get_mut(at).map(|(_, kept)| kept)
    }

    /// Keeps `kept` as the entry of `key`, which has none.
    fn insert(&mut self, key: CallKey, kept: Kept) {
        self.entries.insert(key.clone(), self.slots.len());
        self.slots.push((key, kept));
    }

    /// Takes the entry of `key` out: the last entry takes its place in the slab.
    fn remove(&mut self, key: &CallKey) -> Option<Kept> {
        let at = self.entries.remove(key)?;
        if at >= self.slots.len() {
            return None;
        }
        let (_, kept) = self.slots.swap_remove(at);
        if let Some((moved, _)) = self.slots.get(at)
            && let Some(index) = self.entries.get_mut(moved)
        {
            *index = at;
        }
        Some(kept)
    }

    /// Forgets the finished entry `key`, and its digest's answer if it was that.
    fn forget(&mut self, key: &CallKey) {
        self.finished_at.remove(key);
        let Some(entry) = self.remove(key) else {
            return;
        };
        if let Some(digest) = entry.arguments_digest()
            && self.answers.get(digest).is_some_and(|answer| answer == key)
        {
            self.answers.remove(digest);
        }
    }

    /// Keeps the entry of `key` as its digest's answer when it is the latest completed one.
    fn note_answer(&mut self, key: &CallKey) {
        let Some(entry) = self.get(key) else {
            return;
        };
        let (JournalState::Completed, Some(digest)) = (entry.state, entry.arguments_digest())
        else {
            return;
        };
        let latest = match self.answers.get(digest) {
            Some(answer) if answer == key => true,
            Some(answer) => self
                .get(answer)
                .is_none_or(|known| known.finished_at_ms() <= entry.finished_at_ms()),
            None => true,
        };
        if latest {
            self.answers.insert(digest.to_owned(), key.clone());
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
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        let key = CallKey::from_text(&entry.key);
        let existing = self.with(|records| {
            if let Some(existing) = records.get(&key) {
                return Some(existing.entry(&key));
            }
            let kept = Kept::of(entry.clone());
            let bookkept = self.bookkept(&kept);
            records.insert(key.clone(), kept);
            if bookkept {
                self.keep_books(records, &key, entry.state);
            }
            None
        });
        Box::pin(std::future::ready(Ok(existing)))
    }

    fn replace_entry(
        &self,
        attempt: u64,
        state: JournalState,
        entry: JournalEntry,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        let key = CallKey::from_text(&entry.key);
        let replaced = self.with(|records| {
            let Some(current) = records.get_mut(&key) else {
                return false;
            };
            if !current.is_at(attempt, state) {
                return false;
            }
            let new_state = entry.state;
            // Kept as given: the entry and its outcome are not copied.
            *current = Kept::of(entry);
            if self.bookkept(current) {
                self.keep_books(records, &key, new_state);
            }
            true
        });
        Box::pin(std::future::ready(Ok(replaced)))
    }

    fn entry<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        let key = CallKey::from_text(key);
        let entry = self.with(|records| records.get(&key).map(|kept| kept.entry(&key)));
        Box::pin(std::future::ready(Ok(entry)))
    }

    fn entries(
        &self,
        state: Option<JournalState>,
    ) -> BoxFuture<'_, Result<Vec<JournalEntry>, StoreError>> {
        let mut entries: Vec<JournalEntry> = self.with(|records| {
            records
                .slots
                .iter()
                .filter(|(_, kept)| state.is_none_or(|state| kept.state == state))
                .map(|(key, kept)| kept.entry(key))
                .collect()
        });
        entries.sort_by(|a, b| a.key.cmp(&b.key));
        Box::pin(std::future::ready(Ok(entries)))
    }

    fn answer<'a>(
        &'a self,
        digest: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        let entry = self.with(|records| {
            let key = records.answers.get(digest)?;
            records.get(key).map(|kept| kept.entry(key))
        });
        Box::pin(std::future::ready(Ok(entry)))
    }

    fn insert_approval<'a>(
        &'a self,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
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
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let replaced = self.with(|records| match records.approvals.get_mut(&approval.id) {
            Some(current) if current.state == state => {
                *current = approval.clone();
                true
            }
            _ => false,
        });
        Box::pin(std::future::ready(Ok(replaced)))
    }

    fn approval<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        let approval = self.with(|records| records.approvals.get(id).cloned());
        Box::pin(std::future::ready(Ok(approval)))
    }

    fn approvals(
        &self,
        state: Option<ApprovalState>,
    ) -> BoxFuture<'_, Result<Vec<ApprovalRecord>, StoreError>> {
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
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
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
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let replaced = self.with(|records| match records.tasks.get_mut(&task.id) {
            Some(current) if current.revision == revision => {
                *current = task.clone();
                true
            }
            _ => false,
        });
        Box::pin(std::future::ready(Ok(replaced)))
    }

    fn task<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        let task = self.with(|records| records.tasks.get(id).cloned());
        Box::pin(std::future::ready(Ok(task)))
    }

    fn tasks(
        &self,
        state: Option<TaskState>,
    ) -> BoxFuture<'_, Result<Vec<TaskRecord>, StoreError>> {
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use std::sync::Arc;

    use super::{CallKey, Kept, KeptOutcome, MemoryStore, ShortText};
    use crate::content::render_value_as_text;
    use crate::durable::attempt::{Admission, Intent, KeptAttempt};
    use crate::durable::clock::Stamp;
    use crate::durable::record::{JournalState, RecordedOutcome};
    use crate::result::ToolExecutionResult;

    /// Admits the first attempt of the call `key` to `store`.
    fn admitted(store: &MemoryStore, key: &str) -> KeptAttempt {
        let intent = Intent {
            key: CallKey::from_text(key),
            tool: "t",
            agent: None,
            rerunnable: false,
            answer: None,
            call_digest: None,
        };
        match store.admit(intent, &Arc::from("here")) {
            Admission::Run(attempt) => attempt,
            other => panic!("{key} not admitted: {other:?}"),
        }
    }

    /// The state of the entry of `key` in `store`, if it has one.
    fn state(store: &MemoryStore, key: &str) -> Option<JournalState> {
        store.with(|records| records.get(&CallKey::from_text(key)).map(|kept| kept.state))
    }

    #[test]
    fn texts_are_the_same_only_byte_for_byte() {
        // Every length up to past the widest compare, each differing from the next in one byte
        // at the start, in the middle or at the end, and characters of several bytes.
        let mut texts: Vec<String> = Vec::new();
        for len in 0..=18 {
            let base: String = (0..len).map(|n| char::from(b'a' + n)).collect();
            texts.push(base.clone());
            for at in [0, len / 2, len.saturating_sub(1)] {
                let mut changed = base.clone().into_bytes();
                if let Some(byte) = changed.get_mut(usize::from(at)) {
                    *byte = b'Z';
                }
                texts.push(String::from_utf8(changed).unwrap_or_default());
            }
        }
        texts.extend(["é".to_owned(), "è".to_owned(), "ünïcödé".to_owned()]);
        for a in &texts {
            for b in &texts {
                assert_eq!(
                    super::same_text(a.as_bytes(), b.as_bytes()),
                    a == b,
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn an_attempt_finds_its_entry_after_another_took_its_place() {
        let store = MemoryStore::keeping_finished(1);
        let done = ToolExecutionResult::success(json!(true))
            .with_content(vec![render_value_as_text(&json!(true))]);
        let first = admitted(&store, "a");
        assert!(store.finish(&first, JournalState::Completed, Stamp::now(), &done));
        let second = admitted(&store, "c");
        let last = admitted(&store, "b");
        assert_eq!((first.slot, second.slot, last.slot), (0, 1, 2));
        // Two finished calls where one is kept: "a", the oldest, is forgotten, and "b", the
        // slab's last, moves into its place.
        assert!(store.finish(&second, JournalState::Completed, Stamp::now(), &done));
        assert_eq!(state(&store, "a"), None);
        assert!(store.finish(&last, JournalState::Failed, Stamp::now(), &done));
        assert_eq!(state(&store, "b"), Some(JournalState::Failed));
        assert_eq!(
            state(&store, "c"),
            None,
            "the bound of one forgets \"c\" next"
        );
        // An attempt whose entry is gone records nothing; one that is not the entry's either.
        assert!(!store.finish(&first, JournalState::Completed, Stamp::now(), &done));
        assert!(!store.finish(&last, JournalState::Completed, Stamp::now(), &done));
        store.with(|records| {
            assert_eq!(records.slots.len(), records.entries.len());
            for (at, (key, _)) in records.slots.iter().enumerate() {
                assert_eq!(records.entries.get(key), Some(&at), "{key:?}");
            }
        });
    }

    #[test]
    fn an_entry_with_its_key_fits_an_inline_move() {
        // The slab's slot is written on every journaled call: up to 128 bytes a move is a run of
        // vector moves, past it a call to `memcpy`.
        let slot = std::mem::size_of::<(CallKey, Kept)>();
        assert!(slot <= 128, "an entry and its key take {slot} bytes");
    }

    #[test]
    fn a_string_success_reads_back_as_recorded_whatever_its_length() {
        let fifteen = "a".repeat(ShortText::MAX);
        let sixteen = "a".repeat(ShortText::MAX + 1);
        // Lengths up to, at and past what is kept in place, and characters of several bytes
        // on both sides of it.
        for text in [
            "",
            "ok",
            "/src",
            "héllo wörld",
            "ünïcödé ünïcödé",
            &fifteen,
            &sixteen,
        ] {
            let value = json!(text);
            let result = ToolExecutionResult::success(value.clone())
                .with_content(vec![render_value_as_text(&value)]);
            let kept = KeptOutcome::of(&result);
            let in_place = text.len() <= ShortText::MAX;
            assert_eq!(
                matches!(kept, KeptOutcome::Short(_)),
                in_place,
                "{text:?} kept in place"
            );
            assert!(
                in_place || matches!(&kept, KeptOutcome::Text(kept) if kept == text),
                "{text:?}"
            );
            assert_eq!(kept.recorded(), RecordedOutcome::of(&result), "{text:?}");
            assert_eq!(kept.recorded().value, Some(Value::String(text.to_owned())));
        }
    }
}
