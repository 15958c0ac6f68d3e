//! Small puzzles built with `Puzzle::new`, shared by the unit tests of the tables and
//! the search, so that they need no definition parser.

use crate::puzzle::{IgnoreMask, Puzzle, SetDef, SetState, Transform};

/// A transform from 1-based ksolve+ numbers, set by set in the puzzle's set order
/// (an empty orientation list means all zeros).
pub fn transform(parts: &[(&[u16], &[u8])]) -> Transform {
    Transform {
        sets: parts
            .iter()
            .map(|(perm, ori)| SetState {
                perm: perm.iter().map(|p| p - 1).collect(),
                ori: if ori.is_empty() {
                    vec![0; perm.len()]
                } else {
                    ori.to_vec()
                },
            })
            .collect(),
    }
}

/// A puzzle from its sets `(name, size, orientations)` and moves in file form.
pub fn puzzle(name: &str, sets: &[(&str, usize, u8)], moves: Vec<(&str, Transform)>) -> Puzzle {
    let sets: Vec<SetDef> = sets
        .iter()
        .map(|&(n, size, orientations)| SetDef {
            name: n.into(),
            size,
            orientations,
        })
        .collect();
    let ignore = sets
        .iter()
        .map(|s| IgnoreMask {
            perm: vec![false; s.size],
            ori: vec![false; s.size],
        })
        .collect();
    let solved = Transform::identity(&sets);
    Puzzle::new(
        Some(name.into()),
        sets,
        solved,
        moves
            .into_iter()
            .map(|(n, t)| (n.to_string(), t, false))
            .collect(),
        ignore,
        vec![],
    )
}

/// A 2x2x2 turned by U, R and F (the down-back-left corner stays put), numbered for
/// these tests: 1 UFR, 2 UFL, 3 UBL, 4 UBR, 5 DFR, 6 DFL, 7 DBR; twists by source
/// position, ksolve+'s file convention.
pub fn cube2() -> Puzzle {
    puzzle(
        "2x2x2",
        &[("CORNERS", 7, 3)],
        vec![
            ("U", transform(&[(&[4, 1, 2, 3, 5, 6, 7], &[])])),
            (
                "R",
                transform(&[(&[5, 2, 3, 1, 7, 6, 4], &[1, 0, 0, 2, 2, 0, 1])]),
            ),
            (
                "F",
                transform(&[(&[2, 6, 3, 4, 1, 5, 7], &[2, 1, 0, 0, 1, 2, 0])]),
            ),
        ],
    )
}
