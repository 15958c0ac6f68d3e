//! God's-algorithm tables checked against an independent brute force: every state
//! reachable from solved, found with `Puzzle`'s own move application and `Block` rule in
//! a hash map of full states, and distances to solve by Dijkstra over the explicit graph.
//! Covers interchangeable pieces (QTM, where ksolve+ over-counts), bandaging, and
//! directed moves with bandaging.

use crate::gods_fixtures::*;
use ksolve::gods::{compute, GodOptions, Method};
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, MoveId, Puzzle, State};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Positions per distance to solve, by brute force.
fn brute(p: &Puzzle, metric: Metric) -> Vec<u64> {
    let mut states = vec![p.solved.clone()];
    let mut index: HashMap<State, usize> = HashMap::from([(p.solved.clone(), 0)]);
    let mut into: Vec<Vec<(usize, u32)>> = vec![Vec::new()];
    let mut i = 0;
    while i < states.len() {
        for m in 0..p.moves.len() {
            let id = MoveId(m as u16);
            if !p.block_allows(&states[i], id) {
                continue;
            }
            let next = states[i].then(&p.mv(id).effect, &p.sets);
            let j = *index.entry(next.clone()).or_insert_with(|| {
                states.push(next);
                into.push(Vec::new());
                states.len() - 1
            });
            if j != i {
                into[j].push((i, metric.cost(p, id)));
            }
        }
        i += 1;
    }
    let mut dist = vec![u32::MAX; states.len()];
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
    let max = dist
        .iter()
        .copied()
        .filter(|&d| d != u32::MAX)
        .max()
        .unwrap();
    let mut counts = vec![0u64; max as usize + 1];
    for d in dist.into_iter().filter(|&d| d != u32::MAX) {
        counts[d as usize] += 1;
    }
    counts
}

fn ours(p: &Puzzle, metric: Metric, method: Method) -> Vec<u64> {
    let opts = GodOptions {
        metric,
        method,
        ..GodOptions::default()
    };
    compute(p, &opts, &Silent, &|_, _| {}).unwrap().counts
}

#[test]
fn interchangeable_pieces_in_both_metrics() {
    // The U-layer corners all alike, the D-layer corners all alike.
    let p = corners_with("URF", [0, 0, 0, 0, 1, 1, 1, 1], false);
    for metric in [Metric::Htm, Metric::Qtm] {
        let want = brute(&p, metric);
        assert_eq!(want.iter().sum::<u64>(), 35 * 729);
        assert_eq!(ours(&p, metric, Method::Auto), want, "{metric:?}");
        assert_eq!(ours(&p, metric, Method::Hashed), want, "{metric:?}");
    }
}

#[test]
fn bandaged_pieces() {
    let p = bandaged_cube2();
    for metric in [Metric::Htm, Metric::Qtm] {
        let want = brute(&p, metric);
        assert_eq!(ours(&p, metric, Method::Auto), want, "{metric:?}");
    }
}

#[test]
fn directed_and_bandaged() {
    let mut p = corners_with("URF", [0, 1, 2, 3, 4, 5, 6, 7], true);
    p.blocks = bandaged_cube2().blocks[..1].to_vec();
    let want = brute(&p, Metric::Htm);
    assert_eq!(ours(&p, Metric::Htm, Method::Auto), want);
}
