//! The exact order of a move, however large.
//!
//! [`crate::puzzle::BaseMove::order`] is a `u32` that saturates, which is all the move
//! model needs (a move of larger order can only be `noinverse`), but a summary must not
//! print the saturated value as if it were the order. The order is the least common
//! multiple, over the move's cycles, of the cycle's length times the order of the twist
//! a piece gathers going round it. Each such factor is below 2^23 (at most 65,535
//! positions times 128 orientations), so the least common multiple is kept as prime
//! powers and multiplied out once.

use super::BigUint;
use crate::puzzle::moves::cycle_orders;
use crate::puzzle::{Puzzle, Transform};
use std::collections::BTreeMap;

/// The exact order of base move `base` of `puzzle`: the smallest k > 0 with
/// move^k = identity.
pub fn move_order(puzzle: &Puzzle, base: usize) -> BigUint {
    transform_order(puzzle, &puzzle.base_moves[base].effect)
}

/// The exact order of a transformation (destination-indexed form) of `puzzle`'s sets.
pub fn transform_order(puzzle: &Puzzle, effect: &Transform) -> BigUint {
    // For each prime, the largest power of it dividing some cycle's order.
    let mut powers: BTreeMap<u64, u32> = BTreeMap::new();
    for cycle in cycle_orders(effect, &puzzle.sets) {
        for (p, e) in factor(cycle) {
            let max = powers.entry(p).or_insert(0);
            *max = (*max).max(e);
        }
    }
    let mut order = BigUint::one();
    for (p, e) in powers {
        for _ in 0..e {
            order.mul_u64(p);
        }
    }
    order
}

/// The prime factors of `n` with their exponents, by trial division (n < 2^23 here, so
/// at most a few thousand divisions).
fn factor(mut n: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        let mut e = 0;
        while n.is_multiple_of(p) {
            n /= p;
            e += 1;
        }
        if e > 0 {
            out.push((p, e));
        }
        p += 1;
    }
    if n > 1 {
        out.push((n, 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::parse_puzzle;

    /// A directed move on one set made of cycles of the given lengths.
    fn cycles_def(lengths: &[usize]) -> String {
        let size: usize = lengths.iter().sum();
        let mut perm = Vec::new();
        let mut at = 0;
        for &len in lengths {
            for k in 0..len {
                perm.push(at + (k + 1) % len + 1);
            }
            at += len;
        }
        let solved: Vec<String> = (1..=size).map(|i| i.to_string()).collect();
        let perm: Vec<String> = perm.iter().map(|i| i.to_string()).collect();
        format!(
            "Set A {size} 1\nSolved\nA\n{}\nEnd\nMove M noinverse\nA\n{}\nEnd\n",
            solved.join(" "),
            perm.join(" ")
        )
    }

    #[test]
    fn small_orders_match_the_move_model() {
        let p = parse_puzzle(cycles_def(&[3, 4, 5]).as_bytes(), "t.def")
            .unwrap()
            .0;
        assert_eq!(move_order(&p, 0).to_u64(), Some(60));
        assert_eq!(p.base_moves[0].order, 60);
    }

    #[test]
    fn orders_past_u32_are_exact() {
        // Cycles of the primes 2 to 47 (328 pieces): the order is their product,
        // 614,889,782,588,491,410, far past u32, where the move model saturates.
        let primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47];
        let p = parse_puzzle(cycles_def(&primes).as_bytes(), "t.def")
            .unwrap()
            .0;
        assert_eq!(p.base_moves[0].order, u32::MAX);
        let want: u64 = primes.iter().map(|&q| q as u64).product();
        assert_eq!(move_order(&p, 0).to_u64(), Some(want));
        assert_eq!(move_order(&p, 0).to_string(), want.to_string());
    }
}
