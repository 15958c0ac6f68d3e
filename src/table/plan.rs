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

use super::comp::{
    mask_relabel, moves_keep_ori_sum, spec_count, split_relabel, CompKind, CompSpec,
    MAX_COMPONENT_VALUES,
};
use crate::puzzle::Puzzle;

/// One planned table: a product of components and a stable, readable name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedTable {
    pub comps: Vec<CompSpec>,
    pub name: String,
    /// Number of entries.
    pub len: u64,
}

/// Move tables are kept under this many bytes each.
const MAX_MOVE_TABLE_BYTES: u64 = 64 << 20;

/// Two tables are merged when their product has at most this many entries (2 MiB).
const MERGE_BELOW: u64 = 1 << 22;

/// The largest number of values a component of this puzzle may have: its move table
/// must fit [`MAX_MOVE_TABLE_BYTES`].
pub fn component_limit(puzzle: &Puzzle) -> u64 {
    let nm = puzzle.moves.len().max(1) as u64;
    (MAX_MOVE_TABLE_BYTES / 4 / nm).min(MAX_COMPONENT_VALUES)
}

/// The orientation component of a set, if its pieces have orientations. The sum rule
/// is used when every move keeps the set's orientation sum and the definition ignores
/// no orientation of the set (otherwise goal states of several sums exist); the sum is
/// then the solved state's.
pub fn ori_spec(puzzle: &Puzzle, set: usize) -> Option<CompSpec> {
    let n = puzzle.sets[set].orientations;
    if n <= 1 {
        return None;
    }
    let ignores = puzzle
        .ignore
        .get(set)
        .is_some_and(|m| m.ori.iter().any(|&b| b));
    let sum = if moves_keep_ori_sum(puzzle, set) && !ignores {
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
    mask: Option<&crate::puzzle::IgnoreMask>,
) -> Vec<CompSpec> {
    let (relabel, wild) = mask_relabel(puzzle, set, mask);
    split_relabel(puzzle, set, &relabel, wild, 1, component_limit(puzzle))
        .into_iter()
        .map(|(relabel, _)| CompSpec {
            set,
            kind: CompKind::Perm { relabel },
        })
        .filter(|s| spec_count(puzzle, s).is_ok_and(|c| c > 1))
        .collect()
}

/// The components that together see set `set` as `mask` allows: permutation parts and
/// the orientation component, or, when the orientation vector alone has too many
/// values for one component, parts that each carry their own pieces' orientations
/// ([`CompKind::Pieces`]) and no orientation component.
pub fn set_specs(
    puzzle: &Puzzle,
    set: usize,
    mask: Option<&crate::puzzle::IgnoreMask>,
) -> (Vec<CompSpec>, Option<CompSpec>) {
    let limit = component_limit(puzzle);
    let ori = ori_spec(puzzle, set);
    let too_big = ori
        .as_ref()
        .is_some_and(|o| spec_count(puzzle, o).map_or(true, |c| c > limit));
    if !too_big {
        let ori = ori.filter(|s| spec_count(puzzle, s).is_ok_and(|c| c > 1));
        return (perm_specs(puzzle, set, mask), ori);
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

/// Bytes a set of tables needs: their entries at two per byte, plus one byte per entry
/// of the largest while it is built, plus the move tables (four bytes per value and
/// move) of every distinct component they read.
fn memory_needed(puzzle: &Puzzle, units: &[PlannedTable]) -> u64 {
    let stored: u64 = units.iter().map(|u| u.len.div_ceil(2)).sum();
    let building = units.iter().map(|u| u.len).max().unwrap_or(0);
    let mut comps: Vec<&CompSpec> = units.iter().flat_map(|u| &u.comps).collect();
    comps.sort_by_key(|c| c.key_bytes());
    comps.dedup();
    let nm = puzzle.moves.len() as u64;
    let moves: u64 = comps
        .iter()
        .map(|c| {
            spec_count(puzzle, c)
                .unwrap_or(u64::MAX)
                .saturating_mul(nm * 4)
        })
        .fold(0, u64::saturating_add);
    stored.saturating_add(building).saturating_add(moves)
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

/// The tables to build for `puzzle` within `budget` bytes.
pub fn plan(puzzle: &Puzzle, budget: u64) -> Vec<PlannedTable> {
    let mut units: Vec<PlannedTable> = Vec::new();
    for set in 0..puzzle.sets.len() {
        let name = &puzzle.sets[set].name;
        let (perms, ori) = set_specs(puzzle, set, puzzle.ignore.get(set));
        let multi = perms.len() > 1;
        let pieces = perms
            .iter()
            .any(|p| matches!(p.kind, CompKind::Pieces { .. }));
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
                    units.push(unit(
                        puzzle,
                        vec![p.clone(), o.clone()],
                        vec![format!("{}o", pname(k))],
                    ));
                }
            }
            (None, _) => {
                for (k, p) in perms.iter().enumerate() {
                    units.push(unit(puzzle, vec![p.clone()], vec![pname(k)]));
                }
            }
        }
    }
    // Within budget: split the largest combined table, or drop the largest single one.
    while memory_needed(puzzle, &units) > budget && !units.is_empty() {
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
        let a = units.remove(0);
        let b = units.remove(0);
        let mut comps = a.comps;
        for c in b.comps {
            if !comps.contains(&c) {
                comps.push(c);
            }
        }
        units.push(unit(puzzle, comps, vec![a.name, b.name]));
    }
    // The largest table prunes most often: look it up first.
    units.sort_by_key(|u| std::cmp::Reverse(u.len));
    units
}
