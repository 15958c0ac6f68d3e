//! `solve -v`: what the planner chose under `--memory` and why, written to stderr
//! before any table is built.

use ksolve::memory::human;
use ksolve::puzzle::Puzzle;
use ksolve::table::plan::PlanReport;

/// The report as lines: each plan weighed (largest component, tables, bytes, score),
/// the chosen one marked, then the chosen tables one per line.
pub fn plan_lines(puzzle: &Puzzle, report: &PlanReport, budget: u64) -> Vec<String> {
    let mut out = vec![format!(
        "Tables for {} under --memory {}: {} plan(s) weighed (score: sum over tables of log2(entries) - 1; higher prunes more)",
        puzzle.name.as_deref().unwrap_or("this puzzle"),
        human(budget),
        report.candidates.len()
    )];
    for (i, c) in report.candidates.iter().enumerate() {
        let names: Vec<&str> = c.tables.iter().map(|t| t.name.as_str()).collect();
        out.push(format!(
            "  {} components up to {} values: {} table(s) [{}], {} in all, score {:.1}",
            if i == report.best { "*" } else { " " },
            c.limit,
            c.tables.len(),
            names.join(", "),
            human(c.bytes),
            c.score
        ));
    }
    for t in &report.chosen {
        out.push(format!(
            "  table {}: {} entries, {} at 4 bits",
            t.name,
            t.len,
            human(t.len.div_ceil(2))
        ));
    }
    // Guarded puzzles: the additive family (summed, then maxed with the tables above),
    // or why there is none.
    if let Some(f) = &report.additive {
        out.push(format!(
            "  {}, {} in all with the build's scratch; their bounds are summed",
            f.describe(puzzle),
            human(f.bytes())
        ));
    } else if let Some(why) = &report.not_additive {
        out.push(format!("  no additive tables: {why}"));
    }
    out
}
