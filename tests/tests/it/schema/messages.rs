//! The validator's reports: exact wording, paths, the stable order, the violation cap, and the
//! `Error: invalid arguments: …` envelope.

use dsh_tools::schema::CompiledSchema;
use dsh_tools::schema::{MAX_REPORTED_VIOLATIONS, Schema, Violations};
use dsh_tools::{ToolError, errors::ErrorCode, json};
use serde_json::Value;

const WORKLOAD: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/benches/data/search_files.json"
));

fn search_files() -> Schema {
    Schema::object()
        .required("pattern", Schema::string().length(1..))
        .required("path", Schema::string())
        .optional("max_results", Schema::integer().range(1..=10_000))
        .optional("case_sensitive", Schema::boolean())
        .optional("include", Schema::array(Schema::string()))
        .optional("mode", Schema::enumeration(["literal", "regex"]))
        .optional(
            "options",
            Schema::object()
                .required("follow_links", Schema::boolean())
                .optional("depth", Schema::integer().range(0..=u32::MAX)),
        )
        .build()
}

/// The messages of `schema.validate(value)`, which must fail.
fn messages(schema: &Schema, value: &Value) -> Vec<String> {
    let violations = invalid(schema, value);
    assert!(!schema.is_valid(value), "is_valid disagrees with validate");
    violations
        .reported
        .iter()
        .map(|v| v.message().to_owned())
        .collect()
}

/// `schema.validate(value)`, which must fail, checked against the compiled schema's report.
fn invalid(schema: &Schema, value: &Value) -> Violations {
    let violations = schema
        .validate(value)
        .expect_err("the value should be invalid");
    let compiled = CompiledSchema::from(schema);
    assert!(
        !compiled.is_valid(value),
        "the compiled schema accepts {value}"
    );
    assert_eq!(compiled.validate(value), Err(violations.clone()));
    violations
}

#[test]
fn search_files_invalid_payload_reports_its_three_violations_in_order() {
    let workload: Value = serde_json::from_str(WORKLOAD).unwrap();
    let schema = search_files();
    assert_eq!(schema.validate(&workload["valid_args"]), Ok(()));
    let violations = invalid(&schema, &workload["invalid_args"]);
    let listed: Vec<_> = violations
        .reported
        .iter()
        .map(|v| (v.path(), v.message(), v.expected(), v.got()))
        .collect();
    assert_eq!(
        listed,
        [
            (
                "pattern",
                "missing required property \"pattern\"",
                "present",
                "absent"
            ),
            (
                "max_results",
                "\"max_results\" must be an integer",
                "integer",
                "string"
            ),
            (
                "mode",
                "\"mode\" must be one of [\"literal\",\"regex\"]",
                "one of [\"literal\",\"regex\"]",
                "\"fuzzy\""
            ),
        ]
    );
    let error = ToolError::invalid_arguments(&violations);
    assert_eq!(
        error.info().map(|info| &*info.code),
        Some(ErrorCode::InvalidArgs.as_str())
    );
    assert_eq!(
        error.message(),
        "invalid arguments: missing required property \"pattern\"; \"max_results\" must be \
         an integer; \"mode\" must be one of [\"literal\",\"regex\"]"
    );
    assert_eq!(error.violations().len(), 3);
}

#[test]
fn nested_missing_property_is_named_by_its_full_path() {
    let schema = Schema::object()
        .required(
            "opts",
            Schema::object().required("depth", Schema::integer()),
        )
        .build();
    assert_eq!(
        messages(&schema, &json!({"opts": {}})),
        ["missing required property \"opts.depth\""]
    );
}

#[test]
fn missing_properties_are_reported_in_required_order() {
    // `required` lists them in another order than `properties` declares them.
    let raw = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "string"},
            "c": {"type": "object", "properties": {"x": {}, "y": {}}, "required": ["y", "x"]},
            "d": {"type": "string"}
        },
        "required": ["d", "b", "c", "a"]
    });
    let schema = Schema::from_json_schema(&raw).unwrap();
    let expected = [
        "missing required property \"d\"",
        "missing required property \"b\"",
        "missing required property \"a\"",
        "missing required property \"c.y\"",
        "missing required property \"c.x\"",
    ];
    let value = json!({"c": {}});
    assert_eq!(messages(&schema, &value), expected);
    // The compiled schema reports alike, and `required` renders in the same order.
    let compiled: Vec<String> = CompiledSchema::from(&schema)
        .validate(&value)
        .unwrap_err()
        .reported
        .iter()
        .map(|v| v.message().to_owned())
        .collect();
    assert_eq!(compiled, expected);
    let rendered = schema.to_json_schema();
    assert_eq!(rendered["required"], json!(["d", "b", "c", "a"]));
    assert_eq!(rendered["properties"]["c"]["required"], json!(["y", "x"]));
    assert_eq!(Schema::from_json_schema(&rendered).unwrap(), schema);
    // Declaration order needs no record: the builder's schemas report in declaration order.
    let built = Schema::object()
        .required("b", Schema::string())
        .required("a", Schema::string())
        .build();
    assert_eq!(
        messages(&built, &json!({})),
        [
            "missing required property \"b\"",
            "missing required property \"a\""
        ]
    );
}

#[test]
fn undeclared_keys_come_last_in_payload_order() {
    let schema = Schema::object()
        .required("a", Schema::string())
        .optional("b", Schema::integer())
        .build();
    assert_eq!(
        messages(&schema, &json!({"z": 1, "b": "no", "x": true})),
        [
            "missing required property \"a\"",
            "\"b\" must be an integer",
            "\"z\" is not a declared property (additionalProperties: false)",
            "\"x\" is not a declared property (additionalProperties: false)",
        ]
    );
}

#[test]
fn declared_properties_report_in_declaration_order_with_nested_ones_inline() {
    let schema = Schema::object()
        .required("first", Schema::string())
        .required(
            "second",
            Schema::object()
                .required("inner", Schema::boolean())
                .optional("list", Schema::array(Schema::integer())),
        )
        .required("third", Schema::number())
        .build();
    let value = json!({
        "third": "x",
        "second": {"list": [1, "two", 3.5], "inner": 1, "extra": null},
        "first": 1
    });
    assert_eq!(
        messages(&schema, &value),
        [
            "\"first\" must be a string",
            "\"second.inner\" must be a boolean",
            "\"second.list[1]\" must be an integer",
            "\"second.list[2]\" must be an integer",
            "\"second.extra\" is not a declared property (additionalProperties: false)",
            "\"third\" must be a number",
        ]
    );
}

#[test]
fn required_key_given_null_is_a_type_error_unless_nullable() {
    let schema = Schema::object()
        .required("a", Schema::string())
        .required("b", Schema::string().nullable())
        .optional("c", Schema::integer())
        .build();
    assert_eq!(
        messages(&schema, &json!({"a": null, "b": null, "c": null})),
        ["\"a\" must be a string", "\"c\" must be an integer"]
    );
    assert_eq!(
        messages(&schema, &json!({"a": 1, "b": 2})),
        ["\"a\" must be a string", "\"b\" must be a string or null"]
    );
}

#[test]
fn scalar_constraint_messages() {
    let schema = Schema::object()
        .optional("n", Schema::integer().range(1..=10))
        .optional("f", Schema::number().range(0.5..))
        .optional("s", Schema::string().length(2..=3))
        .optional("one", Schema::string().length(1..))
        .optional("p", Schema::string().pattern("^[a-z]+$").unwrap())
        .optional("l", Schema::array(Schema::any()).item_count(1..=2))
        .optional("c", Schema::constant("x"))
        .optional("e", Schema::enumeration([json!(1), json!(2)]))
        .optional(
            "v",
            Schema::one_of([Schema::integer().build(), Schema::number().build()]),
        )
        .optional(
            "w",
            Schema::one_of([Schema::string().build(), Schema::boolean()]),
        )
        .build();
    let cases = [
        (json!({"n": 0}), "\"n\" must be >= 1"),
        (json!({"n": 11}), "\"n\" must be <= 10"),
        (json!({"n": 1.5}), "\"n\" must be an integer"),
        (json!({"f": 0.25}), "\"f\" must be >= 0.5"),
        (
            json!({"s": "a"}),
            "\"s\" must be at least 2 characters long",
        ),
        (
            json!({"s": "abcd"}),
            "\"s\" must be at most 3 characters long",
        ),
        (
            json!({"one": ""}),
            "\"one\" must be at least 1 character long",
        ),
        (
            json!({"p": "A1"}),
            "\"p\" must match the pattern \"^[a-z]+$\"",
        ),
        (json!({"l": []}), "\"l\" must have at least 1 item"),
        (json!({"l": [1, 2, 3]}), "\"l\" must have at most 2 items"),
        (json!({"c": "y"}), "\"c\" must be \"x\""),
        (json!({"e": 3}), "\"e\" must be one of [1,2]"),
        (
            json!({"v": 1}),
            "\"v\" must match exactly one oneOf branch (matched 2)",
        ),
        (
            json!({"w": 1}),
            "\"w\" must match exactly one oneOf branch (matched 0)",
        ),
    ];
    for (value, expected) in cases {
        assert_eq!(messages(&schema, &value), [expected], "for {value}");
    }
}

#[test]
fn json_semantics_numbers_by_value_lengths_in_code_points() {
    let schema = Schema::object()
        .optional("e", Schema::enumeration([json!(1), json!("a")]))
        .optional("c", Schema::constant(0))
        .optional("i", Schema::integer().range(0..=1000))
        .optional("s", Schema::string().length(..=2))
        .build();
    for value in [
        json!({"e": 1.0}),
        json!({"c": -0.0}),
        json!({"c": 0.0}),
        json!({"i": 1e3}),
        json!({"i": 1.0}),
        json!({"i": -0.0}),
        json!({"s": "é😀"}),
    ] {
        assert_eq!(schema.validate(&value), Ok(()), "for {value}");
        assert!(schema.is_valid(&value));
    }
    assert_eq!(
        messages(&schema, &json!({"s": "é😀a"})),
        ["\"s\" must be at most 2 characters long"]
    );
    assert_eq!(
        messages(&schema, &json!({"i": 1001.0})),
        ["\"i\" must be <= 1000"]
    );
}

#[test]
fn exact_integer_bounds_at_the_edges_of_u64_and_i64() {
    let schema = Schema::integer()
        .range(i128::from(i64::MIN)..=i128::from(u64::MAX))
        .build();
    assert!(schema.is_valid(&json!(u64::MAX)));
    assert!(schema.is_valid(&json!(i64::MIN)));
    assert!(!schema.is_valid(&json!(18_446_744_073_709_551_616.0)));
    let schema = Schema::integer()
        .range(..=9_007_199_254_740_992_u64)
        .build();
    assert!(!schema.is_valid(&json!(9_007_199_254_740_993_u64)));
}

#[test]
fn root_paths_for_arguments_and_output() {
    let schema = Schema::object().required("file", Schema::string()).build();
    assert_eq!(
        messages(&schema, &json!([])),
        ["\"arguments\" must be an object"]
    );
    let output = schema
        .validate_output(&json!({"file": 1, "x": 2}))
        .unwrap_err();
    let listed: Vec<_> = output.reported.iter().map(|v| v.message()).collect();
    assert_eq!(
        listed,
        [
            "\"value.file\" must be a string",
            "\"value.x\" is not a declared property (additionalProperties: false)"
        ]
    );
    let list = Schema::array(Schema::object().required("k", Schema::integer())).build();
    let output = list.validate_output(&json!([{"k": 1}, {}])).unwrap_err();
    assert_eq!(
        output.reported.as_slice()[0].message(),
        "missing required property \"value[1].k\""
    );
}

#[test]
fn maps_open_objects_and_closed_empty_objects() {
    let map = Schema::object()
        .additional_schema(Schema::integer())
        .build();
    assert!(map.is_valid(&json!({"a": 1, "b": 2})));
    assert_eq!(
        messages(&map, &json!({"a": 1, "b": "x"})),
        ["\"b\" must be an integer"]
    );
    let open = Schema::object()
        .required("a", Schema::integer())
        .additional_properties(true)
        .build();
    assert!(open.is_valid(&json!({"a": 1, "anything": [null]})));
    let closed = Schema::object().build();
    assert_eq!(
        messages(&closed, &json!({"k": 1})),
        ["\"k\" is not a declared property (additionalProperties: false)"]
    );
}

#[test]
fn hostile_payload_is_capped_with_a_tail() {
    let schema = Schema::object()
        .required("items", Schema::array(Schema::integer()))
        .build();
    let items: Vec<Value> = (0..100_000).map(|i| Value::from(format!("{i}"))).collect();
    let value = json!({"items": items});
    let violations = invalid(&schema, &value);
    assert_eq!(
        violations.reported.as_slice().len(),
        MAX_REPORTED_VIOLATIONS
    );
    assert_eq!((violations.reported.len() + violations.omitted), 100_000);
    assert_eq!(violations.omitted, 100_000 - MAX_REPORTED_VIOLATIONS);
    let text = ToolError::invalid_arguments(&violations)
        .message()
        .to_owned();
    assert!(
        text.ends_with("; and 99950 more"),
        "{}",
        &text[text.len() - 40..]
    );
    assert!(text.len() < 4_096, "message is {} bytes", text.len());
}

#[test]
fn hostile_payload_with_many_undeclared_keys_is_capped() {
    let schema = Schema::object().build();
    let map: serde_json::Map<String, Value> = (0..10_000)
        .map(|i| (format!("k{i}"), Value::Null))
        .collect();
    let violations = invalid(&schema, &Value::Object(map));
    assert_eq!((violations.reported.len() + violations.omitted), 10_000);
    assert!(violations.to_string().len() < 8_192);
}

#[test]
fn long_values_are_excerpted_in_got() {
    let schema = Schema::constant("x").build();
    let long = "y".repeat(1_000);
    let violations = invalid(&schema, &json!(long));
    assert_eq!(
        violations.reported.as_slice()[0].got(),
        format!("\"{}…[+936 characters]", "y".repeat(64))
    );
}

#[test]
fn strings_needing_escapes_are_quoted_as_json() {
    let schema = Schema::enumeration(["a\"b", "tab\there"]).build();
    assert_eq!(
        messages(&schema, &json!("q")),
        ["\"arguments\" must be one of [\"a\\\"b\",\"tab\\there\"]"]
    );
}

mod unions {
    use super::*;
    use dsh_tools::ToolArgs;

    /// Which issues to list.
    #[allow(dead_code)]
    #[derive(ToolArgs)]
    #[tool_args(tag = "kind", rename_all = "snake_case")]
    enum IssueFilter {
        /// Issues with a label.
        ByLabel { label: String },
        /// Issues of an author.
        ByAuthor { author: String, open: Option<bool> },
        /// Every issue.
        All,
    }

    fn filter() -> Schema {
        Schema::object()
            .required("filter", <IssueFilter as ToolArgs>::schema().unwrap())
            .build()
    }

    #[test]
    fn an_unknown_tag_lists_the_tags_values() {
        assert_eq!(
            messages(&filter(), &json!({"filter": {"kind": "by_milestone"}})),
            [r#""filter.kind" must be one of ["by_label","by_author","all"]"#]
        );
    }

    #[test]
    fn a_missing_tag_lists_the_tags_values() {
        assert_eq!(
            messages(&filter(), &json!({"filter": {"label": "bug"}})),
            [r#"missing required property "filter.kind" (one of ["by_label","by_author","all"])"#]
        );
    }

    #[test]
    fn a_known_tag_reports_its_own_branchs_violations() {
        assert_eq!(
            messages(&filter(), &json!({"filter": {"kind": "by_label"}})),
            [r#"missing required property "filter.label""#]
        );
        assert_eq!(
            messages(
                &filter(),
                &json!({"filter": {"kind": "by_author", "author": 7, "open": "yes", "x": 1}})
            ),
            [
                r#""filter.author" must be a string"#,
                r#""filter.open" must be a boolean or null"#,
                r#""filter.x" is not a declared property (additionalProperties: false)"#,
            ]
        );
    }

    #[test]
    fn an_untagged_union_of_objects_reports_the_closest_branch() {
        let shapes = Schema::one_of([
            Schema::object()
                .required("radius", Schema::number())
                .build(),
            Schema::object()
                .required("width", Schema::number())
                .required("height", Schema::number())
                .build(),
        ]);
        assert_eq!(
            messages(&shapes, &json!({"width": 2, "height": "3"})),
            [r#""height" must be a number"#]
        );
        assert_eq!(
            messages(&shapes, &json!({"radius": -0.5, "width": 1})),
            [r#""width" is not a declared property (additionalProperties: false)"#]
        );
        // No branch has the value's type: the count is all there is to say.
        assert_eq!(
            messages(&shapes, &json!("round")),
            [r#""arguments" must match exactly one oneOf branch (matched 0)"#]
        );
    }

    #[test]
    fn several_matching_branches_still_say_how_many() {
        let either = Schema::one_of([Schema::integer().build(), Schema::number().build()]);
        assert_eq!(
            messages(&either, &json!(3)),
            [r#""arguments" must match exactly one oneOf branch (matched 2)"#]
        );
    }
}
