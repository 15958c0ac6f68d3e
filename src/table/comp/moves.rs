//! Filling a component's move table (`Component::build_table`): each value decoded once
//! and encoded once per move that is no power of another, or, where the value is told by
//! where a few distinct pieces stand, the quick path over their positions
//! ([`KPerm`]) that never re-encodes a whole arrangement.

use super::{Coder, Component};
use crate::coord::KPerm;
use crate::puzzle::{Puzzle, SetState};
use rayon::prelude::*;

impl Component {
    /// Fills the move table: for every value and move, the value after the move. Runs
    /// on all cores; each value is decoded once and re-encoded once per move that is no
    /// power of another (a power is read off its power-1 move's column, which holds a
    /// third of the table on the 3x3x3 while the rest is filled).
    pub fn build_table(&mut self, puzzle: &Puzzle) {
        let nm = puzzle.moves.len();
        let set = self.spec.set;
        if let Coder::Pos = self.coder {
            // A piece at position j goes to the position i with move.perm[i] == j.
            let mut table = vec![0u32; self.len * nm];
            for (m, mv) in puzzle.moves.iter().enumerate() {
                for (i, &j) in mv.effect.sets[set].perm.iter().enumerate() {
                    table[j as usize * nm + m] = i as u32;
                }
            }
            self.table = table;
            return;
        }
        // A move that is a power of another move of the table is read off that move's
        // column instead of decoded, moved and encoded again: on the 3x3x3 two moves of
        // three are, and encoding is most of a value's cost.
        let unit: Vec<Option<usize>> = puzzle
            .moves
            .iter()
            .map(|mv| {
                (mv.power > 1)
                    .then(|| {
                        puzzle
                            .moves
                            .iter()
                            .position(|o| o.base == mv.base && o.power == 1)
                    })
                    .flatten()
            })
            .collect();
        let direct: Vec<usize> = (0..nm).filter(|&m| unit[m].is_none()).collect();
        let nd = direct.len();
        // The column of each directly computed move, by its place in `direct`.
        let column: Vec<usize> = {
            let mut c = vec![usize::MAX; nm];
            for (k, &m) in direct.iter().enumerate() {
                c[m] = k;
            }
            c
        };
        let first = self
            .tracked_columns(puzzle, &direct)
            .unwrap_or_else(|| self.decoded_columns(puzzle, &direct));
        if nd == nm {
            self.table = first;
            return;
        }
        let mut table = vec![0u32; self.count as usize * nm];
        table
            .par_chunks_mut(nm * 1024)
            .enumerate()
            .for_each(|(chunk, out)| {
                for (k, row) in out.chunks_mut(nm).enumerate() {
                    let v = chunk * 1024 + k;
                    for (m, slot) in row.iter_mut().enumerate() {
                        *slot = match unit[m] {
                            None => first[v * nd + column[m]],
                            // The power-1 move, `power` times.
                            Some(u) => {
                                let c = column[u];
                                let mut x = v as u32;
                                for _ in 0..puzzle.moves[m].power {
                                    x = first[x as usize * nd + c];
                                }
                                x
                            }
                        };
                    }
                }
            });
        self.table = table;
    }

    /// The columns of the moves `direct`, value by value: each value decoded once, then
    /// moved and encoded once per move.
    fn decoded_columns(&self, puzzle: &Puzzle, direct: &[usize]) -> Vec<u32> {
        let (set, len, nd) = (self.spec.set, self.len, direct.len());
        let n = puzzle.sets[set].orientations.max(1);
        let mut first = vec![0u32; self.count as usize * nd];
        first
            .par_chunks_mut(nd * 1024)
            .enumerate()
            .for_each(|(chunk, out)| {
                let mut cur = SetState::identity(len);
                let mut next = SetState::identity(len);
                for (k, row) in out.chunks_mut(nd).enumerate() {
                    let v = (chunk * 1024 + k) as u32;
                    self.decode(v, &mut cur);
                    for (slot, &m) in row.iter_mut().zip(direct) {
                        let e = &puzzle.moves[m].effect.sets[set];
                        for i in 0..len {
                            let from = e.perm[i] as usize;
                            next.perm[i] = cur.perm[from];
                            next.ori[i] = (cur.ori[from] + e.ori[i]) % n;
                        }
                        *slot = self.encode(&next);
                    }
                }
            });
        first
    }

    /// [`Component::decoded_columns`] for an arrangement told by where a few distinct
    /// pieces stand (the others all alike: Rotate's five letters of sixteen, the
    /// 3x3x3's edges in groups, the Megaminx's pieces three at a time with their
    /// twists): a move sends each of those pieces to its new position (adding its
    /// twist), and the k-permutation of the new positions ([`KPerm`]) is translated to
    /// the component's rank by a table filled once. Encoding the whole arrangement once
    /// per move was most of the build (Rotate's three goal move tables: 11 M entries
    /// each). `None` where this does not apply.
    fn tracked_columns(&self, puzzle: &Puzzle, direct: &[usize]) -> Option<Vec<u32>> {
        // For pieces with twists: how many pieces carry one (labels below it), the
        // number of orientations, and the number of twist vectors.
        let (coord, twists) = match &self.coder {
            Coder::Perm { coord, .. } => (coord.whole()?, None),
            Coder::Pieces {
                coord,
                tracked,
                n,
                oris,
                ..
            } => (coord.whole()?, Some((*tracked as usize, *n, *oris))),
            Coder::Ori { .. } | Coder::Pos => return None,
        };
        let singles = coord.singles()?;
        let (set, len, nd) = (self.spec.set, self.len, direct.len());
        let arrangements = coord.count();
        let kp = KPerm::new(len, singles.len()).filter(|k| k.count() == arrangements)?;
        let k = singles.len();
        // The twisted pieces are the first singles (labels 0..t).
        let t = match twists {
            Some((t, _, _)) if t > k || (0..t).any(|i| singles[i] as usize != i) => return None,
            Some((t, _, _)) => t,
            None => 0,
        };
        let (n, oris) = twists.map_or((1, 1), |(_, n, o)| (n.max(1), o));
        // Per k-permutation, the component's rank of the arrangement it makes (ranking
        // is cheaper than unranking, which divides in 128 bits); then its inverse.
        // Without a repeated label every position holds one of the singles.
        let wild = coord.repeated().unwrap_or(0);
        let mut rank_of = vec![0u32; arrangements as usize];
        rank_of
            .par_chunks_mut(1024)
            .enumerate()
            .for_each(|(chunk, out)| {
                let mut arr = vec![wild; len];
                let mut pos = vec![0u8; k];
                for (i, r) in out.iter_mut().enumerate() {
                    kp.unrank((chunk * 1024 + i) as u64, &mut pos);
                    arr.fill(wild);
                    for (&p, &l) in pos.iter().zip(&singles) {
                        arr[p as usize] = l;
                    }
                    *r = coord.rank(&arr) as u32;
                }
            });
        let mut index_of = vec![0u32; arrangements as usize];
        for (x, &v) in rank_of.iter().enumerate() {
            index_of[v as usize] = x as u32;
        }
        // A piece at position j goes to the position i with move.perm[i] == j, and
        // gains the twist move.ori[i].
        let dest: Vec<(Vec<u8>, &[u8])> = direct
            .iter()
            .map(|&m| {
                let e = &puzzle.moves[m].effect.sets[set];
                let mut d = vec![0u8; len];
                for (i, &j) in e.perm.iter().enumerate() {
                    d[j as usize] = i as u8;
                }
                (d, &e.ori[..])
            })
            .collect();
        // The twist vector's digits follow the pieces in the order of their positions,
        // the first the most significant (see `encode`).
        let order = |pos: &[u8], out: &mut [usize]| {
            for (i, o) in out.iter_mut().enumerate() {
                *o = i;
            }
            out.sort_unstable_by_key(|&i| pos[i]);
        };
        let mut first = vec![0u32; self.count as usize * nd];
        first
            .par_chunks_mut(nd * 1024)
            .enumerate()
            .for_each(|(chunk, out)| {
                let (mut pos, mut moved) = (vec![0u8; k], vec![0u8; k]);
                let (mut twist, mut turned) = (vec![0u8; t], vec![0u8; t]);
                let mut by_place = vec![0usize; t];
                for (i, row) in out.chunks_mut(nd).enumerate() {
                    let v = (chunk * 1024 + i) as u64;
                    kp.unrank(index_of[(v / oris) as usize] as u64, &mut pos);
                    if t > 0 {
                        order(&pos[..t], &mut by_place);
                        let mut o = v % oris;
                        for &p in by_place.iter().rev() {
                            twist[p] = (o % n as u64) as u8;
                            o /= n as u64;
                        }
                    }
                    for (slot, (d, e)) in row.iter_mut().zip(&dest) {
                        for (to, &p) in moved.iter_mut().zip(&pos) {
                            *to = d[p as usize];
                        }
                        let rank = rank_of[kp.rank(&moved) as usize] as u64;
                        let mut o = 0u64;
                        if t > 0 {
                            for ((to, &w), &p) in turned.iter_mut().zip(&twist).zip(&moved) {
                                *to = (w + e[p as usize]) % n;
                            }
                            order(&moved[..t], &mut by_place);
                            o = by_place
                                .iter()
                                .fold(0u64, |acc, &p| acc * n as u64 + turned[p] as u64);
                        }
                        *slot = (rank * oris + o) as u32;
                    }
                }
            });
        Some(first)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CompKind, CompSpec};
    use super::*;
    use crate::table::relabel::{mask_relabel, split_relabel};
    use crate::table::testing::cube2;

    /// Asserts that `kind`'s quick columns exist and are its decoded ones.
    fn quick_is_decoded(p: &Puzzle, kind: CompKind) {
        let c = Component::new(p, CompSpec { set: 0, kind }).unwrap();
        let direct: Vec<usize> = (0..p.moves.len()).collect();
        let quick = c.tracked_columns(p, &direct).expect("tracked pieces");
        assert_eq!(quick, c.decoded_columns(p, &direct), "{:?}", c.spec);
    }

    /// The quick columns of a few tracked pieces ([`Component::tracked_columns`]) are
    /// the decoded ones, for parts of a set, a whole set and identical pieces.
    #[test]
    fn tracked_columns_are_the_decoded_ones() {
        let (p, _) = crate::def::parse_puzzle(
            "Name t\nSet S 9 1\nSolved\nS\n1 2 3 4 5 6 7 8 9\nEnd\n\
             Move A\nS\n2 3 1 4 5 6 7 8 9\nEnd\nMove B\nS\n1 2 5 3 4 6 7 8 9\nEnd\n\
             Move C\nS\n9 2 3 4 5 1 6 7 8\nEnd\n"
                .as_bytes(),
            "t.def",
        )
        .unwrap();
        let (relabel, wild) = mask_relabel(&p, 0, None);
        let mut tried = 0;
        for limit in [40, 600, 20_000, 1 << 20] {
            for (relabel, _) in split_relabel(&p, 0, &relabel, wild, 1, limit) {
                quick_is_decoded(&p, CompKind::Perm { relabel });
                tried += 1;
            }
        }
        assert!(tried >= 4, "{tried}");
        // Labels with gaps between them, the repeated one in the middle.
        quick_is_decoded(
            &p,
            CompKind::Perm {
                relabel: vec![0, 3, 3, 3, 3, 3, 3, 3, 7],
            },
        );
        // Two kinds of identical pieces: no quick columns.
        let kind = CompKind::Perm {
            relabel: vec![0, 0, 1, 1, 2, 3, 4, 5, 6],
        };
        let c = Component::new(&p, CompSpec { set: 0, kind }).unwrap();
        let direct: Vec<usize> = (0..p.moves.len()).collect();
        assert!(c.tracked_columns(&p, &direct).is_none());
        // Pieces with their twists, a few at a time and all at once.
        let p = cube2();
        let (relabel, wild) = mask_relabel(&p, 0, None);
        let mut tried = 0;
        for limit in [500, 20_000, 200_000] {
            for (relabel, tracked) in split_relabel(&p, 0, &relabel, wild, 3, limit) {
                quick_is_decoded(&p, CompKind::Pieces { relabel, tracked });
                tried += 1;
            }
        }
        assert!(tried >= 3, "{tried}");
    }
}
