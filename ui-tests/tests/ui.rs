//! Compile-fail cases (one mistake each, `.stderr` beside them) of the macros and of the
//! runtime's compile-time guidance (`#[must_use]` messages), and must-compile cases of the
//! macros. Regenerate expectations with `TRYBUILD=overwrite cargo test -p dsh-tools-ui-tests` and
//! read the diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/tool/*.rs");
    cases.compile_fail("tests/ui/args/*.rs");
    cases.compile_fail("tests/ui/runtime/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
