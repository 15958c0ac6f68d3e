//! Extra lookups of the pruning tables (at positions conjugated by a symmetry) must
//! never change an answer: every scramble here is solved with and without them, all
//! solutions within the scramble's Slack, and the solution lists must be identical.
//! The corpus covers self-symmetric positions, interchangeable pieces, `Block`, `?`
//! ignores with the definition's `Ignore`, and MoveLimits; the 3x3x3 runs under a small
//! memory budget so that its edges are split into tables that symmetries carry onto
//! other edges, which is where the probes are used.

use crate::common::*;
use ksolve::progress::Silent;
use ksolve::puzzle::{Puzzle, Scramble};
use ksolve::search::{Outcome, SolveOptions, Solver, Tuning};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;

fn shipped(name: &str) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::read_to_string(format!("{root}/{name}")).unwrap()
}

/// Solves every scramble with and without probes (one solver, so tables are built once)
/// and returns the outcomes side by side after checking they agree.
fn compare(p: &Puzzle, list: &[Scramble], budget: u64) -> Vec<(Outcome, Outcome)> {
    compare_adapted(p, list, budget).0
}

/// [`compare`], also returning the outcomes of the runs whose checks were chosen from
/// samples of every node.
fn compare_adapted(
    p: &Puzzle,
    list: &[Scramble],
    budget: u64,
) -> (Vec<(Outcome, Outcome)>, Vec<Outcome>) {
    let mut solver = Solver::new(p, Tables::new(TableCache::in_memory(), budget));
    let mut out = Vec::new();
    let mut adapted = Vec::new();
    for s in list {
        let (start, ignore) = position(p, s);
        let run = |solver: &mut Solver, options: SolveOptions| {
            solver
                .solve(&start, &ignore, &s.settings, options, &Silent, |_, _| {})
                .unwrap()
        };
        let a = run(&mut solver, SolveOptions::default());
        let b = run(
            &mut solver,
            SolveOptions {
                no_probes: true,
                ..SolveOptions::default()
            },
        );
        assert_eq!(a.status, b.status, "{}", s.name);
        assert_eq!(a.length, b.length, "{}", s.name);
        assert_same_solutions(p, &a.solutions, &b.solutions, &s.name);
        assert_eq!(b.probes, 0);
        // The checks chosen from samples (here every node is sampled, so that these
        // small searches adapt) and every check on every node: the same solutions.
        let sampled = Tuning {
            check_sampling: Some((1, 16)),
            ..Tuning::default()
        };
        let every = SolveOptions {
            all_checks: true,
            ..SolveOptions::default()
        };
        for (tuning, options) in [
            (sampled, SolveOptions::default()),
            (Tuning::default(), every),
        ] {
            solver.tune(tuning);
            let c = run(&mut solver, options);
            solver.tune(Tuning::default());
            assert_eq!(c.length, b.length, "{} {options:?}", s.name);
            assert_same_solutions(
                p,
                &c.solutions,
                &b.solutions,
                &format!("{} {options:?}", s.name),
            );
            if options.all_checks {
                assert!(c.checks.iter().all(|u| u.used && u.cuts.is_none()));
            } else {
                adapted.push(c);
            }
        }
        out.push((a, b));
    }
    (out, adapted)
}

/// Self-symmetric and ordinary 3x3x3 positions, with every optimal solution: the probes
/// are used (and cut nodes) and change nothing else.
#[test]
fn the_3x3x3_with_probes_finds_the_same_solutions() {
    let p = puzzle(&shipped("puzzles/3x3x3.def"));
    let text = "\
ScrambleAlg checkerboard
R2 L2 U2 D2 F2 B2
End
ScrambleAlg four spot
U2 D2 F B' L2 F B'
End
ScrambleAlg sexy sledge
R U R' U' R' F R F'
End
ScrambleAlg random seven
F L' D B2 R U' F2
End
ScrambleAlg mirrored pair
R U2 R' L' U2 L
End
Slack 1
ScrambleAlg with slack
F R U R' U' F'
End
";
    let list = scrambles(&p, text);
    // Under 98 MiB the twists of corners and edges stay two tables (with room, they
    // make one of 4.5 M entries, and these searches become too small to adapt).
    let (results, adapted) = compare_adapted(&p, &list, 98 << 20);
    // Sampled, the searches leave some checks out (the symmetry probes of six-edge
    // tables mostly cut what the tables already cut).
    assert!(
        adapted
            .iter()
            .any(|o| o.checks.iter().any(|c| c.cuts.is_some() && !c.used)),
        "{:?}",
        adapted.iter().map(|o| &o.checks).collect::<Vec<_>>()
    );
    let probed: u64 = results.iter().map(|(a, _)| a.nodes).sum();
    let plain: u64 = results.iter().map(|(_, b)| b.nodes).sum();
    assert!(results.iter().all(|(a, _)| a.probes > 0));
    assert!(
        probed < plain,
        "probes should cut nodes: {probed} with, {plain} without"
    );
}

/// `?` ignores within the definition's `Ignore`, with and without MoveLimits and
/// Slack (the shipped last-layer examples, less the ten-move T-perm, which is slow in a
/// debug build).
const LL: &str = "\
Slack 2
MoveLimits
D* 0
L* 0
B* 0
F* 2
End
Scramble Sune orientation, limited
CORNERS
?3 ?4 ?1 ?2 5 6 7 8
1 1 1 0 0 0 0 0
EDGES
? ? ? ? 5 6 7 8 9 10 11 12
0 0 0 0 0 0 0 0 0 0 0 0
End
Slack 0
MoveLimits
End
Scramble Sune orientation, any moves
CORNERS
?3 ?4 ?1 ?2 5 6 7 8
1 1 1 0 0 0 0 0
EDGES
? ? ? ? 5 6 7 8 9 10 11 12
0 0 0 0 0 0 0 0 0 0 0 0
End
";

/// `?` ignores, MoveLimits and Slack; Block; pieces of one colour interchangeable.
#[test]
fn ignores_limits_blocks_and_interchangeable_pieces_keep_their_solutions() {
    let p = puzzle(&shipped("puzzles/3x3x3_ll.def"));
    let results = compare(&p, &scrambles(&p, LL), 160 << 20);
    // Symmetries that do not keep the move limits are not used.
    assert_eq!(results[0].0.probes, 0);
    assert!(results[1].0.probes > 0);
    for (def, scr, budget) in [
        (
            "puzzles/3x3x3_bandaged.def",
            "scrambles/3x3x3_bandaged.txt",
            160u64 << 20,
        ),
        (
            "puzzles/4x4x4_centres.def",
            "scrambles/4x4x4_centres.txt",
            256 << 20,
        ),
    ] {
        let p = puzzle(&shipped(def));
        let list = scrambles(&p, &shipped(scr));
        compare(&p, &list, budget);
    }
}
