//! Tests of the perfect index: round trips and move tables against the piece model.

use super::*;
use crate::puzzle::{IgnoreMask, SetState};

/// A small puzzle with one twisted orbit, one untwisted orbit holding oriented
/// solved pieces, repeated labels and a fixed position.
fn mixed() -> Puzzle {
    let sets = vec![
        SetDef {
            name: "A".into(),
            size: 4,
            orientations: 3,
        },
        SetDef {
            name: "B".into(),
            size: 4,
            orientations: 2,
        },
    ];
    let solved = Transform {
        sets: vec![
            SetState {
                perm: vec![0, 1, 2, 3],
                ori: vec![0, 0, 0, 1],
            },
            SetState {
                perm: vec![0, 0, 1, 2],
                ori: vec![1, 0, 0, 0],
            },
        ],
    };
    let m1 = Transform {
        sets: vec![
            SetState {
                perm: vec![1, 2, 0, 3],
                ori: vec![1, 2, 0, 0],
            },
            SetState {
                perm: vec![1, 2, 0, 3],
                ori: vec![0, 0, 0, 0],
            },
        ],
    };
    let m2 = Transform {
        sets: vec![
            SetState {
                perm: vec![0, 1, 2, 3],
                ori: vec![0, 0, 0, 2],
            },
            SetState {
                perm: vec![0, 1, 2, 3],
                ori: vec![0, 0, 0, 0],
            },
        ],
    };
    Puzzle::new(
        None,
        sets,
        solved,
        vec![("X".into(), m1, false), ("Y".into(), m2, false)],
        vec![IgnoreMask::default(), IgnoreMask::default()],
        vec![],
    )
}

/// One set of pieces with the given solved labels, turned by two moves.
fn one_set(labels: Vec<u16>, x: Vec<u16>, y: Vec<u16>) -> Puzzle {
    let n = labels.len();
    let sets = vec![SetDef {
        name: "D".into(),
        size: n,
        orientations: 1,
    }];
    let state = |perm: Vec<u16>| Transform {
        sets: vec![SetState {
            perm,
            ori: vec![0; n],
        }],
    };
    Puzzle::new(
        None,
        sets,
        state(labels),
        vec![("X".into(), state(x), false), ("Y".into(), state(y), false)],
        vec![IgnoreMask::default()],
        vec![],
    )
}

/// Every state the moves reach from solved, by brute force on the piece model.
fn reachable(p: &Puzzle, transforms: &[Transform]) -> Vec<State> {
    let mut seen = std::collections::HashSet::new();
    let mut list = vec![p.solved.clone()];
    seen.insert(p.solved.clone());
    let mut next = 0;
    while next < list.len() {
        let s = list[next].clone();
        next += 1;
        for t in transforms {
            let n = s.then(t, &p.sets);
            if seen.insert(n.clone()) {
                list.push(n);
            }
        }
    }
    list
}

/// The index is a bijection from exactly the reachable states onto `0..space`, and
/// its neighbours (computed, by move table and by cursor) follow the piece model.
fn check_exact(p: &Puzzle, merge: bool, want_space: u64) {
    let transforms: Vec<Transform> = p.moves.iter().map(|m| m.effect.clone()).collect();
    let mut ix = Indexer::new(p, &transforms, merge).unwrap();
    let reached = reachable(p, &transforms);
    assert_eq!(reached.len() as u64, want_space);
    assert_eq!(ix.space(), want_space);
    let mut sc = ix.scratch();
    let mut hit = vec![false; ix.space() as usize];
    for s in &reached {
        assert!(ix.describes(s, &mut sc));
        let i = ix.index_of(s, &mut sc);
        assert!(!hit[i as usize], "two states share index {i}");
        hit[i as usize] = true;
        assert_eq!(ix.state_of(i, &mut sc), *s);
    }
    let computed: Vec<Vec<u64>> = (0..ix.space())
        .map(|i| {
            (0..ix.ntrans())
                .map(|t| ix.neighbour(i, t, &mut sc))
                .collect()
        })
        .collect();
    ix.build_tables(u64::MAX);
    assert!(ix.components().iter().all(|c| c.has_table()));
    let mut cur = Cursor::new(&ix);
    for i in 0..ix.space() {
        cur.seek(i);
        let s = ix.state_of(i, &mut sc);
        for (t, tr) in transforms.iter().enumerate() {
            let want = ix.index_of(&s.then(tr, &p.sets), &mut sc);
            assert_eq!(cur.neighbour(t), want);
            assert_eq!(computed[i as usize][t], want);
        }
    }
}

#[test]
fn index_covers_exactly_the_reachable_states() {
    // The coordinates alone would describe 3! * 3^2 * 3 (A) * 3! (B) = 972 states; the
    // moves reach 9 (X and Y commute and each has order 3), and the index holds those.
    check_exact(&mixed(), false, 9);
    check_exact(&mixed(), true, 9);
}

#[test]
fn even_arrangements_are_ranked_in_half() {
    // Nine distinct pieces that only ever 3-cycle or 9-cycle: every arrangement is even,
    // 9!/2 of them, too many to group, so the orbit is one coordinate of half size.
    let p = one_set(
        (0..9).collect(),
        vec![1, 2, 0, 3, 4, 5, 6, 7, 8],
        vec![1, 2, 3, 4, 5, 6, 7, 8, 0],
    );
    check_exact(&p, true, 181_440);
    let transforms: Vec<Transform> = p.moves.iter().map(|m| m.effect.clone()).collect();
    let ix = Indexer::new(&p, &transforms, false).unwrap();
    assert_eq!(ix.components().len(), 1);
    // An odd arrangement is not described.
    let mut odd = p.solved.clone();
    odd.sets[0].perm.swap(0, 1);
    let mut sc = ix.scratch();
    assert!(!ix.describes(&odd, &mut sc));
}

#[test]
fn interchangeable_pieces_have_no_parity_rule() {
    // Labels 0, 0, 1, 1, 2 under 3-cycles: swapping the two 0s is free, so all 30
    // arrangements occur although every move is even.
    let p = one_set(
        vec![0, 0, 1, 1, 2],
        vec![1, 2, 0, 3, 4],
        vec![0, 1, 3, 4, 2],
    );
    check_exact(&p, false, 30);
}

#[test]
fn lehmer_ranks_are_the_coordinate_ranks() {
    let labels = [2u16, 5, 7, 9, 11];
    let coord = PermCoord::new(&labels).unwrap();
    let mut sorted = labels.to_vec();
    sorted.sort_unstable();
    let c = Component {
        set: 0,
        positions: (0..5).collect(),
        kind: Kind::Perm {
            coord: coord.clone(),
            ride: 1,
            sorted,
            distinct: true,
            even: None,
        },
        count: coord.count(),
        src: vec![],
        twist: vec![],
        ntrans: 0,
        table: None,
    };
    let mut out = [0u16; 5];
    let mut back = [0u16; 5];
    for r in 0..coord.count() {
        coord.unrank(r, &mut out);
        assert_eq!(c.rank_perm(&out), r);
        c.unrank_perm(r, &mut back);
        assert_eq!(back, out);
    }
}

/// A composite part inside a composite: two twisted orbits and a small arrangement,
/// grouped into a `Reach` component (only some combinations occur) which the merge
/// then puts into a `Product` with the remaining coordinate. The product's move table
/// must step the group by the group's own table, whatever its rows look like.
#[test]
fn a_reach_group_inside_a_product_steps_by_its_table() {
    let p = crate::def::parse_puzzle(crate::gods::tests::PRODUCT_OF_REACH.as_bytes(), "t.def")
        .unwrap()
        .0;
    let transforms: Vec<Transform> = p.moves.iter().map(|m| m.effect.clone()).collect();
    let mut ix = Indexer::new(&p, &transforms, true).unwrap();
    let nested = ix.components().iter().any(|c| match &c.kind {
        Kind::Product { parts } => parts.iter().any(|q| matches!(q.kind, Kind::Reach { .. })),
        _ => false,
    });
    assert!(nested, "the layout this test is about");
    ix.build_tables(u64::MAX);
    let mut sc = ix.scratch();
    let mut cur = Cursor::new(&ix);
    let reached = reachable(&p, &transforms);
    assert_eq!(reached.len(), 192);
    for s in &reached {
        let i = ix.index_of(s, &mut sc);
        cur.seek(i);
        for (t, tr) in transforms.iter().enumerate() {
            let want = ix.index_of(&s.then(tr, &p.sets), &mut sc);
            assert_eq!(cur.neighbour(t), want);
            assert_eq!(ix.neighbour(i, t, &mut sc), want);
        }
    }
}
