//! Answer first: when the planned pruning tables have much to build, the search first
//! tries tables planned in a smaller budget, with a node budget, and builds the planned
//! ones only when the trial gives up. Either way the answer is the same as a search
//! that built them first: the same optimal length and the same solutions in order.

use crate::common::*;
use ksolve::progress::Progress;
use ksolve::search::{SolveOptions, Solver, Tuning};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::sync::Mutex;

/// A progress that keeps the notes it is given.
#[derive(Default)]
struct Notes(Mutex<Vec<String>>);

impl Progress for Notes {
    fn note(&self, message: &str) {
        self.0.lock().unwrap().push(message.to_string());
    }
}

const SCRAMBLES: &str = "\
Slack 1
ScrambleAlg near
R U F'
End
ScrambleAlg far
R U F' R2 U' F R U2 F2
End
QTM
ScrambleAlg quarter
R U' F R'
End
";

/// The shipped 2x2x2.
fn cube2() -> ksolve::puzzle::Puzzle {
    let def = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/2x2x2.def"),
    )
    .unwrap();
    puzzle(&def)
}

/// A solver with tables in memory, its trials forced to `trial` nodes when given.
fn solver(p: &ksolve::puzzle::Puzzle, trial: Option<u64>) -> Solver<'_> {
    let mut solver = Solver::new(p, Tables::new(TableCache::in_memory(), 256 << 20));
    solver.tune(Tuning {
        trial_nodes: trial,
        ..Tuning::default()
    });
    solver
}

/// Solves `s` with `solver`, keeping the notes it gives.
fn solve_noting(
    solver: &mut Solver<'_>,
    p: &ksolve::puzzle::Puzzle,
    s: &ksolve::puzzle::Scramble,
) -> (ksolve::search::Outcome, Vec<String>) {
    let (start, ignore) = position(p, s);
    let notes = Notes::default();
    let o = solver
        .solve(
            &start,
            &ignore,
            &s.settings,
            SolveOptions::default(),
            &notes,
            |_, _| {},
        )
        .unwrap();
    (o, notes.0.into_inner().unwrap())
}

#[test]
fn a_trial_in_small_tables_changes_no_answer() {
    let p = cube2();
    let list = scrambles(&p, SCRAMBLES);
    let (mut in_trial, mut built_after) = (0, 0);
    for s in &list {
        // A new solver each time, so that no table is built beforehand.
        let run = |trial: Option<u64>| solve_noting(&mut solver(&p, trial), &p, s);
        // The 2x2x2's planned table (3.7 M entries) is below the size that waits for a
        // trial, so the plain run builds it first.
        let (plain, notes) = run(None);
        assert!(
            !notes.iter().any(|n| n.contains("small tables")),
            "{notes:?}"
        );
        for trial in [0, 1 << 40] {
            let (o, notes) = run(Some(trial));
            let what = format!("{} (trial of {trial} nodes)", s.name);
            assert!(
                notes
                    .iter()
                    .any(|n| n.contains("searching first with small tables")),
                "{what}: {notes:?}"
            );
            assert_eq!(o.status, plain.status, "{what}");
            assert_eq!(o.length, plain.length, "{what}");
            assert_same_solutions(&p, &o.solutions, &plain.solutions, &what);
            if notes
                .iter()
                .any(|n| n.contains("building the planned tables"))
            {
                built_after += 1;
            } else {
                in_trial += 1;
            }
        }
    }
    // The large node budget never gives up; the empty one gives up at the first bound
    // without a solution (the far scramble's small tables bound it below its length).
    assert!(in_trial >= list.len(), "{in_trial}");
    assert!(built_after > 0, "no trial gave up");
}

/// After `Solver::build_tables` (what `ksolve tables build` does), nothing waits for a
/// trial: the same forced trial that runs on a fresh solver is not announced.
#[test]
fn built_tables_leave_nothing_to_try_first() {
    let p = cube2();
    let list = scrambles(&p, SCRAMBLES);
    let s = &list[1];
    for build in [false, true] {
        let mut solver = solver(&p, Some(0));
        if build {
            solver
                .build_tables(s.settings.metric, false, &ksolve::progress::Silent)
                .unwrap();
        }
        let (o, notes) = solve_noting(&mut solver, &p, s);
        assert_eq!(o.solutions[0].len(), 9);
        let tried = notes.iter().any(|n| n.contains("searching first"));
        assert_eq!(tried, !build, "built first: {build}, notes {notes:?}");
    }
}
