//! Criterion run of the `args` suite (`suites/args.rs`); `-- --instructions` prints its table.

#[path = "suites/args.rs"]
mod suite;

fn main() {
    dsh_tools_tests::bench::main(&[suite::SUITE]);
}
