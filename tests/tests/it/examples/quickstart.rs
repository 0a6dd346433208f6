//! The quickstart example, run as README tells a new user to run it: what it prints must be what
//! README says it prints — the schemas, a scripted turn with each kind of failure and its code —
//! and the terminal card of its command shows the scratch workspace the command runs in.
//!
//! The test builds the example itself (`cargo build -p dsh-tools --example quickstart`) and fails
//! with the build's output when that does not work.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the example and returns what one run of it printed.
fn quickstart_output() -> String {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests package sits in the workspace");
    // The workspace's own target directory (cargo releases it while tests run), so the build
    // reuses what the test build compiled.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace.join("target"), PathBuf::from);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let build = Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "-p",
            "dsh-tools",
            "--example",
            "quickstart",
        ])
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(workspace)
        .output()
        .expect("cargo runs");
    assert!(
        build.status.success(),
        "building the quickstart example failed:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let binary = target
        .join("debug")
        .join("examples")
        .join(format!("quickstart{}", std::env::consts::EXE_SUFFIX));
    let run = Command::new(&binary)
        .output()
        .unwrap_or_else(|error| panic!("{} runs: {error}", binary.display()));
    assert!(
        run.status.success(),
        "the quickstart failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8(run.stdout).expect("the quickstart prints UTF-8")
}

#[test]
fn the_quickstart_prints_what_readme_describes_with_the_command_card_in_the_workspace() {
    let output = quickstart_output();
    let workspace = std::env::temp_dir().join("dsh-tools-quickstart-");
    let workspace = workspace.to_str().expect("a UTF-8 temporary directory");
    let commands: Vec<&str> = output
        .lines()
        .filter(|line| line.trim_start().starts_with("[execute] $ "))
        .collect();
    assert_eq!(commands.len(), 2, "{output}");
    for line in commands {
        assert!(
            line.contains(&format!("(in {workspace}")),
            "the terminal card shows the workspace it runs in: {line}"
        );
        assert!(!line.contains("(in /)"), "{line}");
    }
    // What README's quickstart section promises.
    assert!(
        output.starts_with("== What the model is told (5 tools) =="),
        "{output}"
    );
    for (what, shown) in [
        ("a call with three argument mistakes", "[INVALID_ARGS]"),
        ("an unknown tool", "[UNKNOWN_TOOL]"),
        ("a call a policy hook denies", "[DENIED]"),
        ("a panicking tool", "[TOOL_PANICKED]"),
        ("progress", "… Search"),
        ("a diff card", "  | +"),
    ] {
        assert!(output.contains(shown), "{what} ({shown}):\n{output}");
    }
    let mistakes = output
        .lines()
        .find(|line| line.contains("[INVALID_ARGS]"))
        .expect("the invalid call");
    assert_eq!(
        mistakes.matches("; ").count(),
        2,
        "three mistakes: {mistakes}"
    );
}
