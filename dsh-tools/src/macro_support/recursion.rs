//! Refusing recursive argument types while their schema is built.
//!
//! A type that contains itself (directly, which the derive rejects at compile time, or through
//! other types) would need `$ref` in its schema, which many clients and providers cannot resolve.
//! Building such a schema would recurse forever; this guard notices the type re-entering its own
//! construction and turns it into an `UNSUPPORTED_SCHEMA` error at registration instead.

use std::cell::RefCell;

use crate::schema::SchemaError;

thread_local! {
    /// The types whose schema is being built on this thread, outermost first.
    static BUILDING: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

/// Marks `type_name` as being built until dropped.
#[derive(Debug)]
pub struct SchemaGuard {
    _private: (),
}

impl SchemaGuard {
    /// Enters the construction of `type_name`'s schema, or fails when it is already under way
    /// (the type contains itself).
    pub fn enter(type_name: &'static str) -> Result<Self, SchemaError> {
        BUILDING.with(|building| {
            let mut building = building.borrow_mut();
            if let Some(start) = building.iter().position(|name| *name == type_name) {
                let mut cycle: Vec<&str> = building[start..].to_vec();
                cycle.push(type_name);
                return Err(SchemaError::single(format!(
                    "`{type_name}` is recursive ({}): recursive argument types are not supported, \
                     since their schema would need `$ref`, which many providers cannot resolve",
                    cycle.join(" -> ")
                )));
            }
            building.push(type_name);
            Ok(Self { _private: () })
        })
    }
}

impl Drop for SchemaGuard {
    fn drop(&mut self) {
        BUILDING.with(|building| {
            building.borrow_mut().pop();
        });
    }
}
