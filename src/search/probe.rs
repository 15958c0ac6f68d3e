//! Extra probes of the pruning tables: the same tables looked up at positions that are
//! exactly as far from solved as the node, taking the largest answer.
//!
//! A symmetry `S` of the definition carries the moves onto moves of the same cost, so
//! `S X S⁻¹` is as far from solved as `X` (the symmetry keeps the solved state and the
//! definition's `Ignore`). A table that tracks six of twelve edges, looked up at the
//! conjugate, bounds the distance of the six edges that `S` carries onto the tracked
//! ones: a different bound from the same memory.
//!
//! The conjugate is never built per node. Conjugation commutes with moves,
//! `S (X m) S⁻¹ = (S X S⁻¹) σ(m)`, so each probed component keeps its own value along
//! the path, advanced through its ordinary move table by the image move `σ(m)`: one
//! table read per probed component, done only for the children the ordinary bound
//! did not prune.
//!
//! Which symmetries: those that keep the scramble's own ignore masks and carry every
//! move onto a move counted by the same move limits (so the conjugate's distance under
//! the scramble's rules is the node's). Among those, each table gets the few whose
//! conjugate tracks the most different pieces from what the tables already see.

use crate::puzzle::{IgnoreMask, MoveId, Puzzle, State};
use crate::symmetry::SymmetryGroup;
use crate::table::comp::{CompKind, Component};
use crate::table::{CompId, Tables};

/// How many symmetry probes each table gets at most. Each costs one move-table read per
/// component and one table lookup per child it is made on ([`super::checks`] decides
/// which).
pub const PROBES_PER_TABLE: usize = 3;

/// One component followed along the path under one symmetry.
pub(super) struct ProbeSlot<'a> {
    /// The component's move table.
    pub table: &'a [u32],
    /// `map[m]`: the move `σ(m)` this slot takes when the path takes `m`.
    pub map: Vec<u16>,
}

/// The symmetry probes of one search.
#[derive(Default)]
pub(super) struct SymProbes<'a> {
    pub slots: Vec<ProbeSlot<'a>>,
    /// The slots' values at the start position.
    pub start: Vec<u32>,
    /// Per probe: the index of its table in the search's list, and its (slot, stride)
    /// pairs.
    pub probes: Vec<(usize, Vec<(usize, u64)>)>,
    /// The symmetries used, for reports: (table index, symmetry index).
    pub used: Vec<(usize, usize)>,
    /// Lookups of the symmetry-reduced table at conjugates it does not absorb, read
    /// through the slots above.
    pub reduced: Vec<super::reduced::SymLookup<'a>>,
    /// The symmetries of those lookups, for reports.
    pub reduced_used: Vec<usize>,
}

/// What a component of a table sees of a set, read through a symmetry: the set it
/// reads and how it groups that set's labels. Two lookups with the same view give the
/// same bound, so only new views are worth probing.
#[derive(Clone, Debug, PartialEq, Eq)]
struct View {
    set: usize,
    /// Labels grouped into the classes the component tells apart (sorted); empty for
    /// an orientation component.
    classes: Vec<Vec<u16>>,
    /// Labels the component follows one by one (classes of one), as a bit mask.
    tracked: u128,
}

/// The view of component `c` through symmetry `s` of `group` (the identity: the
/// component itself).
fn view(puzzle: &Puzzle, group: &SymmetryGroup, s: usize, c: &Component) -> View {
    let sym = &group.elements()[s];
    let set = c.spec.set;
    let (src, _) = sym.source(set, 0);
    let relabel = match &c.spec.kind {
        CompKind::Perm { relabel } | CompKind::Pieces { relabel, .. } => relabel,
        CompKind::Ori { .. } | CompKind::Pos => {
            return View {
                set: src,
                classes: Vec::new(),
                tracked: 0,
            }
        }
    };
    let mut labels: Vec<u16> = puzzle.solved.sets[src].perm.clone();
    labels.sort_unstable();
    labels.dedup();
    let mut by_class: std::collections::BTreeMap<u16, Vec<u16>> = Default::default();
    for &l in &labels {
        let image = sym.label_image(src, l).unwrap_or(l);
        let class = relabel.get(image as usize).copied().unwrap_or(u16::MAX);
        by_class.entry(class).or_default().push(l);
    }
    let mut classes: Vec<Vec<u16>> = by_class.into_values().collect();
    classes.sort();
    let tracked = classes
        .iter()
        .filter(|c| c.len() == 1 && c[0] < 128)
        .fold(0u128, |acc, c| acc | 1 << c[0]);
    View {
        set: src,
        classes,
        tracked,
    }
}

/// Whether symmetry `s` keeps the scramble's ignore masks: a position is ignored
/// exactly when the position it is carried from is.
fn keeps_masks(puzzle: &Puzzle, group: &SymmetryGroup, s: usize, ignore: &[IgnoreMask]) -> bool {
    let sym = &group.elements()[s];
    let at = |set: usize, pos: usize, perm: bool| {
        ignore.get(set).is_some_and(|m| {
            let v = if perm { &m.perm } else { &m.ori };
            v.get(pos) == Some(&true)
        })
    };
    (0..puzzle.sets.len()).all(|set| {
        (0..puzzle.sets[set].size).all(|pos| {
            let (k, i) = sym.source(set, pos);
            at(set, pos, true) == at(k, i, true) && at(set, pos, false) == at(k, i, false)
        })
    })
}

/// The symmetries a search may probe with: those that carry every move onto a move
/// counted by the same move limits and keep the scramble's ignore masks.
pub(super) fn eligible(
    puzzle: &Puzzle,
    group: &SymmetryGroup,
    ignore: &[IgnoreMask],
    limit_mask: &[u64],
) -> Vec<usize> {
    let elements = group.elements();
    (1..elements.len())
        .filter(|&s| {
            let map = elements[s].move_map();
            map.iter()
                .enumerate()
                .all(|(m, img)| limit_mask.get(img.index()) == limit_mask.get(m))
                && keeps_masks(puzzle, group, s, ignore)
        })
        .collect()
}

/// Adds probes of the symmetry-reduced table `t` to `out`: one conjugate per coset of
/// the table's subgroup `H` other than `H` itself. The table gives `S X S⁻¹` and
/// `h S X S⁻¹ h⁻¹` (`h` in `H`) the same entry, so the symmetries `S·h` are one probe;
/// on the 3x3x3 the flips are measured from one axis and the two other cosets measure
/// them from the other two.
#[allow(clippy::too_many_arguments)]
fn add_reduced<'a>(
    puzzle: &Puzzle,
    group: &SymmetryGroup,
    tables: &'a Tables,
    t: &'a crate::table::sym::cached::SymPruning,
    ignore: &[IgnoreMask],
    limit_mask: &[u64],
    start: &State,
    out: &mut SymProbes<'a>,
) {
    let elements = group.elements();
    let h = &t.plan.syms;
    let coset = |s: usize| -> usize { h.iter().map(|&x| group.product(s, x)).min().unwrap_or(s) };
    let own = coset(0);
    let mut seen = vec![own];
    for s in eligible(puzzle, group, ignore, limit_mask) {
        let key = coset(s);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let conj = elements[s].conjugate(start);
        let map: Vec<u16> = (0..puzzle.moves.len())
            .map(|m| elements[s].move_image(MoveId(m as u16)).0)
            .collect();
        let mut slots = Vec::new();
        for &id in t.major.iter().chain(&t.minor) {
            let c = tables.comp(id);
            let Some(value) = c.value_of(&conj) else {
                return;
            };
            slots.push((c.table.as_slice(), value.0));
        }
        let first = out.slots.len();
        for (table, value) in slots {
            out.slots.push(ProbeSlot {
                table,
                map: map.clone(),
            });
            out.start.push(value);
        }
        let na = t.major.len();
        let all: Vec<usize> = (first..out.slots.len()).collect();
        out.reduced.push(super::reduced::SymLookup::new(
            &t.table,
            &all[..na],
            &all[na..],
        ));
        out.reduced_used.push(s);
    }
}

/// Chooses the symmetry probes of one search. `prune` lists each table's components
/// (in the order of the search's tables) and strides; `limit_mask[m]` the move limits
/// move `m` counts against.
pub(super) fn choose<'a>(
    puzzle: &Puzzle,
    group: &SymmetryGroup,
    tables: &'a Tables,
    prune: &[(Vec<CompId>, Vec<u64>)],
    (ignore, limit_mask, start): (&[IgnoreMask], &[u64], &State),
    reduced: Option<&'a crate::table::sym::cached::SymPruning>,
) -> SymProbes<'a> {
    let mut out = choose_ordinary(puzzle, group, tables, prune, ignore, limit_mask, start);
    if let Some(t) = reduced {
        add_reduced(
            puzzle, group, tables, t, ignore, limit_mask, start, &mut out,
        );
    }
    out
}

/// The probes of the ordinary tables.
fn choose_ordinary<'a>(
    puzzle: &Puzzle,
    group: &SymmetryGroup,
    tables: &'a Tables,
    prune: &[(Vec<CompId>, Vec<u64>)],
    ignore: &[IgnoreMask],
    limit_mask: &[u64],
    start: &State,
) -> SymProbes<'a> {
    let elements = group.elements();
    let eligible = eligible(puzzle, group, ignore, limit_mask);
    let mut out = SymProbes::default();
    if eligible.is_empty() {
        return out;
    }
    let views = |ids: &[CompId], s: usize| -> Vec<View> {
        ids.iter()
            .map(|&id| view(puzzle, group, s, tables.comp(id)))
            .collect()
    };
    // What the tables already see, directly.
    let mut covered: Vec<Vec<View>> = prune.iter().map(|(ids, _)| views(ids, 0)).collect();
    let mut conjugates: Vec<(usize, State)> = Vec::new();
    for (t, (ids, strides)) in prune.iter().enumerate() {
        // A table that follows every piece it sees one by one is its own conjugate
        // under every symmetry: nothing to gain.
        let own = &covered[t].clone();
        if own.iter().all(|v| v.classes.iter().all(|c| c.len() == 1)) {
            continue;
        }
        let candidates: Vec<(usize, Vec<View>)> =
            eligible.iter().map(|&s| (s, views(ids, s))).collect();
        for _ in 0..PROBES_PER_TABLE {
            // The candidate whose view differs most from the closest one seen so far
            // (symmetric difference of the pieces followed one by one).
            let best = candidates
                .iter()
                .filter(|(_, v)| !covered.contains(v))
                .map(|(s, v)| {
                    let score = covered
                        .iter()
                        .filter(|c| {
                            c.len() == v.len()
                                && c.iter().zip(v).all(|(a, b)| {
                                    a.set == b.set && a.classes.len() == b.classes.len()
                                })
                        })
                        .map(|c| {
                            c.iter()
                                .zip(v)
                                .map(|(a, b)| (a.tracked ^ b.tracked).count_ones())
                                .sum::<u32>()
                        })
                        .min()
                        .unwrap_or(u32::MAX);
                    (score, *s, v)
                })
                .max_by_key(|(score, s, _)| (*score, std::cmp::Reverse(*s)));
            let Some((_, s, v)) = best else { break };
            let v = v.clone();
            let conj = match conjugates.iter().find(|(x, _)| *x == s) {
                Some((_, c)) => c.clone(),
                None => {
                    let c = elements[s].conjugate(start);
                    conjugates.push((s, c.clone()));
                    c
                }
            };
            let mut slots = Vec::new();
            let mut ok = true;
            for (&id, &stride) in ids.iter().zip(strides) {
                let c = tables.comp(id);
                let Some(value) = c.value_of(&conj) else {
                    ok = false;
                    break;
                };
                let map: Vec<u16> = (0..puzzle.moves.len())
                    .map(|m| elements[s].move_image(MoveId(m as u16)).0)
                    .collect();
                slots.push((c.table.as_slice(), map, value.0, stride));
            }
            covered.push(v);
            if !ok {
                continue;
            }
            let mut pairs = Vec::new();
            for (table, map, value, stride) in slots {
                pairs.push((out.slots.len(), stride));
                out.slots.push(ProbeSlot { table, map });
                out.start.push(value);
            }
            out.probes.push((t, pairs));
            out.used.push((t, s));
        }
    }
    out
}
