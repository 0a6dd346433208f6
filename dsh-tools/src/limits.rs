//! [`CallLimits`]: the bounds a registry puts on every call by default — time budgets and the
//! size of what the model is shown — and the cell the registry keeps them in.
//!
//! Both bounds are on unless turned off, because a user who declared a budget expects it held and
//! a model's context cannot afford an unbounded result:
//! - **Timeouts.** Each definition's [`timeout_ms`](crate::call::ToolOptions::timeout_ms) is enforced
//!   at dispatch, inside every `execute` layer: the body's token is cancelled at the deadline,
//!   then after [`timeout_grace`](CallLimits::timeout_grace) the body's future is dropped and the
//!   call fails with `TOOL_TIMEOUT`. A tool that declares no budget runs unbounded unless a
//!   [`default_timeout_ms`](CallLimits::default_timeout_ms) is set.
//! - **Result budget.** The text of every result's content is cut to
//!   [`max_result_chars`](CallLimits::max_result_chars) characters (unless the tool declares its
//!   own budget), with a marker saying how much was cut; the canonical value stays whole.
//!
//! The registry reads its limits when a call dispatches (timeouts) and finishes (result budget),
//! from atomics: reading them costs a call nothing measurable and never contends.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// The bounds every call of a registry runs under; set them with
/// [`ToolRegistry::set_limits`](crate::ToolRegistry::set_limits). A plain options value: set
/// the fields that differ from the defaults and take the rest from [`CallLimits::default`].
///
/// ```
/// use std::time::Duration;
/// use dsh_tools::{ToolRegistry, policy::CallLimits};
///
/// let registry = ToolRegistry::new();
/// registry.set_limits(CallLimits {
///     timeout_grace: Duration::from_millis(200),
///     default_timeout_ms: Some(30_000),
///     max_result_chars: Some(20_000),
///     ..CallLimits::default()
/// });
/// assert_eq!(registry.limits().default_timeout_ms, Some(30_000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallLimits {
    /// Whether declared budgets are enforced; `true` by default. `false` makes them advisory,
    /// the registry's default and each tool's own alike: install a
    /// [`TimeoutPolicy`](crate::policy::TimeoutPolicy) layer to enforce a budget of your own.
    pub enforce_timeouts: bool,
    /// How long a body may run on after its deadline cancelled its token; after that its future
    /// is dropped and the call fails with `TOOL_TIMEOUT`. Zero drops it at the deadline; one
    /// second by default. A tool's own [`timeout_grace`](crate::call::ToolOptions::timeout_grace)
    /// replaces it for its calls.
    pub timeout_grace: Duration,
    /// The budget in milliseconds of a tool that declares none (a declared budget always wins);
    /// `None` (the default) lets such a tool run unbounded. `Some(0)` is as `None`.
    pub default_timeout_ms: Option<u64>,
    /// How many characters of text a result shows the model when its tool declares no budget
    /// of its own ([`ToolOptions::max_result_chars`](crate::call::ToolOptions::max_result_chars));
    /// longer content is cut with a marker saying how much was cut, the value stays whole.
    /// `Some(50_000)` by default; `None` shows results whole.
    pub max_result_chars: Option<usize>,
}

impl CallLimits {
    /// How long a body may keep running after its deadline cancelled its token, before its future
    /// is dropped, unless changed.
    pub(crate) const DEFAULT_TIMEOUT_GRACE: Duration = Duration::from_secs(1);

    /// How many characters of text a result shows the model, unless changed: about 12,000 tokens,
    /// which a model context can afford per result while a runaway result cannot crowd out the
    /// conversation.
    const DEFAULT_MAX_RESULT_CHARS: usize = 50_000;

    /// The defaults (also [`Default`]): declared budgets enforced with a grace of one second,
    /// no budget for tools that declare none, results cut at 50,000 characters (about 12,000
    /// tokens, which a model context can afford per result while a runaway result cannot crowd
    /// out the conversation).
    pub(crate) const fn new() -> Self {
        Self {
            enforce_timeouts: true,
            timeout_grace: Self::DEFAULT_TIMEOUT_GRACE,
            default_timeout_ms: None,
            max_result_chars: Some(Self::DEFAULT_MAX_RESULT_CHARS),
        }
    }
}

impl Default for CallLimits {
    fn default() -> Self {
        Self::new()
    }
}

/// Where a registry keeps its [`CallLimits`]: one atomic per field, so the pipeline reads a field
/// without locking. A call that reads while the limits change may see some fields of each.
#[derive(Debug)]
pub(crate) struct LimitsCell {
    enforce_timeouts: AtomicBool,
    /// Nanoseconds, saturated at `u64::MAX` (five centuries).
    timeout_grace_ns: AtomicU64,
    /// `0` for none.
    default_timeout_ms: AtomicU64,
    /// `usize::MAX` for none.
    max_result_chars: AtomicUsize,
}

impl LimitsCell {
    pub(crate) fn new(limits: CallLimits) -> Self {
        let cell = Self {
            enforce_timeouts: AtomicBool::new(true),
            timeout_grace_ns: AtomicU64::new(0),
            default_timeout_ms: AtomicU64::new(0),
            max_result_chars: AtomicUsize::new(usize::MAX),
        };
        cell.set(limits);
        cell
    }

    pub(crate) fn set(&self, limits: CallLimits) {
        let grace_ns = u64::try_from(limits.timeout_grace.as_nanos()).unwrap_or(u64::MAX);
        self.enforce_timeouts
            .store(limits.enforce_timeouts, Ordering::Relaxed);
        self.timeout_grace_ns.store(grace_ns, Ordering::Relaxed);
        self.default_timeout_ms
            .store(limits.default_timeout_ms.unwrap_or(0), Ordering::Relaxed);
        self.max_result_chars.store(
            limits.max_result_chars.unwrap_or(usize::MAX),
            Ordering::Relaxed,
        );
    }

    pub(crate) fn get(&self) -> CallLimits {
        let default_timeout_ms = self.default_timeout_ms.load(Ordering::Relaxed);
        let max_result_chars = self.max_result_chars.load(Ordering::Relaxed);
        CallLimits {
            enforce_timeouts: self.enforce_timeouts.load(Ordering::Relaxed),
            timeout_grace: self.timeout_grace(),
            default_timeout_ms: (default_timeout_ms != 0).then_some(default_timeout_ms),
            max_result_chars: (max_result_chars != usize::MAX).then_some(max_result_chars),
        }
    }

    /// The budget a call of a tool declaring `declared` runs under, if any is enforced.
    #[inline]
    pub(crate) fn enforced_budget(&self, declared: Option<u64>) -> Option<u64> {
        if !self.enforce_timeouts.load(Ordering::Relaxed) {
            return None;
        }
        declared.or_else(|| match self.default_timeout_ms.load(Ordering::Relaxed) {
            0 => None,
            budget => Some(budget),
        })
    }

    /// The grace after a deadline.
    #[inline]
    pub(crate) fn timeout_grace(&self) -> Duration {
        Duration::from_nanos(self.timeout_grace_ns.load(Ordering::Relaxed))
    }

    /// The result budget of a tool declaring `declared`; `usize::MAX` for none.
    #[inline]
    pub(crate) fn result_budget(&self, declared: Option<usize>) -> usize {
        declared.unwrap_or_else(|| self.max_result_chars.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cell_gives_back_what_was_set() {
        let limits = CallLimits {
            timeout_grace: Duration::from_millis(250),
            default_timeout_ms: Some(5_000),
            max_result_chars: Some(1_234),
            ..CallLimits::new()
        };
        assert_eq!(LimitsCell::new(limits).get(), limits);
        let off = CallLimits {
            max_result_chars: None,
            enforce_timeouts: false,
            ..CallLimits::new()
        };
        assert_eq!(LimitsCell::new(off).get(), off);
        assert_eq!(LimitsCell::new(CallLimits::new()).get(), CallLimits::new());
    }

    #[test]
    fn a_declared_budget_wins_and_opting_out_turns_all_off() {
        let with_default = CallLimits {
            default_timeout_ms: Some(900),
            ..CallLimits::new()
        };
        let cell = LimitsCell::new(with_default);
        assert_eq!(cell.enforced_budget(Some(100)), Some(100));
        assert_eq!(cell.enforced_budget(None), Some(900));
        cell.set(CallLimits::new());
        assert_eq!(cell.enforced_budget(None), None);
        cell.set(CallLimits {
            enforce_timeouts: false,
            ..with_default
        });
        assert_eq!(cell.enforced_budget(Some(100)), None);
    }
}
