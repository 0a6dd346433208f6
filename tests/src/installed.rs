//! Outside implementations the tests run against (the Python MCP SDK, the TypeScript compiler),
//! installed under `target/` on first use and reused afterwards.
//!
//! Several test binaries may ask at once: installation runs under an exclusive file lock, in a
//! scratch directory renamed into place when complete, so a half-made installation is never
//! used. The installer fails with a message naming what is missing; a test never passes
//! without having run.

use std::path::{Path, PathBuf};

/// The `target` directory this test build writes to.
pub(crate) fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("target")
}

/// The installation of `requirement` in `target/<group>/`: `entry` names the file inside it that
/// tells a finished installation (and is returned); when it is missing, `install` fills the
/// scratch directory it is given (which does not exist yet), then that is moved into place.
pub(crate) fn installed(
    group: &str,
    requirement: &str,
    entry: impl Fn(&Path) -> PathBuf,
    install: impl FnOnce(&Path),
) -> PathBuf {
    let root = target_dir().join(group);
    std::fs::create_dir_all(&root)
        .unwrap_or_else(|error| panic!("cannot create {}: {error}", root.display()));
    let key: String = requirement
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let place = root.join(&key);
    let found = entry(&place);
    let lock_path = root.join(format!("{key}.lock"));
    let lock = std::fs::File::create(&lock_path)
        .unwrap_or_else(|error| panic!("cannot create {}: {error}", lock_path.display()));
    lock.lock()
        .unwrap_or_else(|error| panic!("cannot lock {}: {error}", lock_path.display()));
    if !found.exists() {
        let scratch = root.join(format!("{key}.partial"));
        let _ = std::fs::remove_dir_all(&scratch);
        install(&scratch);
        std::fs::rename(&scratch, &place).unwrap_or_else(|error| {
            panic!(
                "cannot move {} to {}: {error}",
                scratch.display(),
                place.display()
            )
        });
    }
    drop(lock);
    found
}
