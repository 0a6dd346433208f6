//! Criterion run of the `pipeline` suite (`suites/pipeline.rs`); `-- --instructions` prints its
//! table.

#[path = "suites/pipeline.rs"]
mod suite;

fn main() {
    dsh_tools_tests::bench::main(&[suite::SUITE]);
}
