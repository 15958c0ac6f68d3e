//! Known-answer and property tests of the group module, on puzzles built from geometry
//! (`geometry.rs`) and on small hand-written ones.

use super::geometry::{centers444, cube2, cube3, cube3_with, megaminx, pyraminx, skewb};
use super::*;
use crate::puzzle::{IgnoreMask, SetState, Transform};
use crate::rng::Rng;
use proptest::prelude::*;
use std::collections::{HashSet, VecDeque};

fn group(p: &Puzzle) -> Group {
    Group::new(p).expect("test puzzles are well-formed")
}

/// A one-set puzzle from moves given in file form as 1-based cycles (no twists).
fn cycles_puzzle(size: usize, n: u8, moves: &[(&str, &[&[usize]])]) -> Puzzle {
    let sets = vec![SetDef {
        name: "PIECES".into(),
        size,
        orientations: n,
    }];
    let base = moves
        .iter()
        .map(|(name, cycles)| {
            let mut perm: Vec<u16> = (0..size as u16).collect();
            for c in cycles.iter() {
                // perm[i] = source of the piece arriving at i: each piece moves one step
                // along the cycle.
                for w in 0..c.len() {
                    perm[c[(w + 1) % c.len()] - 1] = (c[w] - 1) as u16;
                }
            }
            let t = Transform {
                sets: vec![SetState {
                    perm,
                    ori: vec![0; size],
                }],
            };
            (name.to_string(), t, false)
        })
        .collect();
    let solved = Transform::identity(&sets);
    Puzzle::new(
        None,
        sets,
        solved,
        base,
        vec![IgnoreMask {
            perm: vec![false; size],
            ori: vec![false; size],
        }],
        vec![],
    )
}

fn two_three_cycles() -> Puzzle {
    cycles_puzzle(5, 1, &[("A", &[&[1, 2, 3]]), ("B", &[&[3, 4, 5]])])
}

/// Every state reachable from solved, by breadth-first search (small puzzles only).
fn bfs_states(p: &Puzzle) -> HashSet<State> {
    let mut seen = HashSet::new();
    let mut todo = VecDeque::new();
    seen.insert(p.solved.clone());
    todo.push_back(p.solved.clone());
    while let Some(s) = todo.pop_front() {
        for m in &p.base_moves {
            let t = s.then(&m.effect, &p.sets);
            if seen.insert(t.clone()) {
                todo.push_back(t);
            }
        }
    }
    seen
}

fn apply(p: &Puzzle, alg: &str) -> State {
    let ids: Vec<_> = alg
        .split_whitespace()
        .map(|m| p.move_by_name(m).unwrap_or_else(|| panic!("no move {m}")))
        .collect();
    p.apply_sequence(&p.solved, &ids)
}

#[test]
fn cube2_has_3674160_positions() {
    let g = group(&cube2());
    assert_eq!(g.order().to_u64(), Some(3_674_160));
    assert_eq!(g.reachable(), Count::Exact(BigUint::from(3_674_160u64)));
}

#[test]
fn cube3_has_its_famous_count_in_12_classes() {
    let g = group(&cube3());
    assert_eq!(g.order().to_string(), "43252003274489856000");
    assert_eq!(g.order().to_u128(), Some(43_252_003_274_489_856_000));
    let o = g.orbits();
    assert_eq!(o.arrangements.with_commas(), "519,024,039,293,878,272,000");
    assert_eq!(
        o.reachable.value().with_commas(),
        "43,252,003,274,489,856,000"
    );
    assert_eq!(o.classes.and_then(|c| c.to_u64()), Some(12));
}

#[test]
fn both_build_phases_give_exact_orders() {
    // The 3x3x3 meets the invariant bound in the randomised phase; the <R, U> subgroup
    // has constraints no simple invariant sees, so the deterministic test finishes it.
    let full = group(&cube3());
    assert!(full.chain.met_bound);
    let ru = group(&cube3_with(&["R", "U"]));
    assert!(!ru.chain.met_bound);
    assert_eq!(ru.order().to_u64(), Some(73_483_200));
    // And R2/U2 alone: the "squares" style subgroup of two half turns has order 12.
    let p = cube3_with(&["R", "U"]);
    let mut half = p.clone();
    for m in &mut half.base_moves {
        m.effect = m.effect.then(&m.effect, &p.sets);
    }
    assert_eq!(group(&half).order().to_u64(), Some(12));
}

#[test]
fn pyraminx_without_tips_has_933120_positions() {
    assert_eq!(group(&pyraminx()).order().to_u64(), Some(933_120));
}

#[test]
fn skewb_with_fixed_centre_orientation_has_3149280_positions() {
    assert_eq!(group(&skewb()).order().to_u64(), Some(3_149_280));
}

#[test]
fn megaminx_order_exceeds_u128() {
    let g = group(&megaminx());
    assert_eq!(
        g.order().with_commas(),
        "100,669,616,553,523,347,122,516,032,313,645,505,168,688,116,411,019,768,627,200,000,000,000"
    );
    assert_eq!(g.order().to_u128(), None);
    let mut rng = Rng::new(5);
    for _ in 0..5 {
        assert!(g.contains(&g.random_state(&mut rng).unwrap()));
    }
}

#[test]
fn cube3_reasons_are_named() {
    let p = cube3();
    let g = group(&p);
    let mut twisted = apply(&p, "R U R' U'");
    assert_eq!(g.check(&twisted), Verdict::Reachable);
    twisted.sets[0].ori[0] = (twisted.sets[0].ori[0] + 1) % 3;
    assert_eq!(
        g.check(&twisted),
        Verdict::Unreachable(Reason::OrientationSum {
            part: "CORNERS".into(),
            sum: 1,
            modulus: 3,
            expected: 0
        })
    );
    let Verdict::Unreachable(r) = g.check(&twisted) else {
        unreachable!()
    };
    assert_eq!(
        r.to_string(),
        "CORNERS orientation sums to 1 (mod 3); a reachable position sums to 0"
    );

    let mut flipped = p.solved.clone();
    flipped.sets[1].ori[3] = 1;
    let Verdict::Unreachable(r) = g.check(&flipped) else {
        panic!("flip reachable")
    };
    assert_eq!(
        r.to_string(),
        "EDGES orientation sums to 1 (mod 2); a reachable position sums to 0"
    );

    let mut swapped = p.solved.clone();
    swapped.sets[0].perm.swap(0, 1);
    let Verdict::Unreachable(r) = g.check(&swapped) else {
        panic!("swap reachable")
    };
    assert_eq!(
        r.to_string(),
        "CORNERS and EDGES permutation parities differ; in a reachable position they are equal"
    );
    // Swapping two edges as well makes the parities agree again.
    swapped.sets[1].perm.swap(0, 1);
    assert_eq!(g.check(&swapped), Verdict::Reachable);

    let mut typo = p.solved.clone();
    typo.sets[0].perm[2] = 1;
    let Verdict::Unreachable(r) = g.check(&typo) else {
        panic!("typo reachable")
    };
    assert_eq!(
        r.to_string(),
        "piece 2 of CORNERS appears twice and piece 3 of CORNERS is missing"
    );

    let mut unknown = p.solved.clone();
    unknown.sets[1].perm[0] = 40;
    let Verdict::Unreachable(r) = g.check(&unknown) else {
        panic!("unknown piece reachable")
    };
    assert_eq!(
        r.to_string(),
        "piece 1 of EDGES is missing and piece 41 of EDGES does not exist in this puzzle"
    );

    let mut range = p.solved.clone();
    range.sets[1].ori[0] = 2;
    assert!(matches!(
        g.check(&range),
        Verdict::Unreachable(Reason::OrientationRange { .. })
    ));

    let mut short = p.solved.clone();
    short.sets[1].perm.pop();
    assert!(matches!(
        g.check(&short),
        Verdict::Unreachable(Reason::Malformed(_))
    ));
}

#[test]
fn odd_arrangement_of_two_three_cycles_is_refused() {
    let p = two_three_cycles();
    let g = group(&p);
    assert_eq!(g.order().to_u64(), Some(60));
    let mut odd = p.solved.clone();
    odd.sets[0].perm.swap(3, 4);
    let v = g.check(&odd);
    assert_eq!(
        v,
        Verdict::Unreachable(Reason::Parity {
            parts: vec!["PIECES".into()]
        })
    );
    let Verdict::Unreachable(r) = v else {
        unreachable!()
    };
    assert_eq!(
        r.to_string(),
        "the PIECES permutation is odd; in a reachable position it is even"
    );
    let o = g.orbits();
    assert_eq!(o.arrangements.to_u64(), Some(120));
    assert_eq!(o.classes.and_then(|c| c.to_u64()), Some(2));
}

#[test]
fn pieces_outside_their_orbit_are_named() {
    // Two separate 3-cycles: positions 1-3 and 4-6 never exchange pieces.
    let p = cycles_puzzle(6, 1, &[("A", &[&[1, 2, 3]]), ("B", &[&[4, 5, 6]])]);
    let g = group(&p);
    assert_eq!(g.order().to_u64(), Some(9));
    let mut s = p.solved.clone();
    s.sets[0].perm.swap(2, 3);
    let Verdict::Unreachable(r) = g.check(&s) else {
        panic!("reachable")
    };
    assert_eq!(
        r.to_string(),
        "piece 4 of PIECES is at position 3, where no sequence of moves can bring it"
    );
}

#[test]
fn parities_tied_across_three_parts_are_explained() {
    // Three 2-cycles that each move two of the three blocks at once: the parity sum of
    // the three blocks is always even, no single block or pair is tied.
    let p = cycles_puzzle(
        6,
        1,
        &[("A", &[&[1, 2], &[3, 4]]), ("B", &[&[3, 4], &[5, 6]])],
    );
    let g = group(&p);
    let mut s = p.solved.clone();
    s.sets[0].perm.swap(0, 1);
    let Verdict::Unreachable(r) = g.check(&s) else {
        panic!("reachable")
    };
    assert_eq!(
        r.to_string(),
        "the permutation parities of PIECES positions 1, 2, PIECES positions 3, 4 and PIECES \
         positions 5, 6 add up to odd; in a reachable position they add up to even"
    );
}

#[test]
fn membership_of_a_cube3_scramble_takes_well_under_10ms() {
    let p = cube3();
    let g = group(&p);
    let scramble = apply(&p, "R U2 F' L D B2 R' U F2 D' L2 B U' R2 F D2 L' B'");
    let start = std::time::Instant::now();
    let mut ok = true;
    for _ in 0..100 {
        ok &= g.contains(&scramble);
    }
    let per = start.elapsed() / 100;
    assert!(ok);
    assert!(
        per < std::time::Duration::from_millis(10),
        "{per:?} per check"
    );
}

#[test]
fn chain_build_is_fast() {
    let start = std::time::Instant::now();
    let _ = group(&cube3());
    let t3 = start.elapsed();
    // Debug builds are several times slower than release; the bound is generous.
    assert!(
        t3 < std::time::Duration::from_millis(500),
        "3x3x3 chain took {t3:?}"
    );
}

/// Upper tail of the chi-square distribution, by the Wilson–Hilferty approximation:
/// the critical value at significance `p` for `df` degrees of freedom, with `z` the
/// matching standard normal quantile.
fn chi_square_critical(df: f64, z: f64) -> f64 {
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

fn chi_square(g: &Group, states: &HashSet<State>, seed: u64, per_state: usize) -> (f64, f64) {
    let mut rng = Rng::new(seed);
    let mut counts: std::collections::HashMap<State, usize> =
        states.iter().map(|s| (s.clone(), 0)).collect();
    let draws = states.len() * per_state;
    for _ in 0..draws {
        let s = g.random_state(&mut rng).unwrap();
        *counts
            .get_mut(&s)
            .expect("random state outside the reachable set") += 1;
    }
    let expected = per_state as f64;
    let chi: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    // z = 3.09 is the standard normal's 0.999 quantile: p = 0.001.
    (chi, chi_square_critical(states.len() as f64 - 1.0, 3.09))
}

#[test]
fn random_states_are_uniform_chi_square() {
    // Four pieces with three orientations, moved by two twisting 3-cycles.
    let sets = vec![SetDef {
        name: "P".into(),
        size: 4,
        orientations: 3,
    }];
    let mv = |perm: Vec<u16>, ori: Vec<u8>| Transform {
        sets: vec![SetState { perm, ori }],
    };
    let p = Puzzle::new(
        None,
        sets.clone(),
        Transform::identity(&sets),
        vec![
            ("A".into(), mv(vec![1, 2, 0, 3], vec![1, 0, 2, 0]), false),
            ("B".into(), mv(vec![0, 2, 3, 1], vec![0, 1, 1, 1]), false),
        ],
        vec![IgnoreMask::default()],
        vec![],
    );
    let g = group(&p);
    let states = bfs_states(&p);
    assert_eq!(BigUint::from(states.len() as u64), *g.order());
    let (chi, crit) = chi_square(&g, &states, 2024, 40);
    assert!(
        chi < crit,
        "chi-square {chi} over {crit} ({} states)",
        states.len()
    );
}

#[test]
fn random_states_of_interchangeable_pieces_are_uniform() {
    let mut p = two_three_cycles();
    p.solved.sets[0].perm = vec![0, 0, 1, 1, 2];
    let g = group(&p);
    let states = bfs_states(&p);
    assert_eq!(
        g.reachable(),
        Count::Exact(BigUint::from(states.len() as u64))
    );
    let (chi, crit) = chi_square(&g, &states, 77, 200);
    assert!(chi < crit, "chi-square {chi} over {crit}");
}

/// A 2x2x2 whose top corners are all alike and whose bottom corners are all alike, so
/// only the layers (and twists) are told apart.
fn two_color_cube2() -> Puzzle {
    let mut p = cube2();
    // The U turn moves exactly the four top corners.
    let u = &p.base_moves[p.base_by_name("U").unwrap()].effect.sets[0];
    let top: Vec<bool> = (0..7).map(|i| u.perm[i] as usize != i).collect();
    for (l, &t) in p.solved.sets[0].perm.iter_mut().zip(&top) {
        *l = if t { 0 } else { 1 };
    }
    p
}

#[test]
fn interchangeable_count_and_membership_match_search() {
    let p = two_color_cube2();
    let g = group(&p);
    assert!(!g.distinct_pieces());
    let states = bfs_states(&p);
    assert_eq!(
        g.reachable(),
        Count::Exact(BigUint::from(states.len() as u64))
    );
    // Every reachable state is accepted; random relabelled arrangements are accepted
    // exactly when the search found them.
    for s in states.iter().take(300) {
        assert_eq!(g.check(s), Verdict::Reachable);
    }
    let mut rng = Rng::new(9);
    let mut refused = 0;
    for _ in 0..300 {
        let mut s = p.solved.clone();
        let st = &mut s.sets[0];
        for i in (1..7).rev() {
            st.perm.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for o in &mut st.ori {
            *o = rng.below(3) as u8;
        }
        let v = g.check(&s);
        assert_eq!(v == Verdict::Reachable, states.contains(&s), "{s:?}: {v:?}");
        refused += (v != Verdict::Reachable) as u32;
    }
    assert!(
        refused > 100,
        "too few refusals to mean anything: {refused}"
    );
}

#[test]
fn centers_of_4x4x4_count_by_stabiliser() {
    let g = group(&centers444());
    // 24! / (4!)^6: with four alike centres per face every arrangement is reachable.
    assert_eq!(
        g.reachable(),
        Count::Exact(BigUint::from(3_246_670_537_110_000u64))
    );
    let o = g.orbits();
    assert_eq!(o.arrangements.to_u64(), Some(3_246_670_537_110_000));
    assert_eq!(o.classes, None);
}

#[test]
fn tiny_budget_gives_an_upper_bound_or_unknown() {
    let p = centers444();
    let g = group(&p);
    match g.reachable_with_budget(3) {
        Count::UpperBound(b) => assert!(b >= BigUint::from(3_246_670_537_110_000u64)),
        Count::Exact(_) => panic!("three nodes cannot settle the count"),
    }
    let scrambled = apply(&p, "r U f' d2 R");
    assert!(matches!(
        g.check_with_budget(&scrambled, 1),
        Verdict::Unknown(_)
    ));
    assert_eq!(g.check(&scrambled), Verdict::Reachable);
}

#[test]
fn unusual_solved_states_work() {
    // The solved state has permuted labels and twisted pieces; the count is the
    // group order and every random state is a member.
    let mut p = cube2();
    p.solved.sets[0].perm = vec![3, 1, 0, 2, 6, 4, 5];
    p.solved.sets[0].ori = vec![1, 0, 2, 0, 0, 1, 1];
    let g = group(&p);
    assert_eq!(g.order().to_u64(), Some(3_674_160));
    assert_eq!(g.check(&p.solved), Verdict::Reachable);
    let mut rng = Rng::new(3);
    for _ in 0..50 {
        assert_eq!(
            g.check(&g.random_state(&mut rng).unwrap()),
            Verdict::Reachable
        );
    }
    let mut bad = p.solved.clone();
    bad.sets[0].ori[0] = 2;
    let Verdict::Unreachable(r) = g.check(&bad) else {
        panic!("reachable")
    };
    // The solved twists sum to 5 = 2 (mod 3); turning 1 into 2 makes 6 = 0.
    assert_eq!(
        r.to_string(),
        "CORNERS orientation sums to 0 (mod 3); a reachable position sums to 2"
    );
}

#[test]
fn targets_with_ignores_are_judged_only_by_what_they_give() {
    let p = cube3();
    let g = group(&p);
    // An edge's orientation is ignored: the flipped edge elsewhere could be undone there.
    let mut ignore = p.ignore.clone();
    ignore[1].ori[0] = true;
    let mut state = p.solved.clone();
    state.sets[1].ori[5] = 1;
    let t = Target { state, ignore };
    assert!(matches!(g.check_target(&t), Verdict::Unknown(_)));
    // Only permutations ignored: the corner twists are all given and sum to 1.
    let mut ignore = p.ignore.clone();
    ignore[0].perm[..4].iter_mut().for_each(|b| *b = true);
    let mut state = p.solved.clone();
    state.sets[0].ori[2] = 1;
    let t = Target { state, ignore };
    let Verdict::Unreachable(r) = g.check_target(&t) else {
        panic!("judged reachable")
    };
    assert_eq!(
        r.to_string(),
        "CORNERS orientation sums to 1 (mod 3); a reachable position sums to 0"
    );
    // The same with a counter-twist somewhere is undecided.
    let mut t = t;
    t.state.sets[0].ori[6] = 2;
    assert!(matches!(g.check_target(&t), Verdict::Unknown(_)));
}

#[test]
fn blocks_turn_counts_into_bounds_and_members_into_unknowns() {
    let mut p = cube3();
    p.blocks.push(crate::puzzle::Block {
        pieces: vec![(0, 0), (1, 0)],
    });
    let g = group(&p);
    assert!(!g.exact());
    assert_eq!(
        g.reachable(),
        Count::UpperBound(BigUint::from(43_252_003_274_489_856_000u128))
    );
    assert!(matches!(g.check(&p.solved), Verdict::Unknown(_)));
    let mut twisted = p.solved.clone();
    twisted.sets[0].ori[3] = 1;
    assert!(matches!(
        g.check(&twisted),
        Verdict::Unreachable(Reason::OrientationSum { .. })
    ));
    assert_eq!(g.random_state(&mut Rng::new(1)), None);
}

#[test]
fn puzzles_without_moves_have_one_position() {
    let p = cycles_puzzle(3, 2, &[]);
    let g = group(&p);
    assert_eq!(g.order().to_u64(), Some(1));
    assert_eq!(g.check(&p.solved), Verdict::Reachable);
    let mut s = p.solved.clone();
    s.sets[0].ori[1] = 1;
    assert!(matches!(g.check(&s), Verdict::Unreachable(_)));
    assert_eq!(g.orbits().classes.and_then(|c| c.to_u64()), Some(48));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_cube3_states_are_members_and_twists_are_not(seed in any::<u64>(), corner in 0usize..8, twist in 1u8..3) {
        thread_local! {
            static G: Group = group(&cube3());
        }
        G.with(|g| {
            let mut rng = Rng::new(seed);
            let s = g.random_state(&mut rng).unwrap();
            prop_assert_eq!(g.check(&s), Verdict::Reachable);
            let mut t = s.clone();
            t.sets[0].ori[corner] = (t.sets[0].ori[corner] + twist) % 3;
            let is_orientation_sum = matches!(g.check(&t), Verdict::Unreachable(Reason::OrientationSum { .. }));
            prop_assert!(is_orientation_sum);
            Ok(())
        })?;
    }
}

/// The <R, U> cube with the R layer's pieces alike and the rest alike: the count by
/// stabiliser and every verdict agree with breadth-first search. Slow (BFS over 382,725
/// states): `KSOLVE_SLOW_TESTS=1`.
#[test]
fn ru_layers_match_breadth_first_search() {
    if std::env::var_os("KSOLVE_SLOW_TESTS").is_none() {
        return;
    }
    let mut p = cube3_with(&["R", "U"]);
    let r = p.base_moves[p.base_by_name("R").unwrap()].effect.clone();
    for (k, s) in p.solved.sets.iter_mut().enumerate() {
        for (i, l) in s.perm.iter_mut().enumerate() {
            *l = (r.sets[k].perm[i] as usize == i) as u16;
        }
    }
    let g = group(&p);
    let states = bfs_states(&p);
    assert_eq!(
        g.reachable(),
        Count::Exact(BigUint::from(states.len() as u64))
    );
    let movable: Vec<usize> = (0..8)
        .filter(|&i| {
            p.base_moves
                .iter()
                .any(|m| m.effect.sets[0].perm[i] as usize != i)
        })
        .collect();
    let mut rng = Rng::new(4);
    let mut verdicts = [0u32; 2];
    for _ in 0..300 {
        // A reachable state with the movable corners' labels shuffled, two of them
        // counter-twisted and two edges swapped: the invariants rarely decide it.
        let mut s = g.random_state(&mut rng).unwrap();
        let st = &mut s.sets[0];
        for a in (1..movable.len()).rev() {
            let b = rng.below(a as u64 + 1) as usize;
            st.perm.swap(movable[a], movable[b]);
        }
        let a = movable[rng.below(movable.len() as u64) as usize];
        let b = movable[rng.below(movable.len() as u64) as usize];
        if a != b {
            st.ori[a] = (st.ori[a] + 1) % 3;
            st.ori[b] = (st.ori[b] + 2) % 3;
        }
        s.sets[1]
            .perm
            .swap(rng.below(12) as usize, rng.below(12) as usize);
        let v = g.check(&s);
        assert!(!matches!(v, Verdict::Unknown(_)));
        assert_eq!(v == Verdict::Reachable, states.contains(&s), "{s:?}: {v:?}");
        verdicts[(v == Verdict::Reachable) as usize] += 1;
    }
    assert!(verdicts.iter().all(|&c| c > 50), "{verdicts:?}");
}

#[test]
fn interchangeable_cube3_counts() {
    // Only orientations told apart: 3^7 * 2^11 (no parity rule survives).
    let mut orient_only = cube3();
    for s in &mut orient_only.solved.sets {
        s.perm.iter_mut().for_each(|l| *l = 0);
    }
    assert_eq!(
        group(&orient_only).reachable(),
        Count::Exact(BigUint::from(4_478_976u64))
    );
    // The U layer's pieces against the rest: C(8,4) 3^7 * C(12,4) 2^11.
    let mut layers = cube3();
    let u = layers.base_moves[0].effect.clone();
    for (k, s) in layers.solved.sets.iter_mut().enumerate() {
        for (i, l) in s.perm.iter_mut().enumerate() {
            *l = (u.sets[k].perm[i] as usize == i) as u16;
        }
    }
    assert_eq!(
        group(&layers).reachable(),
        Count::Exact(BigUint::from(155_196_518_400u64))
    );
}
