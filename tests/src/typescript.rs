//! The TypeScript compiler for the Code Mode declaration tests: `typescript@5` installed under
//! `target/` on first use with one `npm install` and reused afterwards.
//!
//! Several test binaries may ask at once: installation runs under an exclusive file lock, in a
//! scratch directory renamed into place when complete, so a half-made installation is never
//! used. When Node.js, npm or the package registry is missing, the test fails with a message
//! naming what is missing; it never passes without having run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::installed::{installed, target_dir};

/// The compiler the tests check declarations with.
pub const TYPESCRIPT_REQUIREMENT: &str = "typescript@5";

/// The `tsc` script of the installation, installed if needed (run it with `node`).
pub fn tsc() -> PathBuf {
    installed(
        "typescript",
        TYPESCRIPT_REQUIREMENT,
        |install| {
            install
                .join("node_modules")
                .join("typescript")
                .join("bin")
                .join("tsc")
        },
        install_typescript,
    )
}

fn install_typescript(scratch: &Path) {
    std::fs::create_dir_all(scratch)
        .unwrap_or_else(|error| panic!("cannot create {}: {error}", scratch.display()));
    let installed = Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--loglevel=error",
            TYPESCRIPT_REQUIREMENT,
        ])
        .current_dir(scratch)
        .output()
        .unwrap_or_else(|error| {
            panic!(
                "the Code Mode declaration tests need npm (`npm`, with Node.js) to install the \
                 TypeScript compiler, and it could not be started: {error}"
            )
        });
    assert!(
        installed.status.success(),
        "`npm install {TYPESCRIPT_REQUIREMENT}` failed; the Code Mode declaration tests need the \
         TypeScript compiler from the npm registry (is it reachable?):\n{}{}",
        String::from_utf8_lossy(&installed.stdout),
        String::from_utf8_lossy(&installed.stderr)
    );
}

/// What `tsc` said about a set of files.
#[derive(Debug)]
pub struct Checked {
    /// Whether it found no error.
    pub success: bool,
    /// Its diagnostics (`file(line,col): error TSxxxx: …`).
    pub diagnostics: String,
}

/// Type-checks `files` (name, text), written into a fresh directory `name` under `target/`,
/// with `tsc --noEmit --strict --target es2022 --lib es2022 --module es2022`.
pub fn check(name: &str, files: &[(&str, &str)]) -> Checked {
    let tsc = tsc();
    let dir = target_dir().join("typescript").join("checks").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|error| panic!("cannot create {}: {error}", dir.display()));
    for (file, text) in files {
        std::fs::write(dir.join(file), text)
            .unwrap_or_else(|error| panic!("cannot write {file}: {error}"));
    }
    let output: Output = Command::new("node")
        .arg(&tsc)
        .args([
            "--noEmit",
            "--strict",
            "--target",
            "es2022",
            "--lib",
            "es2022",
            "--module",
            "es2022",
            "--pretty",
            "false",
        ])
        .args(files.iter().map(|(file, _)| *file))
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|error| {
            panic!("the TypeScript compiler needs Node.js (`node`), which could not be started: {error}")
        });
    Checked {
        success: output.status.success(),
        diagnostics: format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    }
}
