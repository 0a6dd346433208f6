//! The tools of a small coding agent, shared by the examples: reading files, searching them
//! (reporting progress file by file), running a command (shown as a terminal card), editing a
//! file (shown as a diff card), and one tool with a bug. Each tool reaches the scratch [`Workspace`] it works in through `#[state]`.
//!
//! [`registry`] builds a registry with all of them over a fresh workspace made by
//! [`create_workspace`].
//!
//! Each `#[tool]` function generates a `…Tool` struct (what is registered; its page shows the
//! argument and output schemas) and a `…ToolArgs` struct (its parameters); each
//! `#[derive(ToolArgs)]` type's page shows its own schema under its `ToolArgs` impl. In
//! `dsh_tools`'s own docs this module is `example_tools`, compiled for the docs only.

use std::path::{Path, PathBuf};

use dsh_tools::{
    ToolArgs, ToolError, ToolRegistry, ToolRun,
    call::{SharedState, ToolProgress},
    present::{FileDiff, FileLocation, ResultSummary, ToolCallView, ToolResultView},
    tool,
};
use serde::Serialize;

/// The directory the tools may touch; reached by tools through `#[state]`.
pub struct Workspace {
    /// The workspace root.
    pub root: PathBuf,
}

impl Workspace {
    /// `path` inside the workspace; anything that would leave it is refused.
    pub fn resolve(&self, path: &str) -> Result<PathBuf, ToolError> {
        let relative = Path::new(path.trim_start_matches('/'));
        if relative
            .components()
            .any(|part| matches!(part, std::path::Component::ParentDir))
        {
            return Err(ToolError::new(format!("{path} is outside the workspace")));
        }
        Ok(self.root.join(relative))
    }
}

// ---------------------------------------------------------------------------------------------
// read_file: an arguments struct with a default and a bound, a declarative card.

/// Which file to read, and which of its lines.
#[derive(ToolArgs)]
pub struct ReadFile {
    /// Path of the file, relative to the workspace.
    pub path: String,
    /// First line to return (0-based).
    pub offset: Option<u64>,
    /// How many lines to return.
    #[arg(default = 200, maximum = 10_000)]
    pub limit: u32,
}

/// Read a text file, or a window of its lines.
#[tool(name = "read_file", kind = "read", read_only, concurrency_safe, timeout_ms = 5_000,
       card_title = "Read {path}", location = path)]
pub async fn read_file(
    args: ReadFile,
    #[state] workspace: &Workspace,
) -> Result<String, ToolError> {
    let text = std::fs::read_to_string(workspace.resolve(&args.path)?)?;
    let skip = usize::try_from(args.offset.unwrap_or(0)).unwrap_or(usize::MAX);
    let lines: Vec<&str> = text.lines().skip(skip).take(args.limit as usize).collect();
    Ok(lines.join("\n"))
}

// ---------------------------------------------------------------------------------------------
// search_files: the shared benchmark shape — nested options, a string enum, bounds.

/// How the pattern is matched.
#[derive(ToolArgs, Clone, Copy)]
#[tool_args(rename_all = "lowercase")]
pub enum Mode {
    /// The pattern is plain text.
    Literal,
    /// The pattern is a regular expression.
    Regex,
}

/// How to walk the tree.
#[derive(ToolArgs)]
pub struct SearchOptions {
    /// Follow symbolic links.
    pub follow_links: bool,
    /// How many directory levels to descend.
    pub depth: Option<u32>,
}

/// What to look for, and where.
#[derive(ToolArgs)]
pub struct SearchFiles {
    /// Text or regex to look for.
    #[arg(min_length = 1)]
    pub pattern: String,
    /// Directory to search from, relative to the workspace.
    pub path: String,
    /// Stop after this many matches.
    #[arg(minimum = 1, maximum = 10_000)]
    pub max_results: Option<u32>,
    /// Whether case matters (default: no).
    pub case_sensitive: Option<bool>,
    /// File name globs to search, e.g. `*.rs`.
    pub include: Option<Vec<String>>,
    /// How `pattern` is matched (default: literal).
    pub mode: Option<Mode>,
    /// How to walk the tree.
    pub options: Option<SearchOptions>,
}

/// One matching line.
#[derive(ToolArgs, Serialize)]
pub struct Match {
    /// The file, relative to the workspace.
    pub path: String,
    /// 1-based line number.
    pub line: u32,
    /// The line's text.
    pub text: String,
}

/// One `path:line: text` line per match, the way the model reads search results best.
fn render_matches(matches: &[Match]) -> String {
    if matches.is_empty() {
        return "no matches".to_owned();
    }
    let lines: Vec<String> = matches
        .iter()
        .map(|found| format!("{}:{}: {}", found.path, found.line, found.text))
        .collect();
    lines.join("\n")
}

/// Search files under a directory for a pattern; returns matching lines.
#[tool(
    render = render_matches,
    kind = "search",
    read_only,
    concurrency_safe,
    card_title = "Search for {pattern}"
)]
pub async fn search_files(
    args: SearchFiles,
    #[state] workspace: &Workspace,
    run: &ToolRun,
) -> Result<Vec<Match>, ToolError> {
    let case_sensitive = args.case_sensitive.unwrap_or(false);
    let matcher = match args.mode.unwrap_or(Mode::Literal) {
        Mode::Literal => regex::RegexBuilder::new(&regex::escape(&args.pattern)),
        Mode::Regex => regex::RegexBuilder::new(&args.pattern),
    }
    .case_insensitive(!case_sensitive)
    .build()?;
    let depth = args
        .options
        .as_ref()
        .and_then(|options| options.depth)
        .unwrap_or(8);
    let mut files = Vec::new();
    let follow_links = args
        .options
        .as_ref()
        .is_some_and(|options| options.follow_links);
    collect_files(
        &workspace.resolve(&args.path)?,
        depth,
        follow_links,
        &mut files,
    )?;
    files.retain(|file| {
        let name = file
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("");
        args.include
            .as_ref()
            .is_none_or(|globs| globs.iter().any(|glob| glob_matches(glob, name)))
    });
    let limit = args.max_results.unwrap_or(100) as usize;
    let mut matches = Vec::new();
    let total = files.len() as f64;
    for (searched, file) in files.into_iter().enumerate() {
        let relative = file.strip_prefix(&workspace.root).unwrap_or(&file);
        // A UI listening to the call shows which file is being searched.
        if run.wants_progress() {
            run.report_progress(ToolProgress {
                total: Some(total),
                message: Some(format!("searching {}", relative.display())),
                ..ToolProgress::from((searched + 1) as f64)
            });
        }
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for (index, line) in text.lines().enumerate() {
            if matches.len() == limit {
                return Ok(matches);
            }
            if matcher.is_match(line) {
                matches.push(Match {
                    path: relative.display().to_string(),
                    line: u32::try_from(index + 1).unwrap_or(u32::MAX),
                    text: line.trim().to_owned(),
                });
            }
        }
    }
    Ok(matches)
}

/// The files under `dir`, `depth` levels deep, in name order; symbolic links to directories are
/// followed only when asked.
fn collect_files(
    dir: &Path,
    depth: u32,
    follow_links: bool,
    files: &mut Vec<PathBuf>,
) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let path = entry.path();
        let is_link = entry.file_type()?.is_symlink();
        if path.is_dir() {
            if depth > 0 && (follow_links || !is_link) {
                collect_files(&path, depth - 1, follow_links, files)?;
            }
        } else {
            files.push(path);
        }
    }
    Ok(())
}

/// `*` matches any run of characters; everything else matches itself.
fn glob_matches(glob: &str, name: &str) -> bool {
    match glob.split_once('*') {
        None => glob == name,
        Some((prefix, rest)) => {
            name.starts_with(prefix)
                && (0..=name.len() - prefix.len()).any(|at| {
                    name.is_char_boundary(prefix.len() + at)
                        && glob_matches(rest, &name[prefix.len() + at..])
                })
        }
    }
}

// ---------------------------------------------------------------------------------------------
// run_command: a blocking body, inline parameters, a structured output with its own rendering,
// terminal cards.

/// What a command printed and how it ended.
#[derive(ToolArgs, Serialize)]
pub struct CommandOutput {
    /// Standard output and standard error, interleaved by stream.
    pub output: String,
    /// The exit code (absent when a signal ended the command).
    pub exit_code: Option<i32>,
}

fn render_command(output: &CommandOutput) -> String {
    match output.exit_code {
        Some(0) => output.output.clone(),
        Some(code) => format!("{}\n(exit code {code})", output.output),
        None => format!("{}\n(killed by a signal)", output.output),
    }
}

fn command_card(args: &RunCommandToolArgs) -> Option<ToolCallView> {
    Some(ToolCallView::Terminal {
        title: args.command.clone(),
        description: args.description.clone(),
        // The command runs in the workspace root, which a presenter (a function of the arguments
        // alone) does not know; without a directory of its own the card is shown in the UI's
        // working directory (the ACP session's, the quickstart's workspace).
        cwd: None,
    })
}

fn command_result_card(
    _args: &RunCommandToolArgs,
    result: &ResultSummary<'_>,
) -> Option<ToolResultView> {
    Some(ToolResultView::Terminal {
        title: None,
        output: Some(result.text()),
        exit_code: (!result.is_error).then_some(0),
        signal: None,
    })
}

/// Run a shell command in the workspace and return what it printed.
// `blocking`: waiting for the process blocks the thread, so the body is a plain `fn` run on
// tokio's blocking pool; past its 30 s budget the call returns and the process is left to finish.
#[tool(kind = "execute", destructive, open_world, timeout_ms = 30_000, blocking,
       render = render_command, present_call = command_card, present_result = command_result_card)]
pub fn run_command(
    /// The command line, run by `sh -c`.
    #[arg(min_length = 1)]
    command: String,
    /// What the command is for, shown to the user.
    description: Option<String>,
    #[state] workspace: &Workspace,
) -> Result<CommandOutput, ToolError> {
    let _ = description; // for the user's card only
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(&workspace.root)
        .output()?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    Ok(CommandOutput {
        output: text.trim_end().to_owned(),
        exit_code: output.status.code(),
    })
}

// ---------------------------------------------------------------------------------------------
// edit_file: diff cards computed from the arguments.

fn edit_card(args: &EditFileToolArgs) -> Option<ToolCallView> {
    Some(ToolCallView::Diff {
        title: format!("Edit {}", args.path),
        diffs: vec![FileDiff {
            path: args.path.clone(),
            old_text: Some(args.old_text.clone()),
            new_text: args.new_text.clone(),
        }],
        locations: vec![FileLocation {
            path: args.path.clone(),
            line: None,
        }],
    })
}

fn edit_result_card(args: &EditFileToolArgs, result: &ResultSummary<'_>) -> Option<ToolResultView> {
    if result.is_error {
        return None; // the generic card shows the error text
    }
    Some(ToolResultView::Diff {
        title: Some(format!("Edited {}", args.path)),
        diffs: vec![FileDiff {
            path: args.path.clone(),
            old_text: Some(args.old_text.clone()),
            new_text: args.new_text.clone(),
        }],
    })
}

/// Replace text in a file. The text must occur exactly once unless `replace_all` is set.
#[tool(kind = "edit", destructive, present_call = edit_card, present_result = edit_result_card)]
pub async fn edit_file(
    /// Path of the file, relative to the workspace.
    path: String,
    /// The exact text to replace.
    #[arg(min_length = 1)]
    old_text: String,
    /// The replacement.
    new_text: String,
    /// Replace every occurrence.
    #[arg(default = false)]
    replace_all: bool,
    #[state] workspace: &Workspace,
) -> Result<String, ToolError> {
    let file = workspace.resolve(&path)?;
    let text = std::fs::read_to_string(&file)?;
    let count = text.matches(&old_text).count();
    if count == 0 || (count > 1 && !replace_all) {
        return Err(ToolError::new(format!(
            "old_text occurs {count} times in {path}; it must occur exactly once (or set replace_all)"
        )));
    }
    std::fs::write(&file, text.replace(&old_text, &new_text))?;
    Ok(format!("replaced {count} occurrence(s) in {path}"))
}

// ---------------------------------------------------------------------------------------------
// word_count: a tool with a bug.

/// Count the words of a line of a file.
#[tool]
pub async fn word_count(
    /// Path of the file, relative to the workspace.
    path: String,
    /// 1-based line number.
    line: u32,
    #[state] workspace: &Workspace,
) -> Result<usize, ToolError> {
    let text = std::fs::read_to_string(workspace.resolve(&path)?)?;
    let lines: Vec<&str> = text.lines().collect();
    // The bug: no bounds check (and 1-based treated as 0-based).
    Ok(lines[line as usize].split_whitespace().count())
}

// ---------------------------------------------------------------------------------------------

/// A scratch workspace with a tiny Cargo project in the system's temporary directory, removed
/// when dropped (also when an example returns early with an error).
pub fn create_workspace() -> std::io::Result<ScratchWorkspace> {
    let root = std::env::temp_dir().join(format!("dsh-tools-quickstart-{}", std::process::id()));
    let scratch = ScratchWorkspace { root };
    fill_workspace(&scratch.root)?;
    Ok(scratch)
}

/// The directory [`create_workspace`] made; dropping it removes the directory and its files.
pub struct ScratchWorkspace {
    root: PathBuf,
}

impl ScratchWorkspace {
    /// Where the workspace is.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

impl Drop for ScratchWorkspace {
    fn drop(&mut self) {
        // Best effort: a scratch directory left behind is harmless, and drop cannot report.
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Writes the tiny Cargo project of [`create_workspace`] at `root`.
pub fn fill_workspace(root: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(root.join("src"))?;
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"hello\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    )?;
    std::fs::write(
        root.join("src/main.rs"),
        "fn main() {\n    println!(\"{}\", hello::greeting());\n}\n",
    )?;
    std::fs::write(
        root.join("src/lib.rs"),
        "/// The greeting.\npub fn greeting() -> &'static str {\n    \"Hello, world!\"\n}\n",
    )?;
    Ok(())
}

/// A registry with every tool of this module over `workspace`.
pub fn registry(workspace: Workspace) -> Result<ToolRegistry, dsh_tools::registry::RegistryError> {
    let mut state = SharedState::default();
    state.insert(workspace);
    let registry = ToolRegistry::with_state(state);
    let _ = registry.register(ReadFileTool)?;
    let _ = registry.register(SearchFilesTool)?;
    let _ = registry.register(RunCommandTool)?;
    let _ = registry.register(EditFileTool)?;
    let _ = registry.register(WordCountTool)?;
    Ok(registry)
}
