//! One attempt of a journaled call, as the journal's two drivers (`journal.rs` through the
//! [`CallStore`](crate::durable::CallStore) trait, `memory.rs` by plain calls) see it: what the
//! call tells the journal ([`Intent`]), the journal's table of what an attempt does about the
//! entry found under its key ([`judge`]; the table is in `journal.rs`'s docs), what was decided
//! ([`Admission`], [`Attempt`]), and how the body's result leaves the attempt
//! ([`finished_state`]). Apart from both drivers so that each names the rules without naming the
//! other.

use crate::durable::call_key::CallKey;
use crate::durable::position::Divergence;
use crate::durable::record::{JournalEntry, JournalState};
use crate::errors::code::ErrorCode;
use crate::result::ToolExecutionResult;

/// What one call's attempt may do, as the journal decided: `A` is the attempt admitted, an
/// [`Attempt`] through the trait, a [`KeptAttempt`] from the store in memory. An entry found is
/// boxed: the decision is returned through several calls on every journaled call, most often
/// to run, and an entry inline would make each return a copy of some 350 bytes.
#[derive(Debug)]
pub(crate) enum Admission<A = Attempt> {
    /// Run the body; record its outcome as this attempt.
    Run(A),
    /// Give this recorded outcome again.
    Replay(Box<JournalEntry>),
    /// An earlier attempt started and recorded nothing after.
    InDoubt(Box<JournalEntry>),
    /// The key is a Code Mode run's position, where an earlier attempt of the run recorded
    /// another call (see `durable/program.rs`).
    Diverged(Divergence),
}

impl<A> Admission<A> {
    /// The same decision, an attempt to run made into `B` by `f`.
    pub(crate) fn map_run<B>(self, f: impl FnOnce(A) -> B) -> Admission<B> {
        match self {
            Self::Run(attempt) => Admission::Run(f(attempt)),
            Self::Replay(entry) => Admission::Replay(entry),
            Self::InDoubt(entry) => Admission::InDoubt(entry),
            Self::Diverged(divergence) => Admission::Diverged(divergence),
        }
    }
}

/// An attempt admitted to run, as its outcome will be recorded.
#[derive(Debug)]
pub(crate) enum Attempt {
    /// Through the [`CallStore`](crate::durable::CallStore) trait: the entry as recorded before
    /// the body runs, which the outcome moves on. Boxed: the attempt is kept across the body's
    /// run, inside the future of every journaled call.
    Entry {
        /// The entry.
        entry: Box<JournalEntry>,
        /// Its key, for a log line should the outcome's write fail (the entry goes to the
        /// store): no text is copied for the line unless it is written.
        key: CallKey,
    },
    /// In the store in memory, which keeps the entry.
    Kept(KeptAttempt),
}

/// An attempt the store in memory admitted: it keeps the entry, so the attempt is its key and
/// its number.
#[derive(Debug)]
pub(crate) struct KeptAttempt {
    /// The call's key, as the store's map has it.
    pub(crate) key: CallKey,
    /// The attempt's number (1 for the first).
    pub(crate) number: u64,
    /// Where the store's slab had its entry when it was admitted.
    pub(crate) slot: usize,
}

impl Attempt {
    /// The attempt's number (1 for the first).
    pub(crate) fn number(&self) -> u64 {
        match self {
            Self::Entry { entry, .. } => entry.attempt,
            Self::Kept(kept) => kept.number,
        }
    }

    /// The call's key.
    pub(crate) fn key(&self) -> &CallKey {
        match self {
            Self::Entry { key, .. } | Self::Kept(KeptAttempt { key, .. }) => key,
        }
    }
}

/// What a call tells the journal about itself.
#[derive(Debug)]
pub(crate) struct Intent<'a> {
    /// Made once: the store in memory keeps it as it is.
    pub(crate) key: CallKey,
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

/// What an attempt does about the entry already recorded under its key: the journal's table.
#[derive(Debug)]
pub(crate) enum Found {
    /// The call completed: give its outcome again.
    Replay,
    /// An earlier attempt is in doubt and this tool may not run again.
    InDoubt,
    /// The key is a run's position where another call was recorded.
    Diverged(Divergence),
    /// Record the next attempt and run the body.
    RunNext,
}

/// The table's row for an entry of `recorded_tool` (with the call digest `recorded_digest`) in
/// `state`, against `intent`. A run's position is compared first: its first attempt reads
/// nothing before its calls start, and another attempt of the run may have recorded the
/// position since.
pub(crate) fn judge(
    recorded_tool: &str,
    recorded_digest: Option<&str>,
    state: JournalState,
    intent: &Intent<'_>,
) -> Found {
    if let Some(digest) = &intent.call_digest
        && let Some(divergence) =
            Divergence::between(recorded_tool, recorded_digest, intent.tool, digest)
    {
        return Found::Diverged(divergence);
    }
    judge_state(state, intent.rerunnable)
}

/// The table's row for an entry in `state`, a run's position aside: whether the next attempt
/// of a call whose tool may run again after an unknown outcome (`rerunnable`) or may not is
/// replayed, in doubt, or runs its body.
pub(crate) fn judge_state(state: JournalState, rerunnable: bool) -> Found {
    match state {
        JournalState::Completed => Found::Replay,
        JournalState::Failed | JournalState::RunAgain => Found::RunNext,
        JournalState::Started if rerunnable => Found::RunNext,
        JournalState::Started => Found::InDoubt,
    }
}

/// Whether an answer that finished at `finished_at_ms` is still within `within_ms` at `now`.
pub(crate) fn fresh(finished_at_ms: Option<u64>, within_ms: u64, now: u64) -> bool {
    finished_at_ms.is_some_and(|at| now.saturating_sub(at) <= within_ms)
}

/// How a body's `result` leaves its attempt: a success `completed`, a failure the body reported
/// `failed`; a body that timed out, panicked or was cancelled stays `started` (in doubt), and
/// nothing is recorded (`None`).
pub(crate) fn finished_state(result: &ToolExecutionResult) -> Option<JournalState> {
    // A body that ended by one of these never said how far it got.
    const IN_DOUBT: [ErrorCode; 4] = [
        ErrorCode::ToolTimeout,
        ErrorCode::ToolPanicked,
        ErrorCode::Aborted,
        ErrorCode::TimerUnavailable,
    ];
    match result.error_code() {
        None => Some(JournalState::Completed),
        Some(code) if IN_DOUBT.iter().any(|in_doubt| *in_doubt == code) => None,
        Some(_) => Some(JournalState::Failed),
    }
}
