//! Which positions of a set the moves connect: [`Puzzle::position_orbits`]. A piece
//! never leaves the orbit of the position it starts at, so rankings that know the
//! orbits (`coord::Arrangement`, the God's-algorithm index) count only arrangements
//! that keep each orbit's pieces.

use super::{IgnoreMask, MoveId, Puzzle, State};

impl Puzzle {
    /// The positions of set `set` grouped into orbits under every move (or the orbits
    /// the puzzle keeps from a puzzle it was narrowed from, [`Puzzle::orbits`]): each
    /// orbit ascending, orbits ordered by their smallest position.
    pub fn position_orbits(&self, set: usize) -> Vec<Vec<usize>> {
        if let Some(kept) = self.orbits.get(set).filter(|o| !o.is_empty()) {
            return kept.clone();
        }
        let bases: Vec<MoveId> = self.base_moves.iter().map(|b| b.powers[0]).collect();
        let roots = self.orbit_roots(set, &bases);
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut slot = vec![usize::MAX; roots.len()];
        for (i, &r) in roots.iter().enumerate() {
            if slot[r] == usize::MAX {
                slot[r] = groups.len();
                groups.push(Vec::new());
            }
            groups[slot[r]].push(i);
        }
        groups
    }

    /// Per position of set `set`, the smallest position of its orbit under `moves`
    /// (a chain's phase asks this of its subgroup's moves).
    pub fn orbit_roots(&self, set: usize, moves: &[MoveId]) -> Vec<usize> {
        let size = self.sets[set].size;
        let mut parent: Vec<usize> = (0..size).collect();
        fn find(p: &mut [usize], mut x: usize) -> usize {
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        for &m in moves {
            for (i, &src) in self.mv(m).effect.sets[set].perm.iter().enumerate() {
                let (x, y) = (find(&mut parent, i), find(&mut parent, src as usize));
                parent[x.max(y)] = x.min(y);
            }
        }
        (0..size).map(|i| find(&mut parent, i)).collect()
    }

    /// Whether `state` may reach `target`: every orbit of positions holds the same
    /// pieces in both (as a multiset of labels), no move changing that. An orbit with a
    /// position `masks` or the definition's goal (`?` in `Solved`, [`Puzzle::free`])
    /// leaves free (any piece may end there) is not compared. Ranks
    /// that know the orbits leave out a set whose pieces cannot move at all (it has one
    /// value), so the search asks this of its start instead of its goal test. `orbits`
    /// holds [`Puzzle::position_orbits`] per set, found once for every target.
    pub fn keeps_orbits(
        &self,
        orbits: &[Vec<Vec<usize>>],
        state: &State,
        target: &State,
        masks: &[IgnoreMask],
    ) -> bool {
        (0..self.sets.len()).all(|set| {
            let (now, goal) = (&state.sets[set].perm, &target.sets[set].perm);
            let free = |i: usize| {
                masks.get(set).is_some_and(|m| m.perm.get(i) == Some(&true))
                    || self.free.get(set).and_then(|r| r.get(i)) == Some(&true)
            };
            now.len() == goal.len()
                && orbits[set].iter().all(|orbit| {
                    if orbit.iter().any(|&i| free(i)) {
                        return true;
                    }
                    let mut a: Vec<u16> = orbit.iter().map(|&i| now[i]).collect();
                    let mut b: Vec<u16> = orbit.iter().map(|&i| goal[i]).collect();
                    a.sort_unstable();
                    b.sort_unstable();
                    a == b
                })
        })
    }
}
