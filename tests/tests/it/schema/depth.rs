//! Stack safety: values far deeper than `serde_json` can parse, built in code, cost the
//! validator (interpreted or compiled) one step where the schema stops (checked on a thread with
//! a small stack), and schemas nested past the validation cap are reported, not followed.

use dsh_tools::schema::CompiledSchema;
use dsh_tools::schema::{MAX_VALIDATION_DEPTH, Schema};
use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, errors::ErrorCode, json};
use serde_json::{Map, Value};

const DEEP: usize = 10_000;

/// A small stack: enough for the schema-bounded recursion, far too small to follow a
/// 10,000-deep value.
const STACK: usize = 256 * 1024;

fn deep_array() -> Value {
    let mut value = Value::Null;
    for _ in 0..DEEP {
        value = Value::Array(vec![value]);
    }
    value
}

fn deep_object() -> Value {
    let mut value = Value::Null;
    for _ in 0..DEEP {
        let mut map = Map::new();
        map.insert("k".to_owned(), value);
        value = Value::Object(map);
    }
    value
}

/// `Value`'s own `Drop` recurses; unwind it with a heap stack instead.
fn drop_iteratively(value: Value) {
    let mut pending = vec![value];
    while let Some(mut value) = pending.pop() {
        match &mut value {
            Value::Array(items) => pending.append(items),
            Value::Object(map) => pending.extend(std::mem::take(map).into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

fn on_small_stack(test: impl FnOnce() + Send + 'static) {
    on_stack(STACK, test);
}

fn on_stack(size: usize, test: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(size)
        .spawn(test)
        .expect("spawn")
        .join()
        .expect("the check overflowed or panicked");
}

#[test]
fn deep_values_as_json_or_wrong_types_cost_one_step() {
    on_small_stack(|| {
        let schemas = [
            Schema::any(),
            Schema::array(Schema::any()).build(),
            Schema::array(Schema::any()).build(),
            Schema::object().additional_schema(Schema::any()).build(),
            Schema::object()
                .optional("k", Schema::any())
                .additional_properties(true)
                .build(),
            Schema::string().build(),
            Schema::integer().build(),
            Schema::array(Schema::string()).build(),
            Schema::array(Schema::array(Schema::boolean())).build(),
            Schema::object().required("k", Schema::boolean()).build(),
            Schema::enumeration([json!([[1]]), json!({"k": {"k": 1}})]),
            Schema::constant(json!([[[null]]])),
            Schema::one_of([Schema::array(Schema::any()).build(), Schema::boolean()]),
            Schema::one_of([Schema::any(), Schema::array(Schema::any()).build()]),
        ];
        for value in [deep_array(), deep_object()] {
            for schema in &schemas {
                let valid = schema.is_valid(&value);
                let validated = schema.validate(&value);
                assert_eq!(valid, validated.is_ok(), "{:?}", schema.kind);
                let compiled = CompiledSchema::from(schema);
                assert_eq!(compiled.is_valid(&value), valid, "{:?}", schema.kind);
                assert_eq!(compiled.validate(&value), validated);
                if let Err(violations) = validated {
                    assert!(
                        (violations.reported.len() + violations.omitted) <= 2,
                        "{violations}"
                    );
                }
                assert!(schema.validate_output(&value).is_ok() == valid);
            }
            drop_iteratively(value);
        }
    });
}

#[test]
fn schemas_nested_past_the_cap_are_reported_not_followed() {
    // Following a schema this deep needs a stack of its own (unoptimized frames are large);
    // what matters is that the walk stops at the cap.
    on_stack(8 * 1024 * 1024, || {
        let levels = MAX_VALIDATION_DEPTH + 44;
        let mut schema = Schema::boolean();
        let mut value = Value::Bool(true);
        for _ in 0..levels {
            schema = Schema::array(schema).build();
            value = Value::Array(vec![value]);
        }
        assert!(!schema.is_valid(&value));
        assert!(!CompiledSchema::from(&schema).is_valid(&value));
        let violations = schema.validate(&value).unwrap_err();
        assert_eq!((violations.reported.len() + violations.omitted), 1);
        let violation = &violations.reported.as_slice()[0];
        assert!(
            violation
                .message()
                .ends_with(&format!("nests deeper than {MAX_VALIDATION_DEPTH} levels")),
            "{}",
            violation.message()
        );
        // The same shape just under the cap is valid.
        let mut shallow_schema = Schema::boolean();
        let mut shallow = Value::Bool(true);
        for _ in 0..MAX_VALIDATION_DEPTH - 1 {
            shallow_schema = Schema::array(shallow_schema).build();
            shallow = Value::Array(vec![shallow]);
        }
        assert!(shallow_schema.is_valid(&shallow));
        assert!(CompiledSchema::from(&shallow_schema).is_valid(&shallow));
        assert_eq!(shallow_schema.validate(&shallow), Ok(()));
        drop_iteratively(value);
        drop_iteratively(shallow);
    });
}

#[test]
fn raw_arguments_nested_past_the_parser_limit_are_invalid_args() {
    on_stack(2 * 1024 * 1024, || {
        let raw = format!("{}{}", "[".repeat(DEEP), "]".repeat(DEEP));
        let input = ToolExecutionInput::from_raw("c", "t", &raw);
        assert!(input.is_malformed());
        let registry = ToolRegistry::new();
        let tool = FnTool::builder("t", "").handler(|_, _| async { Ok("ran") });
        let _registration = registry.register(tool).expect("registers");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        let result = runtime.block_on(registry.execute(input));
        assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
        let text = result.text();
        assert!(text.starts_with("Error: invalid arguments: "), "{text}");
    });
}

/// A tree `levels` nodes deep: `{"title", "children": [..]}`, two JSON levels a node.
fn tree(levels: usize) -> Value {
    let mut value = json!({"title": "leaf"});
    for _ in 1..levels {
        value = json!({"title": "node", "children": [value]});
    }
    value
}

/// The cap counts a value's own levels: a reference to a schema that only reads or descends
/// into the value is not one (it cannot loop), in the typed model and in the keyword engine
/// alike, so an imported tree schema is followed to 256 JSON levels — 128 nodes — on a thread's
/// default stack. A reference that can loop in place still counts, and `{"$ref": "#"}` stops.
#[test]
fn references_that_cannot_loop_are_not_levels() {
    on_stack(2 * 1024 * 1024, || {
        let typed = json!({
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#"}}
            },
            "required": ["title"],
            "additionalProperties": false
        });
        // `unevaluatedProperties` takes the document to the keyword engine.
        let keywords = json!({
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#"}}
            },
            "unevaluatedProperties": false
        });
        for document in [typed, keywords] {
            let schema = Schema::from_json_schema(&document).expect("imports");
            let compiled = CompiledSchema::from(&schema);
            assert_eq!(schema.validate(&tree(128)), Ok(()), "{document}");
            assert!(schema.is_valid(&tree(128)) && compiled.is_valid(&tree(128)));
            let refused = schema.validate(&tree(129)).unwrap_err();
            assert!(!schema.is_valid(&tree(129)) && !compiled.is_valid(&tree(129)));
            let path = vec!["children[0]"; 128].join(".");
            assert_eq!(
                refused.to_string(),
                format!("\"{path}\" nests deeper than {MAX_VALIDATION_DEPTH} levels")
            );
        }
        let looping = Schema::from_json_schema(&json!({"$ref": "#"})).expect("imports");
        assert!(!looping.is_valid(&json!(1)));
        assert_eq!(
            looping.validate(&json!(1)).unwrap_err().to_string(),
            format!("\"arguments\" nests deeper than {MAX_VALIDATION_DEPTH} levels")
        );
    });
}
