//! The sparse breadth-first search, for puzzles the perfect index does not suit:
//! bandaged puzzles (`Block`), whose legal moves depend on where the blocks are, and
//! puzzles whose index space dwarfs the positions actually reachable.
//!
//! Positions are packed `u128` keys ([`crate::keys`]), on which moves act field by
//! field. Each breadth-first layer is a sorted
//! vector of keys. Expansion runs backwards from the solved state exactly as in the
//! indexed search: a position `x` joins layer `d + 1` when some move `m` of cost `c`,
//! legal at `x`, takes it to layer `d + 1 - c`. A move is whole-or-untouched for a block
//! before it exactly when it is after it, so legality, judged once per known position,
//! gives exact distances to solve for blocks and directed moves alike.
//!
//! Guards (`When`) are judged like blocks, in the position a move is made from (the
//! predecessor `x`). The search may start from many positions at once (a goal that is a
//! set of positions): layer 0 holds them all, so distances are to the nearest.
//!
//! Repeats are rejected by merging new candidates against the last `2 * max cost`
//! layers when every move can be taken back by a move of the same cost, guards included
//! (`super::reverse`; a predecessor cannot lie further away); directed moves can lead
//! back to any depth, so they keep a set of every key, sharded by hash bits
//! ([`ShardedSet`]) so that threads insert a layer together.

use super::dispatch::Dispatch;
use super::shards::ShardedSet;
use super::{GodError, Layers};
use crate::keys::Packer;
use crate::progress::Progress;
use rayon::prelude::*;

/// Bytes a key costs in the search: its slot in the hash set (with control byte and
/// spare capacity) and its place in a layer vector.
pub(crate) const BYTES_PER_POSITION: u64 = 48;

/// The result of the hash-set search: every layer, sorted.
pub(crate) struct HashedRun {
    pub(crate) layers: Vec<Vec<u128>>,
}

impl HashedRun {
    /// The distance of `k`, when it was reached.
    pub(crate) fn distance(&self, k: u128) -> Option<u32> {
        self.layers
            .iter()
            .position(|l| l.binary_search(&k).is_ok())
            .map(|d| d as u32)
    }
}

/// The predecessors of `sources` through the moves `cols` that are legal there and,
/// with directed moves, not seen before.
fn candidates(
    packer: &Packer,
    sources: &[u128],
    cols: &[(usize, usize)],
    undirected: bool,
    seen: &ShardedSet,
    progress: &dyn Progress,
) -> Vec<u128> {
    // A guard is judged where the move is made from, the predecessor, but read on the
    // key it is made from before stepping.
    let guards: Vec<Vec<(u32, u128, u128)>> = cols
        .iter()
        .map(|&(inv, fwd)| packer.guard_before(inv, fwd))
        .collect();
    let dispatch = Dispatch::new(&guards);
    sources
        .par_chunks(2048)
        .flat_map_iter(|chunk| {
            let mut masks = vec![0u128; packer.nblocks()];
            let mut out = Vec::with_capacity(chunk.len() * cols.len());
            for &y in chunk {
                packer.block_masks_of_key(y, &mut masks);
                let ok = packer.legal_moves(&masks);
                dispatch.each(y, |c| {
                    let (inv, fwd) = cols[c];
                    if !packer.allows(ok, fwd) {
                        return;
                    }
                    let x = packer.step(inv, y);
                    debug_assert!(packer.guard_holds(fwd, x));
                    if undirected || !seen.contains(x) {
                        out.push(x);
                    }
                });
            }
            progress.inc(chunk.len() as u64);
            out
        })
        .collect()
}

/// Removes from the sorted `found` every key of the sorted `layers`, by linear merges.
fn subtract(found: &mut Vec<u128>, layers: &[Vec<u128>]) {
    for l in layers {
        let mut j = 0;
        found.retain(|x| {
            while j < l.len() && l[j] < *x {
                j += 1;
            }
            j == l.len() || l[j] != *x
        });
    }
}

/// Runs the search. `push_cols[c - 1]` lists, for the moves of cost `c`, the inverse
/// transform and the forward move (whose touched mask judges `Block` legality).
///
/// When every move's inverse is also a move (`undirected`), a predecessor of layer
/// `d + 1 - c` lies within `c` of it, so new candidates only need checking against the
/// last `2 * max cost` layers: they are sorted, deduplicated and merged against those,
/// and no set of all positions is kept. Directed moves can lead back to any depth, so
/// there every position seen is kept in a hash set.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    packer: &Packer,
    starts: Vec<u128>,
    push_cols: &[Vec<(usize, usize)>],
    undirected: bool,
    budget: u64,
    max_depth: u32,
    progress: &dyn Progress,
    on_layer: &Layers,
) -> Result<HashedRun, GodError> {
    let mut seen = ShardedSet::new();
    let mut starts = starts;
    starts.sort_unstable();
    starts.dedup();
    if !undirected {
        seen.extend(&starts);
    }
    let mut positions = starts.len() as u64;
    on_layer(0, positions);
    let mut layers: Vec<Vec<u128>> = vec![starts];
    let reach = 2 * push_cols.len();
    loop {
        let d = layers.len() - 1;
        if d as u32 >= max_depth {
            return Err(GodError::TooDeep(max_depth));
        }
        let total: u64 = (1..=push_cols.len())
            .filter(|&c| d + 1 >= c)
            .map(|c| layers[d + 1 - c].len() as u64)
            .sum();
        progress.start(
            &format!("positions at distance {} from solved", d + 1),
            Some(total),
        );
        // Refuse before a layer that would not fit, guessing its size from the growth of
        // the last one, rather than after filling memory.
        if d >= 1 {
            let (last, before) = (layers[d].len() as u64, layers[d - 1].len().max(1) as u64);
            let guess = last.saturating_mul(last.div_ceil(before).max(1));
            let need = (positions + guess).saturating_mul(BYTES_PER_POSITION);
            if need > budget {
                progress.finish();
                return Err(GodError::OverBudget {
                    what: format!(
                        "the search has found {positions} positions to depth {d} and expects \
                         about {guess} more at depth {}",
                        d + 1
                    ),
                    need,
                    budget,
                });
            }
        }
        let recent = if undirected {
            &layers[(d + 1).saturating_sub(reach)..]
        } else {
            &layers[..0]
        };
        let mut found: Vec<u128> = Vec::new();
        for (ci, cols) in push_cols.iter().enumerate() {
            let c = ci + 1;
            if d + 1 < c || cols.is_empty() {
                continue;
            }
            // Batches bound the candidates held at once (each source yields one per
            // legal move); each batch is sorted, deduplicated and filtered on its own.
            for batch in layers[d + 1 - c].chunks(1 << 18) {
                let mut part = candidates(packer, batch, cols, undirected, &seen, progress);
                part.par_sort_unstable();
                part.dedup();
                subtract(&mut part, recent);
                found.extend(part);
            }
        }
        progress.finish();
        found.par_sort_unstable();
        found.dedup();
        if found.is_empty() {
            break;
        }
        positions += found.len() as u64;
        let need = positions * BYTES_PER_POSITION;
        if need > budget {
            return Err(GodError::OverBudget {
                what: format!(
                    "the hash-set search passed {positions} positions at depth {}",
                    d + 1
                ),
                need,
                budget,
            });
        }
        if !undirected {
            seen.extend(&found);
        }
        on_layer(d + 1, found.len() as u64);
        layers.push(found);
    }
    Ok(HashedRun { layers })
}
