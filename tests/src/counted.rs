//! [`Counted`]: a string argument that counts how it was converted, by value or by reference, so
//! a test can tell whether a call handed its arguments over (only the short path does).
//!
//! The counters are process-wide and every test runs in one process: a test reading them holds
//! [`counting`] from its first reading to its last, so no other test's conversions land between.

use std::sync::atomic::{AtomicUsize, Ordering};

use dsh_tools::errors::ConvertError;
use dsh_tools::schema::{Schema, SchemaError};
use dsh_tools::{ToolArgs, Value};

/// How often a [`Counted`] was converted from a borrowed value (in this process).
pub static BY_REFERENCE: AtomicUsize = AtomicUsize::new(0);
/// How often a [`Counted`] was converted from an owned value (in this process).
pub static BY_VALUE: AtomicUsize = AtomicUsize::new(0);

/// The counters for one test at a time: hold the guard while converting and reading.
pub async fn counting() -> tokio::sync::MutexGuard<'static, ()> {
    static COUNTING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    COUNTING.lock().await
}

/// A string argument that counts how it was converted.
#[derive(Debug)]
pub struct Counted(pub String);

impl ToolArgs for Counted {
    fn schema() -> Result<Schema, SchemaError> {
        String::schema()
    }
    fn is_valid_json(value: &Value) -> bool {
        value.is_string()
    }
    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        BY_REFERENCE.fetch_add(1, Ordering::SeqCst);
        String::from_json(value).map(Counted)
    }
    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        BY_VALUE.fetch_add(1, Ordering::SeqCst);
        String::from_json_owned(value).map(Counted)
    }
}
