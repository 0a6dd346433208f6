//! A `run_code` run that can resume (feature `durable`, on a registry with a call store): what
//! the run adds to its nested calls so that, run again under the same call (the same call id and
//! program), the calls the program made are answered from the journal and it goes on where it
//! stopped.
//!
//! Each nested call is keyed by the run's key and its position in the program
//! (`<run key>/<n>`, see `durable/program.rs`). On a later attempt of the run, before the call at
//! a position starts, what an earlier attempt recorded there is read: another tool or other
//! arguments end the run `CODE_RUN_DIVERGED`, and a completed call goes to the journal with its
//! entry, which replays it without reading the store again. The reads go one position after
//! another in the program's order, so nothing after a divergence starts. The run's first attempt
//! reads nothing (nothing can be recorded under its key yet); the journal's admission still
//! compares a position it finds recorded (another attempt of the run, running beside this one,
//! may have got there first), and a call it finds diverged ends the run the same way. A nested
//! call that ends `APPROVAL_PENDING` ends the run `APPROVAL_PENDING` too, naming the approval and
//! the run, before the program sees it: a program that caught it and went on would complete the
//! run, and its retry would replay that outcome rather than resume.

use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use crate::call::execution::ToolExecutionInput;
use crate::call::run::ToolRun;
use crate::durable::journal::Durability;
use crate::durable::program::{AtPosition, position_key};
use crate::durable::record::JournalEntry;
use crate::durable::store::StoreError;
use crate::errors::code::ErrorCode;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::result::{ToolExecutionResult, ToolOutcome};

/// The resumable side of one run's nested calls.
pub(super) struct Resume {
    durability: Arc<Durability>,
    /// The run's own idempotency key, which its nested calls' keys extend.
    run_key: String,
    /// Whether positions are read before their calls start: not on the run's first attempt,
    /// under whose key nothing was recorded before it.
    reads: bool,
    /// The position being read, and its read.
    checking: Option<(u64, BoxFuture<'static, Result<AtPosition, StoreError>>)>,
    /// Why the run stopped its program, once it did; the run reads it when the program ends.
    halt: Arc<OnceLock<ToolError>>,
}

impl Resume {
    /// The resumable side of `run`, when its registry has a call store (the run's own call then
    /// goes through the journal under the key its nested calls' keys extend).
    pub(super) fn of(run: &ToolRun) -> Option<Self> {
        let execution = run.execution();
        let durability = execution.host().programs()?.durability()?;
        Some(Self {
            durability,
            run_key: execution.idempotency_key(),
            reads: !execution.take_first_attempt(),
            checking: None,
            halt: Arc::new(OnceLock::new()),
        })
    }

    /// Where the run finds why its program was halted, once the program has ended.
    pub(super) fn halt_slot(&self) -> Arc<OnceLock<ToolError>> {
        Arc::clone(&self.halt)
    }

    /// Whether the program was halted.
    pub(super) fn is_halted(&self) -> bool {
        self.halt.get().is_some()
    }

    /// Halts the program with `error` (the first reason stands) and drops a check under way.
    pub(super) fn halt(&mut self, error: ToolError) {
        let _ = self.halt.set(error);
        self.checking = None;
    }

    /// Drops a check under way: the program ended.
    pub(super) fn stop(&mut self) {
        self.checking = None;
    }

    /// `input`, the program's `n`th call (from 1), under its position's key, with what an
    /// earlier attempt completed there (from [`check`](Self::check)).
    pub(super) fn keyed(
        &self,
        n: u64,
        input: ToolExecutionInput,
        recorded: Option<Box<JournalEntry>>,
    ) -> ToolExecutionInput {
        input.at_position(position_key(&self.run_key, n), recorded)
    }

    /// Whether the `n`th call, `input`, may start: `Ready(Ok)` when its position recorded
    /// nothing or the same call (with the entry, when that call completed), `Ready(Err)` with
    /// what ends the run when it recorded another call (or the store could not say), `Pending`
    /// while the store answers.
    pub(super) fn check(
        &mut self,
        n: u64,
        input: &ToolExecutionInput,
        context: &mut Context<'_>,
    ) -> Poll<Result<Option<Box<JournalEntry>>, ToolError>> {
        if !self.reads {
            return Poll::Ready(Ok(None));
        }
        let check = match &mut self.checking {
            Some((at, check)) if *at == n => check,
            checking => {
                let durability = Arc::clone(&self.durability);
                let key = position_key(&self.run_key, n);
                let tool = input.name.to_string();
                let arguments = input.arguments.clone();
                let check: BoxFuture<'static, _> =
                    Box::pin(async move { durability.at_position(&key, &tool, &arguments).await });
                &mut checking.insert((n, check)).1
            }
        };
        let Poll::Ready(answer) = check.as_mut().poll(context) else {
            return Poll::Pending;
        };
        self.checking = None;
        Poll::Ready(match answer {
            Ok(AtPosition::Open) => Ok(None),
            Ok(AtPosition::Completed(entry)) => Ok(Some(entry)),
            Ok(AtPosition::Diverged(divergence)) => Err(ToolError::code_run_diverged(
                n,
                &divergence.recorded_tool,
                divergence.same_tool,
                &input.name,
                &input.arguments,
            )),
            // Nothing more runs when the journal cannot say what the run recorded.
            Err(error) => Err(ToolError::store_failed(error.message())),
        })
    }

    /// What the `n`th call's `result` ends the run with, if anything: a call whose approval
    /// waits pauses it, and a call the journal found another call recorded for (another attempt
    /// of the run recorded its position meanwhile) ends it.
    pub(super) fn halts(&self, n: u64, result: &ToolExecutionResult) -> Option<ToolError> {
        let code = result.error_code()?;
        let ToolOutcome::Failure(error) = result.outcome() else {
            return None;
        };
        if code == ErrorCode::CodeRunDiverged.as_str() {
            return Some(error.clone());
        }
        if code != ErrorCode::ApprovalPending.as_str() {
            return None;
        }
        Some(ToolError::code_run_paused(
            error.message(),
            &self.run_key,
            n,
        ))
    }
}
