//! One coordinate of the perfect index: what it ranks (an orbit's arrangement or its
//! orientations, or several small coordinates together), its ranks, and its move table.

use super::even;
use crate::coord::{OriCoord, PermCoord};
use crate::puzzle::State;
use rayon::prelude::*;

/// What one component ranks.
#[derive(Clone, Debug)]
pub(super) enum Kind {
    /// The arrangement of labels on an orbit. With `ride > 1`, each label is combined
    /// with its orientation (`label * ride + ori`) because no move twists the orbit.
    Perm {
        coord: PermCoord,
        ride: u8,
        sorted: Vec<u16>,
        /// All labels differ (and there are at most 20): ranks are Lehmer codes computed
        /// in 64-bit arithmetic, the same lexicographic ranks `PermCoord` gives.
        distinct: bool,
        /// `Some(p)`: the labels are distinct, every transform permutes the orbit evenly,
        /// and so only arrangements of parity `p` occur; they are ranked into `n!/2`.
        even: Option<u8>,
    },
    /// The orientations on an orbit; with the sum rule the last digit is implied and
    /// equals `offset` minus the others (mod n).
    Ori { coord: OriCoord, n: u8, offset: u8 },
    /// Several small components ranked together (mixed radix, outer part first), so
    /// that the innermost coordinate is large enough to make the blocks of the
    /// block-by-block expansion worth their bookkeeping.
    Product { parts: Vec<Component> },
    /// Several small components of which only some combinations occur: the values of
    /// their mixed-radix product (as in `Product`) that the transforms reach from the
    /// solved state, ascending; the rank of a combination is its place in this list.
    /// The list is closed under every transform, so the component stays exact.
    Reach {
        parts: Vec<Component>,
        tuples: Vec<u32>,
    },
}

/// One coordinate of the index, with the local effect of every transform on it and,
/// when affordable, its move table.
#[derive(Clone, Debug)]
pub(crate) struct Component {
    pub(super) set: usize,
    /// The positions (within the set) this component covers.
    pub(super) positions: Vec<usize>,
    pub(super) kind: Kind,
    pub(super) count: u64,
    /// Per transform: for each local position, the local position its content comes from.
    pub(super) src: Vec<Vec<u16>>,
    /// Per transform: the twist added at each local position (orientation components).
    pub(super) twist: Vec<Vec<u8>>,
    /// The number of transforms: the width of a row of `table`. Every component keeps
    /// its own, because a composite (`Product`, `Reach`) has no `src` rows to count and
    /// may itself be a part of a `Product`.
    pub(super) ntrans: usize,
    /// `table[r * ntrans + t]`: the rank after transform `t` from rank `r`.
    pub(super) table: Option<Vec<u32>>,
}

/// Scratch buffers for ranking without allocation.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    a: Vec<u16>,
    b: Vec<u16>,
    oa: Vec<u8>,
    ob: Vec<u8>,
}

impl Scratch {
    pub(super) fn sized(n: usize) -> Scratch {
        Scratch {
            a: vec![0; n],
            b: vec![0; n],
            oa: vec![0; n],
            ob: vec![0; n],
        }
    }
}

impl Component {
    /// How many values this coordinate takes.
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// Whether the move table was built.
    #[cfg(test)]
    pub(crate) fn has_table(&self) -> bool {
        self.table.is_some()
    }

    /// A composite component's value in the mixed radix of its parts.
    fn parts_value(parts: &[Component], s: &State, sc: &mut Scratch) -> u64 {
        parts
            .iter()
            .fold(0, |acc, c| acc * c.count + c.rank_state(s, sc))
    }

    pub(super) fn rank_state(&self, s: &State, sc: &mut Scratch) -> u64 {
        if let Kind::Reach { parts, tuples } = &self.kind {
            // A combination that does not occur ranks as 0; `admits` tells it apart.
            let v = Self::parts_value(parts, s, sc);
            return tuples.binary_search(&(v as u32)).unwrap_or(0) as u64;
        }
        let set = &s.sets[self.set];
        let k = self.positions.len();
        match &self.kind {
            Kind::Perm { ride, .. } => {
                for (slot, &p) in sc.a[..k].iter_mut().zip(&self.positions) {
                    *slot = set.perm[p] * *ride as u16 + (set.ori[p] % *ride) as u16;
                }
                self.rank_perm(&sc.a[..k])
            }
            Kind::Ori { coord, .. } => {
                for (slot, &p) in sc.oa[..k].iter_mut().zip(&self.positions) {
                    *slot = set.ori[p];
                }
                coord.rank(&sc.oa[..k])
            }
            Kind::Product { parts } => Self::parts_value(parts, s, sc),
            Kind::Reach { .. } => 0,
        }
    }

    /// The longest scratch this component needs.
    pub(super) fn scratch_len(&self) -> usize {
        match &self.kind {
            Kind::Product { parts } | Kind::Reach { parts, .. } => {
                parts.iter().map(Component::scratch_len).max().unwrap_or(0)
            }
            _ => self.positions.len(),
        }
    }

    pub(super) fn write_state(&self, r: u64, s: &mut State, sc: &mut Scratch) {
        let composite = match &self.kind {
            Kind::Product { parts } => Some((parts, r)),
            Kind::Reach { parts, tuples } => Some((parts, tuples[r as usize] as u64)),
            _ => None,
        };
        if let Some((parts, mut r)) = composite {
            for c in parts.iter().rev() {
                c.write_state(r % c.count, s, sc);
                r /= c.count;
            }
            return;
        }
        let k = self.positions.len();
        let set = &mut s.sets[self.set];
        match &self.kind {
            Kind::Perm { ride, .. } => {
                self.unrank_perm(r, &mut sc.a[..k]);
                for (&v, &p) in sc.a[..k].iter().zip(&self.positions) {
                    set.perm[p] = v / *ride as u16;
                    if *ride > 1 {
                        set.ori[p] = (v % *ride as u16) as u8;
                    }
                }
            }
            Kind::Ori { coord, n, offset } => {
                unrank_ori(coord, *n, *offset, r, &mut sc.oa[..k]);
                for (&v, &p) in sc.oa[..k].iter().zip(&self.positions) {
                    set.ori[p] = v;
                }
            }
            Kind::Product { .. } | Kind::Reach { .. } => {}
        }
    }

    /// Whether `s` holds, on this component's positions, values the rank can describe:
    /// the orbit's own multiset of labels, orientations in range and, for a `Reach`
    /// component, a combination that occurs. (An arrangement of the wrong parity passes
    /// here; `Indexer::describes` catches it by the round trip.)
    pub(super) fn admits(&self, s: &State, sc: &mut Scratch) -> bool {
        if let Kind::Reach { parts, tuples } = &self.kind {
            return parts.iter().all(|c| c.admits(s, sc))
                && tuples
                    .binary_search(&(Self::parts_value(parts, s, sc) as u32))
                    .is_ok();
        }
        let set = &s.sets[self.set];
        let k = self.positions.len();
        match &self.kind {
            Kind::Perm { ride, sorted, .. } => {
                for (slot, &p) in sc.a[..k].iter_mut().zip(&self.positions) {
                    *slot = set.perm[p].saturating_mul(*ride as u16) + (set.ori[p] % *ride) as u16;
                }
                sc.a[..k].sort_unstable();
                sc.a[..k] == sorted[..]
            }
            Kind::Ori { n, .. } => self.positions.iter().all(|&p| set.ori[p] < *n),
            Kind::Product { parts } => parts.iter().all(|c| c.admits(s, sc)),
            Kind::Reach { .. } => true,
        }
    }

    pub(super) fn rank_perm(&self, a: &[u16]) -> u64 {
        match &self.kind {
            Kind::Perm {
                distinct: true,
                even: Some(_),
                ..
            } => even::rank_half(a),
            Kind::Perm { distinct: true, .. } => even::rank(a).0,
            Kind::Perm { coord, .. } => coord.rank(a),
            _ => 0,
        }
    }

    pub(super) fn unrank_perm(&self, r: u64, out: &mut [u16]) {
        match &self.kind {
            Kind::Perm {
                distinct: true,
                sorted,
                even: Some(parity),
                ..
            } => even::unrank_half(r, *parity, sorted, out),
            Kind::Perm {
                distinct: true,
                sorted,
                ..
            } => {
                even::unrank(r, sorted, out);
            }
            Kind::Perm { coord, .. } => coord.unrank(r, out),
            _ => {}
        }
    }

    /// The rank after transform `t`, computed from the coordinates (no table).
    pub(super) fn step(&self, r: u64, t: usize, sc: &mut Scratch) -> u64 {
        let k = self.positions.len();
        match &self.kind {
            Kind::Perm { .. } => self.unrank_perm(r, &mut sc.a[..k]),
            Kind::Ori { coord, n, offset } => unrank_ori(coord, *n, *offset, r, &mut sc.oa[..k]),
            Kind::Product { parts } => {
                let (mut rem, mut mult, mut out) = (r, 1u64, 0u64);
                for c in parts.iter().rev() {
                    out += c.next(rem % c.count, t, sc) * mult;
                    rem /= c.count;
                    mult *= c.count;
                }
                return out;
            }
            Kind::Reach { parts, tuples } => {
                let (mut rem, mut mult, mut out) = (tuples[r as usize] as u64, 1u64, 0u64);
                for c in parts.iter().rev() {
                    out += c.next(rem % c.count, t, sc) * mult;
                    rem /= c.count;
                    mult *= c.count;
                }
                // The list is closed under the transforms, so the search always finds it
                // (checked in debug builds; `describes` checks states from outside).
                let found = tuples.binary_search(&(out as u32));
                debug_assert!(found.is_ok(), "a Reach list not closed under a transform");
                return found.unwrap_or(0) as u64;
            }
        }
        self.step_loaded(t, sc)
    }

    /// The rank after transform `t` of the value already unranked into the scratch.
    fn step_loaded(&self, t: usize, sc: &mut Scratch) -> u64 {
        let k = self.positions.len();
        let src = &self.src[t];
        match &self.kind {
            Kind::Perm { .. } => {
                for (o, &f) in sc.b[..k].iter_mut().zip(src) {
                    *o = sc.a[f as usize];
                }
                self.rank_perm(&sc.b[..k])
            }
            Kind::Ori { coord, n, .. } => {
                for ((o, &f), &tw) in sc.ob[..k].iter_mut().zip(src).zip(&self.twist[t]) {
                    *o = (sc.oa[f as usize] + tw) % n;
                }
                coord.rank(&sc.ob[..k])
            }
            Kind::Product { .. } | Kind::Reach { .. } => 0,
        }
    }

    /// The rank after transform `t` (of `ntrans`), by table when there is one.
    #[inline]
    pub(super) fn next(&self, r: u64, t: usize, sc: &mut Scratch) -> u64 {
        match &self.table {
            Some(tab) => tab[r as usize * self.ntrans + t] as u64,
            None => self.step(r, t, sc),
        }
    }

    pub(super) fn build_table(&mut self) {
        let ntrans = self.ntrans;
        // A composite's table is composed from its parts' tables, which are small.
        if let Kind::Product { parts } | Kind::Reach { parts, .. } = &mut self.kind {
            for c in parts.iter_mut().filter(|c| c.table.is_none()) {
                c.build_table();
            }
        }
        let len = self.scratch_len();
        let mut table = vec![0u32; self.count as usize * ntrans];
        let this = &*self;
        table.par_chunks_mut(ntrans).enumerate().for_each_init(
            || Scratch::sized(len),
            |sc, (r, row)| {
                match &this.kind {
                    Kind::Perm { .. } => this.unrank_perm(r as u64, &mut sc.a[..len]),
                    Kind::Ori { coord, n, offset } => {
                        unrank_ori(coord, *n, *offset, r as u64, &mut sc.oa[..len])
                    }
                    Kind::Product { .. } | Kind::Reach { .. } => {
                        for (t, slot) in row.iter_mut().enumerate() {
                            *slot = this.step(r as u64, t, sc) as u32;
                        }
                        return;
                    }
                }
                for (t, slot) in row.iter_mut().enumerate() {
                    *slot = this.step_loaded(t, sc) as u32;
                }
            },
        );
        self.table = Some(table);
    }
}

pub(super) fn unrank_ori(coord: &OriCoord, n: u8, offset: u8, r: u64, out: &mut [u8]) {
    coord.unrank(r, out);
    if coord.sum_rule() {
        if let Some(last) = out.last_mut() {
            *last = (*last + offset) % n;
        }
    }
}
