//! [`OpenPath`]: where the parts of a value still being written are. They always form one
//! chain from the top (each open container's open member is the next), so everything off that
//! chain is finished; a validator given the value so far and this chain knows what no
//! continuation can change.

use super::reader::{Frame, PartialJson, Scalar};

/// One step down the chain of open nodes.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenStep<'a> {
    /// The member of this key of an open object.
    Key(&'a str),
    /// The item at this index of an open array (its last).
    Index(usize),
}

/// What the node at the end of the chain is.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenLeaf {
    /// An open object or array whose member being written has no value yet.
    Container,
    /// A string whose closing quote has not come.
    String,
    /// A number no delimiter has followed yet (the value holds its best prefix).
    Number,
}

/// The chain of open nodes of a value being read: each step leads from an open container to
/// its open member, and the leaf is what the last node is
/// ([`Schema::definite_violations_in`](crate::Schema::definite_violations_in) reads it). Not
/// API: the runtime's stream reader takes it from a reader to that check.
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenPath<'a> {
    pub(crate) steps: Vec<OpenStep<'a>>,
    pub(crate) leaf: OpenLeaf,
}

impl<'a> OpenPath<'a> {
    /// The steps from the top down to the last open node.
    #[doc(hidden)]
    pub fn steps(&self) -> &[OpenStep<'a>] {
        &self.steps
    }

    /// What the last open node is.
    #[doc(hidden)]
    pub fn leaf(&self) -> OpenLeaf {
        self.leaf
    }
}

impl PartialJson {
    /// The chain of open nodes; `None` when the value is finished or nothing of it is known.
    #[doc(hidden)]
    pub fn open_path(&self) -> Option<OpenPath<'_>> {
        if self.is_complete() {
            return None;
        }
        let frames = self.frames();
        let leaf = match self.scalar() {
            Scalar::String { .. } => Some(OpenLeaf::String),
            Scalar::Number { .. } if self.value_of_scalar_is_known() => Some(OpenLeaf::Number),
            _ => None,
        };
        let mut steps = Vec::with_capacity(frames.len());
        for (level, frame) in frames.iter().enumerate() {
            let child_known = level + 1 < frames.len() || leaf.is_some();
            if !child_known {
                break;
            }
            steps.push(match frame {
                Frame::Object { key: Some(key), .. } => OpenStep::Key(key),
                // An object's open member always has its key; without one there is no member.
                Frame::Object { key: None, .. } => break,
                Frame::Array { items } => OpenStep::Index(items.len()),
            });
        }
        if frames.is_empty() {
            return leaf.map(|leaf| OpenPath { steps, leaf });
        }
        let leaf = if steps.len() == frames.len() {
            leaf.unwrap_or(OpenLeaf::Container)
        } else {
            OpenLeaf::Container
        };
        Some(OpenPath { steps, leaf })
    }
}
