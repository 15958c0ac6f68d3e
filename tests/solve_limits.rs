//! MoveLimits change which sequences are canonical: when a limit takes away a move's
//! powers (`A2 0`, `A' 0`: clockwise turns only) or caps one (`F2 1`), repeating the
//! move is the only way to get the power, so `A A` must be searched. Every optimal
//! length here is checked against a brute force written in this file, which tries
//! every move sequence (no canonical rule at all) with the limits applied.

use crate::common::*;
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, MoveId, Puzzle, SolveSettings, State};
use ksolve::search::{Outcome, SolveOptions, Solver, Status, Tuning};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::collections::{HashMap, HashSet};

/// The optimal cost of solving `start` under `settings` (metric and move limits), by a
/// uniform-cost search over (position, move counts) that tries every move, or `None`
/// when nothing within `settings.max_depth` solves it.
fn brute_optimal(p: &Puzzle, start: &State, settings: &SolveSettings) -> Option<u32> {
    let cost = |m: MoveId| match settings.metric {
        Metric::Htm => 1,
        Metric::Qtm => p.mv(m).qtm,
    };
    let nl = settings.limits.len();
    let mut buckets: Vec<Vec<(State, Vec<u32>)>> = vec![vec![(start.clone(), vec![0; nl])]];
    let mut seen: HashSet<(State, Vec<u32>)> = HashSet::new();
    let mut c = 0usize;
    while c < buckets.len() && c as u32 <= settings.max_depth {
        let layer = std::mem::take(&mut buckets[c]);
        for (s, counts) in layer {
            if !seen.insert((s.clone(), counts.clone())) {
                continue;
            }
            if p.is_solved(&s, &[]) {
                return Some(c as u32);
            }
            for m in 0..p.moves.len() {
                let m = MoveId(m as u16);
                let mut next_counts = counts.clone();
                let mut within = true;
                for (i, l) in settings.limits.iter().enumerate() {
                    if l.matches(p, m) {
                        next_counts[i] += 1;
                        within &= next_counts[i] <= l.max;
                    }
                }
                if !within {
                    continue;
                }
                let to = c + cost(m) as usize;
                if buckets.len() <= to {
                    buckets.resize(to + 1, Vec::new());
                }
                buckets[to].push((s.then(&p.mv(m).effect, &p.sets), next_counts));
            }
        }
        c += 1;
    }
    None
}

/// The optimal number of moves from `start` to solved using only `moves` (each costing
/// one), by meeting in the middle: positions `k` moves from the start against positions
/// `k` moves back from solved.
fn meet_in_middle(p: &Puzzle, start: &State, moves: &[MoveId], max: u32) -> Option<u32> {
    let inverse: Vec<_> = moves
        .iter()
        .map(|&m| p.mv(m).effect.inverse(&p.sets))
        .collect();
    let mut fwd: HashMap<State, u32> = HashMap::from([(start.clone(), 0)]);
    let mut bwd: HashMap<State, u32> = HashMap::from([(p.solved.clone(), 0)]);
    let (mut ff, mut bf) = (vec![start.clone()], vec![p.solved.clone()]);
    let (mut df, mut db) = (0, 0);
    loop {
        let best = fwd
            .iter()
            .filter_map(|(s, a)| bwd.get(s).map(|b| a + b))
            .min();
        if let Some(best) = best {
            return Some(best);
        }
        if df + db >= max {
            return None;
        }
        // Grow the smaller frontier by one move.
        let forward = ff.len() <= bf.len();
        let (map, frontier, depth) = if forward {
            (&mut fwd, &mut ff, &mut df)
        } else {
            (&mut bwd, &mut bf, &mut db)
        };
        *depth += 1;
        let mut next = Vec::new();
        for s in frontier.iter() {
            for (i, &m) in moves.iter().enumerate() {
                let effect = if forward {
                    &p.mv(m).effect
                } else {
                    &inverse[i]
                };
                let t = s.then(effect, &p.sets);
                if !map.contains_key(&t) {
                    map.insert(t.clone(), *depth);
                    next.push(t);
                }
            }
        }
        *frontier = next;
    }
}

/// Solves every scramble of `scr` and checks its optimal length against the brute force.
fn agree_with_brute_force(def: &str, scr: &str) -> Vec<u32> {
    let p = puzzle(def);
    let mut lengths = Vec::new();
    for s in scrambles(&p, scr) {
        let (start, ignore) = position(&p, &s);
        let got = solve(&p, &start, &ignore, &s.settings);
        let want = brute_optimal(&p, &start, &s.settings);
        assert_eq!(got.status, Status::Solved, "scramble {}", s.name);
        assert_eq!(got.length, want, "scramble {}", s.name);
        lengths.push(want.unwrap());
    }
    lengths
}

const CLOCKWISE_ONLY: &str = "MoveLimits\nU2 0\nU' 0\nR2 0\nR' 0\nF2 0\nF' 0\nEnd\n";

#[test]
fn clockwise_only_limits_let_a_move_follow_itself() {
    let scr = format!(
        "MaxDepth 12\n{CLOCKWISE_ONLY}ScrambleAlg one back\nR\nEnd\nScrambleAlg two back\nU R\nEnd\n\
         ScrambleAlg three\nF U' R\nEnd\n"
    );
    // Undoing R takes three clockwise R turns: R R R.
    assert_eq!(agree_with_brute_force(CUBE2, &scr), vec![3, 6, 7]);
}

#[test]
fn a_limit_on_one_power_makes_repeats_useful() {
    let scr = "MaxDepth 9\nMoveLimits\nF2 1\nR2 0\nEnd\nScrambleAlg two halves\nF2 U F2\nEnd\n\
               ScrambleAlg r half\nR2 U\nEnd\n\
               MoveLimits\nU' 0\nF 0\nEnd\nScrambleAlg mixed\nU' F R U\nEnd\n\
               QTM\nMoveLimits\nR2 0\nU' 0\nEnd\nScrambleAlg quarter\nR2 U\nEnd\n";
    let lengths = agree_with_brute_force(CUBE2, scr);
    // F2 U F2 with one F2 allowed needs F F for the other half turn: one more move.
    assert_eq!(lengths[0], 4);
}

/// A 4x4 board of 2x2 rotations written with ordinary moves and clockwise-only limits,
/// and again with `noinverse` moves, against a brute force over the nine clockwise turns.
#[test]
fn rotate_board_limits_match_directed_moves() {
    let def = include_str!("fixtures/rotate.def");
    let directed = include_str!("fixtures/rotate_directed.def");
    let p = puzzle(def);
    let d = puzzle(directed);
    let names = ["A", "B", "C", "E", "F", "G", "I", "J", "K"];
    let limits: String = names.iter().map(|n| format!("{n}2 0\n{n}' 0\n")).collect();
    let clockwise: Vec<MoveId> = names.iter().map(|n| p.move_by_name(n).unwrap()).collect();
    // Counter-clockwise scrambles (as Rotate draws them); a simple generator keeps the
    // test repeatable.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut plain = format!("MaxDepth 12\nMoveLimits\n{limits}End\n");
    let mut noinverse = String::from("MaxDepth 12\n");
    for len in [3usize, 4, 5, 6, 6, 7, 8] {
        let mut alg = Vec::new();
        for _ in 0..len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            alg.push(names[(x % 9) as usize]);
        }
        let name = alg.join("");
        let ccw: Vec<String> = alg.iter().map(|n| format!("{n}'")).collect();
        let thrice: Vec<String> = alg.iter().map(|n| format!("{n} {n} {n}")).collect();
        plain += &format!("ScrambleAlg {name}\n{}\nEnd\n", ccw.join(" "));
        noinverse += &format!("ScrambleAlg {name}\n{}\nEnd\n", thrice.join(" "));
    }
    // One solver per puzzle, so each builds its tables once. The exact goal test of 16
    // distinct letters needs about 170 MB of move tables; the budget leaves a little for
    // pruning tables.
    let mut sp = Solver::new(&p, Tables::new(TableCache::in_memory(), 180 << 20));
    let mut sd = Solver::new(&d, Tables::new(TableCache::in_memory(), 180 << 20));
    let run = |s: &mut Solver, start: &State, settings: &SolveSettings| -> Outcome {
        s.solve(
            start,
            &[],
            settings,
            SolveOptions::default(),
            &Silent,
            |_, _| {},
        )
        .unwrap()
    };
    let mut optimal = Vec::new();
    for (a, b) in scrambles(&p, &plain).iter().zip(scrambles(&d, &noinverse)) {
        let (start, _) = position(&p, a);
        let (dstart, _) = position(&d, &b);
        assert_eq!(start, dstart);
        let want = meet_in_middle(&p, &start, &clockwise, 12).unwrap();
        let got = run(&mut sp, &start, &a.settings);
        let got_directed = run(&mut sd, &dstart, &b.settings);
        assert_eq!(got.length, Some(want), "limits, scramble {}", a.name);
        assert_eq!(
            got_directed.length,
            Some(want),
            "noinverse, scramble {}",
            b.name
        );
        // Every solution turns clockwise only.
        for s in &got.solutions {
            assert!(s.iter().all(|m| clockwise.contains(m)), "{}", a.name);
        }
        optimal.push(want);
    }
    assert!(optimal.iter().any(|&l| l >= 6), "{optimal:?}");
}

/// Three pieces: A cycles them, B swaps the first two. An odd arrangement needs B an
/// odd number of times, and `3 2 1` needs two moves at least.
const SWAP3: &str = "Name swap\nSet P 3 1\nSolved\nP\n1 2 3\nEnd\n\
    Move A\nP\n2 3 1\nEnd\nMove B\nP\n2 1 3\nEnd\n";

/// Solves `arrangement` under `limits` with the default MaxDepth (999).
fn limited(limits: &str, arrangement: &str, tuning: Tuning) -> Outcome {
    let p = puzzle(SWAP3);
    let s = &scrambles(
        &p,
        &format!("MoveLimits\n{limits}\nEnd\nScramble s\nP\n{arrangement}\nEnd\n"),
    )[0];
    let (start, ignore) = position(&p, s);
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 1 << 24));
    solver.tune(tuning);
    solver
        .solve(
            &start,
            &ignore,
            &s.settings,
            SolveOptions::default(),
            &Silent,
            |_, _| {},
        )
        .unwrap()
}

/// Limits above 0 that leave no solution: a small puzzle is settled before the search
/// (which ran to MaxDepth 999 before, for ever in effect), a reachable one is solved.
#[test]
fn limits_that_leave_no_solution_are_settled_on_small_puzzles() {
    let none = limited("A* B* 1", "3 2 1", Tuning::default());
    assert_eq!(none.status, Status::LimitsUnreachable);
    assert!(none.solutions.is_empty());
    let swap = limited("B* 2\nA* 0", "2 1 3", Tuning::default());
    assert_eq!(swap.status, Status::Solved, "B alone swaps the first two");
    // 3 2 1 is one A and one B apart from solved.
    let one = limited("A* 1", "3 2 1", Tuning::default());
    assert_eq!(one.status, Status::Solved);
    assert_eq!(one.length, Some(2));
    let two = limited("A* B* 2", "3 2 1", Tuning::default());
    assert_eq!(two.length, Some(2));
}

/// When the limits cannot be settled (forced here by allowing the breadth-first search
/// no pairs at all), the search stops UNSETTLED_DEPTHS past its first bound and says so.
#[test]
fn unsettled_limits_stop_at_a_documented_depth() {
    let tuning = Tuning {
        settle_pairs: Some(0),
        ..Tuning::default()
    };
    let out = limited("A* B* 1", "3 2 1", tuning);
    // The tables put 3 2 1 two moves away; the search stops 20 depths past that.
    assert_eq!(
        out.status,
        Status::LimitsBound(2 + ksolve::search::limits::UNSETTLED_DEPTHS)
    );
    // Where the moves no limit names reach the position by themselves, no bound applies.
    let out = limited("B* 1", "2 3 1", tuning);
    assert_eq!(out.status, Status::Solved);
}
