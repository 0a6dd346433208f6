//! Elicitation from an imported server: when a server asks its client's user for input in the
//! middle of a call (`elicitation/create`, a server's `ctx.elicit(..)`), the request goes to the
//! [`ElicitationHandler`] installed on the [`McpClient`](crate::mcp::McpClient)
//! ([`set_elicitation_handler`](crate::mcp::McpClient::set_elicitation_handler)), whose answer
//! — accept with content, decline, cancel — goes back to the server. The elicitations a server
//! asks for inside an `InputRequiredResult` or a task's `input_required` status reach the same
//! handler (`input_required.rs`).
//!
//! The client always declares form elicitation, so that a server that asks always gets an
//! answer and a handler can be installed at any time after connecting. Without a handler, every
//! request is declined, with a log line naming the server and its message: an imported tool that
//! needs input is never stuck waiting for a user no one asks. A handler that panics answers
//! cancel (logged). URL-mode requests, which this client does not declare, are declined.

use std::future::Future;
use std::sync::{Arc, PoisonError, RwLock};

use rmcp::model as mcp;
use serde_json::{Map, Value};

use crate::future::{BoxFuture, CatchUnwind};

/// What a server asks the user for.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ElicitationRequest {
    /// The name of the server that asks, as it introduced itself.
    pub server: String,
    /// What the server wants to know, for the user to read.
    pub message: String,
    /// The form the answer must fill: a JSON Schema object of flat, primitive-typed properties
    /// (`requestedSchema`).
    pub requested_schema: Value,
}

/// How the user answered.
#[derive(Clone, Debug, PartialEq)]
pub enum ElicitationAnswer {
    /// The user filled the form: its fields, as the requested schema names them.
    Accept(Map<String, Value>),
    /// The user said no; the server's operation goes on without the input.
    Decline,
    /// The user dismissed the request without choosing.
    Cancel,
}

/// Answers the elicitation requests of an imported server. A closure
/// `Fn(ElicitationRequest) -> impl Future<Output = ElicitationAnswer>` is one.
pub trait ElicitationHandler: Send + Sync + 'static {
    /// Answers one request.
    fn elicit(&self, request: ElicitationRequest) -> BoxFuture<'static, ElicitationAnswer>;
}

impl<F, Fut> ElicitationHandler for F
where
    F: Fn(ElicitationRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ElicitationAnswer> + Send + 'static,
{
    fn elicit(&self, request: ElicitationRequest) -> BoxFuture<'static, ElicitationAnswer> {
        Box::pin(self(request))
    }
}

/// The handler a client's connection answers with, replaceable while it runs.
#[derive(Clone, Default)]
pub(crate) struct ElicitationSlot(Arc<RwLock<Option<Arc<dyn ElicitationHandler>>>>);

impl ElicitationSlot {
    pub(crate) fn set(&self, handler: Option<Arc<dyn ElicitationHandler>>) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = handler;
    }

    fn get(&self) -> Option<Arc<dyn ElicitationHandler>> {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Answers `params` from `server` with the installed handler, or declines.
    pub(crate) async fn answer(
        &self,
        server: &str,
        params: mcp::ElicitRequestParams,
    ) -> mcp::ElicitResult {
        let mcp::ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } = params
        else {
            tracing::info!(
                server,
                "declined a URL elicitation request: this client answers forms only"
            );
            return mcp::ElicitResult::new(mcp::ElicitationAction::Decline);
        };
        let Some(handler) = self.get() else {
            tracing::info!(
                server,
                question = message.as_str(),
                "declined an elicitation request: no elicitation handler is installed"
            );
            return mcp::ElicitResult::new(mcp::ElicitationAction::Decline);
        };
        let request = ElicitationRequest {
            server: server.to_owned(),
            message,
            // The schema type serializes to an object; `null` would only mean a broken model.
            requested_schema: serde_json::to_value(&requested_schema).unwrap_or(Value::Null),
        };
        // Called inside the future so that a panic in the call itself is caught too.
        let asking: BoxFuture<'static, _> = Box::pin(async move { handler.elicit(request).await });
        match CatchUnwind::new(asking).await {
            Ok(ElicitationAnswer::Accept(content)) => {
                mcp::ElicitResult::new(mcp::ElicitationAction::Accept)
                    .with_content(Value::Object(content))
            }
            Ok(ElicitationAnswer::Decline) => {
                mcp::ElicitResult::new(mcp::ElicitationAction::Decline)
            }
            Ok(ElicitationAnswer::Cancel) => mcp::ElicitResult::new(mcp::ElicitationAction::Cancel),
            Err(panic) => {
                tracing::warn!(
                    server,
                    "the elicitation handler panicked ({panic}); the request is cancelled"
                );
                mcp::ElicitResult::new(mcp::ElicitationAction::Cancel)
            }
        }
    }
}
