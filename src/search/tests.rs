//! Known answers of the search on puzzles built in code.

use super::*;
use crate::progress::Silent;
use crate::puzzle::SolveSettings;
use crate::table::cache::TableCache;
use crate::table::testing::{cube2, transform};

fn solver(p: &Puzzle) -> Solver<'_> {
    Solver::new(p, Tables::new(TableCache::in_memory(), 1 << 30))
}

fn lengths(o: &Outcome) -> Vec<usize> {
    o.solutions.iter().map(|s| s.len()).collect()
}

/// ksolve+'s 2x2x2 sample: the "2-flip" has 12 optimal solutions of 10 moves, the
/// inverse J permutation 20 of 10 moves.
#[test]
fn cube2_samples_match_ksolve() {
    let p = cube2();
    let mut s = solver(&p);
    let twist = transform(&[(&[1, 2, 3, 4, 5, 6, 7], &[2, 0, 1, 0, 0, 0, 0])]);
    let o = s
        .solve(
            &twist,
            &[],
            &SolveSettings::default(),
            SolveOptions::default(),
            &Silent,
            |_, _| {},
        )
        .unwrap();
    assert_eq!(o.status, Status::Solved);
    assert_eq!(lengths(&o), vec![10; 12]);
    let names = "R U R' F' R U R' U' R' F R2 U' R' U'";
    let alg: Vec<MoveId> = names
        .split(' ')
        .map(|n| p.move_by_name(n).unwrap())
        .collect();
    let jperm = p.apply_sequence(&p.solved, &alg);
    let o = s
        .solve(
            &jperm,
            &[],
            &SolveSettings::default(),
            SolveOptions::default(),
            &Silent,
            |_, _| {},
        )
        .unwrap();
    assert_eq!(lengths(&o), vec![10; 20]);
    let o = s
        .solve(
            &p.solved,
            &[],
            &SolveSettings::default(),
            SolveOptions::default(),
            &Silent,
            |_, _| {},
        )
        .unwrap();
    assert_eq!(o.solutions, vec![Vec::<MoveId>::new()]);
}

/// `--count` keeps the first solutions of the full list, in its order, even though
/// the prefixes are searched in parallel and late ones stop early.
#[test]
fn count_keeps_the_first_solutions_in_order() {
    let p = cube2();
    let mut s = solver(&p);
    let names = "R U R' F' R U R' U' R' F R2 U' R' U'";
    let alg: Vec<MoveId> = names
        .split(' ')
        .map(|n| p.move_by_name(n).unwrap())
        .collect();
    let start = p.apply_sequence(&p.solved, &alg);
    let settings = SolveSettings {
        slack: 1,
        ..SolveSettings::default()
    };
    let all = s
        .solve(
            &start,
            &[],
            &settings,
            SolveOptions::default(),
            &Silent,
            |_, _| {},
        )
        .unwrap();
    assert!(all.solutions.len() > 20);
    for n in [1, 5, 20, 21] {
        let some = s
            .solve(
                &start,
                &[],
                &settings,
                SolveOptions {
                    count: Some(n),
                    ..Default::default()
                },
                &Silent,
                |_, _| {},
            )
            .unwrap();
        assert_eq!(some.solutions, all.solutions[..n]);
    }
}
