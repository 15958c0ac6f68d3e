//! Property tests: every coordinate's rank and unrank are inverse bijections onto
//! `0..count()`, in lexicographic order.

use super::*;
use proptest::prelude::*;

#[test]
fn small_permutations_rank_in_lexicographic_order() {
    let c = PermCoord::new(&[0, 1, 2]).unwrap();
    assert_eq!(c.count(), 6);
    let all = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    for (r, p) in all.iter().enumerate() {
        assert_eq!(c.rank(p), r as u64);
        let mut out = [0u16; 3];
        c.unrank(r as u64, &mut out);
        assert_eq!(&out, p);
    }
}

#[test]
fn multiset_counts() {
    // 4x4x4 centres: 24 pieces in six colours of four.
    let labels: Vec<u16> = (0..24).map(|i| i / 4).collect();
    assert_eq!(
        PermCoord::new(&labels).unwrap().count(),
        3_246_670_537_110_000
    );
    assert!(PermCoord::new(&(0..21).collect::<Vec<u16>>()).is_err());
    assert_eq!(OriCoord::new(3, 8, true).unwrap().count(), 2187);
    assert_eq!(CombCoord::new(12, 4).count(), 495);
}

fn arb_multiset() -> impl Strategy<Value = Vec<u16>> {
    proptest::collection::vec(0u16..5, 1..12).prop_shuffle()
}

proptest! {
    #[test]
    fn perm_rank_unrank_roundtrip(labels in arb_multiset(), seed in any::<u64>()) {
        let c = PermCoord::new(&labels).unwrap();
        let r = c.rank(&labels);
        prop_assert!(r < c.count());
        let mut out = vec![0u16; labels.len()];
        c.unrank(r, &mut out);
        prop_assert_eq!(&out, &labels);
        let r2 = seed % c.count();
        c.unrank(r2, &mut out);
        prop_assert_eq!(c.rank(&out), r2);
    }

    /// Singles then one repeated label (an additive table's shape, 16 cells): the quick
    /// rank equals the general multiset rank.
    #[test]
    fn singles_rank_as_the_general_rank(singles in 0usize..10, seed in any::<u64>()) {
        let mut labels: Vec<u16> = (0..singles as u16).collect();
        labels.resize(16, singles as u16);
        let c = PermCoord::new(&labels).unwrap();
        prop_assert!(c.singles.is_some());
        let mut perm = vec![0u16; 16];
        c.unrank(seed % c.count(), &mut perm);
        let mut counts = c.counts.clone();
        prop_assert_eq!(c.rank(&perm), rank_with(&mut counts, &perm, c.total));
    }

    /// Two labels (which pieces lie in a layer, up to 14 positions): the table's rank
    /// equals the general multiset rank.
    #[test]
    fn two_labels_rank_as_the_general_rank(n in 2usize..15, k in 1usize..14, seed in any::<u64>()) {
        let k = k.min(n - 1);
        let mut labels = vec![0u16; n];
        labels[..k].fill(1);
        let c = PermCoord::new(&labels).unwrap();
        prop_assert!(!c.pair.is_empty() || c.singles.is_some());
        let mut perm = vec![0u16; n];
        c.unrank(seed % c.count(), &mut perm);
        let mut counts = c.counts.clone();
        prop_assert_eq!(c.rank(&perm), rank_with(&mut counts, &perm, c.total));
    }

    #[test]
    fn perm_ranks_are_ordered(labels in arb_multiset(), a in any::<u64>(), b in any::<u64>()) {
        let c = PermCoord::new(&labels).unwrap();
        let (a, b) = (a % c.count(), b % c.count());
        let (mut x, mut y) = (vec![0u16; labels.len()], vec![0u16; labels.len()]);
        c.unrank(a, &mut x);
        c.unrank(b, &mut y);
        prop_assert_eq!(a.cmp(&b), x.cmp(&y));
    }

    #[test]
    fn ori_rank_unrank_roundtrip(n in 1u8..5, len in 1usize..10, sum in any::<bool>(), seed in any::<u64>()) {
        let c = OriCoord::new(n, len, sum).unwrap();
        let r = seed % c.count();
        let mut out = vec![0u8; len];
        c.unrank(r, &mut out);
        prop_assert!(out.iter().all(|&o| o < n));
        if sum {
            prop_assert_eq!(out.iter().map(|&o| o as u32).sum::<u32>() % n as u32, 0);
        }
        prop_assert_eq!(c.rank(&out), r);
    }

    #[test]
    fn comb_rank_unrank_roundtrip(n in 1usize..16, k in 0usize..16, seed in any::<u64>()) {
        let k = k.min(n);
        let c = CombCoord::new(n, k);
        let r = seed % c.count();
        let mut out = vec![false; n];
        c.unrank(r, &mut out);
        prop_assert_eq!(out.iter().filter(|&&b| b).count(), k);
        prop_assert_eq!(c.rank(&out), r);
    }
}

#[test]
fn exact_division_by_multiplication() {
    for d in 1..=200u64 {
        for q in [0u64, 1, 2, 3, 7, 1 << 20, (1 << 40) + 12345, u64::MAX / 256] {
            if let Some(x) = q.checked_mul(d) {
                assert_eq!(div_exact(x, d), q, "{x} / {d}");
            }
        }
    }
}
