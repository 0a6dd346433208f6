//! A batch fed while the model is still writing: [`ToolRegistry::batch_feed`] gives a
//! [`BatchFeed`] to push each call into as its arguments finish (a stream's finished calls:
//! [`BatchFeed::push_finished`]), and the [`FedBatch`] future
//! that runs them, so concurrency-safe calls start before the response has ended. Results come
//! back in the model's order, with the same schedule as
//! [`execute_batch`](ToolRegistry::execute_batch).

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::mpsc;

use crate::call::execution::ToolExecutionInput;
use crate::registry::batch::outcome::BatchOutcome;
use crate::registry::batch::schedule::Schedule;
use crate::registry::tool_registry::ToolRegistry;

/// Where a turn's calls go as they finish; dropping it tells the batch no more will come (calls
/// still held for a missing call ahead of them are then sent in their order, the gap closed).
pub struct BatchFeed {
    sender: mpsc::UnboundedSender<ToolExecutionInput>,
    /// The position the next call sent must have.
    next: usize,
    /// One past the last position given.
    end: usize,
    /// Calls that finished before a call ahead of them in the model's order.
    held: BTreeMap<usize, ToolExecutionInput>,
}

/// The batch a [`BatchFeed`] feeds: resolves, once the feed is dropped and every call pushed
/// has finished, to the results in the model's order. It runs the calls only while it is
/// polled: await it beside the loop that reads the model's stream (`tokio::join!`), or spawn it.
#[must_use = "the calls run only while the batch is polled"]
pub struct FedBatch {
    schedule: Option<Schedule>,
    receiver: mpsc::UnboundedReceiver<ToolExecutionInput>,
    closed: bool,
}

impl ToolRegistry {
    /// A batch whose calls arrive one at a time, in the model's order, while the response is
    /// still streaming: each is scheduled as it arrives, parallel calls at most
    /// `max_concurrency` at once (`0` counts as `1`), exclusive calls alone once everything
    /// before them has finished (see [`execute_batch`](Self::execute_batch)).
    ///
    /// ```
    /// # use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, json, schema::Schema};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// # let registry = ToolRegistry::new();
    /// # let _ = registry.register(FnTool::builder("echo", "Echo the text back.")
    /// #     .arguments(Schema::object().required("text", Schema::string()))
    /// #     .concurrency_classifier(|_| true)
    /// #     .handler(|arguments, _| async move { Ok(arguments["text"].clone()) })).unwrap();
    /// let (mut feed, batch) = registry.batch_feed(4);
    /// let read = async move {
    ///     // As each streamed call finishes (`StreamEvent::CallFinished`; `feed.push_finished(&events)`):
    ///     feed.push(ToolExecutionInput::new("call_1", "echo", json!({"text": "a"})));
    ///     feed.push(ToolExecutionInput::new("call_2", "echo", json!({"text": "b"})));
    /// };
    /// let ((), outcome) = tokio::join!(read, batch);
    /// assert_eq!(outcome.results.len(), 2);
    /// # }
    /// ```
    pub fn batch_feed(&self, max_concurrency: usize) -> (BatchFeed, FedBatch) {
        let (sender, receiver) = mpsc::unbounded_channel();
        let feed = BatchFeed {
            sender,
            next: 0,
            end: 0,
            held: BTreeMap::new(),
        };
        let batch = FedBatch {
            schedule: Some(Schedule::new(self.clone(), max_concurrency)),
            receiver,
            closed: false,
        };
        (feed, batch)
    }
}

impl BatchFeed {
    /// The next call in the model's order: the position after the last one given.
    pub fn push(&mut self, input: ToolExecutionInput) {
        self.push_at(self.end, input);
    }

    /// The call at `position` in the model's order (a stream's call index, counted from `0`):
    /// calls that finish before one ahead of them wait for it, so the schedule and the results
    /// keep the model's order. A position given twice keeps the first call.
    pub fn push_at(&mut self, position: usize, input: ToolExecutionInput) {
        if position < self.next {
            return;
        }
        self.end = self.end.max(position.saturating_add(1));
        self.held.entry(position).or_insert(input);
        while let Some(input) = self.held.remove(&self.next) {
            // A batch dropped before the feed no longer wants calls: nothing to report.
            let _ = self.sender.send(input);
            self.next += 1;
        }
    }
}

impl Drop for BatchFeed {
    /// Sends the calls still held for a missing call ahead of them, in their order (a call the
    /// model never finished, or one the caller chose not to push), so no pushed call is lost.
    fn drop(&mut self) {
        for (_, input) in std::mem::take(&mut self.held) {
            let _ = self.sender.send(input);
        }
    }
}

impl fmt::Debug for BatchFeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BatchFeed")
            .field("sent", &self.next)
            .field("held", &self.held.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Future for FedBatch {
    type Output = BatchOutcome;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<BatchOutcome> {
        let this = &mut *self;
        let Some(schedule) = this.schedule.as_mut() else {
            // Polled again after it resolved: nothing more will come.
            return Poll::Pending;
        };
        while !this.closed {
            match this.receiver.poll_recv(cx) {
                Poll::Ready(Some(input)) => schedule.push(input),
                Poll::Ready(None) => this.closed = true,
                Poll::Pending => break,
            }
        }
        if schedule.poll_calls(cx).is_pending() || !this.closed {
            return Poll::Pending;
        }
        match this.schedule.take() {
            Some(schedule) => Poll::Ready(schedule.into_outcome()),
            None => Poll::Pending,
        }
    }
}

impl fmt::Debug for FedBatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FedBatch")
            .field("closed", &self.closed)
            .finish_non_exhaustive()
    }
}
