//! Reading JSON text while it is still being written: [`PartialJson`] takes a value's text in
//! fragments, as a provider streams a tool call's arguments, and keeps the best value of the text
//! so far, with which parts of it are finished.
//!
//! The reader never goes back over text it has read: each fragment costs what its own bytes cost
//! (a string's bytes are copied in runs, between quotes and escapes), so a whole stream costs
//! about one parse, however finely it was cut. What it reads matches `serde_json`'s grammar:
//! the same numbers, the same escapes (surrogate pairs required, as `serde_json` requires them),
//! the same nesting limit; an object that gives a key twice is an error, as it is for a call's
//! raw arguments (the runtime's `parse_arguments`).
//!
//! | file | owns |
//! |---|---|
//! | `reader.rs` | [`PartialJson`]: the grammar, one byte at a time, and the value so far |
//! | `number.rs` | where a number being written stands, and its best value |
//! | `node.rs` | [`PartialNode`]: the value so far as finished parts and open ones |
//! | `open_path.rs` | `OpenPath`: the chain of open nodes, for validating what is finished (not API: the runtime's stream reader hands it to the definite check) |
//! | `error.rs` | [`PartialJsonError`]: where and why the text stopped being JSON |

mod error;
mod node;
mod number;
mod open_path;
mod reader;

pub use self::error::PartialJsonError;
pub use self::node::{PartialArray, PartialNode, PartialObject};
#[doc(hidden)]
pub use self::open_path::{OpenLeaf, OpenPath, OpenStep};
pub use self::reader::PartialJson;
