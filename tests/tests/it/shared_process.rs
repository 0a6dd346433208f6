//! Every test of this binary shares its process, so none may take over what a process has one
//! of: the global `tracing` subscriber, the panic hook, the environment, the working directory,
//! its exit. Read from the sources this binary is built from (its own, the shared library's and
//! the bench suites it runs); a failure names the file, the line and what it takes over.
//!
//! A test that needs one of them is a binary of its own beside `it/`, saying why at its top and
//! in `tests/README.md`. What a test needs instead: a capture scoped to its thread
//! (`dsh_tools_tests::Capture`), a panic caught with `catch_unwind`, a value passed in rather than
//! read from the environment, an absolute path.

use std::fs;
use std::path::{Path, PathBuf};

/// What takes over the process, and what it takes over.
const PROCESS_WIDE: &[(&str, &str)] = &[
    ("set_global_default", "the global tracing subscriber"),
    ("set_hook(", "the panic hook"),
    ("take_hook(", "the panic hook"),
    ("set_var(", "the environment"),
    ("remove_var(", "the environment"),
    ("set_current_dir(", "the working directory"),
    ("process::exit(", "the process itself"),
];

/// Where a source may name one of them, and why that is not a test's doing.
const ALLOWED: &[(&str, &str, &str)] = &[(
    "src/bench/mod.rs",
    "process::exit(",
    "the bench binaries' `main` ends with an error status; tests run a suite's cases only",
)];

/// The sources compiled into this binary, relative to the package, sorted.
fn sources() -> Vec<PathBuf> {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/it", "src", "benches/suites"] {
        rust_files(&package.join(dir), &mut files);
    }
    files
        .into_iter()
        .filter(|path| !path.starts_with(package.join("src/bin")))
        .map(|path| {
            path.strip_prefix(package)
                .expect("under the package")
                .to_owned()
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_test_takes_over_what_the_process_shares() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    let this_file = Path::new("tests/it/shared_process.rs");
    let sources = sources();
    assert!(
        sources.iter().any(|path| path.ends_with("it/main.rs")),
        "the binary's own sources are read: {sources:?}"
    );
    let mut found = Vec::new();
    for path in sources.iter().filter(|path| *path != this_file) {
        let text = fs::read_to_string(package.join(path)).expect("a readable source");
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for (needle, what) in PROCESS_WIDE {
                let allowed = ALLOWED
                    .iter()
                    .any(|(file, allowed, _)| path == Path::new(file) && needle == allowed);
                if line.contains(needle) && !allowed {
                    found.push(format!(
                        "{}:{}: takes over {what} (`{needle}`)",
                        path.display(),
                        number + 1
                    ));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
