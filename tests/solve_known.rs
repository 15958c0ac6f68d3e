//! Optimal lengths on a puzzle of our own agree with an independent breadth-first
//! search over the piece-level model: the 2x2x2 turned by U and R only (29,160
//! positions), every 50th position in breadth-first order, in both metrics.

use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, SolveSettings, State};
use ksolve::search::{SolveOptions, Solver, Status};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::collections::{HashMap, VecDeque};

/// Distances from solved by breadth-first search (Dijkstra with costs 1 and 2 for the
/// quarter-turn metric, done as a two-queue search).
fn distances(p: &ksolve::puzzle::Puzzle, metric: Metric) -> HashMap<State, u32> {
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(p.solved.clone(), 0);
    queue.push_back(p.solved.clone());
    // Plain BFS is exact for HTM; for QTM, relax until nothing changes.
    loop {
        let mut changed = false;
        while let Some(s) = queue.pop_front() {
            let d = dist[&s];
            for (i, m) in p.moves.iter().enumerate() {
                let next = s.then(&m.effect, &p.sets);
                let nd = d + metric.cost(p, ksolve::puzzle::MoveId(i as u16));
                if dist.get(&next).is_none_or(|&old| nd < old) {
                    dist.insert(next.clone(), nd);
                    queue.push_back(next);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    dist
}

#[test]
fn optimal_lengths_match_breadth_first_search() {
    let def = crate::common::CUBE2
        .split("Move F")
        .next()
        .unwrap()
        .to_string();
    let p = crate::common::puzzle(&def);
    for metric in [Metric::Htm, Metric::Qtm] {
        let dist = distances(&p, metric);
        assert_eq!(dist.len(), 29_160);
        let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 1 << 28));
        let settings = SolveSettings {
            metric,
            ..SolveSettings::default()
        };
        let mut states: Vec<(&State, &u32)> = dist.iter().collect();
        states.sort();
        for (state, &d) in states.into_iter().step_by(50) {
            let o = solver
                .solve(
                    state,
                    &[],
                    &settings,
                    SolveOptions {
                        count: Some(1),
                        ..SolveOptions::default()
                    },
                    &Silent,
                    |_, _| {},
                )
                .unwrap();
            assert_eq!(o.status, Status::Solved);
            assert_eq!(o.length, Some(d), "{metric:?} {state:?}");
        }
    }
}

/// The shipped Pyraminx (without tips) in one table of edges and centres is God's
/// algorithm: its counts per depth are the published ones (Jaap's puzzle pages).
#[test]
fn pyraminx_table_counts_gods_numbers() {
    use ksolve::table::prune::{PruneTable, Sources};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/pyraminx.def");
    let p = ksolve::def::load_puzzle(path).unwrap().0;
    let mut tables = Tables::new(TableCache::in_memory(), 1 << 30);
    let mut specs = Vec::new();
    for set in 0..p.sets.len() {
        specs.extend(ksolve::table::plan::perm_specs(
            &p,
            set,
            None,
            ksolve::table::plan::component_limit(&p),
        ));
        specs.extend(ksolve::table::plan::ori_spec(&p, set));
    }
    let ids: Vec<_> = specs
        .iter()
        .map(|s| tables.component(&p, s, &Silent).unwrap())
        .collect();
    let comps: Vec<_> = ids.iter().map(|&id| tables.comp(id)).collect();
    let goals: Vec<Vec<u32>> = comps.iter().map(|c| c.goal_values(&p, None)).collect();
    let t = PruneTable::build(
        &p,
        &comps,
        Sources::goals(&[goals]),
        Metric::Htm,
        true,
        "pyraminx",
        &Silent,
    );
    let (counts, _) = t.histogram();
    assert_eq!(
        counts,
        [1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32]
    );
    assert_eq!(counts.iter().sum::<u64>(), 933_120);
}

/// The shipped Megaminx: its orientation vectors are too large for one component, so
/// its pieces are tracked in parts that carry their own twists. Four-move scrambles
/// are solved in four moves. Slow in a debug build (`KSOLVE_SLOW_TESTS=1`).
#[test]
fn megaminx_short_scrambles() {
    if !crate::common::slow_tests() {
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let p = ksolve::def::load_puzzle(format!("{root}/puzzles/megaminx.def"))
        .unwrap()
        .0;
    let scrambles =
        ksolve::def::load_scrambles(format!("{root}/scrambles/megaminx.txt"), &p).unwrap();
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 1 << 30));
    for s in &scrambles {
        let ksolve::puzzle::ScrambleSource::Alg(moves) = &s.source else {
            panic!("expected move sequences");
        };
        let start = p.apply_sequence(&p.solved, moves);
        let o = solver
            .solve(
                &start,
                &[],
                &s.settings,
                SolveOptions::default(),
                &Silent,
                |_, _| {},
            )
            .unwrap();
        assert_eq!(o.length, Some(4), "{}", s.name);
    }
}
