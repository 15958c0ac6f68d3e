//! A symmetry-reduced pruning table must never change an answer: every scramble here is
//! solved with it and without it (`no_symmetry`), all solutions within the scramble's
//! Slack, and the solution lists must be identical. The corpus covers self-symmetric
//! positions (every edge flipped, every centre twisted), interchangeable pieces, `Block`,
//! `?` ignores within the definition's `Ignore`, MoveLimits and both metrics; a scramble
//! file's goal, for which the table (built for the definition's goal) does not hold, must
//! go without it.

use crate::common::*;
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, Puzzle, Scramble};
use ksolve::search::{Outcome, SolveOptions, Solver, Tuning};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;

fn shipped(name: &str) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::read_to_string(format!("{root}/{name}")).unwrap()
}

/// The solvers' budget: room for the reduced table but not for one ordinary table of
/// the whole (wide) Pyraminx, 44 M entries, which the planner would merge its two
/// tables into where the budget holds it, leaving nothing to reduce.
const BUDGET: u64 = 48 << 20;

/// `p` ranked as though every set's pieces could go anywhere in it. The Pyraminx's
/// centres only twist in place, so ranked orbit by orbit its whole puzzle fits one
/// ordinary table (1.9 M entries) and no reduced table is planned; seen whole, the
/// centres' positions make the ordinary tables partial, as a large puzzle's are, and
/// the reduced table these tests are about is planned beside them.
fn wide(mut p: Puzzle) -> Puzzle {
    p.orbits = p.sets.iter().map(|s| vec![(0..s.size).collect()]).collect();
    p
}

/// Solves every scramble with and without the reduced table and checks that they
/// agree; returns the outcomes side by side.
fn compare(p: &Puzzle, list: &[Scramble]) -> Vec<(Outcome, Outcome)> {
    compare_with(p, list, Tuning::default(), BUDGET)
}

/// [`compare`] with the solver's tables tuned by `base` (two-bit entries).
fn compare_with(
    p: &Puzzle,
    list: &[Scramble],
    base: Tuning,
    budget: u64,
) -> Vec<(Outcome, Outcome)> {
    let mut solver = Solver::new(p, Tables::new(TableCache::in_memory(), budget));
    solver.tune(base);
    let mut out = Vec::new();
    for s in list {
        let (start, ignore) = position(p, s);
        let run = |solver: &mut Solver, no_symmetry: bool, no_probes: bool| {
            let options = SolveOptions {
                no_symmetry,
                no_probes,
                ..SolveOptions::default()
            };
            solver
                .solve(&start, &ignore, &s.settings, options, &Silent, |_, _| {})
                .unwrap()
        };
        let a = run(&mut solver, false, true);
        let b = run(&mut solver, true, true);
        assert_eq!(a.status, b.status, "{}", s.name);
        assert_eq!(a.length, b.length, "{}", s.name);
        assert_same_solutions(p, &a.solutions, &b.solutions, &s.name);
        assert!(!b.reduced);
        // With probes: the reduced table is also looked up at conjugates it does not
        // absorb, and the ordinary tables at theirs; still the same solutions.
        let c = run(&mut solver, false, false);
        assert_eq!(c.status, b.status, "{} with probes", s.name);
        assert_eq!(c.length, b.length, "{} with probes", s.name);
        assert_same_solutions(
            p,
            &c.solutions,
            &b.solutions,
            &format!("{} with probes", s.name),
        );
        // With the checks chosen from a sample of every node, so that these small
        // searches adapt: which of the tables, probes and inverse lookups are made, and
        // in what order, never changes a solution.
        solver.tune(Tuning {
            check_sampling: Some((1, 64)),
            ..base
        });
        let d = solver
            .solve(
                &start,
                &ignore,
                &s.settings,
                SolveOptions::default(),
                &Silent,
                |_, _| {},
            )
            .unwrap();
        solver.tune(base);
        assert_eq!(d.length, b.length, "{} adapted", s.name);
        assert_same_solutions(
            p,
            &d.solutions,
            &b.solutions,
            &format!("{} adapted", s.name),
        );
        out.push((a, b));
    }
    out
}

const PYRAMINX: &str = "\
Scramble every edge flipped
EDGES
1 2 3 4 5 6
1 1 1 1 1 1
CENTERS
1 2 3 4
0 0 0 0
End
Scramble every centre twisted
EDGES
1 2 3 4 5 6
0 0 0 0 0 0
CENTERS
1 2 3 4
1 1 1 1
End
Scramble both
EDGES
1 2 3 4 5 6
1 1 1 1 1 1
CENTERS
1 2 3 4
2 2 2 2
End
ScrambleAlg random eight
U L' R B U' R' L B'
End
ScrambleAlg random nine
R B' U L R' U' B L' R
End
Slack 1
ScrambleAlg with slack
U R' L B
End
Slack 0
MoveLimits
B* 0
End
ScrambleAlg without B
U R L' U' R' L
End
";

/// Self-symmetric and ordinary Pyraminx positions, with move limits and slack, in both
/// metrics: the reduced table is used and cuts nodes, and changes nothing else.
#[test]
fn the_pyraminx_with_a_reduced_table_finds_the_same_solutions() {
    let p = wide(puzzle(&shipped("puzzles/pyraminx.def")));
    let results = compare(&p, &scrambles(&p, PYRAMINX));
    assert!(results.iter().all(|(a, _)| a.reduced));
    let with: u64 = results.iter().map(|(a, _)| a.nodes).sum();
    let without: u64 = results.iter().map(|(_, b)| b.nodes).sum();
    assert!(with < without, "{with} nodes against {without}");
    let qtm = PYRAMINX.replace("Slack 1\n", "Slack 1\nQTM\n");
    let results = compare(&p, &scrambles(&p, &qtm));
    assert!(results.iter().all(|(a, _)| a.reduced));
}

/// The same with the reduced table at two bits per entry (which only tables too large
/// for four get by default): entries below its last layers bound nothing, the others
/// as much as before, and no solution changes.
#[test]
fn a_two_bit_reduced_table_finds_the_same_solutions() {
    let p = wide(puzzle(&shipped("puzzles/pyraminx.def")));
    let two = Tuning {
        two_bit_tables: true,
        ..Tuning::default()
    };
    for text in [
        PYRAMINX.to_string(),
        PYRAMINX.replace("Slack 1\n", "Slack 1\nQTM\n"),
    ] {
        let results = compare_with(&p, &scrambles(&p, &text), two, BUDGET);
        assert!(results.iter().all(|(a, _)| a.reduced));
    }
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), BUDGET));
    solver.tune(two);
    let s = &scrambles(&p, PYRAMINX)[3];
    let (start, ignore) = position(&p, s);
    let solve = |solver: &mut Solver| {
        let options = SolveOptions::default();
        solver
            .solve(&start, &ignore, &s.settings, options, &Silent, |_, _| {})
            .unwrap()
    };
    let a = solve(&mut solver);
    assert!(a.reduced);
    let t = solver.reduced_table(Metric::Htm).unwrap();
    assert_eq!(t.table.table.format, ksolve::table::prune::Format::Crumbs);
    // Written to the cache folder and read back: the same table, the same answer.
    let dir = tempfile::tempdir().unwrap();
    let def = shipped("puzzles/pyraminx.def");
    let open = || {
        let cache = TableCache::open(
            Some(dir.path().to_path_buf()),
            std::path::Path::new("pyraminx.def"),
            "pyraminx",
            def.as_bytes(),
            &Silent,
        );
        let mut solver = Solver::new(&p, Tables::new(cache, BUDGET));
        solver.tune(two);
        solver
    };
    // The reduced table's file, and when it was written: a file that did not load would
    // be rebuilt (silently here) and written again.
    let written = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name().to_string_lossy().contains(".st-"))
            .map(|e| (e.file_name(), e.metadata().unwrap().modified().unwrap()))
            .collect::<Vec<_>>()
    };
    let mut first = None;
    for _ in 0..2 {
        let mut solver = open();
        let b = solve(&mut solver);
        assert_eq!(b.length, a.length);
        assert_same_solutions(&p, &b.solutions, &a.solutions, "from the cache");
        let u = solver.reduced_table(Metric::Htm).unwrap();
        assert_eq!(u.table.table.format, ksolve::table::prune::Format::Crumbs);
        assert_eq!(u.table.table.raw(), t.table.table.raw());
        assert_eq!(u.table.table.fallback(), t.table.table.fallback());
        assert!(u.table.table.fallback().is_some());
        let now = written();
        assert_eq!(now.len(), 1);
        assert_eq!(
            first.get_or_insert(now.clone()),
            &now,
            "loaded, not rebuilt"
        );
    }
    assert!(std::fs::read_dir(dir.path()).unwrap().any(|e| e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .contains(".st-")));
}

/// Interchangeable pieces (opposite edges alike, which every symmetry keeps), a `Block`
/// (which only some symmetries keep) and `?` ignores within the definition's `Ignore`.
#[test]
fn interchangeable_pieces_blocks_and_ignores_keep_their_solutions() {
    let def = shipped("puzzles/pyraminx.def");
    // Stickers would tell the alike edges apart: the variant goes without them.
    let plain = match def.find("\nStickers") {
        Some(i) => def[..i].to_string() + "\n",
        None => def.clone(),
    };
    let alike = plain.replacen("EDGES\n1 2 3 4 5 6\n", "EDGES\n1 2 3 3 1 2\n", 1);
    assert_ne!(alike, def);
    let p = wide(puzzle(&alike));
    // Alike edges make the whole puzzle 5.6 M entries: under 8 MiB it stays two tables.
    let results = compare_with(
        &p,
        &scrambles(&p, &PYRAMINX.replace("1 2 3 4 5 6", "1 2 3 3 1 2")),
        Tuning::default(),
        8 << 20,
    );
    assert!(results.iter().all(|(a, _)| a.reduced));

    let blocked = format!("{def}\nBlock\nEDGES\n1\nCENTERS\n1\nEnd\n");
    let p = wide(puzzle(&blocked));
    let list = "\
ScrambleAlg blocked
R B' R' B U
End
ScrambleAlg blocked two
B R' B R U'
End
";
    let results = compare(&p, &scrambles(&p, list));
    assert!(results.iter().all(|(a, _)| a.reduced));

    let ignoring = format!("{def}\nIgnore\nCENTERS\n0 0 0 0\n1 1 0 0\nEnd\n");
    let p = wide(puzzle(&ignoring));
    let list = "\
Scramble twists ignored
EDGES
1 2 3 4 5 6
1 1 0 0 1 1
CENTERS
1 2 3 4
? ? 1 2
End
ScrambleAlg not ignored
U L R' B U'
End
";
    let results = compare(&p, &scrambles(&p, list));
    assert!(results.iter().all(|(a, _)| a.reduced));
}

/// A scramble file's goal: the table holds distances to the definition's `Solved`, so
/// the search goes without it, and answers as before.
#[test]
fn a_goal_goes_without_the_reduced_table() {
    let p = wide(puzzle(&shipped("puzzles/pyraminx.def")));
    let list = "\
Goal
EDGES
2 3 1 4 5 6
0 1 1 0 0 0
CENTERS
1 2 3 4
1 0 0 0
End
ScrambleAlg to the goal
L R' B
End
";
    let results = compare(&p, &scrambles(&p, list));
    assert!(results.iter().all(|(a, _)| !a.reduced));
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), BUDGET));
    let s = &scrambles(&p, PYRAMINX)[3];
    let (start, ignore) = position(&p, s);
    let options = SolveOptions::default();
    let a = solver
        .solve(&start, &ignore, &s.settings, options, &Silent, |_, _| {})
        .unwrap();
    assert!(a.reduced);
    let t = solver.reduced_table(Metric::Htm).unwrap();
    assert_eq!(t.plan.syms.len(), 24);
}

/// A reduced table not built yet may wait for a trial search without it: a trial that
/// solves answers without the table, a trial that gives up builds it and searches again,
/// and neither changes a solution or the count of them (both metrics, Slack, limits).
#[test]
fn a_trial_without_the_reduced_table_changes_no_answer() {
    let p = wide(puzzle(&shipped("puzzles/pyraminx.def")));
    for text in [
        PYRAMINX.to_string(),
        PYRAMINX.replace("Slack 1\n", "Slack 1\nQTM\n"),
    ] {
        let list = scrambles(&p, &text);
        let (mut solved_in_trial, mut built_after) = (0, 0);
        for s in &list {
            let (start, ignore) = position(&p, s);
            let run = |trial: Option<u64>, no_symmetry: bool| {
                // A new solver each time, so that the table is never built beforehand.
                let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), BUDGET));
                solver.tune(Tuning {
                    trial_nodes: trial,
                    ..Tuning::default()
                });
                let options = SolveOptions {
                    no_symmetry,
                    ..SolveOptions::default()
                };
                solver
                    .solve(&start, &ignore, &s.settings, options, &Silent, |_, _| {})
                    .unwrap()
            };
            let plain = run(None, true);
            for trial in [0, 1 << 40] {
                let o = run(Some(trial), false);
                assert_eq!(o.status, plain.status, "{} (trial of {trial})", s.name);
                assert_eq!(o.length, plain.length, "{} (trial of {trial})", s.name);
                assert_same_solutions(
                    &p,
                    &o.solutions,
                    &plain.solutions,
                    &format!("{} (trial of {trial} nodes)", s.name),
                );
                if o.reduced {
                    built_after += 1;
                } else {
                    solved_in_trial += 1;
                }
            }
        }
        // The large budget never gives up; the empty one gives up wherever the first
        // bound has no solution, which these scrambles' do not.
        assert!(solved_in_trial >= list.len(), "{solved_in_trial}");
        assert!(built_after > 0, "no trial gave up");
    }
}

/// Every check made on every node (the reduced table's, at the inverse too): the same
/// solutions as without any probe.
#[test]
fn every_check_on_every_node_changes_no_answer() {
    let p = wide(puzzle(&shipped("puzzles/pyraminx.def")));
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), BUDGET));
    for s in &scrambles(&p, PYRAMINX) {
        let (start, ignore) = position(&p, s);
        let mut run = |options: SolveOptions| {
            solver
                .solve(&start, &ignore, &s.settings, options, &Silent, |_, _| {})
                .unwrap()
        };
        let every = run(SolveOptions {
            all_checks: true,
            ..SolveOptions::default()
        });
        let plain = run(SolveOptions {
            no_probes: true,
            ..SolveOptions::default()
        });
        assert!(every.reduced, "{}", s.name);
        assert_eq!(every.length, plain.length, "{}", s.name);
        assert_same_solutions(&p, &every.solutions, &plain.solutions, &s.name);
        assert!(
            every
                .checks
                .iter()
                .any(|c| c.used && c.name.ends_with("at the inverse")),
            "{}: {:?}",
            s.name,
            every.checks
        );
    }
}

/// The 3x3x3 under 128 MiB gets a reduced table whose goal U and D keep (which corners
/// lie in the U layer, their twists, the flips): the tight-bound rule applies. With it,
/// without it, and without the reduced table at all, every lookup made on every node:
/// the same solutions (slack, move limits and symmetric positions included), and the
/// rule cuts nodes.
#[test]
fn the_tight_bound_rule_changes_no_answer_and_cuts_nodes() {
    let p = puzzle(&shipped("puzzles/3x3x3.def"));
    let text = "\
ScrambleAlg checkerboard
R2 L2 U2 D2 F2 B2
End
ScrambleAlg random seven
F L' D B2 R U' F2
End
ScrambleAlg random eight
R' D2 F U' L B' D R2
End
ScrambleAlg six spot
U D' R L' F B' U D'
End
Slack 1
ScrambleAlg with slack
F R U R' U' F'
End
Slack 0
MoveLimits
B* 0
End
ScrambleAlg without B
U R F' L D' R' U2
End
";
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 128 << 20));
    let (mut with, mut without) = (0u64, 0u64);
    for s in &scrambles(&p, text) {
        let (start, ignore) = position(&p, s);
        let mut run = |tuning: Tuning, options: SolveOptions| {
            solver.tune(tuning);
            solver
                .solve(&start, &ignore, &s.settings, options, &Silent, |_, _| {})
                .unwrap()
        };
        let every = SolveOptions {
            all_checks: true,
            ..SolveOptions::default()
        };
        let tight = run(Tuning::default(), every);
        let loose = run(
            Tuning {
                no_tight: true,
                ..Tuning::default()
            },
            every,
        );
        let plain = run(
            Tuning::default(),
            SolveOptions {
                no_symmetry: true,
                ..SolveOptions::default()
            },
        );
        assert!(
            tight.reduced && loose.reduced && !plain.reduced,
            "{}",
            s.name
        );
        assert_eq!(tight.length, plain.length, "{}", s.name);
        assert_same_solutions(&p, &tight.solutions, &plain.solutions, &s.name);
        assert_same_solutions(&p, &loose.solutions, &plain.solutions, &s.name);
        with += tight.nodes;
        without += loose.nodes;
    }
    assert!(
        with < without,
        "{with} nodes with the rule, {without} without"
    );
}
