//! The per-search context: everything one search of one scramble needs, fixed before
//! the first node and shared read-only by the worker threads ([`Ctx`]), with the helpers
//! that set it up and the pruning bound of a node. It is apart from `mod.rs` so that the
//! driver (which tables, which probes, which bounds) and the data the inner loop reads
//! can be read separately.

use super::canon::Canon;
use super::goal_test::{Allowed, Closed};
use super::guarded::Guards;
use super::{inverse, probe, reduced};
use crate::progress::Progress;
use crate::puzzle::{IgnoreMask, Puzzle, State};
use crate::table::prune::PruneTable;

/// Which base moves touch each position, per set, as bit masks over base moves.
pub(super) fn touched_by(puzzle: &Puzzle) -> Vec<Vec<u128>> {
    puzzle
        .sets
        .iter()
        .enumerate()
        .map(|(set, def)| {
            (0..def.size)
                .map(|pos| {
                    puzzle
                        .base_moves
                        .iter()
                        .enumerate()
                        .filter(|(_, b)| b.touched[set][pos])
                        .fold(0u128, |acc, (i, _)| acc | 1 << i)
                })
                .collect()
        })
        .collect()
}

/// The definition's symmetry group, found once per solver (`None` when it cannot be).
pub(super) fn group_of<'s>(
    slot: &'s mut Option<Option<crate::symmetry::SymmetryGroup>>,
    puzzle: &Puzzle,
) -> Option<&'s crate::symmetry::SymmetryGroup> {
    slot.get_or_insert_with(|| crate::symmetry::SymmetryGroup::find(puzzle).ok())
        .as_ref()
}

/// Everything one search needs, fixed for the scramble: read-only, shared by threads.
pub(super) struct Ctx<'a> {
    pub(super) nm: usize,
    /// Values per node: components, then block pieces.
    pub(super) width: usize,
    /// Move table of each slot.
    pub(super) tables: Vec<&'a [u32]>,
    pub(super) start: Vec<u32>,
    /// Which move may follow which (depends on the scramble's move limits).
    pub(super) canon: &'a Canon,
    pub(super) cost: Vec<u32>,
    /// The most moves of cost 0 in a row a search tries (0 when every move costs
    /// something): enough for any product of them ([`super::zero::longest_run`]).
    pub(super) zero_run: u32,
    pub(super) base: Vec<u32>,
    pub(super) prune: Vec<(Vec<(usize, u64)>, &'a PruneTable)>,
    /// The symmetry-reduced table, when the planner chose one.
    pub(super) reduced: Option<reduced::SymLookup<'a>>,
    /// The moves each of the reduced table's lookups rules out as a solution's last
    /// move when its bound is tight ([`super::tight`]).
    pub(super) tight: super::tight::Tight,
    /// Per goal position, the slots whose value must be among the allowed values for
    /// the node to be that position; a node is solved when it is any of them.
    pub(super) goal: Vec<Vec<(usize, Allowed)>>,
    /// For a goal closed under moves, the exact check of a node that passes `goal`.
    pub(super) closed: Option<Closed<'a>>,
    /// Per block: (slot, set) of each of its pieces.
    pub(super) blocks: Vec<Vec<(usize, usize)>>,
    pub(super) touched: Vec<Vec<u128>>,
    /// Per move: bit mask of the move limits it counts against.
    pub(super) limit_mask: Vec<u64>,
    pub(super) limit_max: Vec<u32>,
    /// Further lookups of the pruning tables at conjugated positions.
    pub(super) sym: probe::SymProbes<'a>,
    /// Lookups at the inverse position, when it is as far from solved.
    pub(super) inverse: Option<inverse::InverseProbe<'a>>,
    /// The position to solve.
    pub(super) start_state: &'a State,
    /// Where workers report the nodes they generate, in batches.
    pub(super) progress: &'a dyn Progress,
    /// When to stop searching ([`super::SolveOptions::deadline`]).
    pub(super) deadline: Option<std::time::Instant>,
    /// The guards, when some move has one.
    pub(super) guards: Option<Guards<'a>>,
    /// Per move, the moves that undo it, when a search for optimal solutions only (no
    /// Slack) may skip such a pair; empty otherwise.
    pub(super) undo: Vec<Vec<u16>>,
    /// The symmetries that fix the start, when one solution is wanted: the prefixes of
    /// the top of the tree they make redundant are left out ([`super::stabiliser`]).
    pub(super) stabiliser: super::stabiliser::Stabiliser,
}

/// Per move, every move that takes each position back where it was (for a sliding
/// puzzle, the tile slid back), when the pair costs something, and only for guarded
/// moves. A sequence with such a pair is never optimal: without it the other moves are
/// made from the same positions and cost less. The canonical automaton cannot see this,
/// since guarded moves of different base moves never merge.
///
/// All of them are listed, not only the first: a slide's effect is its own inverse and
/// is shared by the slide back (D1 and U5 both swap cells 1 and 5), so the first move
/// found to undo a slide is often the slide itself, which its guard never allows twice in
/// a row, and with that one alone the search took half the slides back at once.
pub(super) fn undoing_moves(puzzle: &Puzzle, metric: crate::puzzle::Metric) -> Vec<Vec<u16>> {
    let id = crate::puzzle::Transform::identity(&puzzle.sets);
    let n = puzzle.moves.len();
    (0..n)
        .map(|a| {
            let ma = &puzzle.moves[a];
            if puzzle.guards.get(ma.base).is_none_or(Option::is_none) {
                return Vec::new();
            }
            let cost = |m: usize| puzzle.move_cost(metric, crate::puzzle::MoveId(m as u16));
            (0..n)
                .filter(|&b| {
                    cost(a) + cost(b) > 0
                        && ma.effect.then(&puzzle.moves[b].effect, &puzzle.sets) == id
                })
                .map(|b| b as u16)
                .collect()
        })
        .collect()
}

/// The scramble's ignore masks with the goal's free positions (`?` in `Solved`) added.
pub(super) fn with_free(puzzle: &Puzzle, ignore: &[IgnoreMask]) -> Vec<IgnoreMask> {
    puzzle
        .sets
        .iter()
        .enumerate()
        .map(|(k, def)| {
            let mut m = ignore.get(k).cloned().unwrap_or_else(|| IgnoreMask {
                perm: vec![false; def.size],
                ori: vec![false; def.size],
            });
            if let Some(free) = puzzle.free.get(k) {
                for (p, &f) in m.perm.iter_mut().zip(free) {
                    *p |= f;
                }
            }
            m
        })
        .collect()
}

impl Ctx<'_> {
    /// Writes into `out` every slot of the node whose slots are `cur` after move `m`,
    /// through the slots' move tables.
    #[inline]
    pub(super) fn step_row(&self, cur: &[u32], m: usize, out: &mut [u32]) {
        for ((n, &c), t) in out.iter_mut().zip(cur).zip(&self.tables) {
            *n = t[c as usize * self.nm + m];
        }
    }

    /// The largest lower bound of the pruning tables for a node.
    pub(super) fn heuristic(&self, vals: &[u32]) -> u32 {
        let direct = self.prune.iter().map(|(slots, t)| {
            let idx: u64 = slots.iter().map(|&(s, st)| vals[s] as u64 * st).sum();
            t.get(idx)
        });
        let probed = self.sym.probes.iter().map(|(t, pairs)| {
            let idx: u64 = pairs
                .iter()
                .map(|&(s, st)| self.sym.start[s] as u64 * st)
                .sum();
            self.prune[*t].1.get(idx)
        });
        let reduced_probes = self.sym.reduced.iter().map(|r| r.get(&self.sym.start));
        let mut h = direct
            .chain(probed)
            .chain(reduced_probes)
            .max()
            .unwrap_or(0);
        if let Some(r) = &self.reduced {
            h = h.max(r.get(vals));
        }
        if let Some(ip) = &self.inverse {
            let mut inv = self.start_state.clone();
            ip.invert_into(self.start_state, &mut inv);
            let mut scratch = vec![0u16; inv.sets.iter().map(|s| s.perm.len()).max().unwrap_or(0)];
            for (t, comps) in &ip.tables {
                let idx: u64 = comps
                    .iter()
                    .map(|&(c, st)| c.rank_state(&inv, &mut scratch) as u64 * st)
                    .sum();
                h = h.max(self.prune[*t].1.get(idx));
            }
            let n = ip.reduced.as_ref().map_or(0, |r| r.0.len());
            h = h.max(ip.reduced_bound(&inv, &mut vec![0; n], &mut scratch));
        }
        h
    }
}
