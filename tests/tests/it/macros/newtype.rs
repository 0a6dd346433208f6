//! A newtype's field with `#[arg(..)]`: the type's schema is the field's, with the field's rules,
//! enforced by the validator and shown in the docs; `#[arg(schemars)]` brings a foreign type in.

use dsh_tools::__private::DocumentedSchema;
use dsh_tools::{ToolArgs, ToolDefinition, ToolRegistry, json, tool};
use dsh_tools_tests::{call_with, only_text};

/// A short lowercase tag.
#[derive(ToolArgs, Debug, PartialEq)]
struct Tag(#[arg(min_length = 3, pattern = "^[a-z]+$")] String);

/// A note's id.
#[derive(ToolArgs, Debug, PartialEq)]
struct NoteId(#[arg(schemars)] uuid::Uuid);

/// A percentage, through `#[serde(transparent)]` on a named field.
#[derive(ToolArgs, serde::Deserialize, Debug, PartialEq)]
#[serde(transparent)]
struct Percent {
    #[arg(maximum = 100)]
    value: u8,
}

#[test]
fn a_newtypes_field_rules_are_its_schema() {
    let schema = Tag::schema().unwrap().to_json_schema();
    assert_eq!(
        schema,
        json!({
            "type": "string",
            "description": "A short lowercase tag.",
            "minLength": 3,
            "pattern": "^[a-z]+$"
        })
    );
    assert!(!Tag::is_valid_json(&json!("A")));
    assert!(!Tag::is_valid_json(&json!("ab")));
    assert!(Tag::is_valid_json(&json!("abc")));
    let violations = Tag::schema().unwrap().validate(&json!("A")).unwrap_err();
    assert_eq!(
        violations.to_string(),
        "\"arguments\" must be at least 3 characters long"
    );
    assert_eq!(Tag::from_json(&json!("abc")).unwrap(), Tag("abc".into()));
}

#[test]
fn a_transparent_structs_field_rules_are_its_schema() {
    let schema = Percent::schema().unwrap().to_json_schema();
    assert_eq!(schema["maximum"], json!(100));
    assert!(!Percent::is_valid_json(&json!(101)));
    assert_eq!(Percent::from_json(&json!(7)).unwrap(), Percent { value: 7 });
}

#[test]
fn a_schemars_newtype_takes_the_foreign_types_schema_and_conversion() {
    let schema = NoteId::schema().unwrap().to_json_schema();
    assert_eq!(schema["type"], json!("string"));
    assert_eq!(schema["format"], json!("uuid"));
    assert!(!NoteId::is_valid_json(&json!("not-a-uuid")));
    let id = "67e55044-10b1-426f-9247-bb680e5fe0c8";
    assert_eq!(
        NoteId::from_json(&json!(id)).unwrap(),
        NoteId(id.parse().unwrap())
    );
}

#[test]
fn newtype_schemas_are_documented_as_the_runtime_builds_them() {
    for (documented, runtime) in [
        (
            <Tag as DocumentedSchema>::DOCUMENTED_SCHEMA,
            Tag::schema().unwrap(),
        ),
        (
            <Percent as DocumentedSchema>::DOCUMENTED_SCHEMA,
            Percent::schema().unwrap(),
        ),
        (
            <NoteId as DocumentedSchema>::DOCUMENTED_SCHEMA,
            NoteId::schema().unwrap(),
        ),
    ] {
        let rendered = serde_json::to_string_pretty(&runtime.to_json_schema()).unwrap();
        assert_eq!(documented, rendered);
    }
}

/// Tag a note.
#[tool]
async fn tag_note(note: NoteId, tag: Tag) -> String {
    format!("{} {}", note.0, tag.0)
}

#[tokio::test]
async fn a_tool_refuses_what_a_newtypes_rules_forbid() {
    let registry = ToolRegistry::new();
    let _ = registry.register(TagNoteTool).unwrap();
    assert_eq!(
        TagNoteTool.parameters()["properties"]["tag"]["minLength"],
        json!(3)
    );
    let result = registry
        .execute(call_with("tag_note", json!({"note": "x", "tag": "A"})))
        .await;
    assert_eq!(result.error_code(), Some("INVALID_ARGS"));
    let text = only_text(&result);
    assert!(text.contains("\"note\""), "{text}");
    assert!(text.contains("\"tag\""), "{text}");
    let id = "67e55044-10b1-426f-9247-bb680e5fe0c8";
    let result = registry
        .execute(call_with("tag_note", json!({"note": id, "tag": "abc"})))
        .await;
    assert_eq!(only_text(&result), format!("{id} abc"));
}
