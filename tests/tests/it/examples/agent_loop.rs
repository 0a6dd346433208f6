//! The provider loop example, run as README says, with recorded streams (`-- --stream`): each
//! provider's pending card grows with the arguments, the malformed call is reported before it
//! ends, the turn is rebuilt for the next request, and the turn's results are the same whatever
//! the provider.

fn run_example(arguments: &[&str]) -> String {
    dsh_tools_tests::run_example("agent_loop", &[], arguments)
}

/// The lines of `stdout` between the heading of `dialect` and the next heading.
fn section<'s>(stdout: &'s str, dialect: &str) -> Vec<&'s str> {
    let heading = format!("=== {dialect} (streamed) ===");
    stdout
        .lines()
        .skip_while(|line| *line != heading)
        .skip(1)
        .take_while(|line| !line.starts_with("==="))
        .collect()
}

#[test]
fn recorded_streams_show_growing_cards_and_the_early_error_for_every_provider() {
    let stdout = run_example(&["--stream"]);
    let search_error = "invalid arguments: \"mode\" must be one of [\"literal\",\"regex\"]";
    for dialect in [
        "openai-chat-strict",
        "openai-responses-strict",
        "anthropic",
        "gemini",
        "gemini-vertex",
    ] {
        let lines = section(&stdout, dialect);
        assert!(!lines.is_empty(), "no section for {dialect} in:\n{stdout}");
        let has = |wanted: &str| lines.iter().any(|line| line.contains(wanted));
        assert!(
            has("[0] read_file started"),
            "{dialect}:\n{}",
            lines.join("\n")
        );
        assert!(
            has("[0] finished: read_file {\"path\":\"src/lib.rs\""),
            "{dialect}"
        );
        assert!(
            has("model: I'll read the library and look for the greeting."),
            "{dialect}"
        );
        assert!(has("Hello, world!"), "{dialect}: the file was read");
        assert!(
            has("turn for the next request:") && has("\"read_file\""),
            "{dialect}: the turn was rebuilt for the next request"
        );
        assert!(
            lines
                .iter()
                .any(|line| line.contains("result message") && line.contains("must be one of")),
            "{dialect}: the search's error reached the model"
        );
        if dialect == "gemini" {
            // Gemini sends each call whole: nothing to show before it is finished.
            assert!(!has("card:"), "{dialect}");
            continue;
        }
        // The card names the file before its path has fully arrived.
        assert!(
            has("[0] card: \"Read src/lib.r"),
            "{dialect}:\n{}",
            lines.join("\n")
        );
        // The wrong `mode` is reported while the call is still streaming.
        let early = lines
            .iter()
            .position(|line| {
                line.contains("[1] already wrong after") && line.contains(search_error)
            })
            .unwrap_or_else(|| panic!("{dialect}: no early error:\n{}", lines.join("\n")));
        let finished = lines
            .iter()
            .position(|line| line.contains("[1] finished: search_files"))
            .expect("the search finished");
        assert!(
            early < finished,
            "{dialect}: the error came after the call ended"
        );
    }
}

#[test]
fn a_programmatic_turn_reads_the_providers_program_calls() {
    let stdout = dsh_tools_tests::run_example("agent_loop", &["code-mode"], &["--programmatic"]);
    for wanted in [
        "=== anthropic (programmatic) ===",
        "tool read_file: allowed_callers [\"direct\",\"code_execution_20260120\"]",
        "tool code_execution: \"code_execution_20260120\"",
        "call toolu_p1 read_file from program srvtoolu_1",
        "call toolu_p2 search_files from program srvtoolu_1",
        "\"tool_use_id\":\"toolu_p1\"",
    ] {
        assert!(stdout.contains(wanted), "no {wanted:?} in:\n{stdout}");
    }
    assert!(
        stdout.contains("Hello, world!"),
        "the program's read ran:\n{stdout}"
    );
}
