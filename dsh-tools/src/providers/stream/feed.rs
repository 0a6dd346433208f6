//! A stream's finished calls handed to a [`BatchFeed`], so they start while the rest of the
//! response is still arriving.

use super::event::StreamEvent;
use crate::registry::BatchFeed;

impl BatchFeed {
    /// The calls `events` finished (a [`ToolCallStream`](super::ToolCallStream)'s
    /// [`CallFinished`](StreamEvent::CallFinished) events), each at its call's position, so
    /// the batch keeps the model's order even when a later call finishes first.
    pub fn push_finished<'e>(&mut self, events: impl IntoIterator<Item = &'e StreamEvent>) {
        for event in events {
            if let StreamEvent::CallFinished { index, input } = event {
                self.push_at(*index, input.clone());
            }
        }
    }
}
