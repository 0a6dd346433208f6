//! One program on its own JavaScript engine, on a thread of its own: the engine (QuickJS) is
//! not `Send`, and a program that never yields must not hold up the caller's executor.
//!
//! The program sees `tools`, `console` and ECMAScript's own globals — no file system, network,
//! timers, environment, modules or string evaluation (`eval` and the `Function` constructors
//! throw). Each `tools.<name>(args)` sends a [`EngineEvent::Call`] to the host and returns a
//! promise the host settles with a [`Reply`]; between replies the thread runs the promise jobs
//! the program queued, so the host's calls run while the program waits, in any number. The
//! engine knows nothing of tools beyond their names: the host decides what a call does.
//!
//! Every limit ends the program for good: the interrupt handler stops a program that never
//! yields, and a limit reached inside `console.log` or `tools` stops it at once, so a `catch`
//! cannot swallow it.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rquickjs::context::EvalOptions;
use rquickjs::function::{Opt, Rest};
use rquickjs::object::Property;
use rquickjs::promise::PromiseState;
use rquickjs::{
    Constructor, Context, Ctx, Exception, Function, Object, Persistent, Promise, Runtime,
    Value as JsValue,
};
use serde_json::Value;
use tokio::sync::mpsc as async_mpsc;

use crate::code_mode::convert::{display, to_js, to_json};
use crate::code_mode::failure::{
    ProgramFailure, StopKind, looks_like_typescript, position_in, typescript_reason,
};
use crate::code_mode::limits::CodeLimits;

/// The name the program's source is evaluated under (it appears in positions).
const FILE: &str = "program.js";

/// What the program runs inside: an async function, so that it can `await` and `return`.
/// Its body starts on the second line, which positions account for.
const OPEN: &str = "(async () => {\n";
const CLOSE: &str = "\n})()";

/// Sets up the program's world before it runs: `tools`, `ToolCallError`, and no string
/// evaluation. Called with `make(known, name)`, which makes the function of tool `name` and keeps
/// it in `known`; returns the `ToolCallError` class.
///
/// `tools` is a proxy with no `get` trap over `known`, so `tools.x` of a name already used is an
/// ordinary property lookup that runs no JavaScript (a `get` trap costs a function call on
/// every `tools.x`). A name not in `known` yet falls through to `known`'s prototype, `unseen`,
/// whose trap makes its function. Every way of changing `tools` throws, and its keys are not
/// listed, so it looks the same whichever tools the program used.
const PRELUDE: &str = r#"(function (make) {
  "use strict";
  class ToolCallError extends Error {
    constructor(tool, code, message) {
      super(message);
      this.name = "ToolCallError";
      this.tool = tool;
      this.code = code;
    }
  }
  // Names that are never tools, so that `tools` is not taken for a promise (`then`), for JSON
  // (`toJSON`) or for a value with methods. A null-prototype object: `in` on it runs nothing
  // the program could have changed.
  const skipped = Object.freeze({
    __proto__: null, then: true, toJSON: true, constructor: true, valueOf: true, toString: true,
  });
  const isTool = (name) => typeof name === "string" && !(name in skipped);
  const unseen = new Proxy(Object.create(null), {
    get(_target, name) { return isTool(name) ? make(known, name) : undefined; },
  });
  const known = Object.create(unseen);
  const readOnly = () => { throw new TypeError("tools is read-only"); };
  const tools = new Proxy(known, {
    has(_target, name) { return isTool(name); },
    ownKeys() { return []; },
    getOwnPropertyDescriptor() { return undefined; },
    set: readOnly,
    defineProperty: readOnly,
    deleteProperty: readOnly,
    setPrototypeOf: readOnly,
    preventExtensions: readOnly,
  });
  const refuse = (what) => function () {
    throw new EvalError(what + " is not available in run_code programs");
  };
  const constructors = [
    Object.getPrototypeOf(function () {}),
    Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function* () {}),
  ];
  for (const prototype of constructors) {
    Object.defineProperty(prototype, "constructor", { value: refuse("the Function constructor") });
  }
  Object.defineProperty(globalThis, "Function", { value: refuse("the Function constructor") });
  Object.defineProperty(globalThis, "eval", { value: refuse("eval") });
  Object.defineProperty(globalThis, "tools", { value: tools });
  Object.defineProperty(globalThis, "ToolCallError", { value: ToolCallError });
  return ToolCallError;
})"#;

/// What the program asks of the host, in the order it asks.
#[derive(Debug)]
pub(crate) enum EngineEvent {
    /// `tools.<name>(arguments)`; answer with a [`Reply`] of the same `id`.
    Call {
        id: u64,
        name: String,
        arguments: Value,
    },
    /// The program is done: what it returned, or why it stopped; and what it printed.
    Finished {
        outcome: Result<Option<Value>, ProgramFailure>,
        output: String,
    },
}

/// How a nested call ended, for the program.
#[derive(Debug)]
pub(crate) enum Reply {
    /// The call's value, or its error's `{code, message}`.
    Settled {
        id: u64,
        outcome: Result<Value, (String, String)>,
    },
    /// Nothing to settle: look at the stop flag.
    Wake,
}

/// Why the program must stop, set from either side; the interrupt handler reads it.
const RUNNING: u8 = 0;
const CANCELLED: u8 = 1;
const LIMIT: u8 = 2;

/// A program running on its engine thread.
pub(crate) struct Engine {
    events: async_mpsc::UnboundedReceiver<EngineEvent>,
    replies: mpsc::Sender<Reply>,
    stop: Arc<AtomicU8>,
}

impl Engine {
    /// Starts `program` under `limits`; an error if no thread could be started.
    pub(crate) fn start(program: String, limits: CodeLimits) -> std::io::Result<Self> {
        let (event_sender, events) = async_mpsc::unbounded_channel();
        let (replies, reply_receiver) = mpsc::channel();
        let stop = Arc::new(AtomicU8::new(RUNNING));
        let thread_stop = Arc::clone(&stop);
        std::thread::Builder::new()
            .name("run_code".to_owned())
            // Room for the program's stack and for the engine's own frames below it.
            .stack_size(limits.stack_bytes() + (2 << 20))
            .spawn(move || {
                let thread = ProgramThread {
                    events: event_sender,
                    replies: reply_receiver,
                    stop: thread_stop,
                    limits,
                };
                thread.run(&program);
            })?;
        Ok(Self {
            events,
            replies,
            stop,
        })
    }

    /// The next event; `None` once the thread is gone.
    pub(crate) fn poll_event(
        &mut self,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<EngineEvent>> {
        self.events.poll_recv(context)
    }

    /// Settles the promise of a nested call.
    pub(crate) fn reply(&self, reply: Reply) {
        // A program that already ended has no promise to settle.
        let _ = self.replies.send(reply);
    }

    /// Stops the program as cancelled (it ends with a `Finished` event soon after).
    pub(crate) fn cancel(&self) {
        let _ = self
            .stop
            .compare_exchange(RUNNING, CANCELLED, Ordering::SeqCst, Ordering::SeqCst);
        let _ = self.replies.send(Reply::Wake);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Whoever ran the program gave up on it: the thread stops at its next check.
        self.cancel();
    }
}

/// The engine thread's side.
struct ProgramThread {
    events: async_mpsc::UnboundedSender<EngineEvent>,
    replies: mpsc::Receiver<Reply>,
    stop: Arc<AtomicU8>,
    limits: CodeLimits,
}

/// What the program's host functions share on the engine thread.
#[derive(Default)]
struct Shared {
    output: String,
    /// A limit reached inside a host function: the program ends with it.
    limit: Option<ProgramFailure>,
    calls_made: usize,
    /// The promises of calls the host has not answered yet.
    pending: PendingCalls,
    /// The program's `ToolCallError`, which rejected calls reject with.
    error_class: Option<Persistent<Constructor<'static>>>,
}

type SharedCell = Rc<RefCell<Shared>>;

/// A call the host has not answered yet: its tool, and its promise's resolving functions.
struct PendingCall {
    tool: Rc<str>,
    resolve: Persistent<Function<'static>>,
    reject: Persistent<Function<'static>>,
}

/// The calls the host has not answered yet, by id. Ids are handed out in order, so the calls
/// are a queue from the oldest unanswered id, with a hole for each call answered out of order:
/// no hashing, and nothing to grow once the program waits for its calls as it makes them.
#[derive(Default)]
struct PendingCalls {
    /// The id of `slots[0]`.
    first: u64,
    slots: VecDeque<Option<PendingCall>>,
    open: usize,
}

impl PendingCalls {
    /// Keeps `call`; its id.
    fn insert(&mut self, call: PendingCall) -> u64 {
        let id = self.first + self.slots.len() as u64;
        self.slots.push_back(Some(call));
        self.open += 1;
        id
    }

    /// The call of `id`, if it is still open.
    fn remove(&mut self, id: u64) -> Option<PendingCall> {
        let index = usize::try_from(id.checked_sub(self.first)?).ok()?;
        let call = self.slots.get_mut(index)?.take()?;
        self.open -= 1;
        while let Some(None) = self.slots.front() {
            self.slots.pop_front();
            self.first += 1;
        }
        Some(call)
    }

    fn is_empty(&self) -> bool {
        self.open == 0
    }

    fn clear(&mut self) {
        self.first += self.slots.len() as u64;
        self.slots.clear();
        self.open = 0;
    }
}

/// What every tool function of a program needs to make a call.
struct CallSide {
    shared: SharedCell,
    events: async_mpsc::UnboundedSender<EngineEvent>,
    stop: Arc<AtomicU8>,
    max_calls: usize,
}

impl ProgramThread {
    /// Not inlined: profilers collect the engine thread's work by this symbol.
    #[inline(never)]
    fn run(self, program: &str) {
        let shared = SharedCell::default();
        let outcome = self.execute(program, &shared);
        let output = std::mem::take(&mut shared.borrow_mut().output);
        let _ = self.events.send(EngineEvent::Finished { outcome, output });
    }

    fn execute(&self, program: &str, shared: &SharedCell) -> Result<Option<Value>, ProgramFailure> {
        let deadline = Instant::now() + Duration::from_millis(self.limits.wall_time_ms());
        let runtime = Runtime::new().map_err(|error| engine_failure(&error))?;
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
        let context = Context::full(&runtime).map_err(|error| engine_failure(&error))?;
        let started = context.with(|ctx| self.begin(&ctx, program, shared));
        let result = match started {
            Ok(main) => self.drive(
                &runtime, &context, &main, program, shared, deadline, &timed_out,
            ),
            Err(failure) => Err(self.classify(failure, shared, &timed_out)),
        };
        // The values still held belong to this runtime: release them before it goes.
        let mut shared = shared.borrow_mut();
        shared.pending.clear();
        shared.error_class = None;
        result
    }

    /// Installs the program's world and starts the program; its promise.
    fn begin(
        &self,
        ctx: &Ctx<'_>,
        program: &str,
        shared: &SharedCell,
    ) -> Result<Persistent<Promise<'static>>, ProgramFailure> {
        let globals = ctx.globals();
        globals
            .set(
                "console",
                self.console(ctx, shared).map_err(|e| engine_failure(&e))?,
            )
            .map_err(|error| engine_failure(&error))?;
        let side = Rc::new(CallSide {
            shared: Rc::clone(shared),
            events: self.events.clone(),
            stop: Arc::clone(&self.stop),
            max_calls: self.limits.max_nested_calls(),
        });
        let make = make_function(ctx, side).map_err(|e| engine_failure(&e))?;
        let prelude: Function<'_> = ctx.eval(PRELUDE).map_err(|error| engine_failure(&error))?;
        let class: Constructor<'_> = prelude
            .call((make,))
            .map_err(|error| engine_failure(&error))?;
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

    /// `console.log` and its kin: lines of the output, bounded.
    fn console<'js>(&self, ctx: &Ctx<'js>, shared: &SharedCell) -> rquickjs::Result<Object<'js>> {
        let console = Object::new(ctx.clone())?;
        for method in ["log", "info", "warn", "error", "debug"] {
            let shared = Rc::clone(shared);
            let stop = Arc::clone(&self.stop);
            let limit = self.limits.max_output_bytes();
            let print = Function::new(
                ctx.clone(),
                move |ctx: Ctx<'js>, args: Rest<JsValue<'js>>| -> rquickjs::Result<()> {
                    let mut state = shared.borrow_mut();
                    if state.limit.is_some() {
                        return Err(Exception::throw_internal(&ctx, "the program was stopped"));
                    }
                    drop(state);
                    let line = args.0.iter().map(display).collect::<Vec<_>>().join(" ");
                    state = shared.borrow_mut();
                    if state.output.len() + line.len() + 1 > limit {
                        let failure = ProgramFailure::limit(format!(
                            "the program printed more than its output limit of {limit} bytes"
                        ));
                        return Err(stop_with(&ctx, &stop, &mut state, failure));
                    }
                    state.output.push_str(&line);
                    state.output.push('\n');
                    Ok(())
                },
            )?;
            console.set(method, print)?;
        }
        Ok(console)
    }

    /// Runs the program's jobs and settles its calls until it is done.
    ///
    /// The program's promise is looked at after every turn of jobs rather than given reactions
    /// of its own: a reaction on it changes how the engine collects promise chains (an endless
    /// chain of `then`s would no longer end by running out of room).
    #[expect(clippy::too_many_arguments, reason = "the run's parts, passed once")]
    fn drive(
        &self,
        runtime: &Runtime,
        context: &Context,
        main: &Persistent<Promise<'static>>,
        program: &str,
        shared: &SharedCell,
        deadline: Instant,
        timed_out: &AtomicBool,
    ) -> Result<Option<Value>, ProgramFailure> {
        loop {
            if let Err(failure) = self.run_jobs(runtime, program) {
                return Err(self.classify(failure, shared, timed_out));
            }
            match context.with(|ctx| program_outcome(&ctx, main, program)) {
                None => {}
                Some(Ok(value)) => return Ok(value),
                Some(Err(failure)) => return Err(self.classify(failure, shared, timed_out)),
            }
            if shared.borrow().pending.is_empty() {
                return Err(ProgramFailure::program(
                    "the program waits for a promise that nothing settles (only tools calls \
                     settle: there are no timers)",
                    None,
                ));
            }
            let now = Instant::now();
            if now >= deadline {
                timed_out.store(true, Ordering::Relaxed);
                continue;
            }
            let first = match self.replies.recv_timeout(deadline - now) {
                Ok(reply) => reply,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    timed_out.store(true, Ordering::Relaxed);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    self.stop_as(CANCELLED);
                    continue;
                }
            };
            // The first reply and every other one already sent, in one entry into the engine.
            context.with(|ctx| {
                let mut next = Some(first);
                while let Some(reply) = next {
                    if let Reply::Settled { id, outcome } = reply {
                        let call = shared.borrow_mut().pending.remove(id);
                        if let Some(call) = call {
                            settle(&ctx, shared, call, outcome);
                        }
                    }
                    next = self.replies.try_recv().ok();
                }
            });
        }
    }

    /// Runs every job the program queued; why it cannot go on, if it cannot.
    fn run_jobs(&self, runtime: &Runtime, program: &str) -> Result<(), ProgramFailure> {
        loop {
            if self.stop.load(Ordering::Relaxed) != RUNNING {
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

    fn stop_as(&self, why: u8) {
        let _ = self
            .stop
            .compare_exchange(RUNNING, why, Ordering::SeqCst, Ordering::SeqCst);
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
        if failure.kind == StopKind::Program && failure.reason.contains("out of memory") {
            return ProgramFailure::limit(format!(
                "the program ran out of memory (its limit is {} bytes)",
                self.limits.memory_bytes()
            ));
        }
        failure
    }
}

/// `make(known, name)`, the prelude's way to make the function of tool `name` when the program
/// first uses it; it keeps the function in `known` (not enumerable, not writable), where the
/// next `tools.<name>` finds it.
fn make_function<'js>(ctx: &Ctx<'js>, side: Rc<CallSide>) -> rquickjs::Result<Function<'js>> {
    Function::new(
        ctx.clone(),
        move |ctx: Ctx<'js>, known: Object<'js>, name: String| -> rquickjs::Result<Function<'js>> {
            let tool = tool_function(&ctx, Rc::clone(&side), Rc::from(name.as_str()))?;
            known.prop(name.as_str(), Property::from(tool.clone()).configurable())?;
            Ok(tool)
        },
    )
}

/// The host side of `tools.<name>(args)`: sends the call, returns its promise.
fn tool_function<'js>(
    ctx: &Ctx<'js>,
    side: Rc<CallSide>,
    name: Rc<str>,
) -> rquickjs::Result<Function<'js>> {
    Function::new(
        ctx.clone(),
        move |ctx: Ctx<'js>, args: Opt<JsValue<'js>>| -> rquickjs::Result<Promise<'js>> {
            if side.shared.borrow().limit.is_some() {
                return Err(Exception::throw_internal(&ctx, "the program was stopped"));
            }
            let arguments = match args.0.as_ref().map(to_json) {
                Some(Ok(Some(arguments))) => arguments,
                None | Some(Ok(None)) => Value::Object(serde_json::Map::new()),
                Some(Err(error)) => {
                    return Err(Exception::throw_type(
                        &ctx,
                        &format!(
                            "the arguments of tools.{name} are not JSON: {}",
                            error.describe()
                        ),
                    ));
                }
            };
            let mut state = side.shared.borrow_mut();
            if state.calls_made >= side.max_calls {
                let max_calls = side.max_calls;
                let failure = ProgramFailure::limit(format!(
                    "the program made more than its limit of {max_calls} nested calls"
                ));
                return Err(stop_with(&ctx, &side.stop, &mut state, failure));
            }
            state.calls_made += 1;
            let (promise, resolve, reject) = ctx.promise()?;
            let id = state.pending.insert(PendingCall {
                tool: Rc::clone(&name),
                resolve: Persistent::save(&ctx, resolve),
                reject: Persistent::save(&ctx, reject),
            });
            drop(state);
            let _ = side.events.send(EngineEvent::Call {
                id,
                name: name.to_string(),
                arguments,
            });
            Ok(promise)
        },
    )
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

/// Whether the heap is (nearly) full: what an exception thrown without an object of its own
/// (`null`, when even the error could not be allocated) comes from.
fn near_memory_limit(runtime: &Runtime) -> bool {
    let usage = runtime.memory_usage();
    usage.malloc_limit > 0 && usage.malloc_size >= usage.malloc_limit / 10 * 9
}

/// Records `failure` as the program's end and stops it; the error to throw now.
fn stop_with(
    ctx: &Ctx<'_>,
    stop: &AtomicU8,
    shared: &mut Shared,
    failure: ProgramFailure,
) -> rquickjs::Error {
    let message = failure.reason.clone();
    shared.limit.get_or_insert(failure);
    let _ = stop.compare_exchange(RUNNING, LIMIT, Ordering::SeqCst, Ordering::SeqCst);
    Exception::throw_internal(ctx, &message)
}

/// Settles a nested call's promise: its value, or a `ToolCallError` with `{tool, code, message}`.
fn settle(
    ctx: &Ctx<'_>,
    shared: &SharedCell,
    call: PendingCall,
    outcome: Result<Value, (String, String)>,
) {
    let settled = (|| -> rquickjs::Result<()> {
        match outcome {
            Ok(value) => {
                let resolve = call.resolve.restore(ctx)?;
                resolve.call::<_, ()>((to_js(ctx, &value)?,))
            }
            Err((code, message)) => {
                let reject = call.reject.restore(ctx)?;
                let class = shared.borrow().error_class.clone();
                let error: JsValue<'_> = match class {
                    Some(class) => {
                        let class = class.restore(ctx)?;
                        class.construct((&*call.tool, code.as_str(), message.as_str()))?
                    }
                    None => rquickjs::String::from_str(ctx.clone(), &message)?.into_value(),
                };
                reject.call::<_, ()>((error,))
            }
        }
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
    let position = position_in(&stack, FILE, 2);
    let mut reason = format!("{name}: {message}");
    if name == "ToolCallError" {
        let code: String = object.get("code").unwrap_or_default();
        reason = format!("Uncaught ToolCallError ({code}): {message}");
    } else if parsing && name == "SyntaxError" && looks_like_typescript(program) {
        reason = typescript_reason(&reason);
    }
    ProgramFailure::program(reason, position)
}
