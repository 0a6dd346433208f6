//! The registry's store: tools, hooks, scopes and restrictions under one lock, how changes are
//! applied and announced, and the view a call resolves through.
//!
//! Above the hook contracts (it keeps hooks without running them), below the pipeline (which
//! reads a snapshot of it) and the `ToolRegistry`/`ToolScope` facade (which edits it).

pub(crate) mod code_mode;
pub(crate) mod core;
pub(crate) mod deferral;
pub(crate) mod edit;
pub(crate) mod embeddings;
pub(crate) mod error;
pub(crate) mod event;
pub(crate) mod registration;
pub(crate) mod restriction;
pub(crate) mod scoped_cache;
pub(crate) mod search;
pub(crate) mod search_cache;
pub(crate) mod state;
pub(crate) mod view;
