//! Random positions for `RandomScramble` where the group cannot draw uniformly (puzzles
//! with `Block`s, whose legal positions are only part of the group's orbit, and puzzles
//! too large for [`crate::group::Group`]): a long random walk from the solved state,
//! each step a uniformly chosen move that the `Block` rule allows in the current state.
//!
//! A walk reaches only reachable positions, which is what ksolve+ promises. It is not
//! exactly uniform over the reachable positions, but after this many steps it is close
//! on every puzzle small enough to solve optimally.

use crate::puzzle::{MoveId, Puzzle, State};
use crate::rng::Rng;

/// Steps of the walk.
pub const WALK_STEPS: usize = 1000;

/// A random reachable position: [`WALK_STEPS`] random legal moves from solved.
pub fn random_state(puzzle: &Puzzle, rng: &mut Rng) -> State {
    let mut state = puzzle.solved.clone();
    let mut next = state.clone();
    let mut legal = Vec::with_capacity(puzzle.moves.len());
    for _ in 0..WALK_STEPS {
        legal.clear();
        legal.extend(
            (0..puzzle.moves.len())
                .map(|m| MoveId(m as u16))
                .filter(|&m| puzzle.block_allows(&state, m)),
        );
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len() as u64) as usize];
        state.then_into(&puzzle.mv(m).effect, &puzzle.sets, &mut next);
        std::mem::swap(&mut state, &mut next);
    }
    state
}
