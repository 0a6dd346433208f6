//! The keywords' rules, one family of keywords per file: each file owns its keywords' JSON
//! names, reading them from JSON and writing them back, the check of a value (the violation it
//! breaks, and the cheap yes/no form the hot paths run), the check of a value still being
//! written, and any form compiled ahead. The engines hold the families' structs (or the
//! compiled forms the family files define) and call these instead of keeping a copy or a field
//! per keyword: the compiled tree (`compile.rs`, `compiled_check.rs`: `LengthRange`,
//! `Matching`, `NumberRange`, `CountRange`, `ItemRelations`), the keyword engine (`keywords/`:
//! `Lengths`, `Matching`, `NumberRules`, `ArrayConstraints`, `Counts`, read over `read.rs`'
//! `KeywordSource` as import reads them), the checks of partial values (`definite.rs`), import
//! and rendering, and the validators `#[derive(ToolArgs)]` generates, which reach the value
//! checks marked `pub` here through the runtime's `__private` (not API). The interpreter
//! (`validate.rs`) runs the families' leaves written for it (`Lengths::first_violation`,
//! `Matching::first_violation`, the counts' `size_violation`, `NumberRules::violation`: early
//! returns over the per-keyword checks, inlined whole; `ArrayConstraints::relations_hold` after
//! the items), and keeps `enum` written out over `semantics.rs`.
//!
//! Each family's struct is what the typed model carries (`StringRules::lengths`, `NumberRules`,
//! `ArrayRules::constraints`, …; public, re-exported at the crate's root), so import reads it
//! through the family (`read`, over `read.rs`' `KeywordSource`) and
//! rendering writes it through the family (`render`); the builder's methods and the steps the
//! macros lower to are written in the family file too, as `macro_rules!` text that `builder.rs`
//! and `derive.rs` expand, since they name the typed model, which names the family's struct.
//!
//! A family file knows no engine: it is handed the bounds and the value, and reports in
//! `ViolationKind`s, whose wording stays in `violation.rs` (which the
//! families import, so it cannot import them back).
//!
//! | file | owns |
//! |---|---|
//! | `lengths.rs` | `minLength`, `maxLength` |
//! | `arrays.rs` | `minItems`, `maxItems`, `uniqueItems` |
//! | `objects.rs` | `minProperties`, `maxProperties` |
//! | `numbers.rs` | `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` |
//! | `matching.rs` | `pattern`, `format` |
//! | `members.rs` | `enum`, `const` |
//! | `counts.rs` | a count's optional bounds, which `arrays.rs` and `objects.rs` share |
//! | `read.rs` | how a family reads its keywords from a schema object (import's or the keyword engine's), and reports a bad one |

pub mod arrays;
pub(crate) mod counts;
pub mod lengths;
pub mod matching;
pub mod members;
pub mod numbers;
pub mod objects;
pub(crate) mod read;
