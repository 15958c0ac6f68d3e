//! `solve -v`: what the planner chose under `--memory` and why, written to stderr
//! before any table is built.

use ksolve::memory::human;
use ksolve::progress::{format_count, format_duration};
use ksolve::puzzle::{Metric, Puzzle};
use ksolve::search::{CheckUse, SearchError, Solver};
use ksolve::table::estimate;
use ksolve::table::plan::PlanReport;
use ksolve::table::sym::plan::SymPlan;

/// What a search (or `tables build`) is planned for: `solve -v` and `tables build`
/// print the same plan.
pub struct Plan {
    pub metric: Metric,
    /// Whether the scrambles ask for a goal of their own (no reduced table then).
    pub has_goal: bool,
    pub no_symmetry: bool,
    pub threads: usize,
    pub budget: u64,
    /// Whether searches may try small tables first (not when building ahead).
    pub trials: bool,
}

impl Plan {
    /// The whole plan as lines: the ordinary tables weighed and chosen, the
    /// symmetry-reduced table, and what building the ordinary tables should take (to
    /// set beside what it took); a large build may wait for a trial in small tables.
    /// The solver plans what its first search will use and keeps it, so asking costs
    /// nothing the search would not spend anyway.
    pub fn lines(&self, solver: &mut Solver<'_>) -> Result<Vec<String>, SearchError> {
        let puzzle = solver.puzzle();
        let view = solver.plan(self.has_goal, self.no_symmetry)?;
        let mut out = plan_lines(puzzle, &view.report, view.ordinary);
        if let Some(share) = &view.share {
            out.push(sym_line(share.plan.as_ref(), view.ordinary, self.budget));
        }
        let tables = solver.tables();
        let entries = tables.unbuilt_entries(puzzle, self.metric, None, None)?;
        let trial = match self.trials {
            true => tables.trial_budget(puzzle, self.metric, None, estimate::TRIAL_FROM)?,
            false => None,
        };
        out.push(format!(
            "  ordinary tables: {} entries to build (move tables included), predicted {}{}",
            format_count(entries),
            format_duration(estimate::build_time(entries, self.threads)),
            match trial {
                Some((small, _)) => format!(
                    "; a trial search in tables planned in {} comes first",
                    human(small)
                ),
                None => String::new(),
            }
        ));
        Ok(out)
    }
}

/// The report as lines: each plan weighed (largest component, tables, bytes, score),
/// the chosen one marked, then the chosen tables one per line.
pub fn plan_lines(puzzle: &Puzzle, report: &PlanReport, budget: u64) -> Vec<String> {
    let mut out = vec![format!(
        "Tables for {} under --memory {}: {} plan(s) weighed (score: log2(entries) - 1 of the largest table, plus half of the next, a quarter of the third...; higher prunes more)",
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

/// The symmetry-reduced table the search adds in the memory the plan leaves: what it
/// sees, by how many symmetries, its classes, entries and bytes (estimated before the
/// classes are counted; the build's progress line gives the exact entries).
pub fn sym_line(plan: Option<&SymPlan>, ordinary: u64, budget: u64) -> String {
    let Some(p) = plan else {
        return "  no symmetry-reduced table (no symmetry to reduce by, or none fits and pays)"
            .into();
    };
    let e = p.estimate();
    let share = if ordinary < budget {
        format!(
            " (worth more than the ordinary tables' share: they were planned in {} of the {})",
            human(ordinary),
            human(budget)
        )
    } else {
        String::new()
    };
    let tight = if p.tight {
        "; moves keep its goal: tight bounds also rule out moves"
    } else {
        ""
    };
    format!(
        "  reduced table {}: {} positions by {} symmetries ({} classes of {} values, {} entries each): about {} entries, {} at {} bits, {} class table{tight}{share}",
        p.name,
        p.positions(),
        p.syms.len(),
        p.raw.div_ceil(p.syms.len() as u64),
        p.raw,
        p.minor_len,
        e,
        human(p.entry_bytes()),
        p.bits(),
        human(p.raw * 4)
    )
}

/// What the search's bound checks did, for `solve -v`: the checks in use in their order,
/// then those left out, each with the share of sampled children it cuts by itself;
/// `None` when there are no checks (no pruning table).
pub fn checks_line(checks: &[CheckUse]) -> Option<String> {
    if checks.is_empty() {
        return None;
    }
    let show = |c: &CheckUse| match c.cuts {
        Some(f) => format!("{} ({:.1}%)", c.name, 100.0 * f),
        None => c.name.clone(),
    };
    let used: Vec<String> = checks.iter().filter(|c| c.used).map(show).collect();
    let left: Vec<String> = checks.iter().filter(|c| !c.used).map(show).collect();
    let mut line = format!("bound checks in use: {}", used.join(", "));
    if !left.is_empty() {
        line += &format!(
            "; left out, as cutting too little for their cost: {}",
            left.join(", ")
        );
    }
    if checks.iter().any(|c| c.cuts.is_some()) {
        line += " (share of sampled children each cuts alone)";
    }
    Some(line)
}
