//! [`KPerm`]: ranks of where `k` distinct pieces stand among `n` positions (a
//! k-permutation, `n!/(n-k)!` values), in a few operations per piece with bit masks.
//! Its order is not [`super::PermCoord`]'s; move tables use it as a quick index and
//! translate it once per value (see `table::comp`).

/// Ranks k-tuples of distinct positions below `n` (at most 64).
#[derive(Clone, Debug)]
pub struct KPerm {
    k: usize,
    /// `weights[i]`: the number of ways to place the pieces after the i-th, once it
    /// stands: (n-i-1)! / (n-k)!.
    weights: Vec<u64>,
    count: u64,
}

impl KPerm {
    /// The ranking of `k` distinct pieces among `n <= 64` positions; `None` when the
    /// count overflows 64 bits or `k > n`.
    pub fn new(n: usize, k: usize) -> Option<KPerm> {
        if n > 64 || k > n {
            return None;
        }
        let mut weights = vec![1u64; k];
        for i in (0..k.saturating_sub(1)).rev() {
            weights[i] = weights[i + 1].checked_mul((n - i - 1) as u64)?;
        }
        let count = match k {
            0 => 1,
            _ => weights[0].checked_mul(n as u64)?,
        };
        Some(KPerm { k, weights, count })
    }

    /// How many tuples there are: n! / (n-k)!.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The rank of `pos` (k distinct positions below n).
    #[inline]
    pub fn rank(&self, pos: &[u8]) -> u64 {
        debug_assert_eq!(pos.len(), self.k);
        let mut used = 0u64;
        let mut r = 0u64;
        for (&p, &w) in pos.iter().zip(&self.weights) {
            // Positions below p still free: the choices that come before p.
            let below = p as u64 - (used & ((1u64 << p) - 1)).count_ones() as u64;
            r += below * w;
            used |= 1u64 << p;
        }
        r
    }

    /// The tuple of rank `r` (< count()), written into `out` (length k).
    pub fn unrank(&self, mut r: u64, out: &mut [u8]) {
        let mut used = 0u64;
        for (slot, &w) in out.iter_mut().zip(&self.weights) {
            let mut c = r / w;
            r %= w;
            // The c-th free position.
            let mut p = 0u8;
            loop {
                if used & (1u64 << p) == 0 {
                    if c == 0 {
                        break;
                    }
                    c -= 1;
                }
                p += 1;
            }
            *slot = p;
            used |= 1u64 << p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::KPerm;

    #[test]
    fn ranks_are_a_bijection_onto_the_count() {
        for (n, k) in [(4, 0), (4, 2), (5, 5), (7, 3), (16, 3)] {
            let kp = KPerm::new(n, k).unwrap();
            let mut seen = vec![false; kp.count() as usize];
            let mut t = vec![0u8; k];
            for r in 0..kp.count() {
                kp.unrank(r, &mut t);
                let mut sorted = t.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), k, "distinct");
                assert!(t.iter().all(|&p| (p as usize) < n));
                let back = kp.rank(&t);
                assert_eq!(back, r);
                assert!(!seen[r as usize]);
                seen[r as usize] = true;
            }
        }
        assert_eq!(KPerm::new(16, 5).unwrap().count(), 16 * 15 * 14 * 13 * 12);
        assert!(KPerm::new(65, 2).is_none());
        assert!(KPerm::new(3, 4).is_none());
    }
}
