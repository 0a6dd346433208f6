//! Compile-fail and must-compile cases of the `dsh-tools` macros live under `tests/`.
