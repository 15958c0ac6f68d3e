//! Test puzzles built from geometry rather than typed move tables: pieces are points in
//! space with the outward normals of the faces they show, and a turn rotates the pieces
//! on one side of a cut about an axis. The move tables (and so the known group orders
//! the tests check) then follow from the shapes alone.

use crate::puzzle::{IgnoreMask, Puzzle, SetDef, SetState, Transform};

pub type V = [f64; 3];

fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn scale(a: V, s: f64) -> V {
    [a[0] * s, a[1] * s, a[2] * s]
}

fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn norm(a: V) -> V {
    scale(a, 1.0 / dot(a, a).sqrt())
}

fn close(a: V, b: V) -> bool {
    (0..3).all(|i| (a[i] - b[i]).abs() < 1e-6)
}

/// Rotation of `v` by `angle` radians about unit axis `k` (Rodrigues).
fn rotate(v: V, k: V, angle: f64) -> V {
    let (c, s) = (angle.cos(), angle.sin());
    add(
        add(scale(v, c), scale(cross(k, v), s)),
        scale(k, dot(k, v) * (1.0 - c)),
    )
}

/// A piece: where it sits and the outward normals of its faces.
#[derive(Clone, Debug)]
pub struct Piece {
    pub pos: V,
    pub faces: Vec<V>,
}

impl Piece {
    /// A piece whose faces get sorted counter-clockwise around its position, so that
    /// every rotation keeps the cyclic order and orientation arithmetic is consistent.
    pub fn new(pos: V, mut faces: Vec<V>) -> Piece {
        let axis = norm(pos);
        let helper = if axis[0].abs() < 0.9 {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 1.0, 0.0]
        };
        let u = norm(cross(axis, helper));
        let w = cross(axis, u);
        faces.sort_by(|a, b| {
            let angle = |f: &V| dot(*f, w).atan2(dot(*f, u));
            angle(a).total_cmp(&angle(b))
        });
        Piece { pos, faces }
    }
}

/// A set of pieces. `orientations` is 1 to ignore orientation, else the face count.
pub struct PieceSet {
    pub name: &'static str,
    pub pieces: Vec<Piece>,
    pub orientations: u8,
}

/// A turn: rotate the pieces `cut` accepts by `angle` radians about `axis`.
pub struct Turn {
    pub name: &'static str,
    pub axis: V,
    pub angle: f64,
    pub cut: Box<dyn Fn(V) -> bool>,
}

/// The puzzle these sets and turns make, in the model's terms, solved = identity.
pub fn build(sets: &[PieceSet], turns: &[Turn]) -> Puzzle {
    let defs: Vec<SetDef> = sets
        .iter()
        .map(|s| SetDef {
            name: s.name.to_string(),
            size: s.pieces.len(),
            orientations: s.orientations,
        })
        .collect();
    let mut base = Vec::new();
    for t in turns {
        let k = norm(t.axis);
        let mut effect = Transform { sets: Vec::new() };
        for s in sets {
            let size = s.pieces.len();
            let mut st = SetState::identity(size);
            for (j, p) in s.pieces.iter().enumerate() {
                if !(t.cut)(p.pos) {
                    continue;
                }
                let to = rotate(p.pos, k, t.angle);
                let i = s
                    .pieces
                    .iter()
                    .position(|q| close(q.pos, to))
                    .unwrap_or_else(|| panic!("turn {} sends a {} piece nowhere", t.name, s.name));
                st.perm[i] = j as u16;
                if s.orientations > 1 {
                    let f = rotate(p.faces[0], k, t.angle);
                    let b = s.pieces[i]
                        .faces
                        .iter()
                        .position(|&g| close(g, f))
                        .unwrap_or_else(|| panic!("turn {} loses a face", t.name));
                    st.ori[i] = b as u8;
                }
            }
            effect.sets.push(st);
        }
        base.push((t.name.to_string(), effect.to_ksolve(), false));
    }
    let ignore = defs
        .iter()
        .map(|d| IgnoreMask {
            perm: vec![false; d.size],
            ori: vec![false; d.size],
        })
        .collect();
    let solved = Transform::identity(&defs);
    Puzzle::new(None, defs, solved, base, ignore, vec![])
}

const QUARTER: f64 = -std::f64::consts::FRAC_PI_2;
const THIRD: f64 = -2.0 * std::f64::consts::PI / 3.0;

fn axis(i: usize, s: f64) -> V {
    let mut v = [0.0; 3];
    v[i] = s;
    v
}

fn cube_corners(skip: Option<V>) -> Vec<Piece> {
    let mut out = Vec::new();
    for sx in [1.0, -1.0] {
        for sy in [1.0, -1.0] {
            for sz in [1.0, -1.0] {
                let pos = [sx, sy, sz];
                if skip.is_some_and(|s| close(s, pos)) {
                    continue;
                }
                out.push(Piece::new(pos, vec![axis(0, sx), axis(1, sy), axis(2, sz)]));
            }
        }
    }
    out
}

fn cube_edges() -> Vec<Piece> {
    let mut out = Vec::new();
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        for sa in [1.0, -1.0] {
            for sb in [1.0, -1.0] {
                let pos = add(axis(a, sa), axis(b, sb));
                out.push(Piece::new(pos, vec![axis(a, sa), axis(b, sb)]));
            }
        }
    }
    out
}

/// The six face turns of a cube, clockwise: U R F D L B.
fn face_turns(names: &[&'static str]) -> Vec<Turn> {
    let all = [
        ("U", axis(1, 1.0)),
        ("R", axis(0, 1.0)),
        ("F", axis(2, 1.0)),
        ("D", axis(1, -1.0)),
        ("L", axis(0, -1.0)),
        ("B", axis(2, -1.0)),
    ];
    all.iter()
        .filter(|(n, _)| names.contains(n))
        .map(|&(name, ax)| Turn {
            name,
            axis: ax,
            angle: QUARTER,
            cut: Box::new(move |p| dot(p, ax) > 0.5),
        })
        .collect()
}

/// The 3x3x3: CORNERS 8 3, EDGES 12 2, six face turns.
pub fn cube3() -> Puzzle {
    cube3_with(&["U", "R", "F", "D", "L", "B"])
}

/// The 3x3x3 turned by only some of its faces.
pub fn cube3_with(turns: &[&'static str]) -> Puzzle {
    build(
        &[
            PieceSet {
                name: "CORNERS",
                pieces: cube_corners(None),
                orientations: 3,
            },
            PieceSet {
                name: "EDGES",
                pieces: cube_edges(),
                orientations: 2,
            },
        ],
        &face_turns(turns),
    )
}

/// The 2x2x2 with the down-left-back corner fixed: CORNERS 7 3, turns U R F.
pub fn cube2() -> Puzzle {
    build(
        &[PieceSet {
            name: "CORNERS",
            pieces: cube_corners(Some([-1.0, -1.0, -1.0])),
            orientations: 3,
        }],
        &face_turns(&["U", "R", "F"]),
    )
}

fn tetra_vertices() -> [V; 4] {
    [
        [1.0, 1.0, 1.0],
        [1.0, -1.0, -1.0],
        [-1.0, 1.0, -1.0],
        [-1.0, -1.0, 1.0],
    ]
}

/// The Pyraminx without tips: EDGES 6 2, CENTERS 4 3 (the axial pieces), four
/// vertex turns.
pub fn pyraminx() -> Puzzle {
    let v = tetra_vertices();
    let face = |a: usize| scale(v[a], -1.0);
    let mut edges = Vec::new();
    for a in 0..4 {
        for b in a + 1..4 {
            let others: Vec<V> = (0..4).filter(|&c| c != a && c != b).map(face).collect();
            edges.push(Piece::new(scale(add(v[a], v[b]), 0.5), others));
        }
    }
    let centers = (0..4)
        .map(|a| Piece::new(v[a], (0..4).filter(|&b| b != a).map(face).collect()))
        .collect();
    let names = ["U", "L", "R", "B"];
    let turns = (0..4)
        .map(|a| {
            let ax = norm(v[a]);
            Turn {
                name: names[a],
                axis: ax,
                angle: THIRD,
                cut: Box::new(move |p| dot(norm(p), ax) > 0.3),
            }
        })
        .collect::<Vec<_>>();
    build(
        &[
            PieceSet {
                name: "EDGES",
                pieces: edges,
                orientations: 2,
            },
            PieceSet {
                name: "CENTERS",
                pieces: centers,
                orientations: 3,
            },
        ],
        &turns,
    )
}

/// The Skewb with centre orientation ignored: CORNERS 8 3, CENTERS 6 1, four turns
/// about corner axes, each cutting the cube in half.
pub fn skewb() -> Puzzle {
    let centers = (0..3)
        .flat_map(|i| [1.0, -1.0].map(|s| Piece::new(axis(i, s), vec![axis(i, s)])))
        .collect();
    let names = ["A", "B", "C", "D"];
    let turns = tetra_vertices()
        .iter()
        .enumerate()
        .map(|(a, &vtx)| Turn {
            name: names[a],
            axis: vtx,
            angle: THIRD,
            cut: Box::new(move |p| dot(p, vtx) > 0.1),
        })
        .collect::<Vec<_>>();
    build(
        &[
            PieceSet {
                name: "CORNERS",
                pieces: cube_corners(None),
                orientations: 3,
            },
            PieceSet {
                name: "CENTERS",
                pieces: centers,
                orientations: 1,
            },
        ],
        &turns,
    )
}

/// The Megaminx: CORNERS 20 3, EDGES 30 2, twelve face turns. Face normals are the
/// icosahedron's vertices; two faces are adjacent when their normals meet at the
/// icosahedron's edge angle, and pieces sit at sums of adjacent normals.
pub fn megaminx() -> Puzzle {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut normals = Vec::new();
    for s1 in [1.0, -1.0] {
        for s2 in [1.0, -1.0] {
            normals.push([0.0, s1, s2 * phi]);
            normals.push([s1, s2 * phi, 0.0]);
            normals.push([s2 * phi, 0.0, s1]);
        }
    }
    let adjacent = |a: V, b: V| (dot(a, b) - phi).abs() < 1e-9;
    let m = normals.len();
    let (mut corners, mut edges) = (Vec::new(), Vec::new());
    for a in 0..m {
        for b in a + 1..m {
            if !adjacent(normals[a], normals[b]) {
                continue;
            }
            edges.push(Piece::new(
                add(normals[a], normals[b]),
                vec![normals[a], normals[b]],
            ));
            for c in b + 1..m {
                if adjacent(normals[a], normals[c]) && adjacent(normals[b], normals[c]) {
                    let pos = add(add(normals[a], normals[b]), normals[c]);
                    corners.push(Piece::new(pos, vec![normals[a], normals[b], normals[c]]));
                }
            }
        }
    }
    const NAMES: [&str; 12] = [
        "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
    ];
    let turns = normals
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let ax = norm(n);
            Turn {
                name: NAMES[i],
                axis: ax,
                angle: -2.0 * std::f64::consts::PI / 5.0,
                cut: Box::new(move |p| dot(norm(p), ax) > 0.7),
            }
        })
        .collect::<Vec<_>>();
    build(
        &[
            PieceSet {
                name: "CORNERS",
                pieces: corners,
                orientations: 3,
            },
            PieceSet {
                name: "EDGES",
                pieces: edges,
                orientations: 2,
            },
        ],
        &turns,
    )
}

/// The 4x4x4's centres alone: CENTERS 24 1, labelled by face (four of each), with the
/// six outer turns and the six inner slice turns next to them.
pub fn centers444() -> Puzzle {
    let mut pieces = Vec::new();
    for i in 0..3 {
        for s in [1.0, -1.0] {
            let (a, b) = ((i + 1) % 3, (i + 2) % 3);
            for ua in [0.5, -0.5] {
                for ub in [0.5, -0.5] {
                    let pos = add(add(axis(i, 1.5 * s), axis(a, ua)), axis(b, ub));
                    pieces.push(Piece::new(pos, vec![axis(i, s)]));
                }
            }
        }
    }
    let mut turns = face_turns(&["U", "R", "F", "D", "L", "B"]);
    for t in &mut turns {
        let ax = t.axis;
        t.cut = Box::new(move |p| dot(p, ax) > 1.0);
    }
    let inner = ["u", "r", "f", "d", "l", "b"];
    for (k, t) in face_turns(&["U", "R", "F", "D", "L", "B"])
        .into_iter()
        .enumerate()
    {
        let ax = t.axis;
        turns.push(Turn {
            name: inner[k],
            axis: ax,
            angle: QUARTER,
            cut: Box::new(move |p| (0.0..1.0).contains(&dot(p, ax))),
        });
    }
    let mut p = build(
        &[PieceSet {
            name: "CENTERS",
            pieces,
            orientations: 1,
        }],
        &turns,
    );
    for (i, l) in p.solved.sets[0].perm.iter_mut().enumerate() {
        *l = (i / 4) as u16;
    }
    p
}
