//! The chain room against brute force: coset counts against breadth-first searches of
//! small groups, every phase of every answer ending inside its subgroup, and the
//! refusals.

use super::*;
use crate::def::parse_puzzle;
use crate::group::{Group, Verdict};
use crate::puzzle::{MoveId, State};
use crate::rng::Rng;
use crate::storage::cache::TableCache;
use crate::table::Tables;
use std::collections::HashSet;

fn puzzle(bytes: &[u8]) -> Puzzle {
    parse_puzzle(bytes, "test.def").unwrap().0
}

fn two() -> Puzzle {
    puzzle(include_bytes!("../../puzzles/2x2x2.def"))
}

/// Every state `moves` reach from `start`, by breadth-first search.
fn closure(p: &Puzzle, start: &State, moves: &[MoveId], map: impl Fn(&State) -> State) -> usize {
    let mut seen: HashSet<State> = HashSet::new();
    let mut frontier = vec![start.clone()];
    seen.insert(map(start));
    let mut all: HashSet<State> = HashSet::from([start.clone()]);
    while let Some(s) = frontier.pop() {
        for &m in moves {
            let t = s.then(&p.mv(m).effect, &p.sets);
            if all.insert(t.clone()) {
                seen.insert(map(&t));
                frontier.push(t);
            }
        }
    }
    seen.len()
}

/// Every state `moves` reach from solved.
fn states(p: &Puzzle, moves: &[MoveId]) -> HashSet<State> {
    let mut all: HashSet<State> = HashSet::from([p.solved.clone()]);
    let mut frontier = vec![p.solved.clone()];
    while let Some(s) = frontier.pop() {
        for &m in moves {
            let t = s.then(&p.mv(m).effect, &p.sets);
            if all.insert(t.clone()) {
                frontier.push(t);
            }
        }
    }
    all
}

/// Every power of the generators (a breadth-first search needs them all only for
/// directed moves; the generators alone reach the same states).
fn gens(p: &Puzzle, g: &Subgroup) -> Vec<MoveId> {
    g.generators(p)
}

#[test]
fn coset_counts_match_brute_force() {
    let p = two();
    // <U, R> (29,160 positions) down to <U, R2> and then to nothing.
    let text = "U R\nU R2\n";
    let mut q = p.clone();
    q.searched = p.base_moves.iter().map(|b| b.name != "F").collect();
    let chain = Chain::read(&q, text, "ur.chain").unwrap();
    assert_eq!(chain.phases.len(), 2);
    assert_eq!(chain.positions.to_string(), "29160");
    for phase in &chain.phases {
        let upper = gens(&q, &phase.upper);
        let lower = gens(&q, &phase.lower);
        let all = closure(&q, &q.solved, &upper, |s| s.clone());
        let inside = closure(&q, &q.solved, &lower, |s| s.clone());
        let target = Target::of(&q, &lower);
        let pictures = closure(&q, &q.solved, &upper, |s| target.picture(s));
        assert_eq!(all, inside * pictures, "{}", phase.upper.describe(&q));
        assert_eq!(phase.cosets.to_string(), pictures.to_string());
        // The phase puzzle's own positions are the pictures too.
        let pp = &phase.puzzle;
        let pmoves: Vec<MoveId> = (0..pp.moves.len()).map(|m| MoveId(m as u16)).collect();
        assert_eq!(closure(pp, &pp.solved, &pmoves, |s| s.clone()), pictures);
    }
}

#[test]
fn a_picture_that_misses_a_parity_is_refined() {
    let p = two();
    // <U2, R2, F2> has 24 positions, but its coarsest picture (orbits of positions, all
    // orientations kept) cannot tell them from the 96 of the pieces' positions its
    // orbits allow. The picture is refined until it can: some labels told apart again
    // (or the corners' parity shown), with every picture of the subgroup a goal.
    let chain = Chain::read(&p, "# squares only\nU2 R2 F2\n", "sq.chain").unwrap();
    assert_eq!(chain.phases.len(), 2);
    let phase = &chain.phases[0];
    assert!(
        phase.goal.is_some(),
        "the refined picture has several goals"
    );
    // Brute force: a position of the upper group looks solved exactly when it is a
    // position of the lower one.
    let all = states(&p, &gens(&p, &phase.upper));
    let inside = states(&p, &gens(&p, &phase.lower));
    assert_eq!(inside.len(), 24);
    let looks_solved: HashSet<State> = all.into_iter().filter(|s| phase.reached(s)).collect();
    assert_eq!(looks_solved, inside);
    assert_eq!(phase.cosets.to_string(), (3_674_160 / 24).to_string());
    // Each phase's solutions end inside its subgroup.
    let mut fast = Fast::new(&p, &chain, |_| {
        Tables::new(TableCache::in_memory(), 64 << 20)
    });
    let mut rng = Rng::new(5);
    let group = Group::new(&p).unwrap();
    for _ in 0..5 {
        let start = group.random_state(&mut rng).unwrap();
        let out = fast.solve(&start, &Effort::default(), &mut |_| {}).unwrap();
        let sol = out.solution.unwrap();
        assert!(p.is_solved(&p.apply_sequence(&start, &sol), &[]));
    }
}

#[test]
fn chains_that_cannot_be_read_are_refused() {
    let p = two();
    // A move that is not within the line before.
    let err = Chain::read(&p, "U R2\nU R\n", "up.chain").unwrap_err();
    assert!(err.to_string().contains("is not within"), "{err}");
    let err = Chain::read(&p, "U X\n", "x.chain").unwrap_err();
    assert!(
        err.to_string().starts_with("x.chain:1:3: unknown move `X`"),
        "{err}"
    );
}

#[test]
fn found_chains_are_exact_and_within_the_limit() {
    let p = two();
    // Under a small limit the 2x2x2 takes more than one phase.
    let limit = crate::group::BigUint::from(20_000u64);
    let chain = find(&p, &limit).unwrap();
    assert!(chain.phases.len() >= 2);
    let mut product = crate::group::BigUint::one();
    for phase in &chain.phases {
        assert!(phase.cosets <= limit, "{}", phase.cosets);
        product = product.mul(&phase.cosets);
    }
    // The phases' coset counts multiply to the positions.
    assert_eq!(product, chain.positions);
    // With room for the whole puzzle, one phase.
    let one = find(&p, &coset_limit(1 << 30)).unwrap();
    assert_eq!(one.phases.len(), 1);
}

#[test]
fn every_phase_ends_inside_its_subgroup() {
    let p = two();
    let chain = find(&p, &crate::group::BigUint::from(20_000u64)).unwrap();
    let mut fast = Fast::new(&p, &chain, |_| {
        Tables::new(TableCache::in_memory(), 64 << 20)
    });
    let top = Group::new(&p).unwrap();
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for _ in 0..40 {
        let start = top.random_state(&mut rng).unwrap();
        let effort = Effort {
            tries: Some(30),
            ..Effort::default()
        };
        let mut answers = Vec::new();
        let out = fast
            .solve(&start, &effort, &mut |s| answers.push(s.to_vec()))
            .unwrap();
        let best = out.solution.unwrap();
        assert_eq!(answers.last(), Some(&best));
        // Each answer is shorter than the one before.
        assert!(answers.windows(2).all(|w| w[1].len() < w[0].len()));
        assert!(out.phase_lengths.iter().sum::<usize>() >= best.len());
        // Where no moves merged, every phase ends inside its subgroup.
        if out.phase_lengths.iter().sum::<usize>() != best.len() {
            continue;
        }
        let mut state = start.clone();
        let mut at = 0;
        for (phase, &len) in chain.phases.iter().zip(&out.phase_lengths) {
            let part = &best[at..at + len];
            at += len;
            // The phase's moves are moves of its upper group.
            let upper = phase.upper.group(&p).unwrap();
            let made = p.apply_sequence(&p.solved, part);
            assert_eq!(upper.check(&made), Verdict::Reachable);
            state = p.apply_sequence(&state, part);
            assert!(phase.reached(&state));
            let inside = match phase.lower.is_trivial(&p) {
                true => state == p.solved,
                false => phase.lower.group(&p).unwrap().check(&state) == Verdict::Reachable,
            };
            assert!(inside, "{}", phase.lower.describe(&p));
        }
        assert_eq!(state, p.solved);
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}

#[test]
fn unreachable_positions_are_said_so() {
    let p = two();
    let chain = find(&p, &coset_limit(1 << 30)).unwrap();
    let mut fast = Fast::new(&p, &chain, |_| {
        Tables::new(TableCache::in_memory(), 64 << 20)
    });
    let mut twisted = p.solved.clone();
    twisted.sets[0].ori[0] = 1;
    let out = fast
        .solve(&twisted, &Effort::default(), &mut |_| panic!("no answer"))
        .unwrap();
    assert!(out.solution.is_none());
    assert!(out.unreachable.is_some());
}

#[test]
fn puzzles_without_such_chains_are_refused() {
    let p = puzzle(include_bytes!("../../puzzles/3x3x3_bandaged.def"));
    let err = find(&p, &coset_limit(1 << 30)).unwrap_err();
    assert!(err.to_string().contains("Block"), "{err}");
    let p = puzzle(include_bytes!("../../puzzles/8puzzle.def"));
    let err = find(&p, &coset_limit(1 << 30)).unwrap_err();
    assert!(err.to_string().contains("guarded"), "{err}");
}
