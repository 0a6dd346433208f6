//! Criterion run of the `providers` suite (`suites/providers.rs`); `-- --instructions` prints its
//! table.

#[path = "suites/providers.rs"]
mod suite;

fn main() {
    dsh_tools_tests::bench::main(&[suite::SUITE]);
}
