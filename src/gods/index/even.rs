//! Lehmer ranks of arrangements of distinct labels, in full (`n!` values) and restricted
//! to one parity (`n!/2` values).
//!
//! When every move permutes an orbit's positions evenly and its labels are distinct, the
//! parity of the arrangement never changes, so only half of the `n!` arrangements can
//! occur. The Lehmer code `d_0 .. d_{n-1}` ranks an arrangement as
//! `sum d_i * (n-1-i)!`; every weight but the one of `d_{n-2}` (which is `1! = 1`) is
//! even, so the rank's lowest bit is `d_{n-2}`, and the arrangement's parity is the sum
//! of all digits mod 2. The digits above `d_{n-2}` therefore fix `d_{n-2}` once the
//! parity is known, and `rank >> 1` is a bijection from the arrangements of one parity
//! onto `0..n!/2` that keeps their lexicographic order.

/// n! for n <= 20.
pub(super) const FACTORIAL: [u64; 21] = {
    let mut f = [1u64; 21];
    let mut i = 1;
    while i < 21 {
        f[i] = f[i - 1] * i as u64;
        i += 1;
    }
    f
};

/// The lexicographic rank of `a` (distinct labels, at most 20) among the arrangements
/// of its labels, and the arrangement's parity (0 even, 1 odd, relative to ascending
/// order).
#[inline]
pub(super) fn rank(a: &[u16]) -> (u64, u8) {
    let n = a.len();
    let (mut r, mut parity) = (0u64, 0u64);
    for i in 0..n {
        let smaller = a[i + 1..].iter().filter(|&&x| x < a[i]).count() as u64;
        r = r * (n - i) as u64 + smaller;
        parity += smaller;
    }
    (r, (parity & 1) as u8)
}

/// The arrangement of `sorted` (ascending, distinct, at most 20) with rank `r`, written
/// into `out` (same length); returns its parity.
#[inline]
pub(super) fn unrank(mut r: u64, sorted: &[u16], out: &mut [u16]) -> u8 {
    let n = out.len();
    let mut used = 0u32;
    let mut parity = 0u64;
    for (i, slot) in out.iter_mut().enumerate() {
        let f = FACTORIAL[n - 1 - i];
        let mut d = r / f;
        r %= f;
        parity += d;
        // The d-th smallest label not used yet.
        for (j, &label) in sorted.iter().enumerate() {
            if used >> j & 1 == 0 {
                if d == 0 {
                    *slot = label;
                    used |= 1 << j;
                    break;
                }
                d -= 1;
            }
        }
    }
    (parity & 1) as u8
}

/// The rank of `a` among the arrangements of its parity (`0..n!/2`, n >= 2).
#[inline]
pub(super) fn rank_half(a: &[u16]) -> u64 {
    rank(a).0 >> 1
}

/// The arrangement of `sorted` with parity `parity` and half-rank `q`.
#[inline]
pub(super) fn unrank_half(q: u64, parity: u8, sorted: &[u16], out: &mut [u16]) {
    // Rank 2q has d_{n-2} = 0, so its last two labels ascend; the arrangement of the
    // other parity with the same upper digits (rank 2q + 1) has them swapped.
    if unrank(q << 1, sorted, out) != parity {
        let n = out.len();
        out.swap(n - 2, n - 1);
    }
}

/// The parity (0 even, 1 odd) of the permutation `i -> map[i]` of `0..map.len()`.
pub(super) fn cycle_parity(map: &[u16]) -> u8 {
    let mut seen = vec![false; map.len()];
    let mut cycles = 0;
    for s in 0..map.len() {
        if !seen[s] {
            cycles += 1;
            let mut k = s;
            while !seen[k] {
                seen[k] = true;
                k = map[k] as usize;
            }
        }
    }
    ((map.len() - cycles) % 2) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The parity of an arrangement by counting its cycles, independently of Lehmer
    /// digits.
    fn arrangement_parity(a: &[u16], sorted: &[u16]) -> u8 {
        let pos: Vec<u16> = a
            .iter()
            .map(|x| sorted.iter().position(|y| y == x).unwrap() as u16)
            .collect();
        cycle_parity(&pos)
    }

    #[test]
    fn half_ranks_of_each_parity_are_a_bijection_in_order() {
        for (n, &count) in FACTORIAL.iter().enumerate().take(7).skip(2) {
            let sorted: Vec<u16> = (0..n as u16).map(|x| 3 * x + 1).collect();
            for parity in 0..2u8 {
                let mut out = vec![0u16; n];
                let mut prev: Option<u64> = None;
                for q in 0..count / 2 {
                    unrank_half(q, parity, &sorted, &mut out);
                    assert_eq!(arrangement_parity(&out, &sorted), parity);
                    assert_eq!(rank_half(&out), q);
                    // Lexicographic order is kept.
                    let full = rank(&out).0;
                    assert!(prev.is_none_or(|p| p < full));
                    prev = Some(full);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn full_and_half_ranks_round_trip(n in 2usize..=20, seed in any::<u64>()) {
            let sorted: Vec<u16> = (0..n as u16).map(|x| 2 * x + 5).collect();
            let r = seed % FACTORIAL[n];
            let mut out = vec![0u16; n];
            let parity = unrank(r, &sorted, &mut out);
            prop_assert_eq!(rank(&out), (r, parity));
            prop_assert_eq!(arrangement_parity(&out, &sorted), parity);
            let mut back = vec![0u16; n];
            unrank_half(r >> 1, parity, &sorted, &mut back);
            prop_assert_eq!(back, out);
        }
    }
}
