//! The hook contracts: what a policy hook is and what it decides — `pre-execute` listeners
//! ([`PreToolDecision`], [`PreExecuteNext`]), the [`Approver`] for `ask`, `execute` layers
//! ([`ExecuteLayer`], [`Next`]), `post-execute` listeners ([`PostToolDecision`],
//! [`PostExecuteNext`]), result observers ([`ObserverReturn`]) and [`CallObserver`]s. They are
//! registered on a [`ToolRegistry`](crate::ToolRegistry) or a [`ToolScope`](crate::ToolScope).
//!
//! # Layer
//!
//! Above the call (hooks see the frozen execution), below the registry's store (which keeps the
//! hooks) and the pipeline (which runs them). This layer says what each hook kind receives and
//! returns; running the waterfalls in order is the pipeline's business.

pub(crate) mod approval;
pub(crate) mod call_observer;
pub(crate) mod chain;
pub(crate) mod guard;
pub(crate) mod observer;
pub(crate) mod post_execute;
pub(crate) mod pre_execute;
pub(crate) mod wrapper;

pub use self::approval::{ApprovalOutcome, ApprovalRequest, Approver, ApproverFn, approver_fn};
pub use self::call_observer::{CallObserver, ObservedCall};
pub use self::observer::ObserverReturn;
pub use self::post_execute::{PostExecuteNext, PostToolDecision};
pub use self::pre_execute::{PreExecuteNext, PreToolDecision};
pub use self::wrapper::{DispatchRequest, ExecuteLayer, LayerFn, LayerResult, Next, layer_fn};
