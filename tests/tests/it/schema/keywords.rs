//! The keyword engine (`SchemaKind::Keywords`): what JSON Schema 2020-12 documents outside the
//! typed subset import as, the exact wording, paths and order of their violations, remote
//! references through `SchemaImportOptions`, and how they render inside a larger schema.

use dsh_tools::json;
use dsh_tools::schema::CompiledSchema;
use dsh_tools::schema::{KeywordSchema, Schema, SchemaImportOptions, SchemaKind};
use dsh_tools_tests::oracle;
use serde_json::Value;

fn import(schema: Value) -> Schema {
    let imported = Schema::from_json_schema(&schema).expect("the schema imports");
    assert!(
        matches!(imported.kind, SchemaKind::Keywords(_)),
        "{schema} should need the keyword engine"
    );
    imported
}

/// The messages of an invalid value, the same from the interpreter and the compiled schema,
/// and the verdict the same as `jsonschema`'s on the rendered schema.
fn messages(schema: &Schema, value: Value) -> Vec<String> {
    assert!(!schema.is_valid(&value), "{value} should be invalid");
    let compiled = CompiledSchema::from(schema);
    assert!(!compiled.is_valid(&value));
    assert!(
        !oracle::is_valid(&schema.to_json_schema(), &value),
        "jsonschema disagrees"
    );
    let interpreted: Vec<String> = schema
        .validate(&value)
        .unwrap_err()
        .reported
        .iter()
        .map(|violation| violation.message().to_owned())
        .collect();
    let from_compiled: Vec<String> = compiled
        .validate(&value)
        .unwrap_err()
        .reported
        .iter()
        .map(|violation| violation.message().to_owned())
        .collect();
    assert_eq!(interpreted, from_compiled);
    interpreted
}

fn valid(schema: &Schema, value: Value) {
    assert!(schema.is_valid(&value), "{value} should be valid");
    assert!(CompiledSchema::from(schema).is_valid(&value));
    assert!(
        oracle::is_valid(&schema.to_json_schema(), &value),
        "jsonschema disagrees"
    );
    assert!(schema.validate(&value).is_ok());
}

#[test]
fn number_keywords_report_in_the_projects_words() {
    // No root `type`: the typed model would take this document with one.
    let schema = import(json!({
        "properties": {
            "n": {"type": "integer", "multipleOf": 5, "exclusiveMinimum": 0, "exclusiveMaximum": 100}
        },
        "required": ["n"],
    }));
    valid(&schema, json!({"n": 45}));
    assert_eq!(
        messages(&schema, json!({"n": 7})),
        ["\"n\" must be a multiple of 5"]
    );
    assert_eq!(messages(&schema, json!({"n": 0})), ["\"n\" must be > 0"]);
    assert_eq!(
        messages(&schema, json!({"n": 100})),
        ["\"n\" must be < 100"]
    );
    assert_eq!(
        messages(&schema, json!({"n": 2.5})),
        ["\"n\" must be an integer"]
    );
}

#[test]
fn keywords_without_type_apply_to_their_type_only() {
    let schema = import(json!({"minimum": 2, "maxLength": 3}));
    valid(&schema, json!(5));
    valid(&schema, json!("abc"));
    valid(&schema, json!(true));
    assert_eq!(messages(&schema, json!(1)), ["\"arguments\" must be >= 2"]);
    assert_eq!(
        messages(&schema, json!("abcd")),
        ["\"arguments\" must be at most 3 characters long"]
    );
}

#[test]
fn a_type_list_names_every_type() {
    let schema = import(json!({"type": ["string", "number", "boolean"]}));
    assert_eq!(
        messages(&schema, json!(null)),
        ["\"arguments\" must be a string, a number or a boolean"]
    );
    let nullable =
        import(json!({"type": ["null", "integer"], "multipleOf": 2, "not": {"const": 4}}));
    assert_eq!(
        messages(&nullable, json!("x")),
        ["\"arguments\" must be an integer or null"]
    );
}

#[test]
fn not_is_one_message() {
    let schema = import(json!({
        "type": "object",
        "properties": {"name": {"type": "string", "not": {"const": "root"}}},
    }));
    valid(&schema, json!({"name": "alice"}));
    assert_eq!(
        messages(&schema, json!({"name": "root"})),
        ["\"name\" must not match the schema of \"not\""]
    );
}

#[test]
fn any_of_reports_its_closest_branch() {
    let schema = import(json!({
        "type": "object",
        "properties": {
            "target": {"anyOf": [
                {"type": "string", "maxLength": 3},
                {"type": "object", "required": ["host", "port"]},
            ]},
        },
    }));
    valid(&schema, json!({"target": "abc"}));
    valid(&schema, json!({"target": {"host": "h", "port": 1}}));
    assert_eq!(
        messages(&schema, json!({"target": "abcdef"})),
        ["\"target\" must be at most 3 characters long"]
    );
    // The object branch has the value's type, so it is closer than the string branch.
    assert_eq!(
        messages(&schema, json!({"target": {"host": "h"}})),
        ["missing required property \"target.port\""]
    );
}

#[test]
fn if_then_else_reports_the_branch_that_applied() {
    let schema = import(json!({
        "type": "object",
        "properties": {"kind": {"enum": ["file", "web"]}},
        "required": ["kind"],
        "if": {"properties": {"kind": {"const": "file"}}},
        "then": {"required": ["path"]},
        "else": {"required": ["url"]},
    }));
    valid(&schema, json!({"kind": "file", "path": "/a"}));
    valid(&schema, json!({"kind": "web", "url": "https://a"}));
    assert_eq!(
        messages(&schema, json!({"kind": "file"})),
        ["missing required property \"path\""]
    );
    assert_eq!(
        messages(&schema, json!({"kind": "web"})),
        ["missing required property \"url\""]
    );
}

#[test]
fn unevaluated_properties_reports_each_key_not_evaluated() {
    let schema = import(json!({
        "type": "object",
        "allOf": [{"properties": {"a": {"type": "string"}}}],
        "properties": {"b": {"type": "integer"}},
        "unevaluatedProperties": false,
    }));
    valid(&schema, json!({"a": "x", "b": 1}));
    assert_eq!(
        messages(&schema, json!({"a": "x", "c": 1, "d": 2})),
        [
            "\"c\" is not a declared property (unevaluatedProperties: false)",
            "\"d\" is not a declared property (unevaluatedProperties: false)",
        ]
    );
}

#[test]
fn dependent_required_reports_missing_properties() {
    let schema = import(json!({
        "type": "object",
        "dependentRequired": {"card": ["billing_address", "expiry"]},
    }));
    valid(&schema, json!({"name": "x"}));
    assert_eq!(
        messages(&schema, json!({"card": "4111", "expiry": "12/30"})),
        ["missing required property \"billing_address\" (required by \"card\")"]
    );
}

#[test]
fn array_keywords_report_in_the_projects_words() {
    let unique = import(json!({"uniqueItems": true}));
    valid(&unique, json!([1, "1", [1]]));
    assert_eq!(
        messages(&unique, json!([1, 2, 1.0])),
        ["\"arguments\" must have unique items (items 0 and 2 are equal)"]
    );
    let contains =
        import(json!({"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3}));
    assert_eq!(
        messages(&contains, json!([1, "a"])),
        ["\"arguments\" must contain at least 2 items matching contains (found 1)"]
    );
    assert_eq!(
        messages(&contains, json!([1, 2, 3, 4])),
        ["\"arguments\" must contain at most 3 items matching contains (found 4)"]
    );
    let tuple =
        import(json!({"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}));
    valid(&tuple, json!(["a", 1]));
    assert_eq!(
        messages(&tuple, json!([1, 1, true])),
        [
            "\"arguments[0]\" must be a string",
            "\"arguments[2]\" is not allowed (items: false)",
        ]
    );
}

#[test]
fn object_keywords_report_in_the_projects_words() {
    let schema = import(json!({
        "type": "object",
        "maxProperties": 2,
        "propertyNames": {"pattern": "^[a-z_]+$"},
        "patternProperties": {"^x_": {"type": "string"}},
        "properties": {"legacy": false},
    }));
    valid(&schema, json!({"x_a": "s"}));
    assert_eq!(
        messages(&schema, json!({"a": 1, "b": 2, "c": 3})),
        ["\"arguments\" must have at most 2 properties"]
    );
    assert_eq!(
        messages(&schema, json!({"Bad": 1})),
        ["\"Bad\" is not an allowed property name (propertyNames)"]
    );
    assert_eq!(
        messages(&schema, json!({"legacy": 1})),
        ["\"legacy\" is not allowed (schema false)"]
    );
    assert_eq!(
        messages(&schema, json!({"x_a": 1})),
        ["\"x_a\" must be a string"]
    );
    assert_eq!(
        messages(&schema, json!({"X_b": 1})),
        ["\"X_b\" is not an allowed property name (propertyNames)",]
    );
}

#[test]
fn violations_come_in_a_stable_order() {
    let schema = import(json!({
        "type": "object",
        "required": ["a"],
        "properties": {"b": {"multipleOf": 2}},
        "unevaluatedProperties": false,
    }));
    assert_eq!(
        messages(&schema, json!({"b": 3, "c": 1})),
        [
            "missing required property \"a\"",
            "\"b\" must be a multiple of 2",
            "\"c\" is not a declared property (unevaluatedProperties: false)",
        ]
    );
}

#[test]
fn recursive_keyword_documents_follow_their_references() {
    let schema = import(json!({
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"value": {"type": "integer"}, "next": {"$ref": "#/$defs/node"}},
                "unevaluatedProperties": false,
            },
        },
        "$ref": "#/$defs/node",
    }));
    valid(
        &schema,
        json!({"value": 1, "next": {"value": 2, "next": {}}}),
    );
    assert_eq!(
        messages(
            &schema,
            json!({"next": {"next": {"value": "x", "extra": 1}}})
        ),
        [
            "\"next.next.value\" must be an integer",
            "\"next.next.extra\" is not a declared property (unevaluatedProperties: false)",
        ]
    );
    // A reference that consumes nothing stops at the depth cap instead of the stack.
    let looping = import(json!({
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        "$ref": "#/$defs/a",
        "dependentRequired": {},
    }));
    assert!(!looping.is_valid(&json!(1)));
    assert!(
        looping
            .validate(&json!(1))
            .unwrap_err()
            .to_string()
            .contains("nests deeper than")
    );
}

#[test]
fn remote_references_need_the_document() {
    let schema = json!({
        "type": "object",
        "properties": {"address": {"$ref": "https://example.com/address.json"}},
        "allOf": [{"required": ["address"]}],
    });
    let error = Schema::from_json_schema(&schema).unwrap_err();
    // A remote reference is refused, naming the document it points to.
    assert!(
        error
            .to_string()
            .contains("https://example.com/address.json"),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "unsupported JSON schema: schema.properties.address.$ref refers to the remote document \
         \"https://example.com/address.json\", which the import was not given \
         (SchemaImportOptions::documents)"
    );
    let options = SchemaImportOptions {
        documents: [(
            "https://example.com/address.json".to_owned(),
            json!({"type": "object", "required": ["city"]}),
        )]
        .into(),
        ..SchemaImportOptions::default()
    };
    let schema = Schema::from_json_schema_with(&schema, &options).unwrap();
    assert!(schema.is_valid(&json!({"address": {"city": "Oslo"}})));
    let report = schema.validate(&json!({"address": {}})).unwrap_err();
    assert_eq!(
        report.to_string(),
        "missing required property \"address.city\""
    );
}

#[test]
fn invalid_keyword_values_are_refused_with_their_paths() {
    let error = Schema::from_json_schema(&json!({
        "allOf": [{"minLength": -1}, {"multipleOf": 0}],
        "not": {"pattern": "(?<=a)b"},
    }))
    .unwrap_err();
    let problems: Vec<&str> = error.problems.iter().map(|p| p.path.as_str()).collect();
    assert!(
        problems.contains(&"schema.allOf[0].minLength"),
        "{problems:?}"
    );
    assert!(
        problems.contains(&"schema.allOf[1].multipleOf"),
        "{problems:?}"
    );
    assert!(problems.contains(&"schema.not.pattern"), "{problems:?}");
}

#[test]
fn formats_assert_by_default_and_can_be_annotations() {
    let schema = json!({"anyOf": [{"format": "date"}, {"type": "integer"}]});
    let asserted = Schema::from_json_schema(&schema).unwrap();
    assert!(!asserted.is_valid(&json!("yesterday")));
    assert_eq!(
        asserted
            .validate(&json!("yesterday"))
            .unwrap_err()
            .to_string(),
        "\"arguments\" must be a date (RFC 3339 full-date)"
    );
    let annotated = Schema::from_json_schema_with(
        &schema,
        &SchemaImportOptions {
            assert_formats: false,
            ..SchemaImportOptions::default()
        },
    )
    .unwrap();
    assert!(annotated.is_valid(&json!("yesterday")));
    // The typed subset follows the same option.
    let typed = json!({"type": "string", "format": "date"});
    assert!(
        !Schema::from_json_schema(&typed)
            .unwrap()
            .is_valid(&json!("x"))
    );
    let options = SchemaImportOptions {
        assert_formats: false,
        ..SchemaImportOptions::default()
    };
    let typed = Schema::from_json_schema_with(&typed, &options).unwrap();
    assert!(typed.is_valid(&json!("x")));
    assert_eq!(typed.to_json_schema()["format"], "date");
}

#[test]
fn a_keyword_document_renders_as_written_at_the_root() {
    let source = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "allOf": [{"required": ["a"]}],
    });
    let schema = import(source.clone());
    let mut expected = source;
    expected.as_object_mut().unwrap().remove("$schema");
    assert_eq!(schema.to_json_schema(), expected);
}

#[test]
fn a_keyword_document_inside_a_larger_schema_keeps_its_references_working() {
    let field = KeywordSchema::new(&json!({
        "title": "Tree",
        "$defs": {"leaf": {"type": "string", "not": {"const": ""}}},
        "anyOf": [
            {"$ref": "#/$defs/leaf"},
            {"type": "array", "items": {"$ref": "#"}},
        ],
    }))
    .unwrap();
    let schema = Schema::object()
        .required("tree", Schema::keywords(field.clone()))
        .optional("other", Schema::keywords(field))
        .build();
    let rendered = schema.to_json_schema();
    assert_eq!(
        rendered["properties"]["tree"],
        json!({"$ref": "#/$defs/Tree"})
    );
    assert_eq!(
        rendered["properties"]["other"],
        json!({"$ref": "#/$defs/Tree"})
    );
    assert_eq!(
        rendered["$defs"]["Tree"]["anyOf"],
        json!([
            {"$ref": "#/$defs/Tree/$defs/leaf"},
            {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
        ])
    );
    for value in [
        json!({"tree": "a"}),
        json!({"tree": ["a", ["b"]]}),
        json!({"tree": ["a", [""]]}),
        json!({"tree": 1}),
        json!({"tree": []}),
    ] {
        assert_eq!(
            schema.is_valid(&value),
            oracle::is_valid(&rendered, &value),
            "{value}"
        );
    }
    assert_eq!(
        schema
            .validate(&json!({"tree": ["a", [""]]}))
            .unwrap_err()
            .to_string(),
        "\"tree[1][0]\" must not match the schema of \"not\""
    );
}
