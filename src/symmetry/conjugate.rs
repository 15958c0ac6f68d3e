//! Conjugating positions by a symmetry, and the check that a symmetry keeps the solved
//! state (up to interchangeable labels), which is the same computation.
//!
//! A position `X` is the solved state followed by a point permutation `g`; conjugating it
//! by `S` gives the solved state followed by `S ∘ g ∘ S⁻¹`. In colours (what each point
//! shows, see `group::points`), `colour_Y(y) = τ(colour_X(S⁻¹ y))`, where `τ` is the
//! recolouring with `colour_solved ∘ S = τ ∘ colour_solved`. `τ` exists exactly when `S`
//! carries every class of points showing one colour in the solved state onto such a
//! class, which is what "maps the solved state to itself up to interchangeable labels"
//! means; then conjugation is well defined on positions whatever `g` was chosen. Because
//! `S` moves whole positions with an orientation offset, `τ` sends facet `f` of label
//! `L` to facet `ε·f + d_L` of label `π(L)`, so it is stored per label, and conjugating
//! a position is one table read per position.

use crate::group::points::{Layout, Perm};
use crate::puzzle::{State, Transform};

/// What conjugating positions by one symmetry needs, per set and position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ConjugationTables {
    /// Per set `k'` of the result: the set `k` of the original that it reads.
    src_set: Vec<usize>,
    /// Per set `k'` and position `j`: the position `i` of `k` and the orientation `q0`
    /// with `S(k, i, q0) = (k', j, 0)`.
    src: Vec<Vec<(u16, u8)>>,
    /// Per set `k` and label `L` of the original: the image label `π(L)` and the facet
    /// offset `d_L`; `(u16::MAX, 0)` for labels the solved state does not use.
    labels: Vec<Vec<(u16, u8)>>,
    n: Vec<u8>,
    /// Per set `k'`, position `j` and twist `o` (below `n`) of the piece read there: the
    /// twist of the result (a mirror's reversal included) before its label's offset, at
    /// `j * n + o`. Made once, so that conjugating (per child of a search, at its
    /// inverse) divides nothing.
    twist: Vec<Vec<u8>>,
}

impl ConjugationTables {
    /// The tables for point permutation `s`, or `None` when `s` does not carry the
    /// solved state's colour classes onto colour classes (a label would have to go to
    /// two labels, or two labels to one).
    pub fn new(layout: &Layout, solved: &State, s: &[u16]) -> Option<ConjugationTables> {
        let sets = layout.size.len();
        let mut src_set = vec![0; sets];
        let mut src: Vec<Vec<(u16, u8)>> = layout.size.iter().map(|&z| vec![(0, 0); z]).collect();
        let mut labels: Vec<Vec<(u16, u8)>> = layout
            .label_bound
            .iter()
            .map(|&b| vec![(u16::MAX, 0); b])
            .collect();
        let mut reverse = vec![false; sets];
        for k in 0..sets {
            let n = layout.n[k];
            let mut taken = vec![false; layout.label_bound.iter().copied().max().unwrap_or(0)];
            for a in 0..layout.size[k] {
                let (k2, pa, t) = layout.locate(s[layout.point(k, a, 0)] as usize);
                src_set[k2] = k;
                let rev = n >= 3 && {
                    let (_, _, t1) = layout.locate(s[layout.point(k, a, 1)] as usize);
                    t1 == (t + n - 1) % n
                };
                if a == 0 {
                    reverse[k] = rev;
                }
                let q0 = if rev { t } else { (n - t) % n };
                src[k2][pa] = (a as u16, q0 as u8);
                let (l, so) = (solved.sets[k].perm[a], solved.sets[k].ori[a] as usize % n);
                let (l2, so2) = (
                    solved.sets[k2].perm[pa],
                    solved.sets[k2].ori[pa] as usize % n,
                );
                let signed = if rev { n - so } else { so };
                let d = ((signed + t + n - so2) % n) as u8;
                let entry = &mut labels[k][l as usize];
                if *entry == (u16::MAX, 0) {
                    if std::mem::replace(&mut taken[l2 as usize], true) {
                        return None;
                    }
                    *entry = (l2, d);
                } else if *entry != (l2, d) {
                    return None;
                }
            }
        }
        let n: Vec<u8> = layout.n.iter().map(|&n| n as u8).collect();
        let twist = src
            .iter()
            .enumerate()
            .map(|(k2, row)| {
                let k = src_set[k2];
                let (n, rev) = (n[k] as u32, reverse[k]);
                row.iter()
                    .flat_map(|&(_, q0)| {
                        (0..n).map(move |o| {
                            let f = (q0 as u32 + n - o) % n;
                            let f = if rev { (n - f) % n } else { f };
                            ((n - f) % n) as u8
                        })
                    })
                    .collect()
            })
            .collect();
        Some(ConjugationTables {
            src_set,
            src,
            labels,
            n,
            twist,
        })
    }

    /// The set and position of `x` that position `pos` of set `set` of the conjugate
    /// reads.
    pub fn source(&self, set: usize, pos: usize) -> (usize, usize) {
        (self.src_set[set], self.src[set][pos].0 as usize)
    }

    /// The label that label `label` of set `set` of the original becomes in the
    /// conjugate (`None` for labels the solved state does not use).
    pub fn label_image(&self, set: usize, label: u16) -> Option<u16> {
        match self.labels.get(set)?.get(label as usize)? {
            (u16::MAX, _) => None,
            &(l, _) => Some(l),
        }
    }

    /// The facet offset `d_L` that label `label` of set `set` gets in the conjugate
    /// (`None` for labels the solved state does not use). A twist read through the
    /// symmetry depends on it, so an orientation coordinate conjugates as a function of
    /// itself only when the offset is the same for every label it may see.
    pub fn label_offset(&self, set: usize, label: u16) -> Option<u8> {
        match self.labels.get(set)?.get(label as usize)? {
            (u16::MAX, _) => None,
            &(_, d) => Some(d),
        }
    }

    /// Writes the conjugate of `x` into `out` (same shape). Allocates nothing.
    pub fn conjugate_into(&self, x: &State, out: &mut State) {
        for (k2, (row, o)) in self.src.iter().zip(&mut out.sets).enumerate() {
            let k = self.src_set[k2];
            let n = self.n[k];
            let (xs, labels, twist) = (&x.sets[k], &self.labels[k], &self.twist[k2]);
            for (j, &(i, _)) in row.iter().enumerate() {
                let l = xs.perm[i as usize];
                // A label the solved state does not use has no image; it stays as it
                // is rather than failing, since such a state is not a position anyway.
                let (l2, d) = labels.get(l as usize).copied().unwrap_or((u16::MAX, 0));
                let t = xs.ori[i as usize];
                let t = if t < n { t } else { t % n };
                // (-(f + d)) mod n, with the table's (-f) mod n and d below n.
                let g = twist[j * n as usize + t as usize];
                o.perm[j] = if l2 == u16::MAX { l } else { l2 };
                o.ori[j] = if g >= d { g - d } else { g + (n - d) };
            }
        }
    }
}

/// `S ∘ t ∘ S⁻¹` for a transformation with distinct labels (a move, or a state read as
/// the transformation that makes it), computed on points.
pub(super) fn conjugate_transform(
    layout: &Layout,
    s: &[u16],
    inv: &[u16],
    t: &Transform,
) -> Transform {
    let p = layout.perm_of(t);
    let c: Perm = (0..p.len())
        .map(|x| s[p[inv[x] as usize] as usize])
        .collect();
    layout.transform_of(&c)
}
