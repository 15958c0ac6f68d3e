//! Goals closed under moves ([`Goal::closed`], a chain's phase that ends in a subgroup
//! no picture shows): on the 2x2x2 turned by U, R and F, the goal "solved, then any
//! product of some moves" gives the same optimal lengths and the same optimal
//! solutions as the same positions listed one by one, and the lengths a breadth-first
//! search from every position of the closure written here finds.

use ksolve::progress::Silent;
use ksolve::puzzle::{Goal, GoalPosition, MoveId, Puzzle, SolveSettings, State, Target};
use ksolve::search::{SolveOptions, Solver};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// Every position `moves` reach from solved, by breadth-first search.
fn closure(p: &Puzzle, moves: &[MoveId]) -> Vec<State> {
    let mut seen = HashSet::from([p.solved.clone()]);
    let mut all = vec![p.solved.clone()];
    let mut next = 0;
    while let Some(s) = all.get(next).cloned() {
        next += 1;
        for &m in moves {
            let t = s.then(&p.mv(m).effect, &p.sets);
            if seen.insert(t.clone()) {
                all.push(t);
            }
        }
    }
    all
}

/// Distances to the nearest of `goals` from every position within `depth` of them.
fn distances(p: &Puzzle, goals: &[State], depth: u32) -> HashMap<State, u32> {
    let mut dist: HashMap<State, u32> = goals.iter().map(|g| (g.clone(), 0)).collect();
    let mut queue: VecDeque<State> = goals.iter().cloned().collect();
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        if d == depth {
            continue;
        }
        for m in &p.moves {
            let t = s.then(&m.effect, &p.sets);
            if !dist.contains_key(&t) {
                dist.insert(t.clone(), d + 1);
                queue.push_back(t);
            }
        }
    }
    dist
}

fn position(p: &Puzzle, name: &str, state: &State) -> GoalPosition {
    GoalPosition {
        name: name.to_string(),
        target: Target {
            state: state.clone(),
            ignore: p.ignore.clone(),
        },
        line: 0,
        classes: Vec::new(),
    }
}

/// Every optimal solution of `start` to `goal`.
fn optimal(p: &Puzzle, start: &State, goal: &Goal) -> Vec<Vec<MoveId>> {
    let mut solver = Solver::new(p, Tables::new(TableCache::in_memory(), 1 << 26));
    let settings = SolveSettings {
        goal: Some(Arc::new(goal.clone())),
        ..SolveSettings::default()
    };
    let mut found = Vec::new();
    solver
        .solve(
            start,
            &[],
            &settings,
            SolveOptions::default(),
            &Silent,
            |_, s| found.extend_from_slice(s),
        )
        .unwrap();
    found
}

#[test]
fn a_closed_goal_is_the_closure_listed() {
    let p = crate::common::puzzle(crate::common::CUBE2);
    let name = |n: &str| p.move_by_name(n).unwrap();
    // Two subgroups: <U2, R2> (a few positions) and <U, R2> (more, with twists).
    for within in [vec![name("U2"), name("R2")], vec![name("U"), name("R2")]] {
        let listed = closure(&p, &within);
        assert!(listed.len() > 2);
        let closed = Goal::closed(vec![position(&p, "solved", &p.solved)], within.clone());
        let each = Goal::new(
            listed
                .iter()
                .enumerate()
                .map(|(i, s)| position(&p, &format!("g{i}"), s))
                .collect(),
        );
        let dist = distances(&p, &listed, 6);
        // Membership: every listed position is in the closed goal, and a position the
        // moves do not reach is not.
        for s in &listed {
            assert!(closed.reached_by(&p, s, &[]).is_some());
        }
        let f = p.apply_sequence(&p.solved, &[name("F")]);
        assert_eq!(
            closed.reached_by(&p, &f, &[]).is_some(),
            listed.contains(&f)
        );
        let mut rng = 7u64;
        for walk in 0..24 {
            let mut s = p.solved.clone();
            for _ in 0..(walk % 8 + 3) {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = MoveId(((rng >> 33) % p.moves.len() as u64) as u16);
                s = s.then(&p.mv(m).effect, &p.sets);
            }
            let got = optimal(&p, &s, &closed);
            let want = optimal(&p, &s, &each);
            assert!(!got.is_empty(), "walk {walk}");
            assert_eq!(got, want, "walk {walk}, within {within:?}");
            if let Some(&d) = dist.get(&s) {
                assert!(got.iter().all(|sol| sol.len() as u32 == d), "walk {walk}");
            }
            // Every solution ends in the closure.
            for sol in &got {
                let end = p.apply_sequence(&s, sol);
                assert!(listed.contains(&end), "walk {walk}: {sol:?}");
            }
        }
    }
}
