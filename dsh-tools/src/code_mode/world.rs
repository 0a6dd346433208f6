//! What a program sees: `tools`, `console`, `ToolCallError`, and ECMAScript's own globals without
//! string evaluation (`eval` and the `Function` constructors throw) — installed into each
//! program's fresh context. And what the program's host functions share on the engine thread
//! ([`Shared`]): what it printed, the limit it reached, the promises of the calls the host has
//! not answered yet.
//!
//! `tools.<name>(args)` hands the call to the program's [`ProgramCalls`] there and then; a call
//! that returned a value at once has its promise resolved before `tools.<name>` returns it, the
//! others are kept, by id, for the drive loop to settle.
//!
//! Installed natively, with as little JavaScript as possible: the engine compiles the
//! JavaScript it is given on every run, and a prelude written in JavaScript cost a third of a
//! run's fixed cost. Only what needs JavaScript's own syntax is evaluated ([`SETUP`]).
//!
//! `tools` is a proxy with no `get` trap over `known`, so `tools.x` of a name the program
//! already used is an ordinary property lookup that runs no trap (a `get` trap costs a function
//! call on every `tools.x`). A name not in `known` yet falls through to `known`'s prototype,
//! `unseen`: a proxy over `known` itself whose `get` trap makes the name's function and keeps it
//! in `known`. Every way of changing `tools` throws; its keys are not listed and its prototype
//! is `null`, so it looks the same whichever tools the program used, and neither `known` nor
//! `unseen` can be reached from the program.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::task::Waker;

use rquickjs::function::{Opt, Rest};
use rquickjs::object::Property;
use rquickjs::proxy::ProxyHandler;
use rquickjs::{
    Array, Constructor, Ctx, Exception, Function, Null, Object, Persistent, Promise, Proxy,
    Value as JsValue,
};
use serde_json::Value;

use crate::code_mode::convert::{display, to_js, to_json};
use crate::code_mode::failure::ProgramFailure;
use crate::code_mode::program_calls::{CallOutcome, ProgramCalls};

/// Why the program must stop, set from either side; the interrupt handler reads it.
pub(crate) const RUNNING: u8 = 0;
pub(crate) const CANCELLED: u8 = 1;
pub(crate) const LIMIT: u8 = 2;

/// What needs JavaScript's syntax: the `ToolCallError` class, and one function of each kind
/// whose prototype's `constructor` must refuse string evaluation.
const SETUP: &str = r#"[
  class ToolCallError extends Error {
    constructor(tool, code, message) {
      super(message);
      this.name = "ToolCallError";
      this.tool = tool;
      this.code = code;
    }
  },
  async function () {},
  function* () {},
  async function* () {},
]"#;

/// Names that are never tools, so that `tools` is not taken for a promise (`then`), for JSON
/// (`toJSON`) or for a value with methods.
const NOT_TOOLS: [&str; 5] = ["then", "toJSON", "constructor", "valueOf", "toString"];

/// What the program's host functions share on the engine thread.
#[derive(Default)]
pub(crate) struct Shared {
    pub(crate) output: String,
    /// A limit reached inside a host function: the program ends with it.
    pub(crate) limit: Option<ProgramFailure>,
    /// A promise was rejected with `null` while the heap was full: the engine had no room left
    /// for the error of running out of memory.
    pub(crate) out_of_memory: bool,
    /// How many calls the program made; the next call's id.
    calls_made: usize,
    /// The promises of calls the host has not answered yet.
    pub(crate) pending: PendingCalls,
    /// Calls that failed at once, in the program's order, for the drive loop to reject.
    pub(crate) failed_at_once: Vec<(u64, CallOutcome)>,
    /// The program's `ToolCallError`, which rejected calls reject with.
    pub(crate) error_class: Option<Persistent<Constructor<'static>>>,
}

pub(crate) type SharedCell = Rc<RefCell<Shared>>;

/// The program's calls, shared between its `tools` and the drive loop. Borrowed only while no
/// JavaScript runs: settling a promise may run the program's code, which may make a call.
pub(crate) type CallsCell = Rc<RefCell<Box<dyn ProgramCalls>>>;

/// A call the host has not answered yet: its tool, and its promise's resolving functions.
pub(crate) struct PendingCall {
    pub(crate) tool: Rc<str>,
    pub(crate) resolve: Persistent<Function<'static>>,
    pub(crate) reject: Persistent<Function<'static>>,
}

/// The calls the host has not answered yet, by id. Ids are handed out in order, so the calls
/// are a queue from the oldest unanswered id, with a hole for each call answered out of order
/// (or at once, never kept): no hashing, and nothing to grow once the program waits for its
/// calls as it makes them.
#[derive(Default)]
pub(crate) struct PendingCalls {
    /// The id of `slots[0]`.
    first: u64,
    slots: VecDeque<Option<PendingCall>>,
    open: usize,
}

impl PendingCalls {
    /// Keeps `call` under `id`, above every id kept before.
    fn insert(&mut self, id: u64, call: PendingCall) {
        if self.slots.is_empty() {
            self.first = id;
        }
        // The calls between the last one kept and this one were answered at once.
        while self.first + (self.slots.len() as u64) < id {
            self.slots.push_back(None);
        }
        self.slots.push_back(Some(call));
        self.open += 1;
    }

    /// The call of `id`, if it is still open.
    pub(crate) fn remove(&mut self, id: u64) -> Option<PendingCall> {
        let index = usize::try_from(id.checked_sub(self.first)?).ok()?;
        let call = self.slots.get_mut(index)?.take()?;
        self.open -= 1;
        while let Some(None) = self.slots.front() {
            self.slots.pop_front();
            self.first += 1;
        }
        Some(call)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.open == 0
    }

    pub(crate) fn clear(&mut self) {
        self.first += self.slots.len() as u64;
        self.slots.clear();
        self.open = 0;
    }
}

/// What the program's host functions need: the shared state, the program's calls and the waker
/// of the engine's thread, the stop flag and the limits they enforce.
pub(crate) struct HostSide {
    pub(crate) shared: SharedCell,
    pub(crate) calls: CallsCell,
    pub(crate) waker: Waker,
    pub(crate) stop: Arc<AtomicU8>,
    pub(crate) max_calls: usize,
    pub(crate) max_output: usize,
}

/// Installs the program's world into `ctx`'s globals; the `ToolCallError` class.
pub(crate) fn install<'js>(
    ctx: &Ctx<'js>,
    side: &Rc<HostSide>,
) -> rquickjs::Result<Constructor<'js>> {
    let globals = ctx.globals();
    globals.set("console", console(ctx, side)?)?;

    let made: Array<'js> = ctx.eval(SETUP)?;
    let class: Constructor<'js> = made.get(0)?;
    let refuse_function = refusal(ctx, "the Function constructor")?;
    let refuse_eval = refusal(ctx, "eval")?;
    // The prototypes whose `constructor` would compile a string: `Function.prototype` and those
    // of async, generator and async generator functions. Only the value changes, as
    // `Object.defineProperty` with a bare `value` does.
    let function: Object<'js> = globals.get("Function")?;
    let mut prototypes = vec![function.get::<_, Object<'js>>("prototype")?];
    for index in 1..4 {
        let instance: Object<'js> = made.get(index)?;
        prototypes.extend(instance.get_prototype());
    }
    for prototype in prototypes {
        prototype.prop("constructor", refuse_function.clone())?;
    }
    globals.prop("Function", refuse_function)?;
    globals.prop("eval", refuse_eval)?;
    // New properties: neither writable, enumerable nor configurable.
    globals.prop("tools", tools(ctx, side)?)?;
    globals.prop("ToolCallError", class.clone())?;
    Ok(class)
}

/// A function that throws an `EvalError` saying that `what` is not available, called or
/// constructed (`new Function(..)`).
fn refusal<'js>(ctx: &Ctx<'js>, what: &'static str) -> rquickjs::Result<Function<'js>> {
    let refuse = Function::new(ctx.clone(), move |ctx: Ctx<'js>| -> rquickjs::Result<()> {
        // The global `EvalError` at the time of the call, as `throw new EvalError(..)` would.
        let class: Constructor<'js> = ctx.globals().get("EvalError")?;
        let error: JsValue<'js> =
            class.construct((format!("{what} is not available in run_code programs"),))?;
        Err(ctx.throw(error))
    })?;
    Ok(refuse.with_constructor(true))
}

/// `tools`: see the module's docs.
fn tools<'js>(ctx: &Ctx<'js>, side: &Rc<HostSide>) -> rquickjs::Result<Proxy<'js>> {
    let known = Object::new_proto(ctx.clone(), None)?;
    // Handlers without a prototype: a trap the handler lacks is not looked up on
    // `Object.prototype`, where the program could have put one.
    let unseen_handler = Object::new_proto(ctx.clone(), None)?;
    let side = Rc::clone(side);
    unseen_handler.set(
        "get",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>,
                  known: Object<'js>,
                  name: JsValue<'js>|
                  -> rquickjs::Result<JsValue<'js>> {
                let Some(name) = tool_name(&name)? else {
                    return Ok(JsValue::new_undefined(ctx));
                };
                let tool = tool_function(&ctx, Rc::clone(&side), Rc::from(name.as_str()))?;
                // Kept where the next `tools.<name>` finds it: not enumerable, not writable.
                known.prop(name.as_str(), Property::from(tool.clone()).configurable())?;
                Ok(tool.into_value())
            },
        )?,
    )?;
    let unseen = Proxy::new(
        ctx.clone(),
        known.clone(),
        ProxyHandler::from_object(unseen_handler)?,
    )?;
    known.set_prototype(Some(&unseen))?;

    let handler = Object::new_proto(ctx.clone(), None)?;
    handler.set(
        "has",
        Function::new(
            ctx.clone(),
            |_known: Object<'js>, name: JsValue<'js>| -> rquickjs::Result<bool> {
                Ok(tool_name(&name)?.is_some())
            },
        )?,
    )?;
    handler.set(
        "ownKeys",
        Function::new(ctx.clone(), |ctx: Ctx<'js>| Array::new(ctx))?,
    )?;
    handler.set(
        "getOwnPropertyDescriptor",
        Function::new(ctx.clone(), || ())?,
    )?;
    handler.set("getPrototypeOf", Function::new(ctx.clone(), || Null)?)?;
    let read_only = Function::new(ctx.clone(), |ctx: Ctx<'js>| -> rquickjs::Result<()> {
        Err(Exception::throw_type(&ctx, "tools is read-only"))
    })?;
    for trap in [
        "set",
        "defineProperty",
        "deleteProperty",
        "setPrototypeOf",
        "preventExtensions",
    ] {
        handler.set(trap, read_only.clone())?;
    }
    Proxy::new(ctx.clone(), known, ProxyHandler::from_object(handler)?)
}

/// `name` as the name of a tool: a string, and not one of [`NOT_TOOLS`].
fn tool_name(name: &JsValue<'_>) -> rquickjs::Result<Option<String>> {
    let Some(name) = name.as_string() else {
        return Ok(None);
    };
    let name = name.to_string()?;
    Ok((!NOT_TOOLS.contains(&name.as_str())).then_some(name))
}

/// `tools.<name>(args)`: hands the call to the program's calls, returns its promise — resolved
/// already if the call returned a value at once.
fn tool_function<'js>(
    ctx: &Ctx<'js>,
    side: Rc<HostSide>,
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
            let id = state.calls_made as u64;
            state.calls_made += 1;
            drop(state);
            let (promise, resolve, reject) = ctx.promise()?;
            // A call made once the program is stopping is never handed over, as none made in
            // the turn it was stopped in is: the program ends before its next turn.
            let ended = if side.stop.load(Ordering::Relaxed) == RUNNING {
                let Ok(mut calls) = side.calls.try_borrow_mut() else {
                    return Err(Exception::throw_internal(
                        &ctx,
                        "tools were called while the program's calls were busy",
                    ));
                };
                // Not `to_string()`, which goes through `Display` for an `Rc<str>`.
                calls.call(id, String::from(&*name), arguments, &side.waker)
            } else {
                None
            };
            // Resolving with an object looks up its `then`, which may run the program's code (a
            // getter it put on `Object.prototype`), and so make a call: nothing is borrowed by
            // then.
            if let Some(Ok(value)) = ended {
                settle(&ctx, &side.shared, &name, &resolve, &reject, Ok(value))?;
                return Ok(promise);
            }
            let mut state = side.shared.borrow_mut();
            state.pending.insert(
                id,
                PendingCall {
                    tool: Rc::clone(&name),
                    resolve: Persistent::save(&ctx, resolve),
                    reject: Persistent::save(&ctx, reject),
                },
            );
            // A failure is rejected after the turn, as one that ended later is: its
            // `ToolCallError` is then made outside the program's frames, so its stack, and the
            // position a run that fails with it gives, are the same however soon it ended.
            if let Some(failed) = ended {
                state.failed_at_once.push((id, failed));
            }
            Ok(promise)
        },
    )
}

/// Settles a call's promise through its resolving functions: with its value, or with a
/// `ToolCallError` of `{tool, code, message}`. Fails only if the engine is out of memory or
/// stopping.
pub(crate) fn settle<'js>(
    ctx: &Ctx<'js>,
    shared: &SharedCell,
    tool: &str,
    resolve: &Function<'js>,
    reject: &Function<'js>,
    outcome: CallOutcome,
) -> rquickjs::Result<()> {
    match outcome {
        Ok(value) => resolve.call::<_, ()>((to_js(ctx, &value)?,)),
        Err((code, message)) => {
            let class = shared.borrow().error_class.clone();
            let error: JsValue<'js> = match class {
                Some(class) => {
                    let class = class.restore(ctx)?;
                    class.construct((tool, code.as_str(), message.as_str()))?
                }
                None => rquickjs::String::from_str(ctx.clone(), &message)?.into_value(),
            };
            reject.call::<_, ()>((error,))
        }
    }
}

/// `console.log` and its kin: lines of the output, bounded.
fn console<'js>(ctx: &Ctx<'js>, side: &Rc<HostSide>) -> rquickjs::Result<Object<'js>> {
    let console = Object::new(ctx.clone())?;
    let print = {
        let side = Rc::clone(side);
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, args: Rest<JsValue<'js>>| -> rquickjs::Result<()> {
                let mut state = side.shared.borrow_mut();
                if state.limit.is_some() {
                    return Err(Exception::throw_internal(&ctx, "the program was stopped"));
                }
                drop(state);
                let line = args.0.iter().map(display).collect::<Vec<_>>().join(" ");
                state = side.shared.borrow_mut();
                let limit = side.max_output;
                if state.output.len() + line.len() + 1 > limit {
                    let failure = ProgramFailure::limit(format!(
                        "the program printed more than its output limit of {limit} bytes"
                    ));
                    return Err(stop_with(&ctx, &side.stop, &mut state, failure));
                }
                state.output.push_str(&line);
                state.output.push('\n');
                Ok(())
            },
        )?
    };
    for method in ["log", "info", "warn", "error", "debug"] {
        console.set(method, print.clone())?;
    }
    Ok(console)
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
