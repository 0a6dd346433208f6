//! `format`: kept from schemars and `#[arg(format)]`, published, and checked for the formats the
//! engine knows, with the project's wording; the official JSON Schema Test Suite's
//! `optional/format` cases for those formats are the bar for each grammar.

use dsh_tools::schema::CompiledSchema;
use dsh_tools::schema::{Schema, StringFormat};
use dsh_tools::{ToolArgs, ToolRegistry, Value, json, tool};
use dsh_tools_tests::call_with;

/// The formats the engine checks, by their suite file.
const CHECKED: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "uuid",
    "email",
    "uri",
    "ipv4",
    "ipv6",
];

/// The vendored suite's `optional/format/<name>.json` (see `tests/json-schema-test-suite/`).
fn suite_file(name: &str) -> Value {
    let path = format!(
        "{}/json-schema-test-suite/tests/draft2020-12/optional/format/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("the test suite's {path} is missing: {error}"));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn every_checked_format_passes_the_official_suite_on_strings() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for name in CHECKED {
        let format = StringFormat::from(*name);
        assert!(!matches!(format, StringFormat::Other(_)), "{name}");
        let schema = Schema::string().format(format.clone()).build();
        let compiled = CompiledSchema::from(&schema);
        for group in suite_file(name).as_array().unwrap() {
            for case in group["tests"].as_array().unwrap() {
                // `format` applies to strings only; other values pass every format.
                let Some(text) = case["data"].as_str() else {
                    continue;
                };
                checked += 1;
                let expected = case["valid"].as_bool().unwrap();
                let value = Value::from(text);
                if schema.is_valid(&value) != expected || compiled.is_valid(&value) != expected {
                    failures.push(format!(
                        "{name}: {:?} should be {} ({})",
                        text,
                        if expected { "valid" } else { "invalid" },
                        case["description"]
                    ));
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_bad_value_is_worded_by_its_format() {
    let schema = Schema::object()
        .optional(
            "since",
            Schema::string().format(StringFormat::DateTime).nullable(),
        )
        .optional("id", Schema::string().format(StringFormat::Uuid))
        .optional("site", Schema::string().format(StringFormat::Uri))
        .build();
    let messages: Vec<String> = schema
        .validate(&json!({"since": "yesterday", "id": "42", "site": "example.com"}))
        .unwrap_err()
        .reported
        .iter()
        .map(|violation| violation.message().to_owned())
        .collect();
    assert_eq!(
        messages,
        [
            r#""since" must be a date-time (RFC 3339)"#,
            r#""id" must be a UUID"#,
            r#""site" must be an absolute URI (RFC 3986)"#,
        ]
    );
    let rendered = schema.to_json_schema();
    assert_eq!(rendered["properties"]["since"]["format"], "date-time");
    assert_eq!(
        Schema::from_json_schema(&rendered).unwrap(),
        schema,
        "formats import back"
    );
}

#[test]
fn an_unknown_format_is_published_and_not_checked() {
    let schema =
        Schema::from_json_schema(&json!({"type": "string", "format": "hostname-ish"})).unwrap();
    assert!(schema.is_valid(&json!("anything at all")));
    assert_eq!(schema.to_json_schema()["format"], "hostname-ish");
}

mod through_schemars {
    use super::*;

    /// Issues changed since a moment.
    #[tool]
    async fn changed_since(
        /// Only issues changed after this moment.
        #[arg(schemars)]
        since: Option<chrono::DateTime<chrono::Utc>>,
        /// The issue.
        #[arg(schemars)]
        id: uuid::Uuid,
    ) -> String {
        format!(
            "{id} {}",
            since.map(|since| since.to_rfc3339()).unwrap_or_default()
        )
    }

    #[tokio::test]
    async fn chrono_and_uuid_keep_their_formats_and_lose_internal_titles() {
        let registry = ToolRegistry::new();
        let _ = registry.register(ChangedSinceTool).unwrap();
        let parameters = registry.get("changed_since").unwrap().parameters().clone();
        let since = &parameters["properties"]["since"];
        assert_eq!(since["format"], "date-time", "{since}");
        assert!(since.get("title").is_none(), "{since}");
        assert_eq!(parameters["properties"]["id"]["format"], "uuid");
        assert!(parameters["properties"]["id"].get("title").is_none());

        let result = registry
            .execute(call_with(
                "changed_since",
                json!({"since": "last tuesday", "id": "not-a-uuid"}),
            ))
            .await;
        assert_eq!(
            result.text(),
            "Error: invalid arguments: \"since\" must be a date-time (RFC 3339); \"id\" must be a UUID"
        );
        let result = registry
            .execute(call_with(
                "changed_since",
                json!({"since": "2026-12-02T10:00:00Z", "id": "2eb8aa08-aa98-11ea-b4aa-73b441d16380"}),
            ))
            .await;
        assert_eq!(
            result.text(),
            "2eb8aa08-aa98-11ea-b4aa-73b441d16380 2026-12-02T10:00:00+00:00"
        );
    }
}

/// A field with a declared format.
#[allow(dead_code)]
#[derive(ToolArgs)]
struct Contact {
    /// Where to write.
    #[arg(format = "email")]
    email: String,
    /// When, if ever.
    #[arg(format = "date")]
    birthday: Option<String>,
}

#[test]
fn arg_format_is_published_and_checked_by_the_derive() {
    let schema = <Contact as ToolArgs>::schema().unwrap();
    let rendered = schema.to_json_schema();
    assert_eq!(rendered["properties"]["email"]["format"], "email");
    assert_eq!(rendered["properties"]["birthday"]["format"], "date");
    let good = json!({"email": "a@example.com", "birthday": "2000-02-29"});
    let bad = json!({"email": "a@", "birthday": "2001-02-29"});
    assert!(<Contact as ToolArgs>::is_valid_json(&good) && schema.is_valid(&good));
    assert!(!<Contact as ToolArgs>::is_valid_json(&bad) && !schema.is_valid(&bad));
    assert_eq!(
        schema.validate(&bad).unwrap_err().to_string(),
        r#""email" must be an email address; "birthday" must be a date (RFC 3339 full-date)"#
    );
}
