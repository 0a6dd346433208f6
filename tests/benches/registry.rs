//! Criterion run of the `registry` suite (`suites/registry.rs`); `-- --instructions` prints its
//! table.

#[path = "suites/registry.rs"]
mod suite;

fn main() {
    dsh_tools_tests::bench::main(&[suite::SUITE]);
}
