//! One phase of a chain as a puzzle of its own ([`Phase`]): its moves are the
//! generators of the upper group (each with its powers, `R2` a move of order 2), its
//! solved state is the lower group's [`Target`], so the table planner, the cache and the
//! search treat it like any definition. Its solutions are translated back into the
//! puzzle's own moves. A target of several goal pictures makes the phase's goal
//! ([`Phase::goal`]): the phase's solved state closed under the lower group's moves,
//! which the search and its tables take as they take any goal.

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
    /// The phase puzzle's goal when the target has several pictures: its solved state
    /// and everything the lower group's moves reach from it (`None`: its solved state
    /// alone).
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
        // A goal of several pictures may lie in how pieces of two orbits sit together
        // (pairs the lower group moves as one): such orbits share a set.
        let lower_gens = match target.goals {
            1 => Vec::new(),
            _ => lower.generators(puzzle),
        };
        let split = Split::linked(
            puzzle,
            &gens,
            &lower_gens,
            &solved,
            &target.free,
            |k, slots| {
                slots
                    .iter()
                    .any(|&i| upper_free[k].ori[i] && !target.free[k].ori[i])
            },
        );
        let phase = &split.puzzle;
        // Phase move `g^j` is the puzzle's base move to the power `step * j`.
        let moves: Vec<MoveId> = phase
            .moves
            .iter()
            .map(|m| {
                let g = puzzle.mv(gens[m.base]);
                let base = &puzzle.base_moves[g.base];
                let power = (g.power * m.power) % base.order.max(1);
                base.powers[power as usize - 1]
            })
            .collect();
        let in_lower: Vec<bool> = (0..puzzle.moves.len())
            .map(|m| {
                let mv = puzzle.mv(MoveId(m as u16));
                let step = lower.steps[mv.base];
                step < puzzle.base_moves[mv.base].order && mv.power.is_multiple_of(step)
            })
            .collect();
        // The lower group's moves keep the picture's free twists among themselves
        // (a twist is kept or left free for a whole orbit of the lower group), as a
        // closed goal needs.
        let goal = (target.goals > 1).then(|| {
            let within = (0..phase.moves.len())
                .map(|m| MoveId(m as u16))
                .filter(|&m| in_lower[moves[m.index()].index()])
                .collect();
            let solved = GoalPosition {
                name: "solved picture".to_string(),
                target: crate::puzzle::Target {
                    state: phase.solved.clone(),
                    ignore: phase.ignore.clone(),
                },
                line: 0,
                classes: Vec::new(),
            };
            Arc::new(Goal::closed(vec![solved], within))
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

    /// Whether `state` is in the lower group's picture: the phase's goal holds it.
    pub fn reached(&self, state: &State) -> bool {
        match &self.goal {
            Some(g) => g
                .reached_by(&self.puzzle, &self.position(state), &[])
                .is_some(),
            None => self.puzzle.is_solved(&self.position(state), &[]),
        }
    }

    /// The picture of the lower group the phase ends in.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// How many pictures the phase's goal holds: 1, or every picture the lower group
    /// shows when the picture had to be refined.
    pub fn goal_pictures(&self) -> u64 {
        self.target.goals
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
