//! Values between the program and the host: a JavaScript value read as JSON (a nested call's
//! arguments, the program's result, what `console.log` prints) and JSON made into a JavaScript
//! value (a nested call's result).
//!
//! Read in Rust, not through the program's `JSON.stringify`, which a program may replace. JSON's
//! own rules apply: `undefined` and functions inside objects are left out, `NaN` and the
//! infinities are refused (a tool's arguments are lossless JSON), and nesting is bounded.

use rquickjs::object::Property;
use rquickjs::{Array, Ctx, Object, Type, Value as JsValue};
use serde_json::{Map, Number, Value};

use dsh_tools_schema::semantics::whole_number;

/// How deep a value may nest, either way.
const MAX_DEPTH: usize = 128;

/// Why a JavaScript value is not JSON, with where in it (`.path[0]`, empty for the value).
#[derive(Debug)]
pub(crate) struct NotJson {
    pub(crate) path: String,
    pub(crate) what: &'static str,
}

impl NotJson {
    fn new(what: &'static str) -> Self {
        Self {
            path: String::new(),
            what,
        }
    }

    /// The same failure one level up, inside `step` (`.key` or `[index]`). The path is built
    /// only on the way out of a failure, so that reading a value costs nothing for it.
    fn inside(mut self, step: std::fmt::Arguments<'_>) -> Self {
        self.path.insert_str(0, &step.to_string());
        self
    }

    /// `NaN at .limit`, or the reason alone for the whole value.
    pub(crate) fn describe(&self) -> String {
        if self.path.is_empty() {
            self.what.to_owned()
        } else {
            format!("{} at {}", self.what, self.path)
        }
    }
}

/// `value` as JSON; `None` for `undefined` (and anything else JSON leaves out: functions,
/// symbols) at the top.
pub(crate) fn to_json(value: &JsValue<'_>) -> Result<Option<Value>, NotJson> {
    read(value, 0)
}

fn read(value: &JsValue<'_>, depth: usize) -> Result<Option<Value>, NotJson> {
    if depth > MAX_DEPTH {
        return Err(NotJson::new("a value nested too deeply (or a cycle)"));
    }
    // An object's kind takes a call into the engine per question: ask only the ones that
    // matter, in the order of how often they come (`type_of` asks six).
    if let Some(object) = value.as_object() {
        if value.is_array() {
            let array = value.as_array().ok_or_else(|| NotJson::new("an array"))?;
            return read_array(array, depth).map(Some);
        }
        if value.is_function() {
            return Ok(None);
        }
        if value.is_promise() {
            return Err(NotJson::new("a promise (missing `await`?)"));
        }
        return read_object(object, depth).map(Some);
    }
    let json = match value.type_of() {
        Type::Undefined | Type::Uninitialized | Type::Symbol => return Ok(None),
        Type::Null => Value::Null,
        Type::Bool => Value::Bool(value.as_bool().unwrap_or_default()),
        Type::Int => Value::from(value.as_int().unwrap_or_default()),
        Type::Float => {
            let number = value.as_float().unwrap_or(f64::NAN);
            if let Some(whole) = whole_number(number) {
                // An integral float (`2 ** 40`, `1e3`) is an integer in JSON, as JSON.stringify
                // writes it.
                Value::from(whole)
            } else {
                match Number::from_f64(number) {
                    Some(number) => Value::Number(number),
                    None if number.is_nan() => return Err(NotJson::new("NaN")),
                    None => return Err(NotJson::new("an infinite number")),
                }
            }
        }
        Type::String => Value::String(
            value
                .as_string()
                .and_then(|text| text.to_string().ok())
                .unwrap_or_default(),
        ),
        Type::BigInt => return Err(NotJson::new("a BigInt")),
        _ => return Err(NotJson::new("a value of no JSON type")),
    };
    Ok(Some(json))
}

fn read_array(array: &Array<'_>, depth: usize) -> Result<Value, NotJson> {
    let mut items = Vec::with_capacity(array.len());
    for (index, item) in array.iter::<JsValue<'_>>().enumerate() {
        let item = item.map_err(|_| NotJson::new("an unreadable item"))?;
        // JSON writes `null` for an item it leaves out.
        match read(&item, depth + 1) {
            Ok(item) => items.push(item.unwrap_or(Value::Null)),
            Err(error) => return Err(error.inside(format_args!("[{index}]"))),
        }
    }
    Ok(Value::Array(items))
}

fn read_object(object: &Object<'_>, depth: usize) -> Result<Value, NotJson> {
    let properties = object.props::<String, JsValue<'_>>();
    let mut map = Map::with_capacity(properties.len());
    for entry in properties {
        let (key, item) = entry.map_err(|_| NotJson::new("an unreadable property"))?;
        match read(&item, depth + 1) {
            Ok(Some(item)) => {
                map.insert(key, item);
            }
            Ok(None) => {}
            Err(error) => return Err(error.inside(format_args!(".{key}"))),
        }
    }
    Ok(Value::Object(map))
}

/// `value` as a JavaScript value of `ctx`.
pub(crate) fn to_js<'js>(ctx: &Ctx<'js>, value: &Value) -> rquickjs::Result<JsValue<'js>> {
    write(ctx, value, 0)
}

fn write<'js>(ctx: &Ctx<'js>, value: &Value, depth: usize) -> rquickjs::Result<JsValue<'js>> {
    if depth > MAX_DEPTH {
        return Ok(JsValue::new_null(ctx.clone()));
    }
    Ok(match value {
        Value::Null => JsValue::new_null(ctx.clone()),
        Value::Bool(flag) => JsValue::new_bool(ctx.clone(), *flag),
        Value::Number(number) => match number.as_i64().and_then(|n| i32::try_from(n).ok()) {
            Some(small) => JsValue::new_int(ctx.clone(), small),
            #[expect(clippy::cast_precision_loss, reason = "JavaScript numbers are doubles")]
            None => JsValue::new_float(
                ctx.clone(),
                number
                    .as_f64()
                    .or_else(|| number.as_i64().map(|n| n as f64))
                    .unwrap_or_default(),
            ),
        },
        Value::String(text) => rquickjs::String::from_str(ctx.clone(), text)?.into_value(),
        Value::Array(items) => {
            let array = Array::new(ctx.clone())?;
            for (index, item) in items.iter().enumerate() {
                array.set(index, write(ctx, item, depth + 1)?)?;
            }
            array.into_value()
        }
        Value::Object(map) => {
            let object = Object::new(ctx.clone())?;
            for (key, item) in map {
                // Defined, as `JSON.parse` does: a key `__proto__` is a property like any
                // other (setting it would change the object's prototype), and nothing on
                // `Object.prototype` is consulted.
                object.prop(
                    key.as_str(),
                    Property::from(write(ctx, item, depth + 1)?)
                        .writable()
                        .enumerable()
                        .configurable(),
                )?;
            }
            object.into_value()
        }
    })
}

/// How `console.log` shows one argument: strings as they are, anything else as compact JSON
/// (`undefined`, functions and values that are not JSON by name).
pub(crate) fn display(value: &JsValue<'_>) -> String {
    if let Some(text) = value.as_string() {
        return text.to_string().unwrap_or_default();
    }
    if value.is_error()
        && let Some(object) = value.as_object()
    {
        let name: String = object.get("name").unwrap_or_else(|_| "Error".to_owned());
        let message: String = object.get("message").unwrap_or_default();
        return format!("{name}: {message}");
    }
    match value.type_of() {
        Type::Undefined | Type::Uninitialized => "undefined".to_owned(),
        Type::Function | Type::Constructor => "[function]".to_owned(),
        Type::Symbol => "[symbol]".to_owned(),
        Type::Float => {
            let number = value.as_float().unwrap_or(f64::NAN);
            if number.is_nan() {
                "NaN".to_owned()
            } else if number.is_infinite() {
                if number > 0.0 {
                    "Infinity"
                } else {
                    "-Infinity"
                }
                .to_owned()
            } else {
                to_json(value)
                    .ok()
                    .flatten()
                    .map_or_else(String::new, |json| json.to_string())
            }
        }
        _ => match to_json(value) {
            Ok(Some(json)) => json.to_string(),
            Ok(None) => "undefined".to_owned(),
            Err(error) => format!("[not JSON: {}]", error.describe()),
        },
    }
}
