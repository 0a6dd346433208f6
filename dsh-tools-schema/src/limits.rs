//! How far the engine follows a schema or a value: the bounds that keep a hostile schema or
//! payload from exhausting the stack or memory. A leaf: it imports nothing, so every part of the
//! engine (the typed validators, import, the keyword engine) can read it.

/// Deepest nesting the interpreter follows; a value nested deeper under a schema that nests as
/// deep is reported as too deep rather than risking the stack.
#[doc(hidden)]
pub const MAX_VALIDATION_DEPTH: usize = 256;

/// Deepest schema nesting import follows (each `$ref` hop counts as a level).
#[doc(hidden)]
pub const MAX_IMPORT_DEPTH: usize = 64;

/// Most schema nodes one import may produce after inlining `$ref`s.
#[doc(hidden)]
pub const MAX_IMPORT_NODES: usize = 100_000;
