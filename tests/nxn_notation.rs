//! The 4x4x4 and 5x5x5 in WCA/SiGN notation (`puzzles/4x4x4.def`, `puzzles/5x5x5.def`):
//! every move does what a cuber means by it. The definitions have no sticker map (a wing
//! has two stickers but one orientation), so the check is on pieces: a sticker model
//! written here from the geometry alone (each sticker a point and a facing, each move a
//! quarter turn of the stickers in its layers) says which piece sits where, twisted how,
//! and that must be the position the definition reaches. The same model run on the
//! 3x3x3 must agree with `puzzles/3x3x3_wca.def`, whose moves `wca_notation.rs` checks
//! against drawn nets: that ties the model's numbering and twists to a checked file.

use crate::wca_notation::{cross, quarter, FACES};
use ksolve::puzzle::{MoveId, Puzzle, State, TurnKind, TurnKinds};

type V = [i32; 3];

const CORNERS: [&str; 8] = ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"];
const EDGES: [&str; 12] = [
    "UF", "UL", "UB", "UR", "DF", "DL", "DB", "DR", "FR", "FL", "BL", "BR",
];

fn axis(face: char) -> V {
    FACES.iter().find(|f| f.0 == face).unwrap().1
}

fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn scale(k: i32, a: V) -> V {
    [k * a[0], k * a[1], k * a[2]]
}

fn dot(a: V, b: V) -> i32 {
    (0..3).map(|k| a[k] * b[k]).sum()
}

/// One kind of piece as the definition's header describes it: each position a list of
/// sticker places (point, facing) in slot order, and the label each position holds
/// when solved (0-based, repeated for interchangeable pieces).
struct PieceSet {
    name: &'static str,
    orientations: usize,
    positions: Vec<Vec<(V, V)>>,
    labels: Vec<u16>,
}

/// The pieces of the NxNxN cube, numbered as the headers of the definitions say.
/// Coordinates run over -(N-1), -(N-3), ..., N-1, so the outer layers sit at N-1.
fn piece_sets(n: i32) -> Vec<PieceSet> {
    let k = n - 1;
    let named = |name: &str| -> Vec<(V, V)> {
        let at = name.chars().fold([0; 3], |p, f| add(p, scale(k, axis(f))));
        name.chars().map(|f| (at, axis(f))).collect()
    };
    let mut sets = vec![PieceSet {
        name: "CORNERS",
        orientations: 3,
        positions: CORNERS.iter().map(|c| named(c)).collect(),
        labels: (0..8).collect(),
    }];
    if n % 2 == 1 {
        sets.push(PieceSet {
            // The 3x3x3_wca definition calls its midges edges.
            name: if n == 3 { "EDGES" } else { "MIDGES" },
            orientations: 2,
            positions: EDGES.iter().map(|e| named(e)).collect(),
            labels: (0..12).collect(),
        });
    }
    if n > 3 {
        // Wing XY lies on edge XY on the right when X is on top and Y faces you.
        let wing = |x: char, y: char| -> Vec<(V, V)> {
            let (a, b) = (axis(x), axis(y));
            let at = add(scale(k, add(a, b)), scale(k - 2, cross(a, b)));
            vec![(at, a), (at, b)]
        };
        let mut positions = Vec::new();
        for e in EDGES {
            let (x, y) = (e.as_bytes()[0] as char, e.as_bytes()[1] as char);
            positions.push(wing(x, y));
            positions.push(wing(y, x));
        }
        sets.push(PieceSet {
            name: "WINGS",
            orientations: 1,
            positions,
            labels: (0..24).collect(),
        });
    }
    // Centre pieces face by face, each face's row by row as the net draws it (U with its
    // back edge up, F D below it, L F R B in a row), labelled by colour.
    let centres = |name: &'static str, pick: &dyn Fn(i32, i32) -> bool| -> PieceSet {
        let mut positions = Vec::new();
        let mut labels = Vec::new();
        for (colour, (face, _)) in FACES.iter().enumerate() {
            for r in 0..n {
                for c in 0..n {
                    if pick(r, c) {
                        positions.push(vec![(cell(n, *face, r, c), axis(*face))]);
                        labels.push(colour as u16);
                    }
                }
            }
        }
        PieceSet {
            name,
            orientations: 1,
            positions,
            labels,
        }
    };
    let inner = move |r: i32, c: i32| 0 < r && r < k && 0 < c && c < k;
    let middle = n / 2;
    match n {
        4 => sets.push(centres("CENTRES", &inner)),
        5 => {
            sets.push(centres("XCENTRES", &|r, c| {
                inner(r, c) && r != middle && c != middle
            }));
            sets.push(centres("TCENTRES", &|r, c| {
                inner(r, c) && (r == middle) != (c == middle)
            }));
        }
        _ => {}
    }
    if n % 2 == 1 {
        let mut fixed = centres("CENTRES", &|r, c| r == middle && c == middle);
        // One piece per face: the labels are the faces' numbers.
        fixed.labels = (0..6).collect();
        sets.push(fixed);
    }
    sets
}

/// The point of row `r`, column `c` of a face as the unfolded net draws it.
fn cell(n: i32, face: char, r: i32, c: i32) -> V {
    let k = n - 1;
    let (u, v) = (2 * c - k, 2 * r - k);
    match face {
        'U' => [u, k, v],
        'D' => [u, -k, -v],
        'F' => [u, -v, k],
        'B' => [-u, -v, -k],
        'R' => [k, -v, -u],
        'L' => [-k, -v, u],
        _ => unreachable!(),
    }
}

/// The turning axis of a move and the layers it turns, counted from the face the axis
/// points to (1 is that face).
fn geometry(n: i32, name: &str) -> (V, Vec<i32>) {
    let face = |s: &str| axis(s.chars().next().unwrap());
    let all: Vec<i32> = (1..=n).collect();
    let middle = n / 2 + 1;
    match name {
        "x" => (axis('R'), all),
        "y" => (axis('U'), all),
        "z" => (axis('F'), all),
        "M" => (axis('L'), vec![middle]),
        "E" => (axis('D'), vec![middle]),
        "S" => (axis('F'), vec![middle]),
        "r" | "l" | "u" | "d" | "f" | "b" => (face(&name.to_uppercase()), vec![1, 2]),
        _ if name.len() == 2 && name.ends_with('w') => (face(name), vec![1, 2]),
        _ if name.len() == 3 && name.starts_with('3') && name.ends_with('w') => {
            (face(&name[1..]), vec![1, 2, 3])
        }
        _ if name.len() == 2 && name.starts_with(['2', '3']) => {
            let layer = name[..1].parse().unwrap();
            (axis(name.chars().nth(1).unwrap()), vec![layer])
        }
        _ if name.len() == 1 => (face(name), vec![1]),
        _ => panic!("no move {name} in the model"),
    }
}

/// The cube as stickers: each a point, a facing and the (set, position, slot) it shows
/// when solved.
struct Model {
    n: i32,
    sets: Vec<PieceSet>,
    stickers: Vec<(V, V, (usize, usize, usize))>,
}

impl Model {
    fn new(n: i32) -> Model {
        let sets = piece_sets(n);
        let mut stickers = Vec::new();
        for (k, set) in sets.iter().enumerate() {
            for (p, places) in set.positions.iter().enumerate() {
                for (s, &(at, facing)) in places.iter().enumerate() {
                    stickers.push((at, facing, (k, p, s)));
                }
            }
        }
        Model { n, sets, stickers }
    }

    /// Applies one move of an algorithm (`2R`, `2R2`, `Rw'`, `r` for `Rw`).
    fn apply(&mut self, token: &str) {
        let (base, turns) = match (token.strip_suffix('\''), token.strip_suffix('2')) {
            (Some(b), _) => (b, 3),
            (None, Some(b)) if !b.is_empty() => (b, 2),
            _ => (token, 1),
        };
        let (axis, layers) = geometry(self.n, base);
        let depths: Vec<i32> = layers.iter().map(|l| self.n + 1 - 2 * l).collect();
        for _ in 0..turns {
            for (at, facing, _) in &mut self.stickers {
                if depths.contains(&dot(axis, *at)) {
                    *at = quarter(axis, *at);
                    *facing = quarter(axis, *facing);
                }
            }
        }
    }

    /// The position the stickers show, in the puzzle's sets: at each position, the
    /// label of the piece whose stickers are there, and its twist (the slot that shows
    /// the piece's first sticker).
    fn state(&self, p: &Puzzle) -> State {
        let mut state = p.solved.clone();
        for (k, set) in self.sets.iter().enumerate() {
            let target = p.set_by_name(set.name).expect("the definition has the set");
            for (i, places) in set.positions.iter().enumerate() {
                let (home_set, home, slot) = self
                    .stickers
                    .iter()
                    .find(|s| (s.0, s.1) == places[0])
                    .expect("a sticker on every place")
                    .2;
                assert_eq!(home_set, k, "{} {i}", set.name);
                let n = set.orientations;
                assert!(slot < n, "a piece of {} turned over in place", set.name);
                state.sets[target].perm[i] = set.labels[home];
                state.sets[target].ori[i] = ((n - slot) % n) as u8;
            }
        }
        state
    }
}

fn load(file: &str) -> Puzzle {
    let path = format!("{}/puzzles/{file}", env!("CARGO_MANIFEST_DIR"));
    let (p, warnings) = ksolve::def::load_puzzle(path).unwrap();
    assert!(warnings.is_empty(), "{file}: {warnings:?}");
    p
}

fn seq(p: &Puzzle, alg: &str) -> Vec<MoveId> {
    alg.split_whitespace()
        .map(|m| p.move_by_name(m).unwrap_or_else(|| panic!("no move {m}")))
        .collect()
}

/// The definition's position after `alg` against the model's.
fn agree(p: &Puzzle, n: i32, alg: &str) {
    let mut model = Model::new(n);
    for token in alg.split_whitespace() {
        model.apply(token);
    }
    let got = p.apply_sequence(&p.solved, &seq(p, alg));
    assert_eq!(got, model.state(p), "{alg}");
}

/// Every base name of the NxNxN definitions, each checked in three powers.
fn move_names(n: i32) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for f in ["U", "D", "R", "L", "F", "B"] {
        names.push(f.into());
        names.push(format!("{f}w"));
        if n > 3 {
            names.push(format!("3{f}w"));
        }
        names.push(f.to_lowercase());
        if n > 3 {
            names.push(format!("2{f}"));
        }
        if n == 5 {
            names.push(format!("3{f}"));
        }
    }
    for r in ["x", "y", "z"] {
        names.push(r.into());
    }
    if n % 2 == 1 {
        for s in ["M", "E", "S"] {
            names.push(s.into());
        }
    }
    names
}

fn every_move_and_some_algorithms(file: &str, n: i32, algs: &[&str]) {
    let p = load(file);
    for m in move_names(n) {
        for power in ["", "2", "'"] {
            agree(&p, n, &format!("{m}{power}"));
        }
    }
    for alg in algs {
        agree(&p, n, alg);
    }
}

#[test]
fn the_model_numbers_and_twists_pieces_as_the_checked_3x3x3_does() {
    every_move_and_some_algorithms(
        "3x3x3_wca.def",
        3,
        &["R U' M E2 S' x Rw' f2 y' L d E' z2 B S2 M' u F' r2 D x2 b' l"],
    );
}

#[test]
fn every_4x4x4_move_matches_the_sticker_model() {
    every_move_and_some_algorithms(
        "4x4x4.def",
        4,
        &[
            // A WCA-style scramble, then slices, rotations and lowercase wide turns.
            "D2 Fw' D Fw2 Rw' L D F Rw B Uw2 B2 Uw' Fw' D' B Fw' Rw F B2",
            "2R U 2L' x 2F2 Dw' y' 2D b 2B' z2 r' 2U L f2 u' l d",
            "3Rw U 3Fw2 2L 3Dw' r 3Lw2 y 3Uw 3Bw' D",
            // A long run of lowercase wide turns with a rotation among them.
            "r U2 x r U2 r U2 r' U2 l U2 r' U2 r U2 r' U2 r'",
        ],
    );
}

#[test]
fn every_5x5x5_move_matches_the_sticker_model() {
    every_move_and_some_algorithms(
        "5x5x5.def",
        5,
        &[
            "D2 Fw2 Uw' Fw U2 R2 Rw' D' Bw2 Rw' Bw Lw2 F' Rw D2 Uw Fw B' R' Fw",
            "2R M' 3R 2L x E 3U' y2 S 3F' 2B z' Dw 2D' u M2 3L' f' E' 3D2 S' 3B",
        ],
    );
}

#[test]
fn rotations_are_their_layers_turned_together() {
    for (file, n) in [("4x4x4.def", 4), ("5x5x5.def", 5)] {
        let p = load(file);
        for alg in ["x", "y'", "z2", "x y z", "x y' z2 x'"] {
            agree(&p, n, alg);
        }
        // A rotation is its layers turned together.
        let same = |a: &str, b: &str| {
            let s = |alg| p.apply_sequence(&p.solved, &seq(&p, alg));
            assert_eq!(s(a), s(b), "{file}: {a} against {b}");
        };
        if n == 4 {
            same("x", "R 2R 2L' L'");
            same("y", "Uw Dw'");
            same("z'", "Fw' Bw");
        } else {
            same("x", "Rw M' Lw'");
            same("y", "Uw 3U Dw'");
            same("z'", "Fw' S' Bw");
            same("3R", "M'");
        }
    }
}

/// The 4x4x4 searches its outer block turns (faces and wide turns: the WCA's metric);
/// the 5x5x5 its faces and inner slices.
#[test]
fn the_big_cubes_search_their_moves_and_tell_turn_kinds_apart() {
    let wide = ["Uw", "Dw", "Rw", "Lw", "Fw", "Bw"];
    let slices4 = ["2U", "2D", "2R", "2L", "2F", "2B"];
    let slices5 = ["2U", "2D", "2R", "2L", "2F", "2B", "M", "E", "S"];
    for (file, slices, more) in [
        ("4x4x4.def", &slices4[..], &wide[..]),
        ("5x5x5.def", &slices5[..], &slices5[..]),
    ] {
        let p = load(file);
        let kinds = TurnKinds::of(&p);
        let kind = |name: &str| kinds.kinds[p.base_by_name(name).unwrap()];
        for face in ["U", "D", "R", "L", "F", "B"] {
            assert_eq!(kind(face), TurnKind::Outer, "{file} {face}");
            assert_eq!(kind(&format!("{face}w")), TurnKind::Outer, "{file} {face}w");
        }
        for slice in slices {
            assert_eq!(kind(slice), TurnKind::Slice, "{file} {slice}");
        }
        for rotation in ["x", "y", "z"] {
            assert_eq!(kind(rotation), TurnKind::Rotation, "{file} {rotation}");
        }
        let searched: Vec<&str> = p
            .base_moves
            .iter()
            .zip(&p.searched)
            .filter(|(_, s)| **s)
            .map(|(m, _)| m.name.as_str())
            .collect();
        let mut expected = vec!["U", "D", "R", "L", "F", "B"];
        expected.extend_from_slice(more);
        expected.sort_unstable();
        let mut searched = searched;
        searched.sort_unstable();
        assert_eq!(searched, expected, "{file}");
    }
}
