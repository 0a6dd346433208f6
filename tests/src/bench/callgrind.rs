//! Instruction counts: the bench binary runs itself under `valgrind --tool=callgrind`, one case
//! at two iteration counts, and the difference divided by the difference of the counts is the
//! case's cost per iteration. Everything a run does once — start the process, build the suite,
//! enter the runtime, warm the allocator — cancels out; only the measured sections are collected
//! at all (`--toggle-collect` on [`measured_section`](super::case::measured_section)).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The environment variable that makes a bench binary run one case (`suite/case`) and exit.
pub(crate) const CASE_ENV: &str = "DSH_BENCH_CASE";
/// How many iterations that run does.
pub(crate) const ITERATIONS_ENV: &str = "DSH_BENCH_ITERATIONS";

/// The symbol whose execution callgrind collects (the demangled path ends with a hash).
const MEASURED_SYMBOL: &str = "*bench::case::measured_section*";

/// Work measured sections start on threads of their own, collected whole: a `run_code`
/// program's engine thread.
const THREAD_SYMBOLS: &[&str] = &["*code_mode::engine::ProgramThread::run*"];

/// Where one count's profile is kept, for `callgrind_annotate`.
pub(crate) fn profile_path(dir: &Path, suite: &str, case: &str, iterations: u64) -> PathBuf {
    dir.join(format!("{suite}.{case}.{iterations}.out"))
}

/// The instructions the measured sections of `suite/case` execute over `iterations` iterations.
pub(crate) fn count(
    exe: &Path,
    dir: &Path,
    suite: &str,
    case: &str,
    iterations: u64,
) -> Result<u64, String> {
    let profile = profile_path(dir, suite, case, iterations);
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", profile.display()))
        .arg(format!("--toggle-collect={MEASURED_SYMBOL}"))
        .args(
            THREAD_SYMBOLS
                .iter()
                .map(|symbol| format!("--toggle-collect={symbol}")),
        )
        .arg(exe)
        .env(CASE_ENV, format!("{suite}/{case}"))
        .env(ITERATIONS_ENV, iterations.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|error| {
            format!(
                "cannot run valgrind ({error}): instruction counts need valgrind with callgrind \
                 on PATH (e.g. `apt-get install valgrind`)"
            )
        })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!(
            "callgrind run of {suite}/{case} ({iterations} iterations) failed with {}:\n{}",
            output.status,
            tail.join("\n")
        ));
    }
    let text = std::fs::read_to_string(&profile)
        .map_err(|error| format!("cannot read {}: {error}", profile.display()))?;
    parse_total(&text).ok_or_else(|| format!("no instruction total in {}", profile.display()))
}

/// The total of a callgrind profile (`totals:` or, in older formats, `summary:`), with `Ir` the
/// first event.
pub(crate) fn parse_total(profile: &str) -> Option<u64> {
    let line = profile
        .lines()
        .find(|line| line.starts_with("totals:"))
        .or_else(|| profile.lines().find(|line| line.starts_with("summary:")))?;
    let (_, figures) = line.split_once(':')?;
    figures.split_whitespace().next()?.parse().ok()
}

/// The cost of one iteration from the totals at `iterations` and at twice that.
pub(crate) fn per_iteration(once: u64, twice: u64, iterations: u64) -> f64 {
    (twice as f64 - once as f64) / iterations as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_is_read_from_either_format() {
        let profile = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\n\nfn=(1) main\n3 10\n\
                       summary: 99\n\ntotals: 1234567\n";
        assert_eq!(parse_total(profile), Some(1_234_567));
        assert_eq!(parse_total("events: Ir\nsummary: 42\n"), Some(42));
        assert_eq!(parse_total("events: Ir\n"), None);
    }

    #[test]
    fn setup_cancels_out_of_the_difference() {
        // 5,000 of setup, 120 per iteration.
        let once = 5_000 + 120 * 1_000;
        let twice = 5_000 + 120 * 2_000;
        assert_eq!(per_iteration(once, twice, 1_000), 120.0);
    }
}
