//! Errors and codes: every error result carries an [`ErrorInfo`] `{name, code}` (the registry's
//! own [`ErrorCode`]s, each with its name, which a tool's own errors can reuse), and model-facing text built from the model's input is
//! bounded ([`MAX_QUOTED_CHARS`] for a quoted value, 8 KiB for an error text). [`ToolError`] is what a body returns;
//! [`ConvertError`] is why arguments did not convert into a type.
//!
//! `tool_error.rs` owns [`ToolError`], [`ErrorInfo`] and the constructors of the registry's own
//! failures; `code.rs` the registry's [`ErrorCode`]s and the name paired with each, compared
//! with strings by `string_enum.rs`; `former_constants.rs` the constants they replace, hidden and
//! deprecated; the rest is gathered here from where it is made.

pub(crate) mod code;
#[doc(hidden)]
pub mod former_constants;
mod string_enum;
pub(crate) mod tool_error;

pub use crate::args::ConvertError;
pub use crate::lossless::NotLossless;
pub use code::ErrorCode;
pub use dsh_tools_schema::text_bounds::MAX_QUOTED_CHARS;
#[doc(hidden)]
pub use former_constants::{codes, names};
pub use tool_error::{ErrorInfo, ToolError};
