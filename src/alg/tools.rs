//! Tools on flat move sequences: the inverse, simplification (cancelling and merging
//! moves of the same base move, also across moves that commute with them) and the
//! order of the position a sequence makes.

use crate::group::BigUint;
use crate::puzzle::{MoveId, Puzzle, Transform};
use std::collections::BTreeMap;

/// The moves that undo `seq`: each move's inverse, in reverse order. A directed move has
/// no inverse move, so its inverse is order - 1 repeats of it.
pub fn inverse_sequence(puzzle: &Puzzle, seq: &[MoveId]) -> Vec<MoveId> {
    let mut out = Vec::with_capacity(seq.len());
    for &id in seq.iter().rev() {
        let m = puzzle.mv(id);
        let b = &puzzle.base_moves[m.base];
        let p = super::invert_power(m.power, b.order);
        if b.directed {
            out.extend(std::iter::repeat(id).take(p as usize));
        } else if p != 0 {
            out.push(b.powers[p as usize - 1]);
        }
    }
    out
}

/// `seq` with adjacent powers of the same base move merged (`R R` → `R2`, `U U'` → ``),
/// also across moves that commute with it (`R L R` → `R2 L`), repeatedly, so that what a
/// cancellation brings together merges too (`R U U' R'` → ``). Directed moves are kept
/// as they are: their powers are not moves of the puzzle.
pub fn simplify(puzzle: &Puzzle, seq: &[MoveId]) -> Vec<MoveId> {
    let n = puzzle.base_moves.len();
    // Which base moves commute, computed once rather than per move of the sequence.
    let mut commute = vec![false; n * n];
    for (a, b) in puzzle.commuting_pairs() {
        commute[a * n + b] = true;
        commute[b * n + a] = true;
    }
    // The output as (base, power); it is kept simplified after every step.
    let mut out: Vec<(usize, u32)> = Vec::with_capacity(seq.len());
    for &id in seq {
        let m = puzzle.mv(id);
        let b = &puzzle.base_moves[m.base];
        let mut merged = false;
        if !b.directed {
            for i in (0..out.len()).rev() {
                let (base, power) = out[i];
                if base == m.base {
                    let p = (power + m.power) % b.order;
                    if p == 0 {
                        out.remove(i);
                    } else {
                        out[i].1 = p;
                    }
                    merged = true;
                    break;
                }
                if !commute[base * n + m.base] {
                    break;
                }
            }
        }
        if !merged {
            out.push((m.base, m.power));
        }
    }
    out.into_iter()
        .map(|(base, p)| {
            let b = &puzzle.base_moves[base];
            if b.directed {
                b.powers[0]
            } else {
                b.powers[p as usize - 1]
            }
        })
        .collect()
}

/// The order of the transformation `seq` makes: how many times it must be repeated to
/// bring every piece home untwisted. The transformation acts on positions, so pieces
/// that look alike still count as different (the order of a move, not the number of
/// repeats after which the position merely looks solved).
pub fn order(puzzle: &Puzzle, seq: &[MoveId]) -> BigUint {
    let mut t = Transform::identity(&puzzle.sets);
    let mut next = t.clone();
    for &id in seq {
        t.then_into(&puzzle.mv(id).effect, &puzzle.sets, &mut next);
        std::mem::swap(&mut t, &mut next);
    }
    // The least common multiple of the cycle orders, as the largest power of each prime
    // dividing any of them: cycle orders are small, their multiple need not be.
    let mut primes: BTreeMap<u64, u32> = BTreeMap::new();
    for (set, s) in puzzle.sets.iter().zip(&t.sets) {
        let n = set.orientations.max(1) as u64;
        let mut seen = vec![false; set.size];
        for start in 0..set.size {
            if seen[start] {
                continue;
            }
            let (mut len, mut twist, mut i) = (0u64, 0u64, start);
            while !seen[i] {
                seen[i] = true;
                twist += s.ori[i] as u64;
                len += 1;
                i = s.perm[i] as usize;
            }
            let cycle = len * (n / gcd(twist % n, n));
            for (p, e) in factor(cycle) {
                let best = primes.entry(p).or_insert(0);
                *best = (*best).max(e);
            }
        }
    }
    let mut out = BigUint::one();
    for (p, e) in primes {
        for _ in 0..e {
            out.mul_u64(p);
        }
    }
    out
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The prime factors of `n` with their exponents, by trial division (cycle orders are
/// at most the number of pieces times the number of orientations).
fn factor(mut n: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        let mut e = 0;
        while n % p == 0 {
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
