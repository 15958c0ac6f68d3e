//! Choosing the pruning tables for a puzzle under a memory budget.
//!
//! Every table is built from the definition's `Ignore` relaxation: a permutation
//! component sees the labels of pieces that sit only at ignored positions as one
//! wildcard, and orientation components keep every position but take all orientations
//! at ignored positions as goals. Such a table is admissible for any scramble, whose
//! `?` marks are always within the definition's `Ignore`.
//!
//! The choice is greedy: each set's permutation and orientation together (one table per
//! tracked group of a set too large for one coordinate); when the budget is exceeded,
//! the largest combined table is split into its parts, and parts that still do not fit
//! are dropped. Tiny tables of different sets are merged, which costs nothing and only
//! sharpens the bound.
//!
//! Memory counts everything the search will hold: the move tables of every component
//! its goal test reads (which include those the pruning tables read), the pruning
//! tables, and the scratch of the largest one while it is built. The move tables are
//! counted from the parts' sizes before any relabelling is built, so that a set of
//! 20,000 pieces over budget is refused in milliseconds rather than after gigabytes.

use super::additive::{plan_family, FamilyPlan};
use super::comp::{spec_count, CompError, CompKind, CompSpec, MAX_COMPONENT_VALUES};
use super::relabel::{
    mask_relabel, moves_keep_ori_sum, orbit_factors, split_groups, split_relabel,
};
use crate::puzzle::{IgnoreMask, Puzzle};

/// One planned table: a product of components and a stable, readable name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedTable {
    pub comps: Vec<CompSpec>,
    pub name: String,
    /// Number of entries.
    pub len: u64,
}

/// The components of the goal test (and the smallest choice of the pruning tables') keep
/// their move tables under this many bytes each; the pruning tables may use larger
/// components when the budget holds their move tables ([`plan_report`]).
const GOAL_MOVE_TABLE_BYTES: u64 = 64 << 20;

/// Two tables are merged when their product has at most this many entries (2 MiB).
const MERGE_BELOW: u64 = 1 << 22;

/// Two tables are also merged when their product has at most this many entries
/// (128 MiB) and the budget holds it: a product sees every combination of what its
/// factors see, so its bound is at least the larger factor's and usually far above it
/// (a 4x4x4 chain's third phase: 200 M nodes with its two tables of wings apart, 0.8 M
/// with them as one of 141 M entries). Builds this large wait for a trial search in
/// smaller tables first (`Tables::trial_budget`), so a position the smaller ones
/// answer quickly never pays for them.
const MERGE_WITHIN_BUDGET: u64 = 1 << 28;

/// The largest number of values a goal component of this puzzle may have: its move
/// table must fit [`GOAL_MOVE_TABLE_BYTES`].
pub fn component_limit(puzzle: &Puzzle) -> u64 {
    let nm = puzzle.moves.len().max(1) as u64;
    (GOAL_MOVE_TABLE_BYTES / 4 / nm).min(MAX_COMPONENT_VALUES)
}

/// The orientation component of a set, if its pieces have orientations. The sum rule
/// is used when every move keeps the set's orientation sum and neither the definition's
/// `Ignore` nor its goal leaves an orientation of the set unknown (otherwise goal states
/// of several sums exist); the sum is then the solved state's.
pub fn ori_spec(puzzle: &Puzzle, set: usize) -> Option<CompSpec> {
    let n = puzzle.sets[set].orientations;
    if n <= 1 {
        return None;
    }
    let ignores = puzzle
        .ignore
        .get(set)
        .is_some_and(|m| m.ori.iter().any(|&b| b));
    // A goal that knows an orientation of the set only modulo a divisor holds positions
    // of several sums too.
    let modulo = (0..puzzle.sets[set].size).any(|i| puzzle.ori_modulus(set, i) < n);
    let sum = if moves_keep_ori_sum(puzzle, set) && !ignores && !modulo {
        let total: u32 = puzzle.solved.sets[set].ori.iter().map(|&o| o as u32).sum();
        Some((total % n as u32) as u8)
    } else {
        None
    };
    Some(CompSpec {
        set,
        kind: CompKind::Ori { sum },
    })
}

/// The permutation components that together see set `set` as `mask` allows, split into
/// tracked groups when one coordinate would be too large. Components with a single
/// value (nothing to see) are left out.
pub fn perm_specs(
    puzzle: &Puzzle,
    set: usize,
    mask: Option<&IgnoreMask>,
    limit: u64,
) -> Vec<CompSpec> {
    perm_parts(puzzle, set, mask, limit)
        .into_iter()
        .flatten()
        .collect()
}

/// [`perm_specs`] part by part: each part as its components, one per orbit where the
/// part's labels stay in their orbits ([`orbit_factors`]), else the part alone. A
/// pruning table sees a part as the product of its components.
pub fn perm_parts(
    puzzle: &Puzzle,
    set: usize,
    mask: Option<&IgnoreMask>,
    limit: u64,
) -> Vec<Vec<CompSpec>> {
    let (relabel, wild) = mask_relabel(puzzle, set, mask);
    let spec = |relabel| CompSpec {
        set,
        kind: CompKind::Perm { relabel },
    };
    split_relabel(puzzle, set, &relabel, wild, 1, limit)
        .into_iter()
        .map(|(relabel, _)| match orbit_factors(puzzle, set, &relabel) {
            Some(factors) => factors.into_iter().map(spec).collect(),
            None => vec![spec(relabel)],
        })
        .map(|part: Vec<CompSpec>| {
            part.into_iter()
                .filter(|s| spec_count(puzzle, s).is_ok_and(|c| c > 1))
                .collect::<Vec<_>>()
        })
        .filter(|part| !part.is_empty())
        .collect()
}

/// The components that together see set `set` as `mask` allows: permutation parts and
/// the orientation component, or, when the orientation vector alone has too many
/// values for one component, parts that each carry their own pieces' orientations
/// ([`CompKind::Pieces`]) and no orientation component.
pub fn set_specs(
    puzzle: &Puzzle,
    set: usize,
    mask: Option<&IgnoreMask>,
) -> (Vec<CompSpec>, Option<CompSpec>) {
    set_specs_with(puzzle, set, mask, component_limit(puzzle))
}

/// Like [`set_specs`], with components of at most `limit` values.
pub fn set_specs_with(
    puzzle: &Puzzle,
    set: usize,
    mask: Option<&IgnoreMask>,
    limit: u64,
) -> (Vec<CompSpec>, Option<CompSpec>) {
    let ori = ori_spec(puzzle, set);
    let too_big = ori
        .as_ref()
        .is_some_and(|o| spec_count(puzzle, o).map_or(true, |c| c > limit));
    if !too_big {
        let ori = ori.filter(|s| spec_count(puzzle, s).is_ok_and(|c| c > 1));
        return (perm_specs(puzzle, set, mask, limit), ori);
    }
    let n = puzzle.sets[set].orientations as u64;
    let (relabel, wild) = mask_relabel(puzzle, set, mask);
    let parts = split_relabel(puzzle, set, &relabel, wild, n, limit)
        .into_iter()
        .map(|(relabel, tracked)| CompSpec {
            set,
            kind: CompKind::Pieces { relabel, tracked },
        })
        .filter(|s| spec_count(puzzle, s).is_ok_and(|c| c > 1))
        .collect();
    (parts, None)
}

/// Bytes the components of one set's goal test take, as [`set_specs`] would make them:
/// per component, its move table (four bytes per value and move) and its relabelling
/// (held twice, by the spec and by the coder). Nothing proportional to the number of
/// parts times the set's size is allocated.
fn set_goal_bytes(puzzle: &Puzzle, set: usize, mask: Option<&IgnoreMask>) -> u64 {
    let limit = component_limit(puzzle);
    let per_value = puzzle.moves.len() as u64 * 4;
    let ori = ori_spec(puzzle, set).map(|o| spec_count(puzzle, &o).unwrap_or(u64::MAX));
    let too_big = ori.is_some_and(|c| c > limit);
    let ori_n = if too_big {
        puzzle.sets[set].orientations as u64
    } else {
        1
    };
    let (relabel, wild) = mask_relabel(puzzle, set, mask);
    let relabel_bytes = relabel.len() as u64 * 4;
    // The components' values, a part ranked orbit by orbit counting each orbit's.
    let parts: Vec<u64> = match split_groups(puzzle, set, &relabel, wild, ori_n, limit) {
        Some(groups) => groups
            .iter()
            .flat_map(|g| match g.factors.is_empty() {
                true => vec![g.values],
                false => g.factors.clone(),
            })
            .collect(),
        None => {
            let factors = (!too_big)
                .then(|| orbit_factors(puzzle, set, &relabel))
                .flatten();
            let kinds = match factors {
                Some(f) => f
                    .into_iter()
                    .map(|relabel| CompKind::Perm { relabel })
                    .collect(),
                None if too_big => vec![CompKind::Pieces {
                    tracked: wild.unwrap_or(u16::MAX),
                    relabel,
                }],
                None => vec![CompKind::Perm { relabel }],
            };
            kinds
                .into_iter()
                .map(|kind| spec_count(puzzle, &CompSpec { set, kind }).unwrap_or(u64::MAX))
                .collect()
        }
    };
    let mut bytes = parts
        .iter()
        .filter(|&&v| v > 1)
        .map(|&v| v.saturating_mul(per_value).saturating_add(relabel_bytes))
        .fold(0, u64::saturating_add);
    if let Some(c) = ori.filter(|&c| !too_big && c > 1) {
        bytes = bytes.saturating_add(c.saturating_mul(per_value));
    }
    bytes
}

/// Bytes the move tables of a goal test with these ignore masks take (see
/// [`set_goal_bytes`]).
pub fn goal_bytes(puzzle: &Puzzle, ignore: &[IgnoreMask]) -> u64 {
    (0..puzzle.sets.len())
        .map(|set| set_goal_bytes(puzzle, set, ignore.get(set)))
        .fold(0, u64::saturating_add)
}

/// Refuses a budget that cannot hold the move tables a search with these ignore masks
/// needs, naming what it needs.
pub fn check_goal(puzzle: &Puzzle, ignore: &[IgnoreMask], budget: u64) -> Result<u64, CompError> {
    let needed = goal_bytes(puzzle, ignore);
    if needed > budget {
        return Err(CompError::OverBudget {
            what: "this puzzle's move tables".into(),
            needed,
            budget,
        });
    }
    Ok(needed)
}

/// Bytes a set of pruning tables needs besides the move tables: their entries at two
/// per byte, plus one byte per entry of the largest while it is built.
fn pruning_needed(units: &[PlannedTable]) -> u64 {
    let stored: u64 = units
        .iter()
        .map(|u| u.len.div_ceil(2))
        .fold(0, u64::saturating_add);
    let building = units.iter().map(|u| u.len).max().unwrap_or(0);
    stored.saturating_add(building)
}

/// What a product of components sees, in words for progress lines: per set, its name
/// and what of it is seen (`EDGES positions and twists`; sets joined by ` + `).
pub fn describe(puzzle: &Puzzle, comps: &[CompSpec]) -> String {
    let mut sets: Vec<(usize, Vec<String>)> = Vec::new();
    for c in comps {
        let facet = match &c.kind {
            CompKind::Perm { relabel } => {
                let alone = singled_out(relabel, |_| true);
                if alone.len() == relabel.len() {
                    "positions".to_string()
                } else if alone.is_empty() {
                    let distinct = relabel
                        .iter()
                        .collect::<std::collections::BTreeSet<_>>()
                        .len();
                    format!("positions of {distinct} kinds of piece")
                } else {
                    format!("positions of {}", pieces_in_words(&alone))
                }
            }
            CompKind::Ori { .. } => "twists".to_string(),
            CompKind::Pos => "block piece positions".to_string(),
            CompKind::Pieces { relabel, tracked } => {
                let alone = singled_out(relabel, |l| l < *tracked);
                format!("positions and twists of {}", pieces_in_words(&alone))
            }
        };
        match sets.iter_mut().find(|(s, _)| *s == c.set) {
            Some((_, facets)) => facets.push(facet),
            None => sets.push((c.set, vec![facet])),
        }
    }
    sets.iter()
        .map(|(s, f)| format!("{} {}", puzzle.sets[*s].name, f.join(" and ")))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The pieces (0-based labels) that a relabelling tells apart from every other piece
/// and whose new label passes `keep`.
fn singled_out(relabel: &[u16], keep: impl Fn(u16) -> bool) -> Vec<usize> {
    (0..relabel.len())
        .filter(|&l| {
            let to = relabel[l];
            keep(to) && relabel.iter().filter(|&&x| x == to).count() == 1
        })
        .collect()
}

/// Pieces as the definition numbers them (from 1), runs shortened: `pieces 1-6`,
/// `pieces 2 5 7-9`, `piece 4`.
fn pieces_in_words(labels: &[usize]) -> String {
    let mut runs: Vec<String> = Vec::new();
    let mut i = 0;
    while i < labels.len() {
        let mut j = i;
        while j + 1 < labels.len() && labels[j + 1] == labels[j] + 1 {
            j += 1;
        }
        runs.push(match j - i {
            0 => format!("{}", labels[i] + 1),
            1 => format!("{} {}", labels[i] + 1, labels[j] + 1),
            _ => format!("{}-{}", labels[i] + 1, labels[j] + 1),
        });
        i = j + 1;
    }
    let word = if labels.len() == 1 { "piece" } else { "pieces" };
    format!("{word} {}", runs.join(" "))
}

fn unit(puzzle: &Puzzle, comps: Vec<CompSpec>, names: Vec<String>) -> PlannedTable {
    let len = comps
        .iter()
        .map(|c| spec_count(puzzle, c).unwrap_or(u64::MAX))
        .fold(1u64, |a, b| a.saturating_mul(b));
    PlannedTable {
        comps,
        name: names.join("+"),
        len,
    }
}

/// The product of two planned tables (components both read are read once).
fn merged(puzzle: &Puzzle, a: PlannedTable, b: PlannedTable) -> PlannedTable {
    let mut comps = a.comps;
    for c in b.comps {
        if !comps.contains(&c) {
            comps.push(c);
        }
    }
    unit(puzzle, comps, vec![a.name, b.name])
}

/// The tables to build for `puzzle` within `budget` bytes, which must first hold the
/// move tables of every component the search reads; `Err` when they alone do not fit.
pub fn plan(puzzle: &Puzzle, budget: u64) -> Result<Vec<PlannedTable>, CompError> {
    Ok(plan_report(puzzle, budget)?.chosen)
}

/// One way of seeing the sets that the planner weighed: the largest component it
/// allowed, the tables that fit the budget that way, the bytes they need in all (goal
/// move tables, the extra move tables of larger components, pruning entries and the
/// largest build's scratch) and the score the choice maximises.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub limit: u64,
    pub tables: Vec<PlannedTable>,
    pub bytes: u64,
    pub score: f64,
}

/// What the planner chose and what it weighed, for `solve -v`.
#[derive(Clone, Debug)]
pub struct PlanReport {
    pub chosen: Vec<PlannedTable>,
    pub candidates: Vec<Candidate>,
    /// Index of the chosen candidate.
    pub best: usize,
    /// The additive family for a guarded set, planned before the ordinary tables
    /// (which then leave that set to it and take what the family leaves of the budget).
    pub additive: Option<FamilyPlan>,
    /// Why a guarded puzzle has no additive family (for `solve -v`).
    pub not_additive: Option<String>,
}

/// The score of a set of tables: a table's typical bound grows with the logarithm of
/// its entries, less one (fewer, larger tables prune better than many small ones of
/// the same total). The search takes the largest bound at each node, so the largest
/// table counts in full and each smaller one half as much as the one before it: a
/// second table raises the bound only where it sees further than the first. (A plain
/// sum let three tables of half a million entries outscore one of 104 million beside
/// two of 2.8 million, and the 4x4x4's pairing phase took 30 times the nodes.)
fn score(tables: &[PlannedTable]) -> f64 {
    let mut logs: Vec<f64> = tables
        .iter()
        .map(|t| (t.len.max(1) as f64).log2() - 1.0)
        .collect();
    logs.sort_by(|a, b| b.total_cmp(a));
    logs.iter()
        .enumerate()
        .map(|(i, l)| l / f64::from(1u32 << i.min(31)))
        .sum()
}

/// How much more a plan with larger components must score to be chosen: one, as for
/// a largest table of twice the entries.
const MIN_GAIN: f64 = 1.0;

/// Plans the tables with components of at most the goal test's size, then with larger
/// ones (four times as many values each step, up to [`MAX_COMPONENT_VALUES`]), counting
/// the move tables of the larger components against the budget, and keeps the plan with
/// the best [`score`], where larger components must gain at least [`MIN_GAIN`].
pub fn plan_report(puzzle: &Puzzle, budget: u64) -> Result<PlanReport, CompError> {
    plan_report_with(puzzle, budget, true)
}

/// [`plan_report`], with or without an additive family (a scramble file's goal has
/// none: the family holds distances to the definition's goal only).
pub fn plan_report_with(
    puzzle: &Puzzle,
    budget: u64,
    additive: bool,
) -> Result<PlanReport, CompError> {
    let goal = check_goal(puzzle, &puzzle.ignore, budget)?;
    // A guarded puzzle's additive family is far sharper than the ordinary tables,
    // which ignore guards: it gets the budget first, and its set is left to it.
    let (additive, not_additive) = if additive && puzzle.has_guards() {
        match plan_family(puzzle, budget - goal) {
            Ok(f) => (Some(f), None),
            Err(e) => (None, Some(e.0)),
        }
    } else {
        (None, None)
    };
    let skip = additive.as_ref().map(|f| f.shape.set);
    let budget = budget - additive.as_ref().map_or(0, FamilyPlan::bytes);
    let base = component_limit(puzzle);
    let mut limits = vec![base];
    while let Some(&last) = limits.last() {
        if last >= MAX_COMPONENT_VALUES {
            break;
        }
        limits.push(last.saturating_mul(4).min(MAX_COMPONENT_VALUES));
    }
    let goal_specs = goal_specs(puzzle);
    let mut candidates: Vec<Candidate> = Vec::new();
    for limit in limits {
        let tables = plan_with(puzzle, budget - goal, limit, &goal_specs, skip);
        let bytes = goal + extra_move_bytes(puzzle, &tables, &goal_specs) + pruning_needed(&tables);
        let score = score(&tables);
        // The same tables as a smaller limit gave: nothing new.
        if candidates.iter().any(|c| c.tables == tables) {
            continue;
        }
        candidates.push(Candidate {
            limit,
            tables,
            bytes,
            score,
        });
    }
    // Larger components cost move tables (four bytes per value and move, far more than
    // their pruning entries): a larger limit is taken only when it scores at least
    // `MIN_GAIN` above the best smaller one. (The 4x4x4's pairing phase scored 0.4
    // higher with a part of nine wings, for the same nodes and 400 MB more.)
    let mut best = 0;
    for (i, c) in candidates.iter().enumerate().skip(1) {
        if c.score >= candidates[best].score + MIN_GAIN {
            best = i;
        }
    }
    Ok(PlanReport {
        chosen: candidates[best].tables.clone(),
        candidates,
        best,
        additive,
        not_additive,
    })
}

/// Bytes of the move tables (and relabellings) of the components `tables` read that
/// the goal test does not already hold.
fn extra_move_bytes(puzzle: &Puzzle, tables: &[PlannedTable], goal: &[CompSpec]) -> u64 {
    let mut seen: Vec<&CompSpec> = Vec::new();
    let per_value = puzzle.moves.len() as u64 * 4;
    let mut bytes = 0u64;
    for c in tables.iter().flat_map(|t| &t.comps) {
        if goal.contains(c) || seen.contains(&c) {
            continue;
        }
        seen.push(c);
        let relabel = match &c.kind {
            CompKind::Perm { relabel } | CompKind::Pieces { relabel, .. } => relabel.len() as u64,
            CompKind::Ori { .. } | CompKind::Pos => 0,
        };
        let values = spec_count(puzzle, c).unwrap_or(u64::MAX);
        bytes = bytes
            .saturating_add(values.saturating_mul(per_value))
            .saturating_add(relabel * 4);
    }
    bytes
}

/// The components of the definition's goal test, as the planner counts them.
fn goal_specs(puzzle: &Puzzle) -> Vec<CompSpec> {
    let limit = component_limit(puzzle);
    (0..puzzle.sets.len())
        .flat_map(|set| {
            let (parts, ori) = set_specs_with(puzzle, set, puzzle.ignore.get(set), limit);
            parts.into_iter().chain(ori)
        })
        .collect()
}

/// `report` (planned in `budget`) with [`with_extra`]'s table added to the chosen plan
/// where the budget holds it.
pub fn add_extra_table(puzzle: &Puzzle, report: &mut PlanReport, budget: u64) {
    let goal_specs = goal_specs(puzzle);
    let goal = goal_bytes(puzzle, &puzzle.ignore);
    let held = budget
        .saturating_sub(goal)
        .saturating_sub(report.additive.as_ref().map_or(0, FamilyPlan::bytes));
    let chosen = &mut report.candidates[report.best];
    let tables = with_extra(puzzle, chosen.tables.clone(), held, &goal_specs);
    if tables != chosen.tables {
        chosen.bytes =
            goal + extra_move_bytes(puzzle, &tables, &goal_specs) + pruning_needed(&tables);
        chosen.score = score(&tables);
        chosen.tables = tables.clone();
        report.chosen = tables;
    }
}

/// The tables within `budget` bytes (after the goal test's move tables) with
/// components of at most `limit` values: each set's arrangement and orientation
/// together; when the budget is exceeded, the largest combined table is split into its
/// parts, and parts that still do not fit are dropped; tiny tables are merged. Set
/// `skip` (left to an additive family) gets none.
fn plan_with(
    puzzle: &Puzzle,
    budget: u64,
    limit: u64,
    goal: &[CompSpec],
    skip: Option<usize>,
) -> Vec<PlannedTable> {
    let mut units: Vec<PlannedTable> = Vec::new();
    for set in (0..puzzle.sets.len()).filter(|&s| Some(s) != skip) {
        let name = &puzzle.sets[set].name;
        let (flat, ori) = set_specs_with(puzzle, set, puzzle.ignore.get(set), limit);
        let pieces = flat
            .iter()
            .any(|p| matches!(p.kind, CompKind::Pieces { .. }));
        // Each part with the components it is ranked by (one per orbit, or itself).
        let perms: Vec<Vec<CompSpec>> = match pieces {
            true => flat.into_iter().map(|p| vec![p]).collect(),
            false => perm_parts(puzzle, set, puzzle.ignore.get(set), limit),
        };
        let multi = perms.len() > 1;
        let letter = if pieces { "k" } else { "p" };
        let pname = |k: usize| {
            if multi {
                format!("{name}.{letter}{k}")
            } else {
                format!("{name}.{letter}")
            }
        };
        match (&ori, perms.is_empty()) {
            (Some(o), true) => units.push(unit(puzzle, vec![o.clone()], vec![format!("{name}.o")])),
            (Some(o), false) => {
                for (k, p) in perms.iter().enumerate() {
                    let mut comps = p.clone();
                    comps.push(o.clone());
                    units.push(unit(puzzle, comps, vec![format!("{}o", pname(k))]));
                }
            }
            (None, _) => {
                for (k, p) in perms.iter().enumerate() {
                    units.push(unit(puzzle, p.clone(), vec![pname(k)]));
                }
            }
        }
    }
    // Within budget: split the largest combined table, or drop the largest single one.
    let needed = |units: &[PlannedTable]| {
        pruning_needed(units).saturating_add(extra_move_bytes(puzzle, units, goal))
    };
    while needed(&units) > budget && !units.is_empty() {
        let (i, _) = units
            .iter()
            .enumerate()
            .max_by_key(|(_, u)| u.len)
            .expect("non-empty");
        let u = units.remove(i);
        if u.comps.len() > 1 {
            for c in u.comps {
                let set = &puzzle.sets[c.set].name;
                let tag = c.tag();
                let part = unit(puzzle, vec![c], vec![format!("{set}.{tag}")]);
                if !units.iter().any(|x| x.comps == part.comps) {
                    units.push(part);
                }
            }
        }
    }
    // Merge tiny tables: the product of two tiny abstractions is still tiny and at
    // least as sharp as either.
    loop {
        units.sort_by_key(|u| u.len);
        if units.len() < 2 || units[0].len.saturating_mul(units[1].len) > MERGE_BELOW {
            break;
        }
        let b = units.remove(1);
        let a = units.remove(0);
        units.push(merged(puzzle, a, b));
    }
    // Then larger products, the smallest first, while the budget holds them.
    while units.len() >= 2 {
        units.sort_by_key(|u| u.len);
        if units[0].len.saturating_mul(units[1].len) > MERGE_WITHIN_BUDGET {
            break;
        }
        let mut trial = units[2..].to_vec();
        trial.push(merged(puzzle, units[0].clone(), units[1].clone()));
        if needed(&trial) > budget {
            break;
        }
        units = trial;
    }
    // The largest table prunes most often: look it up first.
    units.sort_by_key(|u| std::cmp::Reverse(u.len));
    units
}

/// The chosen tables with one more, where their largest is still far below
/// [`MERGE_WITHIN_BUDGET`] and the budget (after the goal test's move tables) holds it:
/// the largest with the component of another table that makes the largest product
/// within that size (the 4x4x4 chain's pairing phase: its 2.7 M-entry wings with the
/// 70 arrangements of four centres, beside the centres' own table; nodes 499 M to 83
/// M on its hardest position). The tables overlap, which costs nothing but memory: the
/// search takes the largest bound. It is added after the choice between component
/// limits, which it would otherwise sway towards tables that bound worse.
///
/// The symmetry-reduced table's share is weighed against the plan without it
/// (`sym::cached`), so only a plan with no reduced table beside it takes it: the
/// callers that build ([`crate::table::Tables`]) and show
/// ([`crate::search::Solver::plan`]) the tables call [`add_extra_table`].
fn with_extra(
    puzzle: &Puzzle,
    mut units: Vec<PlannedTable>,
    budget: u64,
    goal: &[CompSpec],
) -> Vec<PlannedTable> {
    let Some(largest) = units.first().filter(|u| u.len <= MERGE_WITHIN_BUDGET / 16) else {
        return units;
    };
    let best = units[1..]
        .iter()
        .flat_map(|u| &u.comps)
        .filter(|c| !largest.comps.contains(c))
        .filter_map(|c| {
            let n = spec_count(puzzle, c).ok()?;
            let product = largest.len.checked_mul(n)?;
            (n > 1 && product <= MERGE_WITHIN_BUDGET).then_some((product, c))
        })
        .max_by_key(|&(product, _)| product);
    if let Some((_, c)) = best {
        let name = format!("{}.{}", puzzle.sets[c.set].name, c.tag());
        let extra = merged(
            puzzle,
            largest.clone(),
            unit(puzzle, vec![c.clone()], vec![name]),
        );
        let mut trial = units.clone();
        trial.insert(0, extra);
        let needed = pruning_needed(&trial).saturating_add(extra_move_bytes(puzzle, &trial, goal));
        if needed <= budget {
            units = trial;
        }
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::cache::TableCache;
    use crate::table::testing::{cube2, puzzle, transform};
    use crate::table::Tables;

    /// One set of `n` distinct pieces turned by two moves of disjoint swaps, (0 1)(2 3)...
    /// and (1 2)(3 4)..., which together connect every position (one orbit).
    fn swaps(n: usize) -> Puzzle {
        let mut a: Vec<u16> = (1..=n as u16).collect();
        for i in (0..n - 1).step_by(2) {
            a.swap(i, i + 1);
        }
        let mut b: Vec<u16> = (1..=n as u16).collect();
        for i in (1..n - 1).step_by(2) {
            b.swap(i, i + 1);
        }
        puzzle(
            "swaps",
            &[("A", n, 1)],
            vec![
                ("X", transform(&[(&a, &[])])),
                ("Y", transform(&[(&b, &[])])),
            ],
        )
    }

    #[test]
    fn tables_are_described_in_words() {
        let p = cube2();
        let planned = plan(&p, u64::MAX).unwrap();
        assert_eq!(planned.len(), 1);
        assert_eq!(
            describe(&p, &planned[0].comps),
            "CORNERS positions and twists"
        );
        let (parts, ori) = set_specs(&p, 0, None);
        assert_eq!(describe(&p, &[ori.unwrap()]), "CORNERS twists");
        let mut relabel = match &parts[0].kind {
            CompKind::Perm { relabel } => relabel.clone(),
            other => panic!("{other:?}"),
        };
        // Pieces 1, 2, 4 and 5 told apart, 3, 6 and 7 one wildcard.
        for l in [2, 5, 6] {
            relabel[l] = 9;
        }
        let partial = CompSpec {
            set: 0,
            kind: CompKind::Perm {
                relabel: relabel.clone(),
            },
        };
        assert_eq!(
            describe(&p, &[partial]),
            "CORNERS positions of pieces 1 2 4 5"
        );
        // No piece alone: the kinds are counted instead.
        let pairs = CompSpec {
            set: 0,
            kind: CompKind::Perm {
                relabel: vec![0, 0, 1, 1, 2, 2, 2],
            },
        };
        assert_eq!(
            describe(&p, &[pairs]),
            "CORNERS positions of 3 kinds of piece"
        );
        assert_eq!(pieces_in_words(&[0, 1, 2, 3, 4, 5]), "pieces 1-6");
        assert_eq!(pieces_in_words(&[1, 4, 6, 7, 8]), "pieces 2 5 7-9");
        assert_eq!(pieces_in_words(&[3]), "piece 4");
    }

    #[test]
    fn the_estimate_is_what_the_goal_components_take() {
        let p = cube2();
        let mut tables = Tables::new(TableCache::in_memory(), u64::MAX);
        let (parts, ori) = set_specs(&p, 0, p.ignore.first());
        for spec in parts.iter().chain(&ori) {
            tables
                .component(&p, spec, &crate::progress::Silent)
                .unwrap();
        }
        assert_eq!(goal_bytes(&p, &p.ignore), tables.used);
        // A set split into parts: the parts the estimate counts are those built.
        let p = swaps(300);
        let (relabel, wild) = mask_relabel(&p, 0, None);
        let limit = component_limit(&p);
        let groups = split_groups(&p, 0, &relabel, wild, 1, limit).unwrap();
        let parts = split_relabel(&p, 0, &relabel, wild, 1, limit);
        assert_eq!(groups.len(), parts.len());
        for (g, (relabel, _)) in groups.iter().zip(parts) {
            let spec = CompSpec {
                set: 0,
                kind: CompKind::Perm { relabel },
            };
            assert_eq!(g.values, spec_count(&p, &spec).unwrap());
        }
    }

    /// Two sets of seven distinct pieces, each turned by a swap and a cycle of all
    /// seven: two tables of 5,040 entries whose product, 25.4 M, is past the tiny merge.
    fn two_sevens() -> Puzzle {
        let swap: Vec<u16> = [2, 1, 3, 4, 5, 6, 7].to_vec();
        let cycle: Vec<u16> = [2, 3, 4, 5, 6, 7, 1].to_vec();
        let id: Vec<u16> = (1..=7).collect();
        puzzle(
            "two sevens",
            &[("A", 7, 1), ("B", 7, 1)],
            vec![
                ("X", transform(&[(&swap, &[]), (&id, &[])])),
                ("Y", transform(&[(&cycle, &[]), (&id, &[])])),
                ("Z", transform(&[(&id, &[]), (&swap, &[])])),
                ("W", transform(&[(&id, &[]), (&cycle, &[])])),
            ],
        )
    }

    /// Tables are merged past the tiny threshold where the budget holds the product,
    /// and kept apart where it does not.
    #[test]
    fn larger_products_are_merged_within_the_budget() {
        let p = two_sevens();
        let roomy = plan(&p, 1 << 30).unwrap();
        assert_eq!(roomy.len(), 1, "{roomy:?}");
        assert_eq!(roomy[0].len, 5040 * 5040);
        // Under 16 MiB the product's entries and build scratch (38 MB) do not fit.
        let tight = plan(&p, 16 << 20).unwrap();
        assert_eq!(
            tight.iter().map(|t| t.len).collect::<Vec<_>>(),
            vec![5040, 5040]
        );
    }

    /// The largest table counts first: one large table beside two middling ones
    /// outscores more, smaller tables whose log sizes sum higher.
    #[test]
    fn the_score_follows_the_largest_table() {
        let table = |len: u64| PlannedTable {
            comps: Vec::new(),
            name: String::new(),
            len,
        };
        let large = [table(104_509_440), table(2_822_400), table(2_822_400)];
        let many = [
            table(1_327_104),
            table(564_480),
            table(564_480),
            table(5_040),
        ];
        let sum = |ts: &[PlannedTable]| ts.iter().map(|t| (t.len as f64).log2() - 1.0).sum::<f64>();
        assert!(sum(&many) > sum(&large));
        assert!(score(&large) > score(&many) + MIN_GAIN);
    }

    #[test]
    fn move_tables_count_against_the_budget() {
        let p = cube2();
        let need = goal_bytes(&p, &p.ignore);
        let e = plan(&p, need - 1).unwrap_err();
        assert!(
            matches!(e, CompError::OverBudget { needed, budget, .. } if needed == need && budget == need - 1),
            "{e}"
        );
        assert!(plan(&p, need).is_ok());
        // The tables refuse a move table past the budget whoever asks for it.
        let mut tables = Tables::new(TableCache::in_memory(), 1000);
        let (parts, _) = set_specs(&p, 0, None);
        let e = tables
            .component(&p, &parts[0], &crate::progress::Silent)
            .unwrap_err();
        assert!(e.to_string().contains("more than the memory budget"), "{e}");
    }

    #[test]
    fn a_huge_set_over_budget_is_refused_before_anything_is_built() {
        let p = swaps(20_000);
        let e = plan(&p, 100 << 20).unwrap_err();
        // 20,000 parts of 20,000 values, two moves, four bytes, plus their relabellings.
        let needed = 20_000u64 * (20_000 * 2 * 4 + 20_000 * 4);
        assert!(
            matches!(e, CompError::OverBudget { needed: n, .. } if n == needed),
            "{e}"
        );
    }

    /// Under 1 GiB the 3x3x3's edges are best seen as seven tracked edges and five
    /// edges with every flip, whose components are larger than the goal test's; their
    /// move tables count against the budget. Under 4 GiB two six-edge tables with every
    /// flip fit, and score higher.
    #[test]
    fn larger_components_are_chosen_when_the_budget_holds_them() {
        let root = env!("CARGO_MANIFEST_DIR");
        let bytes = std::fs::read(format!("{root}/puzzles/3x3x3.def")).unwrap();
        let p = crate::def::parse_puzzle(&bytes, "3x3x3.def").unwrap().0;
        let base = component_limit(&p);
        let largest = |tables: &[PlannedTable]| {
            tables
                .iter()
                .flat_map(|t| &t.comps)
                .map(|c| spec_count(&p, c).unwrap())
                .max()
                .unwrap()
        };
        let small = plan_report(&p, 1 << 30).unwrap();
        assert!(small.candidates.len() >= 2);
        let chosen = &small.candidates[small.best];
        assert!(chosen.limit > base);
        assert_eq!(largest(&small.chosen), 12 * 11 * 10 * 9 * 8 * 7 * 6);
        assert!(chosen.bytes <= 1 << 30);
        // The seven-edge component's move table (18 moves, 4 bytes) is counted.
        assert!(chosen.bytes >= 3_991_680 * 18 * 4 + goal_bytes(&p, &p.ignore));
        let large = plan_report(&p, 4 << 30).unwrap();
        assert_eq!(large.candidates[large.best].limit, base);
        assert_eq!(largest(&large.chosen), 12 * 11 * 10 * 9 * 8 * 7);
        assert!(large.candidates.iter().all(|c| c.bytes <= 4 << 30));
    }
}
