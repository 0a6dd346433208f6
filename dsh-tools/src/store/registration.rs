//! [`Registration`]: the handle every registration returns, which disposes what it registered.

use std::fmt;
use std::sync::{Arc, Weak};

use crate::store::core::Core;
use crate::store::state::Place;

/// What a registration put into the registry.
#[derive(Clone, Debug)]
pub(crate) enum Item {
    Tool(Arc<str>),
    Hook,
    Restriction,
    Listener,
    Approver,
}

/// The handle of one registration (a tool, a hook, a guard, a restriction, a listener, the
/// approver).
///
/// **Dropping a `Registration` does not unregister anything**: the tool or hook stays in the
/// registry for as long as the registry (or its scope) lives. Only [`dispose`](Self::dispose)
/// removes it. Keep the handle to remove the registration later; discard it explicitly
/// (`let _ = registry.register(tool)?;`) to keep the registration for good.
///
/// ```
/// use dsh_tools::{FnTool, ToolRegistry};
///
/// let registry = ToolRegistry::new();
/// let echo = FnTool::builder("echo", "Echo.").handler(|_, _| async { Ok("hi") });
/// let registration = registry.register(echo).unwrap();
/// drop(registration);
/// assert!(registry.get("echo").is_some(), "dropping keeps the tool registered");
///
/// let other = FnTool::builder("other", "Other.").handler(|_, _| async { Ok("hi") });
/// let registration = registry.register(other).unwrap();
/// assert!(registration.dispose());
/// assert!(registry.get("other").is_none(), "disposing removes it");
/// ```
///
/// Disposing is idempotent and never touches a later registration that reuses the same name.
#[must_use = "dropping a Registration keeps what it registered; keep it to dispose() later, or discard it with `let _ =` to keep the registration for good"]
pub struct Registration {
    core: Weak<Core>,
    place: Place,
    id: u64,
    item: Item,
}

impl Registration {
    pub(crate) fn new(core: &Arc<Core>, place: Place, id: u64, item: Item) -> Self {
        Self {
            core: Arc::downgrade(core),
            place,
            id,
            item,
        }
    }

    /// Removes the registration; `true` if it was still there.
    pub fn dispose(&self) -> bool {
        let Some(core) = self.core.upgrade() else {
            return false;
        };
        core.dispose(&self.place, self.id, &self.item)
    }

    /// Whether the registration is still in the registry.
    pub fn is_active(&self) -> bool {
        self.core
            .upgrade()
            .is_some_and(|core| core.is_registered(&self.place, self.id, &self.item))
    }
}

impl fmt::Debug for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registration")
            .field("place", &self.place)
            .field("id", &self.id)
            .field("item", &self.item)
            .finish()
    }
}
