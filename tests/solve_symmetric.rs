//! Symmetric starts: when one solution is wanted, prefixes of the top of the tree that a
//! symmetry fixing the start carries onto earlier ones are left out
//! (`src/search/stabiliser.rs`). That must never change an optimal length: every
//! 3x3x3 position within four moves of solved that a symmetry fixes, and some deeper
//! symmetric patterns, are solved with `--count 1` and their lengths checked against a
//! breadth-first search (or the published optimum), with the solution replayed.

use crate::common::*;
use ksolve::progress::Silent;
use ksolve::puzzle::{MoveId, Puzzle, SolveSettings, State};
use ksolve::search::{SolveOptions, Solver};
use ksolve::storage::cache::TableCache;
use ksolve::symmetry::SymmetryGroup;
use ksolve::table::Tables;
use std::collections::HashMap;

fn cube() -> Puzzle {
    let root = env!("CARGO_MANIFEST_DIR");
    puzzle(&std::fs::read_to_string(format!("{root}/puzzles/3x3x3.def")).unwrap())
}

/// Every position within `depth` moves of solved, with its distance.
fn near(p: &Puzzle, depth: u32) -> HashMap<State, u32> {
    let mut seen = HashMap::from([(p.solved.clone(), 0)]);
    let mut layer = vec![p.solved.clone()];
    for d in 1..=depth {
        let mut next = Vec::new();
        for s in &layer {
            for m in 0..p.moves.len() {
                let t = p.apply_sequence(s, &[MoveId(m as u16)]);
                if !seen.contains_key(&t) {
                    seen.insert(t.clone(), d);
                    next.push(t);
                }
            }
        }
        layer = next;
    }
    seen
}

fn one(options: SolveOptions) -> SolveOptions {
    SolveOptions {
        count: Some(1),
        ..options
    }
}

#[test]
fn symmetric_positions_keep_their_optimal_lengths() {
    let p = cube();
    let group = SymmetryGroup::find(&p).unwrap();
    assert_eq!(group.order(), 48);
    let fixed_by = |s: &State| {
        group
            .elements()
            .iter()
            .filter(|g| !g.is_identity() && g.conjugate(s) == *s)
            .count()
    };
    let mut list: Vec<(State, u32, usize)> = near(&p, 4)
        .into_iter()
        .filter_map(|(s, d)| {
            let k = fixed_by(&s);
            (k > 0 && d > 0).then_some((s, d, k))
        })
        .collect();
    list.sort_by_key(|(_, d, k)| (*d, *k));
    assert!(list.len() > 50, "only {} symmetric positions", list.len());
    // Deeper patterns with known optimal lengths (half-turn metric): the checkerboard,
    // six spots, and the checkerboard's cousin of four faces.
    for (alg, len) in [
        ("R2 L2 U2 D2 F2 B2", 6),
        ("U D' R L' F B' U D'", 8),
        ("U2 D2 F2 B2", 4),
    ] {
        let list_of = scrambles(&p, &format!("ScrambleAlg pattern\n{alg}\nEnd\n"));
        let (s, _) = position(&p, &list_of[0]);
        let k = fixed_by(&s);
        assert!(k > 0, "{alg} is symmetric");
        list.push((s, len, k));
    }
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 160 << 20));
    let settings = SolveSettings::default();
    let mut cut = 0;
    for (s, d, k) in &list {
        let run = |solver: &mut Solver, options| {
            solver
                .solve(s, &[], &settings, options, &Silent, |_, _| {})
                .unwrap()
        };
        let a = run(&mut solver, one(SolveOptions::default()));
        assert_eq!(a.length, Some(*d), "fixed by {k}");
        assert_eq!(a.solutions.len(), 1);
        let end = p.apply_sequence(s, &a.solutions[0]);
        assert!(p.is_solved(&end, &[]), "the solution replays");
        assert_eq!(a.symmetric, *k, "every symmetry fixing the start is used");
        cut += 1;
        // Without symmetry, or with every solution wanted, nothing is left out.
        let b = run(
            &mut solver,
            one(SolveOptions {
                no_symmetry: true,
                ..SolveOptions::default()
            }),
        );
        assert_eq!(b.length, Some(*d));
        assert_eq!(b.symmetric, 0);
    }
    assert_eq!(cut, list.len());
    let all = solver
        .solve(
            &list[0].0,
            &[],
            &settings,
            SolveOptions::default(),
            &Silent,
            |_, _| {},
        )
        .unwrap();
    assert_eq!(all.symmetric, 0, "all solutions: every prefix is searched");
}
