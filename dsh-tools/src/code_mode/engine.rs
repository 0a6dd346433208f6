//! One program on a JavaScript engine, on a thread other than the caller's: the engine
//! (QuickJS) is not `Send`, and a program that never yields must not hold up the caller's
//! executor.
//!
//! The program sees what [`world`](crate::code_mode::world) installs. Each `tools.<name>(args)`
//! returns a promise and hands the call to the program's [`ProgramCalls`] as it is made, which
//! runs its calls on the engine's thread: a call that may start at once is polled there and
//! then, and one that returns a value at that first poll resolves its promise before
//! `tools.<name>` returns (no thread hop, no turn of the drive loop). The others are polled after
//! each turn of the program's jobs, each promise settled as its call ends (a failure at once,
//! after the turn it happened in). When the program waits and no call is ready, the thread
//! sleeps until a call's waker, a cancellation or the wall time wakes it. The engine knows
//! nothing of tools beyond their names: `ProgramCalls` decides what a call does.
//!
//! The thread and its runtime come from the registry's [`EnginePool`] and go back to it; the
//! program's context is made for it and dropped after it (see `pool` for what that keeps apart).
//!
//! Every limit ends the program for good: the interrupt handler stops a program that never
//! yields, and a limit reached inside `console.log` or `tools` stops it at once, so a `catch`
//! cannot swallow it. Any end of a program ends its calls too ([`ProgramThread::wind_down`]):
//! the wall time bounds them, and the caller hears how the program ended only once they are
//! over.

use std::cell::RefCell;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::{Poll, Waker};
use std::thread::Thread;
use std::time::{Duration, Instant};

use rquickjs::context::EvalOptions;
use rquickjs::promise::PromiseState;
use rquickjs::{Context, Ctx, Persistent, Promise, Runtime, Value as JsValue};
use serde_json::Value;
use tokio::sync::oneshot;

use crate::code_mode::code_limits::CodeLimits;
use crate::code_mode::convert::{display, to_json};
use crate::code_mode::failure::{
    ProgramFailure, StopKind, call_site, looks_like_typescript, position_in, typescript_reason,
};
use crate::code_mode::pool::{EnginePool, Idle, Warm, run_alone};
use crate::code_mode::program_calls::{CallOutcome, ProgramCalls};
use crate::code_mode::world::{
    CANCELLED, CallsCell, HostSide, PendingCall, RUNNING, SharedCell, install, settle,
};

/// The name the program's source is evaluated under (it appears in positions).
const FILE: &str = "program.js";

/// What the program runs inside: an async function, so that it can `await` and `return`.
/// Its body starts on the second line, which positions account for.
const OPEN: &str = "(async () => {\n";
const CLOSE: &str = "\n})()";

/// How much more memory than when it was made a runtime may hold once a program's context is
/// gone and still serve the next program. A runtime holds about 90 KiB more after its first
/// program (the atoms and shapes of the standard library, interned); a context that was not
/// freed would hold several times this.
const REUSE_SLACK: usize = 256 << 10;

/// How much room a heap must have left not to count as full (see [`has_room`]).
const ROOM: usize = 64 << 10;

/// How a program ended: what it returned, or why it stopped; and what it printed.
pub(crate) type Finished = (Result<Option<Value>, ProgramFailure>, String);

/// A program running on its engine thread, as its caller holds it.
pub(crate) struct Engine {
    finished: oneshot::Receiver<Finished>,
    stop: Arc<AtomicU8>,
    wake: Arc<Wake>,
}

impl Engine {
    /// Starts `program` under `limits`, on a worker of `pool` (or on a thread of its own), its
    /// calls run by `calls`; an error if no thread could be started.
    pub(crate) fn start(
        program: String,
        limits: CodeLimits,
        pool: Option<&Arc<EnginePool>>,
        calls: Box<dyn ProgramCalls>,
    ) -> std::io::Result<Self> {
        let (sender, finished) = oneshot::channel();
        let stop = Arc::new(AtomicU8::new(RUNNING));
        let wake = Arc::new(Wake::default());
        let thread = ProgramThread {
            wake: Arc::clone(&wake),
            stop: Arc::clone(&stop),
            limits,
        };
        let work = Box::new(move |warm: &mut Option<Warm>, idle: Idle| {
            let mut calls = calls;
            let surroundings = calls.surroundings();
            // Shared with the program's `tools`, which hand it each call as it is made.
            let calls: CallsCell = Rc::new(RefCell::new(calls));
            let mut job = Some((idle, sender));
            surroundings(&mut || {
                if let Some((idle, sender)) = job.take() {
                    thread.run(warm, &program, &calls, idle, sender);
                }
            });
        });
        match pool {
            Some(pool) => pool.run(limits.stack_bytes(), work)?,
            None => run_alone(limits.stack_bytes(), work)?,
        }
        Ok(Self {
            finished,
            stop,
            wake,
        })
    }

    /// How the program ended, once it and its calls are over.
    pub(crate) fn poll_finished(&mut self, context: &mut std::task::Context<'_>) -> Poll<Finished> {
        match Pin::new(&mut self.finished).poll(context) {
            Poll::Ready(Ok(finished)) => Poll::Ready(finished),
            Poll::Ready(Err(_)) => Poll::Ready((
                Err(ProgramFailure::limit("the JavaScript engine stopped")),
                String::new(),
            )),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Stops the program as cancelled (it ends soon after, and its calls with it).
    pub(crate) fn cancel(&self) {
        let _ = self
            .stop
            .compare_exchange(RUNNING, CANCELLED, Ordering::SeqCst, Ordering::SeqCst);
        self.wake.wake();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Whoever ran the program gave up on it: the thread stops at its next check.
        self.cancel();
    }
}

/// Wakes the engine's thread when it sleeps waiting for a call (or a cancellation): set, then
/// the thread unparked, so a wake that comes while the thread is busy is seen before it sleeps.
#[derive(Default)]
struct Wake {
    woken: AtomicBool,
    /// The engine's thread, once its worker has taken the program.
    thread: OnceLock<Thread>,
}

impl Wake {
    fn wake(&self) {
        self.woken.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.get() {
            thread.unpark();
        }
    }

    /// Sleeps until woken or `until`; at once if a wake came since the last sleep.
    fn sleep(&self, until: Instant) {
        if self.woken.swap(false, Ordering::SeqCst) {
            return;
        }
        let now = Instant::now();
        if now < until {
            std::thread::park_timeout(until - now);
        }
        self.woken.store(false, Ordering::SeqCst);
    }
}

impl std::task::Wake for Wake {
    fn wake(self: Arc<Self>) {
        Wake::wake(&self);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        Wake::wake(self);
    }
}

/// The engine thread's side of one program.
struct ProgramThread {
    wake: Arc<Wake>,
    stop: Arc<AtomicU8>,
    limits: CodeLimits,
}

/// What one program's drive loop works with.
struct Run<'a> {
    runtime: &'a Runtime,
    context: &'a Context,
    program: &'a str,
    shared: &'a SharedCell,
    calls: &'a CallsCell,
    waker: &'a Waker,
    deadline: Instant,
    timed_out: &'a AtomicBool,
}

impl ProgramThread {
    /// Runs the program on the worker's runtime (made first if there is none), ends its calls,
    /// tells the caller how it ended through `finished`, and frees what it made; leaves the
    /// runtime in `warm` only if it can serve the next program.
    ///
    /// Not inlined: profilers collect the engine thread's work by this symbol, which covers all
    /// of a program's work on the thread, its calls and freeing included.
    #[inline(never)]
    fn run(
        &self,
        warm: &mut Option<Warm>,
        program: &str,
        calls: &CallsCell,
        idle: Idle,
        finished: oneshot::Sender<Finished>,
    ) {
        let _ = self.wake.thread.set(std::thread::current());
        let waker = Waker::from(Arc::clone(&self.wake));
        let deadline = Instant::now() + Duration::from_millis(self.limits.wall_time_ms());
        let shared = SharedCell::default();
        if warm.is_none() {
            match Runtime::new() {
                Ok(runtime) => {
                    idle.runtime_made();
                    let baseline = runtime.memory_usage().malloc_size;
                    *warm = Some(Warm {
                        runtime,
                        baseline: usize::try_from(baseline).unwrap_or(usize::MAX),
                    });
                }
                Err(error) => {
                    let _ = finished.send((Err(engine_failure(&error)), String::new()));
                    return;
                }
            }
        }
        let Some(runtime) = warm.as_ref().map(|warm| &warm.runtime) else {
            return;
        };
        let (outcome, context) = self.execute(runtime, program, &shared, calls, &waker, deadline);
        // A program its calls halted leaves the calls it started to end, recorded, as a
        // finished one does: cancelling them would leave their outcomes unknown.
        let halted = matches!(&outcome, Err(failure) if failure.kind == StopKind::Halted);
        // No JavaScript runs from here on: nothing else reaches for the calls.
        self.wind_down(
            &mut **calls.borrow_mut(),
            &waker,
            deadline,
            outcome.is_ok() || halted,
        );
        // A program stopped part-way may have left the runtime mid-job.
        let stopped = match &outcome {
            Ok(_) => false,
            Err(failure) => failure.kind != StopKind::Program,
        };
        let output = std::mem::take(&mut shared.borrow_mut().output);
        idle.now();
        let _ = finished.send((outcome, output));

        // Free the program's context: release what Rust holds of it, then collect its cycles.
        {
            let mut shared = shared.borrow_mut();
            shared.pending.clear();
            shared.failed_at_once.clear();
            shared.error_class = None;
        }
        drop(context);
        runtime.set_interrupt_handler(None);
        runtime.set_host_promise_rejection_tracker(None);
        runtime.run_gc();
        let reusable = warm.as_ref().is_some_and(|warm| {
            let held =
                usize::try_from(warm.runtime.memory_usage().malloc_size).unwrap_or(usize::MAX);
            !stopped && !warm.runtime.is_job_pending() && held <= warm.baseline + REUSE_SLACK
        });
        if !reusable {
            *warm = None;
        }
    }

    /// Ends the program's calls: a program that finished leaves its calls in flight until the
    /// wall time; then (at once for any other end) they are cancelled, have the grace their
    /// runner gives to wind down, and are dropped.
    fn wind_down(
        &self,
        calls: &mut dyn ProgramCalls,
        waker: &Waker,
        deadline: Instant,
        finished: bool,
    ) {
        let mut ignore = |_id: u64, _outcome: CallOutcome| {};
        if finished {
            while !calls.is_idle() && Instant::now() < deadline && !self.is_stopped() {
                calls.poll(waker, &mut ignore);
                if !calls.is_idle() {
                    self.wake.sleep(deadline);
                }
            }
        }
        let grace = calls.end();
        let until = Instant::now() + grace;
        loop {
            calls.poll(waker, &mut ignore);
            if calls.is_idle() || Instant::now() >= until {
                break;
            }
            self.wake.sleep(until);
        }
        calls.drop_calls();
    }

    fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) != RUNNING
    }

    /// Runs the program in a context of its own; how it ended, and the context to free.
    fn execute(
        &self,
        runtime: &Runtime,
        program: &str,
        shared: &SharedCell,
        calls: &CallsCell,
        waker: &Waker,
        deadline: Instant,
    ) -> (Result<Option<Value>, ProgramFailure>, Option<Context>) {
        runtime.set_memory_limit(self.limits.memory_bytes());
        runtime.set_max_stack_size(self.limits.stack_bytes());
        let timed_out = Arc::new(AtomicBool::new(false));
        {
            let stop = Arc::clone(&self.stop);
            let timed_out = Arc::clone(&timed_out);
            runtime.set_interrupt_handler(Some(Box::new(move || {
                if stop.load(Ordering::Relaxed) != RUNNING {
                    return true;
                }
                if Instant::now() >= deadline {
                    timed_out.store(true, Ordering::Relaxed);
                    return true;
                }
                false
            })));
        }
        // A program that fills its heap with small objects leaves the engine no room for the
        // error: its promise is rejected with `null`. Whether that `null` is the program's own
        // can be told only while the program's values are still held, at the rejection.
        let seen = Rc::clone(shared);
        runtime.set_host_promise_rejection_tracker(Some(Box::new(
            move |ctx: Ctx<'_>, _promise: JsValue<'_>, reason: JsValue<'_>, handled: bool| {
                if !handled
                    && reason.is_null()
                    && !has_room(&ctx)
                    && let Ok(mut shared) = seen.try_borrow_mut()
                {
                    shared.out_of_memory = true;
                }
            },
        )));
        let context = match Context::full(runtime) {
            Ok(context) => context,
            Err(error) => return (Err(engine_failure(&error)), None),
        };
        let started = context.with(|ctx| self.begin(&ctx, program, shared, calls, waker));
        let result = match started {
            Ok(main) => {
                let mut run = Run {
                    runtime,
                    context: &context,
                    program,
                    shared,
                    calls,
                    waker,
                    deadline,
                    timed_out: &timed_out,
                };
                self.drive(&mut run, &main)
            }
            Err(failure) => Err(self.classify(failure, shared, &timed_out)),
        };
        (result, Some(context))
    }

    /// Installs the program's world and starts the program; its promise.
    fn begin(
        &self,
        ctx: &Ctx<'_>,
        program: &str,
        shared: &SharedCell,
        calls: &CallsCell,
        waker: &Waker,
    ) -> Result<Persistent<Promise<'static>>, ProgramFailure> {
        let side = Rc::new(HostSide {
            shared: Rc::clone(shared),
            calls: Rc::clone(calls),
            waker: waker.clone(),
            stop: Arc::clone(&self.stop),
            max_calls: self.limits.max_nested_calls(),
            max_output: self.limits.max_output_bytes(),
        });
        let class = install(ctx, &side).map_err(|error| engine_failure(&error))?;
        shared.borrow_mut().error_class = Some(Persistent::save(ctx, class));

        let source = format!("{OPEN}{program}{CLOSE}");
        let mut options = EvalOptions::default();
        options.global = true;
        options.strict = false;
        options.filename = Some(FILE.to_owned());
        match ctx.eval_with_options::<Promise<'_>, _>(source, options) {
            Ok(promise) => Ok(Persistent::save(ctx, promise)),
            Err(rquickjs::Error::Exception) => Err(failure_of(&ctx.catch(), program, true)),
            Err(error) => Err(engine_failure(&error)),
        }
    }

    /// Runs the program's jobs and its calls until it is done.
    ///
    /// The program's promise is looked at after every turn of jobs rather than given reactions
    /// of its own: a reaction on it changes how the engine collects promise chains (an endless
    /// chain of `then`s would no longer end by running out of room).
    fn drive(
        &self,
        run: &mut Run<'_>,
        main: &Persistent<Promise<'static>>,
    ) -> Result<Option<Value>, ProgramFailure> {
        let mut ended: Vec<(u64, CallOutcome)> = Vec::new();
        loop {
            if let Err(failure) = self.run_jobs(run.runtime, run.program, run.timed_out) {
                return Err(self.classify(failure, run.shared, run.timed_out));
            }
            match run
                .context
                .with(|ctx| program_outcome(&ctx, main, run.program))
            {
                None => {}
                Some(Ok(value)) => return Ok(value),
                Some(Err(failure)) => {
                    return Err(self.classify(failure, run.shared, run.timed_out));
                }
            }
            // The program's calls were handed over as it made them: whatever has ended since.
            // Settled once the calls are let go of: settling may run the program's code.
            ended.append(&mut run.shared.borrow_mut().failed_at_once);
            {
                let mut calls = run.calls.borrow_mut();
                calls.poll(run.waker, &mut |id, outcome| ended.push((id, outcome)));
                if calls.halted() {
                    return Err(ProgramFailure::stopped(StopKind::Halted));
                }
            }
            if !ended.is_empty() {
                let shared = run.shared;
                run.context.with(|ctx| {
                    for (id, outcome) in ended.drain(..) {
                        let call = shared.borrow_mut().pending.remove(id);
                        if let Some(call) = call {
                            settle_later(&ctx, shared, call, outcome);
                        }
                    }
                });
                continue;
            }
            if run.shared.borrow().pending.is_empty() {
                return Err(ProgramFailure::program(
                    "the program waits for a promise that nothing settles (only tools calls \
                     settle: there are no timers)",
                    None,
                ));
            }
            if self.is_stopped() {
                continue;
            }
            if Instant::now() >= run.deadline {
                run.timed_out.store(true, Ordering::Relaxed);
                continue;
            }
            self.wake.sleep(run.deadline);
        }
    }

    /// Runs every job the program queued; why it cannot go on, if it cannot (a stop or the
    /// wall time, which `classify` tells apart).
    fn run_jobs(
        &self,
        runtime: &Runtime,
        program: &str,
        timed_out: &AtomicBool,
    ) -> Result<(), ProgramFailure> {
        loop {
            if self.is_stopped() || timed_out.load(Ordering::Relaxed) {
                return Err(ProgramFailure::stopped(StopKind::Cancelled));
            }
            match runtime.execute_pending_job() {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                // A job threw past every handler, which only an interruption or running out of
                // memory does: the program cannot go on.
                Err(job) => {
                    let mut failure = job.0.with(|ctx| failure_of(&ctx.catch(), program, false));
                    if near_memory_limit(runtime) {
                        failure.reason = "out of memory".to_owned();
                    } else if failure.reason == "Uncaught null" {
                        // The engine could not even make an error: a chain of promise jobs ran
                        // it out of room.
                        failure.reason =
                            "the program's promise jobs failed: too many chained promises"
                                .to_owned();
                    }
                    return Err(failure);
                }
            }
        }
    }

    /// What really stopped the program: a limit reached in a host function, the wall time or a
    /// cancellation win over the exception they caused.
    fn classify(
        &self,
        failure: ProgramFailure,
        shared: &SharedCell,
        timed_out: &AtomicBool,
    ) -> ProgramFailure {
        if let Some(limit) = shared.borrow_mut().limit.take() {
            return limit;
        }
        if timed_out.load(Ordering::Relaxed) {
            return ProgramFailure::stopped(StopKind::TimedOut);
        }
        if self.stop.load(Ordering::Relaxed) == CANCELLED {
            return ProgramFailure::stopped(StopKind::Cancelled);
        }
        let ran_out = shared.borrow().out_of_memory && failure.reason == "Uncaught null";
        if failure.kind == StopKind::Program
            && (ran_out || failure.reason.contains("out of memory"))
        {
            return ProgramFailure::limit(format!(
                "the program ran out of memory (its limit is {} bytes)",
                self.limits.memory_bytes()
            ));
        }
        failure
    }
}

/// How the program ended, once its promise has settled: what it returned, as JSON, or why it
/// failed.
fn program_outcome(
    ctx: &Ctx<'_>,
    main: &Persistent<Promise<'static>>,
    program: &str,
) -> Option<Result<Option<Value>, ProgramFailure>> {
    let promise = match main.clone().restore(ctx) {
        Ok(promise) => promise,
        Err(error) => return Some(Err(engine_failure(&error))),
    };
    match promise.state() {
        PromiseState::Pending => None,
        PromiseState::Resolved => {
            let value: JsValue<'_> = match promise.result() {
                Some(Ok(value)) => value,
                _ => return Some(Err(failure_of(&ctx.catch(), program, false))),
            };
            Some(to_json(&value).map_err(|error| {
                ProgramFailure::program(
                    format!(
                        "the program returned a value that is not JSON: {}",
                        error.describe()
                    ),
                    None,
                )
            }))
        }
        PromiseState::Rejected => {
            let _ = promise.result::<JsValue<'_>>();
            Some(Err(failure_of(&ctx.catch(), program, false)))
        }
    }
}

/// Whether the heap has room for [`ROOM`] more bytes: a program whose heap is that full when it
/// fails with `null` ran out of memory.
fn has_room(ctx: &Ctx<'_>) -> bool {
    let room = rquickjs::String::from_str(ctx.clone(), &" ".repeat(ROOM)).is_ok();
    if !room {
        // Failing to allocate left an exception of its own.
        let _ = ctx.catch();
    }
    room
}

/// Whether the heap is (nearly) full: what an exception thrown without an object of its own
/// (`null`, when even the error could not be allocated) comes from.
fn near_memory_limit(runtime: &Runtime) -> bool {
    let usage = runtime.memory_usage();
    usage.malloc_limit > 0 && usage.malloc_size >= usage.malloc_limit / 10 * 9
}

/// Settles the promise of a call that did not end at once (see [`settle`]).
fn settle_later(ctx: &Ctx<'_>, shared: &SharedCell, call: PendingCall, outcome: CallOutcome) {
    let settled = (|| -> rquickjs::Result<()> {
        let resolve = call.resolve.restore(ctx)?;
        let reject = call.reject.restore(ctx)?;
        settle(ctx, shared, &call.tool, &resolve, &reject, outcome)
    })();
    if settled.is_err() {
        // Settling failed only if the engine is out of memory or stopping; the program then
        // ends, and the drive loop says why.
        let _ = ctx.catch();
    }
}

/// A failure of the engine itself (it could not be set up), not of the program.
fn engine_failure(error: &rquickjs::Error) -> ProgramFailure {
    ProgramFailure::limit(format!("the JavaScript engine failed: {error}"))
}

/// The failure an uncaught exception (or a syntax error, `parsing`) stands for.
fn failure_of(exception: &JsValue<'_>, program: &str, parsing: bool) -> ProgramFailure {
    let Some(object) = exception.as_object().filter(|_| exception.is_error()) else {
        let thrown = display(exception);
        return ProgramFailure::program(format!("Uncaught {thrown}"), None);
    };
    let name: String = object.get("name").unwrap_or_else(|_| "Error".to_owned());
    let message: String = object.get("message").unwrap_or_default();
    let stack: String = object.get("stack").unwrap_or_default();
    let mut position = position_in(&stack, FILE, 2);
    let mut reason = format!("{name}: {message}");
    if name == "ToolCallError" {
        let code: String = object.get("code").unwrap_or_default();
        let tool: String = object.get("tool").unwrap_or_default();
        reason = format!("Uncaught ToolCallError ({code}) from tools.{tool}: {message}");
        position = position.or_else(|| call_site(program, &tool));
    } else if parsing && name == "SyntaxError" && looks_like_typescript(program, position) {
        reason = typescript_reason(&reason);
    }
    ProgramFailure::program(reason, position)
}

#[cfg(test)]
mod tests {
    use std::future::poll_fn;

    use serde_json::json;

    use super::*;
    use crate::code_mode::program_calls::Surroundings;

    /// Answers each call with its arguments at once, except those of `tools.never`, which end
    /// only when cancelled, and those of `tools.later`, answered at the next poll.
    #[derive(Default)]
    struct Echo {
        later: Vec<(u64, Value)>,
        never: Vec<u64>,
        cancelled: bool,
    }

    impl ProgramCalls for Echo {
        fn surroundings(&mut self) -> Surroundings {
            Box::new(|work| work())
        }

        fn call(
            &mut self,
            id: u64,
            name: String,
            arguments: Value,
            _waker: &Waker,
        ) -> Option<CallOutcome> {
            match name.as_str() {
                "never" => self.never.push(id),
                "later" => self.later.push((id, arguments)),
                "fails" => return Some(Err(("TOOL_ERROR".to_owned(), "no".to_owned()))),
                _ => return Some(Ok(arguments)),
            }
            None
        }

        fn poll(&mut self, _waker: &Waker, settled: &mut dyn FnMut(u64, CallOutcome)) {
            for (id, arguments) in self.later.drain(..) {
                settled(id, Ok(arguments));
            }
            if self.cancelled {
                for id in self.never.drain(..) {
                    settled(id, Err(("ABORTED".to_owned(), "cancelled".to_owned())));
                }
            }
        }

        fn is_idle(&self) -> bool {
            self.later.is_empty() && self.never.is_empty()
        }

        fn end(&mut self) -> Duration {
            self.cancelled = true;
            Duration::ZERO
        }

        fn drop_calls(&mut self) {
            self.never.clear();
        }
    }

    /// Runs `program` on `pool` with [`Echo`] for its calls; how it ended.
    async fn run(
        pool: &Arc<EnginePool>,
        limits: CodeLimits,
        program: &str,
    ) -> Result<Option<Value>, ProgramFailure> {
        let mut engine = Engine::start(
            program.to_owned(),
            limits,
            Some(pool),
            Box::new(Echo::default()),
        )
        .expect("starts");
        poll_fn(|context| engine.poll_finished(context)).await.0
    }

    /// A program that changes everything it can reach: globals, prototypes, built-ins, `tools`.
    const TAMPER: &str = r"
        globalThis.leaked = 1;
        Object.defineProperty(globalThis, 'sticky', { value: 1 });
        var declared = 1;
        undeclared = 1;
        Array.prototype.extra = 1;
        Object.prototype.polluted = 1;
        JSON.stringify = () => 'tampered';
        Math.max = () => 'tampered';
        Error.prototype.name = 'Tampered';
        for (const attempt of [
            () => { tools.echo = 1; },
            () => { Object.setPrototypeOf(tools, {}); },
            () => { Object.getPrototypeOf(tools).echo = 1; },
        ]) { try { attempt(); } catch (error) {} }
        console.log = () => {};
        // A trap `tools`' handlers lack is not found on `Object.prototype` either.
        Object.prototype.get = () => () => 'hijacked';
        return await tools.echo({ tampered: true });
    ";

    /// What the next program sees of that tampering: nothing.
    const LOOK: &str = r"
        return [
            typeof leaked, typeof sticky, typeof declared, typeof undeclared,
            [].extra, ({}).polluted, JSON.stringify({ a: 1 }), Math.max(1, 2),
            new Error('x').name, typeof Object.getPrototypeOf(tools),
            await tools.echo({ fresh: true }),
        ];
    ";

    fn untouched() -> Value {
        json!([
            "undefined", "undefined", "undefined", "undefined", null, null, "{\"a\":1}", 2,
            "Error", "object", {"fresh": true}
        ])
    }

    #[tokio::test]
    async fn the_next_program_runs_on_the_same_warm_runtime_and_sees_nothing_of_the_last() {
        let pool = Arc::new(EnginePool::default());
        let limits = CodeLimits::new();
        let tampered = run(&pool, limits, TAMPER).await.expect("runs");
        assert_eq!(tampered, Some(json!({"tampered": true})));
        let looked = run(&pool, limits, LOOK).await.expect("runs");
        // `typeof Object.getPrototypeOf(tools)` is "object" for `null`.
        assert_eq!(looked, Some(untouched()));
        assert_eq!(pool.started(), 1, "one worker served both programs");
        assert_eq!(pool.runtimes(), 1, "on one runtime");
    }

    #[tokio::test]
    async fn a_program_stopped_part_way_leaves_a_new_runtime_for_the_next() {
        let pool = Arc::new(EnginePool::default());
        let stopped = run(
            &pool,
            CodeLimits {
                wall_time_ms: 100,
                ..CodeLimits::default()
            },
            "const spin = () => { queueMicrotask(spin) }; spin(); await new Promise(() => {});",
        )
        .await;
        assert_eq!(stopped.expect_err("times out").kind, StopKind::TimedOut);
        let looked = run(&pool, CodeLimits::new(), LOOK).await.expect("runs");
        assert_eq!(looked, Some(untouched()));
        assert_eq!(pool.started(), 1, "the worker's thread served both");
        assert_eq!(
            pool.runtimes(),
            2,
            "the stopped program's runtime was not reused"
        );
    }

    #[tokio::test]
    async fn calls_answered_at_once_and_later_each_settle_their_own_promise() {
        let pool = Arc::new(EnginePool::default());
        let program = r"
            const first = tools.later({ n: 1 });
            const second = await tools.echo({ n: 2 });
            let third;
            try { await tools.fails({}); }
            catch (error) { third = [error.name, error.tool, error.code]; }
            const fourth = tools.later({ n: 4 });
            return [await first, second, third, await fourth, await tools.echo({ n: 5 })];
        ";
        let returned = run(&pool, CodeLimits::new(), program).await.expect("runs");
        assert_eq!(
            returned,
            Some(json!([
                {"n": 1}, {"n": 2}, ["ToolCallError", "fails", "TOOL_ERROR"], {"n": 4}, {"n": 5}
            ]))
        );
    }

    #[tokio::test]
    async fn a_call_made_while_another_is_resolved_at_once_is_taken_too() {
        // Resolving with an object looks up its `then`: here a getter of the program's that
        // makes a call while `tools.echo` resolves the first one.
        let pool = Arc::new(EnginePool::default());
        let program = r"
            let inner;
            Object.defineProperty(Object.prototype, 'then', {
                get() { if (!inner) { inner = tools.echo({ inner: true }); } return undefined; },
                configurable: true,
            });
            const outer = await tools.echo({ outer: true });
            return [outer, await inner];
        ";
        let returned = run(&pool, CodeLimits::new(), program).await.expect("runs");
        assert_eq!(returned, Some(json!([{"outer": true}, {"inner": true}])));
    }

    #[tokio::test]
    async fn a_program_waiting_for_a_call_past_its_wall_time_ends_timed_out() {
        let pool = Arc::new(EnginePool::default());
        let limits = CodeLimits {
            wall_time_ms: 100,
            ..CodeLimits::default()
        };
        // Before the wall time was checked with the stop flag, this never returned.
        let failure = run(&pool, limits, "await tools.never({});")
            .await
            .expect_err("times out");
        assert_eq!(failure.kind, StopKind::TimedOut);
    }

    #[tokio::test]
    async fn string_evaluation_is_refused_with_an_eval_error_however_it_is_reached() {
        let pool = Arc::new(EnginePool::default());
        for (program, what) in [
            ("eval('1')", "eval"),
            ("globalThis.eval('1')", "eval"),
            ("Function('return 1')", "the Function constructor"),
            ("new Function('return 1')", "the Function constructor"),
            (
                "(function () {}).constructor('return 1')",
                "the Function constructor",
            ),
            (
                "(async function () {}).constructor('return 1')",
                "the Function constructor",
            ),
            (
                "(function* () {}).constructor('yield 1')",
                "the Function constructor",
            ),
            (
                "new (async function* () {}).constructor('yield 1')",
                "the Function constructor",
            ),
        ] {
            let failure = run(&pool, CodeLimits::new(), program)
                .await
                .expect_err(program);
            assert_eq!(
                failure.reason,
                format!("EvalError: {what} is not available in run_code programs"),
                "{program}"
            );
        }
    }

    /// Answers every call at once, and halts the program when it calls `tools.stop`.
    #[derive(Default)]
    struct Halting {
        halted: bool,
    }

    impl ProgramCalls for Halting {
        fn surroundings(&mut self) -> Surroundings {
            Box::new(|work| work())
        }

        fn call(
            &mut self,
            _id: u64,
            name: String,
            arguments: Value,
            _waker: &Waker,
        ) -> Option<CallOutcome> {
            if name == "stop" {
                self.halted = true;
                return None;
            }
            Some(Ok(arguments))
        }

        fn poll(&mut self, _waker: &Waker, _settled: &mut dyn FnMut(u64, CallOutcome)) {}

        fn is_idle(&self) -> bool {
            true
        }

        fn end(&mut self) -> Duration {
            Duration::ZERO
        }

        fn drop_calls(&mut self) {}

        fn halted(&self) -> bool {
            self.halted
        }
    }

    #[tokio::test]
    async fn calls_that_halt_the_program_end_it_before_it_can_go_on() {
        let mut engine = Engine::start(
            "await tools.first({});\n\
             try { await tools.stop({}); } catch (error) {}\n\
             await tools.after({});\n\
             return 'went on';"
                .to_owned(),
            CodeLimits::new(),
            None,
            Box::new(Halting::default()),
        )
        .expect("starts");
        let (outcome, _output) = poll_fn(|context| engine.poll_finished(context)).await;
        let failure = outcome.expect_err("halted");
        assert_eq!(failure.kind, StopKind::Halted);
    }
}
