//! The table of figures: per case its instructions and criterion median per unit of work, its
//! ratio to each of its baselines in both, and each target with whether the instruction count (the figure
//! of record) meets it.

use std::fmt::Write as _;
use std::time::Duration;

use super::case::{Target, Unit};

/// One case's figures, per iteration.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    pub(crate) suite: &'static str,
    pub(crate) id: &'static str,
    pub(crate) about: String,
    /// The cases it is compared with; ratio targets hold against the first.
    pub(crate) baselines: Vec<&'static str>,
    pub(crate) targets: Vec<Target>,
    pub(crate) unit: Unit,
    /// Instructions per iteration, from callgrind.
    pub(crate) instructions: Option<f64>,
    /// Median nanoseconds per iteration, from criterion.
    pub(crate) median_ns: Option<f64>,
}

impl Row {
    fn per_unit(&self, figure: Option<f64>) -> Option<f64> {
        figure.map(|figure| figure / self.unit.count as f64)
    }

    fn instructions_per_unit(&self) -> Option<f64> {
        self.per_unit(self.instructions)
    }

    fn median_per_unit(&self) -> Option<f64> {
        self.per_unit(self.median_ns)
    }
}

/// The rows as a Markdown table, in the order given.
pub(crate) fn render(rows: &[Row]) -> String {
    let mut out = String::from(
        "| case | what | Ir per unit | ratio (Ir) | target | median per unit | ratio (wall) |\n\
         |---|---|---:|---:|---|---:|---:|\n",
    );
    for row in rows {
        let baseline = |id: &str| {
            rows.iter()
                .find(|other| other.suite == row.suite && other.id == id)
        };
        let ratios_ir: Vec<Option<f64>> = row
            .baselines
            .iter()
            .map(|id| {
                ratio(
                    row.instructions_per_unit(),
                    baseline(id).and_then(Row::instructions_per_unit),
                )
            })
            .collect();
        let ratios_wall: Vec<Option<f64>> = row
            .baselines
            .iter()
            .map(|id| {
                ratio(
                    row.median_per_unit(),
                    baseline(id).and_then(Row::median_per_unit),
                )
            })
            .collect();
        let unit = if row.unit == Unit::OP {
            String::new()
        } else {
            format!(" / {}", row.unit.name)
        };
        let _ = writeln!(
            out,
            "| {}/{} | {} | {}{unit} | {} | {} | {}{unit} | {} |",
            row.suite,
            row.id,
            row.about,
            row.instructions_per_unit()
                .map_or_else(|| "—".to_owned(), format_instructions),
            format_ratios(&ratios_ir, &row.baselines),
            row.targets
                .iter()
                .map(|target| verdict(row, *target, ratios_ir.first().copied().flatten()))
                .collect::<Vec<_>>()
                .join("; "),
            row.median_per_unit()
                .map_or_else(|| "—".to_owned(), format_nanos),
            format_ratios(&ratios_wall, &row.baselines),
        );
    }
    out
}

fn ratio(ours: Option<f64>, baseline: Option<f64>) -> Option<f64> {
    match (ours, baseline) {
        (Some(ours), Some(baseline)) if baseline > 0.0 => Some(ours / baseline),
        _ => None,
    }
}

/// A row's ratio to each of its baselines, in their order.
fn format_ratios(ratios: &[Option<f64>], baselines: &[&str]) -> String {
    ratios
        .iter()
        .zip(baselines)
        .map(|(ratio, baseline)| match ratio {
            Some(ratio) => format!("{ratio:.2} × {baseline}"),
            None => format!("— × {baseline}"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A target and whether the figures meet it.
fn verdict(row: &Row, target: Target, ratio_ir: Option<f64>) -> String {
    let (text, met) = match target {
        Target::Ratio(limit) => (
            format!(
                "≤ {limit} × {}",
                row.baselines.first().copied().unwrap_or("baseline")
            ),
            ratio_ir.map(|ratio| ratio <= limit),
        ),
        Target::Instructions(limit) => (
            format!(
                "≤ {} Ir / {}",
                format_instructions(limit as f64),
                row.unit.name
            ),
            row.instructions_per_unit()
                .map(|figure| figure <= limit as f64),
        ),
        Target::Wall(limit) => {
            let per = if row.unit == Unit::OP {
                String::new()
            } else if row.unit.count == 1 {
                format!(" per {}", row.unit.name)
            } else {
                format!(
                    " per {} {}s",
                    group_thousands(row.unit.count),
                    row.unit.name
                )
            };
            (
                format!("≤ {}{per} (wall)", format_duration(limit)),
                row.median_ns
                    .map(|median| median <= limit.as_nanos() as f64),
            )
        }
        Target::Note(note) => return note.to_owned(),
    };
    match met {
        Some(true) => format!("{text}: met"),
        Some(false) => format!("{text}: **missed**"),
        None => text,
    }
}

/// `1,234` for counts of 100 and more, `12.3` below.
pub(crate) fn format_instructions(figure: f64) -> String {
    if figure.abs() >= 100.0 {
        group_thousands(figure.round() as u64)
    } else {
        format!("{figure:.1}")
    }
}

fn group_thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut grouped = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// Nanoseconds in the unit that keeps three or four significant digits.
pub(crate) fn format_nanos(nanos: f64) -> String {
    if nanos < 1_000.0 {
        format!("{nanos:.1} ns")
    } else if nanos < 1_000_000.0 {
        format!("{:.2} µs", nanos / 1_000.0)
    } else if nanos < 1_000_000_000.0 {
        format!("{:.2} ms", nanos / 1_000_000.0)
    } else {
        format!("{:.2} s", nanos / 1_000_000_000.0)
    }
}

fn format_duration(duration: Duration) -> String {
    let nanos = duration.as_nanos();
    if nanos >= 1_000_000_000 && nanos.is_multiple_of(1_000_000_000) {
        format!("{} s", nanos / 1_000_000_000)
    } else if nanos >= 1_000_000 && nanos.is_multiple_of(1_000_000) {
        format!("{} ms", nanos / 1_000_000)
    } else if nanos >= 1_000 && nanos.is_multiple_of(1_000) {
        format!("{} µs", nanos / 1_000)
    } else {
        format!("{nanos} ns")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &'static str, instructions: f64, median_ns: f64) -> Row {
        Row {
            suite: "s",
            id,
            about: format!("case {id}"),
            baselines: Vec::new(),
            targets: Vec::new(),
            unit: Unit::OP,
            instructions: Some(instructions),
            median_ns: Some(median_ns),
        }
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(format_instructions(9_097.4), "9,097");
        assert_eq!(format_instructions(1_234_567.0), "1,234,567");
        assert_eq!(format_instructions(97.96), "98.0");
        assert_eq!(format_nanos(36.84), "36.8 ns");
        assert_eq!(format_nanos(12_345.0), "12.35 µs");
        assert_eq!(format_nanos(48_000_000.0), "48.00 ms");
        assert_eq!(format_duration(Duration::from_millis(50)), "50 ms");
    }

    #[test]
    fn ratios_and_verdicts_are_per_unit_against_the_baseline() {
        let base = row("e1", 9_097.0, 864.0);
        let mut ours = row("ours", 9_853.0, 785.0);
        ours.baselines = vec!["e1"];
        ours.targets = vec![Target::Ratio(0.8)];
        let mut twice = row("twice", 4_548.0, 1_728.0);
        twice.baselines = vec!["ours", "e1"];
        twice.targets = vec![Target::Ratio(1.0)];
        let mut bulk = row("bulk", 2_000_000.0, 40_000_000.0);
        bulk.unit = Unit {
            count: 1_000,
            name: "tool",
        };
        bulk.targets = vec![
            Target::Instructions(2_500),
            Target::Wall(Duration::from_millis(50)),
            Target::Note("flat"),
        ];
        let table = render(&[base, ours, twice, bulk]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[2], "| s/e1 | case e1 | 9,097 |  |  | 864.0 ns |  |");
        assert_eq!(
            lines[3],
            "| s/ours | case ours | 9,853 | 1.08 × e1 | ≤ 0.8 × e1: **missed** | 785.0 ns | 0.91 × e1 |"
        );
        assert_eq!(
            lines[4],
            "| s/twice | case twice | 4,548 | 0.46 × ours; 0.50 × e1 | ≤ 1 × ours: met | 1.73 µs | \
             2.20 × ours; 2.00 × e1 |"
        );
        assert_eq!(
            lines[5],
            "| s/bulk | case bulk | 2,000 / tool |  | ≤ 2,500 Ir / tool: met; ≤ 50 ms per 1,000 \
             tools (wall): met; flat | 40.00 µs / tool |  |"
        );
    }

    #[test]
    fn a_missing_figure_leaves_the_verdict_open() {
        let mut ours = row("ours", 1.0, 1.0);
        ours.instructions = None;
        ours.median_ns = None;
        ours.baselines = vec!["gone"];
        ours.targets = vec![Target::Ratio(0.5)];
        let table = render(&[ours]);
        assert!(
            table
                .ends_with("| s/ours | case ours | — | — × gone | ≤ 0.5 × gone | — | — × gone |\n"),
            "{table}"
        );
    }
}
