//! A number being written: where its text stands in JSON's number grammar, and the best value
//! of it so far (`12.` is 12, `1e` is 1, a lone `-` is nothing yet).

use serde_json::Number;

/// A state of JSON's number grammar (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NumberState {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpInt,
}

impl NumberState {
    /// The state after a number's first byte, or `None` when no number starts with it.
    pub(super) fn start(byte: u8) -> Option<Self> {
        match byte {
            b'-' => Some(Self::Minus),
            b'0' => Some(Self::Zero),
            b'1'..=b'9' => Some(Self::Int),
            _ => None,
        }
    }

    /// The state after `byte`, or `None` when the grammar takes no such byte here.
    pub(super) fn step(self, byte: u8) -> Option<Self> {
        match (self, byte) {
            (Self::Minus, b'0') => Some(Self::Zero),
            (Self::Minus, b'1'..=b'9') => Some(Self::Int),
            (Self::Int, b'0'..=b'9') => Some(Self::Int),
            (Self::Zero | Self::Int, b'.') => Some(Self::Dot),
            (Self::Zero | Self::Int | Self::Frac, b'e' | b'E') => Some(Self::Exp),
            (Self::Dot | Self::Frac, b'0'..=b'9') => Some(Self::Frac),
            (Self::Exp, b'+' | b'-') => Some(Self::ExpSign),
            (Self::Exp | Self::ExpSign | Self::ExpInt, b'0'..=b'9') => Some(Self::ExpInt),
            _ => None,
        }
    }

    /// Whether the text so far is a whole number.
    pub(super) fn is_whole(self) -> bool {
        matches!(self, Self::Zero | Self::Int | Self::Frac | Self::ExpInt)
    }
}

/// Whether `byte` can be part of a number: any other byte ends one.
pub(super) fn is_number_byte(byte: u8) -> bool {
    matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
}

/// The number `text` (a whole number by the grammar) is, read by `serde_json` itself so that it
/// is the same number a parse of the whole text gives; `None` when `serde_json` refuses it (an
/// exponent out of range).
pub(super) fn parse(text: &str) -> Option<Number> {
    serde_json::from_str(text).ok()
}
