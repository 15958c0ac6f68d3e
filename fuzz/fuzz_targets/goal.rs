//! Fuzz target for goal files (`--goal`) and the step puzzle made from them: the first
//! byte picks one of our puzzles, the rest is read as a goal file against it. No bytes
//! may panic; and when a goal of one position becomes a step puzzle (`solve::Step`),
//! the goal position itself, carried over, must be solved in the step, and the solved
//! state moved by any move must be carried over the same way whichever order the
//! relabelling and the move come in (the relabelling commutes with the moves).
#![no_main]

#[path = "shipped.rs"]
mod shipped;

use ksolve::def::parse_goal;
use ksolve::puzzle::Puzzle;
use ksolve::solve::Step;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const DEFS: [&str; 4] = [
    include_str!("../../puzzles/3x3x3_wca.def"),
    include_str!("../../puzzles/2x2x2.def"),
    include_str!("../../puzzles/4x4x4_centres.def"),
    include_str!("../../puzzles/pyraminx.def"),
];

/// The puzzles of `DEFS`, parsed at the first input.
static PUZZLES: OnceLock<Vec<Puzzle>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Some((puzzle, text)) = shipped::pick(&PUZZLES, &DEFS, data) else {
        return;
    };
    let goal = match parse_goal(text, "fuzz.txt", puzzle) {
        Ok(goal) => goal,
        Err(e) => return drop(e.to_string()),
    };
    let Some(step) = Step::new(puzzle, &goal) else {
        return;
    };
    let target = &goal.positions[0].target;
    let carried = step.position(&target.state);
    assert!(
        step.puzzle.is_solved(&carried, step.free()),
        "the goal position is not solved in its step"
    );
    for m in &puzzle.moves {
        let a = step.position(&target.state.then(&m.effect, &puzzle.sets));
        let b = carried.then(&m.effect, &puzzle.sets);
        assert_eq!(a, b, "relabelling and {} do not commute", m.name);
    }
});
