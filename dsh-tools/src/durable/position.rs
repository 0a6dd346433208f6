//! A Code Mode run's positions as the journal sees them (feature `durable`): a nested call of a
//! run is keyed `<run key>/<n>`, and what an attempt asks at a position is compared with what an
//! earlier attempt recorded there. The journal's admission compares (`journal.rs`) whenever it
//! finds a position's key already recorded; a resumed run's reads compare too
//! (`program.rs`, with Code Mode).

/// What an earlier attempt of a run recorded at a position asked for another call now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Divergence {
    /// The tool recorded there.
    pub(crate) recorded_tool: String,
    /// Whether the tool is the one asked now (then the arguments differ).
    pub(crate) same_tool: bool,
}

impl Divergence {
    /// Whether a position that recorded a call of `recorded_tool` (with the arguments digest
    /// `recorded_digest`, if it kept one) diverges from a call of `tool` whose arguments digest
    /// to `digest`: `None` when it is the same call. An entry recorded without a digest (by an
    /// older build) can still tell the tool.
    pub(crate) fn between(
        recorded_tool: &str,
        recorded_digest: Option<&str>,
        tool: &str,
        digest: &str,
    ) -> Option<Self> {
        let same_tool = recorded_tool == tool;
        let digest_matches = recorded_digest.is_none_or(|its| its == digest);
        (!(same_tool && digest_matches)).then(|| Self {
            recorded_tool: recorded_tool.to_owned(),
            same_tool,
        })
    }
}

/// The position of the nested call keyed `key` (`<run key>/<n>`), for its texts.
pub(crate) fn position_of(key: &str) -> u64 {
    key.rsplit_once('/')
        .and_then(|(_, n)| n.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::{Divergence, position_of};

    #[test]
    fn an_entry_without_a_digest_tells_the_tool_only() {
        assert_eq!(Divergence::between("a", None, "a", "d1"), None);
        assert_eq!(Divergence::between("a", Some("d1"), "a", "d1"), None);
        assert!(Divergence::between("a", Some("d1"), "a", "d2").is_some());
        assert!(Divergence::between("a", None, "b", "d1").is_some());
    }

    #[test]
    fn a_position_is_the_last_part_of_its_key() {
        assert_eq!(position_of("idem-run/12"), 12);
        assert_eq!(position_of("idem-run"), 0);
    }
}
