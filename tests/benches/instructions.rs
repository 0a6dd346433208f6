//! The figures of record: every case of every suite counted in instructions (callgrind), beside
//! criterion's medians, as one table. `cargo bench -p dsh-tools-tests --bench instructions
//! [-- --wall] [filters]`; see `dsh_tools_tests::bench` for how it counts and how to add cases.

// Each suite is a file of its own that also builds alone; the ones comparing against rmcp each
// include the shared workload file (`suites/workload.rs`), so it is loaded once per suite here.
#![allow(clippy::duplicate_mod)]

#[path = "suites/args.rs"]
mod args;
#[path = "suites/arrays.rs"]
mod arrays;
#[path = "suites/code_mode.rs"]
mod code_mode;
#[path = "suites/keywords.rs"]
mod keywords;
#[path = "suites/mcp.rs"]
mod mcp;
#[path = "suites/pipeline.rs"]
mod pipeline;
#[path = "suites/providers.rs"]
mod providers;
#[path = "suites/registry.rs"]
mod registry;
#[path = "suites/tools.rs"]
mod tools;
#[path = "suites/validate.rs"]
mod validate;

fn main() {
    dsh_tools_tests::bench::table_main(&[
        args::SUITE,
        validate::SUITE,
        keywords::SUITE,
        arrays::SUITE,
        tools::SUITE,
        pipeline::SUITE,
        registry::SUITE,
        providers::SUITE,
        mcp::SUITE,
        code_mode::SUITE,
    ]);
}
