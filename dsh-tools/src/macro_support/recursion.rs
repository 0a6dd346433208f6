//! Recursive argument types: a type whose schema is being built and is met again inside its own
//! construction (directly, `children: Vec<Outline>` in `Outline`, or through other types) is a
//! [`Schema::reference`] there, and its schema becomes a [`Schema::definition`] that the
//! reference refers back to (published as `$defs` and `$ref`).

use std::cell::RefCell;

use dsh_tools_schema::{Schema, SchemaError};

/// A type whose schema is being built on this thread, and whether it was met inside itself.
struct Building {
    type_name: &'static str,
    referenced: bool,
}

thread_local! {
    /// The types whose schema is being built on this thread, outermost first.
    static BUILDING: RefCell<Vec<Building>> = const { RefCell::new(Vec::new()) };
}

/// The schema of the type `type_name` (its `std::any::type_name`, which names generic
/// arguments too), built by `build`: a reference when the type is already being built further
/// out, a definition when `build` met the type inside itself, else what `build` returns.
///
/// `build` is a function pointer (the generated closures capture nothing), so that this is
/// compiled once, not once per argument type.
pub fn type_schema(
    type_name: &'static str,
    build: fn() -> Result<Schema, SchemaError>,
) -> Result<Schema, SchemaError> {
    let reentered = BUILDING.with(|building| {
        let mut building = building.borrow_mut();
        match building.iter_mut().find(|open| open.type_name == type_name) {
            Some(open) => {
                open.referenced = true;
                true
            }
            None => {
                building.push(Building {
                    type_name,
                    referenced: false,
                });
                false
            }
        }
    });
    if reentered {
        return Ok(Schema::reference(type_name));
    }
    // Popped on every way out of `build`, a panic included.
    let entry = Entry;
    let built = build();
    let referenced = entry.close();
    let schema = built?;
    Ok(if referenced {
        Schema::definition(type_name, schema)
    } else {
        schema
    })
}

/// The innermost type being built, popped when dropped.
struct Entry;

impl Entry {
    /// Pops the entry; whether the type was met inside itself.
    fn close(self) -> bool {
        std::mem::forget(self);
        pop()
    }
}

impl Drop for Entry {
    fn drop(&mut self) {
        pop();
    }
}

fn pop() -> bool {
    BUILDING.with(|building| {
        building
            .borrow_mut()
            .pop()
            .is_some_and(|open| open.referenced)
    })
}
