//! A tool's title, icons and callers: what `#[tool(title, icon, callers)]` and `FnToolBuilder`
//! declare, as every consumer sees it — the definition, the MCP listing (through rmcp's own
//! client), an import of that listing, the ACP card, and Code Mode's refusal of a direct call of a
//! tool only programs may call.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use dsh_tools::acp::{AcpCards, AcpToolCalls};
use dsh_tools::call::{FnToolBuilder, ToolCallers};
use dsh_tools::code_mode::CodeMode;
use dsh_tools::errors::ErrorCode;
use dsh_tools::mcp::{ConnectOptions, ImportOptions, McpClient, McpServer, ServerOptions};
use dsh_tools::present::{IconTheme, ToolCallKind, ToolCallView, ToolIcon};
use dsh_tools::registry::RUN_CODE;
use dsh_tools::{FnTool, ToolDefinition, ToolExecutionInput, ToolRegistry, Value, json, tool};
use rmcp::ServiceExt;
use rmcp::model as mcp;

/// Only a broken bridge makes anything here wait this long.
const DEADLINE: Duration = Duration::from_secs(20);

const READ_ICON: &str = "https://example.com/icons/read.png";
const INLINE_ICON: &str = "data:image/svg+xml;base64,PHN2Zy8+";

/// Reads a file.
#[tool(
    title = "Read file",
    icon = "https://example.com/icons/read.png",
    icon(
        src = "data:image/svg+xml;base64,PHN2Zy8+",
        mime_type = "image/svg+xml",
        sizes = ["any"],
        theme = "light"
    ),
    kind = "read",
    location = path
)]
async fn read_file(path: String) -> String {
    path
}

/// Sums numbers; only programs call it.
#[tool(callers = "program")]
async fn sum(numbers: Vec<i64>) -> i64 {
    numbers.iter().sum()
}

/// Asks the user; only the model calls it.
#[tool(callers = "model")]
async fn ask_user(question: String) -> String {
    question
}

/// A hand-written tool with a title and an icon of every detail.
fn search() -> FnTool {
    search_builder().handler(|_arguments, _run| async move { Ok(json!("found")) })
}

fn search_builder() -> FnToolBuilder {
    FnTool::builder("search", "Searches the project.")
        .raw_parameters(json!({"type": "object"}))
        .options(dsh_tools::call::ToolOptions {
            annotations: dsh_tools::call::ToolAnnotations {
                title: Some("Search project".into()),
                ..dsh_tools::call::ToolAnnotations::default()
            },
            icons: vec![
                ToolIcon::from("https://example.com/icons/search.svg")
                    .with_mime_type("image/svg+xml")
                    .with_size("any")
                    .with_theme(IconTheme::Dark),
            ],
            ..dsh_tools::call::ToolOptions::default()
        })
}

/// What `read_file` declares: a URL, and an inline image in full.
fn read_file_icons() -> Vec<ToolIcon> {
    vec![
        ToolIcon::from(READ_ICON),
        ToolIcon::from(INLINE_ICON)
            .with_mime_type("image/svg+xml")
            .with_size("any")
            .with_theme(IconTheme::Light),
    ]
}

#[test]
fn the_macro_declares_title_icons_and_callers_on_the_definition() {
    let read_file = ReadFileTool.options();
    assert_eq!(read_file.annotations.title.as_deref(), Some("Read file"));
    assert_eq!(read_file.icons, read_file_icons());
    assert_eq!(read_file.allowed_callers, ToolCallers::Both);
    assert_eq!(SumTool.options().annotations.title, None);
    assert_eq!(SumTool.options().icons, []);
    assert_eq!(SumTool.options().allowed_callers, ToolCallers::Program);
    assert_eq!(AskUserTool.options().allowed_callers, ToolCallers::Model);
    // The title is for people: the model's schema does not carry it.
    let schema = serde_json::to_value(ReadFileTool.schema()).expect("serializes");
    assert!(!schema.to_string().contains("Read file"), "{schema}");
}

#[test]
fn cards_are_titled_with_the_tool_title_when_no_template_gives_one() {
    // The declarative card (a `location` without `card_title`) is titled as the tool is.
    let card = card_of(ReadFileTool, "read_file", json!({"path": "src/lib.rs"}));
    assert_eq!(card.title(), "Read file");
    assert!(
        matches!(&card, ToolCallView::Generic { kind: ToolCallKind::Read, locations, .. } if locations.len() == 1),
        "{card:?}"
    );
    // A tool without any presenter gets the generic card under its title.
    let card = card_of(search(), "search", json!({}));
    assert_eq!(card.title(), "Search project");
    // A presenter's blank title is replaced by the tool's title, its other choices kept.
    let blank = search_builder()
        .present_call(|_| {
            Some(ToolCallView::Terminal {
                title: " ".to_owned(),
                description: None,
                cwd: None,
            })
        })
        .handler(|_arguments, _run| async move { Ok(json!("found")) });
    let card = card_of(blank, "search", json!({}));
    assert_eq!(card.title(), "Search project");
    assert!(matches!(card, ToolCallView::Terminal { .. }), "{card:?}");
    // Without a title the card is named after the tool.
    let card = card_of(SumTool, "sum", json!({"numbers": []}));
    assert_eq!(card.title(), "sum");
}

/// The pending card of a call of `name`, the one tool of its registry.
fn card_of(
    tool: impl dsh_tools::registry::IntoToolDefinition,
    name: &'static str,
    arguments: Value,
) -> ToolCallView {
    let registry = ToolRegistry::new();
    let _ = registry.register(tool).expect("registers");
    registry.present_call(&ToolExecutionInput::new("c1", name, arguments))
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry.register(ReadFileTool).expect("registers");
    let _ = registry.register(search()).expect("registers");
    let _ = registry.register(AskUserTool).expect("registers");
    registry
}

#[tokio::test]
async fn the_mcp_listing_carries_titles_and_icons() {
    let registry = registry();
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = McpServer::new(&registry);
    let (connection, client) = tokio::join!(server.serve(server_end), ().serve(client_end));
    let _connection = connection.expect("the server completes the handshake");
    let client = client.expect("the client completes the handshake");
    let tools = tokio::time::timeout(DEADLINE, client.list_all_tools())
        .await
        .expect("listed in time")
        .expect("listed");
    let listed: Vec<Value> = tools
        .iter()
        .map(|tool| {
            json!({
                "name": tool.name,
                "title": tool.title,
                "icons": tool.icons,
            })
        })
        .collect();
    assert_eq!(
        listed,
        [
            json!({"name": "ask_user", "title": null, "icons": null}),
            json!({
                "name": "read_file",
                "title": "Read file",
                "icons": [
                    {"src": READ_ICON},
                    {
                        "src": INLINE_ICON,
                        "mimeType": "image/svg+xml",
                        "sizes": ["any"],
                        "theme": "light",
                    },
                ],
            }),
            json!({
                "name": "search",
                "title": "Search project",
                "icons": [{
                    "src": "https://example.com/icons/search.svg",
                    "mimeType": "image/svg+xml",
                    "sizes": ["any"],
                    "theme": "dark",
                }],
            }),
        ]
    );
    let read = tools
        .iter()
        .find(|tool| tool.name == "read_file")
        .expect("listed");
    assert_eq!(
        read.annotations
            .as_ref()
            .and_then(|hints| hints.title.as_deref()),
        Some("Read file"),
        "clients of earlier revisions read the annotations' title"
    );
}

#[tokio::test]
async fn an_imported_tool_shows_the_servers_title_and_icons() {
    let upstream = registry();
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = McpServer::new(&upstream).with_options(ServerOptions {
        name: "files".into(),
        ..ServerOptions::default()
    });
    let (connection, client) = tokio::join!(
        server.serve(server_end),
        McpClient::connect(client_end, ConnectOptions::default())
    );
    let _connection = connection.expect("the server completes the handshake");
    let client = client.expect("the client completes the handshake");
    let local = ToolRegistry::new();
    let names = tokio::time::timeout(
        DEADLINE,
        client.import_into(&local, ImportOptions::default()),
    )
    .await
    .expect("imported in time")
    .expect("imports every tool");
    assert_eq!(
        names,
        ["files__ask_user", "files__read_file", "files__search"]
    );
    let read = local.get("files__read_file").expect("imported");
    assert_eq!(
        read.options().annotations.title.as_deref(),
        Some("Read file")
    );
    assert_eq!(read.options().icons, read_file_icons());
    let search = local.get("files__search").expect("imported");
    assert_eq!(
        search.options().annotations.title.as_deref(),
        Some("Search project")
    );
    assert_eq!(
        search.options().icons,
        [ToolIcon::from("https://example.com/icons/search.svg")
            .with_mime_type("image/svg+xml")
            .with_size("any")
            .with_theme(IconTheme::Dark)]
    );
    let ask = local.get("files__ask_user").expect("imported");
    assert_eq!(ask.options().annotations.title, None);
    assert_eq!(ask.options().icons, []);
    // And the import's card is titled as the server titled the tool.
    let card = local.present_call(&ToolExecutionInput::new("c1", "files__search", json!({})));
    assert_eq!(card.title(), "Search project");
}

#[tokio::test]
async fn the_acp_tool_call_is_titled_with_the_tool_title() {
    let registry = registry();
    let sent: Arc<Mutex<Vec<Value>>> = Arc::default();
    let sink = Arc::clone(&sent);
    let _observer = registry.observe(AcpToolCalls::with_sender(
        "session-1",
        AcpCards::new("/work/project", false),
        move |notification| {
            let value = serde_json::to_value(&notification).expect("serializes");
            sink.lock().expect("not poisoned").push(value);
        },
    ));
    let result = registry
        .execute(ToolExecutionInput::new("call-1", "search", json!({})))
        .await;
    assert!(!result.is_error(), "{}", result.text());
    let sent = sent.lock().expect("not poisoned").clone();
    let pending = &sent.first().expect("the pending tool_call is sent")["update"];
    assert_eq!(pending["sessionUpdate"], "tool_call");
    assert_eq!(pending["title"], "Search project");
    assert_eq!(pending["name"], "search");
}

#[tokio::test]
async fn a_tool_only_programs_call_is_refused_to_the_model_and_runs_from_a_program() {
    let registry = ToolRegistry::new();
    let _ = registry.register(SumTool).expect("registers");
    let _ = registry.register(AskUserTool).expect("registers");
    registry.set_code_mode(CodeMode::Both).unwrap();
    let listed: Vec<String> = registry
        .schemas()
        .iter()
        .map(|schema| schema.name.clone())
        .collect();
    assert_eq!(listed, ["ask_user", RUN_CODE]);

    let direct = registry
        .execute(ToolExecutionInput::new(
            "call-1",
            "sum",
            json!({"numbers": [1, 2]}),
        ))
        .await;
    assert_eq!(
        direct.error_code(),
        Some(ErrorCode::UnknownTool.as_str()),
        "{}",
        direct.text()
    );

    let program = registry
        .execute(ToolExecutionInput::new(
            "call-2",
            RUN_CODE,
            json!({"code": "return await tools.sum({numbers: [1, 2, 39]});"}),
        ))
        .await;
    assert!(!program.is_error(), "{}", program.text());
    assert_eq!(
        program.value().map(|value| &value["result"]),
        Some(&json!(42))
    );

    // And a tool only the model calls is refused to the program.
    let nested = registry
        .execute(ToolExecutionInput::new(
            "call-3",
            RUN_CODE,
            json!({"code": "try { await tools.ask_user({question: 'ok?'}); } catch (e) { return e.code; }"}),
        ))
        .await;
    assert_eq!(
        nested.value().map(|value| &value["result"]),
        Some(&json!("UNKNOWN_TOOL"))
    );
}

/// The tools' icons as rmcp's own types read them back, so the wire form is MCP's.
#[test]
fn icons_are_mcp_icons_on_the_wire() {
    let icon = serde_json::to_value(
        ToolIcon::from("https://example.com/a.png")
            .with_mime_type("image/png")
            .with_size("48x48")
            .with_theme(IconTheme::Light),
    )
    .expect("serializes");
    let read: mcp::Icon = serde_json::from_value(icon.clone()).expect("rmcp reads it");
    assert_eq!(serde_json::to_value(read).expect("serializes"), icon);
}
