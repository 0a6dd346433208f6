//! The shared `search_files` workload (`../data/search_files.json`, described in the shared
//! bench README): its argument types as our macros declare them (`ours`, with the `#[tool]`
//! `search_files`) and as rmcp's servers take them (`theirs`: serde + schemars), for the suites
//! that compare the two.

// Each suite uses part of this; the argument types exist to be deserialized, and the bodies
// read only `path`.
#![allow(dead_code)]

/// The workload: valid and invalid arguments, the schema.
pub(crate) const WORKLOAD: &str = include_str!("../data/search_files.json");

pub(crate) mod ours {
    use dsh_tools::{ToolArgs, tool};

    #[derive(ToolArgs)]
    #[tool_args(rename_all = "lowercase")]
    pub(crate) enum Mode {
        Literal,
        Regex,
    }

    #[derive(ToolArgs)]
    pub(crate) struct SearchOptions {
        pub(crate) follow_links: bool,
        pub(crate) depth: Option<u32>,
    }

    #[derive(ToolArgs)]
    pub(crate) struct SearchArgs {
        /// Text or regex to look for.
        #[arg(min_length = 1)]
        pub(crate) pattern: String,
        /// Directory to search from.
        pub(crate) path: String,
        #[arg(minimum = 1, maximum = 10_000)]
        pub(crate) max_results: Option<u32>,
        pub(crate) case_sensitive: Option<bool>,
        pub(crate) include: Option<Vec<String>>,
        pub(crate) mode: Option<Mode>,
        pub(crate) options: Option<SearchOptions>,
    }

    /// Search files for a pattern.
    #[tool]
    pub(crate) async fn search_files(args: SearchArgs) -> String {
        args.path
    }
}

/// The argument types rmcp's servers deserialize into (serde + schemars).
pub(crate) mod theirs {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    pub(crate) enum Mode {
        Literal,
        Regex,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct SearchOptions {
        pub(crate) follow_links: bool,
        pub(crate) depth: Option<u32>,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct SearchArgs {
        /// Text or regex to look for.
        #[schemars(length(min = 1))]
        pub(crate) pattern: String,
        /// Directory to search from.
        pub(crate) path: String,
        #[schemars(range(min = 1, max = 10_000))]
        pub(crate) max_results: Option<u32>,
        pub(crate) case_sensitive: Option<bool>,
        pub(crate) include: Option<Vec<String>>,
        pub(crate) mode: Option<Mode>,
        pub(crate) options: Option<SearchOptions>,
    }
}
