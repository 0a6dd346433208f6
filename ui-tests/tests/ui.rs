//! Compile-fail cases (one mistake each, `.stderr` beside them) of the macros and of the
//! runtime's compile-time guidance (`#[must_use]` messages), and must-compile cases of the
//! macros. Regenerate expectations with `TRYBUILD=overwrite cargo test -p dsh-tools-ui-tests` and
//! read the diff.

use std::fs;
use std::path::{Path, PathBuf};

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/tool/*.rs");
    cases.compile_fail("tests/ui/args/*.rs");
    cases.compile_fail("tests/ui/runtime/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}

/// What a message must not show: the runtime's hidden module, the names the expansions give their
/// own items, and any line of the SDK's sources (a path into them, as trybuild writes it for a
/// path dependency or a registry one). A user's expected `.stderr` would change with the SDK's
/// internals otherwise.
const INTERNALS: &[&str] = &[
    "__private",
    "macro_support",
    "__dsh",
    "__Dsh",
    "__DSH",
    "$WORKSPACE/dsh-tools",
    "dsh-tools/src/",
    "dsh-tools-macros/src/",
    "dsh-tools-pattern/src/",
    "$CARGO/dsh-tools",
    "/dsh-tools-0.",
    "/dsh-tools-macros-0.",
];

#[test]
fn no_message_shows_the_sdk_internals() {
    let mut expectations = Vec::new();
    stderr_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui"),
        &mut expectations,
    );
    assert!(
        expectations.len() > 50,
        "the expectations are found: {expectations:?}"
    );
    let mut shown = Vec::new();
    for path in &expectations {
        let text = fs::read_to_string(path).expect("an expectation is readable");
        for (number, line) in text.lines().enumerate() {
            if let Some(internal) = INTERNALS.iter().find(|internal| line.contains(*internal)) {
                shown.push(format!(
                    "{}:{}: `{internal}` in {line:?}",
                    path.display(),
                    number + 1
                ));
            }
        }
    }
    assert!(
        shown.is_empty(),
        "compile errors show the SDK's internals:\n{}",
        shown.join("\n")
    );
}

fn stderr_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("the cases' directory is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            stderr_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "stderr") {
            out.push(path);
        }
    }
}
