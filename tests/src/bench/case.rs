//! What a bench case is: an id, what it measures, the baseline it is compared with, the targets
//! it is held to, and the one routine that runs it — for criterion's wall clock and for
//! callgrind's instruction count alike.
//!
//! A routine runs a given number of iterations. Whatever it must prepare per iteration (inputs a
//! call consumes, a registry to fill) it builds outside [`Meter::measure`]; only what runs inside
//! is timed by criterion and counted by callgrind.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// How many inputs [`Case::batched`] prepares ahead of each measured section. Few: an input the
/// operation consumes is freed inside the section, and freeing many live allocations in a row
/// costs the allocator more than freeing each soon after it was made, as real calls do
/// (`serde_json::from_value` of the workload: 4,066 Ir per call in batches of 8, 5,287 in
/// batches of 1,000). Eight keeps criterion's timer reads to one per eight calls.
pub const SYNC_BATCH: u64 = 8;

/// The batch size for async cases that enter their runtime once per measured section: entering
/// it costs about 1,000 instructions, a few percent of a call once shared by 64 of them.
pub const ASYNC_BATCH: u64 = 64;

/// The iterations a case is counted at by default (once at this count, once at twice it).
pub const DEFAULT_PROFILE_ITERATIONS: u64 = 5_000;

/// Runs `iterations` iterations of a case, measuring through the [`Meter`].
pub type Routine = Box<dyn FnMut(u64, &mut Meter)>;

/// A group of cases measured in one run (one criterion group, one bench binary).
pub struct Suite {
    pub(crate) name: &'static str,
    pub(crate) cases: Vec<Case>,
    pub(crate) warm_up: Duration,
    pub(crate) measurement: Duration,
    pub(crate) sample_size: usize,
}

impl Suite {
    /// An empty suite; `name` is its criterion group and the first half of its cases' ids.
    pub fn new(name: &'static str) -> Self {
        assert_filename_safe(name);
        Self {
            name,
            cases: Vec::new(),
            warm_up: Duration::from_millis(500),
            measurement: Duration::from_secs(2),
            sample_size: 100,
        }
    }

    /// Adds a case. Its baseline, if any, must be a case of this suite.
    #[must_use]
    pub fn case(mut self, case: Case) -> Self {
        assert!(
            self.cases.iter().all(|known| known.id != case.id),
            "bench case {}/{} is defined twice",
            self.name,
            case.id
        );
        self.cases.push(case);
        self
    }

    /// Criterion's warm-up and measurement time for every case of the suite.
    #[must_use]
    pub fn timing(mut self, warm_up: Duration, measurement: Duration) -> Self {
        self.warm_up = warm_up;
        self.measurement = measurement;
        self
    }

    /// Criterion's sample count (at least 10) for every case of the suite: lower it for cases
    /// that take milliseconds.
    #[must_use]
    pub fn sample_size(mut self, samples: usize) -> Self {
        self.sample_size = samples;
        self
    }

    /// The suite's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The ids of its cases, in definition order.
    pub fn case_ids(&self) -> Vec<&'static str> {
        self.cases.iter().map(|case| case.id).collect()
    }

    /// Checks what can only be checked once every case is in: each baseline exists.
    pub(crate) fn check(&self) -> Result<(), String> {
        for case in &self.cases {
            if let Some(baseline) = case
                .baselines
                .iter()
                .find(|baseline| !self.cases.iter().any(|known| known.id == **baseline))
            {
                return Err(format!(
                    "bench case {}/{} is compared with {baseline:?}, which the suite does not have",
                    self.name, case.id
                ));
            }
        }
        Ok(())
    }

    /// Runs `iterations` iterations of every case natively, to check that each one works.
    pub fn smoke(&mut self, iterations: u64) -> Result<(), String> {
        self.check()?;
        for case in &mut self.cases {
            let mut meter = Meter::default();
            (case.routine)(iterations, &mut meter);
            if meter.sections == 0 {
                return Err(format!(
                    "bench case {}/{} measured nothing: its routine never called Meter::measure",
                    self.name, case.id
                ));
            }
        }
        Ok(())
    }
}

/// How much work one iteration of a case is, for figures per unit (per tool, per item).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Units of work per iteration.
    pub count: u64,
    /// What one unit is ("op", "tool", "item").
    pub name: &'static str,
}

impl Unit {
    /// One operation per iteration.
    pub const OP: Self = Self {
        count: 1,
        name: "op",
    };
}

/// What a case is held to. Ratios compare instruction counts per unit with the first baseline's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// At most this many times the (first) baseline.
    Ratio(f64),
    /// At most this many instructions per unit.
    Instructions(u64),
    /// A criterion median of at most this per iteration (not per unit).
    Wall(Duration),
    /// A stated expectation the table cannot check by itself (e.g. "linear").
    Note(&'static str),
}

/// One bench case.
pub struct Case {
    pub(crate) id: &'static str,
    pub(crate) about: String,
    /// The cases it is compared with, in the order given; ratio targets hold against the first.
    pub(crate) baselines: Vec<&'static str>,
    pub(crate) targets: Vec<Target>,
    pub(crate) unit: Unit,
    pub(crate) profile_iterations: u64,
    pub(crate) routine: Routine,
}

impl Case {
    /// A case given as a whole routine: it runs `iterations` iterations, preparing what they need
    /// outside `meter.measure(..)` and doing the measured work inside it.
    pub fn custom(
        id: &'static str,
        about: impl Into<String>,
        routine: impl FnMut(u64, &mut Meter) + 'static,
    ) -> Self {
        assert_filename_safe(id);
        Self {
            id,
            about: about.into(),
            baselines: Vec::new(),
            targets: Vec::new(),
            unit: Unit::OP,
            profile_iterations: DEFAULT_PROFILE_ITERATIONS,
            routine: Box::new(routine),
        }
    }

    /// A case whose iteration is one call of `op` (its output dropped in the measured section).
    pub fn iter<R>(
        id: &'static str,
        about: impl Into<String>,
        mut op: impl FnMut() -> R + 'static,
    ) -> Self {
        Self::custom(id, about, move |iterations, meter| {
            meter.measure(|| {
                for _ in 0..iterations {
                    black_box(op());
                }
            });
        })
    }

    /// A case whose iteration consumes one input made by `setup` (outside the measured section,
    /// [`SYNC_BATCH`] at a time).
    pub fn batched<I, R>(
        id: &'static str,
        about: impl Into<String>,
        setup: impl FnMut() -> I + 'static,
        mut op: impl FnMut(I) -> R + 'static,
    ) -> Self {
        let mut setup = setup;
        Self::custom(id, about, move |iterations, meter| {
            in_batches(iterations, SYNC_BATCH, meter, &mut setup, |inputs| {
                for input in inputs {
                    black_box(op(black_box(input)));
                }
            });
        })
    }

    /// A case like [`custom`](Self::custom) whose fixture is built by `setup` the first time the
    /// case runs, not when the suite is built: a run that counts another case of the suite does
    /// not pay for it (under callgrind, building a large fixture takes long).
    pub fn with_fixture<S: 'static>(
        id: &'static str,
        about: impl Into<String>,
        setup: impl FnOnce() -> S + 'static,
        mut routine: impl FnMut(&mut S, u64, &mut Meter) + 'static,
    ) -> Self {
        let mut setup = Some(setup);
        let mut fixture: Option<S> = None;
        Self::custom(id, about, move |iterations, meter| {
            let fixture = fixture.get_or_insert_with(|| {
                let setup = setup.take().expect("the fixture is built once");
                setup()
            });
            routine(fixture, iterations, meter);
        })
    }

    /// Compares the case with the suite's case `baseline`. Called again, it adds a baseline: the
    /// table shows a ratio to each, and [`Target::Ratio`] holds against the first.
    #[must_use]
    pub fn vs(mut self, baseline: &'static str) -> Self {
        self.baselines.push(baseline);
        self
    }

    /// Holds the case to `target` (several may be given).
    #[must_use]
    pub fn target(mut self, target: Target) -> Self {
        self.targets.push(target);
        self
    }

    /// One iteration is `count` units of work named `unit`: figures are reported per unit.
    #[must_use]
    pub fn per(mut self, count: u64, unit: &'static str) -> Self {
        assert!(count > 0, "a case does at least one unit of work");
        self.unit = Unit { count, name: unit };
        self
    }

    /// Counts the case at `iterations` and twice that (default
    /// [`DEFAULT_PROFILE_ITERATIONS`]); lower it for cases whose iteration is long.
    #[must_use]
    pub fn profile_iterations(mut self, iterations: u64) -> Self {
        assert!(
            iterations > 0,
            "a case is counted over at least one iteration"
        );
        self.profile_iterations = iterations;
        self
    }
}

/// Runs `iterations` iterations in batches of at most `batch` ([`SYNC_BATCH`] or
/// [`ASYNC_BATCH`]): `setup` prepares each input outside the measured section, `run` consumes a
/// batch inside it.
pub fn in_batches<I>(
    iterations: u64,
    batch: u64,
    meter: &mut Meter,
    mut setup: impl FnMut() -> I,
    mut run: impl FnMut(Vec<I>),
) {
    assert!(batch > 0, "a batch holds at least one input");
    let mut left = iterations;
    while left > 0 {
        let size = left.min(batch);
        let inputs: Vec<I> = (0..size).map(|_| setup()).collect();
        meter.measure(|| run(inputs));
        left -= size;
    }
}

/// Accumulates the wall time of measured sections.
#[derive(Debug, Default)]
pub struct Meter {
    elapsed: Duration,
    sections: u64,
}

impl Meter {
    /// Runs `work` as measured code: timed, and the only code callgrind counts.
    pub fn measure<R>(&mut self, work: impl FnOnce() -> R) -> R {
        let mut work = Some(work);
        let mut output = None;
        let start = Instant::now();
        measured_section(&mut || {
            if let Some(work) = work.take() {
                output = Some(work());
            }
        });
        self.elapsed += start.elapsed();
        self.sections += 1;
        output.expect("the measured section ran its work")
    }

    /// The total time of the measured sections so far.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }
}

/// The code callgrind counts: everything that runs while this function is on the stack
/// (`--toggle-collect`, see `callgrind.rs`). Not generic and never inlined, so the symbol
/// exists exactly once.
#[inline(never)]
pub(crate) fn measured_section(work: &mut dyn FnMut()) {
    work();
}

/// Ids become criterion directory names and environment values: keep them plain.
fn assert_filename_safe(id: &str) {
    assert!(
        !id.is_empty()
            && id
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_'),
        "bench ids are ASCII letters, digits and underscores: {id:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_prepare_every_input_and_measure_each_batch() {
        let mut meter = Meter::default();
        let mut made = 0;
        let mut consumed = Vec::new();
        in_batches(
            2_500,
            1_000,
            &mut meter,
            || {
                made += 1;
                made
            },
            |inputs| consumed.push(inputs.len()),
        );
        assert_eq!(made, 2_500);
        assert_eq!(consumed, [1_000, 1_000, 500]);
        assert_eq!(meter.sections, 3);
    }

    #[test]
    fn a_suite_refuses_an_unknown_baseline_and_a_routine_that_measures_nothing() {
        let suite = Suite::new("s").case(Case::iter("a", "a", || 1).vs("missing"));
        assert_eq!(
            suite.check().unwrap_err(),
            "bench case s/a is compared with \"missing\", which the suite does not have"
        );
        let second = Suite::new("s")
            .case(Case::iter("base", "base", || 1))
            .case(Case::iter("a", "a", || 1).vs("base").vs("gone"));
        assert_eq!(
            second.check().unwrap_err(),
            "bench case s/a is compared with \"gone\", which the suite does not have"
        );
        let mut lazy = Suite::new("s").case(Case::custom("idle", "does nothing", |_, _| {}));
        assert_eq!(
            lazy.smoke(1).unwrap_err(),
            "bench case s/idle measured nothing: its routine never called Meter::measure"
        );
        let mut fine = Suite::new("s")
            .case(Case::iter("base", "base", || 1))
            .case(Case::batched("ours", "ours", || 2, |x: i32| x + 1).vs("base"));
        assert_eq!(fine.smoke(3), Ok(()));
    }

    #[test]
    fn a_fixture_is_built_on_the_first_run_only() {
        let built = std::rc::Rc::new(std::cell::Cell::new(0));
        let counter = std::rc::Rc::clone(&built);
        let mut suite = Suite::new("s").case(Case::with_fixture(
            "lazy",
            "lazy",
            move || {
                counter.set(counter.get() + 1);
                vec![1, 2, 3]
            },
            |fixture: &mut Vec<i32>, iterations, meter| {
                meter.measure(|| {
                    for _ in 0..iterations {
                        black_box(fixture.iter().sum::<i32>());
                    }
                });
            },
        ));
        assert_eq!(built.get(), 0, "building the suite builds no fixture");
        suite.smoke(2).unwrap();
        suite.smoke(2).unwrap();
        assert_eq!(built.get(), 1);
    }

    #[test]
    #[should_panic(expected = "bench ids are ASCII letters")]
    fn ids_must_be_plain() {
        let _ = Case::iter("no/slash", "x", || ());
    }
}
