//! Renaming pieces so that a goal position becomes the solved state ([`Relabel`]).
//!
//! A move carries whatever piece stands at a position to another and adds a twist that
//! depends on the positions alone. So renaming every piece (a new label and a twist
//! added to it, the same wherever it stands) commutes with every move: the renaming of
//! a position followed by a move is the renaming of the moved position. A renaming that
//! takes a goal `G` to the solved state turns "moves that take `S` to `G`" into "moves
//! that solve the renamed `S`", which is how a solver that only knows the solved state
//! (a chain's phases, a table of words) reaches any goal.

use super::{Puzzle, SetState, State};

/// Per set and label: the new label and the twist added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relabel {
    map: Vec<Vec<Option<(u16, u8)>>>,
}

impl Relabel {
    /// The renaming that takes `goal` to `puzzle`'s solved state, when there is one that
    /// tells the goal's pieces apart as the goal does: every position where the goal has
    /// a label must have one label of the solved state, twisted alike, and two labels of
    /// the goal never become one (else a position other than the goal would be renamed
    /// to solved as well). `None` otherwise.
    pub fn onto_solved(puzzle: &Puzzle, goal: &State) -> Option<Relabel> {
        let mut map = Vec::with_capacity(puzzle.sets.len());
        for (k, set) in puzzle.sets.iter().enumerate() {
            let n = set.orientations.max(1);
            let (g, s) = (goal.sets.get(k)?, &puzzle.solved.sets[k]);
            if g.perm.len() != set.size {
                return None;
            }
            let bound = g.perm.iter().chain(&s.perm).map(|&l| l as usize + 1).max();
            let mut to: Vec<Option<(u16, u8)>> = vec![None; bound.unwrap_or(0)];
            for i in 0..set.size {
                let twist = (s.ori[i] % n + n - g.ori[i] % n) % n;
                let here = (s.perm[i], twist);
                match to[g.perm[i] as usize] {
                    None => to[g.perm[i] as usize] = Some(here),
                    Some(was) if was == here => {}
                    Some(_) => return None,
                }
            }
            let mut images: Vec<u16> = to.iter().flatten().map(|&(l, _)| l).collect();
            images.sort_unstable();
            images.dedup();
            if images.len() != to.iter().flatten().count() {
                return None;
            }
            map.push(to);
        }
        Some(Relabel { map })
    }

    /// `state` with its pieces renamed. `None` when it holds a piece the goal has not
    /// (such a position can never reach the goal).
    pub fn apply(&self, puzzle: &Puzzle, state: &State) -> Option<State> {
        let sets = puzzle
            .sets
            .iter()
            .zip(&state.sets)
            .zip(&self.map)
            .map(|((set, s), to)| {
                let n = set.orientations.max(1);
                let mut out = SetState {
                    perm: Vec::with_capacity(s.perm.len()),
                    ori: Vec::with_capacity(s.ori.len()),
                };
                for (&l, &o) in s.perm.iter().zip(&s.ori) {
                    let (label, twist) = (*to.get(l as usize)?)?;
                    out.perm.push(label);
                    out.ori.push((o % n + twist) % n);
                }
                Some(out)
            })
            .collect::<Option<Vec<_>>>()?;
        Some(State { sets })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::parse_puzzle;

    fn cube() -> Puzzle {
        parse_puzzle(include_bytes!("../../puzzles/3x3x3.def"), "3x3x3.def")
            .unwrap()
            .0
    }

    #[test]
    fn moves_that_reach_the_goal_solve_the_renamed_start() {
        let p = cube();
        let seq = |s: &str| -> Vec<_> {
            s.split_whitespace()
                .map(|m| p.move_by_name(m).unwrap())
                .collect()
        };
        let goal = p.apply_sequence(&p.solved, &seq("R U R' U'"));
        let start = p.apply_sequence(&p.solved, &seq("F2 D L'"));
        let r = Relabel::onto_solved(&p, &goal).unwrap();
        assert_eq!(r.apply(&p, &goal).unwrap(), p.solved);
        // L D' F2 takes the start home and R U R' U' then makes the goal: after the
        // renaming, the same moves solve.
        let to_goal = seq("L D' F2 R U R' U'");
        assert_eq!(p.apply_sequence(&start, &to_goal), goal);
        let renamed = r.apply(&p, &start).unwrap();
        assert!(p.is_solved(&p.apply_sequence(&renamed, &to_goal), &[]));
        // Renaming commutes with a move.
        let m = seq("B");
        assert_eq!(
            r.apply(&p, &p.apply_sequence(&start, &m)).unwrap(),
            p.apply_sequence(&renamed, &m)
        );
    }

    #[test]
    fn a_goal_that_merges_pieces_has_no_renaming() {
        let mut p = cube();
        // Two corners made alike in the solved state, told apart by the goal.
        let mut goal = p.solved.clone();
        p.solved.sets[0].perm[1] = p.solved.sets[0].perm[0];
        goal.sets[0].perm.swap(0, 1);
        assert!(Relabel::onto_solved(&p, &goal).is_none());
    }
}
