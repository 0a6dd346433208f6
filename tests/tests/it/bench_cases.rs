//! Every bench case runs and every suite is well formed (baselines exist, routines measure
//! something), so the figures of record cannot rot unnoticed between bench runs. A few iterations
//! each, natively; timing them is the benches' business, not this test's.

// Each suite is a file of its own that also builds alone; the ones comparing against rmcp each
// include the shared workload file (`suites/workload.rs`), so it is loaded once per suite here.
#![allow(clippy::duplicate_mod)]

#[path = "../../benches/suites/args.rs"]
mod args;
#[path = "../../benches/suites/arrays.rs"]
mod arrays;
#[path = "../../benches/suites/code_mode.rs"]
mod code_mode;
#[path = "../../benches/suites/keywords.rs"]
mod keywords;
#[path = "../../benches/suites/mcp.rs"]
mod mcp;
#[path = "../../benches/suites/pipeline.rs"]
mod pipeline;
#[path = "../../benches/suites/providers.rs"]
mod providers;
#[path = "../../benches/suites/registry.rs"]
mod registry;
#[path = "../../benches/suites/tools.rs"]
mod tools;
#[path = "../../benches/suites/validate.rs"]
mod validate;

use dsh_tools_tests::bench::SuiteDef;

fn runs(def: SuiteDef) {
    let mut suite = (def.build)();
    assert_eq!(suite.name(), def.name);
    assert!(!suite.case_ids().is_empty(), "suite {} has cases", def.name);
    if let Err(message) = suite.smoke(2) {
        panic!("{message}");
    }
}

#[test]
fn every_args_case_runs() {
    runs(args::SUITE);
}

#[test]
fn every_validate_case_runs() {
    runs(validate::SUITE);
}

#[test]
fn every_keywords_case_runs() {
    runs(keywords::SUITE);
}

#[test]
fn every_arrays_case_runs() {
    runs(arrays::SUITE);
}

#[test]
fn every_tools_case_runs() {
    runs(tools::SUITE);
}

#[test]
fn every_pipeline_case_runs() {
    runs(pipeline::SUITE);
}

#[test]
fn every_registry_case_runs() {
    runs(registry::SUITE);
}

#[test]
fn every_providers_case_runs() {
    runs(providers::SUITE);
}

#[test]
fn every_mcp_case_runs() {
    runs(mcp::SUITE);
}

#[test]
fn every_code_mode_case_runs() {
    runs(code_mode::SUITE);
}
