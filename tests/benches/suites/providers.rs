//! Provider adapters on the shared `search_files` workload.
//!
//! - `execute_alone`: `registry.execute` of one call built from the model's raw argument
//!   string (`ToolExecutionInput::from_raw`), what a loop without adapters does.
//! - `parse_execute_format`: the same call read from an OpenAI Chat completion
//!   (`LoweredTools::parse_response`), executed, and its result formatted as the `tool` message
//!   (`LoweredTools::format_results`). Target: ≤ 1.3 × `execute_alone`.
//! - `schemas_100`: `registry.schemas()` with 100 tools (cached until a change).
//! - `openai_strict_cached_100`: `ProviderTools::tools(None)` for OpenAI strict over the same
//!   100 tools, after the first call lowered them. Target: ≤ 2 × `schemas_100`.
//! - `openai_strict_lower_100`: lowering the 100 tools from scratch (what the cache saves).
//! - `serde_json_100k_text` / `partial_json_100k_text`: a 100 KB `edit_file`-like argument (one
//!   long string with escapes and multi-byte characters) parsed whole by `serde_json`, and read by
//!   `PartialJson` in 1,000 fragments. Target: ≤ 2 × the parse.
//! - `serde_json_100k_items` / `partial_json_100k_items`: the same for 100 KB of small objects
//!   (many short tokens). Target: ≤ 2 × the parse.
//! - `stream_100k_text` / `stream_100k_items`: the whole stream path a user's SSE loop drives —
//!   the same texts as an `edit_file` and a `put_items` call, each cut into 1,000 Anthropic
//!   `input_json_delta` events (parsed JSON values, made before the measured section) between a
//!   `content_block_start` and a `content_block_stop`, read by `ToolCallStream::push` (definite
//!   checks against the tool's schema included), ending with the finished call's arguments.
//!   Target: ≤ 2 × the parse.
//! - `serde_json_1600k_*` / `stream_1600k_*`: the same at 1.6 MB, in 16,000 events of the same
//!   size, counted per 100 KB so the rows read beside the 100 KB ones (a linear path costs the
//!   same per 100 KB at both sizes). Target: ≤ 2 × the parse.
//!
//! Every call runs on one current-thread runtime, entered once per measured section.

use std::hint::black_box;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use dsh_tools::providers::stream::{PartialJson, StreamEvent};
use dsh_tools::providers::{Dialect, LoweredTools, ProviderTools, ToolCalls};
use dsh_tools::schema::Schema;
use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, json};
use dsh_tools_tests::bench::{Case, Meter, Suite, SuiteDef, Target};
use serde_json::Value;

#[path = "workload.rs"]
mod workload;

use self::workload::WORKLOAD;
use self::workload::ours::SearchFilesTool;

pub(crate) const SUITE: SuiteDef = SuiteDef::new("providers", suite);

/// Everything the cases share, built once.
struct Setup {
    runtime: tokio::runtime::Runtime,
    registry: ToolRegistry,
    raw_arguments: String,
    response: Value,
    tools: Arc<LoweredTools>,
    hundred: ToolRegistry,
    hundred_openai: ProviderTools,
}

impl Setup {
    fn new() -> Self {
        let workload: Value = serde_json::from_str(WORKLOAD).expect("workload is JSON");
        let raw_arguments = serde_json::to_string(&workload["valid_args"]).expect("JSON");
        let registry = ToolRegistry::new();
        let _ = registry.register(SearchFilesTool).expect("registers");
        let tools =
            ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false }).tools(None);
        let response = json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": null, "tool_calls": [{
                "id": "call_1", "type": "function",
                "function": {"name": "search_files", "arguments": raw_arguments}}]}}]});

        let hundred = ToolRegistry::new();
        for index in 0..100 {
            let _ = hundred
                .register(
                    FnTool::builder(format!("search_files_{index:03}"), "Search files.")
                        .raw_parameters(workload["args_schema"].clone())
                        .handler(|_, _| async { Ok(json!("ok")) }),
                )
                .expect("distinct names");
        }
        let hundred_openai = ProviderTools::new(&hundred, Dialect::OpenAiChat { strict: true });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let setup = Self {
            runtime,
            registry,
            raw_arguments,
            response,
            tools,
            hundred,
            hundred_openai,
        };
        setup.check();
        setup
    }

    /// Both paths answer the same before anything is measured.
    fn check(&self) {
        self.runtime.block_on(async {
            let alone = self
                .registry
                .execute(ToolExecutionInput::from_raw(
                    "call_1",
                    "search_files",
                    &self.raw_arguments,
                ))
                .await;
            assert_eq!(alone.text(), "/src");
            let ToolCalls {
                calls, mut inputs, ..
            } = self.tools.parse_response(&self.response).expect("parses");
            let result = self.registry.execute(inputs.remove(0)).await;
            let messages = self.tools.format_results(&calls, &[result]).expect("pairs");
            assert_eq!(
                messages,
                [json!({"role": "tool", "tool_call_id": "call_1", "content": "/src"})]
            );
        });
        let lowered = self.hundred_openai.tools(None);
        assert_eq!(lowered.tools.len(), 100);
        assert!(lowered.tools.iter().all(|tool| tool.strict));
    }

    fn execute_alone(&self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            self.runtime.block_on(async {
                for _ in 0..iterations {
                    let input =
                        ToolExecutionInput::from_raw("call_1", "search_files", &self.raw_arguments);
                    black_box(self.registry.execute(input).await);
                }
            })
        });
    }

    fn parse_execute_format(&self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            self.runtime.block_on(async {
                for _ in 0..iterations {
                    let calls = self.tools.parse_response(black_box(&self.response));
                    let ToolCalls {
                        calls, mut inputs, ..
                    } = calls.expect("parses");
                    let result = self.registry.execute(inputs.swap_remove(0)).await;
                    black_box(self.tools.format_results(&calls, &[result]).expect("pairs"));
                }
            })
        });
    }

    fn schemas_100(&self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            for _ in 0..iterations {
                black_box(self.hundred.schemas());
            }
        });
    }

    fn openai_strict_cached_100(&self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            for _ in 0..iterations {
                black_box(self.hundred_openai.tools(None));
            }
        });
    }

    fn openai_strict_lower_100(&self, iterations: u64, meter: &mut Meter) {
        let schemas = self.hundred.schemas();
        meter.measure(|| {
            for _ in 0..iterations {
                black_box(LoweredTools::new(
                    Arc::clone(&schemas),
                    Dialect::OpenAiChat { strict: true },
                    None,
                ));
            }
        });
    }
}

/// A streamed argument text (100 KB or 1.6 MB) and the same text in fragments of about 100
/// bytes (cut on character boundaries).
struct Streamed {
    text: String,
    cuts: Vec<usize>,
}

/// Bytes of the 100 KB texts; the 1.6 MB ones are 16 times as long, in 16 times the fragments.
const STREAMED_BYTES: usize = 100_000;
const STREAMED_FRAGMENTS: usize = 1_000;

impl Streamed {
    /// `edit_file`'s arguments with 100 KB of source text in `new_text`.
    fn text() -> Self {
        Self::text_of(1)
    }

    /// `edit_file`'s arguments with `scale` × 100 KB of source text in `new_text`.
    fn text_of(scale: usize) -> Self {
        let line = "    let greeting = format!(\"héllo, {name} 😀\\n\");\t// say \\\"hi\\\"\n";
        let mut body = String::new();
        while body.len() < scale * STREAMED_BYTES {
            body.push_str(line);
        }
        let value =
            json!({"path": "src/greeting.rs", "old_text": "fn main() {}", "new_text": body});
        Self::new(serde_json::to_string(&value).expect("JSON"), scale)
    }

    /// 100 KB of small objects: many short keys, numbers, literals and strings.
    fn items() -> Self {
        Self::items_of(1)
    }

    /// `scale` × 100 KB of small objects.
    fn items_of(scale: usize) -> Self {
        let mut items = Vec::new();
        let mut length = 0;
        while length < scale * STREAMED_BYTES {
            let item = json!({"id": items.len(), "name": format!("item {}", items.len()),
                "price": 12.5, "tags": ["a", "bc"], "active": true, "parent": null});
            length += serde_json::to_string(&item).expect("JSON").len() + 1;
            items.push(item);
        }
        Self::new(
            serde_json::to_string(&json!({"items": items})).expect("JSON"),
            scale,
        )
    }

    fn new(text: String, scale: usize) -> Self {
        let parts = scale * STREAMED_FRAGMENTS;
        let mut cuts: Vec<usize> = (0..=parts)
            .map(|part| {
                let mut at = part * text.len() / parts;
                while !text.is_char_boundary(at) {
                    at += 1;
                }
                at
            })
            .collect();
        cuts.dedup();
        let streamed = Self { text, cuts };
        let mut reader = PartialJson::default();
        for fragment in streamed.fragments() {
            reader.push(fragment).expect("JSON");
        }
        reader.end().expect("whole");
        let whole: Value = serde_json::from_str(&streamed.text).expect("JSON");
        assert_eq!(
            reader.into_value(),
            Some(whole),
            "the reader reads what serde_json reads"
        );
        assert_eq!(streamed.fragments().count(), parts);
        streamed
    }

    fn fragments(&self) -> impl Iterator<Item = &str> {
        self.cuts
            .windows(2)
            .map(|pair| &self.text[pair[0]..pair[1]])
    }

    fn parse_whole(&self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            for _ in 0..iterations {
                black_box(serde_json::from_str::<Value>(black_box(&self.text)).expect("JSON"));
            }
        });
    }

    fn read_fragments(&self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            for _ in 0..iterations {
                let mut reader = PartialJson::default();
                for fragment in self.fragments() {
                    let _ = reader.push(black_box(fragment));
                }
                let _ = reader.end();
                black_box(reader.into_value());
            }
        });
    }
}

/// A streamed text as the provider stream events of one Anthropic `tool_use` block, with the
/// tool list whose stream reads them.
struct StreamPath {
    streamed: Streamed,
    tools: Arc<LoweredTools>,
    events: Vec<Value>,
    /// Keeps the tools' registry alive.
    _registry: ToolRegistry,
}

impl StreamPath {
    fn text() -> Self {
        Self::new(Streamed::text_of(1))
    }

    fn items() -> Self {
        Self::new(Streamed::items_of(1))
    }

    fn text_1600k() -> Self {
        Self::new(Streamed::text_of(16))
    }

    fn items_1600k() -> Self {
        Self::new(Streamed::items_of(16))
    }

    fn new(streamed: Streamed) -> Self {
        let registry = ToolRegistry::new();
        let _ = registry
            .register(
                FnTool::builder("edit_file", "Replace text in a file.")
                    .arguments(
                        Schema::object()
                            .required("path", Schema::string())
                            .required("old_text", Schema::string())
                            .required("new_text", Schema::string()),
                    )
                    .handler(|_, _| async { Ok(json!("ok")) }),
            )
            .expect("registers");
        let _ = registry
            .register(
                FnTool::builder("put_items", "Store items.")
                    .raw_parameters(json!({
                        "type": "object",
                        "properties": {"items": {"type": "array", "items": {
                            "type": "object",
                            "properties": {
                                "id": {"type": "integer"},
                                "name": {"type": "string"},
                                "price": {"type": "number"},
                                "tags": {"type": "array", "items": {"type": "string"}},
                                "active": {"type": "boolean"},
                                "parent": {"type": "null"}
                            },
                            "required": ["id", "name"]
                        }}},
                        "required": ["items"]
                    }))
                    .handler(|_, _| async { Ok(json!("ok")) }),
            )
            .expect("registers");
        let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
        let name = if streamed.text.starts_with(r#"{"items""#) {
            "put_items"
        } else {
            "edit_file"
        };
        let mut events = vec![json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}})];
        events.extend(streamed.fragments().map(|fragment| {
            json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": fragment}})
        }));
        events.push(json!({"type": "content_block_stop", "index": 0}));
        let path = Self {
            streamed,
            tools,
            events,
            _registry: registry,
        };
        let whole: Value = serde_json::from_str(&path.streamed.text).expect("JSON");
        assert_eq!(path.read(), whole, "the stream reads what serde_json reads");
        path
    }

    /// Every event through one stream, in order; the finished call's arguments.
    fn read(&self) -> Value {
        let mut stream = self.tools.stream();
        for event in &self.events {
            for update in stream.push(black_box(event)).expect("a well-formed stream") {
                assert!(
                    !matches!(update, StreamEvent::Definite { .. }),
                    "the arguments are valid"
                );
                black_box(update);
            }
        }
        let calls = stream.into_tool_calls().expect("the call finished");
        let mut inputs = calls.inputs;
        inputs.swap_remove(0).arguments
    }

    fn run(&mut self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            for _ in 0..iterations {
                black_box(self.read());
            }
        });
    }
}

/// A case on the whole stream path, built when it first runs.
fn stream_path_case(
    id: &'static str,
    about: &'static str,
    build: fn() -> StreamPath,
    baseline: &'static str,
    scale: u64,
) -> Case {
    let case = Case::with_fixture(id, about, build, StreamPath::run)
        .vs(baseline)
        .target(Target::Ratio(2.0));
    per_100k(case, scale)
}

/// A case counted per 100 KB of text, when its text is `scale` × 100 KB; one iteration of a
/// 1.6 MB case is long, so it is counted over fewer.
fn per_100k(case: Case, scale: u64) -> Case {
    if scale == 1 {
        case.profile_iterations(10)
    } else {
        case.per(scale, "100 KB").profile_iterations(2)
    }
}

/// A case on a streamed text, built when it first runs.
fn streamed_case(
    id: &'static str,
    about: &'static str,
    build: fn() -> Streamed,
    run: fn(&Streamed, u64, &mut Meter),
) -> Case {
    Case::with_fixture(
        id,
        about,
        build,
        move |streamed: &mut Streamed, iterations, meter| run(streamed, iterations, meter),
    )
    .profile_iterations(10)
}

/// A case running `run` on the suite's shared setup, built when a case of the suite first runs.
fn case(
    setup: &Rc<std::cell::OnceCell<Setup>>,
    id: &'static str,
    about: &'static str,
    run: fn(&Setup, u64, &mut Meter),
) -> Case {
    let setup = Rc::clone(setup);
    Case::custom(id, about, move |iterations, meter| {
        run(setup.get_or_init(Setup::new), iterations, meter);
    })
}

fn suite() -> Suite {
    let setup = Rc::new(std::cell::OnceCell::new());
    Suite::new("providers")
        .timing(Duration::from_millis(500), Duration::from_secs(3))
        .case(case(
            &setup,
            "execute_alone",
            "`registry.execute` of `search_files` from the model's raw argument string",
            Setup::execute_alone,
        ))
        .case(
            case(
                &setup,
                "parse_execute_format",
                "the same call read from an OpenAI Chat completion, executed, its `tool` message \
                 formatted",
                Setup::parse_execute_format,
            )
            .vs("execute_alone")
            .target(Target::Ratio(1.3)),
        )
        .case(case(
            &setup,
            "schemas_100",
            "`registry.schemas()` with 100 tools, cached",
            Setup::schemas_100,
        ))
        .case(
            case(
                &setup,
                "openai_strict_cached_100",
                "`ProviderTools::tools(None)` for OpenAI strict, 100 tools, cached",
                Setup::openai_strict_cached_100,
            )
            .vs("schemas_100")
            .target(Target::Ratio(2.0)),
        )
        .case(
            case(
                &setup,
                "openai_strict_lower_100",
                "lowering those 100 tools afresh (once per registry change)",
                Setup::openai_strict_lower_100,
            )
            .profile_iterations(3),
        )
        .case(streamed_case(
            "serde_json_100k_text",
            "`serde_json::from_str::<Value>` of a 100 KB `edit_file` argument (one long string)",
            Streamed::text,
            Streamed::parse_whole,
        ))
        .case(
            streamed_case(
                "partial_json_100k_text",
                "`PartialJson` reading the same text in 1,000 fragments, then its value",
                Streamed::text,
                Streamed::read_fragments,
            )
            .vs("serde_json_100k_text")
            .target(Target::Ratio(2.0)),
        )
        .case(streamed_case(
            "serde_json_100k_items",
            "`serde_json::from_str::<Value>` of 100 KB of small objects",
            Streamed::items,
            Streamed::parse_whole,
        ))
        .case(
            streamed_case(
                "partial_json_100k_items",
                "`PartialJson` reading the same text in 1,000 fragments, then its value",
                Streamed::items,
                Streamed::read_fragments,
            )
            .vs("serde_json_100k_items")
            .target(Target::Ratio(2.0)),
        )
        .case(stream_path_case(
            "stream_100k_text",
            "the same text as 1,000 Anthropic stream events through `ToolCallStream::push`, \
             then the finished call's arguments",
            StreamPath::text,
            "serde_json_100k_text",
            1,
        ))
        .case(stream_path_case(
            "stream_100k_items",
            "the same text as 1,000 Anthropic stream events through `ToolCallStream::push`, \
             then the finished call's arguments",
            StreamPath::items,
            "serde_json_100k_items",
            1,
        ))
        .case(per_100k(
            streamed_case(
                "serde_json_1600k_text",
                "`serde_json::from_str::<Value>` of a 1.6 MB `edit_file` argument",
                || Streamed::text_of(16),
                Streamed::parse_whole,
            ),
            16,
        ))
        .case(stream_path_case(
            "stream_1600k_text",
            "the same text as 16,000 Anthropic stream events through `ToolCallStream::push`, \
             then the finished call's arguments",
            StreamPath::text_1600k,
            "serde_json_1600k_text",
            16,
        ))
        .case(per_100k(
            streamed_case(
                "serde_json_1600k_items",
                "`serde_json::from_str::<Value>` of 1.6 MB of small objects",
                || Streamed::items_of(16),
                Streamed::parse_whole,
            ),
            16,
        ))
        .case(stream_path_case(
            "stream_1600k_items",
            "the same text as 16,000 Anthropic stream events through `ToolCallStream::push`, \
             then the finished call's arguments",
            StreamPath::items_1600k,
            "serde_json_1600k_items",
            16,
        ))
}
