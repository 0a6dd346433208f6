//! [`Patch`]: a property with three states — left out, `null`, or a value — for partial updates,
//! where `Option` folds `null` into "left out".

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::args::{ConvertError, ToolArgs};
use dsh_tools_schema::{Schema, SchemaError};

/// A property that the model may leave out, set to `null`, or set to a value, each a state of its
/// own: a partial update keeps a field it was not sent, clears one sent as `null`, and sets one
/// sent a value.
///
/// Its schema is `T`'s, optional and nullable — exactly the three states. An `Option<T>` has the
/// same schema but reads `null` as left out (`None`), which is what most arguments want;
/// `Option<Option<T>>` cannot tell the two apart either, since the outer `Option` takes the
/// `null`. `#[arg(..)]` constraints apply to the value, as on an `Option`.
///
/// ```
/// use dsh_tools::{ToolArgs, fields::Patch};
///
/// #[derive(ToolArgs)]
/// struct UpdateNote {
///     /// The note to change.
///     id: String,
///     /// The new due date; `null` removes it; leave it out to keep it.
///     due: Patch<String>,
/// }
///
/// let mut due = Some("2026-01-01".to_owned());
/// let update = UpdateNote::from_json(&dsh_tools::json!({"id": "n1"})).unwrap();
/// update.due.apply_to(&mut due);
/// assert_eq!(due.as_deref(), Some("2026-01-01"));
/// let update = UpdateNote::from_json(&dsh_tools::json!({"id": "n1", "due": null})).unwrap();
/// update.due.apply_to(&mut due);
/// assert_eq!(due, None);
/// # let _ = update.id;
/// ```
///
/// With serde, `null` deserializes as [`Patch::Null`]; a left-out field needs `#[serde(default)]`
/// to become [`Patch::Absent`], and `#[serde(skip_serializing_if = "Patch::is_absent")]` leaves it
/// out when serializing (otherwise `Absent` serializes as `null`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Patch<T> {
    /// The property was left out: keep what is there.
    #[default]
    Absent,
    /// The property was `null`: clear it.
    Null,
    /// The property has a value: set it.
    Value(T),
}

impl<T> Patch<T> {
    /// Whether the property was left out: the function serde's `skip_serializing_if` names
    /// (elsewhere, `matches!` on the variants reads as well).
    pub fn is_absent(&self) -> bool {
        matches!(self, Self::Absent)
    }

    /// Applies the update to `target`: left out keeps it, `null` clears it, a value replaces it.
    pub fn apply_to(self, target: &mut Option<T>) {
        match self {
            Self::Absent => {}
            Self::Null => *target = None,
            Self::Value(value) => *target = Some(value),
        }
    }
}

impl<T> Patch<T> {
    /// A property that was there: `null` or a value.
    fn present(value: Option<T>) -> Self {
        value.map_or(Self::Null, Self::Value)
    }
}

/// The three states as nested options: `None` left out, `Some(None)` null, `Some(Some(v))`.
impl<T> From<Patch<T>> for Option<Option<T>> {
    fn from(patch: Patch<T>) -> Self {
        match patch {
            Patch::Absent => None,
            Patch::Null => Some(None),
            Patch::Value(value) => Some(Some(value)),
        }
    }
}

/// Nested options as the three states, the other way round.
impl<T> From<Option<Option<T>>> for Patch<T> {
    fn from(value: Option<Option<T>>) -> Self {
        match value {
            None => Self::Absent,
            Some(None) => Self::Null,
            Some(Some(value)) => Self::Value(value),
        }
    }
}

impl<T: ToolArgs> ToolArgs for Patch<T> {
    const OPTIONAL: bool = true;
    const VALUE_NOTES: &'static [(&'static str, &'static str)] = T::VALUE_NOTES;

    /// `Option<T>`'s schema (`T`'s, also accepting `null`); the property is optional.
    fn schema() -> Result<Schema, SchemaError> {
        Option::<T>::schema()
    }

    fn is_valid_json(value: &Value) -> bool {
        Option::<T>::is_valid_json(value)
    }

    /// As `Option<T>` reads it, a present `null` kept apart from a value.
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        Option::<T>::from_json(value).map(Self::present)
    }

    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        Option::<T>::from_json_owned(value).map(Self::present)
    }

    fn absent() -> Option<Self> {
        Some(Self::Absent)
    }
}

impl<T: Serialize> Serialize for Patch<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Absent | Self::Null => serializer.serialize_none(),
            Self::Value(value) => serializer.serialize_some(value),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Patch<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(deserializer).map(Self::present)
    }
}
