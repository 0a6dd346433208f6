//! [`IntoToolDefinition`]: what registering takes — a definition by value, or one already shared.

use std::sync::Arc;

use crate::call::definition::ToolDefinition;

/// Anything [`ToolRegistry::register`](crate::ToolRegistry::register) accepts: a definition by value, or one already shared.
pub trait IntoToolDefinition {
    /// The shared definition.
    fn into_definition(self) -> Arc<dyn ToolDefinition>;
}

impl<T: ToolDefinition> IntoToolDefinition for T {
    fn into_definition(self) -> Arc<dyn ToolDefinition> {
        Arc::new(self)
    }
}

impl IntoToolDefinition for Arc<dyn ToolDefinition> {
    fn into_definition(self) -> Arc<dyn ToolDefinition> {
        self
    }
}

impl IntoToolDefinition for Box<dyn ToolDefinition> {
    fn into_definition(self) -> Arc<dyn ToolDefinition> {
        Arc::from(self)
    }
}
