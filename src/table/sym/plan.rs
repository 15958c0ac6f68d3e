//! Choosing a symmetry-reduced table for the memory the ordinary plan leaves.
//!
//! Candidates are products of one set seen whole (its arrangement and twists: the
//! major group) with nothing, or with another set's twists or arrangement (the minor
//! components). Each is reduced by the symmetries under which all its components
//! conjugate as functions of themselves ([`super::closed`]) and which keep its goal
//! values. The candidate with the most positions (before reduction) whose reduced
//! table, class table and build scratch fit the memory left is chosen, if it sees at
//! least twice as many positions as the largest ordinary table: a smaller one adds
//! little to the bound for its cost.

use super::closed;
use crate::puzzle::Puzzle;
use crate::symmetry::SymmetryGroup;
use crate::table::comp::goal::for_each_goal_tuple;
use crate::table::comp::{spec_count, CompSpec, Component, MAX_COMPONENT_VALUES};
use crate::table::plan::{ori_spec, set_specs_with, PlannedTable};

/// Minor components conjugate through a table of this many entries at most
/// (values times symmetries).
const MAX_CONJ_ENTRIES: u64 = 1 << 26;

/// How many times the puzzle's positions a candidate's product may count.
const MAX_OVERCOUNT: u64 = 16;

/// The most entries a reduced table may have. Its breadth-first build runs over every
/// entry layer by layer; beyond about a billion entries that takes many minutes on a
/// small machine (Megaminx <R,U>'s edges × corners, 3.7 G entries, took over ten), which
/// a solve of a few short scrambles never earns back.
const MAX_REDUCED_ENTRIES: u64 = 1 << 34;

/// A planned symmetry-reduced table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymPlan {
    pub major: Vec<CompSpec>,
    pub minor: Vec<CompSpec>,
    /// The subgroup, as indices into the puzzle's symmetry group (the identity first).
    pub syms: Vec<usize>,
    /// Values of the major group (the class table's entries) and entries per class.
    pub raw: u64,
    pub minor_len: u64,
    /// Two bits per entry ([`crate::table::prune::Format::Crumbs`]): only where four
    /// would not fit the memory left.
    pub crumbs: bool,
    /// A stable, readable name (`CORNERS.po+EDGES.o`).
    pub name: String,
    /// Whether the search's tight-bound rule applies ([`super::axes::tight_rule`]).
    pub tight: bool,
}

impl SymPlan {
    /// Positions of the abstraction before reduction.
    pub fn positions(&self) -> u64 {
        self.raw.saturating_mul(self.minor_len)
    }

    /// What the planner weighs candidates by: the positions seen, times the number of
    /// moves (`moves`) for a table with the tight-bound rule. Where every lookup is
    /// tight the rule raises the bound by one, which an ordinary table only gets from
    /// seeing about as many times more positions as a node has children; on the 3x3x3
    /// the nxopt table (155 G positions) takes 1.5 times fewer nodes alone than corners
    /// × flips (181 G), and 4 to 7 times fewer with the rule (BENCHMARKS.md, round 24).
    pub fn weight(&self, moves: usize) -> u64 {
        if self.tight {
            self.positions().saturating_mul(moves.max(1) as u64)
        } else {
            self.positions()
        }
    }

    /// An estimate of the reduced entries: one class per `syms.len()` values, plus
    /// one percent for self-symmetric classes.
    pub fn estimate(&self) -> u64 {
        let e = self.positions() / self.syms.len() as u64;
        e.saturating_add(e / 100)
    }

    /// Bits per stored entry.
    pub fn bits(&self) -> u64 {
        if self.crumbs {
            2
        } else {
            4
        }
    }

    /// Bytes of the stored entries, with a two-bit table's fallback (a nibble per
    /// 16 entries).
    pub fn entry_bytes(&self) -> u64 {
        let e = self.estimate();
        let fallback = if self.crumbs { e.div_ceil(32) } else { 0 };
        (e.saturating_mul(self.bits())).div_ceil(8) + fallback
    }

    /// Bytes the build needs at its peak: the class table, the stored table at two
    /// (or four) entries per byte (built in place, see [`super::build`]), and the
    /// conjugation tables.
    pub fn bytes(&self, puzzle: &Puzzle) -> u64 {
        let conj: u64 = self
            .minor
            .iter()
            .map(|c| spec_count(puzzle, c).unwrap_or(u64::MAX) * self.syms.len() as u64 * 4)
            .sum();
        (self.raw * 4 + self.raw / 8)
            .saturating_add(self.entry_bytes())
            .saturating_add(conj)
    }
}

pub fn names(puzzle: &Puzzle, comps: &[CompSpec]) -> String {
    let mut out: Vec<String> = Vec::new();
    for c in comps {
        let set = &puzzle.sets[c.set].name;
        match out.iter_mut().find(|s| s.starts_with(&format!("{set}."))) {
            Some(s) => s.push_str(&c.tag()),
            None => out.push(format!("{set}.{}", c.tag())),
        }
    }
    out.join("+")
}

/// Whether every move's inverse is a move of the same cost, so that a table built by
/// walking moves forwards from the goal holds distances to it.
pub fn invertible(puzzle: &Puzzle) -> bool {
    !puzzle.has_weights()
        && !puzzle.has_guards()
        && puzzle
            .base_moves
            .iter()
            .all(|b| !b.directed || b.order <= 2)
}

/// The symmetries of `group` under which every component of `major` (together) and of
/// `minor` (each alone) conjugates as a function of itself and the goal values are
/// kept.
pub fn subgroup(
    puzzle: &Puzzle,
    group: &SymmetryGroup,
    major: &[CompSpec],
    minor: &[CompSpec],
) -> Vec<usize> {
    let make = |s: &CompSpec| Component::new(puzzle, s.clone()).ok();
    let Some(a) = major.iter().map(make).collect::<Option<Vec<_>>>() else {
        return vec![0];
    };
    let Some(b) = minor.iter().map(make).collect::<Option<Vec<_>>>() else {
        return vec![0];
    };
    let a: Vec<&Component> = a.iter().collect();
    let goals: Vec<Vec<u32>> = a
        .iter()
        .chain(&b.iter().collect::<Vec<_>>())
        .map(|c| c.goal_values(puzzle, puzzle.ignore.get(c.spec.set)))
        .collect();
    let elements = group.elements();
    (0..elements.len())
        .filter(|&s| {
            let sym = &elements[s];
            s == 0
                || (closed(puzzle, sym, &a)
                    && b.iter().all(|c| closed(puzzle, sym, &[c]))
                    && keeps_goals(puzzle, sym, &a, &b, &goals))
        })
        .collect()
}

/// Whether conjugating by `sym` carries each component's goal values onto goal values
/// (the major group's tuples checked one component at a time, which the definition's
/// goal, a product of per-component values, allows).
fn keeps_goals(
    puzzle: &Puzzle,
    sym: &crate::symmetry::Symmetry,
    major: &[&Component],
    minor: &[Component],
    goals: &[Vec<u32>],
) -> bool {
    let mut groups: Vec<Vec<&Component>> = vec![major.to_vec()];
    groups.extend(minor.iter().map(|c| vec![c]));
    let mut at = 0;
    for g in groups {
        let conj = super::Conjugator::new(puzzle, &g);
        let mut sc = conj.scratch(puzzle);
        let gl = &goals[at..at + g.len()];
        if gl.iter().any(|v| v.is_empty()) {
            return false;
        }
        let mut out = vec![0u32; g.len()];
        let all = for_each_goal_tuple(gl, |vals| {
            conj.conjugate(sym, vals, &mut sc, &mut out);
            out.iter().zip(gl).all(|(v, g)| g.contains(v))
        });
        if !all {
            return false;
        }
        at += g.len();
    }
    true
}

/// The whole-set components of `set` when one arrangement part (and maybe the twists)
/// see it, else `None`.
fn whole(puzzle: &Puzzle, set: usize) -> Option<Vec<CompSpec>> {
    let (parts, ori) = set_specs_with(puzzle, set, puzzle.ignore.get(set), MAX_COMPONENT_VALUES);
    if parts.len() > 1 {
        return None;
    }
    let comps: Vec<CompSpec> = parts.into_iter().chain(ori).collect();
    (!comps.is_empty()).then_some(comps)
}

/// Whether a reduced table can be planned at all: a symmetry to reduce by, moves whose
/// inverses are moves of the same cost, and point permutations closed under products.
pub fn applies(puzzle: &Puzzle, group: &SymmetryGroup) -> bool {
    group.order() >= 2 && invertible(puzzle) && group.points_closed()
}

/// The reduced table to add to `chosen` within `budget` bytes (what the ordinary plan
/// leaves), if one is worth it.
/// `arrangements` also offers, for a set seen whole, its arrangement alone as the major
/// group with its twists as the minor (see [`super::cached`]'s replacement of a whole
/// puzzle's table); the ordinary planning leaves it out.
pub fn plan_sym(
    puzzle: &Puzzle,
    group: &SymmetryGroup,
    budget: u64,
    chosen: &[PlannedTable],
    reachable: Option<u64>,
    arrangements: bool,
) -> Option<SymPlan> {
    let most = reachable.map_or(u64::MAX, |r| r.saturating_mul(MAX_OVERCOUNT));
    if !applies(puzzle, group) {
        return None;
    }
    let largest = chosen.iter().map(|t| t.len).max().unwrap_or(0);
    let count = |c: &CompSpec| spec_count(puzzle, c).unwrap_or(u64::MAX);
    let mut best: Option<SymPlan> = None;
    let nb = puzzle.moves.len();
    let is_ori = |c: &CompSpec| matches!(c.kind, crate::table::comp::CompKind::Ori { .. });
    let pictures = super::axes::pictures(puzzle);
    // A set's pictures as minors: each alone and with the set's twists.
    let picture_minors = |b: usize| -> Vec<Vec<CompSpec>> {
        pictures[b]
            .iter()
            .flat_map(|p| {
                std::iter::once(vec![p.clone()])
                    .chain(ori_spec(puzzle, b).map(|o| vec![p.clone(), o]))
            })
            .collect()
    };
    for (a, own_pictures) in pictures.iter().enumerate() {
        let mut minors: Vec<Vec<CompSpec>> = vec![Vec::new()];
        for b in (0..puzzle.sets.len()).filter(|&b| b != a) {
            minors.extend(ori_spec(puzzle, b).map(|o| vec![o]));
            if let Some(w) = whole(puzzle, b) {
                minors.extend(w.into_iter().filter(|c| !is_ori(c)).map(|c| vec![c]));
            }
        }
        let mut options: Vec<(Vec<CompSpec>, Vec<Vec<CompSpec>>)> = Vec::new();
        // The set seen whole is the major group, with nothing or another set's
        // components as the minor; or, where the set's twists conjugate on their own,
        // its arrangement alone is the major and its twists the minor: the same
        // positions with a class table of the arrangements only (40,320 values for the
        // 2x2x2's corners rather than 88 million).
        // The arrangement-major option comes first, so that it wins over the whole set
        // alone (the same positions) wherever its twists conjugate on their own.
        if let Some(whole_a) = whole(puzzle, a) {
            if arrangements && whole_a.len() == 2 {
                if let (Some(perm), Some(ori)) = (
                    whole_a.iter().find(|c| !is_ori(c)),
                    whole_a.iter().find(|c| is_ori(c)),
                ) {
                    options.push((vec![perm.clone()], vec![vec![ori.clone()]]));
                }
            }
            options.push((whole_a, minors.clone()));
        }
        // A picture of the set (see [`super::axes`]) with its twists as the major
        // group, and the other sets' pictures (with or without twists) beside the
        // minors above: the cosets of subgroups that contain moves.
        if !own_pictures.is_empty() {
            let mut with_pictures = minors.clone();
            for b in (0..puzzle.sets.len()).filter(|&b| b != a) {
                with_pictures.extend(picture_minors(b));
            }
            for pic in own_pictures {
                let major = std::iter::once(pic.clone())
                    .chain(ori_spec(puzzle, a))
                    .collect();
                options.push((major, with_pictures.clone()));
            }
        }
        for (major, minors) in options {
            let raw = major.iter().map(count).fold(1u64, u64::saturating_mul);
            if raw < 2 || raw >= u32::MAX as u64 / 2 || raw.saturating_mul(4) > budget {
                continue;
            }
            for minor in minors {
                let minor_len = minor.iter().map(count).fold(1u64, u64::saturating_mul);
                if minor
                    .iter()
                    .any(|c| count(c).saturating_mul(group.order() as u64) > MAX_CONJ_ENTRIES)
                {
                    continue;
                }
                let positions = raw.saturating_mul(minor_len);
                // Even with the tight-bound rule's weight, no better than the best.
                if positions <= largest.saturating_mul(2)
                    || positions > most
                    || best
                        .as_ref()
                        .is_some_and(|b| b.weight(nb) > positions.saturating_mul(nb as u64))
                {
                    continue;
                }
                let syms = subgroup(puzzle, group, &major, &minor);
                if syms.len() < 2 {
                    continue;
                }
                let mut all = major.clone();
                all.extend(minor.iter().cloned());
                let mut plan = SymPlan {
                    name: names(puzzle, &all),
                    tight: super::axes::tight_rule(puzzle, group, &all),
                    major: major.clone(),
                    minor,
                    syms,
                    raw,
                    minor_len,
                    crumbs: false,
                };
                // Between equal weights, the smaller class table: its reads hit the
                // caches more often.
                if best.as_ref().is_some_and(|b| {
                    (b.weight(nb), std::cmp::Reverse(b.raw))
                        >= (plan.weight(nb), std::cmp::Reverse(plan.raw))
                }) {
                    continue;
                }
                if plan.estimate() > MAX_REDUCED_ENTRIES {
                    continue;
                }
                // Four bits per entry where they fit; else two, which lose only the
                // depths below the last three layers (see `build::crumb_layers`), for
                // a table that sees far more than one that fits at four.
                plan.crumbs = plan.bytes(puzzle) > budget;
                if plan.bytes(puzzle) <= budget {
                    best = Some(plan);
                }
            }
        }
    }
    best
}
