//! Criterion run of the `code_mode` suite (`suites/code_mode.rs`); `-- --instructions` prints its
//! table.

#[path = "suites/code_mode.rs"]
mod suite;

fn main() {
    dsh_tools_tests::bench::main(&[suite::SUITE]);
}
