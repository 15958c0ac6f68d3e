//! Fuzz target for the scramble reader: the first byte picks one of our puzzles (with an
//! Ignore, a Block, interchangeable pieces, directed moves), the rest is read as a
//! scramble file against it. No bytes may panic, and every position read must print
//! (`format_state`) to a scramble that reads back to the same state.
#![no_main]

#[path = "shipped.rs"]
mod shipped;

use ksolve::def::{format_state, parse_scrambles};
use ksolve::puzzle::{Puzzle, ScrambleSource};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const DEFS: [&str; 5] = [
    include_str!("../../puzzles/3x3x3_ll.def"),
    include_str!("../../puzzles/3x3x3_bandaged.def"),
    include_str!("../../puzzles/4x4x4_centres.def"),
    include_str!("../../puzzles/2x2x2_directed.def"),
    include_str!("../../puzzles/pyraminx.def"),
];

/// The puzzles of `DEFS`, parsed at the first input.
static PUZZLES: OnceLock<Vec<Puzzle>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Some((puzzle, text)) = shipped::pick(&PUZZLES, &DEFS, data) else {
        return;
    };
    match parse_scrambles(text, "fuzz.txt", puzzle) {
        Ok(scrambles) => {
            for s in scrambles {
                if let ScrambleSource::Position(target) = &s.source {
                    let printed =
                        format!("Scramble x\n{}End\n", format_state(puzzle, &target.state));
                    let back = parse_scrambles(printed.as_bytes(), "printed.txt", puzzle)
                        .unwrap_or_else(|e| panic!("printed position refused: {e}\n{printed}"));
                    let ScrambleSource::Position(t) = &back[0].source else {
                        panic!("printed position read as something else")
                    };
                    assert_eq!(t.state, target.state);
                }
            }
        }
        Err(e) => drop(e.to_string()),
    }
});
