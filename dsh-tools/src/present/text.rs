//! [`TextCards`]: cards as plain text, for terminals and logs.
//!
//! A pending call is one line (`[read] Read src/lib.rs`); its progress is one line; a result is a
//! compact block: a status line, then the content, a diff as a unified diff with `+`/`-` lines,
//! or a command's output followed by its exit status. Long bodies keep their first and last lines
//! around an elision marker and long lines are cut, so one card never floods a terminal. The text
//! depends only on the cards (no colours, no terminal width), so the same card always reads the
//! same.

use std::fmt::Write as _;

use crate::content::{ContentBlock, EmbeddedResource};
use crate::present::diff::{DiffLine, hunks};
use crate::present::views::{FileDiff, FileLocation, ToolCallView, ToolResultView};
use crate::progress::ToolProgress;

/// Unchanged lines shown around each change of a diff.
const DIFF_CONTEXT: usize = 3;

/// Renders cards as plain text. `TextCards::default()` keeps result bodies to 12 lines and lines
/// to 160 characters; set the fields to change that
/// (`TextCards { max_lines: 40, ..TextCards::default() }`).
///
/// ```
/// use dsh_tools::present::{FileDiff, TextCards, ToolCallView, ToolResultView};
///
/// let call = ToolCallView::Diff {
///     title: "Edit src/lib.rs".into(),
///     diffs: vec![FileDiff {
///         path: "src/lib.rs".into(),
///         old_text: Some("fn a() {}\n".into()),
///         new_text: "fn b() {}\n".into(),
///     }],
///     locations: vec![],
/// };
/// let cards = TextCards::default();
/// assert_eq!(cards.call(&call), "[edit] Edit src/lib.rs (+1 -1)");
///
/// let done = ToolResultView::Diff { title: None, diffs: call_diffs(&call) };
/// assert_eq!(
///     cards.result(&call, &done, false),
///     "ok: Edit src/lib.rs\n  | --- src/lib.rs\n  | +++ src/lib.rs\n  | @@ -1 +1 @@\n  | -fn a() {}\n  | +fn b() {}"
/// );
/// # fn call_diffs(card: &ToolCallView) -> Vec<FileDiff> {
/// #     match card { ToolCallView::Diff { diffs, .. } => diffs.clone(), _ => vec![] }
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct TextCards {
    /// Keeps a result body to this many lines (at least 2 are kept, whatever it says): the first
    /// two thirds and the last third of a longer body are shown around a marker saying how many
    /// lines were left out. Default 12.
    pub max_lines: usize,
    /// Cuts lines longer than this many characters (at least 8) with a `…`. Default 160.
    pub max_width: usize,
}

impl Default for TextCards {
    fn default() -> Self {
        Self {
            max_lines: 12,
            max_width: 160,
        }
    }
}

impl TextCards {
    /// One line for a pending call: its kind, its title, and what the title does not already
    /// say (the files it touches, its raw arguments, a command's directory and purpose).
    pub fn call(&self, card: &ToolCallView) -> String {
        let line = match card {
            ToolCallView::Generic {
                title,
                kind,
                raw_input,
                locations,
                ..
            } => {
                let mut line = format!("[{}] {title}", kind);
                let unnamed: Vec<String> = locations
                    .iter()
                    .filter(|location| !title.contains(&location.path))
                    .map(location_text)
                    .collect();
                if !unnamed.is_empty() {
                    let _ = write!(line, " ({})", unnamed.join(", "));
                }
                if let Some(input) = raw_input {
                    let _ = write!(line, " {input}");
                }
                line
            }
            ToolCallView::Terminal {
                title,
                description,
                cwd,
            } => {
                let mut line = format!("[execute] $ {title}");
                if let Some(cwd) = cwd {
                    let _ = write!(line, " (in {cwd})");
                }
                if let Some(description) = description {
                    let _ = write!(line, "  # {description}");
                }
                line
            }
            ToolCallView::Diff { title, diffs, .. } => {
                format!("[edit] {title} ({})", diff_summary(diffs))
            }
        };
        self.one_line(&line)
    }

    /// One line for a progress report of a call shown as `card`:
    /// `… Index the workspace: 3/10 files`.
    pub fn progress(&self, card: &ToolCallView, progress: &ToolProgress) -> String {
        self.one_line(&format!("… {}: {}", card.title(), progress_text(progress)))
    }

    /// A block for a finished call: `ok: <title>` or `failed: <title>` (the result card's title,
    /// else the pending card's), then its body, each line behind `  | `; a command's exit status
    /// closes its block.
    pub fn result(&self, call: &ToolCallView, card: &ToolResultView, failed: bool) -> String {
        let (title, body, closing) = match card {
            ToolResultView::Generic { title, content } => {
                (title.as_deref(), content_lines(content), None)
            }
            ToolResultView::Terminal {
                title,
                output,
                exit_code,
                signal,
            } => {
                let output = output.as_deref().unwrap_or("");
                let lines = if output.trim().is_empty() {
                    vec!["(no output)".to_owned()]
                } else {
                    output.trim_end().lines().map(str::to_owned).collect()
                };
                let status = match (signal, exit_code) {
                    (Some(signal), _) => Some(format!("(killed by {signal})")),
                    (None, Some(code)) => Some(format!("(exit code {code})")),
                    (None, None) => None,
                };
                (title.as_deref(), lines, status)
            }
            ToolResultView::Diff { title, diffs } => (title.as_deref(), diff_lines(diffs), None),
        };
        let title = title.unwrap_or_else(|| call.title());
        let status = if failed { "failed" } else { "ok" };
        let mut block = self.one_line(&format!("{status}: {title}"));
        for line in self.elide(body) {
            block.push_str("\n  | ");
            block.push_str(&self.cut(&line));
        }
        if let Some(closing) = closing {
            block.push_str("\n  ");
            block.push_str(&closing);
        }
        block
    }

    /// `text` on one line: line breaks shown as `\n`, cut to the width.
    fn one_line(&self, text: &str) -> String {
        let flat: String = text
            .trim_end()
            .chars()
            .flat_map(|ch| match ch {
                '\n' => vec!['\\', 'n'],
                '\r' | '\t' => vec![' '],
                other => vec![other],
            })
            .collect();
        self.cut(&flat)
    }

    /// `line` cut to the width with a `…`.
    fn cut(&self, line: &str) -> String {
        let line = line.trim_end();
        let max_width = self.max_width.max(8);
        if line.chars().count() <= max_width {
            return line.to_owned();
        }
        let mut cut: String = line.chars().take(max_width - 1).collect();
        cut.push('…');
        cut
    }

    /// `lines` within the line budget: the first two thirds and the last third around a marker.
    fn elide(&self, lines: Vec<String>) -> Vec<String> {
        let max_lines = self.max_lines.max(2);
        if lines.len() <= max_lines {
            return lines;
        }
        let tail = max_lines / 3;
        let head = max_lines - tail - 1;
        let left_out = lines.len() - head - tail;
        let mut kept: Vec<String> = lines[..head].to_vec();
        kept.push(format!("… {left_out} more lines …"));
        kept.extend_from_slice(&lines[lines.len() - tail..]);
        kept
    }
}

fn location_text(location: &FileLocation) -> String {
    match location.line {
        Some(line) => format!("{}:{line}", location.path),
        None => location.path.clone(),
    }
}

/// `+3 -1`, `new file, +4`, or `2 files, +3 -1`.
fn diff_summary(diffs: &[FileDiff]) -> String {
    let (mut added, mut removed) = (0, 0);
    for diff in diffs {
        for line in
            crate::present::diff::diff_lines(diff.old_text.as_deref().unwrap_or(""), &diff.new_text)
        {
            match line {
                DiffLine::Added(_) => added += 1,
                DiffLine::Removed(_) => removed += 1,
                DiffLine::Context(_) => {}
            }
        }
    }
    let counts = if removed == 0 {
        format!("+{added}")
    } else {
        format!("+{added} -{removed}")
    };
    match diffs {
        [single] if single.old_text.is_none() => format!("new file, {counts}"),
        [_] => counts,
        _ => format!("{} files, {counts}", diffs.len()),
    }
}

/// The unified diff of every file: `---`/`+++` headers, then its hunks.
fn diff_lines(diffs: &[FileDiff]) -> Vec<String> {
    let mut lines = Vec::new();
    for diff in diffs {
        let old_path = match diff.old_text {
            Some(_) => diff.path.as_str(),
            None => "/dev/null",
        };
        lines.push(format!("--- {old_path}"));
        lines.push(format!("+++ {}", diff.path));
        let file_hunks = hunks(
            diff.old_text.as_deref().unwrap_or(""),
            &diff.new_text,
            DIFF_CONTEXT,
        );
        if file_hunks.is_empty() {
            lines.push("(no changes)".to_owned());
        }
        for hunk in file_hunks {
            lines.push(hunk.header());
            lines.extend(hunk.lines.iter().map(|line| match line {
                DiffLine::Context(text) => format!(" {text}"),
                DiffLine::Removed(text) => format!("-{text}"),
                DiffLine::Added(text) => format!("+{text}"),
            }));
        }
    }
    lines
}

/// The lines of content blocks: text as it is, other blocks as a short tag.
fn content_lines(content: &[ContentBlock]) -> Vec<String> {
    let mut lines = Vec::new();
    for block in content {
        match block {
            ContentBlock::Text { text } => lines.extend(text.lines().map(str::to_owned)),
            ContentBlock::Image { mime_type, .. } => lines.push(format!("[image {mime_type}]")),
            ContentBlock::Audio { mime_type, .. } => lines.push(format!("[audio {mime_type}]")),
            ContentBlock::ResourceLink { uri, name, .. } => lines.push(match name {
                Some(name) => format!("[link {name}: {uri}]"),
                None => format!("[link {uri}]"),
            }),
            ContentBlock::Resource { resource } => match resource {
                EmbeddedResource::Text { uri, text, .. } => {
                    lines.push(format!("[resource {uri}]"));
                    lines.extend(text.lines().map(str::to_owned));
                }
                EmbeddedResource::Blob { uri, .. } => lines.push(format!("[resource {uri}]")),
            },
        }
    }
    if lines.iter().all(|line| line.trim().is_empty()) {
        return vec!["(no content)".to_owned()];
    }
    lines
}

/// `indexing (3/10)`, `3/10`, `indexing (2.5)` or `2.5`.
pub(crate) fn progress_text(progress: &ToolProgress) -> String {
    let amount = match progress.total {
        Some(total) => format!("{}/{}", number(progress.progress), number(total)),
        None => number(progress.progress),
    };
    match &progress.message {
        Some(message) => format!("{message} ({amount})"),
        None => amount,
    }
}

/// A number without a trailing `.0`.
fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        value.to_string()
    }
}
