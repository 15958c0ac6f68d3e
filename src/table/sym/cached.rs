//! The symmetry-reduced table of a puzzle, planned in the memory the ordinary tables
//! leave, built (or loaded from the cache folder: its class table and its entries, each
//! under its own kind and key) and kept by [`Tables`] per metric.

use super::classes::Classes;
use super::plan::{plan_sym, SymPlan};
use super::table::{minor_conj, SymTable};
use super::Conjugator;
use crate::progress::{format_count, Progress};
use crate::puzzle::{Metric, Puzzle};
use crate::symmetry::SymmetryGroup;
use crate::table::comp::{CompError, Component};
use crate::table::prune::{Entries, Format, PruneTable};
use crate::table::{file, plan, CompId, Tables, CONTENTS_VERSION};

/// A built symmetry-reduced table with the components it reads.
pub struct SymPruning {
    pub major: Vec<CompId>,
    pub minor: Vec<CompId>,
    pub table: SymTable,
    pub plan: SymPlan,
}

/// The payload prefix of a cached reduced table: format, depth, classes.
const PREFIX: usize = 64;

/// The memory the ordinary plan leaves: the budget less its move tables and stored
/// tables (the scratch of its largest build is free again once it is built).
pub fn left_over(
    puzzle: &Puzzle,
    budget: u64,
) -> Result<(u64, Vec<plan::PlannedTable>), CompError> {
    let report = plan::plan_report(puzzle, budget)?;
    let c = &report.candidates[report.best];
    let scratch = c.tables.iter().map(|t| t.len).max().unwrap_or(0);
    Ok((budget.saturating_sub(c.bytes - scratch), report.chosen))
}

/// The reduced table `solve` would add for `puzzle` under `budget`, if any.
pub fn planned(
    puzzle: &Puzzle,
    group: &SymmetryGroup,
    budget: u64,
) -> Result<Option<SymPlan>, CompError> {
    let (left, chosen) = left_over(puzzle, budget)?;
    // The group's order bounds the positions the moves reach (exactly, with distinct
    // pieces); `None` (no bound) when the group cannot be built.
    let reachable = crate::group::Group::new(puzzle)
        .ok()
        .map(|g| g.order().to_u64().unwrap_or(u64::MAX));
    Ok(plan_sym(puzzle, group, left, &chosen, reachable))
}

impl Tables {
    /// The symmetry-reduced table for `metric` (the definition's goal), planned and
    /// built (or loaded) on first use; `None` when no reduced table is worth it.
    pub fn sym_pruning(
        &mut self,
        puzzle: &Puzzle,
        metric: Metric,
        group: &SymmetryGroup,
        progress: &dyn Progress,
    ) -> Result<Option<&SymPruning>, CompError> {
        if !self.sym.contains_key(&metric) {
            let built = match planned(puzzle, group, self.budget)? {
                Some(p) => Some(self.build_sym(puzzle, metric, group, p, progress)?),
                None => None,
            };
            self.sym.insert(metric, built);
        }
        Ok(self.sym[&metric].as_ref())
    }

    /// The reduced table already built for `metric`, if any.
    pub fn built_sym(&self, metric: Metric) -> Option<&SymPruning> {
        self.sym.get(&metric).and_then(Option::as_ref)
    }

    fn build_sym(
        &mut self,
        puzzle: &Puzzle,
        metric: Metric,
        group: &SymmetryGroup,
        p: SymPlan,
        progress: &dyn Progress,
    ) -> Result<SymPruning, CompError> {
        let major = p
            .major
            .iter()
            .map(|s| self.component(puzzle, s, progress))
            .collect::<Result<Vec<_>, _>>()?;
        let minor = p
            .minor
            .iter()
            .map(|s| self.component(puzzle, s, progress))
            .collect::<Result<Vec<_>, _>>()?;
        let a: Vec<&Component> = major.iter().map(|&id| self.comp(id)).collect();
        let b: Vec<&Component> = minor.iter().map(|&id| self.comp(id)).collect();
        let sizes: Vec<u64> = a.iter().map(|c| c.count as u64).collect();
        let mut params = vec![CONTENTS_VERSION];
        params.extend_from_slice(b"symclass");
        for c in &p.major {
            params.extend_from_slice(&c.key_bytes());
            params.push(b'|');
        }
        for &s in &p.syms {
            for m in group.elements()[s].move_map() {
                params.extend_from_slice(&m.0.to_le_bytes());
            }
        }
        let tag = file::content_hash(&params) as u32;
        let classes = self.cache.load_or_build(
            "ksolve-symclass",
            &format!("sc-{}-{tag:08x}", super::plan::names(puzzle, &p.major)),
            &params,
            progress,
            |payload| Classes::from_bytes(&payload, &p.syms, p.raw),
            || {
                let what = format!(
                    "symmetry classes: {}, {} values under {} symmetries",
                    plan::describe(puzzle, &p.major),
                    format_count(p.raw),
                    p.syms.len()
                );
                progress.start(&what, None);
                let conj = Conjugator::new(puzzle, &a);
                let c = Classes::build(puzzle, group, &p.syms, &conj, &sizes)
                    .expect("the planner keeps class tables in range");
                progress.finish();
                let bytes = c.to_bytes();
                (c, bytes)
            },
        );
        let conj = minor_conj(puzzle, group, &p.syms, &b);
        params.extend_from_slice(b"symprune");
        params.push(metric as u8);
        for c in &p.minor {
            params.extend_from_slice(&c.key_bytes());
            params.push(b'|');
        }
        let allow_bytes = classes.count() * p.minor_len <= self.budget / 8;
        params.push(allow_bytes as u8);
        let name = format!(
            "st-{}-{}-{:08x}",
            metric.name(),
            p.name,
            file::content_hash(&params) as u32
        );
        let nclasses = classes.count();
        let mut table_sizes = vec![nclasses];
        table_sizes.extend(b.iter().map(|c| c.count as u64));
        let goals: Vec<Vec<u32>> = a
            .iter()
            .chain(&b)
            .map(|c| c.goal_values(puzzle, puzzle.ignore.get(c.spec.set)))
            .collect();
        let what = format!(
            "reduced pruning table: {} by {} symmetries, {} entries",
            plan::describe(puzzle, &[p.major.clone(), p.minor.clone()].concat()),
            p.syms.len(),
            format_count(nclasses * p.minor_len)
        );
        let mut classes = Some(classes);
        let mut conj = Some(conj);
        let loaded = self.cache.load_or_build(
            "ksolve-symprune",
            &name,
            &params,
            progress,
            |payload| {
                let head: [u8; 2] = payload.all().get(..PREFIX)?[..2].try_into().ok()?;
                let format = match head[0] {
                    0 => Format::Nibbles,
                    1 => Format::Bytes,
                    _ => return None,
                };
                let entries = Entries::Mapped(Box::new(payload.skip(PREFIX)));
                PruneTable::from_entries(metric, table_sizes.clone(), format, head[1], entries)
                    .map(|t| (None, Some(t)))
            },
            || {
                let t = SymTable::build(
                    puzzle,
                    classes.take().expect("classes once"),
                    &a,
                    &b,
                    conj.take().expect("conjugation once"),
                    &goals,
                    metric,
                    allow_bytes,
                    &what,
                    progress,
                );
                let mut payload = vec![0u8; PREFIX];
                payload[0] = (t.table.format == Format::Bytes) as u8;
                payload[1] = t.table.max_depth;
                payload[8..16].copy_from_slice(&t.table.len.to_le_bytes());
                payload.extend_from_slice(t.table.raw());
                ((Some(t), None), payload)
            },
        );
        let table = match loaded {
            (Some(t), _) => t,
            (None, Some(entries)) => SymTable::from_parts(
                classes.take().expect("classes unused"),
                &a,
                &b,
                conj.take().expect("conjugation unused"),
                entries,
            ),
            (None, None) => unreachable!("a load gives a table"),
        };
        Ok(SymPruning {
            major,
            minor,
            table,
            plan: p,
        })
    }
}
