//! Procedural macros of `dsh-tools`. Use them through the `dsh-tools` crate, which re-exports them.
