//! Random positions: uniform ones for `RandomScramble` (through the group), and random
//! walks where the group cannot draw uniformly (puzzles with `Block`s, whose legal
//! positions are only part of the group's orbit, and puzzles too large for
//! [`crate::group::Group`]) or where a walk is what is asked (`ksolve stats --walk`).
//!
//! A walk moves from the solved state, each step a uniformly chosen move that the
//! `Block` rule allows in the current state. It reaches only reachable positions, which
//! is what ksolve+ promises. A walk of [`WALK_STEPS`] is not exactly uniform over the
//! reachable positions, but it is close on every puzzle small enough to solve optimally.

use crate::group::Group;
use crate::puzzle::{MoveId, Puzzle, State};
use crate::rng::Rng;

/// Steps of the walk that stands in for a uniform draw.
pub const WALK_STEPS: usize = 1000;

/// A random reachable position: [`WALK_STEPS`] random legal moves from solved.
pub fn random_state(puzzle: &Puzzle, rng: &mut Rng) -> State {
    random_walk(puzzle, rng, WALK_STEPS)
}

/// The position `steps` random legal moves make from solved (fewer when a position
/// allows no move at all).
pub fn random_walk(puzzle: &Puzzle, rng: &mut Rng, steps: usize) -> State {
    walk(puzzle, rng, steps, &[], |_| {})
}

/// The moves of a walk like [`random_walk`]'s over the moves `allowed` marks (per
/// move), for a scramble that is the walk itself.
pub fn random_walk_moves(
    puzzle: &Puzzle,
    rng: &mut Rng,
    steps: usize,
    allowed: &[bool],
) -> Vec<MoveId> {
    let mut moves = Vec::with_capacity(steps);
    walk(puzzle, rng, steps, allowed, |m| moves.push(m));
    moves
}

/// A walk of `steps` random legal moves (of those `allowed` marks; all when it is
/// empty) from solved, handing each move to `seen`.
fn walk(
    puzzle: &Puzzle,
    rng: &mut Rng,
    steps: usize,
    allowed: &[bool],
    mut seen: impl FnMut(MoveId),
) -> State {
    let mut state = puzzle.solved.clone();
    let mut next = state.clone();
    let mut legal = Vec::with_capacity(puzzle.moves.len());
    for _ in 0..steps {
        legal.clear();
        legal.extend(
            (0..puzzle.moves.len())
                .map(|m| MoveId(m as u16))
                .filter(|&m| allowed.get(m.index()) != Some(&false))
                .filter(|&m| puzzle.block_allows(&state, m)),
        );
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len() as u64) as usize];
        seen(m);
        state.then_into(&puzzle.mv(m).effect, &puzzle.sets, &mut next);
        std::mem::swap(&mut state, &mut next);
    }
    state
}

/// A position for `RandomScramble`: uniform over the reachable positions when the group
/// is known and has no blocks, else a long random walk of legal moves.
pub fn random_position(puzzle: &Puzzle, group: Option<&Group>, rng: &mut Rng) -> State {
    group
        .and_then(|g| g.random_state(rng))
        .unwrap_or_else(|| random_state(puzzle, rng))
}
