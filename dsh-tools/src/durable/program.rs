//! Code Mode runs on the journal: the rules a `run_code` program re-run under the same call
//! follows. Each nested call of a run is keyed by the run's key and its position in the program
//! ([`position_key`], `<run key>/<n>`), so a re-run finds what every position recorded: a call
//! that completed is replayed (its body does not run again), an approval decided meanwhile is
//! used by the call it was asked for, and a position asked for another tool or other arguments
//! than it recorded is a divergence ([`Divergence`]).
//!
//! What a position recorded is its journal entry (the tool and the digest of the arguments,
//! [`JournalEntry::call_digest`]) or, for a call that stopped at its approval before it was
//! dispatched, its waiting approval (the tool and the same digest). A later attempt of a run
//! reads each position before its call starts ([`Durability::at_position`]), and hands a
//! completed entry to the call, which replays it without a second read. The journal's
//! admission compares too, when it finds a position already recorded
//! ([`Durability::admit`]): a first attempt reads nothing beforehand, since nothing can be
//! recorded under a run's key before its first attempt. Nothing here knows of programs or
//! calls: the run (`call/run_code/resume.rs`) hands over keys, names and arguments.
//!
//! [`JournalEntry::call_digest`]: crate::durable::record::JournalEntry::call_digest

use serde_json::Value;

use crate::durable::approval::{approval_id, arguments_digest};
use crate::durable::journal::Durability;
use crate::durable::position::Divergence;
use crate::durable::record::{JournalEntry, JournalState};
use crate::durable::store::StoreError;

/// The key of the `n`th nested call (from 1) of the run whose key is `run_key`.
pub(crate) fn position_key(run_key: &str, n: u64) -> String {
    format!("{run_key}/{n}")
}

/// What a position of a run recorded, as the call asked there now sees it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum AtPosition {
    /// Nothing, or the same call, not completed (it waits for its approval, it failed, or it is
    /// in doubt): the call goes through the journal as any call does.
    Open,
    /// The same call, completed: its entry, which the call replays without asking the store
    /// again (a completed entry never changes).
    Completed(Box<JournalEntry>),
    /// Another call.
    Diverged(Divergence),
}

impl Durability {
    /// What the position `key` of a run recorded, against a call of `tool` with `arguments`.
    pub(crate) async fn at_position(
        &self,
        key: &str,
        tool: &str,
        arguments: &Value,
    ) -> Result<AtPosition, StoreError> {
        let digest = arguments_digest(arguments);
        if let Some(entry) = self.store.entry(key).await? {
            if let Some(divergence) =
                Divergence::between(&entry.tool, entry.call_digest.as_deref(), tool, &digest)
            {
                return Ok(AtPosition::Diverged(divergence));
            }
            return Ok(if entry.state == JournalState::Completed {
                AtPosition::Completed(Box::new(entry))
            } else {
                AtPosition::Open
            });
        }
        // A call that stopped at its approval before it was dispatched recorded only that.
        Ok(match self.store.approval(&approval_id(key)).await? {
            Some(approval) => Divergence::between(
                &approval.tool,
                Some(&approval.arguments_digest),
                tool,
                &digest,
            )
            .map_or(AtPosition::Open, AtPosition::Diverged),
            None => AtPosition::Open,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{AtPosition, position_key};
    use crate::durable::approval::arguments_digest;
    use crate::durable::journal::Durability;
    use crate::durable::memory::MemoryStore;
    use crate::durable::position::{Divergence, position_of};
    use crate::durable::record::{JournalEntry, JournalState};

    fn entry(key: &str, tool: &str, digest: Option<String>) -> JournalEntry {
        JournalEntry {
            key: key.to_owned(),
            tool: tool.to_owned(),
            agent: None,
            arguments_digest: None,
            call_digest: digest,
            state: JournalState::Completed,
            attempt: 1,
            started_at_ms: 1,
            place: "test".to_owned(),
            finished_at_ms: Some(2),
            outcome: None,
        }
    }

    #[tokio::test]
    async fn a_position_diverges_only_for_another_tool_or_other_arguments() {
        let durability = Durability::new(MemoryStore::default());
        let key = position_key("idem-run", 2);
        assert_eq!(key, "idem-run/2");
        assert_eq!(position_of(&key), 2);
        let asked = json!({"x": 1});
        // Nothing recorded: the program reaches the position for the first time.
        assert_eq!(
            durability.at_position(&key, "a", &asked).await,
            Ok(AtPosition::Open)
        );
        let recorded = entry(&key, "a", Some(arguments_digest(&json!({"x": 1}))));
        assert_eq!(durability.store().insert_entry(&recorded).await, Ok(None));
        assert_eq!(
            durability.at_position(&key, "a", &asked).await,
            Ok(AtPosition::Completed(Box::new(recorded)))
        );
        assert_eq!(
            durability.at_position(&key, "a", &json!({"x": 2})).await,
            Ok(AtPosition::Diverged(Divergence {
                recorded_tool: "a".to_owned(),
                same_tool: true
            }))
        );
        assert_eq!(
            durability.at_position(&key, "b", &asked).await,
            Ok(AtPosition::Diverged(Divergence {
                recorded_tool: "a".to_owned(),
                same_tool: false
            }))
        );
    }
}
