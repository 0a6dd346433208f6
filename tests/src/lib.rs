//! Shared helpers for the integration tests of `dsh-tools`.
