//! Criterion run of the `arrays` suite (`suites/arrays.rs`); `-- --instructions` prints its
//! table.

#[path = "suites/arrays.rs"]
mod suite;

fn main() {
    dsh_tools_tests::bench::main(&[suite::SUITE]);
}
