//! Golden files: the rendered JSON Schema of representative schemas, committed under
//! `tests/golden/schema/`, so every change to what a model sees shows up in review.
//! `UPDATE_GOLDEN=1 cargo test -p dsh-tools-tests --test it schema::golden` rewrites them.

use dsh_tools::json;
use dsh_tools::schema::Schema;
use dsh_tools_tests::golden::assert_golden;

/// The schema as a standalone document: its JSON Schema behind the dialect's `$schema`.
fn document(schema: &Schema) -> serde_json::Value {
    let mut document = serde_json::Map::new();
    document.insert(
        "$schema".to_owned(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    let serde_json::Value::Object(rendered) = schema.to_json_schema() else {
        panic!("a schema renders as an object");
    };
    document.extend(rendered);
    serde_json::Value::Object(document)
}

fn golden(name: &str, schema: &Schema) {
    let rendered = document(schema);
    // Byte-identical across renders: prompt caches depend on it.
    assert_eq!(
        serde_json::to_string(&document(schema)).unwrap(),
        serde_json::to_string(&rendered).unwrap()
    );
    assert_golden("schema", name, &rendered);
}

#[test]
fn search_files() {
    golden(
        "search_files",
        &Schema::object()
            .title("search_files arguments")
            .required(
                "pattern",
                Schema::string()
                    .length(1..)
                    .description("Text or regex to look for."),
            )
            .required(
                "path",
                Schema::string().description("Directory to search from."),
            )
            .optional(
                "max_results",
                Schema::integer().range(1..=10_000).nullable(),
            )
            .optional("case_sensitive", Schema::boolean().nullable())
            .optional("include", Schema::array(Schema::string()).nullable())
            .optional("mode", Schema::enumeration(["literal", "regex"]).nullable())
            .optional(
                "options",
                Schema::object()
                    .required("follow_links", Schema::boolean())
                    .optional("depth", Schema::integer().range(0..=u32::MAX).nullable())
                    .nullable(),
            )
            .build(),
    );
}

#[test]
fn every_kind_with_annotations() {
    golden(
        "every_kind",
        &Schema::object()
            .description("One of each kind.")
            .required(
                "s",
                Schema::string()
                    .length(1..=64)
                    .pattern("^[a-z][a-z0-9_]*$")
                    .unwrap()
                    .title("Name")
                    .examples(["read_file", "grep"]),
            )
            .required("n", Schema::number().range(-1.5..=1e3).default_value(0.5))
            .required(
                "i",
                Schema::integer().range(i128::from(i64::MIN)..=i128::from(u64::MAX)),
            )
            .required("b", Schema::boolean().default_value(false))
            .required("z", Schema::null())
            .required(
                "list",
                Schema::array(Schema::integer().range(0..)).item_count(1..=10),
            )
            .required("anything", Schema::any().description("Any JSON value."))
            .required("map", Schema::object().additional_schema(Schema::string()))
            .required(
                "open",
                Schema::object()
                    .optional("known", Schema::string())
                    .additional_properties(true),
            )
            .required("closed_empty", Schema::object())
            .required("numbers", Schema::enumeration([json!(1), json!(2.5)]))
            .required(
                "mixed",
                Schema::enumeration([json!("a"), json!(1), json!(null)]),
            )
            .required("tag", Schema::constant("circle"))
            .required(
                "shape",
                Schema::one_of([
                    Schema::object()
                        .required("kind", Schema::constant("circle"))
                        .required("radius", Schema::number().range(0..))
                        .build(),
                    Schema::object()
                        .required("kind", Schema::constant("square"))
                        .required("side", Schema::number().range(0..))
                        .build(),
                ]),
            )
            .build(),
    );
}

#[test]
fn nullable_forms() {
    golden(
        "nullable",
        &Schema::object()
            .optional("string", Schema::string().length(..=3).nullable())
            .optional("null", Schema::null().nullable())
            .optional("any", Schema::any().nullable())
            .optional("enum", Schema::enumeration(["a", "b"]).nullable())
            .optional("const", Schema::constant(7).nullable())
            .optional(
                "one_of_without_null",
                Schema::one_of([Schema::string().build(), Schema::integer().build()]).nullable(),
            )
            .optional(
                "one_of_with_one_null",
                Schema::one_of([
                    Schema::string().nullable().build(),
                    Schema::integer().build(),
                ])
                .nullable(),
            )
            .optional(
                "one_of_with_two_nulls",
                Schema::one_of([
                    Schema::string().nullable().build(),
                    Schema::integer().nullable().build(),
                ])
                .nullable(),
            )
            .optional(
                "list",
                Schema::array(Schema::boolean().nullable()).nullable(),
            )
            .build(),
    );
}

#[test]
fn imported_from_schemars() {
    use schemars::JsonSchema;

    /// Arguments of a file read.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    #[serde(deny_unknown_fields)]
    struct ReadFile {
        /// Absolute file path.
        path: String,
        /// First line to return.
        offset: Option<u64>,
        #[serde(default)]
        encoding: Encoding,
    }

    /// How to decode the bytes.
    #[derive(JsonSchema, Default)]
    #[allow(dead_code)]
    enum Encoding {
        #[default]
        Utf8,
        Latin1,
    }

    golden(
        "schemars_read_file",
        &Schema::from_schemars(&schemars::schema_for!(ReadFile)).unwrap(),
    );
}
