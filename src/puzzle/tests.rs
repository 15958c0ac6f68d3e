//! Unit and property tests of the puzzle model: power naming, composition, inverses.

use super::*;
use proptest::prelude::*;

fn one_set(size: usize, n: u8) -> Vec<SetDef> {
    vec![SetDef {
        name: "A".into(),
        size,
        orientations: n,
    }]
}

#[test]
fn power_names_follow_ksolve() {
    let names = |k: u32| (1..k).map(|j| power_name("X", j, k)).collect::<Vec<_>>();
    assert_eq!(names(2), ["X"]);
    assert_eq!(names(3), ["X", "X'"]);
    assert_eq!(names(4), ["X", "X2", "X'"]);
    assert_eq!(names(5), ["X", "X2", "X2'", "X'"]);
    assert_eq!(names(6), ["X", "X2", "X3", "X2'", "X'"]);
    assert_eq!(qtm_cost(3, 4), 1);
    assert_eq!(qtm_cost(3, 6), 3);
}

/// A 2x2x2 R move in file form: cycles 2->3->6->5 with twists given per source.
#[test]
fn ksolve_orientation_convention() {
    let sets = one_set(7, 3);
    let r = Transform {
        sets: vec![SetState {
            perm: vec![0, 2, 5, 3, 1, 4, 6],
            ori: vec![0, 2, 1, 0, 1, 2, 0],
        }],
    };
    let p = Puzzle::new(
        None,
        sets.clone(),
        Transform::identity(&sets),
        vec![("R".into(), r.clone(), false)],
        vec![IgnoreMask::default()],
        vec![],
    );
    assert_eq!(p.base_moves[0].order, 4);
    let names: Vec<_> = p.moves.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["R", "R2", "R'"]);
    // Applying R to the solved state puts piece 3 (label 2) at position 2 (index 1) with
    // the twist ksolve+ lists for position 3, the position it came from.
    let s = Transform::identity(&sets).then(&p.moves[0].effect, &sets);
    assert_eq!(s.sets[0].perm, vec![0, 2, 5, 3, 1, 4, 6]);
    assert_eq!(s.sets[0].ori, vec![0, 1, 2, 0, 2, 1, 0]);
    assert_eq!(p.moves[0].effect.to_ksolve(), r);
}

fn arb_move(size: usize, n: u8) -> impl Strategy<Value = Transform> {
    (
        Just((0..size as u16).collect::<Vec<_>>()).prop_shuffle(),
        proptest::collection::vec(0..n, size),
    )
        .prop_map(|(perm, ori)| Transform {
            sets: vec![SetState { perm, ori }],
        })
}

proptest! {
    #[test]
    fn move_then_inverse_is_identity(m in arb_move(9, 3)) {
        let sets = one_set(9, 3);
        let m = Transform::from_ksolve(&sets, &m);
        prop_assert!(m.then(&m.inverse(&sets), &sets).is_identity());
        prop_assert!(m.inverse(&sets).then(&m, &sets).is_identity());
    }

    #[test]
    fn powers_are_repeated_moves(m in arb_move(7, 4)) {
        let sets = one_set(7, 4);
        let p = Puzzle::new(None, sets.clone(), Transform::identity(&sets),
            vec![("M".into(), m, false)], vec![IgnoreMask::default()], vec![]);
        let base = &p.base_moves[0];
        let mut acc = Transform::identity(&sets);
        for (j, &id) in base.powers.iter().enumerate() {
            acc = acc.then(&base.effect, &sets);
            prop_assert_eq!(&p.mv(id).effect, &acc);
            prop_assert_eq!(p.mv(id).power, j as u32 + 1);
        }
        // One more application closes the cycle: the order is right.
        if base.order > 1 {
            prop_assert!(acc.then(&base.effect, &sets).is_identity());
        }
    }

    #[test]
    fn composition_is_associative(a in arb_move(6, 2), b in arb_move(6, 2), c in arb_move(6, 2)) {
        let sets = one_set(6, 2);
        let ab_c = a.then(&b, &sets).then(&c, &sets);
        let a_bc = a.then(&b.then(&c, &sets), &sets);
        prop_assert_eq!(ab_c, a_bc);
    }
}
