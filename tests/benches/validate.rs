//! Criterion run of the `validate` suite (`suites/validate.rs`); `-- --instructions` prints its
//! table.

#[path = "suites/validate.rs"]
mod suite;

fn main() {
    dsh_tools_tests::bench::main(&[suite::SUITE]);
}
