//! One phase of a chain as a puzzle of its own ([`Phase`]): its moves are the
//! generators of the upper group (each with its powers, `R2` a move of order 2), its
//! solved state is the lower group's [`Target`], so the table planner, the cache and the
//! search treat it like any definition. Its solutions are translated back into the
//! puzzle's own moves. A target of several goal pictures makes the phase's goal
//! ([`Phase::goal`]): the search and its tables take it as they take a scramble file's
//! goal of several positions.

use super::parity::Parities;
use super::split::Split;
use super::{Subgroup, Target};
use crate::group::BigUint;
use crate::puzzle::{Goal, GoalPosition, MoveId, Puzzle, State};
use std::sync::Arc;

/// One phase: from the upper subgroup to the lower one.
#[derive(Clone, Debug)]
pub struct Phase {
    pub upper: Subgroup,
    pub lower: Subgroup,
    /// The number of pictures the phase searches over (cosets of the lower group in the
    /// upper one).
    pub cosets: BigUint,
    /// The phase as a puzzle.
    pub puzzle: Puzzle,
    split: Split,
    target: Target,
    /// Per move of the phase puzzle: the puzzle's move it is.
    moves: Vec<MoveId>,
    /// Per move of the puzzle: whether it is a move of the lower group (a phase solution
    /// that ends in one is a shorter solution with a move of the next phase after it).
    in_lower: Vec<bool>,
    /// The phase puzzle's goal when the target has several pictures (`None`: its
    /// solved state).
    pub goal: Option<Arc<Goal>>,
    /// The parities the chain's copy of the puzzle adds to a position.
    parities: Parities,
}

impl Phase {
    /// The phase from `upper` down to `lower`, with its picture and coset count, on
    /// `puzzle` (the chain's copy of the puzzle, with `parities`).
    pub fn new(
        puzzle: &Puzzle,
        parities: &Parities,
        upper: Subgroup,
        lower: Subgroup,
        target: Target,
        cosets: BigUint,
    ) -> Phase {
        let gens = upper.generators(puzzle);
        // Where the upper group keeps orientation, every position of the phase has it
        // solved: such parts are searched without it.
        let upper_free = Target::of(puzzle, &gens).free;
        // The phase's positions keep their twists where the picture leaves them free (the
        // goal test ignores them there), so that a part whose moves keep the sum of its
        // twists keeps it in the phase too; its solved state has the solved twists there.
        let solved = target.relabelled(&puzzle.solved);
        let split = Split::new(puzzle, &gens, &solved, &target.free, |k, slots| {
            slots
                .iter()
                .any(|&i| upper_free[k].ori[i] && !target.free[k].ori[i])
        });
        let phase = &split.puzzle;
        // Phase move `g^j` is the puzzle's base move to the power `step * j`.
        let moves = phase
            .moves
            .iter()
            .map(|m| {
                let g = puzzle.mv(gens[m.base]);
                let base = &puzzle.base_moves[g.base];
                let power = (g.power * m.power) % base.order.max(1);
                base.powers[power as usize - 1]
            })
            .collect();
        let in_lower = (0..puzzle.moves.len())
            .map(|m| {
                let mv = puzzle.mv(MoveId(m as u16));
                let step = lower.steps[mv.base];
                step < puzzle.base_moves[mv.base].order && mv.power.is_multiple_of(step)
            })
            .collect();
        let goal = (target.goals.len() > 1).then(|| {
            let positions = target
                .goals
                .iter()
                .enumerate()
                .map(|(i, g)| GoalPosition {
                    name: format!("picture {}", i + 1),
                    target: crate::puzzle::Target {
                        state: with_solved_sums(phase, split.position(g)),
                        ignore: phase.ignore.clone(),
                    },
                    line: 0,
                    classes: Vec::new(),
                })
                .collect();
            Arc::new(Goal { positions })
        });
        Phase {
            upper,
            lower,
            cosets,
            puzzle: split.puzzle.clone(),
            split,
            target,
            moves,
            in_lower,
            goal,
            parities: parities.clone(),
        }
    }

    /// `state`, a position of the puzzle, as a position of the phase.
    pub fn position(&self, state: &State) -> State {
        let state = self.parities.position(state);
        self.split.position(&self.target.relabelled(&state))
    }

    /// Whether `state` is in the lower group's picture.
    pub fn reached(&self, state: &State) -> bool {
        self.target.reached(&self.parities.position(state))
    }

    /// The puzzle's move a move of the phase is.
    pub fn translate(&self, m: MoveId) -> MoveId {
        self.moves[m.index()]
    }

    /// Whether `m`, a move of the puzzle, is a move of the lower group.
    pub fn in_lower(&self, m: MoveId) -> bool {
        self.in_lower[m.index()]
    }

    /// Bytes that key the phase's cached tables apart from the puzzle's and any other
    /// phase's.
    pub fn key_bytes(&self) -> Vec<u8> {
        format!(
            "\0chain phase {:?} -> {:?}",
            self.upper.steps, self.lower.steps
        )
        .into_bytes()
    }
}

/// `goal`, a goal picture of `phase`, with the twists where the phase's goal leaves them
/// free set so that each set's sum of twists is the solved state's: a picture shows no
/// twist there, and a search whose tables count twists by their sum (which the moves
/// keep) reads only goal positions of the solved sum.
fn with_solved_sums(phase: &Puzzle, mut goal: State) -> State {
    for (k, set) in phase.sets.iter().enumerate() {
        let n = u32::from(set.orientations);
        let Some(first) = phase.ignore[k].ori.iter().position(|&f| f) else {
            continue;
        };
        let sum = |s: &State| s.sets[k].ori.iter().map(|&o| u32::from(o)).sum::<u32>() % n;
        let delta = (sum(&phase.solved) + n - sum(&goal)) % n;
        let o = &mut goal.sets[k].ori[first];
        *o = ((u32::from(*o) + delta) % n) as u8;
    }
    goal
}
