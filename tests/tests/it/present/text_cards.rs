//! The plain-text card renderer: one line per pending call or progress report, a compact block
//! per result (a diff as a unified diff, a command's output with its exit status, long bodies
//! elided with a marker), checked as golden text (`golden/text/cards.txt`, `UPDATE_GOLDEN=1`
//! rewrites it) plus the rules a terminal user relies on.

use dsh_tools::{
    ContentBlock,
    call::ToolProgress,
    json,
    present::{FileDiff, FileLocation, TextCards, ToolCallKind, ToolCallView, ToolResultView},
};
use dsh_tools_tests::golden::assert_golden_text;

fn read_card() -> ToolCallView {
    ToolCallView::Generic {
        title: "Read src/lib.rs".into(),
        kind: ToolCallKind::Read,
        raw_input: None,
        content: vec![],
        locations: vec![FileLocation {
            path: "src/lib.rs".into(),
            line: None,
        }],
    }
}

fn fallback_card() -> ToolCallView {
    ToolCallView::Generic {
        title: "list_files".into(),
        kind: ToolCallKind::Other,
        raw_input: Some(json!({"path": ".", "depth": 2})),
        content: vec![],
        locations: vec![FileLocation {
            path: "src".into(),
            line: Some(1),
        }],
    }
}

fn command_card() -> ToolCallView {
    ToolCallView::Terminal {
        title: "cargo test --workspace".into(),
        description: Some("Run every test".into()),
        cwd: Some("/work/project".into()),
    }
}

const OLD_LIB: &str =
    "/// The greeting.\npub fn greeting() -> &'static str {\n    \"Hello, world!\"\n}\n";
const NEW_LIB: &str =
    "/// The greeting.\npub fn greeting() -> &'static str {\n    \"Hello, tools!\"\n}\n";

fn lib_diff() -> FileDiff {
    FileDiff {
        path: "src/lib.rs".into(),
        old_text: Some(OLD_LIB.into()),
        new_text: NEW_LIB.into(),
    }
}

fn new_file_diff() -> FileDiff {
    FileDiff {
        path: "src/new.rs".into(),
        old_text: None,
        new_text: "pub const ANSWER: u32 = 42;\n".into(),
    }
}

fn edit_card(diffs: Vec<FileDiff>) -> ToolCallView {
    ToolCallView::Diff {
        title: "Edit src/lib.rs".into(),
        diffs,
        locations: vec![],
    }
}

fn numbered(lines: usize) -> String {
    (1..=lines).map(|n| format!("line {n}\n")).collect()
}

#[test]
fn every_card_kind_reads_as_golden_text() {
    let cards = TextCards::default();
    let mut text = String::new();
    let mut section = |name: &str, rendered: String| {
        text.push_str(&format!("### {name}\n{rendered}\n\n"));
    };

    section("call: generic naming its file", cards.call(&read_card()));
    section(
        "call: generic fallback with raw arguments",
        cards.call(&fallback_card()),
    );
    section("call: terminal", cards.call(&command_card()));
    section("call: diff", cards.call(&edit_card(vec![lib_diff()])));
    section(
        "call: diff of a new file",
        cards.call(&edit_card(vec![new_file_diff()])),
    );
    section(
        "call: diff of two files",
        cards.call(&edit_card(vec![lib_diff(), new_file_diff()])),
    );
    section(
        "call: a title with a line break",
        cards.call(&ToolCallView::Terminal {
            title: "echo one\necho two".into(),
            description: None,
            cwd: None,
        }),
    );

    section(
        "progress: message and total",
        cards.progress(
            &read_card(),
            &ToolProgress {
                total: Some(10.0),
                message: Some("reading".into()),
                ..ToolProgress::from(3.0)
            },
        ),
    );
    section(
        "progress: a bare fraction",
        cards.progress(&command_card(), &ToolProgress::from(2.5)),
    );

    section(
        "result: generic",
        cards.result(
            &read_card(),
            &ToolResultView::Generic {
                title: None,
                content: vec![ContentBlock::text(OLD_LIB)],
            },
            false,
        ),
    );
    section(
        "result: generic failure with its own title",
        cards.result(
            &read_card(),
            &ToolResultView::Generic {
                title: Some("Could not read src/lib.rs".into()),
                content: vec![ContentBlock::text("Error: no such file")],
            },
            true,
        ),
    );
    section(
        "result: long content is elided",
        cards.result(
            &read_card(),
            &ToolResultView::Generic {
                title: None,
                content: vec![ContentBlock::text(numbered(40))],
            },
            false,
        ),
    );
    section(
        "result: non-text content",
        cards.result(
            &fallback_card(),
            &ToolResultView::Generic {
                title: None,
                content: vec![
                    ContentBlock::Image {
                        data: "iVBORw0KGgo=".to_owned(),
                        mime_type: "image/png".to_owned(),
                    },
                    ContentBlock::ResourceLink {
                        uri: "file:///work/project/README.md".into(),
                        name: Some("README".into()),
                        mime_type: None,
                    },
                ],
            },
            false,
        ),
    );
    section(
        "result: terminal, exit code 0",
        cards.result(
            &command_card(),
            &ToolResultView::Terminal {
                title: None,
                output: Some("running 2 tests\ntest a ... ok\ntest b ... ok\n\n".into()),
                exit_code: Some(0),
                signal: None,
            },
            false,
        ),
    );
    section(
        "result: terminal, exit code 101, long output",
        cards.result(
            &command_card(),
            &ToolResultView::Terminal {
                title: Some("cargo test (failed)".into()),
                output: Some(numbered(30)),
                exit_code: Some(101),
                signal: None,
            },
            true,
        ),
    );
    section(
        "result: terminal, killed, no output",
        cards.result(
            &command_card(),
            &ToolResultView::Terminal {
                title: None,
                output: Some(String::new()),
                exit_code: None,
                signal: Some("SIGKILL".into()),
            },
            true,
        ),
    );
    section(
        "result: diff",
        cards.result(
            &edit_card(vec![lib_diff()]),
            &ToolResultView::Diff {
                title: Some("Edited src/lib.rs".into()),
                diffs: vec![lib_diff()],
            },
            false,
        ),
    );
    section(
        "result: diff of a new file and a file with two distant changes",
        TextCards {
            max_lines: 40,
            ..cards.clone()
        }
        .result(
            &edit_card(vec![]),
            &ToolResultView::Diff {
                title: None,
                diffs: vec![
                    new_file_diff(),
                    FileDiff {
                        path: "notes.txt".into(),
                        old_text: Some(numbered(20)),
                        new_text: numbered(20)
                            .replace("line 2\n", "line two\n")
                            .replace("line 19\n", "line nineteen\n"),
                    },
                ],
            },
            false,
        ),
    );
    section(
        "result: narrow width",
        TextCards {
            max_width: 24,
            ..TextCards::default()
        }
        .result(
            &read_card(),
            &ToolResultView::Generic {
                title: None,
                content: vec![ContentBlock::text(
                    "a line much longer than twenty-four characters\nshort",
                )],
            },
            false,
        ),
    );
    assert_golden_text("text", "cards", &text);
}

#[test]
fn a_pending_call_is_always_one_line() {
    let cards = TextCards {
        max_width: 40,
        ..TextCards::default()
    };
    for card in [
        read_card(),
        fallback_card(),
        command_card(),
        edit_card(vec![lib_diff()]),
        ToolCallView::Generic {
            title: "a\nb\r\nc".into(),
            kind: ToolCallKind::Other,
            raw_input: Some(json!({"text": "x\ny"})),
            content: vec![],
            locations: vec![],
        },
    ] {
        let line = cards.call(&card);
        assert!(!line.contains('\n'), "{line:?}");
        assert!(line.chars().count() <= 40, "{line:?}");
    }
}

#[test]
fn a_long_body_keeps_its_head_and_tail_around_a_marker() {
    let block = TextCards {
        max_lines: 6,
        ..TextCards::default()
    }
    .result(
        &command_card(),
        &ToolResultView::Terminal {
            title: None,
            output: Some(numbered(100)),
            exit_code: Some(1),
            signal: None,
        },
        false,
    );
    assert_eq!(
        block,
        "ok: cargo test --workspace\n  | line 1\n  | line 2\n  | line 3\n  | … 95 more lines …\n  | line 99\n  | line 100\n  (exit code 1)"
    );
}
