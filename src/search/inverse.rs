//! The inverse probe: when every piece is distinct, every move's inverse is a move of
//! the same cost and nothing is ignored, the inverse position is exactly as far from
//! solved as the position (a solution of one, reversed and inverted move by move, solves
//! the other), so the pruning tables looked up there give a second bound.
//!
//! A position `X` is the solved state `Z` followed by a transformation `g`; its inverse
//! is `Z` followed by `g⁻¹`. The search keeps it per level of the path, only when this
//! probe is in use: a child's is its parent's with the move made before rather than
//! after (`(X m)⁻¹ = m⁻¹ X⁻¹`), which relabels the pieces ([`InverseProbe::premove_into`]),
//! and it is ranked into the tables' components without allocating
//! ([`Component::rank_state`]).
//!
//! The reduced table is also looked up at conjugates of the inverse, `S X⁻¹ S⁻¹`, by
//! the symmetries of its own probes ([`super::probe`]): that is the inverse of the
//! conjugate `S X S⁻¹`, which is as far from solved as `X` wherever both probes hold.
//! On the 3x3x3 these are the inverse's flips seen from the two other axes.

use crate::puzzle::{IgnoreMask, Puzzle, SetDef, State};
use crate::table::comp::{CompKind, Component};

/// What the inverse probe of one search needs.
pub(super) struct InverseProbe<'a> {
    sets: &'a [SetDef],
    solved: &'a State,
    /// Per set: the solved position of each label.
    home: Vec<Vec<u16>>,
    /// Per set: the solved state's twists, below the set's orientations.
    solved_twist: Vec<Vec<u8>>,
    /// Per move, set and label: the label and added twist that label becomes when the
    /// move is made at the position, seen at the inverse ([`Self::premove_into`]).
    premoves: Vec<Vec<Vec<(u16, u8)>>>,
    /// Per probed table: its index among the search's tables and its components with
    /// their strides.
    pub tables: Vec<(usize, Vec<(&'a Component, u64)>)>,
    /// The symmetry-reduced table, when there is one: its components (major, then
    /// minor) ranked at the inverse into a row that its lookup reads at slots 0, 1, ...
    pub reduced: Option<(Vec<&'a Component>, super::reduced::SymLookup<'a>)>,
    /// Symmetries at whose conjugates of the inverse the reduced table is looked up
    /// too: `S Y S⁻¹` for the inverse `Y` is `(S X S⁻¹)⁻¹`, as far from solved as the
    /// position wherever both the inverse and the symmetry probe hold. Those of the
    /// reduced table's own probes ([`super::probe::SymProbes::reduced_used`]), in
    /// their order; set by the search once both are chosen.
    pub conj: Vec<crate::symmetry::Symmetry>,
}

impl<'a> InverseProbe<'a> {
    /// The probe for a search of `puzzle` with these ignore masks, move limits
    /// (`limit_mask[m]`: the limits move `m` counts against) and move costs, over tables
    /// listed as their components with strides; `None` when the inverse position's
    /// distance may differ from the position's under the scramble's rules, or when no
    /// table would see anything new there.
    pub fn new(
        puzzle: &'a Puzzle,
        ignore: &[IgnoreMask],
        limit_mask: &[u64],
        cost: &[u32],
        prune: Vec<Vec<(&'a Component, u64)>>,
        reduced: Option<(Vec<&'a Component>, super::reduced::SymLookup<'a>)>,
    ) -> Option<InverseProbe<'a>> {
        let distinct = puzzle.solved.sets.iter().all(|s| {
            let mut seen = vec![false; s.perm.len()];
            s.perm.iter().all(|&l| {
                (l as usize) < seen.len() && !std::mem::replace(&mut seen[l as usize], true)
            })
        });
        let ignores = puzzle.ignore.iter().chain(ignore).any(|m| m.any());
        // Blocks and forbidden pairs restrict sequences in an order-dependent way;
        // reversing a solution need not keep them.
        if !distinct || ignores || !puzzle.blocks.is_empty() || puzzle.forbidden.iter().any(|&f| f)
        {
            return None;
        }
        for (m, mv) in puzzle.moves.iter().enumerate() {
            let inv = mv.effect.inverse(&puzzle.sets);
            let ok = puzzle.moves.iter().enumerate().any(|(j, w)| {
                w.effect == inv && cost[j] == cost[m] && limit_mask.get(j) == limit_mask.get(m)
            });
            if !ok {
                return None;
            }
        }
        // A table that follows every piece it sees one by one gives the same bound at the
        // inverse (its abstraction is a group of its own): only the others are probed.
        let tables: Vec<(usize, Vec<(&Component, u64)>)> = prune
            .into_iter()
            .enumerate()
            .filter(|(_, comps)| {
                comps.iter().any(|(c, _)| match &c.spec.kind {
                    CompKind::Perm { relabel } | CompKind::Pieces { relabel, .. } => {
                        let solved = &puzzle.solved.sets[c.spec.set].perm;
                        let mut classes: Vec<u16> =
                            solved.iter().map(|&l| relabel[l as usize]).collect();
                        classes.sort_unstable();
                        classes.windows(2).any(|w| w[0] == w[1])
                    }
                    CompKind::Ori { .. } | CompKind::Pos => false,
                })
            })
            .collect();
        if tables.is_empty() && reduced.is_none() {
            return None;
        }
        Some(InverseProbe {
            sets: &puzzle.sets,
            solved: &puzzle.solved,
            home: homes(&puzzle.solved),
            solved_twist: twists(puzzle),
            premoves: premoves(puzzle),
            tables,
            reduced,
            conj: Vec::new(),
        })
    }

    /// The reduced table's bound at the inverse position `inv`, with `row` (one value
    /// per component of the table) and `scratch` for ranking.
    #[inline]
    pub fn reduced_bound(&self, inv: &State, row: &mut [u32], scratch: &mut [u16]) -> u32 {
        let Some((comps, lookup)) = &self.reduced else {
            return 0;
        };
        for (v, c) in row.iter_mut().zip(comps) {
            *v = c.rank_state(inv, scratch);
        }
        lookup.get(row)
    }

    /// The reduced table's bound at conjugate `p` of the inverse position `inv`
    /// ([`Self::conj`]), with `out` to conjugate into.
    #[inline]
    pub fn reduced_probe_bound(
        &self,
        p: usize,
        inv: &State,
        out: &mut State,
        row: &mut [u32],
        scratch: &mut [u16],
    ) -> u32 {
        self.conj[p].conjugate_into(inv, out);
        self.reduced_bound(out, row, scratch)
    }

    /// Writes into `out` the inverse of the child by move `m` of the position whose
    /// inverse is `y`: `(X m)⁻¹ = m⁻¹ X⁻¹`, a move made before rather than after, which
    /// on whole positions relabels the pieces. One pass per child instead of making the
    /// child and inverting it.
    #[inline]
    pub fn premove_into(&self, m: usize, y: &State, out: &mut State) {
        for (k, (set, table)) in self.sets.iter().zip(&self.premoves[m]).enumerate() {
            let n = set.orientations.max(1) as u32;
            let (ys, o) = (&y.sets[k], &mut out.sets[k]);
            for ((p, t), (&l, &yo)) in o
                .perm
                .iter_mut()
                .zip(&mut o.ori)
                .zip(ys.perm.iter().zip(&ys.ori))
            {
                let (l2, add) = table[l as usize];
                *p = l2;
                let v = yo as u32 + add as u32;
                *t = (if v >= n { v - n } else { v }) as u8;
            }
        }
    }

    /// Writes the inverse of position `x` into `out` (same shape).
    pub fn invert_into(&self, x: &State, out: &mut State) {
        for (k, set) in self.sets.iter().enumerate() {
            let n = set.orientations.max(1) as u32;
            let (xs, z, o) = (&x.sets[k], &self.solved.sets[k], &mut out.sets[k]);
            let (home, zo) = (&self.home[k], &self.solved_twist[k]);
            for i in 0..set.size {
                let j = home[xs.perm[i] as usize] as usize;
                o.perm[j] = z.perm[i];
                // (z_i + z_j - x_i) mod n without dividing: each term is below n.
                let t = xs.ori[i] as u32;
                let t = if t < n { t } else { t % n };
                let v = zo[i] as u32 + zo[j] as u32 + n - t;
                let v = if v >= n { v - n } else { v };
                o.ori[j] = (if v >= n { v - n } else { v }) as u8;
            }
        }
    }
}

/// Per move of `puzzle` (whose solved labels are distinct), set and label `L`: the
/// label and the twist to add that make a position's inverse `Y = Z g⁻¹` into its
/// child's, `Z m⁻¹ g⁻¹` ([`InverseProbe::premove_into`]). With `h` the solved position of
/// `L` and `Zm = Z m⁻¹`: `(Zm.perm[h], Zm.ori[h] - Z.ori[h])`, since `Y` reads `g⁻¹` as
/// `h` at each position.
fn premoves(puzzle: &Puzzle) -> Vec<Vec<Vec<(u16, u8)>>> {
    let (sets, z) = (&puzzle.sets, &puzzle.solved);
    let home = homes(z);
    puzzle
        .moves
        .iter()
        .map(|mv| {
            let zm = z.then(&mv.effect.inverse(sets), sets);
            (0..sets.len())
                .map(|k| {
                    let n = sets[k].orientations.max(1) as u32;
                    home[k]
                        .iter()
                        .map(|&h| {
                            let h = h as usize;
                            let (a, b) =
                                (zm.sets[k].ori[h] as u32 % n, z.sets[k].ori[h] as u32 % n);
                            (zm.sets[k].perm[h], ((a + n - b) % n) as u8)
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// Per set of `puzzle`'s solved state: its twists, reduced below the set's orientations.
fn twists(puzzle: &Puzzle) -> Vec<Vec<u8>> {
    let sets = puzzle.solved.sets.iter().zip(&puzzle.sets);
    sets.map(|(s, d)| s.ori.iter().map(|&o| o % d.orientations.max(1)).collect())
        .collect()
}

/// Per set of `solved`: the position of each label there (labels distinct).
fn homes(solved: &State) -> Vec<Vec<u16>> {
    solved
        .sets
        .iter()
        .map(|s| {
            let mut h = vec![0u16; s.perm.len()];
            for (pos, &l) in s.perm.iter().enumerate() {
                h[l as usize] = pos as u16;
            }
            h
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::MoveId;
    use crate::table::testing::cube2;

    /// `invert(Z g) == Z g⁻¹`, also when the solved state is not the identity.
    #[test]
    fn the_inverse_position_is_solved_then_the_inverse_sequence() {
        let mut p = cube2();
        for twisted in [false, true] {
            if twisted {
                p.solved.sets[0].perm = vec![2, 0, 1, 3, 4, 6, 5];
                p.solved.sets[0].ori = vec![1, 0, 2, 0, 1, 0, 0];
            }
            let probe = InverseProbe::new(&p, &[], &[], &vec![1; p.moves.len()], Vec::new(), None);
            assert!(probe.is_none(), "no table to probe");
            let probe = InverseProbe {
                sets: &p.sets,
                solved: &p.solved,
                home: {
                    let mut h = vec![0u16; 7];
                    for (pos, &l) in p.solved.sets[0].perm.iter().enumerate() {
                        h[l as usize] = pos as u16;
                    }
                    vec![h]
                },
                solved_twist: twists(&p),
                premoves: premoves(&p),
                tables: Vec::new(),
                reduced: None,
                conj: Vec::new(),
            };
            let mut out = p.solved.clone();
            for len in 0..12usize {
                let seq: Vec<MoveId> = (0..len)
                    .map(|i| MoveId(((i * 7 + len * 3) % p.moves.len()) as u16))
                    .collect();
                let x = p.apply_sequence(&p.solved, &seq);
                let inverse: Vec<MoveId> = seq
                    .iter()
                    .rev()
                    .map(|&m| {
                        let inv = p.mv(m).effect.inverse(&p.sets);
                        MoveId(p.moves.iter().position(|w| w.effect == inv).unwrap() as u16)
                    })
                    .collect();
                probe.invert_into(&x, &mut out);
                assert_eq!(out, p.apply_sequence(&p.solved, &inverse), "{seq:?}");
                // The search keeps the inverse along the path by premoves instead.
                let (mut y, mut next) = (p.solved.clone(), p.solved.clone());
                probe.invert_into(&p.solved, &mut y);
                for &m in &seq {
                    probe.premove_into(m.0 as usize, &y, &mut next);
                    std::mem::swap(&mut y, &mut next);
                }
                assert_eq!(y, out, "premoves along {seq:?}");
            }
        }
    }

    /// The conjugate of the inverse is the inverse of the conjugate, `S X⁻¹ S⁻¹ =
    /// (S X S⁻¹)⁻¹`, for every symmetry of the 3x3x3: the reduced table's lookups at
    /// conjugates of the inverse read a position exactly as far from solved as the
    /// node's inverse.
    #[test]
    fn conjugating_the_inverse_inverts_the_conjugate() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let p = crate::def::load_puzzle(root.join("puzzles").join("3x3x3.def"))
            .unwrap()
            .0;
        let g = crate::symmetry::SymmetryGroup::find(&p).unwrap();
        assert_eq!(g.order(), 48);
        let probe = InverseProbe {
            sets: &p.sets,
            solved: &p.solved,
            home: homes(&p.solved),
            solved_twist: twists(&p),
            premoves: premoves(&p),
            tables: Vec::new(),
            reduced: None,
            conj: Vec::new(),
        };
        let (mut inv, mut a, mut b) = (p.solved.clone(), p.solved.clone(), p.solved.clone());
        for len in [1usize, 6, 13] {
            let seq: Vec<MoveId> = (0..len)
                .map(|i| MoveId(((i * 5 + len * 7) % p.moves.len()) as u16))
                .collect();
            let x = p.apply_sequence(&p.solved, &seq);
            for s in g.elements() {
                probe.invert_into(&x, &mut inv);
                s.conjugate_into(&inv, &mut a);
                probe.invert_into(&s.conjugate(&x), &mut b);
                assert_eq!(a, b, "{seq:?}");
            }
        }
    }
}
