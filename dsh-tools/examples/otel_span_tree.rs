//! The spans of one Code Mode program as an OpenTelemetry backend receives them: `run_code` and,
//! under it, one `execute_tool` span per call the program makes, with their GenAI attributes and
//! policy events. The spans go through `tracing-opentelemetry` into the SDK's in-memory
//! exporter, and the example prints them as a tree.
//!
//! Run with `cargo run -p dsh-tools --example otel_span_tree --features otel,code-mode`.
//! To send them to a collector instead, see `docs/observability.md`.

use std::collections::HashMap;

use dsh_tools::code_mode::CodeMode;
use dsh_tools::registry::RUN_CODE;
use dsh_tools::telemetry::Telemetry;
use dsh_tools::{FnTool, PreToolDecision, ToolExecutionInput, ToolRegistry, Value, json};
use opentelemetry::trace::{SpanId, TracerProvider as _};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use tracing_subscriber::layer::SubscriberExt;

/// The program the model wrote: two reads at once, then a write a policy refuses.
const PROGRAM: &str = r#"const [a, b] = await Promise.all([
  tools.read_file({path: "a.txt"}),
  tools.read_file({path: "b.txt"}),
]);
try {
  await tools.write_file({path: "c.txt", text: a + b});
} catch (error) {
  return `not written (${error.code})`;
}
return "written";"#;

fn registry() -> Result<ToolRegistry, Box<dyn std::error::Error>> {
    let registry = ToolRegistry::new();
    let path = json!({"type": "object", "properties": {"path": {"type": "string"}}});
    let read = FnTool::builder("read_file", "Reads a file.")
        .raw_parameters(path.clone())
        .handler(|arguments: Value, _| async move {
            let path = arguments["path"].as_str().unwrap_or("?").to_owned();
            Ok(format!("contents of {path}"))
        });
    let write = FnTool::builder("write_file", "Writes a file.")
        .raw_parameters(path)
        .handler(|_, _| async { Ok("done") });
    let _ = registry.register(read)?;
    let _ = registry.register(write)?;
    registry.set_code_mode(CodeMode::Code)?;
    let _ = registry.on_pre_execute(|execution, next| async move {
        if execution.name() == "write_file" {
            return Ok(PreToolDecision::Deny {
                reason: "writes are off in this demo".to_owned(),
            });
        }
        next.run().await
    })?;
    // Arguments on the spans, cut to 60 characters.
    registry.set_telemetry(Telemetry {
        record_arguments: Some(60),
        ..Telemetry::default()
    });
    Ok(registry)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let subscriber = tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("otel_span_tree")));
    let _guard = tracing::subscriber::set_default(subscriber);

    let registry = registry()?;
    let result = registry
        .execute(ToolExecutionInput::new(
            "call-1",
            RUN_CODE,
            json!({"code": PROGRAM}),
        ))
        .await;
    println!("program returned: {}\n", result.text());

    provider.force_flush()?;
    let spans = exporter.get_finished_spans()?;
    let mut children: HashMap<SpanId, Vec<&SpanData>> = HashMap::new();
    for span in &spans {
        children.entry(span.parent_span_id).or_default().push(span);
    }
    for list in children.values_mut() {
        list.sort_by_key(|span| span.start_time);
    }
    print_tree(&children, SpanId::INVALID, 0);
    Ok(())
}

/// Prints the spans under `parent`, each with its attributes and events, indented by depth.
fn print_tree(children: &HashMap<SpanId, Vec<&SpanData>>, parent: SpanId, depth: usize) {
    let Some(spans) = children.get(&parent) else {
        return;
    };
    for span in spans {
        let indent = "  ".repeat(depth);
        println!("{indent}{} ({:?})", span.name, span.span_kind);
        for pair in &span.attributes {
            let key = pair.key.as_str();
            if key.starts_with("gen_ai.") || key == "error.type" {
                println!("{indent}  {key} = {}", pair.value);
            }
        }
        for event in span.events.iter() {
            let attributes: Vec<String> = event
                .attributes
                .iter()
                .filter(|pair| pair.key.as_str().starts_with("dsh_tools."))
                .map(|pair| format!("{}={}", pair.key, pair.value))
                .collect();
            println!("{indent}  event {}: {}", event.name, attributes.join(", "));
        }
        print_tree(children, span.span_context.span_id(), depth + 1);
    }
}
