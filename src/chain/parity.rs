//! Permutation parities as pieces of their own ([`Parities`]), so that a phase's picture
//! can show one.
//!
//! A subgroup may keep an invariant no arrangement of labels shows: every move of the
//! 4x4x4's `<U, D, R2, L2, F, B, 2U2, ...>` permutes the wings evenly, so its positions
//! have the wings in even permutations, and a picture that merges wing labels (or keeps
//! none of them) cannot tell those from the odd ones. Where a set's pieces are all
//! distinct, the parity of their permutation is a function of the position; the chain is
//! found on a copy of the puzzle with one more set per such set, two positions whose
//! pieces trade places with every move that permutes the set oddly. Its positions are the
//! puzzle's (the new sets follow from the old), so every count is the same, and a picture
//! that tells the two pieces apart shows the parity. The coarsest picture merges them
//! ([`is_parity`]); [`super::Target::exact`] tells them apart where that makes a phase
//! exact.

use crate::puzzle::{IgnoreMask, Puzzle, SetDef, SetState, State};

/// How the name of a parity set begins; set names read from files have no spaces, so
/// none is taken for one.
const PREFIX: &str = "parity of ";

/// Whether set `k` of `puzzle` is a parity set.
pub fn is_parity(puzzle: &Puzzle, k: usize) -> bool {
    puzzle.sets[k].name.starts_with(PREFIX)
}

/// The parity sets added to a puzzle: per new set, the set whose parity it shows and
/// whether the solved state's own arrangement of that set is odd (a definition may
/// list distinct pieces in any order), since a parity is counted from solved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parities {
    of: Vec<(usize, bool)>,
}

/// Whether a permutation (`perm[i]`: where position `i`'s piece comes from) is odd.
fn odd(perm: &[u16]) -> bool {
    let mut seen = vec![false; perm.len()];
    let mut transpositions = 0;
    for start in 0..perm.len() {
        let mut i = start;
        let mut len = 0usize;
        while !seen[i] {
            seen[i] = true;
            i = perm[i] as usize;
            len += 1;
        }
        transpositions += len.saturating_sub(1);
    }
    transpositions % 2 == 1
}

impl Parities {
    /// `puzzle` with a parity set after its own for each set whose solved pieces are
    /// all distinct and which some move permutes oddly, and which those are.
    pub fn add(puzzle: &Puzzle) -> (Puzzle, Parities) {
        let mut out = puzzle.clone();
        let mut of = Vec::new();
        for (k, set) in puzzle.sets.iter().enumerate() {
            let mut labels = puzzle.solved.sets[k].perm.clone();
            labels.sort_unstable();
            labels.dedup();
            let distinct = labels.len() == set.size;
            let any_odd = puzzle
                .base_moves
                .iter()
                .any(|b| odd(&b.effect.sets[k].perm));
            if !distinct || !any_odd {
                continue;
            }
            of.push((k, odd(&puzzle.solved.sets[k].perm)));
            out.sets.push(SetDef {
                name: format!("{PREFIX}{}", set.name),
                size: 2,
                orientations: 1,
            });
            out.solved.sets.push(SetState {
                perm: vec![0, 1],
                ori: vec![0, 0],
            });
            out.ignore.push(IgnoreMask {
                perm: vec![false; 2],
                ori: vec![false; 2],
            });
            let swap = |odd: bool| SetState {
                perm: if odd { vec![1, 0] } else { vec![0, 1] },
                ori: vec![0, 0],
            };
            for b in &mut out.base_moves {
                let o = odd(&b.effect.sets[k].perm);
                b.effect.sets.push(swap(o));
                b.touched.push(vec![o; 2]);
            }
            for m in &mut out.moves {
                let o = odd(&m.effect.sets[k].perm);
                m.effect.sets.push(swap(o));
            }
            if !out.free.is_empty() {
                out.free.push(vec![false; 2]);
            }
            if !out.known_mod.is_empty() {
                out.known_mod.push(vec![1; 2]);
            }
        }
        // A sticker map or a board describes the puzzle's own sets only.
        if !of.is_empty() {
            out.stickers = None;
            out.board = None;
        }
        (out, Parities { of })
    }

    /// `state`, a position of the puzzle, with its parities appended: a position of
    /// the puzzle [`Parities::add`] made.
    pub fn position(&self, state: &State) -> State {
        let mut out = state.clone();
        for &(k, solved_odd) in &self.of {
            let perm = if odd(&state.sets[k].perm) != solved_odd {
                vec![1, 0]
            } else {
                vec![0, 1]
            };
            out.sets.push(SetState {
                perm,
                ori: vec![0, 0],
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parities_follow_the_moves() {
        let p = crate::def::parse_puzzle(include_bytes!("../../puzzles/3x3x3.def"), "3x3x3.def")
            .unwrap()
            .0;
        let (q, parities) = Parities::add(&p);
        // Corners and edges, both permuted oddly by a quarter turn.
        assert_eq!(q.sets.len(), p.sets.len() + 2);
        assert!(is_parity(&q, p.sets.len()) && !is_parity(&q, 0));
        let mut s = p.solved.clone();
        let mut t = q.solved.clone();
        for name in ["R", "U2", "F'", "D", "L2"] {
            let m = p.move_by_name(name).unwrap();
            s = s.then(&p.mv(m).effect, &p.sets);
            t = t.then(&q.mv(m).effect, &q.sets);
            assert_eq!(parities.position(&s), t, "after {name}");
        }
    }

    #[test]
    fn parities_count_from_the_solved_arrangement() {
        // Distinct pieces listed out of order when solved: the solved state shows an
        // even parity all the same, and a swap shows an odd one.
        let text = "Set A 3 1\nSolved\nA\n2 1 3\nEnd\nMove S\nA\n2 1 3\nEnd\n";
        let p = crate::def::parse_puzzle(text.as_bytes(), "odd.def")
            .unwrap()
            .0;
        let (q, parities) = Parities::add(&p);
        assert_eq!(parities.position(&p.solved), q.solved);
        let s = p.solved.then(&p.moves[0].effect, &p.sets);
        let t = q.solved.then(&q.moves[0].effect, &q.sets);
        assert_eq!(parities.position(&s), t);
        assert_ne!(t, q.solved);
    }
}
