//! Shared helpers for the integration tests of `dsh-tools`.

pub mod golden;
pub mod json_values;
