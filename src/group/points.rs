//! The points the group acts on: one per (set, position, orientation) triple, so that a
//! move, which carries pieces between positions and twists them, becomes a plain
//! permutation of points. Also the colourings of points by which a state is compared
//! with the solved state when pieces may be interchangeable.

use crate::puzzle::{SetDef, State, Transform};

/// A permutation of points: `p[x]` is the image of point `x`. Products read left to
/// right: `a` then `b` sends `x` to `b[a[x]]`.
pub(crate) type Perm = Vec<u16>;

/// The identity permutation of `n` points.
pub(crate) fn identity(n: usize) -> Perm {
    (0..n as u16).collect()
}

/// Whether `p` fixes every point.
pub(crate) fn is_identity(p: &[u16]) -> bool {
    p.iter().enumerate().all(|(i, &x)| x as usize == i)
}

/// `a` then `b`.
pub(crate) fn compose(a: &[u16], b: &[u16]) -> Perm {
    a.iter().map(|&x| b[x as usize]).collect()
}

/// The inverse permutation.
pub(crate) fn inverse(a: &[u16]) -> Perm {
    let mut out = vec![0u16; a.len()];
    for (i, &x) in a.iter().enumerate() {
        out[x as usize] = i as u16;
    }
    out
}

/// How points are numbered: set `k`'s block starts at `offset[k]`, and within it the
/// point of position `i` and orientation `o` is `i * n + o`. Colours (what a point
/// shows: set, piece label and which of the piece's facets) are numbered the same way
/// with labels in place of positions.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub offset: Vec<usize>,
    pub n: Vec<usize>,
    pub size: Vec<usize>,
    pub total: usize,
    color_offset: Vec<usize>,
    /// Per set, one more than the largest label a valid state may use there.
    pub label_bound: Vec<usize>,
}

impl Layout {
    /// The layout for these sets; `solved` fixes which labels exist. `None` when the
    /// points would not fit the 16-bit point numbers.
    pub fn new(sets: &[SetDef], solved: &State) -> Option<Layout> {
        let mut offset = Vec::with_capacity(sets.len());
        let mut color_offset = Vec::with_capacity(sets.len());
        let mut label_bound = Vec::with_capacity(sets.len());
        let (mut total, mut colors) = (0usize, 0usize);
        for (k, set) in sets.iter().enumerate() {
            let n = set.orientations.max(1) as usize;
            offset.push(total);
            total += set.size * n;
            let max_label = solved.sets[k].perm.iter().copied().max().unwrap_or(0) as usize;
            let bound = set.size.max(max_label + 1);
            color_offset.push(colors);
            label_bound.push(bound);
            colors += bound * n;
        }
        if total > u16::MAX as usize || colors > u32::MAX as usize {
            return None;
        }
        Some(Layout {
            offset,
            n: sets
                .iter()
                .map(|s| s.orientations.max(1) as usize)
                .collect(),
            size: sets.iter().map(|s| s.size).collect(),
            total,
            color_offset,
            label_bound,
        })
    }

    /// The point of set `k`, position `pos`, orientation `o`.
    #[inline]
    pub fn point(&self, k: usize, pos: usize, o: usize) -> usize {
        self.offset[k] + pos * self.n[k] + o
    }

    /// The set, position and orientation of a point.
    pub fn locate(&self, p: usize) -> (usize, usize, usize) {
        let k = self.offset.partition_point(|&o| o <= p) - 1;
        let r = p - self.offset[k];
        (k, r / self.n[k], r % self.n[k])
    }

    /// The point permutation of a transformation with distinct labels 0..size (a move,
    /// or a state read as the transformation that makes it from the identity): the piece
    /// at source position `p = t.perm[i]` goes to `i` and gains twist `t.ori[i]`, so
    /// point `(p, o)` goes to `(i, o + t.ori[i])`.
    pub fn perm_of(&self, t: &Transform) -> Perm {
        let mut out = vec![0u16; self.total];
        for (k, s) in t.sets.iter().enumerate() {
            let n = self.n[k];
            for (i, (&p, &tw)) in s.perm.iter().zip(&s.ori).enumerate() {
                for o in 0..n {
                    out[self.point(k, p as usize, o)] =
                        self.point(k, i, (o + tw as usize) % n) as u16;
                }
            }
        }
        out
    }

    /// The transformation whose point permutation is `p` (the inverse of
    /// [`Layout::perm_of`]); `p` must come from the group, which respects the blocks.
    pub fn transform_of(&self, p: &[u16]) -> Transform {
        let sets = (0..self.size.len())
            .map(|k| {
                let n = self.n[k];
                let mut perm = vec![0u16; self.size[k]];
                let mut ori = vec![0u8; self.size[k]];
                for src in 0..self.size[k] {
                    let (_, i, tw) = self.locate(p[self.point(k, src, 0)] as usize);
                    perm[i] = src as u16;
                    ori[i] = (tw % n) as u8;
                }
                crate::puzzle::SetState { perm, ori }
            })
            .collect();
        Transform { sets }
    }

    /// The colour of every point in state `s`: point `(i, q)` shows facet `q - ori[i]`
    /// of the piece labelled `perm[i]`. A move carries colours along with points, so a
    /// state `t` is `s` followed by `g` exactly when `colour_t(g(x)) = colour_s(x)` for
    /// every point `x`. The state must be valid (labels below the bound, orientations
    /// below the set's count).
    pub fn coloring(&self, s: &State, out: &mut [u32]) {
        for (k, set) in s.sets.iter().enumerate() {
            let n = self.n[k];
            for (i, (&l, &o)) in set.perm.iter().zip(&set.ori).enumerate() {
                for q in 0..n {
                    let facet = (q + n - o as usize % n) % n;
                    out[self.point(k, i, q)] =
                        (self.color_offset[k] + l as usize * n + facet) as u32;
                }
            }
        }
    }

    /// The number of distinct colours.
    pub fn colors(&self) -> usize {
        self.color_offset.last().copied().unwrap_or(0)
            + self.label_bound.last().copied().unwrap_or(0) * self.n.last().copied().unwrap_or(0)
    }
}
