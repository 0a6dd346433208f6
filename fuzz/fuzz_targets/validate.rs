//! Arbitrary bytes, parsed as JSON, validated against schemas covering every kind: validation
//! must never panic, `validate` must fail exactly when `is_valid` does, every report must stay
//! within the violation cap, and the compiled schemas must answer and report exactly as the
//! schemas they were compiled from.

#![no_main]

use std::sync::LazyLock;

use dsh_tools::schema::{CompiledSchema, MAX_REPORTED_VIOLATIONS, Schema};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

static SCHEMAS: LazyLock<Vec<Schema>> = LazyLock::new(|| {
    let search_files = Schema::object()
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
        .build();
    let every_kind = Schema::object()
        .optional("s", Schema::string().length(..=4).pattern("^[a-z]*$").unwrap().nullable())
        .optional("n", Schema::number().range(-1.5..=1e3))
        .optional("i", Schema::integer().range(i128::from(i64::MIN)..=i128::from(u64::MAX)))
        .optional("z", Schema::null())
        .optional("l", Schema::array(Schema::any()).item_count(1..=3))
        .optional("m", Schema::object().additional_schema(Schema::integer().nullable()))
        .optional("e", Schema::enumeration([json!(1), json!("a"), json!(null)]))
        .optional("c", Schema::constant(json!(2.0)))
        .optional(
            "o",
            Schema::one_of([
                Schema::object().required("k", Schema::constant("a")).build(),
                Schema::object().required("k", Schema::constant("b")).build(),
                Schema::array(Schema::string()).build(),
            ]),
        )
        .additional_schema(Schema::boolean())
        .build();
    vec![
        search_files,
        every_kind,
        Schema::any(),
        Schema::array(Schema::array(Schema::integer())).build(),
    ]
});

static COMPILED: LazyLock<Vec<CompiledSchema>> =
    LazyLock::new(|| SCHEMAS.iter().map(CompiledSchema::from).collect());

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for (schema, compiled) in SCHEMAS.iter().zip(COMPILED.iter()) {
        let valid = schema.is_valid(&value);
        let validated = schema.validate(&value);
        assert_eq!(compiled.is_valid(&value), valid, "compiled is_valid disagrees");
        assert_eq!(compiled.validate(&value), validated, "compiled validate disagrees");
        match validated {
            Ok(()) => assert!(valid, "validate accepted what is_valid rejected"),
            Err(violations) => {
                assert!(!valid, "validate rejected what is_valid accepted");
                assert!(violations.reported.len() + violations.omitted > 0);
                assert!(violations.reported.len() <= MAX_REPORTED_VIOLATIONS);
                let _ = violations.to_string();
            }
        }
        assert_eq!(schema.validate_output(&value).is_ok(), valid);
    }
});
