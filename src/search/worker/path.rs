//! Which moves a worker's node may make (blocks, guards, move limits, the canonical
//! automaton, free-move runs, undoing pairs) and the path's counters they read: decided
//! before a child is looked at.

use super::Worker;
use crate::search::canon::DEAD;

impl Worker<'_, '_, '_> {
    /// The base moves that split no block in the node at `level`.
    pub(super) fn legal(&self, level: usize) -> u128 {
        let vals = self.row(level);
        let mut legal = !0u128;
        for block in &self.ctx.blocks {
            let (mut all, mut any) = (!0u128, 0u128);
            for &(slot, set) in block {
                let t = self.ctx.touched[set][vals[slot] as usize];
                all &= t;
                any |= t;
            }
            legal &= all | !any;
        }
        legal
    }

    /// Whether move `m`'s guard holds in the node at `level` (always without guards).
    #[inline]
    pub(super) fn guard_ok(&self, level: usize, m: usize) -> bool {
        match &self.ctx.guards {
            None => true,
            Some(g) => g.packer.guard_holds(m, self.guard.path[level]),
        }
    }

    /// The key of the child of the node at `level` by move `m`, and by how much its
    /// guarded bound passes `left` (0 when it fits). Without guards: (0, 0).
    #[inline]
    pub(super) fn child_key(&self, level: usize, m: usize, left: u32) -> (u128, u32) {
        match &self.ctx.guards {
            None => (0, 0),
            Some(g) => {
                let k = g.packer.step(m, self.guard.path[level]);
                (k, g.over(k, left, self.over))
            }
        }
    }

    /// Whether every move limit in `mask` has room for one more move on the path.
    fn limits_allow(&self, mut mask: u64) -> bool {
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            if self.path.counts[i] >= self.ctx.limit_max[i] {
                return false;
            }
            mask &= mask - 1;
        }
        true
    }

    /// The number of free moves at the end of the path.
    #[inline]
    fn run(&self) -> u32 {
        self.path.runs.last().copied().unwrap_or(0)
    }

    /// Puts move `m` on the path, counting it against its limits and free-move run.
    pub(super) fn push(&mut self, m: usize) {
        let run = if self.ctx.cost[m] == 0 {
            self.run() + 1
        } else {
            0
        };
        self.path.runs.push(run);
        self.path.moves.push(m as u16);
        let mut mask = self.ctx.limit_mask[m];
        while mask != 0 {
            self.path.counts[mask.trailing_zeros() as usize] += 1;
            mask &= mask - 1;
        }
    }

    /// Takes the last move off the path, undoing [`Self::push`].
    pub(super) fn pop(&mut self) {
        self.path.runs.pop();
        if let Some(m) = self.path.moves.pop() {
            let mut mask = self.ctx.limit_mask[m as usize];
            while mask != 0 {
                self.path.counts[mask.trailing_zeros() as usize] -= 1;
                mask &= mask - 1;
            }
        }
    }

    /// The automaton state after move `m` from a node (in `state`, with `remaining`
    /// cost left and block-legal base moves `legal`), or [`DEAD`] when the move may not
    /// be made; decided before looking at the child.
    #[inline]
    pub(super) fn may_try(&self, remaining: u32, state: u32, m: usize, legal: u128) -> u32 {
        let ctx = self.ctx;
        let to = ctx.canon.step(state, m);
        if to != DEAD
            && ctx.cost[m] <= remaining
            && (ctx.cost[m] != 0 || self.run() < ctx.zero_run)
            && (ctx.blocks.is_empty() || (legal >> ctx.base[m]) & 1 == 1)
            && (ctx.limit_mask[m] == 0 || self.limits_allow(ctx.limit_mask[m]))
            && (ctx.undo.is_empty()
                || self
                    .path
                    .moves
                    .last()
                    .is_none_or(|&p| !ctx.undo[p as usize].contains(&(m as u16))))
        {
            to
        } else {
            DEAD
        }
    }
}
