//! What a program sees: `tools`, `console`, `ToolCallError`, and ECMAScript's own globals without
//! string evaluation (`eval` and the `Function` constructors throw) — installed into each
//! program's fresh context. And what the program's host functions share on the engine thread
//! ([`Shared`]): what it printed, the limit it reached, the calls it made that its host has not
//! taken yet, the promises of the calls the host has not answered yet.
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

use rquickjs::function::{Opt, Rest};
use rquickjs::object::Property;
use rquickjs::proxy::ProxyHandler;
use rquickjs::{
    Array, Constructor, Ctx, Exception, Function, Null, Object, Persistent, Promise, Proxy,
    Value as JsValue,
};
use serde_json::Value;

use crate::code_mode::convert::{display, to_json};
use crate::code_mode::failure::ProgramFailure;

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

/// A call the program made: `tools.<name>(arguments)`, whose promise is settled by `id`.
#[derive(Debug)]
pub(crate) struct NewCall {
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) arguments: Value,
}

/// What the program's host functions share on the engine thread.
#[derive(Default)]
pub(crate) struct Shared {
    pub(crate) output: String,
    /// A limit reached inside a host function: the program ends with it.
    pub(crate) limit: Option<ProgramFailure>,
    /// A promise was rejected with `null` while the heap was full: the engine had no room left
    /// for the error of running out of memory.
    pub(crate) out_of_memory: bool,
    calls_made: usize,
    /// Calls made since the host last took them, in the program's order.
    pub(crate) calls: Vec<NewCall>,
    /// The promises of calls the host has not answered yet.
    pub(crate) pending: PendingCalls,
    /// The program's `ToolCallError`, which rejected calls reject with.
    pub(crate) error_class: Option<Persistent<Constructor<'static>>>,
}

pub(crate) type SharedCell = Rc<RefCell<Shared>>;

/// A call the host has not answered yet: its tool, and its promise's resolving functions.
pub(crate) struct PendingCall {
    pub(crate) tool: Rc<str>,
    pub(crate) resolve: Persistent<Function<'static>>,
    pub(crate) reject: Persistent<Function<'static>>,
}

/// The calls the host has not answered yet, by id. Ids are handed out in order, so the calls
/// are a queue from the oldest unanswered id, with a hole for each call answered out of order:
/// no hashing, and nothing to grow once the program waits for its calls as it makes them.
#[derive(Default)]
pub(crate) struct PendingCalls {
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

/// What the program's host functions need: the shared state, the stop flag and the limits they
/// enforce.
pub(crate) struct HostSide {
    pub(crate) shared: SharedCell,
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

/// `tools.<name>(args)`: leaves the call for the host, returns its promise.
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
            state.calls_made += 1;
            let (promise, resolve, reject) = ctx.promise()?;
            let id = state.pending.insert(PendingCall {
                tool: Rc::clone(&name),
                resolve: Persistent::save(&ctx, resolve),
                reject: Persistent::save(&ctx, reject),
            });
            state.calls.push(NewCall {
                id,
                // Not `to_string()`, which goes through `Display` for an `Rc<str>`.
                name: String::from(&*name),
                arguments,
            });
            Ok(promise)
        },
    )
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
