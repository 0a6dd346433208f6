//! The official Python MCP SDK for the bridge tests: a virtual environment under `target/`,
//! created on first use with one `pip install` and reused afterwards.
//!
//! Several test binaries may ask at once: creation runs under an exclusive file lock, in a
//! scratch directory renamed into place when complete, so a half-made environment is never
//! used. When Python or the package registry is missing, the test fails with a message naming
//! what is missing; it never passes without having run.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::installed::installed;

/// The SDK the tests run against (`MCPServer`, `Client`).
pub const MCP_REQUIREMENT: &str = "mcp==2.3.0";

/// The Python interpreter of the environment, created if needed.
pub fn python_with_mcp() -> PathBuf {
    installed(
        "python-venvs",
        MCP_REQUIREMENT,
        |venv| venv.join("bin").join("python"),
        create_venv,
    )
}

fn create_venv(scratch: &Path) {
    let created = Command::new("python3")
        .args(["-m", "venv"])
        .arg(scratch)
        .output()
        .unwrap_or_else(|error| {
            panic!(
                "the MCP bridge tests need Python 3 (`python3`) to run the official MCP SDK, \
                 and it could not be started: {error}"
            )
        });
    assert!(
        created.status.success(),
        "`python3 -m venv` failed (is the `venv` module installed?):\n{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let installed = Command::new(scratch.join("bin").join("python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            MCP_REQUIREMENT,
        ])
        .output()
        .unwrap_or_else(|error| panic!("could not run pip in {}: {error}", scratch.display()));
    assert!(
        installed.status.success(),
        "`pip install {MCP_REQUIREMENT}` failed; the MCP bridge tests need the official Python MCP \
         SDK from the package registry (is it reachable?):\n{}{}",
        String::from_utf8_lossy(&installed.stdout),
        String::from_utf8_lossy(&installed.stderr)
    );
}

/// A script of `tests/python/`.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("python")
        .join(name)
}

/// Runs `tests/python/<name>` with `args` in the SDK's environment and returns the one JSON
/// report it prints; a script that fails, overruns `deadline` or prints no report fails the
/// test with its output.
pub async fn run_report(
    name: &str,
    args: &[&str],
    deadline: std::time::Duration,
) -> serde_json::Value {
    let mut command = tokio::process::Command::new(python_with_mcp());
    command
        .arg(script(name))
        .args(args)
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let output = tokio::time::timeout(deadline, command.output())
        .await
        .expect("the Python client finishes")
        .expect("the Python client starts");
    assert!(
        output.status.success(),
        "the Python client failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "the Python client printed no report ({error}):\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}
