//! Vertex AI's streamed function-call arguments (`streamFunctionCallArguments`): a call's
//! arguments arrive as `partialArgs`, each one value at a JSON Path (`$.location`,
//! `$.items[0].name`), a string in pieces joined while `willContinue` says the same path goes
//! on. [`StreamedArguments`] builds the value they describe and writes the same value as JSON
//! text, piece by piece, so a Vertex call's arguments grow in the partial reader, get their
//! definite checks and cards like any other dialect's.
//!
//! The text can follow while the paths come in document order (which is how a model writes
//! them). A path that goes back into a member already closed stops the text where it is; the
//! value still takes every piece, and the finished call gets the value.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::json_path::{self, Step};
use crate::providers::ProviderError;
use crate::providers::calls::field;
use dsh_tools_schema::semantics::whole_number;

/// The arguments of one streamed Vertex call so far.
#[derive(Debug, Default)]
pub(super) struct StreamedArguments {
    value: Map<String, Value>,
    text: TextWriter,
}

impl StreamedArguments {
    /// Takes one `partialArgs` item (`at` names it, for errors only) and returns the JSON text
    /// it adds to the arguments (empty once the text stopped following).
    pub(super) fn apply(
        &mut self,
        partial: &Value,
        at: &dyn Fn() -> String,
    ) -> Result<String, ProviderError> {
        let path = field(partial, "jsonPath")
            .and_then(Value::as_str)
            .ok_or_else(|| ProviderError::shape(&format!("{}.jsonPath", at()), "a string"))?;
        let steps = json_path::parse(path)
            .filter(|steps| !steps.is_empty())
            .ok_or_else(|| {
                ProviderError::shape(
                    &format!("{}.jsonPath", at()),
                    "a JSON Path of member names and indices below `$`",
                )
            })?;
        let piece = piece(partial, at)?;
        let continues = field(partial, "willContinue").and_then(Value::as_bool) == Some(true);
        let appends = self.text.continues_string(&steps);
        assign(&mut self.value, &steps, piece.clone(), appends);
        Ok(self.text.write(&steps, &piece, continues))
    }

    /// The text that closes what is still open: with it, the text written is the whole value.
    pub(super) fn close(&mut self) -> String {
        self.text.close()
    }

    /// The arguments.
    pub(super) fn into_value(self) -> Value {
        Value::Object(self.value)
    }
}

/// The value a `partialArgs` item carries.
fn piece(partial: &Value, at: &dyn Fn() -> String) -> Result<Value, ProviderError> {
    if let Some(text) = field(partial, "stringValue") {
        return text
            .as_str()
            .map(Value::from)
            .ok_or_else(|| ProviderError::shape(&format!("{}.stringValue", at()), "a string"));
    }
    if let Some(number) = field(partial, "numberValue") {
        return match number {
            Value::Number(number) => Ok(Value::Number(integral(number))),
            _ => Err(ProviderError::shape(
                &format!("{}.numberValue", at()),
                "a number",
            )),
        };
    }
    if let Some(flag) = field(partial, "boolValue") {
        return flag
            .as_bool()
            .map(Value::Bool)
            .ok_or_else(|| ProviderError::shape(&format!("{}.boolValue", at()), "a boolean"));
    }
    if field(partial, "nullValue").is_some() {
        return Ok(Value::Null);
    }
    Err(ProviderError::shape(
        &at(),
        "a partial argument with a stringValue, numberValue, boolValue or nullValue",
    ))
}

/// Vertex carries every number as a double (`50.0` for 50); a whole one within the range
/// doubles hold exactly becomes an integer, as the non-streamed `args` give it.
fn integral(number: &serde_json::Number) -> serde_json::Number {
    match number
        .as_f64()
        .filter(|_| number.is_f64())
        .and_then(whole_number)
    {
        Some(whole) => serde_json::Number::from(whole),
        None => number.clone(),
    }
}

/// Sets the value at `steps` below `root`, making the containers on the way (an index past an
/// array's end pads it with `null`s); a continued string is appended to. A step that does not
/// fit what is there (a name into an array) replaces it: the later piece wins.
fn assign(root: &mut Map<String, Value>, steps: &[Step], piece: Value, appends: bool) {
    let Some((first, rest)) = steps.split_first() else {
        return;
    };
    let Step::Key(key) = first else {
        return;
    };
    let mut slot = root.entry(key.clone()).or_insert(Value::Null);
    for step in rest {
        slot = match step {
            Step::Key(key) => {
                if !slot.is_object() {
                    *slot = Value::Object(Map::new());
                }
                let Value::Object(members) = slot else {
                    unreachable!("made an object just above")
                };
                members.entry(key.clone()).or_insert(Value::Null)
            }
            Step::Index(index) => {
                if !slot.is_array() {
                    *slot = Value::Array(Vec::new());
                }
                let Value::Array(items) = slot else {
                    unreachable!("made an array just above")
                };
                if items.len() <= *index {
                    items.resize(index + 1, Value::Null);
                }
                &mut items[*index]
            }
        };
    }
    match (slot, piece) {
        (Value::String(text), Value::String(more)) if appends => text.push_str(&more),
        (slot, piece) => *slot = piece,
    }
}

/// Writes the value as JSON text while the paths come in document order.
#[derive(Debug, Default)]
struct TextWriter {
    /// The containers open in the text, the root object first.
    open: Vec<Container>,
    /// The path of the last value written (the open containers are those along it).
    last: Vec<Step>,
    /// The last value is a string whose closing quote is still to come.
    string_open: bool,
    /// A path left document order: nothing more is written.
    stopped: bool,
}

#[derive(Debug)]
struct Container {
    is_array: bool,
    /// Members written: the names of an object's, the count of an array's.
    keys: HashSet<String>,
    items: usize,
}

impl Container {
    fn new(is_array: bool) -> Self {
        Self {
            is_array,
            keys: HashSet::new(),
            items: 0,
        }
    }

    fn is_empty(&self) -> bool {
        self.keys.is_empty() && self.items == 0
    }

    /// Whether `step` names a member not written yet (an index at or past the end).
    fn takes(&self, step: &Step) -> bool {
        match step {
            Step::Key(key) => !self.is_array && !self.keys.contains(key),
            Step::Index(index) => self.is_array && *index >= self.items,
        }
    }

    /// Writes the start of the new member `step` names (one [`takes`](Self::takes)): a comma,
    /// its name, `null`s for the items it skips.
    fn begin_member(&mut self, out: &mut String, step: &Step) {
        match step {
            Step::Key(key) => {
                if !self.is_empty() {
                    out.push(',');
                }
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push(':');
                self.keys.insert(key.clone());
            }
            Step::Index(index) => {
                while self.items < *index {
                    if self.items > 0 {
                        out.push(',');
                    }
                    out.push_str("null");
                    self.items += 1;
                }
                if self.items > 0 {
                    out.push(',');
                }
                self.items += 1;
            }
        }
    }
}

impl TextWriter {
    /// Whether a piece at `steps` goes on with the string written last.
    fn continues_string(&self, steps: &[Step]) -> bool {
        self.string_open && self.last == steps
    }

    fn write(&mut self, steps: &[Step], piece: &Value, continues: bool) -> String {
        if self.stopped {
            return String::new();
        }
        let mut out = String::new();
        if self.continues_string(steps)
            && let Value::String(text) = piece
        {
            push_string_body(&mut out, text);
            if !continues {
                out.push('"');
                self.string_open = false;
            }
            return out;
        }
        if self.string_open {
            out.push('"');
            self.string_open = false;
        }
        if self.open.is_empty() {
            out.push('{');
            self.open.push(Container::new(false));
        }
        // The deepest container both paths are inside: the last path's containers below it
        // close, the new path's open.
        let shared = self
            .last
            .iter()
            .zip(steps)
            .take_while(|(last, new)| last == new)
            .count()
            .min(self.last.len().saturating_sub(1))
            .min(steps.len() - 1);
        if !self.open[shared].takes(&steps[shared]) {
            // The same value again, a value inside one already written, or a member of a
            // container already closed: the text stops here.
            self.stopped = true;
            return out;
        }
        while self.open.len() > shared + 1 {
            let container = self.open.pop().expect("more than one open");
            out.push(if container.is_array { ']' } else { '}' });
        }
        for (depth, step) in steps.iter().enumerate().skip(shared) {
            if depth > shared {
                let is_array = matches!(step, Step::Index(_));
                out.push(if is_array { '[' } else { '{' });
                self.open.push(Container::new(is_array));
            }
            let container = self.open.last_mut().expect("the root is open");
            container.begin_member(&mut out, step);
        }
        match piece {
            Value::String(text) if continues => {
                out.push('"');
                push_string_body(&mut out, text);
                self.string_open = true;
            }
            _ => out.push_str(&piece.to_string()),
        }
        self.last = steps.to_vec();
        out
    }

    fn close(&mut self) -> String {
        if self.stopped {
            return String::new();
        }
        let mut out = String::new();
        if self.string_open {
            out.push('"');
            self.string_open = false;
        }
        while let Some(container) = self.open.pop() {
            out.push(if container.is_array { ']' } else { '}' });
        }
        self.stopped = true;
        out
    }
}

/// `text` escaped as the inside of a JSON string.
fn push_string_body(out: &mut String, text: &str) {
    let quoted = Value::from(text).to_string();
    out.push_str(&quoted[1..quoted.len() - 1]);
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::StreamedArguments;

    /// Applies the pieces; returns the text written (closed) and the value.
    fn stream(pieces: &[Value]) -> (String, Value) {
        let mut arguments = StreamedArguments::default();
        let mut text = String::new();
        for piece in pieces {
            let at = || "partialArgs[0]".to_owned();
            text.push_str(&arguments.apply(piece, &at).unwrap());
        }
        text.push_str(&arguments.close());
        (text, arguments.into_value())
    }

    #[test]
    fn pieces_in_document_order_write_the_value_as_text() {
        let (text, value) = stream(&[
            json!({"jsonPath": "$.location", "stringValue": "Bos", "willContinue": true}),
            json!({"jsonPath": "$.location", "stringValue": "ton, \"MA\""}),
            json!({"jsonPath": "$.brightness", "numberValue": 50.0}),
            json!({"jsonPath": "$.ratio", "numberValue": 0.5}),
            json!({"jsonPath": "$.lights[0].on", "boolValue": true}),
            json!({"jsonPath": "$.lights[0].name", "stringValue": "hall"}),
            json!({"jsonPath": "$.lights[2]", "nullValue": "NULL_VALUE"}),
            json!({"jsonPath": "$['odd key'].deep", "stringValue": "é", "willContinue": true}),
        ]);
        let expected = json!({
            "location": "Boston, \"MA\"",
            "brightness": 50,
            "ratio": 0.5,
            "lights": [{"on": true, "name": "hall"}, null, null],
            "odd key": {"deep": "é"},
        });
        assert_eq!(value, expected);
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), expected);
        assert!(value["brightness"].is_i64());
    }

    #[test]
    fn a_path_out_of_document_order_stops_the_text_not_the_value() {
        let (text, value) = stream(&[
            json!({"jsonPath": "$.a.x", "numberValue": 1}),
            json!({"jsonPath": "$.b", "numberValue": 2}),
            json!({"jsonPath": "$.a.y", "numberValue": 3}),
        ]);
        assert_eq!(value, json!({"a": {"x": 1, "y": 3}, "b": 2}));
        assert_eq!(text, r#"{"a":{"x":1},"b":2"#);
    }

    #[test]
    fn malformed_pieces_are_errors_naming_them() {
        let mut arguments = StreamedArguments::default();
        for (piece, message) in [
            (
                json!({"stringValue": "x"}),
                "response partialArgs[0].jsonPath must be a string",
            ),
            (
                json!({"jsonPath": "$.a[*]", "stringValue": "x"}),
                "response partialArgs[0].jsonPath must be a JSON Path of member names and indices below `$`",
            ),
            (
                json!({"jsonPath": "$.a", "numberValue": "7"}),
                "response partialArgs[0].numberValue must be a number",
            ),
            (
                json!({"jsonPath": "$.a"}),
                "response partialArgs[0] must be a partial argument with a stringValue, numberValue, boolValue or nullValue",
            ),
        ] {
            let at = || "partialArgs[0]".to_owned();
            let error = arguments.apply(&piece, &at).unwrap_err();
            assert_eq!(error.to_string(), message);
        }
    }
}
