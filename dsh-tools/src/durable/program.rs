//! Code Mode runs on the journal: the rules a `run_code` program re-run under the same call
//! follows. Each nested call of a run is keyed by the run's key and its position in the program
//! ([`position_key`], `<run key>/<n>`), so a re-run finds what every position recorded: a call
//! that completed is replayed by the journal (its body does not run again), an approval decided
//! meanwhile is used by the call it was asked for, and a position asked for another tool or
//! other arguments than it recorded is a divergence ([`Durability::diverged_at`]).
//!
//! What a position recorded is its journal entry (the tool and the digest of the arguments,
//! [`JournalEntry::call_digest`]) or, for a call that stopped at its approval before it was
//! dispatched, its waiting approval (the tool and the same digest). Nothing here knows of
//! programs or calls: the run (`call/run_code.rs`) hands over keys, names and arguments.
//!
//! [`JournalEntry::call_digest`]: crate::durable::record::JournalEntry::call_digest

use serde_json::Value;

use crate::durable::approval::{approval_id, arguments_digest};
use crate::durable::journal::Durability;
use crate::durable::store::StoreResult;

/// The key of the `n`th nested call (from 1) of the run whose key is `run_key`.
pub(crate) fn position_key(run_key: &str, n: u64) -> String {
    format!("{run_key}/{n}")
}

/// What an earlier attempt of a run recorded at a position asked for another call now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Divergence {
    /// The tool recorded there.
    pub(crate) recorded_tool: String,
    /// Whether the tool is the one asked now (then the arguments differ).
    pub(crate) same_tool: bool,
}

impl Durability {
    /// What the position `key` of a run recorded, when it is not a call of `tool` with
    /// `arguments`; `None` when nothing was recorded there (the program reached it for the
    /// first time) or the same call was.
    pub(crate) async fn diverged_at(
        &self,
        key: &str,
        tool: &str,
        arguments: &Value,
    ) -> StoreResult<Option<Divergence>> {
        let digest = arguments_digest(arguments);
        let recorded = match self.store.entry(key).await? {
            // An entry recorded without a digest (by an older build) can still tell the tool.
            Some(entry) => {
                let digest_matches = entry.call_digest.as_ref().is_none_or(|its| *its == digest);
                (entry.tool, digest_matches)
            }
            None => match self.store.approval(&approval_id(key)).await? {
                Some(approval) => {
                    let digest_matches = approval.arguments_digest == digest;
                    (approval.tool, digest_matches)
                }
                None => return Ok(None),
            },
        };
        let (recorded_tool, digest_matches) = recorded;
        let same_tool = recorded_tool == tool;
        if same_tool && digest_matches {
            return Ok(None);
        }
        Ok(Some(Divergence {
            recorded_tool,
            same_tool,
        }))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Divergence, position_key};
    use crate::durable::approval::arguments_digest;
    use crate::durable::journal::Durability;
    use crate::durable::memory::MemoryStore;
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
        let durability = Durability::new(MemoryStore::new());
        let key = position_key("idem-run", 2);
        assert_eq!(key, "idem-run/2");
        let asked = json!({"x": 1});
        // Nothing recorded: the program reaches the position for the first time.
        assert_eq!(durability.diverged_at(&key, "a", &asked).await, Ok(None));
        let recorded = entry(&key, "a", Some(arguments_digest(&json!({"x": 1}))));
        assert_eq!(durability.store().insert_entry(&recorded).await, Ok(None));
        assert_eq!(durability.diverged_at(&key, "a", &asked).await, Ok(None));
        assert_eq!(
            durability.diverged_at(&key, "a", &json!({"x": 2})).await,
            Ok(Some(Divergence {
                recorded_tool: "a".to_owned(),
                same_tool: true
            }))
        );
        assert_eq!(
            durability.diverged_at(&key, "b", &asked).await,
            Ok(Some(Divergence {
                recorded_tool: "a".to_owned(),
                same_tool: false
            }))
        );
    }
}
