//! Where an imported call's progress goes: the server's `notifications/progress`, routed by
//! their progress token to the run of the call that opened the route (`imported.rs` opens one
//! per call whose caller listens; `progress_in_order.rs` delivers as it reads the wire), and
//! whether a call heard any (`task_client.rs` reports a task's status messages until it does).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model as mcp;

use crate::call::run::ToolRun;
use crate::progress::ToolProgress;

/// Where the server's `notifications/progress` go: the run of the call whose progress token
/// they carry.
///
/// rmcp picks a request's progress token as it sends the request, so a server can report
/// progress before the call has opened its route; such early reports wait here (a few per
/// token, for a few tokens) and reach the run first, in order, when the route opens.
#[derive(Default)]
pub(crate) struct ProgressRoutes {
    inner: Mutex<Routes>,
}

#[derive(Default)]
struct Routes {
    /// The open routes, each with whether a report came through it.
    open: HashMap<mcp::ProgressToken, (ToolRun, bool)>,
    /// Reports for tokens with no route yet, oldest token first.
    early: Vec<(mcp::ProgressToken, Vec<ToolProgress>)>,
}

/// How many tokens keep early reports, and how many reports each keeps.
const EARLY_TOKENS: usize = 32;
const EARLY_REPORTS: usize = 16;

impl ProgressRoutes {
    /// Hands one server progress notification to the call it belongs to.
    pub(crate) fn deliver(&self, params: mcp::ProgressNotificationParam) {
        let progress = ToolProgress {
            progress: params.progress,
            total: params.total,
            message: params.message,
        };
        let mut routes = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((run, notified)) = routes.open.get_mut(&params.progress_token) {
            run.report_progress(progress);
            *notified = true;
            return;
        }
        let early = &mut routes.early;
        match early
            .iter_mut()
            .find(|(token, _)| *token == params.progress_token)
        {
            Some((_, reports)) if reports.len() < EARLY_REPORTS => reports.push(progress),
            Some(_) => {}
            None => {
                if early.len() == EARLY_TOKENS {
                    early.remove(0);
                }
                early.push((params.progress_token, vec![progress]));
            }
        }
    }

    /// Opens the route of `token` to `run`, handing it the reports that came before.
    pub(crate) fn open(
        self: &Arc<Self>,
        token: mcp::ProgressToken,
        run: &ToolRun,
    ) -> ProgressRoute {
        let mut routes = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        // Reported under the lock, so that no later report overtakes an early one.
        let mut notified = false;
        if let Some(index) = routes.early.iter().position(|(early, _)| *early == token) {
            let (_, reports) = routes.early.remove(index);
            for progress in reports {
                run.report_progress(progress);
                notified = true;
            }
        }
        routes.open.insert(token.clone(), (run.clone(), notified));
        ProgressRoute {
            routes: Arc::clone(self),
            token,
        }
    }
}

/// Removes a call's progress route when the call ends, however it ends.
pub(crate) struct ProgressRoute {
    routes: Arc<ProgressRoutes>,
    token: mcp::ProgressToken,
}

impl ProgressRoute {
    /// Whether the server sent the call a progress notification yet.
    pub(crate) fn notified(&self) -> bool {
        self.routes
            .inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .open
            .get(&self.token)
            .is_some_and(|(_, notified)| *notified)
    }
}

impl Drop for ProgressRoute {
    fn drop(&mut self) {
        self.routes
            .inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .open
            .remove(&self.token);
    }
}
