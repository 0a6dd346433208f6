//! The keyword engine: JSON Schema 2020-12 whole, for the schemas the typed model does not
//! describe (`allOf`, `not`, `if`/`then`/`else`, `unevaluatedProperties`, `$dynamicRef`,
//! keywords without `type`, boolean schemas, …).
//!
//! A [`KeywordSchema`] is a document compiled once: its schemas as nodes of one arena with their
//! references resolved (`$ref`, `$dynamicRef`, `$anchor`, `$id`-relative URIs, and remote
//! documents through [`SchemaImportOptions`]). It is a [`SchemaKind::Keywords`](super::SchemaKind)
//! node of the model: rendered as written, validated by the same walk whether a [`Schema`] or a
//! [`CompiledSchema`](super::CompiledSchema) holds it, reporting in the project's wording.
//!
//! | file | owns |
//! |---|---|
//! | `node.rs` | the compiled form: nodes, their keywords, resources |
//! | `options.rs` | [`SchemaImportOptions`]: the documents remote references name, and whether `format` asserts |
//! | `compile.rs` | documents scanned for resources and anchors, and compiled |
//! | `dynamic_refs.rs` | the `$dynamicRef`s that resolve to one target whatever the scope |
//! | `simplify.rs` | keywords that hold for every value dropped, each node's kind chosen |
//! | `scope.rs` | one evaluation's state: the document and the dynamic scope |
//! | `valid.rs` | the yes/no walk, and the value checks both walks share |
//! | `evaluate.rs` | the report walk: every problem, the closest branch of a union |
//! | `marks.rs` | the properties and items evaluated, for `unevaluated*` |
//! | `uri.rs` | URI references resolved against their base |
//!
//! [`Schema`]: super::Schema

mod compile;
mod dynamic_refs;
mod evaluate;
mod marks;
mod node;
mod options;
mod scope;
mod simplify;
mod uri;
mod valid;

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::error::SchemaError;
use super::violation::ValidationContext;
use evaluate::Report;
use node::Arena;
pub use options::SchemaImportOptions;
use scope::{DynamicScope, Evaluator};
use valid::holds_alone;

pub(crate) use uri::decode_fragment;

/// A JSON Schema 2020-12 document outside the typed subset, compiled: kept as written (what the
/// model is shown) and enforced keyword by keyword. Cloning shares the compiled form.
#[doc(hidden)]
#[derive(Clone)]
pub struct KeywordSchema {
    inner: Arc<Compiled>,
}

struct Compiled {
    source: Value,
    arena: Arena,
}

impl KeywordSchema {
    /// Compiles `schema` with the default [`SchemaImportOptions`] (remote references refused).
    #[doc(hidden)]
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        Self::with_options(schema, &SchemaImportOptions::default())
    }

    /// Compiles `schema` as `options` say (users import with options through
    /// [`Schema::from_json_schema_with`](crate::Schema::from_json_schema_with)).
    pub(crate) fn with_options(
        schema: &Value,
        options: &SchemaImportOptions,
    ) -> Result<Self, SchemaError> {
        let arena = compile::Compiler::new(options).compile(schema)?;
        Ok(Self {
            inner: Arc::new(Compiled {
                source: schema.clone(),
                arena,
            }),
        })
    }

    /// The schema as written.
    #[doc(hidden)]
    pub fn as_json(&self) -> &Value {
        &self.inner.source
    }

    /// Whether the document has a `$ref` or `$dynamicRef` (its values can nest without limit).
    pub(crate) fn has_references(&self) -> bool {
        self.inner.arena.references
    }

    /// Whether `value` matches.
    #[doc(hidden)]
    pub fn is_valid(&self, value: &Value) -> bool {
        self.check(value, 0)
    }

    /// Whether `value` matches, starting at `depth` levels down (for the depth cap). Never
    /// inlined: the typed validators' walks call it from their hot loops, which would carry the
    /// evaluator's frame on every node.
    #[inline(never)]
    pub(crate) fn check(&self, value: &Value, depth: usize) -> bool {
        let arena = &self.inner.arena;
        let root = &arena.nodes[arena.root as usize];
        if root.reads_value_alone() {
            // No evaluator: no depth, marks or scope.
            holds_alone(root, value)
        } else {
            walk(arena, value, depth)
        }
    }

    /// Reports every violation of `value` into `cx`; `true` when there was none.
    #[inline(never)]
    pub(crate) fn report<'v>(&self, value: &'v Value, cx: &mut ValidationContext<'v>) -> bool {
        let arena = &self.inner.arena;
        let mut scope = DynamicScope::default();
        let scope = arena.dynamic.then_some(&mut scope);
        Evaluator::new(arena, scope).evaluate(arena.root, value, &mut Report(cx))
    }
}

/// Whether `value` matches the document's root, `depth` levels down.
#[inline(always)]
fn walk(arena: &Arena, value: &Value, depth: usize) -> bool {
    if arena.dynamic {
        walk_in_scope(arena, value, depth)
    } else {
        Evaluator::new(arena, None).valid(arena.root, value, depth, None)
    }
}

/// [`walk`] for a document whose `$dynamicRef`s read the dynamic scope.
#[inline(never)]
fn walk_in_scope(arena: &Arena, value: &Value, depth: usize) -> bool {
    let mut scope = DynamicScope::default();
    Evaluator::new(arena, Some(&mut scope)).valid(arena.root, value, depth, None)
}

impl PartialEq for KeywordSchema {
    /// Equal when written alike.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner) || self.inner.source == other.inner.source
    }
}

impl fmt::Debug for KeywordSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("KeywordSchema")
            .field(&self.inner.source)
            .finish()
    }
}
