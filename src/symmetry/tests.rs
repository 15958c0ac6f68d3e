//! Tests of the symmetry search: the group order of every shipped puzzle (with the
//! reasoning that gives it), the group laws, that every element truly conjugates moves
//! onto moves, and that conjugating positions commutes with making moves.

use super::*;
use crate::def::load_puzzle;
use crate::group::points::{compose, inverse};
use crate::rng::Rng;

fn shipped(name: &str) -> Puzzle {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    load_puzzle(root.join("puzzles").join(name)).unwrap().0
}

fn order_and_mirrors(p: &Puzzle) -> (usize, usize) {
    let g = SymmetryGroup::find(p).unwrap();
    (g.order(), g.mirrors())
}

/// The orders, reasoned from the geometry of each definition's move set:
/// - 3x3x3: all six faces turn, so every symmetry of the cube keeps the move set: the
///   24 rotations and their 24 mirror images (which turn clockwise into anticlockwise).
/// - 3x3x3 with an ignorable last layer: the Ignore marks the U layer, so only the
///   symmetries that keep the U face: the 4 turns about the U–D axis and 4 mirrors
///   through planes containing it.
/// - bandaged 3x3x3: the URF corner and UR edge are one block; a symmetry must keep the
///   pair, so it fixes the UR edge and the URF corner: the identity and the mirror
///   through the plane of the U–R diagonal, which swaps U and R and keeps F.
/// - 2x2x2 (U, R, F; the DBL corner never moves): the symmetries of the cube that fix
///   the DBL corner, and with it the three faces not touching it: the 3 turns about
///   the URF–DBL diagonal and 3 mirrors through planes containing it.
/// - the same 2x2x2 with clockwise-only moves: a mirror would need U' among the moves,
///   so only the 3 turns remain.
/// - Pyraminx without tips (U, L, R, B, one per vertex): every symmetry of the
///   tetrahedron permutes the vertices and so the moves: S4, 12 rotations and 12
///   mirrors.
/// - Skewb with the URF corner held still (turns about DRB, ULB, DLF and DBL): the
///   symmetries of the cube that keep that set of four corners. DBL is the only one of
///   them next to the other three, so they fix DBL (and URF): 3 turns about that
///   diagonal and 3 mirrors.
/// - Megaminx with all twelve faces: the full icosahedral group, 60 rotations and 60
///   mirrors.
/// - 4x4x4 centres, outer layers and inner slices: the 48 symmetries of the cube, and
///   one more that the centres alone allow: a half turn of each face's 2x2 block of
///   centres, which fixes every outer move and sends each inner slice to the opposite
///   inner slice turning the same way (`u` to `d'`). With the corners and edges absent
///   nothing tells it from the identity, so it doubles the group: 96, half of them
///   mirrors.
#[test]
fn shipped_puzzles_have_the_symmetries_of_their_move_sets() {
    for (file, order, mirrors) in [
        ("3x3x3.def", 48, 24),
        ("3x3x3_ll.def", 8, 4),
        ("3x3x3_bandaged.def", 2, 1),
        ("2x2x2.def", 6, 3),
        ("2x2x2_directed.def", 3, 0),
        ("pyraminx.def", 24, 12),
        ("skewb.def", 6, 3),
        ("megaminx.def", 120, 60),
        ("4x4x4_centres.def", 96, 48),
    ] {
        assert_eq!(
            order_and_mirrors(&shipped(file)),
            (order, mirrors),
            "{file}"
        );
    }
}

/// The 3x3x3 without its D move: the symmetries of the cube that keep the other five
/// faces, that is the D face: 4 turns about the U–D axis and 4 mirrors.
#[test]
fn a_missing_move_leaves_its_stabiliser() {
    let full = shipped("3x3x3.def");
    let d = full.base_by_name("D").unwrap();
    let base = full
        .base_moves
        .iter()
        .enumerate()
        .filter(|&(b, _)| b != d)
        .map(|(_, m)| (m.name.clone(), m.effect.to_ksolve(), false))
        .collect();
    let p = Puzzle::new(
        None,
        full.sets.clone(),
        full.solved.clone(),
        base,
        full.ignore.clone(),
        vec![],
    );
    assert_eq!(order_and_mirrors(&p), (8, 4));
}

/// Labels decide which symmetries keep the solved state. A symmetry may recolour (the
/// 3x3x3's relabel every piece), but it must carry each set of same-coloured positions
/// onto such a set. With the U and D centres of one colour, the eight positions of that
/// colour must go to themselves, so a symmetry must keep the U–D axis: of the cube's
/// 48, the 8 rotations and 8 mirrors that do; times the half turn of every face's
/// centres: 32, half of them mirrors.
#[test]
fn interchangeable_labels_decide_which_symmetries_keep_the_solved_state() {
    let mut p = shipped("4x4x4_centres.def");
    for l in &mut p.solved.sets[0].perm {
        if *l == 5 {
            *l = 0;
        }
    }
    assert_eq!(order_and_mirrors(&p), (32, 16));
}

/// A forbidden pair must be carried onto a forbidden pair: forbidding U after R on the
/// 3x3x3 leaves only symmetries fixing U and R as they are, which is the identity.
#[test]
fn forbidden_pairs_are_kept() {
    let mut p = shipped("3x3x3.def");
    let (r, u) = (p.move_by_name("R").unwrap(), p.move_by_name("U").unwrap());
    p.forbid(r, u);
    assert_eq!(order_and_mirrors(&p), (1, 0));
}

/// The trivial group (for `--no-symmetry`) holds the identity alone, and it does
/// nothing to positions.
#[test]
fn trivial_group_is_the_identity() {
    let p = shipped("3x3x3.def");
    let g = SymmetryGroup::trivial(&p).unwrap();
    assert_eq!((g.order(), g.mirrors()), (1, 0));
    assert!(g.elements()[0].is_identity());
    let x = random_state(&p, &mut Rng::new(3), 20);
    assert_eq!(g.elements()[0].conjugate(&x), x);
}

#[test]
fn a_search_out_of_budget_is_an_error() {
    let p = shipped("megaminx.def");
    assert_eq!(
        SymmetryGroup::find_with_budget(&p, 50).unwrap_err(),
        SymmetryError::Budget(50)
    );
}

#[test]
fn a_malformed_puzzle_is_an_error_not_a_panic() {
    let mut p = shipped("2x2x2.def");
    p.solved.sets[0].ori[0] = 7;
    assert!(matches!(
        SymmetryGroup::find(&p),
        Err(SymmetryError::Malformed(_))
    ));
}

fn random_state(p: &Puzzle, rng: &mut Rng, len: usize) -> State {
    let seq: Vec<MoveId> = (0..len)
        .map(|_| MoveId(rng.below(p.moves.len() as u64) as u16))
        .collect();
    p.apply_sequence(&p.solved, &seq)
}

/// The group laws, checked on the point permutations themselves: the identity comes
/// first, every product and every inverse of stored permutations is stored, and every
/// element conjugates every move's permutation onto the permutation of its image move,
/// of the same cost.
#[test]
fn group_laws_and_conjugation_on_points() {
    for file in [
        "3x3x3.def",
        "3x3x3_ll.def",
        "3x3x3_bandaged.def",
        "2x2x2.def",
        "2x2x2_directed.def",
        "pyraminx.def",
        "skewb.def",
        "megaminx.def",
        "4x4x4_centres.def",
    ] {
        let p = shipped(file);
        let g = SymmetryGroup::find(&p).unwrap();
        assert!(g.points_closed(), "{file}");
        let layout = Layout::new(&p.sets, &p.solved).unwrap();
        let perms: Vec<Perm> = p.moves.iter().map(|m| layout.perm_of(&m.effect)).collect();
        let els = g.elements();
        assert!(els[0].is_identity(), "{file}");
        let stored: HashMap<&[u16], usize> = els
            .iter()
            .enumerate()
            .map(|(i, e)| (e.points(), i))
            .collect();
        assert_eq!(stored.len(), els.len(), "{file}: duplicate elements");
        for (a, ea) in els.iter().enumerate() {
            let inv = inverse(ea.points());
            assert_eq!(stored.get(inv.as_slice()), Some(&g.inverse(a)), "{file}");
            for (b, eb) in els.iter().enumerate() {
                let prod = compose(ea.points(), eb.points());
                assert_eq!(
                    stored.get(prod.as_slice()),
                    Some(&g.product(a, b)),
                    "{file}"
                );
            }
            for (m, q) in perms.iter().enumerate() {
                let image = ea.move_image(MoveId(m as u16));
                let conj = compose(&compose(&inv, q), ea.points());
                assert_eq!(conj, perms[image.index()], "{file}: element {a}, move {m}");
                assert_eq!(p.moves[m].qtm, p.mv(image).qtm, "{file}");
            }
            // Conjugating the moves by the inverse undoes the map.
            let back = &els[g.inverse(a)];
            for m in 0..p.moves.len() {
                let id = MoveId(m as u16);
                assert_eq!(back.move_image(ea.move_image(id)), id, "{file}");
            }
        }
    }
}

/// Conjugation commutes with moves, `S(X·m) = S(X)·σ(m)`, keeps the solved state and
/// the definition's ignores, and (with distinct labels) agrees with conjugating the
/// position as a transformation on points.
#[test]
fn conjugating_positions_commutes_with_moves() {
    let mut rng = Rng::new(17);
    for file in [
        "3x3x3_ll.def",
        "3x3x3_bandaged.def",
        "2x2x2.def",
        "pyraminx.def",
        "skewb.def",
        "megaminx.def",
        "4x4x4_centres.def",
    ] {
        let p = shipped(file);
        let g = SymmetryGroup::find(&p).unwrap();
        let distinct = p.solved == Transform::identity(&p.sets);
        for _ in 0..4 {
            let x = random_state(&p, &mut rng, 25);
            for (i, s) in g.elements().iter().enumerate() {
                let sx = s.conjugate(&x);
                assert_eq!(s.conjugate(&p.solved), p.solved, "{file}");
                assert_eq!(
                    p.is_solved(&sx, &p.ignore),
                    p.is_solved(&x, &p.ignore),
                    "{file}"
                );
                if distinct {
                    assert_eq!(sx, g.conjugate_transform(i, &x), "{file}");
                }
                for m in 0..p.moves.len() {
                    let id = MoveId(m as u16);
                    let xm = x.then(&p.mv(id).effect, &p.sets);
                    let moved = sx.then(&p.mv(s.move_image(id)).effect, &p.sets);
                    assert_eq!(s.conjugate(&xm), moved, "{file}: element {i}, move {m}");
                }
            }
        }
    }
}

/// A last-layer position that the Ignore lets count as solved stays solved under every
/// symmetry, and one that is not stays unsolved.
#[test]
fn conjugation_keeps_ignored_positions_solved() {
    let p = shipped("3x3x3_ll.def");
    let g = SymmetryGroup::find(&p).unwrap();
    let u = p.move_by_name("U").unwrap();
    let r = p.move_by_name("R").unwrap();
    let ll = p.apply_sequence(&p.solved, &[u]);
    let not = p.apply_sequence(&p.solved, &[r]);
    for s in g.elements() {
        assert!(p.is_solved(&s.conjugate(&ll), &p.ignore));
        assert!(!p.is_solved(&s.conjugate(&not), &p.ignore));
    }
}
