//! The bench harness: each case is defined once — an id, what it measures, its baseline, its
//! targets and one routine — and measured two ways, by criterion (wall-clock medians) and by
//! callgrind (instruction counts, the figures of record: deterministic where wall time on a
//! shared machine swings by tens of percent).
//!
//! # Running it
//! - `cargo bench -p dsh-tools-tests --bench instructions` counts every case of every suite under
//!   callgrind and prints the table: per case its instructions per unit, its ratio to its
//!   baseline, its targets (met or missed), and criterion's median where a criterion run left
//!   one. `-- --wall` runs criterion on the same cases first, so both columns come from one run;
//!   further arguments select cases by substring of `suite/case` (a selected case's baseline is
//!   always measured too): `-- --wall pipeline tools/`.
//! - `cargo bench -p dsh-tools-tests --bench <suite>` is the plain criterion run of one suite
//!   (criterion's own arguments apply); `-- --instructions` prints that suite's table instead.
//! - `DSH_BENCH_CASE=<suite>/<case> DSH_BENCH_ITERATIONS=<n> <bench binary>` runs one case `n`
//!   times and exits, for any profiler (`perf`, `valgrind --tool=callgrind
//!   --toggle-collect='*measured_section*'`). The table's profiles stay in
//!   `target/callgrind/<suite>.<case>.<n>.out` for `callgrind_annotate`.
//!
//! # How a case is counted
//! The binary runs itself under `valgrind --tool=callgrind` twice, at `n` and `2n` iterations
//! ([`Case::profile_iterations`]), collecting only inside [`Meter::measure`]; the difference of
//! the totals over `n` is the cost of one iteration, so process start, suite setup and warm-up
//! cancel out. What a routine prepares outside `Meter::measure` (inputs a call consumes, a
//! registry to fill) is neither timed nor counted, exactly as criterion sees it.
//!
//! # Adding cases
//! A case goes into its suite's list in `tests/benches/suites/<suite>.rs`, and nowhere else:
//! `Case::iter(id, what, || op())` (or `Case::batched` with an input per iteration,
//! `Case::custom` for async and bulk work, `Case::with_fixture` when its setup is heavy: suites
//! are built whole for every count, cases' fixtures only when they run), `.vs(baseline_id)` to compare it with another case of
//! the suite (again for a second baseline: ratio targets hold against the first), `.target(Target::Ratio(0.8))` (or `Instructions`, `Wall`, `Note`), `.per(n, "tool")`
//! when one iteration does `n` units of work. A new suite (as `providers` and `mcp` are) is a
//! file `tests/benches/suites/<suite>.rs` with `pub(crate) const SUITE: SuiteDef`, a three-line
//! `tests/benches/<suite>.rs` calling [`main`], a `[[bench]]` entry in `tests/Cargo.toml`, and one
//! line in `tests/benches/instructions.rs` (and one in `tests/tests/it/bench_cases.rs`, which runs
//! every case natively).

mod callgrind;
mod case;
mod table;
mod wall;

use std::path::Path;
use std::time::Instant;

use criterion::Criterion;

pub use self::case::{
    ASYNC_BATCH, Case, DEFAULT_PROFILE_ITERATIONS, Meter, Routine, SYNC_BATCH, Suite, Target, Unit,
    in_batches,
};
use self::table::Row;

/// A suite by name, built only when needed (a profile run builds just the suite it counts).
#[derive(Clone, Copy)]
pub struct SuiteDef {
    /// The suite's name; the built suite must have the same.
    pub name: &'static str,
    /// Builds the suite and its cases.
    pub build: fn() -> Suite,
}

impl SuiteDef {
    /// A suite named `name`, built by `build`.
    pub const fn new(name: &'static str, build: fn() -> Suite) -> Self {
        Self { name, build }
    }

    fn suite(&self) -> Suite {
        let suite = (self.build)();
        assert_eq!(
            suite.name, self.name,
            "suite {:?} is built as {:?}",
            self.name, suite.name
        );
        suite
    }
}

/// The `main` of one suite's bench binary: criterion by default (with criterion's own
/// arguments), the instruction table with `--instructions`.
pub fn main(suites: &[SuiteDef]) {
    if profile_requested(suites) {
        return;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|arg| arg == "--instructions") {
        exit_on_error(table(suites, &args));
        return;
    }
    let mut criterion = Criterion::default().configure_from_args();
    for def in suites {
        let mut suite = def.suite();
        exit_on_error(suite.check());
        wall::run(&mut criterion, &mut suite, &|_| true);
    }
    criterion.final_summary();
}

/// The `main` of the `instructions` bench binary: the table under `cargo bench`; under `cargo
/// test --benches` (no `--bench` argument) or with `--test`, a quick native run of every case
/// instead.
pub fn table_main(suites: &[SuiteDef]) {
    if profile_requested(suites) {
        return;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let testing = args.iter().any(|arg| arg == "--test");
    if !testing
        && args
            .iter()
            .any(|arg| arg == "--bench" || arg == "--instructions")
    {
        exit_on_error(table(suites, &args));
    } else {
        for def in suites {
            exit_on_error(def.suite().smoke(3));
            eprintln!("suite {}: every case runs", def.name);
        }
    }
}

fn exit_on_error(result: Result<(), String>) {
    if let Err(message) = result {
        eprintln!("error: {message}");
        std::process::exit(2);
    }
}

/// Runs the case named by `DSH_BENCH_CASE`, if set; `true` when it did.
fn profile_requested(suites: &[SuiteDef]) -> bool {
    let Ok(selected) = std::env::var(callgrind::CASE_ENV) else {
        return false;
    };
    exit_on_error(profile(suites, &selected));
    true
}

fn profile(suites: &[SuiteDef], selected: &str) -> Result<(), String> {
    let (suite_name, case_id) = selected
        .split_once('/')
        .ok_or_else(|| format!("{}={selected:?} is not `suite/case`", callgrind::CASE_ENV))?;
    let def = suites
        .iter()
        .find(|def| def.name == suite_name)
        .ok_or_else(|| format!("no bench suite {suite_name:?} in this binary"))?;
    let mut suite = def.suite();
    let case = suite
        .cases
        .iter_mut()
        .find(|case| case.id == case_id)
        .ok_or_else(|| format!("no bench case {case_id:?} in suite {suite_name}"))?;
    let iterations = match std::env::var(callgrind::ITERATIONS_ENV) {
        Ok(text) => text
            .parse()
            .map_err(|_| format!("{}={text:?} is not a count", callgrind::ITERATIONS_ENV))?,
        Err(_) => case.profile_iterations,
    };
    let mut meter = Meter::default();
    (case.routine)(iterations, &mut meter);
    let per_iteration = meter.elapsed().as_secs_f64() * 1e9 / iterations as f64;
    eprintln!("{selected}: {per_iteration:.1} ns per iteration over {iterations} iterations");
    Ok(())
}

/// What the table run was asked for.
struct TableArgs {
    wall: bool,
    filters: Vec<String>,
}

impl TableArgs {
    fn parse(args: &[String]) -> Result<Self, String> {
        let mut parsed = Self {
            wall: false,
            filters: Vec::new(),
        };
        for arg in args {
            match arg.as_str() {
                "--bench" | "--instructions" => {}
                "--wall" => parsed.wall = true,
                flag if flag.starts_with('-') => {
                    return Err(format!(
                        "unknown argument {flag:?}: the table takes `--wall` and case filters"
                    ));
                }
                filter => parsed.filters.push(filter.to_owned()),
            }
        }
        Ok(parsed)
    }

    fn matches(&self, id: &str) -> bool {
        self.filters.is_empty()
            || self
                .filters
                .iter()
                .any(|filter| id.contains(filter.as_str()))
    }
}

/// The ids (`suite/case`) of `suite`'s cases that `args` selects, with all their baselines.
fn selection(suite: &Suite, args: &TableArgs) -> Vec<String> {
    let mut chosen: Vec<&'static str> = Vec::new();
    for case in &suite.cases {
        if args.matches(&format!("{}/{}", suite.name, case.id)) {
            chosen.extend(&case.baselines);
            chosen.push(case.id);
        }
    }
    suite
        .cases
        .iter()
        .filter(|case| chosen.contains(&case.id))
        .map(|case| format!("{}/{}", suite.name, case.id))
        .collect()
}

fn table(defs: &[SuiteDef], args: &[String]) -> Result<(), String> {
    let args = TableArgs::parse(args)?;
    let exe = std::env::current_exe().map_err(|error| format!("no current exe: {error}"))?;
    let target = wall::target_dir(&exe);
    let profiles = target.join("callgrind");
    std::fs::create_dir_all(&profiles)
        .map_err(|error| format!("cannot create {}: {error}", profiles.display()))?;
    let mut suites: Vec<(Suite, Vec<String>)> = Vec::new();
    for def in defs {
        let suite = def.suite();
        suite.check()?;
        let selected = selection(&suite, &args);
        if !selected.is_empty() {
            suites.push((suite, selected));
        }
    }
    if suites.is_empty() {
        return Err(format!("no bench case matches {:?}", args.filters));
    }

    let mut load = String::new();
    if args.wall {
        let before = wall::load_average();
        let mut criterion = Criterion::default();
        for (suite, selected) in &mut suites {
            wall::run(&mut criterion, suite, &|id| {
                selected.iter().any(|s| s == id)
            });
        }
        criterion.final_summary();
        if let (Some(before), Some(after)) = (before, wall::load_average()) {
            load = format!(
                " (load average {before:.1} before, {after:.1} after, on {} cores)",
                std::thread::available_parallelism().map_or(1, usize::from)
            );
        }
    }

    let started = Instant::now();
    let criterion_dir = wall::criterion_dir(&exe);
    let mut rows = Vec::new();
    for (suite, selected) in &suites {
        for case in &suite.cases {
            let id = format!("{}/{}", suite.name, case.id);
            if !selected.contains(&id) {
                continue;
            }
            let instructions = count_case(&exe, &profiles, suite.name, case.id, case)?;
            eprintln!(
                "{id}: {} Ir per {}",
                table::format_instructions(instructions / case.unit.count as f64),
                case.unit.name
            );
            rows.push(Row {
                suite: suite.name,
                id: case.id,
                about: case.about.clone(),
                baselines: case.baselines.clone(),
                targets: case.targets.clone(),
                unit: case.unit,
                instructions: Some(instructions),
                median_ns: wall::median_ns(&criterion_dir, suite.name, case.id),
            });
        }
    }
    println!(
        "Instructions: callgrind, per unit of work, from the difference of two iteration counts \
         ({:.0} s). Medians: criterion, {}.\n",
        started.elapsed().as_secs_f64(),
        if args.wall {
            format!("from this run{load}")
        } else {
            format!("latest run saved in {}", criterion_dir.display())
        }
    );
    print!("{}", table::render(&rows));
    Ok(())
}

/// Instructions per iteration of one case.
fn count_case(
    exe: &Path,
    profiles: &Path,
    suite: &'static str,
    id: &'static str,
    case: &Case,
) -> Result<f64, String> {
    let iterations = case.profile_iterations;
    let once = callgrind::count(exe, profiles, suite, id, iterations)?;
    let twice = callgrind::count(exe, profiles, suite, id, 2 * iterations)?;
    Ok(callgrind::per_iteration(once, twice, iterations))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|arg| (*arg).to_owned()).collect()
    }

    #[test]
    fn table_arguments_are_flags_and_filters() {
        let args =
            TableArgs::parse(&strings(&["--bench", "--wall", "pipeline", "tools/e"])).unwrap();
        assert!(args.wall);
        assert!(args.matches("tools/e1") && args.matches("pipeline/d") && !args.matches("args/b2"));
        assert_eq!(
            TableArgs::parse(&strings(&["--nope"])).err().unwrap(),
            "unknown argument \"--nope\": the table takes `--wall` and case filters"
        );
    }

    #[test]
    fn a_selected_case_brings_its_baseline() {
        let suite = Suite::new("s")
            .case(Case::iter("base", "base", || ()))
            .case(Case::iter("other", "other", || ()))
            .case(Case::iter("second", "second", || ()))
            .case(Case::iter("ours", "ours", || ()).vs("base").vs("second"));
        let args = TableArgs::parse(&strings(&["s/ours"])).unwrap();
        assert_eq!(selection(&suite, &args), ["s/base", "s/second", "s/ours"]);
        let all = TableArgs::parse(&[]).unwrap();
        assert_eq!(selection(&suite, &all).len(), 4);
    }
}
