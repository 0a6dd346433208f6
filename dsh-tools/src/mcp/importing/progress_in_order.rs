//! [`ProgressInOrder`]: the client's transport, delivering the server's progress notifications
//! to their calls as they are read, so every report reaches its call before the call's result.
//!
//! rmcp hands each notification to the client's handler on a task of its own, while a response
//! goes straight to the request waiting for it: on a busy runtime the handler of the last
//! progress report can run after its call has ended, and that report would be lost. Reading
//! the reports off the wire in the transport keeps the server's order: every report that came
//! before the response is delivered before the response is even seen.

use std::future::Future;
use std::sync::Arc;

use rmcp::model::{JsonRpcMessage, JsonRpcNotification, ServerNotification};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

use crate::mcp::importing::progress_routes::ProgressRoutes;

/// A client transport that routes progress notifications as it receives them; everything,
/// progress included, still goes on to rmcp unchanged.
pub(crate) struct ProgressInOrder<T> {
    inner: T,
    progress: Arc<ProgressRoutes>,
}

impl<T> ProgressInOrder<T> {
    pub(crate) fn new(inner: T, progress: Arc<ProgressRoutes>) -> Self {
        Self { inner, progress }
    }
}

impl<T> Transport<RoleClient> for ProgressInOrder<T>
where
    T: Transport<RoleClient>,
{
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        if let JsonRpcMessage::Notification(JsonRpcNotification {
            notification: ServerNotification::ProgressNotification(progress),
            ..
        }) = &message
        {
            self.progress.deliver(progress.params.clone());
        }
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
