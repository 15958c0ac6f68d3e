//! One phase of a chain as a puzzle of its own ([`Phase`]): its moves are the
//! generators of the upper group (each with its powers, `R2` a move of order 2), its
//! solved state is the lower group's [`Target`], so the table planner, the cache and the
//! search treat it like any definition. Its solutions are translated back into the
//! puzzle's own moves.

use super::split::Split;
use super::{Subgroup, Target};
use crate::group::BigUint;
use crate::puzzle::{MoveId, Puzzle, State};

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
}

impl Phase {
    /// The phase from `upper` down to `lower`, with its picture and coset count.
    pub fn new(
        puzzle: &Puzzle,
        upper: Subgroup,
        lower: Subgroup,
        target: Target,
        cosets: BigUint,
    ) -> Phase {
        let gens = upper.generators(puzzle);
        // Where the upper group keeps orientation, every position of the phase has it
        // solved: such parts are searched without it.
        let upper_free = Target::of(puzzle, &gens).free;
        let split = Split::new(puzzle, &gens, &target.state, &target.free, |k, slots| {
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
        Phase {
            upper,
            lower,
            cosets,
            puzzle: split.puzzle.clone(),
            split,
            target,
            moves,
            in_lower,
        }
    }

    /// `state`, a position of the puzzle, as a position of the phase.
    pub fn position(&self, state: &State) -> State {
        self.split.position(&self.target.picture(state))
    }

    /// Whether `state` is in the lower group's picture.
    pub fn reached(&self, state: &State) -> bool {
        self.target.reached(state)
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
