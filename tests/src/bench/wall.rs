//! Wall-clock figures: criterion runs the cases (`iter_custom` over the same routines callgrind
//! counts), and the table reads the medians criterion saved.

use std::path::{Path, PathBuf};

use criterion::Criterion;
use serde_json::Value;

use super::case::{Meter, Suite};

/// Registers every case of `suite` accepted by `selected` with criterion, as group
/// `suite.name`, function `case.id`.
pub(crate) fn run(criterion: &mut Criterion, suite: &mut Suite, selected: &dyn Fn(&str) -> bool) {
    let name = suite.name;
    let mut group = criterion.benchmark_group(name);
    group
        .warm_up_time(suite.warm_up)
        .measurement_time(suite.measurement)
        .sample_size(suite.sample_size);
    for case in &mut suite.cases {
        if !selected(&format!("{name}/{}", case.id)) {
            continue;
        }
        let routine = &mut case.routine;
        group.bench_function(case.id, |bencher| {
            bencher.iter_custom(|iterations| {
                let mut meter = Meter::default();
                routine(iterations, &mut meter);
                meter.elapsed()
            });
        });
    }
    group.finish();
}

/// Where criterion keeps its results: `$CRITERION_HOME`, else `criterion/` in the target
/// directory (`$CARGO_TARGET_DIR`, else the one the running bench binary was built in).
pub(crate) fn criterion_dir(exe: &Path) -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    target_dir(exe).join("criterion")
}

/// The target directory of a binary built at `<target>/<profile>/deps/<name>-<hash>`.
pub(crate) fn target_dir(exe: &Path) -> PathBuf {
    exe.ancestors()
        .nth(3)
        .map_or_else(|| PathBuf::from("target"), Path::to_path_buf)
}

/// The median (ns per iteration) of criterion's latest run of `suite/case`, if it has one.
pub(crate) fn median_ns(criterion_dir: &Path, suite: &str, case: &str) -> Option<f64> {
    let path = criterion_dir
        .join(suite)
        .join(case)
        .join("new")
        .join("estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let estimates: Value = serde_json::from_str(&text).ok()?;
    estimates["median"]["point_estimate"].as_f64()
}

/// The one-minute load average, where the system reports it: wall figures taken on a busy
/// machine say so.
pub(crate) fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_dir_is_three_levels_above_a_bench_binary() {
        let exe = Path::new("/w/target/release/deps/pipeline-0123abcd");
        assert_eq!(target_dir(exe), Path::new("/w/target"));
    }

    #[test]
    fn a_median_is_read_from_criterion_estimates() {
        let dir = std::env::temp_dir().join(format!("dsh-bench-wall-{}", std::process::id()));
        let case = dir.join("pipeline").join("d").join("new");
        std::fs::create_dir_all(&case).unwrap();
        std::fs::write(
            case.join("estimates.json"),
            r#"{"mean":{"point_estimate":40.0},"median":{"point_estimate":36.75}}"#,
        )
        .unwrap();
        assert_eq!(median_ns(&dir, "pipeline", "d"), Some(36.75));
        assert_eq!(median_ns(&dir, "pipeline", "missing"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
