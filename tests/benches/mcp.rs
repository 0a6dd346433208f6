//! Criterion run of the `mcp` suite (`suites/mcp.rs`); `-- --instructions` prints its table.

#[path = "suites/mcp.rs"]
mod suite;

fn main() {
    dsh_tools_tests::bench::main(&[suite::SUITE]);
}
