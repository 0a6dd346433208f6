//! Errors and codes: every error result carries an [`ErrorInfo`] `{name, code}` (the [`codes`] and
//! [`names`] a tool's own errors can reuse), and model-facing text built from the model's input is
//! bounded ([`MAX_QUOTED_CHARS`], [`MAX_ERROR_TEXT_BYTES`]). [`ToolError`] is what a body returns;
//! [`ConvertError`] is why arguments did not convert into a type.
//!
//! `tool_error.rs` owns [`ToolError`], [`ErrorInfo`], the registry's [`codes`] and [`names`] and
//! the constructors of its own failures; the rest is gathered here from where it is made.

pub(crate) mod tool_error;

pub use crate::args::ConvertError;
pub use crate::lossless::NotLossless;
pub use crate::text_bounds::MAX_ERROR_TEXT_BYTES;
pub use dsh_tools_schema::text_bounds::MAX_QUOTED_CHARS;
pub use tool_error::{ErrorInfo, ToolError, codes, names};
