//! Turning a point permutation into a [`Symmetry`]: its action on the move list and the
//! final checks that the search leaves to the end (solved state up to interchangeable
//! labels, blocks, what each move touches, forbidden pairs, costs).

use super::conjugate::ConjugationTables;
use super::Symmetry;
use crate::group::points::{inverse, Layout, Perm};
use crate::puzzle::{MoveId, Puzzle};
use std::collections::HashMap;

/// What every candidate is checked against, computed once per puzzle.
pub(super) struct Context<'a> {
    pub puzzle: &'a Puzzle,
    pub layout: Layout,
    /// Point permutation of every move, by index in `Puzzle::moves`.
    pub move_perms: Vec<Perm>,
    /// The moves with a given point permutation, in move order (a definition may give
    /// the same effect twice).
    by_perm: HashMap<Perm, Vec<usize>>,
    /// Per block, its positions in the solved state as sorted (set, position) pairs.
    blocks: Vec<Vec<(usize, usize)>>,
    /// The first set with three or more orientations, whose reversal marks a mirror.
    pub chiral_set: Option<usize>,
}

impl<'a> Context<'a> {
    pub fn new(puzzle: &'a Puzzle, layout: Layout) -> Context<'a> {
        let move_perms: Vec<Perm> = puzzle
            .moves
            .iter()
            .map(|m| layout.perm_of(&m.effect))
            .collect();
        let mut by_perm: HashMap<Perm, Vec<usize>> = HashMap::new();
        for (m, p) in move_perms.iter().enumerate() {
            by_perm.entry(p.clone()).or_default().push(m);
        }
        let blocks = puzzle
            .blocks
            .iter()
            .map(|b| {
                let mut v: Vec<(usize, usize)> = Vec::new();
                for &(k, label) in &b.pieces {
                    let perm = &puzzle.solved.sets[k].perm;
                    v.extend(
                        (0..perm.len())
                            .filter(|&i| perm[i] == label)
                            .map(|i| (k, i)),
                    );
                }
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect();
        let chiral_set = (0..layout.n.len()).find(|&k| layout.n[k] >= 3 && layout.size[k] > 0);
        Context {
            puzzle,
            layout,
            move_perms,
            by_perm,
            blocks,
            chiral_set,
        }
    }

    /// The symmetry with point permutation `s`, or `None` when `s` fails a check.
    pub fn build(&self, s: &[u16]) -> Option<Symmetry> {
        let (p, l) = (self.puzzle, &self.layout);
        let inv = inverse(s);
        // The image of every base move, by conjugation; a base move B with image M
        // sends its power B^j to M^j, so the powers need no lookup. Among base moves
        // with the same effect (a definition may repeat one), the r-th goes to the r-th
        // qualifying move with the image effect, so they map one to one.
        let mut moves = vec![MoveId(0); p.moves.len()];
        let mut rank: HashMap<&[u16], usize> = HashMap::new();
        for base in &p.base_moves {
            let q = &self.move_perms[base.powers[0].index()];
            let c: Perm = (0..q.len())
                .map(|x| s[q[inv[x] as usize] as usize])
                .collect();
            let r = rank.entry(q.as_slice()).or_insert(0);
            let image = self
                .by_perm
                .get(&c)?
                .iter()
                .copied()
                .filter(|&m| p.moves[m].qtm == 1)
                .nth(*r)?;
            *r += 1;
            let (mv, target) = (&p.moves[image], &p.base_moves[p.moves[image].base]);
            if target.directed != base.directed || target.order != base.order {
                return None;
            }
            for (j, &id) in base.powers.iter().enumerate() {
                // Powers run 1..order (a move of order 1, the identity, is its own
                // power 1); j + 1 < order, so M^(j+1) is never the identity otherwise.
                let power = (mv.power as u64 * (j as u64 + 1) % target.order as u64) as usize;
                let power = if target.order == 1 { 1 } else { power };
                let to = *target.powers.get(power.checked_sub(1)?)?;
                // A symmetry keeps every cost: the quarter turns and the weight.
                let (a, b) = (&p.moves[id.index()], p.mv(to));
                if a.qtm != b.qtm || a.weight != b.weight {
                    return None;
                }
                moves[id.index()] = to;
            }
        }
        let n = moves.len();
        let mut hit = vec![false; n];
        if moves
            .iter()
            .any(|m| std::mem::replace(&mut hit[m.index()], true))
        {
            return None;
        }
        for a in 0..n {
            for b in 0..n {
                let (x, y) = (moves[a].index(), moves[b].index());
                if p.forbidden[a * n + b] != p.forbidden[x * n + y] {
                    return None;
                }
            }
        }
        let pos = |k: usize, i: usize| {
            let (k2, i2, _) = l.locate(s[l.point(k, i, 0)] as usize);
            (k2, i2)
        };
        // What a move touches decides Block legality, so it must be carried along.
        for base in &p.base_moves {
            let image = &p.base_moves[p.moves[moves[base.powers[0].index()].index()].base];
            for (k, row) in base.touched.iter().enumerate() {
                for (i, &t) in row.iter().enumerate() {
                    let (k2, i2) = pos(k, i);
                    if image.touched[k2][i2] != t {
                        return None;
                    }
                }
            }
        }
        for block in &self.blocks {
            let mut image: Vec<(usize, usize)> = block.iter().map(|&(k, i)| pos(k, i)).collect();
            image.sort_unstable();
            if !self.blocks.contains(&image) {
                return None;
            }
        }
        let tables = ConjugationTables::new(l, &p.solved, s)?;
        // Without a set whose orientations can be reversed, the group decides which
        // elements are mirrors (`super::classify_mirrors`).
        let mirror = self.chiral_set.is_some_and(|k| {
            let (_, _, t0) = l.locate(s[l.point(k, 0, 0)] as usize);
            let (_, _, t1) = l.locate(s[l.point(k, 0, 1)] as usize);
            t1 != (t0 + 1) % l.n[k]
        });
        Some(Symmetry {
            points: s.to_vec(),
            inverse: inv,
            moves,
            mirror,
            tables,
        })
    }
}
