//! The 3x3x3 in WCA notation (`puzzles/3x3x3_wca.def`): every move does what a cuber
//! means by it. `ksolve show` is compared with a sticker model written here from the
//! geometry alone (each sticker a position and a facing in space, each move a quarter
//! turn of the stickers in its layers), so that a slice turning the wrong way, or a
//! rotation about the wrong axis, fails even where the definition agrees with itself.

use ksolve::puzzle::{Lengths, MoveId, Puzzle, TurnKind, TurnKinds};

/// A sticker: the cubie it sits on (each coordinate -1, 0 or 1; x to R, y to U, z to F)
/// and the direction its face points in, with the colour it started with.
#[derive(Clone, Copy)]
struct Sticker {
    pos: [i32; 3],
    normal: [i32; 3],
    colour: char,
}

/// The six faces: name, outward axis (also the order the WCA definitions number
/// colours and centres in; `nxn_notation` shares them).
pub(crate) const FACES: [(char, [i32; 3]); 6] = [
    ('U', [0, 1, 0]),
    ('R', [1, 0, 0]),
    ('F', [0, 0, 1]),
    ('D', [0, -1, 0]),
    ('L', [-1, 0, 0]),
    ('B', [0, 0, -1]),
];

fn solved() -> Vec<Sticker> {
    let mut out = Vec::new();
    for (name, n) in FACES {
        for a in -1..=1 {
            for b in -1..=1 {
                // The two coordinates across the face, and the face's own one.
                let axis = n.iter().position(|&c| c != 0).unwrap();
                let mut pos = [0; 3];
                let others: Vec<usize> = (0..3).filter(|&k| k != axis).collect();
                pos[axis] = n[axis];
                pos[others[0]] = a;
                pos[others[1]] = b;
                out.push(Sticker {
                    pos,
                    normal: n,
                    colour: name,
                });
            }
        }
    }
    out
}

pub(crate) fn cross(a: [i32; 3], b: [i32; 3]) -> [i32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// A quarter turn clockwise seen from the end `axis` points to: `v -> a(a.v) - a x v`
/// (a rotation by -90 degrees about `axis`).
pub(crate) fn quarter(axis: [i32; 3], v: [i32; 3]) -> [i32; 3] {
    let dot: i32 = (0..3).map(|k| axis[k] * v[k]).sum();
    let c = cross(axis, v);
    [
        axis[0] * dot - c[0],
        axis[1] * dot - c[1],
        axis[2] * dot - c[2],
    ]
}

/// The turning axis of a move and the layers it turns, as distances along that axis
/// (1 is the outer layer on the axis's side, 0 the middle, -1 the far one).
fn geometry(name: &str) -> ([i32; 3], &'static [i32]) {
    let axis = |face: char| FACES.iter().find(|f| f.0 == face).unwrap().1;
    match name {
        "U" | "D" | "R" | "L" | "F" | "B" => (axis(name.chars().next().unwrap()), &[1]),
        "Uw" | "Dw" | "Rw" | "Lw" | "Fw" | "Bw" => (axis(name.chars().next().unwrap()), &[1, 0]),
        "M" => (axis('L'), &[0]),
        "E" => (axis('D'), &[0]),
        "S" => (axis('F'), &[0]),
        "x" => (axis('R'), &[1, 0, -1]),
        "y" => (axis('U'), &[1, 0, -1]),
        "z" => (axis('F'), &[1, 0, -1]),
        _ => panic!("no move {name} in the model"),
    }
}

/// Applies one move of an algorithm (`R`, `R2`, `R'`, `r` for `Rw`) to the model.
fn apply(stickers: &mut [Sticker], token: &str) {
    let (base, turns) = match (token.strip_suffix('\''), token.strip_suffix('2')) {
        (Some(b), _) => (b, 3),
        (None, Some(b)) => (b, 2),
        _ => (token, 1),
    };
    let wide = match base {
        "r" | "l" | "u" | "d" | "f" | "b" => base.to_uppercase() + "w",
        _ => base.to_string(),
    };
    let (axis, layers) = geometry(&wide);
    for _ in 0..turns {
        for s in stickers.iter_mut() {
            let depth: i32 = (0..3).map(|k| axis[k] * s.pos[k]).sum();
            if layers.contains(&depth) {
                s.pos = quarter(axis, s.pos);
                s.normal = quarter(axis, s.normal);
            }
        }
    }
}

/// The colour at row `r`, column `c` of a face of the net `show` prints (U above F, D
/// below it, L F R B in the middle band).
fn colour_at(stickers: &[Sticker], face: char, r: i32, c: i32) -> char {
    let pos = match face {
        'U' => [c - 1, 1, r - 1],
        'D' => [c - 1, -1, 1 - r],
        'F' => [c - 1, 1 - r, 1],
        'B' => [1 - c, 1 - r, -1],
        'R' => [1, 1 - r, 1 - c],
        'L' => [-1, 1 - r, c - 1],
        _ => unreachable!(),
    };
    let normal = FACES.iter().find(|f| f.0 == face).unwrap().1;
    stickers
        .iter()
        .find(|s| s.pos == pos && s.normal == normal)
        .expect("a sticker on every cell")
        .colour
}

/// The net as `ksolve show --color never` prints it.
fn net(stickers: &[Sticker]) -> String {
    let row = |faces: &[char], r: i32| -> String {
        let cells: Vec<String> = faces
            .iter()
            .flat_map(|&f| (0..3).map(move |c| (f, c)))
            .map(|(f, c)| colour_at(stickers, f, r, c).to_string())
            .collect();
        cells.join(" ")
    };
    let mut lines = Vec::new();
    for r in 0..3 {
        lines.push(format!("      {}", row(&['U'], r)));
    }
    for r in 0..3 {
        lines.push(row(&['L', 'F', 'R', 'B'], r));
    }
    for r in 0..3 {
        lines.push(format!("      {}", row(&['D'], r)));
    }
    lines.join("\n") + "\n"
}

fn model(alg: &str) -> String {
    let mut stickers = solved();
    for token in alg.split_whitespace() {
        apply(&mut stickers, token);
    }
    net(&stickers)
}

fn show(alg: &str) -> String {
    let args = [
        "show",
        "puzzles/3x3x3_wca.def",
        "--alg",
        alg,
        "--color",
        "never",
    ];
    crate::common::stdout_of(&args.map(std::ffi::OsStr::new))
}

#[test]
fn the_model_turns_a_face_as_cubers_do() {
    // The model itself, against what every cuber knows: R brings the F face's right
    // column up to U, and U brings the F face's top row to L.
    let r = model("R");
    assert!(
        r.starts_with("      U U F\n      U U F\n      U U F\n"),
        "{r}"
    );
    let u = model("U");
    assert_eq!(u.lines().nth(3).unwrap(), "F F F R R R B B B L L L");
}

#[test]
fn an_h_perm_typed_with_m_is_an_h_perm() {
    let alg = "M2 U M2 U2 M2 U M2";
    let net = show(alg);
    assert_eq!(net, model(alg));
    // And it is the H-perm: the last layer's opposite edges swapped, nothing else moved.
    assert_eq!(net.lines().nth(3).unwrap(), "L R L F B F R L R B F B");
    assert_eq!(net.lines().filter(|l| l.contains('U')).count(), 3);
}

#[test]
fn rotations_turn_the_whole_cube() {
    for alg in ["x", "y", "z", "x'", "y2", "z'", "x y z", "x y' z2 x'"] {
        let net = show(alg);
        assert_eq!(net, model(alg), "{alg}");
        // A rotation leaves every face one colour.
        for face_row in net.lines() {
            let cells: Vec<&str> = face_row.split_whitespace().collect();
            for chunk in cells.chunks(3) {
                assert!(chunk.iter().all(|c| *c == chunk[0]), "{alg}: {face_row}");
            }
        }
    }
}

#[test]
fn every_move_matches_the_sticker_model() {
    let moves = [
        "U", "D", "R", "L", "F", "B", "M", "E", "S", "x", "y", "z", "Rw", "Lw", "Uw", "Dw", "Fw",
        "Bw", "r", "l", "u", "d", "f", "b",
    ];
    for m in moves {
        for power in ["", "2", "'"] {
            let alg = format!("{m}{power}");
            assert_eq!(show(&alg), model(&alg), "{alg}");
        }
    }
    // A long mixed algorithm, so that moves also agree after each other.
    let alg = "R U' M E2 S' x Rw' f2 y' L d E' z2 B S2 M' u F' r2 D x2 b' l";
    assert_eq!(show(alg), model(alg));
}

// The kinds of turn and the metrics (`ksolve::puzzle::turns`), on the same cube.

fn wca() -> Puzzle {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/3x3x3_wca.def");
    ksolve::def::load_puzzle(path).unwrap().0
}

#[test]
fn the_wca_cube_has_faces_slices_rotations_and_wide_turns() {
    let p = wca();
    let kinds = TurnKinds::of(&p);
    let kind = |name: &str| kinds.kinds[p.base_by_name(name).unwrap()];
    for face in [
        "U", "D", "R", "L", "F", "B", "Rw", "Lw", "Uw", "Dw", "Fw", "Bw",
    ] {
        assert_eq!(kind(face), TurnKind::Outer, "{face}");
    }
    for slice in ["M", "E", "S"] {
        assert_eq!(kind(slice), TurnKind::Slice, "{slice}");
    }
    for rotation in ["x", "y", "z"] {
        assert_eq!(kind(rotation), TurnKind::Rotation, "{rotation}");
    }
}

#[test]
fn lengths_count_as_cubers_do() {
    let p = wca();
    let kinds = TurnKinds::of(&p);
    let seq = |alg: &str| -> Vec<MoveId> {
        alg.split_whitespace()
            .map(|n| p.move_by_name(n).unwrap())
            .collect()
    };
    // An H-perm with slices: 7 moves, four of them half slices (2 in HTM, 4 in QTM
    // each) and three turns of U.
    let h = kinds.lengths(&p, &seq("M2 U M2 U2 M2 U M2"));
    assert_eq!(
        h,
        Lengths {
            htm: 11,
            qtm: 20,
            stm: 7,
            etm: 7
        }
    );
    let mixed = kinds.lengths(&p, &seq("x R' U2 Rw M' y"));
    assert_eq!(
        mixed,
        Lengths {
            htm: 5,
            qtm: 6,
            stm: 4,
            etm: 6
        }
    );
}

#[test]
fn a_puzzle_without_rotations_counts_every_move_once() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/3x3x3.def");
    let p = ksolve::def::load_puzzle(path).unwrap().0;
    let kinds = TurnKinds::of(&p);
    assert!(!kinds.any_special());
    let seq: Vec<MoveId> = ["R", "U2", "F'"]
        .iter()
        .map(|n| p.move_by_name(n).unwrap())
        .collect();
    let l = kinds.lengths(&p, &seq);
    assert_eq!((l.htm, l.qtm, l.stm, l.etm), (3, 4, 3, 3));
}
