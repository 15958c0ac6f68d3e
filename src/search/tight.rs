//! The rule of tight bounds: a table over the cosets of a subgroup that contains moves
//! also says which moves cannot end a solution.
//!
//! Let a table's goal (its components' goal values) be carried onto itself by move
//! `m`: on the 3x3x3, U and D keep which corners lie in the U layer, the twists, which
//! edges lie in the middle layer and the flips ([`crate::table::sym::axes`]). If a
//! solution of a node ends with `m`, the moves before it take the node's coordinate
//! into the goal already (the goal is `m`'s image of itself), so the table's value is
//! at most the cost left minus one. Hence when the value equals the cost left (the
//! bound is tight), no solution of exactly that cost ends with a move of the table's
//! fixing set. The reduced table looked up at conjugates (one per axis of the cube)
//! fixes the conjugated sets, `{m : σ(m) ∈ F}`, since the conjugate's path takes
//! `σ(m)` where the node's takes `m`. When every lookup is tight and their fixing sets
//! together hold every move, no move can end a solution of that cost: the node is cut
//! as if its bound were one more (Rokicki's nxopt makes the same cut).
//!
//! At the inverse the same sets rule out first moves: `X⁻¹` is solved by the
//! solution's moves inverted and reversed, so a tight lookup there (at a conjugate by
//! `S`: its last move is `σ(m⁻¹)`, and fixing sets hold inverses) says the node's
//! solutions of that cost do not start with a move of the set. The worker leaves those
//! moves out of the node's children, and cuts the node when they are every move.
//!
//! The rule holds under any move limits, blocks or slack: it says only that a
//! solution of exactly the cost left would give a shorter path in the table's
//! abstraction, which the table rules out whatever the search restricts. Moves of cost 0
//! would not shorten it, so a table whose fixing set holds one gets no rule.

use super::checks::Check;
use crate::puzzle::{MoveId, Puzzle};
use crate::symmetry::SymmetryGroup;
use crate::table::{CompId, Tables};

/// The most goal values per component the fixing set is worked out for.
const MAX_GOALS: usize = 1 << 12;

/// The fixing sets of the reduced table's lookups, as masks over the moves.
#[derive(Clone, Debug, Default)]
pub(super) struct Tight {
    /// The reduced table at the node.
    pub reduced: u64,
    /// The reduced table at each of its probes' conjugates, in the probes' order.
    pub probes: Vec<u64>,
    /// Every move: a node whose tight lookups' sets cover this is cut. Zero when the
    /// rule cannot cut (more than 64 moves, or the sets never cover every move).
    pub all: u64,
}

impl Tight {
    /// The fixing sets of the reduced table over components `major` and `minor`, looked
    /// up at the node and at the conjugates by the symmetries `conj` of `group`. `cost`
    /// holds each move's cost.
    pub fn new(
        puzzle: &Puzzle,
        tables: &Tables,
        ids: &[CompId],
        group: Option<&SymmetryGroup>,
        conj: &[usize],
        cost: &[u32],
    ) -> Tight {
        let nm = puzzle.moves.len();
        if nm > 64 || ids.is_empty() {
            return Tight::default();
        }
        let own = fixing(puzzle, tables, ids);
        if own.iter().enumerate().any(|(m, &f)| f && cost[m] == 0) {
            return Tight::default();
        }
        let mask =
            |f: &dyn Fn(usize) -> bool| (0..nm).filter(|&m| f(m)).fold(0u64, |a, m| a | 1 << m);
        let reduced = mask(&|m| own[m]);
        let probes: Vec<u64> = match group {
            Some(g) => conj
                .iter()
                .map(|&s| {
                    let sym = &g.elements()[s];
                    mask(&|m| own[sym.move_image(MoveId(m as u16)).index()])
                })
                .collect(),
            None => Vec::new(),
        };
        let all = if nm == 64 { u64::MAX } else { (1u64 << nm) - 1 };
        let covered = probes.iter().fold(reduced, |a, &p| a | p);
        Tight {
            reduced,
            probes,
            all: if reduced != 0 && covered == all {
                all
            } else {
                0
            },
        }
    }

    /// The fixing set of check `c`, or 0 when it has none.
    #[inline]
    pub fn of(&self, c: Check) -> u64 {
        if self.all == 0 {
            return 0;
        }
        match c {
            Check::Reduced | Check::InverseReduced => self.reduced,
            Check::ReducedProbe(p) | Check::InverseReducedProbe(p) => {
                self.probes.get(p).copied().unwrap_or(0)
            }
            _ => 0,
        }
    }
}

/// Per move, whether it carries every goal value of each of the components `ids`
/// onto a goal value.
fn fixing(puzzle: &Puzzle, tables: &Tables, ids: &[CompId]) -> Vec<bool> {
    let nm = puzzle.moves.len();
    let mut out = vec![true; nm];
    for &id in ids {
        let c = tables.comp(id);
        let goals = c.goal_values(puzzle, puzzle.ignore.get(c.spec.set));
        if goals.is_empty() || goals.len() > MAX_GOALS {
            return vec![false; nm];
        }
        for (m, f) in out.iter_mut().enumerate() {
            *f = *f
                && goals
                    .iter()
                    .all(|&g| goals.contains(&c.table[g as usize * nm + m]));
        }
    }
    out
}
