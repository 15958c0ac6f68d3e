//! The Megaminx in WCA notation (`puzzles/megaminx_wca.def`): R++, R--, D++, D-- and U
//! have the properties their meaning forces. R++ turns everything but the L face two
//! fifths clockwise seen from the face opposite L, so R++ followed by turning L back
//! (`L2'`) is a rigid turn of the whole puzzle, one that acts on the L face as `L2'`
//! does; D++ likewise with U. The face turns are puzzles/megaminx.def's, which are
//! checked elsewhere; a whole-puzzle turn is what conjugates every face turn onto a
//! face turn.

use ksolve::puzzle::{Puzzle, Transform};

const FACES: [&str; 12] = [
    "U", "F", "R", "BR", "BL", "L", "DL", "DR", "DBR", "B", "DBL", "D",
];

fn wca() -> Puzzle {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/megaminx_wca.def");
    let (p, warnings) = ksolve::def::load_puzzle(path).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    p
}

/// The transformation of an algorithm (moves and powers by name).
fn t(p: &Puzzle, alg: &str) -> Transform {
    let seq: Vec<_> = alg
        .split_whitespace()
        .map(|m| p.move_by_name(m).unwrap_or_else(|| panic!("no move {m}")))
        .collect();
    p.apply_sequence(&Transform::identity(&p.sets), &seq)
}

fn id(p: &Puzzle) -> Transform {
    Transform::identity(&p.sets)
}

/// The positions of set `set` that `m` leaves alone.
fn fixed(p: &Puzzle, m: &Transform, set: &str) -> Vec<usize> {
    let s = &m.sets[p.set_by_name(set).unwrap()];
    (0..s.perm.len())
        .filter(|&i| s.perm[i] as usize == i && s.ori[i] == 0)
        .collect()
}

/// The positions of set `set` whose names (in the definition's header) hold `face`.
fn on_face(set: &str, face: &str) -> Vec<usize> {
    let names: &[&str] = match set {
        "CORNERS" => &[
            "U-F-R", "U-F-L", "U-R-BR", "U-BR-BL", "U-BL-L", "F-R-DR", "F-L-DL", "F-DL-DR",
            "R-BR-DBR", "R-DR-DBR", "BR-BL-B", "BR-DBR-B", "BL-L-DBL", "BL-B-DBL", "L-DL-DBL",
            "DL-DR-D", "DL-DBL-D", "DR-DBR-D", "DBR-B-D", "B-DBL-D",
        ],
        _ => &[
            "U-F", "U-R", "U-BR", "U-BL", "U-L", "F-R", "F-L", "F-DL", "F-DR", "R-BR", "R-DR",
            "R-DBR", "BR-BL", "BR-DBR", "BR-B", "BL-L", "BL-B", "BL-DBL", "L-DL", "L-DBL", "DL-DR",
            "DL-DBL", "DL-D", "DR-DBR", "DR-D", "DBR-B", "DBR-D", "B-DBL", "B-D", "DBL-D",
        ],
    };
    (0..names.len())
        .filter(|&i| names[i].split('-').any(|f| f == face))
        .collect()
}

#[test]
fn the_big_moves_have_order_five_and_minus_undoes_plus() {
    let p = wca();
    for (plus, minus) in [("R++", "R--"), ("D++", "D--")] {
        let b = p.base_by_name(plus).unwrap();
        assert_eq!(p.base_moves[b].order, 5, "{plus}");
        assert_eq!(t(&p, &[plus; 5].join(" ")), id(&p), "{plus}");
        assert_ne!(t(&p, plus), id(&p));
        assert_ne!(t(&p, &format!("{plus} {plus}")), id(&p));
        assert_eq!(t(&p, &format!("{plus} {minus}")), id(&p), "{plus}");
        assert_eq!(t(&p, &format!("{minus} {plus}")), id(&p), "{plus}");
        assert_eq!(t(&p, minus), t(&p, &format!("{plus}'")), "{minus}");
        assert_eq!(t(&p, &format!("{minus}2")), t(&p, &format!("{plus}2'")));
    }
    assert_eq!(t(&p, "U U U U U"), id(&p));
    assert_eq!(t(&p, "U U'"), id(&p));
}

#[test]
fn the_big_moves_commute_with_the_faces_on_their_axis() {
    let p = wca();
    let commute = |a: &str, b: &str| t(&p, &format!("{a} {b}")) == t(&p, &format!("{b} {a}"));
    // D++ turns about the U-D axis, R++ about the L-DBR axis.
    for (big, axis) in [("D++", ["U", "D"]), ("R++", ["L", "DBR"])] {
        for face in FACES {
            assert_eq!(commute(big, face), axis.contains(&face), "{big} and {face}");
        }
    }
    assert!(!commute("R++", "D++"));
    assert!(commute("D++", "U'"));
}

#[test]
fn each_big_move_keeps_its_face_and_turns_the_rest_rigidly() {
    let p = wca();
    for (big, kept, opposite) in [("R++", "L", "DBR"), ("D++", "U", "D")] {
        let m = t(&p, big);
        // The kept face's pieces stay, and no others: every other piece is carried
        // round the axis (the opposite face's turn in place).
        for set in ["CORNERS", "EDGES"] {
            assert_eq!(fixed(&p, &m, set), on_face(set, kept), "{big} {set}");
        }
        // Of the centres, only the two on the axis stay.
        let on_axis = |f: &str| FACES.iter().position(|&g| g == f).unwrap();
        let mut axis = vec![on_axis(kept), on_axis(opposite)];
        axis.sort();
        assert_eq!(fixed(&p, &m, "CENTRES"), axis, "{big}");

        // Turning the kept face back by two fifths against the turn, `L2'` after R++,
        // gives a rigid turn of the whole puzzle: it carries every face turn onto a
        // face turn, and it turns the kept face as `L2'` alone does.
        let back = format!("{kept}2'");
        let whole = t(&p, &format!("{big} {back}"));
        let inv = whole.inverse(&p.sets);
        let faces: Vec<Transform> = FACES.iter().map(|f| t(&p, f)).collect();
        for f in &faces {
            let conj = inv.then(f, &p.sets).then(&whole, &p.sets);
            assert!(faces.contains(&conj), "{big} {back} is not a rotation");
        }
        let alone = t(&p, &back);
        for set in ["CORNERS", "EDGES"] {
            let k = p.set_by_name(set).unwrap();
            for i in on_face(set, kept) {
                assert_eq!(
                    whole.sets[k].perm[i], alone.sets[k].perm[i],
                    "{big} {set} {i}"
                );
                assert_eq!(
                    whole.sets[k].ori[i], alone.sets[k].ori[i],
                    "{big} {set} {i}"
                );
            }
        }
    }
}

#[test]
fn d_plus_plus_turns_clockwise_seen_from_d() {
    let p = wca();
    // U brings R's pieces to F (clockwise seen from above); D++ turns the other way, two
    // fifths, so F's centre goes to BR's place and BL's to F's. (R++'s sense follows from
    // the rigid turn above: R++ turned the other way would not make `R++ L2'` rigid.)
    let m = t(&p, "D++");
    let centres = &m.sets[p.set_by_name("CENTRES").unwrap()];
    let at = |f: &str| FACES.iter().position(|&g| g == f).unwrap();
    assert_eq!(centres.perm[at("BR")] as usize, at("F"));
    assert_eq!(centres.perm[at("F")] as usize, at("BL"));
}

#[test]
fn a_wca_scramble_and_its_inverse_give_the_solved_puzzle() {
    let p = wca();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scrambles/megaminx_wca.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("ScrambleAlg scramble 1\n").unwrap() + 23;
    let scramble = &text[start..start + text[start..].find("End").unwrap()];
    assert_eq!(scramble.lines().count(), 7);
    let inverse: Vec<&str> = scramble
        .split_whitespace()
        .rev()
        .map(|m| match m {
            "R++" => "R--",
            "R--" => "R++",
            "D++" => "D--",
            "D--" => "D++",
            "U" => "U'",
            "U'" => "U",
            _ => panic!("{m} is not a WCA scramble move"),
        })
        .collect();
    let scrambled = t(&p, scramble);
    assert_ne!(scrambled, id(&p));
    assert_eq!(scrambled.then(&t(&p, &inverse.join(" ")), &p.sets), id(&p));
    // The scramble file reads the same scramble.
    let scrambles = ksolve::def::load_scrambles(path, &p).unwrap();
    assert_eq!(scrambles.len(), 3);
}
