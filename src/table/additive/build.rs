//! Building one table of an additive family: a search outwards from the goal over the
//! table's abstraction, in which moves obey their guards and cost nothing unless they
//! move a label the table owns.
//!
//! Entries hold distances *to* the goal, and guarded moves are directed, so the search
//! walks moves backwards: an entry `y` at depth `d` reaches every `x` with `x * m = y`
//! (`x` is `y` with move `m`'s permutation undone) whose abstract position satisfies
//! `m`'s guard, at `d` plus the move's cost in this table. Costs of 0 (a move of a
//! piece the table does not own) put `x` into layer `d` itself; such an `x` is expanded
//! at once from a worker-local stack, so every layer is closed under free moves before
//! the next one starts (Dial's buckets; the cost of a move depends on the abstract
//! position, not only on the move, so `prune.rs`'s per-move costs do not apply).

use super::{group_coord, group_relabel, FamilyShape};
use crate::progress::Progress;
use crate::puzzle::{Metric, MoveId, Puzzle};
use crate::table::comp::next_permutation;
use crate::table::prune::{move_costs, pack_nibbles, Entries, Format, PruneTable, UNREACHED};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Entries per unit of parallel work: one unrank, then `next_permutation` steps.
const CHUNK: usize = 1 << 12;

/// A move as the abstraction sees it.
struct AbsMove {
    /// `inv[j]`: where the piece at position `j` goes (undoing the move takes the piece
    /// of `y` at `inv[j]` back to `j`).
    inv: Vec<usize>,
    /// Positions the move changes.
    changed: Vec<usize>,
    /// Guard conditions: (position, bit mask of the table's labels that satisfy it).
    conds: Vec<(usize, u64)>,
    cost: u32,
}

/// The moves of the guarded set as table `relabel` sees them (moves that change none of
/// its positions are left out: they are loops in the abstraction).
fn abstract_moves(
    puzzle: &Puzzle,
    shape: &FamilyShape,
    relabel: &[u16],
    metric: Metric,
) -> Vec<AbsMove> {
    let costs = move_costs(puzzle, metric);
    let set = shape.set;
    let n = puzzle.sets[set].size;
    let mut out = Vec::new();
    for (m, mv) in puzzle.moves.iter().enumerate() {
        let src = &mv.effect.sets[set].perm;
        let changed: Vec<usize> = (0..n).filter(|&i| src[i] as usize != i).collect();
        if changed.is_empty() {
            continue;
        }
        let mut inv = vec![0usize; n];
        for (i, &f) in src.iter().enumerate() {
            inv[f as usize] = i;
        }
        // Shared labels have labels of their own in every table (`family_rule`), so the
        // mask of a condition is exactly the labels it tests.
        let conds = puzzle
            .guard_of(MoveId(m as u16))
            .map(|g| {
                g.conds
                    .iter()
                    .map(|c| {
                        let mask = c
                            .labels
                            .iter()
                            .fold(0u64, |acc, &l| acc | 1 << relabel[l as usize]);
                        (c.pos, mask)
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.push(AbsMove {
            inv,
            changed,
            conds,
            cost: costs[m],
        });
    }
    out
}

/// Builds the table owning `group` for `metric`, reporting to `progress` as `what`.
pub fn build_group(
    puzzle: &Puzzle,
    shape: &FamilyShape,
    group: &[u16],
    metric: Metric,
    what: &str,
    progress: &dyn Progress,
) -> PruneTable {
    let relabel = group_relabel(puzzle, shape, group);
    let coord = group_coord(puzzle, shape, &relabel).expect("planned");
    let owned = group.len() as u16;
    let moves = abstract_moves(puzzle, shape, &relabel, metric);
    let n = coord.len();
    let len = coord.count();
    let table: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(UNREACHED)).collect();
    progress.start(what, Some(len));
    let goal: Vec<u16> = puzzle.solved.sets[shape.set]
        .perm
        .iter()
        .map(|&l| relabel[l as usize])
        .collect();
    table[coord.rank(&goal) as usize].store(0, Relaxed);
    let max_assigned = AtomicU64::new(0);
    let chunks = len.div_ceil(CHUNK as u64) as usize;
    let mut d: u8 = 0;
    loop {
        if d >= UNREACHED - 2 {
            // Never reached in practice; everything left is at least this deep.
            table.par_iter().for_each(|e| {
                if e.load(Relaxed) == UNREACHED {
                    e.store(d, Relaxed);
                }
            });
            break;
        }
        let newly = AtomicU64::new(0);
        let found_d = std::sync::atomic::AtomicBool::new(false);
        (0..chunks).into_par_iter().for_each_init(
            || {
                (
                    vec![0u16; n],
                    vec![0u16; n],
                    vec![0u16; n],
                    Vec::<u16>::new(),
                )
            },
            |(y, x, cur, stack), c| {
                let start = c * CHUNK;
                let end = ((c + 1) * CHUNK).min(len as usize);
                let block = &table[start..end];
                if !block.iter().any(|e| e.load(Relaxed) == d) {
                    return;
                }
                found_d.store(true, Relaxed);
                coord.unrank(start as u64, y);
                let (mut found, mut deepest) = (0u64, 0u8);
                for (i, e) in block.iter().enumerate() {
                    if i > 0 {
                        next_permutation(y);
                    }
                    if e.load(Relaxed) != d {
                        continue;
                    }
                    stack.extend_from_slice(y);
                    // Expand `y`, then every entry a free move brought into layer `d`.
                    while stack.len() >= n {
                        let top = stack.len() - n;
                        cur.copy_from_slice(&stack[top..]);
                        stack.truncate(top);
                        for mv in &moves {
                            for (j, xj) in x.iter_mut().enumerate() {
                                *xj = cur[mv.inv[j]];
                            }
                            if !mv.conds.iter().all(|&(p, mask)| mask >> x[p] & 1 == 1) {
                                continue;
                            }
                            let pays = mv.changed.iter().any(|&p| x[p] < owned);
                            let cost = if pays { mv.cost } else { 0 };
                            let nd = d.saturating_add(cost.min(255) as u8).min(UNREACHED - 1);
                            let t = &table[coord.rank(x) as usize];
                            if t.load(Relaxed) <= nd {
                                continue;
                            }
                            let before = t.fetch_min(nd, Relaxed);
                            if before <= nd {
                                continue;
                            }
                            found += (before == UNREACHED) as u64;
                            deepest = deepest.max(nd);
                            if nd == d {
                                stack.extend_from_slice(x);
                            }
                        }
                    }
                }
                if found > 0 {
                    newly.fetch_add(found, Relaxed);
                }
                max_assigned.fetch_max(deepest as u64, Relaxed);
            },
        );
        progress.inc(newly.load(Relaxed));
        if !found_d.load(Relaxed) && d as u64 >= max_assigned.load(Relaxed) {
            break;
        }
        d += 1;
    }
    progress.finish();
    let entries: Vec<u8> = table.into_iter().map(AtomicU8::into_inner).collect();
    let max_depth = entries
        .iter()
        .copied()
        .filter(|&e| e != UNREACHED)
        .max()
        .unwrap_or(0);
    // Summed bounds are only as good as their parts: depths past 14 keep a byte each.
    let (format, data) = if max_depth <= 14 {
        (Format::Nibbles, pack_nibbles(&entries))
    } else {
        (Format::Bytes, entries)
    };
    PruneTable::from_entries(metric, vec![len], format, max_depth, Entries::Owned(data))
        .expect("sizes agree")
}
