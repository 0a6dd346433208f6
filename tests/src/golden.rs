//! Golden files: JSON committed under `tests/golden/<group>/<name>.json` (and text renderings under
//! `<name>.txt`), compared byte for byte so every change to what a model or a user sees shows up
//! in review. `UPDATE_GOLDEN=1` rewrites them.

use std::path::PathBuf;

use serde_json::Value;

/// Asserts that `value`, pretty-printed, equals `golden/<group>/<name>.json` (or writes it when
/// `UPDATE_GOLDEN` is set).
pub fn assert_golden(group: &str, name: &str, value: &Value) {
    let mut text = serde_json::to_string_pretty(value).expect("serializable");
    text.push('\n');
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(group)
        .join(format!("{name}.json"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().expect("golden files sit in a directory"))
            .expect("create golden directory");
        std::fs::write(&path, &text).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "{}: {error} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    assert_eq!(
        text,
        expected,
        "{} changed (run with UPDATE_GOLDEN=1 and review the diff)",
        path.display()
    );
}

/// Asserts that `text` equals `golden/<group>/<name>.txt` (or writes it when `UPDATE_GOLDEN` is
/// set): for renderings meant to be read as they are.
pub fn assert_golden_text(group: &str, name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(group)
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().expect("golden files sit in a directory"))
            .expect("create golden directory");
        std::fs::write(&path, text).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "{}: {error} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    assert_eq!(
        text,
        expected,
        "{} changed (run with UPDATE_GOLDEN=1 and review the diff)",
        path.display()
    );
}
