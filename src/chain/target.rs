//! What a phase aims for: the solved state as the next subgroup sees it ([`Target`]).
//!
//! A subgroup `H` cannot tell apart pieces it moves among each other, nor (in a part of
//! the puzzle where its moves never twist a piece away from how it sits when solved)
//! lose track of orientation. So the coarsest picture `H` keeps of the solved state has
//! one label for all the pieces whose home positions one orbit of `H` holds, and keeps
//! orientation exactly where every generator leaves the solved orientation in place.
//! Every position of `H` looks solved in that picture; a phase searches until the
//! position does.
//!
//! The picture is right (every position that looks solved is in `H`) exactly when the
//! number of pictures the upper group reaches times the positions of `H` is the number
//! of positions of the upper group ([`Target::exact_within`]): that is how a chain is
//! checked, by exact counts from the stabiliser chain, never by trust.

use super::split::Split;
use crate::group::{BigUint, Count, Group};
use std::collections::HashSet;

/// Pictures are listed one by one (rather than counted through the group) up to this
/// many.
const LIST_PICTURES: u64 = 200_000;
use crate::puzzle::{IgnoreMask, MoveId, Puzzle, State};

/// The solved state as a subgroup sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The solved state with the labels merged.
    pub state: State,
    /// Per set: each label's new label.
    pub relabel: Vec<Vec<u16>>,
    /// Per set: the positions whose orientation the subgroup does not keep.
    pub free: Vec<IgnoreMask>,
}

/// Per set, the orbit each position is in under `moves` (an id per orbit, its smallest
/// position).
pub fn orbits(puzzle: &Puzzle, moves: &[MoveId]) -> Vec<Vec<usize>> {
    puzzle
        .sets
        .iter()
        .enumerate()
        .map(|(k, set)| {
            let mut parent: Vec<usize> = (0..set.size).collect();
            for &m in moves {
                let perm = &puzzle.mv(m).effect.sets[k].perm;
                for (i, &p) in perm.iter().enumerate() {
                    let (a, b) = (find(&mut parent, i), find(&mut parent, p as usize));
                    parent[a.max(b)] = a.min(b);
                }
            }
            (0..set.size).map(|i| find(&mut parent, i)).collect()
        })
        .collect()
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

impl Target {
    /// The solved state as the group `moves` generate sees it.
    pub fn of(puzzle: &Puzzle, moves: &[MoveId]) -> Target {
        let orbit = orbits(puzzle, moves);
        let solved = &puzzle.solved;
        let mut state = solved.clone();
        let mut relabel = Vec::with_capacity(puzzle.sets.len());
        let mut free = Vec::with_capacity(puzzle.sets.len());
        for (k, set) in puzzle.sets.iter().enumerate() {
            let n = set.orientations.max(1);
            let home = &solved.sets[k];
            // Orientation is kept on an orbit when no generator turns a solved piece
            // there away from the solved orientation of the position it lands on.
            let mut kept = vec![true; set.size];
            for &m in moves {
                let e = &puzzle.mv(m).effect.sets[k];
                for i in 0..set.size {
                    let from = e.perm[i] as usize;
                    if (home.ori[from] + e.ori[i]) % n != home.ori[i] % n {
                        kept[orbit[k][i]] = false;
                    }
                }
            }
            // Labels whose home positions share an orbit become one label (the smallest).
            let max = home.perm.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
            let mut parent: Vec<usize> = (0..max.max(set.size)).collect();
            let mut first: Vec<Option<usize>> = vec![None; set.size];
            for i in 0..set.size {
                let l = home.perm[i] as usize;
                match first[orbit[k][i]] {
                    None => first[orbit[k][i]] = Some(l),
                    Some(f) => {
                        let (a, b) = (find(&mut parent, f), find(&mut parent, l));
                        parent[a.max(b)] = a.min(b);
                    }
                }
            }
            let map: Vec<u16> = (0..parent.len())
                .map(|l| find(&mut parent, l) as u16)
                .collect();
            let mut mask = IgnoreMask {
                perm: vec![false; set.size],
                ori: vec![false; set.size],
            };
            for i in 0..set.size {
                state.sets[k].perm[i] = map[home.perm[i] as usize];
                if n > 1 && !kept[orbit[k][i]] {
                    mask.ori[i] = true;
                    state.sets[k].ori[i] = 0;
                }
            }
            relabel.push(map);
            free.push(mask);
        }
        Target {
            state,
            relabel,
            free,
        }
    }

    /// `state`, a position of the puzzle, as this target pictures it: labels merged,
    /// orientation zero where it is not kept.
    pub fn picture(&self, state: &State) -> State {
        let mut out = state.clone();
        for (k, s) in out.sets.iter_mut().enumerate() {
            for l in s.perm.iter_mut() {
                *l = self.relabel[k][*l as usize];
            }
            for (o, &free) in s.ori.iter_mut().zip(&self.free[k].ori) {
                if free {
                    *o = 0;
                }
            }
        }
        out
    }

    /// Whether `state` looks solved to this target.
    pub fn reached(&self, state: &State) -> bool {
        self.picture(state) == self.state
    }

    /// The number of pictures the group `upper` generates reaches from this target's
    /// solved picture, when known exactly.
    pub fn pictures_within(&self, puzzle: &Puzzle, upper: &[MoveId]) -> Option<BigUint> {
        self.count_pictures(puzzle, upper, 0)
    }

    /// [`Target::pictures_within`], listing the pictures one by one when there are at
    /// most `list` of them (a picture of one piece among many interchangeable ones is
    /// quick to list but slow for the stabiliser search of `group`).
    fn count_pictures(&self, puzzle: &Puzzle, upper: &[MoveId], list: u64) -> Option<BigUint> {
        if list > 0 {
            if let Some(n) = self.list_pictures(puzzle, upper, list) {
                return Some(BigUint::from(n));
            }
        }
        // Each set split into the orbits of `upper`, oriented where this target keeps
        // some orientation; the positions where it keeps none are coloured alike in all
        // their orientations, so the stabiliser the group searches is the picture's.
        // That needs a label never to be both where orientation is kept and where it is
        // not (else the count would tell the two apart where the picture does not):
        // such a part counts as unoriented, which can only make the check fail.
        let mixed = |k: usize, slots: &[usize]| {
            let labels = |kept: bool| -> HashSet<u16> {
                slots
                    .iter()
                    .filter(|&&i| self.free[k].ori[i] != kept)
                    .map(|&i| self.state.sets[k].perm[i])
                    .collect()
            };
            !labels(true).is_disjoint(&labels(false))
        };
        let counted = Split::new(puzzle, upper, &self.state, &self.free, |k, slots| {
            slots.iter().any(|&i| !self.free[k].ori[i]) && !mixed(k, slots)
        });
        let group = Group::new(&counted.puzzle).ok()?;
        let count = match counted.puzzle.ignore.iter().any(|m| m.any()) {
            true => group.reachable_ignoring_twists(
                &counted.puzzle.ignore,
                crate::group::DEFAULT_COUNT_BUDGET,
            ),
            false => group.reachable(),
        };
        match count {
            Count::Exact(n) => Some(n),
            Count::UpperBound(_) => None,
        }
    }

    /// The pictures `upper`'s moves reach from the solved picture, by breadth-first
    /// search, when there are at most `cap`.
    fn list_pictures(&self, puzzle: &Puzzle, upper: &[MoveId], cap: u64) -> Option<u64> {
        // The generators alone reach every picture (in a finite group a move's inverse
        // is a power of it), searched depth first: only the set of pictures matters.
        let moves = upper;
        let mut seen: HashSet<State> = HashSet::from([self.state.clone()]);
        let mut frontier = vec![self.state.clone()];
        while let Some(s) = frontier.pop() {
            for &m in moves {
                let t = self.picture(&s.then(&puzzle.mv(m).effect, &puzzle.sets));
                if !seen.contains(&t) {
                    if seen.len() as u64 >= cap {
                        return None;
                    }
                    seen.insert(t.clone());
                    frontier.push(t);
                }
            }
        }
        Some(seen.len() as u64)
    }

    /// Whether a position of the group `upper` generates that looks solved is always a
    /// position of the group `lower` generates (whose positions number `lower_count`):
    /// the pictures `upper` reaches times `lower_count` must be all of `upper`'s
    /// positions, `upper_count`. Returns the pictures (the phase's coset count) then.
    pub fn exact_within(
        &self,
        puzzle: &Puzzle,
        upper: &[MoveId],
        upper_count: &BigUint,
        lower_count: &BigUint,
    ) -> Option<BigUint> {
        // The pictures never outnumber the index (the lower group keeps the picture), so
        // a small index is listed.
        let index = upper_count.div_rem(lower_count)?.0;
        let list = index.to_u64().filter(|&i| i <= LIST_PICTURES).unwrap_or(0);
        let pictures = self.count_pictures(puzzle, upper, list)?;
        (pictures.mul(lower_count) == *upper_count).then_some(pictures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::Subgroup;
    use crate::def::parse_puzzle;

    #[test]
    fn domino_target_keeps_orientation_and_the_slice() {
        let p = parse_puzzle(include_bytes!("../../puzzles/3x3x3.def"), "3x3x3.def")
            .unwrap()
            .0;
        let top = Subgroup::searched(&p);
        let mut dr = top.clone();
        for name in ["R", "L", "F", "B"] {
            dr.steps[p.base_by_name(name).unwrap()] = 2;
        }
        let t = Target::of(&p, &dr.generators(&p));
        assert!(t.free.iter().all(|m| !m.any()));
        let upper = top.positions(&p).unwrap();
        let lower = dr.positions(&p).unwrap();
        let cosets = t
            .exact_within(&p, &top.generators(&p), &upper, &lower)
            .unwrap();
        // 3^7 twists, 2^11 flips, 12 choose 4 places of the slice edges.
        assert_eq!(cosets.to_string(), "2217093120");
        let r2 = p.apply_sequence(&p.solved, &[p.move_by_name("R2").unwrap()]);
        assert!(t.reached(&r2));
        let r = p.apply_sequence(&p.solved, &[p.move_by_name("R").unwrap()]);
        assert!(!t.reached(&r));
    }
}
