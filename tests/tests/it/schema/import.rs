//! Import of raw JSON Schema and `schemars` schemas: what fits the enforced subset becomes a
//! model; everything else is `UNSUPPORTED_SCHEMA` listing every problem with its path. Also the
//! spec's structured-output functions.

use dsh_tools::schema::CompiledSchema;
use std::collections::{BTreeMap, HashSet};

use dsh_tools::json;
use dsh_tools::schema::{
    KeywordSchema, MAX_IMPORT_DEPTH, Schema, SchemaError, SchemaKind,
    assert_supported_object_json_schema,
};
use serde_json::Value;

fn problems(error: &SchemaError) -> Vec<&str> {
    error.problems.iter().map(|p| p.message.as_str()).collect()
}

fn rejected(schema: &Value) -> SchemaError {
    Schema::from_json_schema(schema).expect_err("the schema should be rejected")
}

#[test]
fn the_search_files_schema_imports_and_validates_like_the_hand_built_one() {
    let workload: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/search_files.json"
    )))
    .unwrap();
    let imported = Schema::from_json_schema(&workload["args_schema"]).unwrap();
    assert!(imported.is_valid(&workload["valid_args"]));
    let violations = imported.validate(&workload["invalid_args"]).unwrap_err();
    let messages: Vec<_> = violations.reported.iter().map(|v| v.message()).collect();
    assert_eq!(
        messages,
        [
            "missing required property \"pattern\"",
            "\"max_results\" must be an integer",
            "\"mode\" must be one of [\"literal\",\"regex\"]",
        ]
    );
    // The workload's root has no `additionalProperties`: JSON Schema's default (open) holds.
    assert!(imported.is_valid(&json!({"pattern": "x", "path": "/", "other": 1})));
    assert_eq!(
        imported.annotations.title.as_deref(),
        Some("search_files arguments")
    );
}

#[test]
fn a_schema_beyond_the_typed_subset_imports_whole_as_keywords() {
    let source = json!({
        "type": "object",
        "properties": {
            "n": {"type": "integer", "multipleOf": 2, "exclusiveMinimum": 0},
            "tags": {"type": "array", "items": {"type": "string", "format": "email"}, "uniqueItems": true},
            "both": {"allOf": [{"type": "string"}]},
        },
        "patternProperties": {"^x": {"type": "boolean"}},
    });
    let schema = Schema::from_json_schema(&source).unwrap();
    let SchemaKind::Keywords(keywords) = &schema.kind else {
        panic!("keywords expected, got {:?}", schema.kind);
    };
    assert_eq!(keywords.as_json(), &source);
    assert_eq!(schema.to_json_schema(), source);
    assert!(schema.is_valid(&json!({"n": 4, "tags": ["a@b.example"], "both": "s", "x1": true})));
    let messages: Vec<String> = schema
        .validate(&json!({"n": 3, "tags": ["a@b.example", "a@b.example"], "both": 1, "x1": 0}))
        .unwrap_err()
        .reported
        .iter()
        .map(|violation| violation.message().to_owned())
        .collect();
    assert_eq!(
        messages,
        [
            "\"n\" must be a multiple of 2",
            "\"tags\" must have unique items (items 0 and 1 are equal)",
            "\"both\" must be a string",
            "\"x1\" must be a boolean",
        ]
    );
}

/// The messages `schema` reports for `value` (none when it is valid).
fn messages_of(schema: &Schema, value: &Value) -> Vec<String> {
    schema
        .validate(value)
        .err()
        .map_or_else(Vec::new, |violations| {
            violations
                .reported
                .iter()
                .map(|violation| violation.message().to_owned())
                .collect()
        })
}

#[test]
fn constraints_beside_their_type_import_typed_and_report_as_the_keyword_engine() {
    let cases = [
        (
            json!({"type": "integer", "multipleOf": 5, "exclusiveMinimum": 0, "exclusiveMaximum": 100}),
            vec![
                json!(45),
                json!(7),
                json!(0),
                json!(100),
                json!(-5),
                json!(2.5),
                json!(95.0),
            ],
        ),
        (
            json!({"type": "number", "multipleOf": 0.01, "minimum": -1, "exclusiveMaximum": 1.5}),
            vec![
                json!(0.07),
                json!(0.075),
                json!(-1.01),
                json!(1.5),
                json!(1.49),
                json!(-0.0),
            ],
        ),
        (
            json!({"type": "array", "uniqueItems": true}),
            vec![
                json!([1, "1", [1]]),
                json!([1, 2, 1.0]),
                json!([{"a": 1, "b": 2}, {"b": 2.0, "a": 1}]),
                json!([]),
            ],
        ),
        (
            json!({"type": "array", "items": {"type": "integer"}, "uniqueItems": true, "maxItems": 2}),
            vec![json!([1, 2]), json!([1, 1, "x"]), json!([3, 3.0])],
        ),
        (
            json!({"type": "object", "minProperties": 1, "maxProperties": 2}),
            vec![json!({}), json!({"a": 1}), json!({"a": 1, "b": 2, "c": 3})],
        ),
        (
            json!({
                "type": "object",
                "properties": {
                    "n": {"type": "integer", "multipleOf": 3},
                    "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                },
                "required": ["n"],
                "additionalProperties": {"type": "number", "exclusiveMinimum": 0},
                "maxProperties": 3,
            }),
            vec![
                json!({"n": 9, "tags": ["a", "b"], "x": 0.5}),
                json!({"n": 10}),
                json!({"n": 3, "tags": ["a", "a"]}),
                json!({"n": 3, "x": 0}),
                json!({"n": 6, "tags": [], "x": 1, "y": 2}),
            ],
        ),
    ];
    for (source, values) in cases {
        let typed = Schema::from_json_schema(&source).unwrap();
        assert!(
            !matches!(typed.kind, SchemaKind::Keywords(_)),
            "{source} should import typed"
        );
        let rendered = typed.to_json_schema();
        let keywords = Schema::keywords(KeywordSchema::new(&source).unwrap());
        let compiled = CompiledSchema::from(&typed);
        for value in values {
            let expected = messages_of(&keywords, &value);
            assert_eq!(messages_of(&typed, &value), expected, "{source} on {value}");
            assert_eq!(
                compiled.is_valid(&value),
                expected.is_empty(),
                "{source} on {value}"
            );
            for published in [&source, &rendered] {
                assert_eq!(
                    dsh_tools_tests::oracle::is_valid(published, &value),
                    expected.is_empty(),
                    "jsonschema: {published} on {value}"
                );
            }
        }
    }
}

#[test]
fn constraints_without_their_type_stay_with_the_keyword_engine() {
    for source in [
        json!({"multipleOf": 2}),
        json!({"type": "string", "uniqueItems": true}),
        json!({"type": "array", "minProperties": 1}),
        json!({"type": ["integer", "string"], "exclusiveMinimum": 0}),
        json!({"type": "integer", "multipleOf": 2, "not": {"const": 4}}),
    ] {
        let schema = Schema::from_json_schema(&source).unwrap();
        assert!(
            matches!(schema.kind, SchemaKind::Keywords(_)),
            "{source} needs the keyword engine"
        );
    }
    for source in [
        json!({"type": "integer", "multipleOf": -3}),
        json!({"type": "integer", "exclusiveMinimum": "0"}),
        json!({"type": "array", "uniqueItems": 1}),
        json!({"type": "object", "maxProperties": 1.5}),
    ] {
        assert!(Schema::from_json_schema(&source).is_err(), "{source}");
    }
}

#[test]
fn structural_problems_use_the_spec_wording() {
    let cases = [
        (json!(5), "schema must be a schema object or a boolean"),
        (
            json!({"type": "date"}),
            "schema.type must be one of object/array/string/number/integer/boolean/null",
        ),
        (
            json!({"type": ["string", 1]}),
            "schema.type must be one of object/array/string/number/integer/boolean/null",
        ),
        (
            json!({"type": "object", "properties": []}),
            "schema.properties must be an object of schemas",
        ),
        (
            json!({"type": "object", "required": "a"}),
            "schema.required must be an array of strings",
        ),
        (
            json!({"type": "object", "additionalProperties": 1}),
            "schema.additionalProperties must be a schema object or a boolean",
        ),
        (
            json!({"type": "string", "pattern": "("}),
            "schema.pattern must be an ECMA-262 regular expression: the group \"(\" at offset 0",
        ),
        (
            json!({"type": "string", "pattern": "[[:alpha:]]"}),
            "schema.pattern must be an ECMA-262 regular expression: a lone \"]\" at offset 10 is not valid ECMA-262 regular expression syntax ([:alpha:] is a POSIX class",
        ),
        (
            json!({"type": "string", "pattern": "^(?!tmp)"}),
            "schema.pattern cannot be enforced: the negative look-ahead \"(?!\" at offset 1 is not supported (the regex engine has no look-around)",
        ),
        (
            json!({"type": "array", "items": [{"type": "string"}]}),
            "schema.items must be a schema object or a boolean",
        ),
        (
            json!({"type": "string", "minLength": -1}),
            "schema.minLength must be a non-negative integer",
        ),
        (
            json!({"type": "number", "multipleOf": 0}),
            "schema.multipleOf must be greater than 0",
        ),
        (
            json!({"oneOf": []}),
            "schema.oneOf must be a non-empty list of schemas",
        ),
        (
            json!({"$ref": "https://example.com/s.json"}),
            "schema.$ref refers to the remote document \"https://example.com/s.json\", which the import was not given (SchemaImportOptions::documents)",
        ),
        (
            json!({"$ref": "#/$defs/Nope"}),
            "schema.$ref \"#/$defs/Nope\" does not resolve",
        ),
        (
            json!({"$ref": "#nope"}),
            "schema.$ref \"#nope\" does not resolve",
        ),
    ];
    for (schema, expected) in cases {
        let error = rejected(&schema);
        assert!(
            problems(&error).iter().any(|p| p.starts_with(expected)),
            "{schema}: expected {expected:?}, got {:?}",
            problems(&error)
        );
    }
}

#[test]
fn nullable_forms_refs_and_annotations_import() {
    let schema = Schema::from_json_schema(&json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"], "minLength": 2},
            "b": {"anyOf": [{"$ref": "#/$defs/Point"}, {"type": "null"}], "description": "maybe"},
            "c": {"$ref": "#/$defs/Point"},
            "d": {"type": "string", "enum": ["x", "yy", "zzz"], "maxLength": 2},
            "e": {"type": "integer", "format": "int32", "deprecated": true, "$comment": "c"},
            "f": true,
            "g": {},
            "h": {"enum": [1, "a", null]},
        },
        "required": ["c"],
        "additionalProperties": false,
        "$defs": {
            "Point": {
                "type": "object",
                "title": "Point",
                "properties": {"x": {"type": "number"}},
                "required": ["x"],
                "additionalProperties": false
            }
        }
    }))
    .unwrap();
    assert!(schema.is_valid(&json!({
        "a": null, "b": null, "c": {"x": 1}, "d": "yy", "e": 5, "f": [1], "g": {"k": 1}, "h": null
    })));
    let violations = schema
        .validate(&json!({"a": "x", "b": {}, "c": {"x": "1"}, "d": "zzz", "h": 2}))
        .unwrap_err();
    let messages: Vec<_> = violations.reported.iter().map(|v| v.message()).collect();
    assert_eq!(
        messages,
        [
            "\"a\" must be at least 2 characters long",
            "missing required property \"b.x\"",
            "\"c.x\" must be a number",
            // `maxLength` beside `enum` leaves only the members that satisfy it.
            "\"d\" must be one of [\"x\",\"yy\"]",
            "\"h\" must be one of [1,\"a\",null]",
        ]
    );
    let SchemaKind::Object(rules) = &schema.kind else {
        panic!("object expected")
    };
    let b = &rules.properties[1].schema;
    assert!(b.nullable);
    assert_eq!(b.annotations.description.as_deref(), Some("maybe"));
    assert_eq!(b.annotations.title.as_deref(), Some("Point"));
    // Raw import keeps `format` an annotation: int32 does not bound a raw schema.
    assert!(schema.is_valid(&json!({"c": {"x": 1}, "e": 1_i64 << 40})));
}

#[test]
fn a_nullable_type_beside_enum_or_const_accepts_null_only_when_they_list_it() {
    // `null` passes `type`, but `const`/`enum` must accept it too (every keyword must hold).
    let constant =
        Schema::from_json_schema(&json!({"type": ["integer", "null"], "const": -2})).unwrap();
    assert!(constant.is_valid(&json!(-2)));
    assert!(!constant.is_valid(&Value::Null));
    assert!(!CompiledSchema::from(&constant).is_valid(&Value::Null));
    assert_eq!(
        constant.validate(&Value::Null).unwrap_err().to_string(),
        "\"arguments\" must be -2"
    );
    assert_eq!(
        constant.to_json_schema(),
        json!({"type": "integer", "const": -2})
    );

    let members =
        Schema::from_json_schema(&json!({"type": ["null", "integer"], "enum": [-2, 1]})).unwrap();
    assert!(!members.is_valid(&Value::Null));
    assert_eq!(
        members.to_json_schema(),
        json!({"type": "integer", "enum": [-2, 1]})
    );

    // Listed, `null` is accepted, and the schema renders back as it was written.
    let listed = json!({"type": ["integer", "null"], "enum": [-2, null]});
    let with_null = Schema::from_json_schema(&listed).unwrap();
    assert!(with_null.is_valid(&Value::Null) && with_null.is_valid(&json!(-2)));
    assert_eq!(with_null.to_json_schema(), listed);
    let null_const =
        Schema::from_json_schema(&json!({"type": ["string", "null"], "const": null})).unwrap();
    assert!(null_const.is_valid(&Value::Null) && !null_const.is_valid(&json!("a")));

    // Inside `oneOf`, the widened branch made `null` match where no branch takes it.
    let branches = Schema::from_json_schema(&json!({"oneOf": [
        {"type": ["integer", "null"], "const": -2},
        {"type": "string"}
    ]}))
    .unwrap();
    assert!(!branches.is_valid(&Value::Null));
    assert!(!CompiledSchema::from(&branches).is_valid(&Value::Null));
    assert!(branches.is_valid(&json!(-2)) && branches.is_valid(&json!("s")));
}

#[test]
fn recursive_schemas_import_as_definitions_and_hostile_ones_are_errors_not_overflows() {
    let list = Schema::from_json_schema(&json!({
        "$ref": "#/$defs/Node",
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}
    }))
    .unwrap();
    assert!(list.is_recursive());
    assert!(list.is_valid(&json!({"next": {"next": {}}})));
    assert_eq!(
        list.validate(&json!({"next": {"next": 3}}))
            .unwrap_err()
            .to_string(),
        r#""next.next" must be an object"#
    );
    let root =
        Schema::from_json_schema(&json!({"type": "object", "properties": {"me": {"$ref": "#"}}}))
            .unwrap();
    assert!(CompiledSchema::from(&root).is_valid(&json!({"me": {"me": {}}})));
    assert!(!CompiledSchema::from(&root).is_valid(&json!({"me": {"me": []}})));
    // A reference that only refers to itself validates nothing, and stops at the depth cap.
    let empty = Schema::from_json_schema(
        &json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
    )
    .unwrap();
    assert!(!empty.is_valid(&json!(1)));
    assert!(!CompiledSchema::from(&empty).is_valid(&json!(1)));
    assert!(
        empty
            .validate(&json!(1))
            .unwrap_err()
            .to_string()
            .contains("nests deeper than")
    );

    // 10,000 levels deep, built in code: rejected at the import depth cap.
    let mut deep = json!({"type": "string"});
    for _ in 0..10_000 {
        // Not `json!`: interpolating a value serializes it, which recurses.
        let mut node = serde_json::Map::new();
        node.insert("type".to_owned(), Value::from("array"));
        node.insert("items".to_owned(), deep);
        deep = Value::Object(node);
    }
    let deep_result = std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(move || {
            let result = Schema::from_json_schema(&deep).map(drop);
            // `Value`'s drop recurses; hand it back to be unwound iteratively.
            (result, deep)
        })
        .unwrap()
        .join()
        .expect("import overflowed");
    let (result, deep) = deep_result;
    let error = result.unwrap_err();
    assert!(
        problems(&error)[0].ends_with(&format!("nests deeper than {MAX_IMPORT_DEPTH} levels")),
        "{error}"
    );
    let mut pending = vec![deep];
    while let Some(mut value) = pending.pop() {
        if let Value::Object(map) = &mut value {
            pending.extend(std::mem::take(map).into_iter().map(|(_, v)| v));
        }
    }

    // A `$ref` graph that doubles at every level: bounded by the node budget.
    let mut defs = serde_json::Map::new();
    defs.insert("D0".to_owned(), json!({"type": "string"}));
    for level in 1..40 {
        let below = format!("#/$defs/D{}", level - 1);
        defs.insert(
            format!("D{level}"),
            json!({"type": "object", "properties": {"l": {"$ref": below}, "r": {"$ref": below}}}),
        );
    }
    // The typed model would inline it past its node budget; the keyword engine compiles each
    // definition once, and validation follows the value, so a value costs its own size.
    let doubling =
        Schema::from_json_schema(&json!({"$ref": "#/$defs/D39", "$defs": defs})).unwrap();
    assert!(matches!(doubling.kind, SchemaKind::Keywords(_)));
    assert!(doubling.is_valid(&json!({"l": {"r": {}}})));
    assert!(!doubling.is_valid(&json!({"l": 1})));
}

#[test]
fn problem_lists_are_capped() {
    let properties: serde_json::Map<String, Value> = (0..500)
        .map(|i| (format!("p{i}"), json!({"type": "string", "minLength": -1})))
        .collect();
    let error = rejected(&json!({"type": "object", "properties": properties}));
    assert_eq!(error.problems.len(), 50);
    assert_eq!(error.omitted, 450);
    assert!(error.to_string().ends_with("; and 450 more"));
}

#[test]
fn structured_output_subset_functions() {
    assert_eq!(
        assert_supported_object_json_schema(&json!({"type": "object", "properties": {}})),
        Ok(())
    );
    let error = assert_supported_object_json_schema(&json!({"type": "string"})).unwrap_err();
    assert_eq!(
        problems(&error),
        ["schema.type must be \"object\" (structured output is object-rooted)"]
    );
    let error =
        assert_supported_object_json_schema(&json!({"type": "array", "minItems": -1})).unwrap_err();
    assert_eq!(error.problems.len(), 2, "{error}");
    assert_eq!(
        assert_supported_object_json_schema(&json!({"type": "object", "minProperties": 1})),
        Ok(())
    );

    // A raw schema's values are checked by importing it once and validating each value.
    let schema = json!({
        "type": "object",
        "properties": {"file": {"type": "string"}, "lines": {"type": "integer", "minimum": 0}},
        "required": ["file"],
        "additionalProperties": false
    });
    let imported = Schema::from_json_schema(&schema).unwrap();
    assert_eq!(imported.validate_output(&json!({"file": "a"})), Ok(()));
    let violations = imported
        .validate_output(&json!({"lines": -1, "x": 1}))
        .unwrap_err();
    assert_eq!(
        violations.to_string(),
        "missing required property \"value.file\"; \"value.lines\" must be >= 0; \
         \"value.x\" is not a declared property (additionalProperties: false)"
    );
    let never = Schema::from_json_schema(&json!({"not": {}})).unwrap();
    assert!(never.validate_output(&json!(1)).is_err());
    let unsupported =
        Schema::from_json_schema(&json!({"$ref": "https://example.com/a.json"})).unwrap_err();
    assert!(
        unsupported
            .to_string()
            .contains("https://example.com/a.json"),
        "{unsupported}"
    );
}

mod from_schemars {
    use super::*;
    use schemars::JsonSchema;

    /// Options for a search.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    #[serde(deny_unknown_fields)]
    struct Options {
        /// Follow symbolic links.
        follow_links: bool,
        depth: Option<u32>,
        level: u8,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    #[serde(rename_all = "snake_case")]
    enum Mode {
        Literal,
        Regex,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    #[serde(tag = "kind")]
    enum Shape {
        Circle { radius: f64 },
        Square { side: f64 },
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        pattern: String,
        mode: Option<Mode>,
        options: Option<Options>,
        shapes: Vec<Shape>,
        labels: BTreeMap<String, i32>,
        tags: Vec<String>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Tree {
        children: Vec<Tree>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Unique {
        set: HashSet<String>,
    }

    #[test]
    fn derived_types_import_with_refs_inlined() {
        let schema = Schema::from_schemars(&schemars::schema_for!(Args)).unwrap();
        let rendered = schema.to_json_schema().to_string();
        assert!(!rendered.contains("$ref"), "{rendered}");
        assert!(
            !schema.is_valid(&json!({
                "pattern": "fn",
                "mode": "regex",
                "options": {"follow_links": true, "depth": null, "level": 3},
                "shapes": [{"kind": "circle", "radius": 1.0}, {"kind": "Square", "side": 2}],
                "labels": {"a": -1},
                "tags": []
            })),
            "tag values follow serde's names"
        );
        let valid = json!({
            "pattern": "fn",
            "mode": null,
            "options": {"follow_links": true, "level": 3},
            "shapes": [{"kind": "Circle", "radius": 1.0}, {"kind": "Square", "side": 2}],
            "labels": {"a": -1},
            "tags": []
        });
        assert_eq!(schema.validate(&valid), Ok(()));
        let violations = schema
            .validate(&json!({
                "pattern": 1,
                "mode": "fuzzy",
                "options": {"follow_links": true, "level": 300, "x": 1},
                "shapes": [{"kind": "Triangle"}],
                "labels": {"a": 1.5, "b": 3_000_000_000_i64},
                "tags": []
            }))
            .unwrap_err();
        let messages: Vec<_> = violations.reported.iter().map(|v| v.message()).collect();
        assert_eq!(
            messages,
            [
                "\"pattern\" must be a string",
                "\"mode\" must be one of [\"literal\",\"regex\"]",
                // schemars' integer formats become the Rust type's bounds.
                "\"options.level\" must be <= 255",
                "\"options.x\" is not a declared property (additionalProperties: false)",
                "\"shapes[0].kind\" must be one of [\"Circle\",\"Square\"]",
                "\"labels.a\" must be an integer",
                "\"labels.b\" must be <= 2147483647",
            ]
        );
    }

    #[test]
    fn recursive_types_and_sets_import() {
        let tree = Schema::from_schemars(&schemars::schema_for!(Tree)).unwrap();
        assert!(tree.is_valid(&json!({"children": [{"children": []}]})));
        assert!(!tree.is_valid(&json!({"children": [{}]})));
        // A set's `uniqueItems` is typed: an array of distinct items.
        let unique = Schema::from_schemars(&schemars::schema_for!(Unique)).unwrap();
        let set = &unique.as_object().unwrap().properties[0].schema;
        assert!(matches!(&set.kind, SchemaKind::Array(rules) if rules.constraints.unique_items));
        assert_eq!(
            unique
                .validate(&json!({"set": ["a", "a"]}))
                .unwrap_err()
                .to_string(),
            "\"set\" must have unique items (items 0 and 1 are equal)"
        );
    }

    /// A note's metadata, as another crate might describe it: no `deny_unknown_fields`.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Meta {
        priority: Option<String>,
        /// Free-form labels.
        labels: BTreeMap<String, String>,
    }

    /// A type that says it is open.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    #[schemars(extend("additionalProperties" = true))]
    struct Open {
        name: String,
    }

    #[test]
    fn a_schemars_struct_is_closed_as_a_tool_args_struct_is() {
        let schema = Schema::from_schemars(&schemars::schema_for!(Meta)).unwrap();
        assert_eq!(
            schema.to_json_schema()["additionalProperties"],
            json!(false)
        );
        assert_eq!(
            schema
                .validate(&json!({"priorty": "high", "labels": {}}))
                .unwrap_err()
                .to_string(),
            "\"priorty\" is not a declared property (additionalProperties: false)"
        );
        // A map keeps taking any key, with its value schema.
        assert!(schema.is_valid(&json!({"labels": {"any": "x"}})));
        assert!(!schema.is_valid(&json!({"labels": {"any": 1}})));
        // A type whose schema says it is open stays open.
        let open = Schema::from_schemars(&schemars::schema_for!(Open)).unwrap();
        assert!(open.is_valid(&json!({"name": "n", "extra": 1})));
    }
}
