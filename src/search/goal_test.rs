//! The goal test: the values each goal component may take at a goal position
//! ([`Allowed`]), and for a goal closed under a subgroup's moves
//! ([`crate::puzzle::Goal::within`]: a chain's phase whose goal is every picture of the
//! lower group, up to millions of positions given as one position and the moves) the
//! closed values and the exact check.
//!
//! For a closed goal, each component of the goal test sees the values the moves reach from the goal
//! position's own values ([`Closures::allowed`]: a search in the component's move
//! table, once per goal and component, kept by the solver). That is necessary, not
//! sufficient: the components' values must also fit together. A node that passes
//! every component is replayed from the start and looked up in the goal's listing
//! ([`Closed::holds`]), which is exact; nodes get there rarely, since the pruning tables
//! start from the same closures and a node at the end of the path has passed them all.

use crate::puzzle::{Goal, IgnoreMask, MoveId, Puzzle, State};
use crate::table::comp::Component;
use crate::table::CompId;
use bitvec::prelude::*;
use std::collections::HashMap;

/// The values a goal component may take at a goal position: a short sorted list where
/// the position fixes (nearly) everything the component sees, else a bit per value. A
/// goal of many positions (a goal file's) would otherwise zero a bit set of the
/// component's size per position on every search.
#[derive(Clone, Debug)]
pub(super) enum Allowed {
    Few(Vec<u32>),
    /// Shared: a closed goal's values are kept between searches.
    Bits(std::sync::Arc<BitVec<u64, Lsb0>>),
}

impl Allowed {
    /// At most this many values are listed rather than marked.
    const FEW: usize = 8;

    /// The values `values` of a component of `count` values.
    pub(super) fn new(count: usize, values: impl IntoIterator<Item = u32>) -> Allowed {
        let mut few: Vec<u32> = Vec::new();
        let mut values = values.into_iter();
        for v in values.by_ref() {
            few.push(v);
            if few.len() > Self::FEW {
                let mut bits = bitvec![u64, Lsb0; 0; count];
                for v in few.into_iter().chain(values) {
                    bits.set(v as usize, true);
                }
                return Allowed::Bits(std::sync::Arc::new(bits));
            }
        }
        few.sort_unstable();
        few.dedup();
        Allowed::Few(few)
    }

    /// Whether `v` is allowed.
    #[inline]
    pub(super) fn contains(&self, v: u32) -> bool {
        match self {
            Allowed::Few(few) => few.contains(&v),
            Allowed::Bits(bits) => bits[v as usize],
        }
    }
}

/// The closed values of goal components, kept between searches of one solver: a
/// chain's phase is searched hundreds of times per position with the same goal.
#[derive(Default)]
pub(super) struct Closures {
    /// Per goal fingerprint, component and its goal position's own values.
    memo: HashMap<(u64, CompId, Vec<u32>), Allowed>,
}

impl Closures {
    /// The values of component `comp` (number `id`) that the moves `within` reach from
    /// `values`, for the goal with fingerprint `goal`.
    pub(super) fn allowed(
        &mut self,
        goal: u64,
        id: CompId,
        comp: &Component,
        nm: usize,
        values: Vec<u32>,
        within: &[MoveId],
    ) -> Allowed {
        let key = (goal, id, values);
        if let Some(a) = self.memo.get(&key) {
            return a.clone();
        }
        let reached = reach(comp, nm, &key.2, within);
        let allowed = Allowed::new(comp.count as usize, reached);
        self.memo.insert(key, allowed.clone());
        allowed
    }
}

/// Every value the moves `within` reach from `from` in `comp`'s move table (`nm`
/// moves per value), `from` included.
fn reach(comp: &Component, nm: usize, from: &[u32], within: &[MoveId]) -> Vec<u32> {
    let mut seen = bitvec![0; comp.count as usize];
    let mut out: Vec<u32> = Vec::new();
    for &v in from {
        if !seen.replace(v as usize, true) {
            out.push(v);
        }
    }
    let mut next = 0;
    while let Some(&v) = out.get(next) {
        next += 1;
        for m in within {
            let to = comp.table[v as usize * nm + m.index()];
            if !seen.replace(to as usize, true) {
                out.push(to);
            }
        }
    }
    out
}

/// What the exact check of a closed goal needs.
pub(super) struct Closed<'a> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) goal: &'a Goal,
    /// The scramble's `?` marks, as the replay checks them.
    pub(super) ignore: &'a [IgnoreMask],
}

impl Closed<'_> {
    /// Whether the position `moves` (moves of the puzzle, by index) make from `start`
    /// is in the goal.
    pub(super) fn holds(&self, start: &State, moves: &[u16]) -> bool {
        let mut state = start.clone();
        let mut next = start.clone();
        for &m in moves {
            state.then_into(
                &self.puzzle.moves[m as usize].effect,
                &self.puzzle.sets,
                &mut next,
            );
            std::mem::swap(&mut state, &mut next);
        }
        self.goal
            .reached_by(self.puzzle, &state, self.ignore)
            .is_some()
    }
}
