//! Unit tests of the God's-algorithm searches on small puzzles: both searches agree,
//! antipodes are real and their solutions optimal, directed moves count distance to
//! solve.

use super::*;
use crate::progress::Silent;
use crate::puzzle::{Block, IgnoreMask, SetDef, SetState};
use std::collections::HashMap;

/// Three corners of a cube in a row that two 3-cycles twist, plus two edges that one
/// of them swaps: small, with orientation, a sum rule and a parity link.
fn toy(directed: bool) -> Puzzle {
    let sets = vec![
        SetDef {
            name: "C".into(),
            size: 4,
            orientations: 3,
        },
        SetDef {
            name: "E".into(),
            size: 3,
            orientations: 2,
        },
    ];
    let mv = |cp: Vec<u16>, co: Vec<u8>, ep: Vec<u16>, eo: Vec<u8>| Transform {
        sets: vec![
            SetState { perm: cp, ori: co },
            SetState { perm: ep, ori: eo },
        ],
    };
    let a = mv(
        vec![1, 2, 0, 3],
        vec![1, 1, 1, 0],
        vec![1, 0, 2],
        vec![1, 0, 0],
    );
    let b = mv(
        vec![0, 2, 3, 1],
        vec![0, 2, 0, 1],
        vec![0, 2, 1],
        vec![0, 1, 1],
    );
    Puzzle::new(
        Some("toy".into()),
        sets.clone(),
        Transform::identity(&sets),
        vec![("A".into(), a, directed), ("B".into(), b, directed)],
        vec![IgnoreMask::default(); 2],
        vec![],
    )
}

fn run(p: &Puzzle, metric: Metric, method: Method) -> GodTable {
    let opts = GodOptions {
        metric,
        method,
        antipodes: 3,
        ..GodOptions::default()
    };
    compute(p, &opts, &Silent, &|_, _| {}).unwrap()
}

/// Distances to solve by brute force: every state reachable forwards with `Puzzle`'s
/// own operations, then Dijkstra backwards from solved over the explicit graph.
fn brute(p: &Puzzle, metric: Metric) -> HashMap<State, u32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut all = vec![p.solved.clone()];
    let mut index: HashMap<State, usize> = HashMap::from([(p.solved.clone(), 0)]);
    let mut into: Vec<Vec<(usize, u32)>> = vec![Vec::new()];
    let mut i = 0;
    while i < all.len() {
        for m in 0..p.moves.len() {
            let id = MoveId(m as u16);
            if !p.block_allows(&all[i], id) || p.mv(id).effect.is_identity() {
                continue;
            }
            let next = all[i].then(&p.mv(id).effect, &p.sets);
            let j = *index.entry(next.clone()).or_insert_with(|| {
                all.push(next);
                into.push(Vec::new());
                all.len() - 1
            });
            into[j].push((i, metric.cost(p, id)));
        }
        i += 1;
    }
    let mut dist = vec![u32::MAX; all.len()];
    dist[0] = 0;
    let mut heap = BinaryHeap::from([Reverse((0u32, 0usize))]);
    while let Some(Reverse((d, j))) = heap.pop() {
        if d > dist[j] {
            continue;
        }
        for &(from, c) in &into[j] {
            if d + c < dist[from] {
                dist[from] = d + c;
                heap.push(Reverse((d + c, from)));
            }
        }
    }
    all.into_iter()
        .zip(dist)
        .filter(|&(_, d)| d != u32::MAX)
        .collect()
}

fn histogram(dist: &HashMap<State, u32>) -> Vec<u64> {
    let max = dist.values().copied().max().unwrap_or(0) as usize;
    let mut out = vec![0u64; max + 1];
    for &d in dist.values() {
        out[d as usize] += 1;
    }
    out
}

fn check_antipodes(p: &Puzzle, t: &GodTable, metric: Metric, dist: &HashMap<State, u32>) {
    let depth = t.max_depth() as u32;
    assert!(!t.antipodes.is_empty());
    for a in &t.antipodes {
        assert_eq!(dist[&a.state], depth, "antipode at the deepest distance");
        let cost: u32 = a.solution.iter().map(|&m| metric.cost(p, m)).sum();
        assert_eq!(cost, depth, "solution is optimal");
        assert_eq!(p.apply_sequence(&a.state, &a.solution), p.solved);
    }
    // ksolve+ order: the first antipodes by (orientations, arrangement) of sets by name.
    let mut deepest: Vec<Vec<u16>> = dist
        .iter()
        .filter(|(_, &d)| d == depth)
        .map(|(s, _)| ksolve_order(p, s))
        .collect();
    deepest.sort();
    let got: Vec<Vec<u16>> = t
        .antipodes
        .iter()
        .map(|a| ksolve_order(p, &a.state))
        .collect();
    assert_eq!(got, deepest[..got.len()]);
}

#[test]
fn both_searches_match_brute_force_in_both_metrics() {
    let p = toy(false);
    for metric in [Metric::Htm, Metric::Qtm] {
        let dist = brute(&p, metric);
        let want = histogram(&dist);
        for method in [Method::Indexed, Method::Hashed] {
            let t = run(&p, metric, method);
            assert_eq!(t.counts, want, "{metric:?} {method:?}");
            assert_eq!(t.method, method);
            check_antipodes(&p, &t, metric, &dist);
        }
    }
}

#[test]
fn every_indexed_code_path_agrees() {
    // Forced push or pull, with or without move tables (entry by entry or by blocks),
    // with or without layer lists, in both metrics and with directed moves; components
    // left unmerged so that the cursor walks several of them.
    for (p, metric) in [
        (toy(false), Metric::Htm),
        (toy(false), Metric::Qtm),
        (toy(true), Metric::Htm),
    ] {
        let want = histogram(&brute(&p, metric));
        for pull in [None, Some(true), Some(false)] {
            for move_tables in [true, false] {
                for layer_lists in [true, false] {
                    let opts = GodOptions {
                        metric,
                        method: Method::Indexed,
                        tuning: Tuning {
                            pull,
                            move_tables,
                            layer_lists,
                            merge_components: false,
                            keep_layer: 1 << 20,
                        },
                        ..GodOptions::default()
                    };
                    let t = compute(&p, &opts, &Silent, &|_, _| {}).unwrap();
                    assert_eq!(
                        t.counts, want,
                        "{metric:?} {pull:?} {move_tables} {layer_lists}"
                    );
                }
            }
        }
    }
}

#[test]
fn antipodes_are_found_without_a_kept_last_layer() {
    // With no layer kept, the deepest positions are found by scanning the table and
    // confirming each candidate's distance by descending to solved.
    for (p, metric) in [
        (toy(false), Metric::Htm),
        (toy(false), Metric::Qtm),
        (toy(true), Metric::Htm),
    ] {
        let dist = brute(&p, metric);
        let opts = GodOptions {
            metric,
            method: Method::Indexed,
            antipodes: 4,
            tuning: Tuning {
                keep_layer: 0,
                ..Tuning::default()
            },
            ..GodOptions::default()
        };
        let t = compute(&p, &opts, &Silent, &|_, _| {}).unwrap();
        assert_eq!(t.counts, histogram(&dist));
        let depth = t.max_depth() as u32;
        assert_eq!(t.antipodes.len(), 4.min(*t.counts.last().unwrap() as usize));
        for a in &t.antipodes {
            assert_eq!(dist[&a.state], depth);
            let cost: u32 = a.solution.iter().map(|&m| metric.cost(&p, m)).sum();
            assert_eq!(cost, depth);
            assert_eq!(p.apply_sequence(&a.state, &a.solution), p.solved);
        }
    }
}

#[test]
fn indexed_search_refuses_blocks() {
    let mut p = toy(false);
    p.blocks.push(Block {
        pieces: vec![(0, 0), (1, 2)],
    });
    let opts = GodOptions {
        method: Method::Indexed,
        ..GodOptions::default()
    };
    let err = compute(&p, &opts, &Silent, &|_, _| {}).unwrap_err();
    assert!(matches!(err, GodError::Unsupported(_)));
}

#[test]
fn directed_moves_count_distance_to_solve() {
    let p = toy(true);
    let dist = brute(&p, Metric::Htm);
    let want = histogram(&dist);
    for method in [Method::Indexed, Method::Hashed] {
        let t = run(&p, Metric::Htm, method);
        assert_eq!(t.counts, want, "{method:?}");
        check_antipodes(&p, &t, Metric::Htm, &dist);
    }
}

#[test]
fn blocks_limit_the_reachable_positions() {
    // The toy with corners 0 and 3 bandaged: A moves 0 but not 3, so it is illegal until
    // B has moved 3 out of the way... and B moves 3 but not 0.
    let mut p = toy(false);
    p.blocks.push(Block {
        pieces: vec![(0, 0), (1, 2)],
    });
    let dist = brute(&p, Metric::Htm);
    let want = histogram(&dist);
    let t = run(&p, Metric::Htm, Method::Auto);
    assert_eq!(t.method, Method::Hashed);
    assert_eq!(t.counts, want);
    check_antipodes(&p, &t, Metric::Htm, &dist);
}

#[test]
fn a_puzzle_without_moves_has_one_position() {
    let sets = vec![SetDef {
        name: "X".into(),
        size: 2,
        orientations: 1,
    }];
    let p = Puzzle::new(
        None,
        sets.clone(),
        Transform::identity(&sets),
        vec![],
        vec![IgnoreMask::default()],
        vec![],
    );
    for method in [Method::Indexed, Method::Hashed] {
        let t = run(&p, Metric::Htm, method);
        assert_eq!(t.counts, vec![1]);
        assert_eq!(t.antipodes.len(), 1);
        assert!(t.antipodes[0].solution.is_empty());
    }
}

#[test]
fn memory_budget_is_enforced_up_front() {
    let p = toy(false);
    let opts = GodOptions {
        memory: 16,
        method: Method::Indexed,
        ..GodOptions::default()
    };
    let err = compute(&p, &opts, &Silent, &|_, _| {}).unwrap_err();
    assert!(matches!(err, GodError::OverBudget { .. }), "{err}");
    assert!(err.to_string().contains("--memory"));
}

/// Three sets (7 pieces with 3 twists, 6 with 2, 4 with 1) under two moves: 192
/// positions. The index merges a `Reach` group of its small components into a
/// `Product` with an orientation coordinate; the product's move table once read the
/// group's table with a row width of zero (taken from the group's empty `src`), so the
/// search found 132 positions and then no path from its last layer.
pub(crate) const PRODUCT_OF_REACH: &str = "Name T
Set A 7 3
Set B 6 2
Set C 4 1
Solved
A
1 2 3 4 5 6 7
B
1 2 3 4 5 6
C
1 2 3 4
End
Move M0
A
1 2 3 4 5 6 7
0 0 0 0 0 0 0
B
1 2 3 4 5 6
1 0 0 1 0 0
C
2 4 1 3
End
Move M1
A
1 3 5 4 7 6 2
0 0 0 0 0 0 1
B
4 6 3 2 5 1
0 0 1 1 0 0
C
4 2 3 1
End
";

#[test]
fn a_product_holding_a_reach_group_counts_exactly() {
    let p = crate::def::parse_puzzle(PRODUCT_OF_REACH.as_bytes(), "t.def")
        .unwrap()
        .0;
    for metric in [Metric::Htm, Metric::Qtm] {
        let dist = brute(&p, metric);
        let want = histogram(&dist);
        assert_eq!(want.iter().sum::<u64>(), 192);
        for pull in [None, Some(true), Some(false)] {
            for move_tables in [true, false] {
                for merge_components in [true, false] {
                    let opts = GodOptions {
                        metric,
                        method: Method::Indexed,
                        tuning: Tuning {
                            pull,
                            move_tables,
                            merge_components,
                            ..Tuning::default()
                        },
                        ..GodOptions::default()
                    };
                    let t = compute(&p, &opts, &Silent, &|_, _| {}).unwrap();
                    assert_eq!(
                        t.counts, want,
                        "{metric:?} {pull:?} {move_tables} {merge_components}"
                    );
                    check_antipodes(&p, &t, metric, &dist);
                }
            }
        }
        // The saved table (`god --save`) answers every position optimally, as
        // `solve --database` asks it; it answered "cannot be solved" for positions
        // three and six moves away when the index was wrong.
        let opts = GodOptions {
            metric,
            keep_distances: true,
            ..GodOptions::default()
        };
        let t = compute(&p, &opts, &Silent, &|_, _| {}).unwrap();
        let db = database::Database::in_memory("t", &p, &t).unwrap();
        let settings = crate::puzzle::SolveSettings {
            metric,
            ..Default::default()
        };
        for (state, &d) in &dist {
            let answer = database::solve_scramble(&db, &p, state, &[], &settings)
                .expect("the table answers a plain scramble")
                .unwrap();
            let database::Answer::Solved { cost, moves } = answer else {
                panic!("{metric:?}: no answer for a position {d} away: {answer:?}");
            };
            assert_eq!(cost, d, "{metric:?}: the database's answer is optimal");
            let mut end = state.clone();
            for m in moves {
                end = end.then(&p.mv(m).effect, &p.sets);
            }
            assert_eq!(end, p.solved, "{metric:?}: the database's answer solves");
        }
    }
}
