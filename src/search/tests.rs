//! Known answers of the search on puzzles built in code.

use super::*;
use crate::progress::Silent;
use crate::puzzle::SolveSettings;
use crate::storage::cache::TableCache;
use crate::table::testing::{cube2, transform};
use std::sync::atomic::Ordering::Relaxed;

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
                    ..SolveOptions::default()
                },
                &Silent,
                |_, _| {},
            )
            .unwrap();
        assert_eq!(some.solutions, all.solutions[..n]);
    }
}

fn jperm(p: &Puzzle) -> State {
    let names = "R U R' F' R U R' U' R' F R2 U' R' U'";
    let alg: Vec<MoveId> = names
        .split(' ')
        .map(|n| p.move_by_name(n).unwrap())
        .collect();
    p.apply_sequence(&p.solved, &alg)
}

/// Any number of threads and the smallest buffers give the same solutions in the same
/// order, with and without a count.
#[test]
fn threads_and_buffers_do_not_change_the_order() {
    let p = cube2();
    let mut s = solver(&p);
    let start = jperm(&p);
    let settings = SolveSettings {
        slack: 1,
        ..SolveSettings::default()
    };
    let run = |s: &mut Solver, threads, per_worker, pending, count| {
        let options = SolveOptions {
            count,
            threads: Some(threads),
            buffering: ordered::Buffering {
                per_worker,
                pending,
            },
            ..SolveOptions::default()
        };
        s.solve(&start, &[], &settings, options, &Silent, |_, _| {})
            .unwrap()
            .solutions
    };
    let one = run(&mut s, 1, 4096, 1 << 16, None);
    assert!(one.len() > 100, "{}", one.len());
    for (threads, per_worker, pending) in [(2, 1, 0), (3, 2, 3), (4, 1, 1)] {
        assert_eq!(run(&mut s, threads, per_worker, pending, None), one);
        assert_eq!(
            run(&mut s, threads, per_worker, pending, Some(30)),
            one[..30]
        );
    }
}

/// Records whether a search depth is under way.
struct DepthWatch(std::sync::atomic::AtomicBool);

impl Progress for DepthWatch {
    fn searching(&self, _depth: u32) {
        self.0.store(true, Relaxed);
    }
    fn finish(&self) {
        self.0.store(false, Relaxed);
    }
}

/// Solutions reach the caller while their depth is still being searched, not when it
/// is done; and none is kept in the outcome.
#[test]
fn solutions_stream_during_the_search() {
    let p = cube2();
    let mut s = solver(&p);
    let start = jperm(&p);
    let settings = SolveSettings {
        slack: 2,
        ..SolveSettings::default()
    };
    let watch = DepthWatch(false.into());
    let mut seen = 0;
    let mut during = 0;
    let options = SolveOptions {
        threads: Some(2),
        ..SolveOptions::default()
    };
    let outcome = s
        .solve_each(&start, &[], &settings, options, &watch, &mut |_, _| {
            seen += 1;
            during += watch.0.load(Relaxed) as usize;
        })
        .unwrap();
    assert!(seen > 100);
    assert_eq!(during, seen);
    assert!(outcome.solutions.is_empty());
    assert_eq!(outcome.length, Some(10));
}

/// Counts what a search reports: nodes through `inc`, depths, and the running total of
/// solutions.
#[derive(Default)]
struct Tally {
    nodes: std::sync::atomic::AtomicU64,
    depths: std::sync::Mutex<Vec<u32>>,
    solutions: std::sync::atomic::AtomicU64,
}

impl Progress for Tally {
    fn inc(&self, n: u64) {
        self.nodes.fetch_add(n, Relaxed);
    }
    fn searching(&self, depth: u32) {
        self.depths.lock().unwrap().push(depth);
    }
    fn solutions(&self, total: u64) {
        self.solutions.store(total, Relaxed);
    }
}

/// The live status of a search adds up: every node generated is reported (in batches,
/// from every worker), each depth is announced, and the solution count is the total.
#[test]
fn the_search_reports_nodes_depths_and_solutions() {
    let p = cube2();
    let start = jperm(&p);
    let settings = SolveSettings {
        slack: 1,
        ..SolveSettings::default()
    };
    for threads in [1, 2] {
        let mut s = solver(&p);
        s.prepare(Metric::Htm, None, &Silent).unwrap();
        let tally = Tally::default();
        let options = SolveOptions {
            threads: Some(threads),
            ..SolveOptions::default()
        };
        let mut seen = 0u64;
        let outcome = s
            .solve_each(&start, &[], &settings, options, &tally, &mut |_, _| {
                seen += 1
            })
            .unwrap();
        assert!(outcome.nodes > 0);
        assert_eq!(tally.nodes.load(Relaxed), outcome.nodes);
        assert_eq!(tally.solutions.load(Relaxed), seen);
        let h0 = *tally.depths.lock().unwrap().first().unwrap();
        let expected: Vec<u32> = (h0..=11).collect();
        assert_eq!(*tally.depths.lock().unwrap(), expected);
    }
}

/// Parent pruning on the 15-puzzle: after every slide, the slide that takes the tile
/// back is among the moves the search refuses next. A slide and the slide back have one
/// effect (D1 and U5 both swap cells 1 and 5), and each slide's effect is its own
/// inverse, so the first move found to undo a slide was once the slide itself, which
/// its guard never allows twice in a row: half the slides could be taken back at once,
/// and the search went through every such pair.
#[test]
fn the_slide_back_is_never_searched() {
    let p = crate::def::parse_puzzle(include_bytes!("../../puzzles/15puzzle.def"), "15.def")
        .unwrap()
        .0;
    let undo = ctx::undoing_moves(&p, crate::puzzle::Metric::Htm);
    let mut rng = crate::rng::Rng::new(15);
    let mut s = p.solved.clone();
    let legal = |s: &State| -> Vec<MoveId> {
        (0..p.moves.len())
            .map(|m| MoveId(m as u16))
            .filter(|&m| p.block_allows(s, m))
            .collect()
    };
    for _ in 0..1000 {
        let moves = legal(&s);
        let a = moves[rng.below(moves.len() as u64) as usize];
        let t = s.then(&p.mv(a).effect, &p.sets);
        let back: Vec<MoveId> = legal(&t)
            .into_iter()
            .filter(|&b| t.then(&p.mv(b).effect, &p.sets) == s)
            .collect();
        assert_eq!(back.len(), 1, "one slide takes {} back", p.mv(a).name);
        assert!(
            undo[a.0 as usize].contains(&back[0].0),
            "{} is not refused after {}",
            p.mv(back[0]).name,
            p.mv(a).name
        );
        s = t;
    }
}
