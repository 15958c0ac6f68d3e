//! Move costs (`MoveCosts`, a ksolve extension): the search is optimal in the given
//! costs, in both metrics (a weight multiplies the metric's count), with free moves
//! (weight 0) among them. Every optimal cost is checked against Dijkstra's algorithm
//! written here, which reads the weights from this file's own table, not the library's.

use crate::common::*;
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, MoveId, Puzzle, SolveSettings, State};
use ksolve::search::{SearchError, SolveOptions, Solver, Status};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Six tokens with two sides: Y turns the ring, Z reverses it (together the twelve
/// symmetries of a hexagon, all free), A cycles three tokens turning one over, B swaps
/// two and turns both, C cycles four.
const TOKENS: &str = "Name Six tokens (tests)
Set T 6 2
Solved
T
1 2 3 4 5 6
End
Move Y
T
2 3 4 5 6 1
End
Move Z
T
6 5 4 3 2 1
End
Move A
T
3 1 2 4 5 6
1 0 0 0 0 0
End
Move B
T
1 2 3 5 4 6
0 0 0 1 1 0
End
Move C
T
1 4 3 5 6 2
End
MoveCosts
Y* 0
Z 0
A* 1
A' 2
B 2
C' 2
End
";

/// The weights `TOKENS` gives, by move name (1 for moves not listed).
fn weight(name: &str) -> u32 {
    match name {
        "Y" | "Y2" | "Y3" | "Y2'" | "Y'" | "Z" => 0,
        "A'" | "B" | "C'" => 2,
        _ => 1,
    }
}

/// The cheapest cost from `start` to solved, by Dijkstra's algorithm over positions,
/// each move costing its weight times its count in `metric`.
fn dijkstra(p: &Puzzle, start: &State, metric: Metric, weight: &dyn Fn(&str) -> u32) -> u32 {
    let cost = |m: &ksolve::puzzle::Move| {
        let count = match metric {
            Metric::Htm => 1,
            Metric::Qtm => m.qtm,
        };
        count * weight(&m.name)
    };
    let mut best: HashMap<State, u32> = HashMap::from([(start.clone(), 0)]);
    let mut ids: Vec<State> = vec![start.clone()];
    let mut heap = BinaryHeap::from([Reverse((0u32, 0usize))]);
    while let Some(Reverse((d, i))) = heap.pop() {
        let s = ids[i].clone();
        if best[&s] < d {
            continue;
        }
        if s == p.solved {
            return d;
        }
        for m in &p.moves {
            let t = s.then(&m.effect, &p.sets);
            let nd = d + cost(m);
            if best.get(&t).is_none_or(|&b| nd < b) {
                best.insert(t.clone(), nd);
                ids.push(t);
                heap.push(Reverse((nd, ids.len() - 1)));
            }
        }
    }
    panic!("solved is unreachable")
}

/// Random positions solved in both metrics with Slack 1: the optimal cost equals
/// Dijkstra's, every solution costs (by this file's weights) the optimum or one more and
/// solves the position, and free moves do appear in solutions.
#[test]
fn weighted_costs_match_dijkstra_in_both_metrics() {
    let p = puzzle(TOKENS);
    for m in &p.moves {
        assert_eq!(m.weight, weight(&m.name), "{}", m.name);
    }
    let mut x: u64 = 0x0123_4567_89ab_cdef;
    let mut used_free = 0;
    let mut costs = Vec::new();
    for round in 0..12 {
        let seq: Vec<MoveId> = (0..9)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                MoveId((x % p.moves.len() as u64) as u16)
            })
            .collect();
        let start = p.apply_sequence(&p.solved, &seq);
        let metric = if round % 2 == 0 {
            Metric::Htm
        } else {
            Metric::Qtm
        };
        let settings = SolveSettings {
            metric,
            slack: 1,
            max_depth: 40,
            ..SolveSettings::default()
        };
        let want = dijkstra(&p, &start, metric, &weight);
        let got = solve(&p, &start, &[], &settings);
        assert_eq!(got.status, Status::Solved, "round {round}");
        assert_eq!(got.length, Some(want), "round {round}");
        assert!(!got.solutions.is_empty());
        for sol in &got.solutions {
            let c: u32 = sol
                .iter()
                .map(|&m| {
                    let mv = p.mv(m);
                    let count = if metric == Metric::Qtm { mv.qtm } else { 1 };
                    count * weight(&mv.name)
                })
                .sum();
            assert!(c == want || c == want + 1, "{}", p.format_sequence(sol));
            assert_eq!(p.apply_sequence(&start, sol), p.solved);
            used_free += sol.iter().any(|&m| weight(&p.mv(m).name) == 0) as usize;
        }
        costs.push(want);
    }
    assert!(used_free > 0);
    // The positions are not all trivial.
    assert!(costs.iter().any(|&c| c >= 4), "{costs:?}");
}

/// Free moves that generate a large group cannot be bounded by short runs: refused with
/// a typed error, never a search without end.
#[test]
fn free_moves_generating_a_large_group_are_refused() {
    let def = format!("{CUBE2}MoveCosts\nU* 0\nR* 0\nF* 0\nEnd\n");
    let p = puzzle(&def);
    let start = p.apply_sequence(&p.solved, &[p.move_by_name("R").unwrap()]);
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 1 << 28));
    let e = solver
        .solve(
            &start,
            &[],
            &SolveSettings::default(),
            SolveOptions::default(),
            &Silent,
            |_, _| {},
        )
        .unwrap_err();
    assert!(matches!(e, SearchError::ZeroCostGroup { .. }), "{e}");
    assert!(e.to_string().contains("U U2 U' R R2 R' F F2 F'"), "{e}");
}

/// With weights, `ksolve solve` prints each solution's move count and cost, and `--json`
/// gives the move counts beside `length`, which is a cost.
#[test]
fn solve_prints_cost_and_moves() {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("tokens.def");
    let scr = dir.path().join("s.txt");
    std::fs::write(&def, TOKENS).unwrap();
    // Undoing Y B takes B (cost 2) and a free Y'.
    std::fs::write(&scr, "ScrambleAlg yb\nY B\nEnd\n").unwrap();
    let run = |json: bool| {
        let mut cmd = crate::common::ksolve();
        cmd.arg("solve").arg(&def).arg(&scr).arg("--no-cache");
        if json {
            cmd.arg("--json");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(false);
    assert!(text.contains("  B Y'  (2 moves, cost 2)\n"), "{text}");
    let json: serde_json::Value = serde_json::from_str(run(true).trim()).unwrap();
    assert_eq!(json["length"], 2);
    // Every sequence of the optimal cost is a solution, free moves and all (`Y2 Z B Y3
    // Z` too); the move counts go with the solutions one by one.
    let sols = json["solutions"].as_array().unwrap();
    let moves = json["solution_moves"].as_array().unwrap();
    assert_eq!(sols.len(), moves.len());
    for (s, n) in sols.iter().zip(moves) {
        let words = s.as_str().unwrap().split(' ').count();
        assert_eq!(n.as_u64(), Some(words as u64), "{s}");
    }
    assert!(sols.iter().any(|s| s == "B Y'"), "{sols:?}");
}

/// Weights that make a power dearer than repeating the move (`R2 5`: R R costs 2, and
/// in QTM 2 against 10) or a move dearer than its inverse's repeats: the canonical rule
/// must then let R follow R. Optimal costs equal Dijkstra's in both metrics.
#[test]
fn a_power_dearer_than_its_repeats_is_not_merged() {
    let def = format!("{CUBE2}MoveCosts\nR2 5\nU 3\nF* 2\nF2 1\nEnd\n");
    let p = puzzle(&def);
    let weight = |n: &str| match n {
        "R2" => 5,
        "U" => 3,
        "F" | "F'" => 2,
        _ => 1,
    };
    for m in &p.moves {
        assert_eq!(m.weight, weight(&m.name), "{}", m.name);
    }
    let seq =
        |s: &str| -> Vec<MoveId> { s.split(' ').map(|n| p.move_by_name(n).unwrap()).collect() };
    for (alg, metric) in [
        ("R2", Metric::Htm),
        ("R2", Metric::Qtm),
        ("R2 U'", Metric::Htm),
        ("U' R2 F", Metric::Qtm),
        ("F R2 U2 F'", Metric::Htm),
    ] {
        let start = p.apply_sequence(&p.solved, &seq(alg));
        let settings = SolveSettings {
            metric,
            max_depth: 30,
            ..SolveSettings::default()
        };
        let want = dijkstra(&p, &start, metric, &weight);
        let got = solve(&p, &start, &[], &settings);
        assert_eq!(got.length, Some(want), "{alg} {metric:?}");
    }
}
