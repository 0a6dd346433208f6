//! What the engine asks of whoever runs a program's calls ([`ProgramCalls`]), and what a call
//! hands back to the program ([`CallOutcome`]): the contract between the engine (`engine.rs`),
//! the world a program sees (`world.rs`) and `run_code`, which implements it.

use std::task::Waker;
use std::time::Duration;

use serde_json::Value;

/// How a nested call ended, for the program: its value, or its error's `{code, message}`.
pub(crate) type CallOutcome = Result<Value, (String, String)>;

/// What runs `work` — the whole program, its calls included — inside what the calls need around
/// them on the engine's thread.
pub(crate) type Surroundings = Box<dyn FnOnce(&mut dyn FnMut())>;

/// What runs a program's calls. It lives on the engine's thread for the program's run, so its
/// calls are polled there: as they are made, and between turns of the program's jobs.
pub(crate) trait ProgramCalls: Send + 'static {
    /// What the calls need around them on the engine's thread; taken once, before the program
    /// runs, and run around all of it.
    fn surroundings(&mut self) -> Surroundings;

    /// Takes the program's `tools.<name>(arguments)`, made now. Its outcome if the call ended at
    /// once — started now, as the order and the bounds of the program's calls allow, and ended
    /// at its first poll (`waker` wakes the engine when a call started here can go on);
    /// otherwise its outcome is handed back by [`poll`](Self::poll) with `id`.
    fn call(
        &mut self,
        id: u64,
        name: String,
        arguments: Value,
        waker: &Waker,
    ) -> Option<CallOutcome>;

    /// Advances the calls taken (`waker` wakes the engine when one can go on) and hands each
    /// one that ended to `settled`.
    fn poll(&mut self, waker: &Waker, settled: &mut dyn FnMut(u64, CallOutcome));

    /// Whether every call taken has ended.
    fn is_idle(&self) -> bool;

    /// The program ended: calls not started never start, those in flight are cancelled. How
    /// long they may take to wind down before they are dropped.
    fn end(&mut self) -> Duration;

    /// Drops the calls still in flight.
    fn drop_calls(&mut self);

    /// Whether the calls stopped the program for good: it ends before it sees the outcome of
    /// another call (a run that pauses at a call waiting for approval, or that took another
    /// path than the one it recorded). Its calls in flight run to their end, as after a program
    /// that finished; those not started never start.
    fn halted(&self) -> bool {
        false
    }
}
