//! The indexed breadth-first search for puzzles whose moves depend on the position
//! (guarded moves, goals that are sets): one 2-bit entry per index of the flat index
//! ([`FlatIndex`]) instead of a hash set of packed keys, when that index fits the budget.
//!
//! Each layer is a vector of packed keys (the frontier). A step makes every
//! predecessor of the frontier through the inverse of each move, keeps those where the
//! move's guard holds (guards are judged where the move is made from, as in the
//! hash-set search), ranks them and claims their unseen entries; a claimed entry's key
//! joins the next frontier. The table marks every position seen, so directed moves need
//! nothing more, and only the frontier being read and the one being written are held.
//!
//! Entries hold the distance modulo 3 (2 bits) when every move can be taken back
//! ([`super::reverse`]): a neighbour of a position at distance `d` then lies at `d - 1`,
//! `d` or `d + 1`, which the residue tells apart when an antipode is walked back to the
//! goal. With one-way moves, or when exact distances are to be saved, entries are whole
//! bytes. Every move costs 1 here; other costs take the hash-set search.

use super::dispatch::Dispatch;
use super::flat_index::FlatIndex;
use super::table::PackedTable;
use super::{hashed, ksolve_order, Antipode, Distances, GodError, GodOptions, GodTable, Layers};
use super::{Method, MoveInfo};
use crate::keys::Packer;
use crate::progress::Progress;
use crate::puzzle::{MoveId, Puzzle};
use rayon::prelude::*;

/// Bytes a frontier key takes.
const BYTES_PER_KEY: u64 = 16;

/// Everything the search needs, decided before it starts.
pub(crate) struct Plan {
    packer: Packer,
    ix: FlatIndex,
    starts: Vec<u128>,
    bits: u32,
}

impl Plan {
    /// The plan for `puzzle`, or why the flat index does not suit it. `share` is the
    /// part of the budget the table may take.
    pub(crate) fn new(
        puzzle: &Puzzle,
        opts: &GodOptions,
        info: &MoveInfo,
        budget: u64,
        share: u64,
    ) -> Result<Plan, String> {
        if !puzzle.blocks.is_empty() {
            return Err("the flat index does not follow Block".into());
        }
        if info.max_cost != 1 {
            return Err("the flat index search needs every move to cost 1".into());
        }
        let packer = Packer::new(puzzle, &info.transforms, &info.base_of)
            .map_err(|e| GodError::from(e).to_string())?;
        let ix = FlatIndex::new(&packer, packer.key(&puzzle.solved))
            .ok_or("positions with orientations or past 2^64 arrangements have no flat index")?;
        let bits = if info.reversible && !opts.keep_distances {
            2
        } else {
            8
        };
        let need = PackedTable::bytes_for(ix.space(), bits);
        if need > share {
            return Err(format!(
                "a flat index of {} positions needs {} bytes, past its share of the budget",
                ix.space(),
                need
            ));
        }
        let most = (budget / hashed::BYTES_PER_POSITION).min(usize::MAX as u64) as usize;
        let goals = puzzle
            .goal_positions(most)
            .ok_or("the goal has too many positions to list")?;
        let mut starts: Vec<u128> = goals.iter().map(|g| packer.key(g)).collect();
        if !starts.iter().all(|&k| ix.fits(k)) {
            return Err("a goal position holds other labels than the solved state".into());
        }
        starts.sort_unstable();
        starts.dedup();
        Ok(Plan {
            packer,
            ix,
            starts,
            bits,
        })
    }
}

/// The finished layers: the table and the deepest frontier.
struct Run {
    table: PackedTable,
    counts: Vec<u64>,
    last: Vec<u128>,
}

fn run(
    plan: &Plan,
    cols: &[(usize, usize)],
    budget: u64,
    progress: &dyn Progress,
    on_layer: &Layers,
) -> Result<Run, GodError> {
    let (packer, ix) = (&plan.packer, &plan.ix);
    let table = PackedTable::new(ix.space(), plan.bits);
    let modulus = table.unseen() as usize;
    let table_bytes = PackedTable::bytes_for(ix.space(), plan.bits);
    for &k in &plan.starts {
        table.try_set(ix.rank(k), 0);
    }
    let mut frontier = plan.starts.clone();
    let guards: Vec<Vec<(u32, u128, u128)>> = cols
        .iter()
        .map(|&(inv, fwd)| packer.guard_before(inv, fwd))
        .collect();
    let dispatch = Dispatch::new(&guards);
    let mut counts = vec![frontier.len() as u64];
    on_layer(0, frontier.len() as u64);
    loop {
        let d = counts.len() - 1;
        if plan.bits == 8 && d + 1 >= modulus {
            return Err(GodError::TooDeep(modulus as u32 - 1));
        }
        let v = ((d + 1) % modulus) as u8;
        progress.start(
            &format!("positions at distance {} from solved", d + 1),
            Some(frontier.len() as u64),
        );
        let next: Vec<u128> = frontier
            .par_chunks(4096)
            .flat_map_iter(|chunk| {
                let mut out = Vec::with_capacity(chunk.len());
                for &y in chunk {
                    // The moves whose guards hold in the predecessor (read on `y`).
                    dispatch.each(y, |c| {
                        let (inv, fwd) = cols[c];
                        let x = packer.step(inv, y);
                        debug_assert!(packer.guard_holds(fwd, x));
                        if table.try_set(ix.rank(x), v) {
                            out.push(x);
                        }
                    });
                }
                progress.inc(chunk.len() as u64);
                out
            })
            .collect();
        progress.finish();
        if next.is_empty() {
            break;
        }
        let need = table_bytes + (frontier.len() + next.len()) as u64 * BYTES_PER_KEY;
        if need > budget {
            return Err(GodError::OverBudget {
                what: format!(
                    "the indexed search's frontier holds {} positions at depth {}",
                    next.len(),
                    d + 1
                ),
                need,
                budget,
            });
        }
        counts.push(next.len() as u64);
        on_layer(d + 1, next.len() as u64);
        frontier = next;
    }
    Ok(Run {
        table,
        counts,
        last: frontier,
    })
}

/// The God's-algorithm table of `puzzle` by the flat index.
pub(crate) fn table(
    puzzle: &Puzzle,
    opts: &GodOptions,
    info: &MoveInfo,
    plan: Plan,
    budget: u64,
    progress: &dyn Progress,
    on_layer: &Layers,
) -> Result<GodTable, GodError> {
    let classes = info.classes();
    let run = run(&plan, &classes[0], budget, progress, on_layer)?;
    let (packer, ix) = (&plan.packer, &plan.ix);
    let depth = run.counts.len() - 1;
    let mut deepest: Vec<(Vec<u16>, u128)> = run
        .last
        .iter()
        .map(|&k| (ksolve_order(puzzle, &packer.state(k)), k))
        .collect();
    deepest.sort();
    let mut antipodes = Vec::new();
    for &(_, k) in deepest.iter().take(opts.antipodes) {
        let solution = walk(puzzle, info, &plan, &run.table, k, depth)
            .ok_or(GodError::Internal("no optimal path in the finished table"))?;
        antipodes.push(Antipode {
            state: packer.state(k),
            solution,
        });
    }
    let distances = opts.keep_distances.then(|| {
        let unseen = run.table.unseen();
        let mut all: Vec<(u128, u16)> = (0..ix.space())
            .into_par_iter()
            .filter_map(|i| {
                let v = run.table.get(i);
                (v != unseen).then(|| (ix.unrank(i), v as u16))
            })
            .collect();
        all.par_sort_unstable();
        Distances::Hashed(all)
    });
    Ok(GodTable {
        metric: opts.metric,
        counts: run.counts,
        antipodes,
        method: Method::Indexed,
        index_space: Some(ix.space()),
        table_bytes: PackedTable::bytes_for(ix.space(), plan.bits),
        seconds: 0.0,
        distances,
    })
}

/// An optimal solution of the position with key `k` at distance `depth`: at each step
/// the first move in definition order, allowed here, that reaches the next lower
/// distance (the rule the hash-set search's antipodes follow). With 2-bit entries the
/// moves can all be taken back, so a neighbour is one closer exactly when its residue
/// is one lower.
fn walk(
    puzzle: &Puzzle,
    info: &MoveInfo,
    plan: &Plan,
    table: &PackedTable,
    mut k: u128,
    depth: usize,
) -> Option<Vec<MoveId>> {
    let (packer, ix) = (&plan.packer, &plan.ix);
    let modulus = table.unseen() as usize;
    let mut out = Vec::with_capacity(depth);
    for d in (1..=depth).rev() {
        let want = ((d - 1) % modulus) as u8;
        let m = (0..puzzle.moves.len()).find(|&m| {
            info.costs[m] == 1
                && packer.guard_holds(m, k)
                && table.get(ix.rank(packer.step(m, k))) == want
        })?;
        k = packer.step(m, k);
        out.push(MoveId(m as u16));
    }
    puzzle.is_solved(&packer.state(k), &[]).then_some(out)
}
