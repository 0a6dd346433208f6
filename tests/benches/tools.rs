//! Criterion run of the `tools` suite (`suites/tools.rs`); `-- --instructions` prints its table.

#[path = "suites/tools.rs"]
mod suite;

fn main() {
    dsh_tools_tests::bench::main(&[suite::SUITE]);
}
