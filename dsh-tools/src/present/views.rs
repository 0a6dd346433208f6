//! The cards themselves: [`ToolCallView`] and [`ToolResultView`] with their parts, the
//! [`ResultSummary`] a result presenter gets, and [`ToolCallRef`], one call as presentation needs it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::content::ContentBlock;

/// What a call does, for picking an icon on a generic card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolCallKind {
    /// Reads files or data.
    Read,
    /// Modifies files.
    Edit,
    /// Deletes files.
    Delete,
    /// Moves or renames files.
    Move,
    /// Searches.
    Search,
    /// Runs a command.
    Execute,
    /// Fetches from the network.
    Fetch,
    /// Anything else.
    #[default]
    Other,
}

impl std::fmt::Display for ToolCallKind {
    /// The snake_case name (`read`, `execute`, …), as serde writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Read => "read",
            Self::Edit => "edit",
            Self::Delete => "delete",
            Self::Move => "move",
            Self::Search => "search",
            Self::Execute => "execute",
            Self::Fetch => "fetch",
            Self::Other => "other",
        })
    }
}

/// A file a call reads or modifies, for editor follow-along:
/// `FileLocation { path: "src/lib.rs".into(), line: Some(3) }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileLocation {
    /// The file path.
    pub path: String,
    /// A 1-based line, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

/// One file change: `old_text` is `None` for a new file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDiff {
    /// The file path.
    pub path: String,
    /// The text before the change, `None` when the file is new.
    pub old_text: Option<String>,
    /// The text after the change.
    pub new_text: String,
}

/// How to show a pending call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "card", rename_all = "snake_case")]
pub enum ToolCallView {
    /// The default card.
    Generic {
        /// Card title.
        title: String,
        /// Icon choice.
        #[serde(default)]
        kind: ToolCallKind,
        /// The arguments to show raw.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        raw_input: Option<Value>,
        /// Extra content to show.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        content: Vec<ContentBlock>,
        /// Files the call touches.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        locations: Vec<FileLocation>,
    },
    /// A shell command.
    Terminal {
        /// Card title, usually the command line.
        title: String,
        /// What the command is for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// Working directory.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cwd: Option<String>,
    },
    /// A file creation or modification.
    Diff {
        /// Card title.
        title: String,
        /// The changes.
        diffs: Vec<FileDiff>,
        /// Files the call touches.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        locations: Vec<FileLocation>,
    },
}

impl ToolCallView {
    /// The card title.
    pub fn title(&self) -> &str {
        match self {
            Self::Generic { title, .. }
            | Self::Terminal { title, .. }
            | Self::Diff { title, .. } => title,
        }
    }
}

/// How to show a completed call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "card", rename_all = "snake_case")]
pub enum ToolResultView {
    /// The default card.
    Generic {
        /// A new title, or keep the pending one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// Content to show instead of the raw result content.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        content: Vec<ContentBlock>,
    },
    /// The captured output of a command and how it exited.
    Terminal {
        /// A new title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// The captured output.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        output: Option<String>,
        /// The exit code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_code: Option<i32>,
        /// The terminating signal, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signal: Option<String>,
    },
    /// The applied changes.
    Diff {
        /// A new title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// The changes.
        diffs: Vec<FileDiff>,
    },
}

/// What a result presenter gets: the content the model saw and whether the call failed.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ResultSummary<'a> {
    /// The final model-facing content.
    pub content: &'a [ContentBlock],
    /// Whether the call failed.
    pub is_error: bool,
    /// Presentation metadata the tool attached.
    pub meta: Option<&'a Value>,
}

impl<'a> ResultSummary<'a> {
    /// The presenter's view of a finished result (what `ResultSummary::from(&result)` gives).
    pub(crate) fn of(result: &'a crate::result::ToolExecutionResult) -> Self {
        Self {
            content: result.content(),
            is_error: result.is_error(),
            meta: result.meta(),
        }
    }

    /// The text blocks of the content joined by newlines.
    pub fn text(&self) -> String {
        crate::content::joined_text(self.content)
    }
}

/// The presenter's view of a finished result, to hand a definition's
/// [`present_result`](crate::ToolDefinition::present_result) outside the registry.
impl<'a> From<&'a crate::result::ToolExecutionResult> for ResultSummary<'a> {
    fn from(result: &'a crate::result::ToolExecutionResult) -> Self {
        Self::of(result)
    }
}

/// One call as presentation needs it: a [`ToolExecutionInput`](crate::ToolExecutionInput) before the call, or the
/// [`ToolExecution`](crate::call::ToolExecution) hooks and observers see.
///
/// The registry's presenters take either; what they read of it (its methods) is theirs, not API:
/// read a call through its own type.
pub trait ToolCallRef {
    /// The tool name the model asked for.
    #[doc(hidden)]
    fn tool_name(&self) -> &str;
    /// The arguments, as the model sent them.
    #[doc(hidden)]
    fn tool_arguments(&self) -> &Value;
    /// The agent scope the call runs in.
    #[doc(hidden)]
    fn tool_agent(&self) -> Option<&crate::ids::AgentId>;
}
