//! A model's raw argument string through everything that reads it before a tool body: the
//! parser (malformed or too deeply nested JSON must be an `INVALID_ARGS` error, never a panic),
//! then a macro-generated tool's validation and conversion. The generated check must agree with
//! the schema interpreter, and every accepted value must convert.

#![no_main]

use dsh_tools::schema::CompiledSchema;
use dsh_tools::{ToolArgs, __private::parse_arguments, call::ToolContract, errors::ErrorCode};
use libfuzzer_sys::fuzz_target;

#[derive(ToolArgs)]
#[tool_args(rename_all = "lowercase")]
enum Mode {
    Literal,
    Regex,
}

#[derive(ToolArgs)]
#[allow(dead_code)]
struct SearchOptions {
    follow_links: bool,
    depth: Option<u32>,
}

#[derive(ToolArgs)]
#[allow(dead_code)]
struct SearchArgs {
    #[arg(min_length = 1, pattern = "^[^\\n]*$")]
    pattern: String,
    path: String,
    #[arg(minimum = 1, maximum = 10_000)]
    max_results: Option<u32>,
    case_sensitive: Option<bool>,
    #[arg(max_items = 8)]
    include: Option<Vec<String>>,
    mode: Option<Mode>,
    options: Option<SearchOptions>,
    #[arg(default = 0.5, minimum = 0, maximum = 1)]
    ratio: f32,
}

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    let value = match parse_arguments(raw) {
        Ok(value) => value,
        Err(error) => {
            assert_eq!(error.info().map(|info| &*info.code), Some(ErrorCode::InvalidArgs.as_str()));
            assert!(error.message().starts_with("invalid arguments: "));
            return;
        }
    };
    let contract = ToolContract::of::<SearchArgs, String>();
    let schema = CompiledSchema::from(SearchArgs::schema().expect("the schema builds"));
    let generated = SearchArgs::is_valid_json(&value);
    assert_eq!(generated, schema.is_valid(&value), "generated check and interpreter disagree");
    match contract.parse::<SearchArgs>(&value) {
        Ok(_) => assert!(generated),
        Err(error) => {
            assert!(!generated, "a valid value did not convert: {error:?}");
            assert_eq!(error.info().map(|info| &*info.code), Some(ErrorCode::InvalidArgs.as_str()));
        }
    }
});
