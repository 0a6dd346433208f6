//! The Code Mode example, run as README says: one program against one call per turn, and what
//! each cost.

#[test]
fn the_example_solves_the_task_in_one_round_trip_with_fewer_result_bytes() {
    let stdout = dsh_tools_tests::run_example("code_mode", &["code-mode"], &[]);
    for line in [
        "  tools the model sees: run_code",
        "    approval asked: edit_file src/lib.rs -> allowed once",
        "    nested read_file {\"path\":\"README.md\"} -> TOOL_ERROR",
        "      | Result: {\"matches\":3,\"edited\":\"src/lib.rs\",\"readme\":\"none (TOOL_ERROR)\"}",
        "  src/lib.rs now says: \"Hello, Code Mode!\"",
        "  Code Mode: 1 model round trip, 109 bytes of tool results read by the model",
        "  Native:    4 model round trips, 400 bytes of tool results read by the model",
    ] {
        assert!(
            stdout.lines().any(|printed| printed == line),
            "missing {line:?} in:\n{stdout}"
        );
    }
}
