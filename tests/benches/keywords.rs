//! Criterion run of the `keywords` suite (`suites/keywords.rs`); `-- --instructions` prints its
//! table.

#[path = "suites/keywords.rs"]
mod suite;

fn main() {
    dsh_tools_tests::bench::main(&[suite::SUITE]);
}
