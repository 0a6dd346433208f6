//! What registering takes: [`IntoToolDefinition`] — one definition, by value or already shared —
//! and [`IntoToolDefinitions`] — several at once, for `register_all`: any iterator of one type, or
//! a tuple of tools of different types.
//!
//! The two forms of `IntoToolDefinitions` are told apart by a marker type parameter
//! ([`ViaIterator`], [`ViaTuple`]) that the compiler infers from the argument and nobody names.
//! Without it the impls would overlap: the standard library may one day make tuples iterable, so
//! an impl for every `IntoIterator` and one for tuples cannot both exist.

use std::sync::Arc;

use crate::call::definition::ToolDefinition;

/// Anything [`register`](crate::ToolScope::register) accepts: a definition by value, or one
/// already shared.
pub trait IntoToolDefinition {
    /// The shared definition. What `register` calls: the trait is a bound, not API to call.
    #[doc(hidden)]
    fn into_definition(self) -> Arc<dyn ToolDefinition>;
}

impl<T: ToolDefinition> IntoToolDefinition for T {
    fn into_definition(self) -> Arc<dyn ToolDefinition> {
        self.into_shared_definition()
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

/// Several tools for [`register_all`](crate::ToolScope::register_all) (on the registry or a
/// scope), in the order given:
///
/// - any iterator (an array, a `Vec`, an iterator adapter) of one [`IntoToolDefinition`] type;
/// - a tuple of up to twelve tools of different types, each an [`IntoToolDefinition`], so that
///   `#[tool]`s, [`FnTool`](crate::FnTool)s and hand-written definitions go in together without
///   boxing or casting them.
///
/// `Marker` is [`ViaIterator`] or [`ViaTuple`]; the compiler picks it from the argument.
///
/// ```
/// use dsh_tools::{FnTool, ToolRegistry, tool};
///
/// /// Greets someone by name.
/// #[tool]
/// async fn greet(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// let ping = FnTool::builder("ping", "Answers pong.").handler(|_, _| async { Ok("pong") });
/// let registry = ToolRegistry::new();
/// // Different types: a tuple.
/// let handles = registry.register_all((GreetTool, ping)).unwrap();
/// assert_eq!(handles.len(), 2);
/// // One type: an array, a `Vec` or any iterator.
/// let more = (1..=3).map(|n| FnTool::builder(format!("tool_{n}"), "").handler(|_, _| async { Ok(()) }));
/// assert_eq!(registry.register_all(more).unwrap().len(), 3);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a set of tools to register",
    label = "pass tools of one type as an array, a `Vec` or an iterator, or tools of different types as a tuple",
    note = "each tool is a `ToolDefinition` (a `#[tool]`'s struct, an `FnTool`, …), an `Arc<dyn ToolDefinition>` or a `Box<dyn ToolDefinition>`"
)]
pub trait IntoToolDefinitions<Marker> {
    /// The shared definitions, in order. What `register_all` calls: the trait is a bound, not
    /// API to call.
    #[doc(hidden)]
    fn into_definitions(self) -> Vec<Arc<dyn ToolDefinition>>;
}

/// The [`IntoToolDefinitions`] marker of an iterator of tools of one type. Inferred, never
/// written: not API.
#[doc(hidden)]
#[derive(Debug)]
pub enum ViaIterator {}

/// The [`IntoToolDefinitions`] marker of a tuple of tools. Inferred, never written: not API.
#[doc(hidden)]
#[derive(Debug)]
pub enum ViaTuple {}

impl<I> IntoToolDefinitions<ViaIterator> for I
where
    I: IntoIterator,
    I::Item: IntoToolDefinition,
{
    fn into_definitions(self) -> Vec<Arc<dyn ToolDefinition>> {
        self.into_iter()
            .map(IntoToolDefinition::into_definition)
            .collect()
    }
}

/// `IntoToolDefinitions` for the tuple of the given element type parameters.
macro_rules! tuple_of_tools {
    ($($tool:ident),+) => {
        impl<$($tool: IntoToolDefinition),+> IntoToolDefinitions<ViaTuple> for ($($tool,)+) {
            #[allow(non_snake_case)] // the elements are named for their type parameters
            fn into_definitions(self) -> Vec<Arc<dyn ToolDefinition>> {
                let ($($tool,)+) = self;
                vec![$($tool.into_definition()),+]
            }
        }
    };
}

tuple_of_tools!(A);
tuple_of_tools!(A, B);
tuple_of_tools!(A, B, C);
tuple_of_tools!(A, B, C, D);
tuple_of_tools!(A, B, C, D, E);
tuple_of_tools!(A, B, C, D, E, F);
tuple_of_tools!(A, B, C, D, E, F, G);
tuple_of_tools!(A, B, C, D, E, F, G, H);
tuple_of_tools!(A, B, C, D, E, F, G, H, I);
tuple_of_tools!(A, B, C, D, E, F, G, H, I, J);
tuple_of_tools!(A, B, C, D, E, F, G, H, I, J, K);
tuple_of_tools!(A, B, C, D, E, F, G, H, I, J, K, L);
