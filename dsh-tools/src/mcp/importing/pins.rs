//! Pinned imports: each imported tool's definition is fingerprinted, and a definition that later
//! differs from its pin — at a re-sync, or at the first import after a restart that loaded saved
//! [`Pins`] — is handled by the import's [`ChangedToolPolicy`]; a tool with no pin by its
//! [`NewToolPolicy`].
//!
//! A fingerprint is `sha256:` and the SHA-256 (lower-case hex) of the tool's canonical JSON: the
//! tool as `tools/list` gave it without its `_meta` (name, title, description, input and output
//! schemas, annotations, icons, and any other field), objects with their keys sorted, no
//! whitespace. Key order and `_meta` never change a fingerprint; any other difference does.
//!
//! This file owns the fingerprints, the saved form ([`Pins`]), the policies, the changes held for
//! the user ([`HeldChange`]) and the decision taken for each listed tool ([`PinBook`]); the client
//! applies those decisions to the registry.

use std::collections::{BTreeMap, HashMap, HashSet};

use rmcp::model as mcp;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::canonical::write_canonical;

use crate::store::event::{DefinitionChange, DefinitionDecision};

/// What an import does when a known tool's definition differs from its pin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangedToolPolicy {
    /// Takes the new definition and pins it.
    Accept,
    /// Keeps serving the pinned definition (its description and schemas are what the model sees,
    /// and calls are checked against its input schema before they are sent) and holds the change
    /// until the user accepts or rejects it ([`McpClient::held_changes`](crate::mcp::McpClient::held_changes)).
    #[default]
    Hold,
    /// Withdraws the tool from the registry until the user accepts the change.
    Disable,
}

/// What an import does with a tool it has no pin for, once the first import is done (or at the
/// first import when it started from saved [`Pins`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NewToolPolicy {
    /// Registers the tool and pins it.
    #[default]
    Accept,
    /// Leaves the tool unregistered until the user accepts it.
    Hold,
    /// Leaves the tool unregistered; only a change of its definition raises it again.
    Ignore,
}

/// The pinned fingerprints (and definitions) of an import's tools, by the server's tool name:
/// saved and loaded with serde (`serde_json::to_string(&pins)`, `serde_json::from_str::<Pins>`:
/// loading fails, saying why, on text that is not such pins or whose fingerprints do not match
/// their definitions; the same pins are the same text) and handed to [`ImportOptions::pins`](crate::mcp::ImportOptions::pins), so that a restart does not
/// trust a server whose tools changed meanwhile.
///
/// The saved form is `{"version": 1, "tools": {"<tool>": {"fingerprint": "sha256:…",
/// "definition": {…}}}}`; the definition is kept so that a held tool is served as it was pinned
/// even after a restart. Loading checks every fingerprint against its definition.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SavedPins", into = "SavedPins")]
pub struct Pins {
    tools: BTreeMap<String, PinnedTool>,
}

/// One tool's pin, as [`Pins::tools`] lists it: read-only, since pins are only made by imports
/// and by loading, which checks that each fingerprint is its definition's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PinnedTool {
    /// The definition's [`fingerprint`].
    pub fingerprint: String,
    /// The definition as `tools/list` gave it, without its `_meta` (an `rmcp` tool's JSON:
    /// `serde_json::from_value` reads it back).
    pub definition: Value,
}

/// The saved form of [`Pins`], with its version.
#[derive(Clone, Serialize, Deserialize)]
struct SavedPins {
    version: u32,
    tools: BTreeMap<String, PinnedTool>,
}

const PINS_VERSION: u32 = 1;

impl From<Pins> for SavedPins {
    fn from(pins: Pins) -> Self {
        Self {
            version: PINS_VERSION,
            tools: pins.tools,
        }
    }
}

impl TryFrom<SavedPins> for Pins {
    type Error = String;

    fn try_from(saved: SavedPins) -> Result<Self, String> {
        if saved.version != PINS_VERSION {
            return Err(format!(
                "pins of version {} cannot be read (this version reads {PINS_VERSION})",
                saved.version
            ));
        }
        for (name, pin) in &saved.tools {
            let tool: mcp::Tool =
                serde_json::from_value(pin.definition.clone()).map_err(|error| {
                    format!("the pinned definition of \"{name}\" is not an MCP tool: {error}")
                })?;
            if tool.name != name.as_str() {
                return Err(format!(
                    "the pin of \"{name}\" holds the definition of \"{}\"",
                    tool.name
                ));
            }
            if fingerprint_of_value(&pin.definition) != pin.fingerprint {
                return Err(format!(
                    "the pin of \"{name}\" does not match its definition (fingerprint {})",
                    pin.fingerprint
                ));
            }
        }
        Ok(Self { tools: saved.tools })
    }
}

impl Pins {
    /// The pins by the server's tool name, sorted.
    pub fn tools(&self) -> &BTreeMap<String, PinnedTool> {
        &self.tools
    }

    fn pin(&mut self, tool: &mcp::Tool) {
        let definition = definition_of(tool);
        self.tools.insert(
            tool.name.to_string(),
            PinnedTool {
                fingerprint: fingerprint_of_value(&definition),
                definition,
            },
        );
    }

    /// Adds the pins of `other` for tools not pinned here.
    pub(crate) fn merge_missing(&mut self, other: &Self) {
        for (name, pin) in &other.tools {
            self.tools
                .entry(name.clone())
                .or_insert_with(|| pin.clone());
        }
    }
}

/// The fingerprint of `tool`'s definition: `sha256:` and 64 lower-case hex digits.
pub fn fingerprint(tool: &mcp::Tool) -> String {
    fingerprint_of_value(&definition_of(tool))
}

/// The tool as JSON without its `_meta`: what is pinned.
fn definition_of(tool: &mcp::Tool) -> Value {
    let mut definition = serde_json::to_value(tool).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut definition {
        fields.remove("_meta");
    }
    definition
}

fn fingerprint_of_value(definition: &Value) -> String {
    let mut canonical = String::new();
    write_canonical(definition, &mut canonical);
    let digest = Sha256::digest(canonical.as_bytes());
    let mut text = String::with_capacity(7 + 64);
    text.push_str("sha256:");
    for byte in digest.iter() {
        text.push(char::from(HEX[usize::from(byte >> 4)]));
        text.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    text
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The fields of a definition that each [`DefinitionChange`] names.
const PARTS: [(&str, DefinitionChange); 6] = [
    ("title", DefinitionChange::Title),
    ("description", DefinitionChange::Description),
    ("inputSchema", DefinitionChange::InputSchema),
    ("outputSchema", DefinitionChange::OutputSchema),
    ("annotations", DefinitionChange::Annotations),
    ("icons", DefinitionChange::Icons),
];

/// What differs between two definitions, in [`DefinitionChange`] order.
fn changes_between(pinned: &Value, offered: &Value) -> Vec<DefinitionChange> {
    let mut changes: Vec<DefinitionChange> = PARTS
        .iter()
        .filter(|(key, _)| pinned.get(key) != offered.get(key))
        .map(|(_, change)| *change)
        .collect();
    let other = |a: &Value, b: &Value| {
        a.as_object().is_some_and(|fields| {
            fields.iter().any(|(key, value)| {
                !PARTS.iter().any(|(part, _)| part == key) && b.get(key) != Some(value)
            })
        })
    };
    if other(pinned, offered) || other(offered, pinned) || changes.is_empty() {
        changes.push(DefinitionChange::Other);
    }
    changes
}

/// A change an import holds for the user: a known tool's new definition, or a new tool, waiting
/// for [`McpClient::decide_change`](crate::mcp::McpClient::decide_change).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct HeldChange {
    /// The tool's registry name (what accepting or rejecting it takes).
    pub name: String,
    /// The server's name.
    pub server: String,
    /// What differs from the pinned definition; empty for a new tool.
    pub changes: Vec<DefinitionChange>,
    /// [`Held`](DefinitionDecision::Held) (the pinned definition is served; a new tool is not
    /// registered) or [`Disabled`](DefinitionDecision::Disabled) (the tool is withdrawn).
    pub decision: DefinitionDecision,
    /// The definition pinned now; `None` for a new tool.
    pub pinned: Option<mcp::Tool>,
    /// The definition the server lists.
    pub offered: mcp::Tool,
}

/// A held change, as the book keeps it.
struct Held {
    change: HeldChange,
    fingerprint: String,
}

/// A definition the user rejected (or a new tool the policy ignored): not raised again until the
/// server lists another one.
struct Refused {
    fingerprint: String,
    /// Whether the tool stays out of the registry (else the pinned definition is served).
    withdrawn: bool,
}

/// What to do with one listed tool.
pub(crate) struct Review {
    /// The definition to serve, or `None` to keep the tool out of the registry.
    pub(crate) serve: Option<mcp::Tool>,
    /// Whether the served definition is the pinned one while the server lists another: its calls
    /// are checked against it before they are sent.
    pub(crate) held: bool,
    /// The decision to report, when one was taken now.
    pub(crate) decision: Option<(Vec<DefinitionChange>, DefinitionDecision)>,
}

/// One import's pins, held changes and policies.
pub(crate) struct PinBook {
    pins: Pins,
    held: HashMap<String, Held>,
    refused: HashMap<String, Refused>,
    changed_tools: ChangedToolPolicy,
    new_tools: NewToolPolicy,
    /// Whether a tool with no pin is trusted and pinned: at a first import that did not start
    /// from saved pins.
    trust_unpinned: bool,
}

impl PinBook {
    pub(crate) fn new(
        pins: Option<Pins>,
        changed_tools: ChangedToolPolicy,
        new_tools: NewToolPolicy,
    ) -> Self {
        Self {
            trust_unpinned: pins.is_none(),
            pins: pins.unwrap_or_default(),
            held: HashMap::new(),
            refused: HashMap::new(),
            changed_tools,
            new_tools,
        }
    }

    /// The first import is done: from now on a tool with no pin is new.
    pub(crate) fn settle(&mut self) {
        self.trust_unpinned = false;
    }

    pub(crate) fn pins(&self) -> &Pins {
        &self.pins
    }

    /// Decides what to serve for the listed `tool`, registered (or to be) as `name`.
    pub(crate) fn review(&mut self, tool: &mcp::Tool, name: &str, server: &str) -> Review {
        let remote = tool.name.to_string();
        let offered = definition_of(tool);
        let fingerprint = fingerprint_of_value(&offered);
        let Some(pin) = self.pins.tools.get(&remote) else {
            return self.review_new(tool, remote, name, server, fingerprint);
        };
        if pin.fingerprint == fingerprint {
            // The server is back to what was pinned: nothing is held or refused any more.
            self.held.remove(&remote);
            self.refused.remove(&remote);
            return serve(tool.clone());
        }
        let pinned: Option<mcp::Tool> = serde_json::from_value(pin.definition.clone()).ok();
        let pinned_review = |withdrawn: bool| Review {
            held: !withdrawn && pinned.is_some(),
            serve: if withdrawn { None } else { pinned.clone() },
            decision: None,
        };
        if let Some(held) = self.held.get(&remote)
            && held.fingerprint == fingerprint
        {
            return pinned_review(held.change.decision == DefinitionDecision::Disabled);
        }
        if let Some(refused) = self.refused.get(&remote)
            && refused.fingerprint == fingerprint
        {
            return pinned_review(refused.withdrawn);
        }
        let changes = changes_between(&pin.definition, &offered);
        self.refused.remove(&remote);
        let decision = match self.changed_tools {
            ChangedToolPolicy::Accept => {
                self.held.remove(&remote);
                self.pins.pin(tool);
                return Review {
                    decision: Some((changes, DefinitionDecision::Accepted)),
                    ..serve(tool.clone())
                };
            }
            ChangedToolPolicy::Hold => DefinitionDecision::Held,
            ChangedToolPolicy::Disable => DefinitionDecision::Disabled,
        };
        self.held.insert(
            remote,
            Held {
                change: HeldChange {
                    name: name.to_owned(),
                    server: server.to_owned(),
                    changes: changes.clone(),
                    decision,
                    pinned: pinned.clone(),
                    offered: tool.clone(),
                },
                fingerprint,
            },
        );
        Review {
            decision: Some((changes, decision)),
            ..pinned_review(decision == DefinitionDecision::Disabled)
        }
    }

    fn review_new(
        &mut self,
        tool: &mcp::Tool,
        remote: String,
        name: &str,
        server: &str,
        fingerprint: String,
    ) -> Review {
        if self.trust_unpinned {
            self.pins.pin(tool);
            return serve(tool.clone());
        }
        let unchanged = self.held.get(&remote).map(|held| &held.fingerprint).or(self
            .refused
            .get(&remote)
            .map(|refused| &refused.fingerprint))
            == Some(&fingerprint);
        if unchanged {
            return withhold(None);
        }
        self.refused.remove(&remote);
        match self.new_tools {
            NewToolPolicy::Accept => {
                self.held.remove(&remote);
                self.pins.pin(tool);
                Review {
                    decision: Some((Vec::new(), DefinitionDecision::Accepted)),
                    ..serve(tool.clone())
                }
            }
            NewToolPolicy::Hold => {
                self.held.insert(
                    remote,
                    Held {
                        change: HeldChange {
                            name: name.to_owned(),
                            server: server.to_owned(),
                            changes: Vec::new(),
                            decision: DefinitionDecision::Held,
                            pinned: None,
                            offered: tool.clone(),
                        },
                        fingerprint,
                    },
                );
                withhold(Some(DefinitionDecision::Held))
            }
            NewToolPolicy::Ignore => {
                self.held.remove(&remote);
                self.refused.insert(
                    remote,
                    Refused {
                        fingerprint,
                        withdrawn: true,
                    },
                );
                withhold(Some(DefinitionDecision::Ignored))
            }
        }
    }

    /// Forgets the held changes of tools the server no longer lists (their pins stay, so a tool
    /// that comes back is judged against its pin).
    pub(crate) fn retain_listed(&mut self, listed: &HashSet<&str>) {
        self.held
            .retain(|remote, _| listed.contains(remote.as_str()));
    }

    /// The changes held now, by registry name.
    pub(crate) fn held_changes(&self) -> impl Iterator<Item = &HeldChange> {
        self.held.values().map(|held| &held.change)
    }

    /// The server's name of the tool whose change is held under registry name `name`.
    pub(crate) fn held_under(&self, name: &str) -> Option<String> {
        self.held
            .iter()
            .find(|(_, held)| held.change.name == name)
            .map(|(remote, _)| remote.clone())
    }

    /// Accepts the held change of the server's tool `remote`: its definition is pinned and is the
    /// one to serve now.
    pub(crate) fn accept(&mut self, remote: &str) -> Option<HeldChange> {
        let held = self.held.remove(remote)?;
        self.pins.pin(&held.change.offered);
        Some(held.change)
    }

    /// Rejects the held change of the server's tool `remote`: the pinned definition stays (a
    /// disabled or new tool stays out) and this definition is not raised again.
    pub(crate) fn reject(&mut self, remote: &str) -> Option<HeldChange> {
        let held = self.held.remove(remote)?;
        let withdrawn =
            held.change.pinned.is_none() || held.change.decision == DefinitionDecision::Disabled;
        self.refused.insert(
            remote.to_owned(),
            Refused {
                fingerprint: held.fingerprint,
                withdrawn,
            },
        );
        Some(held.change)
    }
}

fn serve(tool: mcp::Tool) -> Review {
    Review {
        serve: Some(tool),
        held: false,
        decision: None,
    }
}

fn withhold(decision: Option<DefinitionDecision>) -> Review {
    Review {
        serve: None,
        held: false,
        decision: decision.map(|decision| (Vec::new(), decision)),
    }
}

/// Logs a decision, naming the tool and what changed.
pub(crate) fn log_decision(
    server: &str,
    name: &str,
    changes: &[DefinitionChange],
    decision: DefinitionDecision,
) {
    let changed = if changes.is_empty() {
        "new tool".to_owned()
    } else {
        changes
            .iter()
            .map(|change| change.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let accepted = decision == DefinitionDecision::Accepted;
    let decision = decision.as_str();
    if accepted {
        tracing::info!(
            server,
            tool = name,
            changed,
            decision,
            "MCP tool definition accepted: {changed}"
        );
    } else {
        tracing::warn!(
            server,
            tool = name,
            changed,
            decision,
            "MCP tool definition differs from its pin ({changed}): {decision}"
        );
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn tool(description: &str, schema: Value) -> mcp::Tool {
        let Value::Object(schema) = schema else {
            panic!("a schema object")
        };
        mcp::Tool::new("echo", description.to_owned(), Arc::new(schema))
    }

    #[test]
    fn key_order_and_meta_do_not_change_a_fingerprint() {
        let one = tool(
            "Echo.",
            serde_json::json!({"type": "object", "properties": {}}),
        );
        let mut two = tool(
            "Echo.",
            serde_json::json!({"properties": {}, "type": "object"}),
        );
        two.meta = Some(mcp::MetaObject(serde_json::Map::from_iter([(
            "com.example/x".to_owned(),
            Value::Bool(true),
        )])));
        assert_eq!(fingerprint(&one), fingerprint(&two));
        assert_eq!(fingerprint(&one).len(), "sha256:".len() + 64);
        let three = tool(
            "Echo!",
            serde_json::json!({"type": "object", "properties": {}}),
        );
        assert_ne!(fingerprint(&one), fingerprint(&three));
    }

    #[test]
    fn a_known_definition_has_a_known_fingerprint() {
        let echo = tool("Echo.", serde_json::json!({"type": "object"}));
        let mut canonical = String::new();
        write_canonical(&definition_of(&echo), &mut canonical);
        assert_eq!(
            canonical,
            r#"{"description":"Echo.","inputSchema":{"type":"object"},"name":"echo"}"#
        );
        // SHA-256 of that text (as `sha256sum` prints it): saved pins stay valid across versions.
        assert_eq!(
            fingerprint(&echo),
            "sha256:7b5cc053f561c15c6e367a722b9598430e4e31902fc2779ffee77ea09fa770dd"
        );
    }

    #[test]
    fn changes_name_each_part_that_differs() {
        let pinned = definition_of(&tool("Echo.", serde_json::json!({"type": "object"})));
        let offered = definition_of(&tool(
            "Echo, and more.",
            serde_json::json!({"type": "object", "required": ["x"]}),
        ));
        assert_eq!(
            changes_between(&pinned, &offered),
            [DefinitionChange::Description, DefinitionChange::InputSchema]
        );
    }
}
