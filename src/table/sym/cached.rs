//! The symmetry-reduced table of a puzzle, planned in the memory the ordinary tables
//! leave, built (or loaded from the cache folder: its class table and its entries, each
//! under its own kind and key) and kept by [`Tables`] per metric.

use super::classes::Classes;
use super::plan::{plan_sym, SymPlan};
use super::table::{minor_conj, SymTable, Width};
use super::Conjugator;
use crate::progress::{format_bytes, format_count, format_duration, Progress};
use crate::puzzle::{Metric, Puzzle};
use crate::storage::file;
use crate::symmetry::SymmetryGroup;
use crate::table::comp::{CompError, Component};
use crate::table::plan::PlannedTable;
use crate::table::{plan, CompId, Tables, CONTENTS_VERSION};

/// A built symmetry-reduced table with the components it reads.
pub struct SymPruning {
    pub major: Vec<CompId>,
    pub minor: Vec<CompId>,
    pub table: SymTable,
    pub plan: SymPlan,
}

/// Reduced tables of this many entries or more are announced before they are built.
const NOTICE_FROM: u64 = 1 << 30;

/// Entries a reduced table's build settles per second per thread, measured on the
/// 3x3x3's corners × flips (11.3 G entries in 63 s on two threads, BENCHMARKS.md).
const BUILD_RATE: u64 = 90_000_000;

/// Reduced tables of this many entries or more (about 1.5 s to build on two threads)
/// may wait until a search shows it needs them ([`Tables::sym_deferrable`]); smaller
/// ones cost less to build than to decide about.
pub const DEFER_FROM: u64 = 1 << 28;

/// How many entries a reduced table's build settles in the time the search makes one
/// node: [`BUILD_RATE`] against the search's 3 to 10 M nodes per second per thread on
/// the 3x3x3 (BENCHMARKS.md), taken at 5 M.
pub const ENTRIES_PER_NODE: u64 = BUILD_RATE / 5_000_000;

/// What the process holds besides its tables (code, heap, the search's rows, small
/// table files mapped from the page cache): kept out of the reduced table's share, so
/// that a plan that fills the budget stays within it measured as peak resident size
/// (under 4G the two-bit corners × flips went 4% over without it).
fn reserve(budget: u64) -> u64 {
    (budget / 16).min(256 << 20)
}

/// How a budget is shared between the ordinary tables and a reduced table.
#[derive(Clone, Debug)]
pub struct Share {
    /// The budget the ordinary tables are planned in.
    pub ordinary: u64,
    /// The reduced table, planned in what the ordinary tables leave.
    pub plan: Option<SymPlan>,
}

/// The reduced table `solve` would add for `puzzle` under `budget`, if any, and the part
/// of the budget the ordinary tables are planned in.
///
/// The ordinary tables are planned in the whole budget, a half, a quarter, an eighth and
/// a sixteenth of it, and each time the reduced table gets what they leave. The split with the best
/// score wins (the ordinary plan's, plus the reduced table's log2 positions less one,
/// the same measure): a reduced table that sees a hundred times more positions than the
/// ordinary tables is worth most of the memory, while a small one is added to them.
pub fn planned(puzzle: &Puzzle, group: &SymmetryGroup, budget: u64) -> Result<Share, CompError> {
    planned_at(puzzle, group, budget, false)
}

/// [`planned`], with every reduced table at two bits per entry when `two_bits` (for
/// tests: small puzzles' tables always fit at four).
pub fn planned_at(
    puzzle: &Puzzle,
    group: &SymmetryGroup,
    budget: u64,
    two_bits: bool,
) -> Result<Share, CompError> {
    // The group's order bounds the positions the moves reach (exactly, with distinct
    // pieces); `None` (no bound) when the group cannot be built.
    let reachable = crate::group::Group::new(puzzle)
        .ok()
        .map(|g| g.order().to_u64().unwrap_or(u64::MAX));
    let mut best: Option<(f64, Share)> = None;
    let nb = puzzle.moves.len();
    // The largest share whose reduced table has four bits per entry.
    let mut exact: Option<(u64, SymPlan)> = None;
    // The most entries of one table in the whole budget's plan: a smaller share must buy
    // a reduced table that sees at least twice as many positions. Otherwise shrinking
    // the ordinary tables only makes a small reduced table (the 3x3x3's corners alone
    // under 1G) look large next to them, and the sum of scores, which rewards many
    // small tables, takes the trade.
    let mut largest = 0u64;
    let mut largest_table: Option<PlannedTable> = None;
    // Down to a sixteenth: the 3x3x3's corners × flips (5.6 GiB with its class table)
    // then fits the default budget of a 24 GiB machine (a quarter, 5.9 GiB) beside
    // small ordinary tables, which the search mostly leaves out next to it anyway.
    for shift in 0..5 {
        let ordinary = budget >> shift;
        let report = match plan::plan_report(puzzle, ordinary) {
            Ok(r) => r,
            // A smaller share that cannot hold the move tables the goal test needs
            // is no candidate; the whole budget's failure is the caller's error.
            Err(e) if shift == 0 => return Err(e),
            Err(_) => break,
        };
        let c = &report.candidates[report.best];
        // The scratch of the ordinary plan's largest build is free again once it is
        // built, before the reduced table is.
        let scratch = c.tables.iter().map(|t| t.len).max().unwrap_or(0);
        let left = budget
            .saturating_sub(c.bytes - scratch)
            .saturating_sub(reserve(budget));
        if shift == 0 {
            largest_table = c.tables.iter().max_by_key(|t| t.len).cloned();
            largest = largest_table.as_ref().map_or(0, |t| t.len);
        }
        let plan = plan_sym(puzzle, group, left, &report.chosen, reachable, false)
            .filter(|p| shift == 0 || p.positions() >= largest.saturating_mul(2))
            .map(|p| SymPlan {
                crumbs: p.crumbs || two_bits,
                ..p
            });
        // A smaller share without a reduced table only loses.
        if shift > 0 && plan.is_none() {
            continue;
        }
        let score = c.score
            + plan
                .as_ref()
                .map_or(0.0, |p| (p.weight(nb) as f64).log2() - 1.0);
        if let Some(p) = plan.as_ref().filter(|p| !p.crumbs) {
            exact.get_or_insert((ordinary, p.clone()));
        }
        // A smaller share must do clearly better to be taken; or hold a reduced table
        // of at least eight times the weight of the larger share's, which the search
        // then reads first and mostly alone (the 3x3x3 under 4G: the nxopt table at two
        // bits beside 0.7 GiB of ordinary tables rather than a small reduced table
        // beside 2.7 GiB, 8 times fewer nodes).
        let heavier = |b: &Share| match (&plan, &b.plan) {
            (Some(p), Some(q)) => p.weight(nb) / 8 >= q.weight(nb),
            _ => false,
        };
        if best
            .as_ref()
            .is_none_or(|(b, s)| score > b + 0.5 || heavier(s))
        {
            best = Some((score, Share { ordinary, plan }));
        }
        // Without a reduced table to gain, a smaller share only loses.
        if !super::plan::applies(puzzle, group) {
            break;
        }
    }
    let mut best = best.map(|(_, s)| s).unwrap_or(Share {
        ordinary: budget,
        plan: None,
    });
    // A two-bit table gives way to a four-bit one that sees as much in a smaller share:
    // its depths are all exact, and the ordinary tables it shrinks are mostly left out
    // next to it anyway.
    if let (Some(b), Some((ordinary, p))) = (best.plan.as_ref(), exact) {
        if b.crumbs && p.weight(nb) >= b.weight(nb) {
            best = Share {
                ordinary,
                plan: Some(p),
            };
        }
    }
    let replaced = match largest_table {
        Some(t) => replacing_largest(puzzle, group, budget, &t, reachable).map(|s| Share {
            plan: s.plan.map(|p| SymPlan {
                crumbs: p.crumbs || two_bits,
                ..p
            }),
            ..s
        }),
        None => None,
    };
    Ok(replaced.unwrap_or(best))
}

/// Where the whole budget's largest ordinary table holds every position of the puzzle
/// (the 2x2x2's 88 million corner positions and twists) and a reduced table sees exactly
/// what it sees in an eighth of its entries or fewer, the reduced table takes its place: the ordinary tables are
/// planned in the largest share (a 32nd of the budget or less) whose plan leaves that
/// table out, and the reduced table gets the rest. The bound is the same, the build a
/// fraction: the sum of scores that [`planned`] weighs would rather keep both.
fn replacing_largest(
    puzzle: &Puzzle,
    group: &SymmetryGroup,
    budget: u64,
    largest: &PlannedTable,
    reachable: Option<u64>,
) -> Option<Share> {
    // Only a table of every position the moves reach, a God's table: then the reduced
    // table is exact too and nothing the smaller share loses can matter. A table of
    // part of a puzzle (the 3x3x3's corners) keeps its place beside the others.
    if reachable != Some(largest.len) {
        return None;
    }
    let mut seen = largest.comps.clone();
    seen.sort_by_key(|c| c.key_bytes());
    for shift in 5..=20 {
        let ordinary = budget >> shift;
        let Ok(report) = plan::plan_report(puzzle, ordinary) else {
            break;
        };
        let c = &report.candidates[report.best];
        if c.tables.iter().any(|t| t.len >= largest.len) {
            continue;
        }
        let scratch = c.tables.iter().map(|t| t.len).max().unwrap_or(0);
        let left = budget.saturating_sub(c.bytes - scratch);
        let p = plan_sym(puzzle, group, left, &report.chosen, reachable, true)?;
        let mut comps: Vec<_> = p.major.iter().chain(&p.minor).cloned().collect();
        comps.sort_by_key(|c| c.key_bytes());
        let fraction = p.estimate().saturating_mul(8) <= largest.len;
        return (comps == seen && fraction).then_some(Share {
            ordinary,
            plan: Some(p),
        });
    }
    None
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
            let built = match self.share(puzzle, group)?.plan {
                Some(p) => Some(self.build_sym(puzzle, metric, group, p, progress)?),
                None => None,
            };
            self.sym.insert(metric, built);
        }
        Ok(self.sym[&metric].as_ref())
    }

    /// The entries of the reduced table `metric` would use, when building it may wait:
    /// it is planned, not built in this run, not in the cache folder, and large (at
    /// least `from` entries, [`DEFER_FROM`] but in tests). `None` when it is already
    /// there, none is planned, or it is small enough to build at once.
    pub fn sym_deferrable(
        &mut self,
        puzzle: &Puzzle,
        metric: Metric,
        group: &SymmetryGroup,
        from: u64,
    ) -> Result<Option<u64>, CompError> {
        if self.sym.contains_key(&metric) {
            return Ok(None);
        }
        let Some(p) = self.share(puzzle, group)?.plan else {
            return Ok(None);
        };
        let entries = p.estimate();
        let prefix = format!("st-{}-{}-", metric.name(), p.name);
        Ok((entries >= from && !self.cache.holds_any(&prefix)).then_some(entries))
    }

    /// How this budget is shared with a reduced table (planned once, then kept): call
    /// before the definition's ordinary tables are built, so that they are planned in
    /// their share.
    pub fn share(&mut self, puzzle: &Puzzle, group: &SymmetryGroup) -> Result<Share, CompError> {
        if self.share.is_none() {
            self.share = Some(planned_at(puzzle, group, self.budget, self.two_bits)?);
        }
        Ok(self.share.clone().expect("just planned"))
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
                progress.start(&what, Some(p.raw));
                let conj = Conjugator::new(puzzle, &a);
                let c = Classes::build(puzzle, group, &p.syms, &conj, &sizes, progress)
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
        let allow_bytes = !p.crumbs && classes.count() * p.minor_len <= self.budget / 8;
        params.push(allow_bytes as u8);
        if p.crumbs {
            params.extend_from_slice(b"crumbs, entries padded to 32 bytes, then the fallback");
        }
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
        let entries = nclasses * p.minor_len;
        if entries >= NOTICE_FROM && !self.cached(&name, &params) {
            let threads = rayon::current_num_threads().max(1) as u64;
            let secs = entries / (BUILD_RATE * threads) + 1;
            progress.note(&format!(
                "building a symmetry-reduced table of {} entries ({}), roughly {} on {threads} thread(s)",
                format_count(entries),
                format_bytes(p.entry_bytes()),
                format_duration(std::time::Duration::from_secs(secs)),
            ));
        }
        let mut classes = Some(classes);
        let mut conj = Some(conj);
        let loaded = self.cache.load_or_build_parts(
            "ksolve-symprune",
            &name,
            &params,
            progress,
            |payload| {
                crate::table::prune_from_payload(payload, metric, table_sizes.clone())
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
                    if p.crumbs {
                        Width::Crumbs
                    } else {
                        Width::Nibbles { allow_bytes }
                    },
                    &what,
                    progress,
                );
                let prefix = crate::table::prune_prefix(&t.table);
                ((Some(t), None), prefix)
            },
            |built| {
                built
                    .0
                    .as_ref()
                    .map_or_else(Vec::new, |t| t.table.stored_parts())
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
