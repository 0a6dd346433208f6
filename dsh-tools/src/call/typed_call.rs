//! The future of one call of a typed tool: the body's future, and its value turned into JSON
//! when it is ready.
//!
//! A crate compiles this once per tool type it registers, so it is a plain struct with a short
//! `poll` rather than an `async` block, whose state machine, drop glue and moved-in captures a
//! debug build would compile again for every tool. The conversion of the value
//! ([`typed_output`]) is generic over the value's type alone, so the tools of one output type
//! share it.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde::Serialize;
use serde_json::Value;

use crate::errors::tool_error::ToolError;
use crate::lossless::{NotLossless, output_into_value};

pin_project_lite::pin_project! {
    /// The body's future of the tool `name`, its value serialized losslessly when ready.
    pub(crate) struct TypedCall<F> {
        name: &'static str,
        #[pin]
        body: F,
    }
}

impl<F> TypedCall<F> {
    /// The call of the tool `name` whose body is `body`. Always inlined: a separate function
    /// would be compiled for every tool type, even in a debug build, only to move two fields.
    #[inline(always)]
    pub(crate) fn new(name: &'static str, body: F) -> Self {
        Self { name, body }
    }
}

impl<F, O> Future for TypedCall<F>
where
    F: Future<Output = Result<O, ToolError>>,
    O: Serialize + 'static,
{
    type Output = Result<Value, ToolError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        match this.body.poll(cx) {
            Poll::Ready(output) => Poll::Ready(typed_output(this.name, output)),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// The body's value as JSON, or why it is not one (`INVALID_TOOL_OUTPUT` instead of a silent
/// `null`).
fn typed_output<O: Serialize + 'static>(
    name: &str,
    output: Result<O, ToolError>,
) -> Result<Value, ToolError> {
    match output {
        Ok(output) => output_into_value(output).map_err(|error| invalid_output(name, error)),
        Err(error) => Err(error),
    }
}

/// The body's value is not JSON.
fn invalid_output(name: &str, error: NotLossless) -> ToolError {
    ToolError::invalid_output(name, error)
}
