//! Three states of a property — left out, `null`, a value — with `Patch<T>`, where `Option<T>`
//! reads `null` as left out.

use dsh_tools::fields::Patch;
use dsh_tools::{ToolArgs, ToolRegistry, json, tool};
use dsh_tools_tests::{call_with, only_text};

/// A partial update of a note.
#[derive(ToolArgs, Debug)]
struct UpdateNote {
    /// The note to change.
    id: String,
    /// The new due date; `null` removes it; leave it out to keep it.
    #[arg(min_length = 10)]
    due: Patch<String>,
    /// A new title; `null` or left out keeps it.
    title: Option<String>,
}

#[test]
fn a_patch_tells_left_out_null_and_a_value_apart() {
    let absent = UpdateNote::from_json(&json!({"id": "n"})).unwrap();
    let null = UpdateNote::from_json(&json!({"id": "n", "due": null, "title": null})).unwrap();
    let value = UpdateNote::from_json(&json!({"id": "n", "due": "2026-01-01"})).unwrap();
    assert_eq!(absent.due, Patch::Absent);
    assert_eq!(null.due, Patch::Null);
    assert_eq!(value.due, Patch::Value("2026-01-01".to_owned()));
    // An `Option` folds `null` into left out.
    assert_eq!((absent.title, null.title), (None, None));
}

#[test]
fn a_patchs_schema_is_optional_and_nullable_with_the_values_rules() {
    let schema = UpdateNote::schema().unwrap().to_json_schema();
    assert_eq!(schema["required"], json!(["id"]));
    assert_eq!(
        schema["properties"]["due"],
        json!({
            "type": ["string", "null"],
            "description": "The new due date; `null` removes it; leave it out to keep it.",
            "minLength": 10
        })
    );
    assert!(UpdateNote::is_valid_json(&json!({"id": "n", "due": null})));
    assert!(!UpdateNote::is_valid_json(
        &json!({"id": "n", "due": "soon"})
    ));
}

#[test]
fn a_patch_applies_as_an_update_and_round_trips_through_serde() {
    let mut due = Some("2026-01-01".to_owned());
    Patch::Absent.apply_to(&mut due);
    assert_eq!(due.as_deref(), Some("2026-01-01"));
    Patch::Value("2026-02-02".to_owned()).apply_to(&mut due);
    assert_eq!(due.as_deref(), Some("2026-02-02"));
    Patch::<String>::Null.apply_to(&mut due);
    assert_eq!(due, None);
    assert_eq!(Patch::<u8>::from(Some(None)), Patch::Null);
    assert_eq!(Option::from(Patch::Value(3)), Some(Some(3)));
    assert_eq!(Option::<Option<u8>>::from(Patch::Absent), None);
    assert_eq!(Option::<Option<u8>>::from(Patch::Null), Some(None));

    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Stored {
        #[serde(default, skip_serializing_if = "Patch::is_absent")]
        due: Patch<u32>,
    }
    let parse = |text: &str| serde_json::from_str::<Stored>(text).unwrap().due;
    assert_eq!(parse("{}"), Patch::Absent);
    assert_eq!(parse(r#"{"due": null}"#), Patch::Null);
    assert_eq!(parse(r#"{"due": 4}"#), Patch::Value(4));
    let text = |due| serde_json::to_string(&Stored { due }).unwrap();
    assert_eq!(text(Patch::Absent), "{}");
    assert_eq!(text(Patch::Null), r#"{"due":null}"#);
    assert_eq!(text(Patch::Value(4)), r#"{"due":4}"#);
}

/// Update a note's due date.
#[tool]
async fn set_due(args: UpdateNote) -> String {
    match args.due {
        Patch::Absent => "kept".to_owned(),
        Patch::Null => "cleared".to_owned(),
        Patch::Value(due) => format!("set {due} on {}", args.id),
    }
}

#[tokio::test]
async fn a_tool_sees_the_three_states() {
    let registry = ToolRegistry::new();
    let _ = registry.register(SetDueTool).unwrap();
    for (arguments, expected) in [
        (json!({"id": "n"}), "kept"),
        (json!({"id": "n", "due": null}), "cleared"),
        (
            json!({"id": "n", "due": "2026-01-01"}),
            "set 2026-01-01 on n",
        ),
    ] {
        let result = registry.execute(call_with("set_due", arguments)).await;
        assert_eq!(only_text(&result), expected);
    }
}
