//! Tools on flat move sequences: the inverse, simplification (cancelling and merging
//! moves of the same base move, also across moves that commute with them) and the
//! order of the position a sequence makes.

use crate::group::{transform_order, BigUint};
use crate::puzzle::{MoveId, Puzzle, Transform};

/// The moves that undo `seq`: each move's inverse, in reverse order. A directed move has
/// no inverse move, so its inverse is order - 1 repeats of it.
pub fn inverse_sequence(puzzle: &Puzzle, seq: &[MoveId]) -> Vec<MoveId> {
    let mut out = Vec::with_capacity(seq.len());
    for &id in seq.iter().rev() {
        let m = puzzle.mv(id);
        let b = &puzzle.base_moves[m.base];
        let p = super::invert_power(m.power, b.order);
        if b.directed {
            out.extend(std::iter::repeat_n(id, p as usize));
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
    transform_order(puzzle, &t)
}
