//! Paths against a session's working directory: ACP wants absolute paths in locations and diffs
//! (an editor opens them), people want short titles (`Read src/lib.rs`, not the whole absolute
//! path). Tools may name files either way; this file turns each into what its place needs.

use std::path::{Component, Path, PathBuf};

/// The working directory of one ACP session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SessionPaths {
    cwd: PathBuf,
}

impl SessionPaths {
    pub(crate) fn new(cwd: PathBuf) -> Self {
        Self { cwd }
    }

    pub(crate) fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// `path` as an absolute path: a relative one is taken from the working directory (without
    /// its `.` components).
    pub(crate) fn absolute(&self, path: &str) -> PathBuf {
        let path = Path::new(path);
        if path.is_absolute() {
            return path.to_path_buf();
        }
        let mut absolute = self.cwd.clone();
        for component in path.components() {
            match component {
                Component::CurDir => {}
                other => absolute.push(other),
            }
        }
        absolute
    }

    /// `title` with every absolute path inside the working directory written relative to it
    /// (the directory itself becomes `.`). Only whole paths are rewritten: the directory must
    /// start the title or follow a space, quote or bracket, and be followed by a separator, the
    /// end, or such a delimiter.
    pub(crate) fn relative_title(&self, title: &str) -> String {
        let Some(root) = self.cwd.to_str().filter(|root| !root.is_empty()) else {
            return title.to_owned();
        };
        let root = root.trim_end_matches(std::path::MAIN_SEPARATOR);
        if root.is_empty() {
            // The working directory is the filesystem root: every absolute path is inside it, and
            // none reads better relative.
            return title.to_owned();
        }
        let mut out = String::with_capacity(title.len());
        let mut rest = title;
        while let Some(at) = rest.find(root) {
            let before = &rest[..at];
            let after = &rest[at + root.len()..];
            let starts_path = before.chars().next_back().is_none_or(is_delimiter);
            let next = after.chars().next();
            if !starts_path {
                out.push_str(&rest[..at + root.len()]);
                rest = after;
                continue;
            }
            match next {
                Some(std::path::MAIN_SEPARATOR) => {
                    let inner = &after[std::path::MAIN_SEPARATOR.len_utf8()..];
                    out.push_str(before);
                    // `<root>/` followed by a delimiter or nothing is the directory itself.
                    if inner.chars().next().is_none_or(is_delimiter) {
                        out.push('.');
                    }
                    rest = inner;
                }
                None => {
                    out.push_str(before);
                    out.push('.');
                    rest = after;
                }
                Some(ch) if is_delimiter(ch) => {
                    out.push_str(before);
                    out.push('.');
                    rest = after;
                }
                Some(_) => {
                    out.push_str(&rest[..at + root.len()]);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// Characters that may sit right before or after a path in a title.
fn is_delimiter(ch: char) -> bool {
    ch.is_whitespace()
        || matches!(
            ch,
            '"' | '\'' | '`' | '(' | ')' | '[' | ']' | ',' | ':' | '='
        )
}

#[cfg(all(test, unix))]
mod tests {
    use std::path::PathBuf;

    use super::SessionPaths;

    fn paths() -> SessionPaths {
        SessionPaths::new(PathBuf::from("/home/ada/project"))
    }

    #[test]
    fn relative_paths_are_taken_from_the_working_directory() {
        assert_eq!(
            paths().absolute("src/lib.rs"),
            PathBuf::from("/home/ada/project/src/lib.rs")
        );
        assert_eq!(
            paths().absolute("./src/./lib.rs"),
            PathBuf::from("/home/ada/project/src/lib.rs")
        );
        assert_eq!(paths().absolute("/etc/hosts"), PathBuf::from("/etc/hosts"));
    }

    #[test]
    fn titles_name_workspace_files_relative_to_it() {
        let paths = paths();
        assert_eq!(
            paths.relative_title("Read /home/ada/project/src/lib.rs"),
            "Read src/lib.rs"
        );
        assert_eq!(
            paths.relative_title("Copy \"/home/ada/project/a\" to /home/ada/project/b"),
            "Copy \"a\" to b"
        );
        assert_eq!(paths.relative_title("List /home/ada/project"), "List .");
        assert_eq!(paths.relative_title("List /home/ada/project/"), "List .");
        assert_eq!(
            paths.relative_title("Read /home/ada/project2/x and /tmp/home/ada/project/y"),
            "Read /home/ada/project2/x and /tmp/home/ada/project/y"
        );
        assert_eq!(paths.relative_title("Read src/lib.rs"), "Read src/lib.rs");
    }
}
