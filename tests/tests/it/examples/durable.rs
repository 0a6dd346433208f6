//! The call store example, run as README says: a turn crashes mid-body and a new process
//! resumes it from a SQLite file, nothing running twice.

#[test]
fn the_example_resumes_a_crashed_turn_without_running_anything_twice() {
    let stdout = dsh_tools_tests::run_example("durable", &["store-sqlite"], &[]);
    for prefix in [
        "[turn] lookup: {\"order\":\"A-17\",\"cents\":4200}",
        "[resume] lookup (replayed: true): {\"order\":\"A-17\",\"cents\":4200}",
        "[resume] charge: Error: an earlier attempt of this call started at ",
        "[operator] in doubt: idem-",
        "[operator] recorded by hand: true",
        "[resume] charge (replayed: true): {\"charged\":4200}",
    ] {
        assert!(
            stdout.lines().any(|printed| printed.starts_with(prefix)),
            "missing {prefix:?} in:\n{stdout}"
        );
    }
}
