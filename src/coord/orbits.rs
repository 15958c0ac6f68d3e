//! [`Arrangement`]: ranks of a set's arrangements when its positions fall into several
//! orbits that no piece leaves ([`OrbitPerm`]), and of a whole set otherwise
//! ([`PermCoord`]).
//!
//! A set whose moves never take a piece from one orbit of positions to another (the
//! 4x4x4's wings of two orbits joined in one set by a chain's phase, a set with pieces
//! that never move) reaches only the arrangements that keep each orbit's labels: ranked
//! over the whole set, most ranks would stand for arrangements no move reaches, and a
//! pruning table over them would waste its entries and see fewer pieces for its size.
//! [`OrbitPerm`] ranks each orbit's labels on their own and combines the ranks as the
//! digits of a mixed-radix number, so that every rank is an arrangement that keeps the
//! orbits' contents.
//!
//! ```
//! use ksolve::coord::Arrangement;
//! // Four positions in two orbits, {0, 2} and {1, 3}; labels 0 and 1 live in the first.
//! let a = Arrangement::new(&[0, 2, 1, 3], &[vec![0, 2], vec![1, 3]]).unwrap();
//! assert_eq!(a.count(), 4);
//! assert!(a.holds(&[1, 3, 0, 2]));
//! assert!(!a.holds(&[2, 0, 1, 3])); // label 2 left its orbit
//! let mut out = [0u16; 4];
//! a.unrank(a.rank(&[1, 3, 0, 2]), &mut out);
//! assert_eq!(out, [1, 3, 0, 2]);
//! ```

use super::{CoordError, PermCoord};

/// The ranking of a set's arrangements: over the whole set, or orbit by orbit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arrangement {
    /// One orbit: every arrangement of the labels.
    Whole(PermCoord),
    /// Several orbits: the arrangements that keep each orbit's labels.
    Orbits(OrbitPerm),
}

impl Arrangement {
    /// The ranking of arrangements of `labels` (the label at each position of a valid
    /// arrangement, as the solved state has them) where pieces stay within `orbits`, a
    /// partition of the positions. One orbit (or none given) ranks the whole set.
    pub fn new(labels: &[u16], orbits: &[Vec<usize>]) -> Result<Arrangement, CoordError> {
        if orbits.len() <= 1 {
            return Ok(Arrangement::Whole(PermCoord::new(labels)?));
        }
        Ok(Arrangement::Orbits(OrbitPerm::new(labels, orbits)?))
    }

    /// How many arrangements there are.
    pub fn count(&self) -> u64 {
        match self {
            Arrangement::Whole(c) => c.count(),
            Arrangement::Orbits(o) => o.total,
        }
    }

    /// The rank of `perm`, which must [`Arrangement::holds`].
    #[inline]
    pub fn rank(&self, perm: &[u16]) -> u64 {
        match self {
            Arrangement::Whole(c) => c.rank(perm),
            Arrangement::Orbits(o) => o.rank(perm),
        }
    }

    /// The arrangement of rank `r` (< count()), written into `out` (one label per
    /// position).
    pub fn unrank(&self, r: u64, out: &mut [u16]) {
        match self {
            Arrangement::Whole(c) => c.unrank(r, out),
            Arrangement::Orbits(o) => o.unrank(r, out),
        }
    }

    /// Whether `perm` is one of the arrangements ranked: it holds the solved multiset
    /// of labels, orbit by orbit.
    pub fn holds(&self, perm: &[u16]) -> bool {
        match self {
            Arrangement::Whole(c) => c.holds(perm),
            Arrangement::Orbits(o) => o.holds(perm),
        }
    }

    /// The whole-set coordinate, when there is one orbit: the quick paths that rank
    /// where a few pieces stand over all positions apply only then.
    pub fn whole(&self) -> Option<&PermCoord> {
        match self {
            Arrangement::Whole(c) => Some(c),
            Arrangement::Orbits(_) => None,
        }
    }
}

/// Arrangements of a set whose positions fall into orbits that no piece leaves: each
/// orbit's labels ranked by a [`PermCoord`] of their own, the first orbit the most
/// significant digit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrbitPerm {
    /// Per orbit: its positions, ascending, and the ranking of the labels it holds.
    parts: Vec<(Vec<usize>, PermCoord)>,
    len: usize,
    total: u64,
    /// The largest orbit's size: ranking gathers one orbit's labels at a time.
    widest: usize,
}

/// Orbits of up to this many positions are gathered on the stack when ranked, which the
/// search's inverse probes do at every node they look at.
const STACK: usize = 64;

impl OrbitPerm {
    fn new(labels: &[u16], orbits: &[Vec<usize>]) -> Result<OrbitPerm, CoordError> {
        let mut parts = Vec::with_capacity(orbits.len());
        let mut total = 1u64;
        for orbit in orbits {
            let mut positions = orbit.clone();
            positions.sort_unstable();
            let held: Vec<u16> = positions.iter().map(|&i| labels[i]).collect();
            let coord = PermCoord::new(&held)?;
            total = total
                .checked_mul(coord.count())
                .ok_or_else(|| CoordError::TooLarge(format!("{} pieces'", labels.len())))?;
            parts.push((positions, coord));
        }
        let widest = orbits.iter().map(Vec::len).max().unwrap_or(0);
        Ok(OrbitPerm {
            parts,
            len: labels.len(),
            total,
            widest,
        })
    }

    #[inline]
    fn rank(&self, perm: &[u16]) -> u64 {
        debug_assert_eq!(perm.len(), self.len);
        let mut stack = [0u16; STACK];
        let mut heap = Vec::new();
        let buf: &mut [u16] = if self.widest <= STACK {
            &mut stack
        } else {
            heap.resize(self.widest, 0);
            &mut heap
        };
        let mut r = 0u64;
        for (positions, coord) in &self.parts {
            let held = &mut buf[..positions.len()];
            for (h, &i) in held.iter_mut().zip(positions) {
                *h = perm[i];
            }
            r = r * coord.count() + coord.rank(held);
        }
        r
    }

    fn unrank(&self, mut r: u64, out: &mut [u16]) {
        debug_assert!(r < self.total);
        let mut buf = vec![0u16; self.widest];
        for (positions, coord) in self.parts.iter().rev() {
            let held = &mut buf[..positions.len()];
            coord.unrank(r % coord.count(), held);
            r /= coord.count();
            for (&h, &i) in held.iter().zip(positions) {
                out[i] = h;
            }
        }
    }

    fn holds(&self, perm: &[u16]) -> bool {
        perm.len() == self.len
            && self.parts.iter().all(|(positions, coord)| {
                let held: Vec<u16> = positions.iter().map(|&i| perm[i]).collect();
                coord.holds(&held)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rank unranks to an arrangement that keeps the orbits and ranks back to
    /// itself, and the count is the product of the orbits' counts.
    #[test]
    fn ranks_are_a_bijection_onto_the_orbit_keeping_arrangements() {
        // Six positions: orbit {0, 3, 5} holds labels 0, 1, 1; orbit {1, 2, 4} holds
        // 2, 3, 4.
        let labels = [0, 2, 3, 1, 4, 1];
        let orbits = [vec![0, 3, 5], vec![1, 2, 4]];
        let a = Arrangement::new(&labels, &orbits).unwrap();
        assert_eq!(a.count(), 3 * 6);
        assert!(a.whole().is_none());
        let mut seen = std::collections::HashSet::new();
        let mut out = [0u16; 6];
        for r in 0..a.count() {
            a.unrank(r, &mut out);
            assert!(a.holds(&out), "{out:?}");
            assert_eq!(a.rank(&out), r);
            assert!(seen.insert(out));
        }
        assert!(!a.holds(&[2, 0, 3, 1, 4, 1]));
        assert!(!a.holds(&[0, 2, 3, 1, 4]));
    }

    #[test]
    fn one_orbit_is_the_whole_set() {
        let a = Arrangement::new(&[0, 1, 2], &[vec![0, 1, 2]]).unwrap();
        assert_eq!(a.count(), 6);
        assert!(a.whole().is_some());
        assert!(a.holds(&[2, 0, 1]));
        assert!(!a.holds(&[2, 2, 1]));
    }
}
