//! [`PartialNode`]: the value a [`PartialJson`] has read so far, seen as the parts no
//! continuation of the text can change (finished values) and the parts still being written (the
//! open containers along one path from the top, and at most one scalar at its end).

use serde_json::{Map, Value};

use super::reader::{Frame, PartialJson, Scalar};

/// One node of the value read so far.
#[derive(Clone, Copy, Debug)]
pub enum PartialNode<'a> {
    /// A value no continuation changes: a closed string, object or array, a number a delimiter
    /// followed, a whole literal.
    Finished(&'a Value),
    /// An object whose `}` has not come yet.
    Object(PartialObject<'a>),
    /// An array whose `]` has not come yet.
    Array(PartialArray<'a>),
    /// A string whose closing quote has not come yet: its characters so far.
    String(&'a str),
    /// A number still being written (no delimiter after it yet): its text so far, which may not
    /// be a whole number yet (`-`, `1.`, `1e`).
    Number(&'a str),
    /// `true`, `false` or `null`, partly written (`tr`): its type is known, its value not yet.
    Literal(&'a str),
}

/// An open object: its finished members and the one being written.
#[derive(Clone, Copy, Debug)]
pub struct PartialObject<'a> {
    entries: &'a Map<String, Value>,
    key: Option<&'a str>,
    reader: &'a PartialJson,
    level: usize,
}

/// An open array: its finished items and the one being written.
#[derive(Clone, Copy, Debug)]
pub struct PartialArray<'a> {
    items: &'a [Value],
    reader: &'a PartialJson,
    level: usize,
}

impl PartialJson {
    /// The value so far as finished and open parts (see [`PartialNode`]); `None` before any
    /// part of a value is known.
    #[doc(hidden)]
    pub fn node(&self) -> Option<PartialNode<'_>> {
        match self.root() {
            Some(root) => Some(PartialNode::Finished(root)),
            None => PartialNode::at(self, 0),
        }
    }
}

impl<'a> PartialNode<'a> {
    /// The open node at `level` of the reader's open containers (the scalar past the last).
    pub(super) fn at(reader: &'a PartialJson, level: usize) -> Option<Self> {
        match reader.frames().get(level) {
            Some(Frame::Object { entries, key }) => Some(Self::Object(PartialObject {
                entries,
                key: key.as_deref(),
                reader,
                level,
            })),
            Some(Frame::Array { items }) => Some(Self::Array(PartialArray {
                items,
                reader,
                level,
            })),
            None => match reader.scalar() {
                Scalar::String { .. } => Some(Self::String(reader.scalar_text())),
                Scalar::Number { .. } => Some(Self::Number(reader.scalar_text())),
                Scalar::Literal { word, matched } => {
                    let word = word.text();
                    Some(Self::Literal(
                        word.get(..usize::from(matched)).unwrap_or(word),
                    ))
                }
                Scalar::None | Scalar::Key { .. } => None,
            },
        }
    }

    /// Whether no continuation of the text can change this node.
    pub fn is_finished(&self) -> bool {
        matches!(self, Self::Finished(_))
    }
}

impl<'a> PartialObject<'a> {
    /// The members whose values are finished, in the text's order.
    pub fn entries(&self) -> &'a Map<String, Value> {
        self.entries
    }

    /// The key of the member being written, once its closing quote came.
    pub fn open_key(&self) -> Option<&'a str> {
        self.key
    }

    /// The value of the member being written, once any of it is known.
    pub fn open_value(&self) -> Option<PartialNode<'a>> {
        self.open_key()?;
        PartialNode::at(self.reader, self.level + 1)
    }

    /// A key whose closing quote has not come yet: its characters so far.
    pub fn key_being_written(&self) -> Option<&'a str> {
        let innermost = self.level + 1 == self.reader.frames().len();
        (innermost && matches!(self.reader.scalar(), Scalar::Key { .. }))
            .then(|| self.reader.scalar_text())
    }
}

impl<'a> PartialArray<'a> {
    /// The finished items.
    pub fn items(&self) -> &'a [Value] {
        self.items
    }

    /// The item being written, once any of it is known.
    pub fn open_item(&self) -> Option<PartialNode<'a>> {
        PartialNode::at(self.reader, self.level + 1)
    }
}
