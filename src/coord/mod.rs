//! Ranking and unranking: perfect, order-preserving indexes for permutations (with
//! identical pieces, as multiset permutations), orientation vectors (with or without
//! the sum rule) and combinations. Move tables, pruning tables and the God's-algorithm
//! table are all indexed by these ranks.
//!
//! Invariants: for every coordinate, `rank` is a bijection from the valid values onto
//! `0..count()`, `unrank(rank(x)) == x`, and ranks follow lexicographic order of the
//! vectors, so rank 0 is the sorted arrangement.

mod kperm;
mod orbits;
#[cfg(test)]
mod tests;

pub use kperm::KPerm;
pub use orbits::{Arrangement, OrbitPerm};

/// Ranks the arrangements of a fixed multiset of labels. With all labels distinct this
/// is the Lehmer code of a permutation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermCoord {
    /// `counts[v]`: how many pieces carry label `v`.
    counts: Vec<u32>,
    len: usize,
    total: u64,
    /// When every label but the last is carried by at most one piece (an additive
    /// table's owned pieces and blank, then one wildcard for the rest) and the rank's
    /// arithmetic fits 64 bits: the labels carried once, as bits. [`PermCoord::rank`]
    /// then counts smaller labels with one population count and weighs them from
    /// [`PermCoord::weights`], with no division.
    singles: Option<u64>,
    /// With `singles`: `weights[a * (w + 1) + j]` is `a! / j!` (0 where `a < j`), for
    /// `a` below the length and `j` up to `w`, the last label's count: the arrangements
    /// of `a` pieces of which `j` carry the last label and the rest one label each.
    weights: Vec<u64>,
    /// With exactly two labels over at most [`PAIR_MAX`] positions (which pieces lie
    /// in a layer, say): the rank of each arrangement, indexed by the positions of label
    /// 1 as bits. One read of a table of at most 64 KiB instead of a division per
    /// position; the search ranks such coordinates per child at its inverse.
    pair: Vec<u32>,
}

/// The most positions a two-label coordinate has its ranks tabled for.
const PAIR_MAX: usize = 14;

/// Why a coordinate could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoordError {
    #[error("{0} arrangements do not fit a 64-bit index")]
    TooLarge(String),
}

impl PermCoord {
    /// The coordinate for arrangements of `labels` (any order; only the multiset counts).
    pub fn new(labels: &[u16]) -> Result<PermCoord, CoordError> {
        let max = labels.iter().copied().max().map_or(0, |m| m as usize + 1);
        let mut counts = vec![0u32; max];
        for &l in labels {
            counts[l as usize] += 1;
        }
        let total = multinomial(&counts, labels.len())
            .ok_or_else(|| CoordError::TooLarge(format!("{} pieces'", labels.len())))?;
        let k = counts.len();
        let fits = total
            .checked_mul(labels.len() as u64 + 1)
            .is_some_and(|limit| limit < u64::MAX / 2);
        let singles = (fits && (1..=64).contains(&k) && counts[..k - 1].iter().all(|&c| c <= 1))
            .then(|| {
                (0..k - 1)
                    .filter(|&v| counts[v] == 1)
                    .fold(0u64, |m, v| m | 1 << v)
            });
        let mut weights = Vec::new();
        if let Some(mask) = singles {
            let stride = counts[k - 1] as usize + 1;
            let s = mask.count_ones() as usize;
            weights = vec![0u64; labels.len() * stride];
            for j in 0..stride {
                // a! / j! for a from j up, each from the one before. With j pieces of
                // the last label left, at most s singles are left too, so a rank reads
                // only a < j + s; those values are at most (w + s)! / w! = `total`, and
                // the others stay 0.
                let mut w = 1u64;
                for a in j..labels.len().min(j + s) {
                    if a > j {
                        w *= a as u64;
                    }
                    weights[a * stride + j] = w;
                }
            }
        }
        let mut pair = Vec::new();
        if k == 2 && labels.len() <= PAIR_MAX && singles.is_none() {
            let n = labels.len();
            pair = vec![0u32; 1 << n];
            let mut perm = vec![0u16; n];
            for (bits, r) in pair.iter_mut().enumerate() {
                if bits.count_ones() == counts[1] {
                    for (i, p) in perm.iter_mut().enumerate() {
                        *p = (bits >> i & 1) as u16;
                    }
                    let mut c = counts.clone();
                    *r = rank_with(&mut c, &perm, total) as u32;
                }
            }
        }
        Ok(PermCoord {
            counts,
            len: labels.len(),
            total,
            singles,
            weights,
            pair,
        })
    }

    /// How many arrangements there are.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the coordinate covers no positions.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The labels carried by one piece each, when every other piece carries one and the
    /// same label (or there is no other): then an arrangement is told by where those
    /// pieces stand, a k-permutation ([`KPerm`]).
    pub fn singles(&self) -> Option<Vec<u16>> {
        if self.counts.iter().filter(|&&c| c > 1).count() > 1 {
            return None;
        }
        Some(
            (0..self.counts.len())
                .filter(|&l| self.counts[l] == 1)
                .map(|l| l as u16)
                .collect(),
        )
    }

    /// The label more than one piece carries, when there is exactly one such.
    pub fn repeated(&self) -> Option<u16> {
        let mut many = (0..self.counts.len()).filter(|&l| self.counts[l] > 1);
        match (many.next(), many.next()) {
            (Some(l), None) => Some(l as u16),
            _ => None,
        }
    }

    /// Whether `perm` holds exactly this coordinate's multiset of labels.
    pub fn holds(&self, perm: &[u16]) -> bool {
        if perm.len() != self.len {
            return false;
        }
        let mut counts = self.counts.clone();
        for &l in perm {
            match counts.get_mut(l as usize) {
                Some(c) if *c > 0 => *c -= 1,
                _ => return false,
            }
        }
        true
    }

    /// Whether every label is distinct (a plain permutation).
    pub fn distinct(&self) -> bool {
        self.counts.iter().all(|&c| c <= 1)
    }

    /// The rank of `perm`, which must hold exactly this coordinate's multiset of labels.
    pub fn rank(&self, perm: &[u16]) -> u64 {
        debug_assert_eq!(perm.len(), self.len);
        if let Some(mask) = self.singles {
            return self.rank_singles(mask, perm);
        }
        if !self.pair.is_empty() {
            let bits = perm
                .iter()
                .enumerate()
                .fold(0usize, |b, (i, &p)| b | ((p as usize & 1) << i));
            return self.pair[bits] as u64;
        }
        let mut counts = [0u32; 64];
        let k = self.counts.len();
        if k <= 64 {
            counts[..k].copy_from_slice(&self.counts);
            rank_with(&mut counts[..k], perm, self.total)
        } else {
            rank_with(&mut self.counts.clone(), perm, self.total)
        }
    }

    /// [`PermCoord::rank`] where every label but the last is carried at most once
    /// (`mask` holds those carried once). The arrangements that come before `perm` are,
    /// at each position `i`, those that put a smaller label there: each of the `smaller`
    /// singles still to place (the last label is the largest, so every single left is
    /// smaller than it) leaves `a = len - i - 1` pieces of which `j` carry the last
    /// label, `a! / j!` arrangements. The terms are independent, so no division and no
    /// chain of products is needed.
    #[inline]
    fn rank_singles(&self, mut mask: u64, perm: &[u16]) -> u64 {
        let last = self.counts.len() - 1;
        let stride = self.counts[last] as usize + 1;
        let mut j = self.counts[last] as usize;
        let mut r = 0u64;
        let n = perm.len();
        // Labels are below 64 (the shape is only taken then), and the mask never holds
        // the last label, so clearing `p`'s bit is right for every label: no branch for
        // the search's unpredictable labels to mispredict.
        for (i, &p) in perm.iter().enumerate() {
            let bit = 1u64 << (p & 63);
            let smaller = (mask & (bit - 1)).count_ones() as u64;
            r += smaller * self.weights[(n - i - 1) * stride + j];
            j -= usize::from(p as usize == last);
            mask &= !bit;
        }
        r
    }

    /// The arrangement of rank `r` (< count()), written into `out` (length len()).
    pub fn unrank(&self, mut r: u64, out: &mut [u16]) {
        debug_assert!(r < self.total);
        let mut counts = self.counts.clone();
        let mut m = self.total as u128;
        for (i, slot) in out.iter_mut().enumerate() {
            let remaining = (self.len - i) as u128;
            for (v, c) in counts.iter_mut().enumerate() {
                if *c == 0 {
                    continue;
                }
                let block = m * *c as u128 / remaining;
                if (r as u128) < block {
                    *slot = v as u16;
                    m = block;
                    *c -= 1;
                    break;
                }
                r -= block as u64;
            }
        }
    }
}

/// The divisors [`div_exact`] handles by multiplication.
const EXACT_MAX: usize = 128;

/// Per divisor `d <= EXACT_MAX`: its factors of two, and the inverse of its odd part
/// modulo 2^64 (Newton's iteration; each round doubles the correct low bits).
const EXACT: [(u32, u64); EXACT_MAX + 1] = {
    let mut t = [(0u32, 0u64); EXACT_MAX + 1];
    let mut d = 1;
    while d <= EXACT_MAX {
        let shift = (d as u64).trailing_zeros();
        let odd = (d as u64) >> shift;
        let mut inv = odd;
        let mut i = 0;
        while i < 6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(inv)));
            i += 1;
        }
        t[d] = (shift, inv);
        d += 1;
    }
    t
};

/// `x / d` for an `x` that `d` divides exactly. Ranking divides only exactly (each
/// quotient counts arrangements), and a multiplication by the inverse costs a fraction
/// of a 64-bit division, which dominated ranking on sliding boards.
#[inline]
fn div_exact(x: u64, d: u64) -> u64 {
    debug_assert_eq!(x % d, 0);
    match EXACT.get(d as usize) {
        Some(&(shift, inv)) if d > 0 => (x >> shift).wrapping_mul(inv),
        _ => x / d,
    }
}

/// Lexicographic multiset rank; `counts` is consumed as scratch.
fn rank_with(counts: &mut [u32], perm: &[u16], total: u64) -> u64 {
    // `m * c` never exceeds `total * n`; when that fits 64 bits the same arithmetic runs
    // on u64, several times faster than u128 division (this ranks probed positions in
    // the search).
    if let Some(limit) = total.checked_mul(perm.len() as u64 + 1) {
        if limit < u64::MAX / 2 {
            let mut m = total;
            let mut r = 0u64;
            let n = perm.len() as u64;
            for (i, &p) in perm.iter().enumerate() {
                let remaining = n - i as u64;
                // Each label `v < p` starts `m * c_v / remaining` arrangements, a whole
                // number, so their sum is `m * (sum of c_v) / remaining`: one division
                // per position instead of one per smaller label.
                let smaller: u64 = counts[..p as usize].iter().map(|&c| c as u64).sum();
                r += div_exact(m * smaller, remaining);
                m = div_exact(m * counts[p as usize] as u64, remaining);
                counts[p as usize] -= 1;
            }
            return r;
        }
    }
    let mut m = total as u128;
    let mut r: u128 = 0;
    let n = perm.len();
    for (i, &p) in perm.iter().enumerate() {
        let remaining = (n - i) as u128;
        let smaller: u128 = counts[..p as usize].iter().map(|&c| c as u128).sum();
        r += m * smaller / remaining;
        m = m * counts[p as usize] as u128 / remaining;
        counts[p as usize] -= 1;
    }
    r as u64
}

/// n! / prod(c!) for the given counts (summing to n), or None past u64.
fn multinomial(counts: &[u32], n: usize) -> Option<u64> {
    let mut acc: u128 = 1;
    let mut k: u128 = 0;
    for &c in counts {
        for i in 1..=c as u128 {
            k += 1;
            // Each step multiplies by a binomial ratio, so the division is exact.
            acc = acc.checked_mul(k)? / i;
            if acc > u64::MAX as u128 {
                return None;
            }
        }
    }
    debug_assert_eq!(k as usize, n);
    Some(acc as u64)
}

/// Ranks orientation vectors of `len` pieces with `n` orientations each. With the sum
/// rule, only vectors whose sum is 0 mod n are ranked and the last entry is implied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OriCoord {
    n: u8,
    len: usize,
    sum_rule: bool,
    total: u64,
}

impl OriCoord {
    /// The coordinate for `len` pieces of `n` orientations.
    pub fn new(n: u8, len: usize, sum_rule: bool) -> Result<OriCoord, CoordError> {
        let n = n.max(1);
        let free = if sum_rule && len > 0 { len - 1 } else { len };
        let total = (n as u64)
            .checked_pow(free as u32)
            .ok_or_else(|| CoordError::TooLarge(format!("{n}^{free} orientations'")))?;
        Ok(OriCoord {
            n,
            len,
            sum_rule,
            total,
        })
    }

    /// How many vectors there are.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// Whether the last entry is implied by the others (sum 0 mod n).
    pub fn sum_rule(&self) -> bool {
        self.sum_rule
    }

    /// The rank of `ori` (entries < n; with the sum rule its sum must be 0 mod n).
    #[inline]
    pub fn rank(&self, ori: &[u8]) -> u64 {
        let free = if self.sum_rule && self.len > 0 {
            self.len - 1
        } else {
            self.len
        };
        ori[..free]
            .iter()
            .fold(0u64, |acc, &o| acc * self.n as u64 + o as u64)
    }

    /// The vector of rank `r`, written into `out` (length len).
    pub fn unrank(&self, mut r: u64, out: &mut [u8]) {
        let n = self.n as u64;
        let free = if self.sum_rule && self.len > 0 {
            self.len - 1
        } else {
            self.len
        };
        let mut sum = 0u64;
        for slot in out[..free].iter_mut().rev() {
            *slot = (r % n) as u8;
            sum += r % n;
            r /= n;
        }
        if free < self.len {
            out[free] = ((n - sum % n) % n) as u8;
        }
    }
}

/// Ranks the ways to choose which `k` of `n` positions are marked (a bitmask given as a
/// slice of booleans), in lexicographic order of the marked positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CombCoord {
    n: usize,
    k: usize,
    binom: Vec<Vec<u64>>,
}

impl CombCoord {
    /// The coordinate for `k`-subsets of `n` positions (n <= 64).
    pub fn new(n: usize, k: usize) -> CombCoord {
        let mut binom = vec![vec![0u64; k + 1]; n + 1];
        for row in binom.iter_mut() {
            row[0] = 1;
        }
        for i in 1..=n {
            for j in 1..=k.min(i) {
                binom[i][j] = binom[i - 1][j - 1].saturating_add(binom[i - 1][j]);
            }
        }
        CombCoord { n, k, binom }
    }

    /// C(n, k).
    pub fn count(&self) -> u64 {
        self.binom[self.n][self.k]
    }

    /// The rank of a marking with exactly k marks.
    pub fn rank(&self, marked: &[bool]) -> u64 {
        // Counting from the end: the subsets that agree up to a mark but skip it come first.
        let mut r = 0u64;
        let mut left = self.k;
        for (i, &m) in marked.iter().enumerate() {
            if left == 0 {
                break;
            }
            if m {
                left -= 1;
            } else {
                r += self.binom[self.n - i - 1][left - 1];
            }
        }
        r
    }

    /// The marking of rank `r`, written into `out` (length n).
    pub fn unrank(&self, mut r: u64, out: &mut [bool]) {
        let mut left = self.k;
        for (i, slot) in out.iter_mut().enumerate() {
            if left == 0 {
                *slot = false;
                continue;
            }
            let with = self.binom[self.n - i - 1][left - 1];
            if r < with {
                *slot = true;
                left -= 1;
            } else {
                *slot = false;
                r -= with;
            }
        }
    }
}
