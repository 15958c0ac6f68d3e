//! Puzzles built in code for the God's-algorithm tests: cube corners from the usual
//! cubie-level face turns, and the tipless Pyraminx generated from the rotations of a
//! tetrahedron. They are written here, not read from sample files, so the known-answer
//! tests run without `../shared` and without the definition parser.
#![allow(dead_code)]

use ksolve::puzzle::{Block, IgnoreMask, Puzzle, SetDef, SetState, Transform};

/// A move given in the internal (destination-indexed) form for one set.
fn one(perm: &[u16], ori: &[u8]) -> Transform {
    Transform {
        sets: vec![SetState {
            perm: perm.to_vec(),
            ori: ori.to_vec(),
        }],
    }
}

/// The face turns of the eight cube corners URF UFL ULB UBR DFR DLF DBL DRB: the piece
/// arriving at each position and the twist it gains there (0 when its U/D sticker
/// faces U or D).
pub fn corner_turn(face: char) -> Transform {
    match face {
        'U' => one(&[3, 0, 1, 2, 4, 5, 6, 7], &[0; 8]),
        'R' => one(&[4, 1, 2, 0, 7, 5, 6, 3], &[2, 0, 0, 1, 1, 0, 0, 2]),
        'F' => one(&[1, 5, 2, 3, 0, 4, 6, 7], &[1, 2, 0, 0, 2, 1, 0, 0]),
        'D' => one(&[0, 1, 2, 3, 5, 6, 7, 4], &[0; 8]),
        'L' => one(&[0, 2, 6, 3, 4, 1, 5, 7], &[0, 1, 2, 0, 0, 2, 1, 0]),
        'B' => one(&[0, 1, 3, 7, 4, 5, 2, 6], &[0, 0, 1, 2, 0, 0, 2, 1]),
        _ => panic!("no face {face}"),
    }
}

/// Cube corners turned by the given faces; `labels` gives each corner's label in the
/// solved state (repeat labels for interchangeable pieces); `directed` keeps only the
/// clockwise quarter turns.
pub fn corners_with(faces: &str, labels: [u16; 8], directed: bool) -> Puzzle {
    let sets = vec![SetDef {
        name: "CORNERS".into(),
        size: 8,
        orientations: 3,
    }];
    let mut solved = Transform::identity(&sets);
    solved.sets[0].perm = labels.to_vec();
    let moves = faces
        .chars()
        .map(|f| (f.to_string(), corner_turn(f).to_ksolve(), directed))
        .collect();
    Puzzle::new(
        Some(format!("corners <{faces}>")),
        sets,
        solved,
        moves,
        vec![IgnoreMask::default()],
        vec![],
    )
}

/// The 2x2x2 with DBL fixed: U, R, F.
pub fn cube2() -> Puzzle {
    corners_with("URF", [0, 1, 2, 3, 4, 5, 6, 7], false)
}

/// The 2x2x2 turned by all six faces, whole-cube orientation tracked (3x3x3 corners).
pub fn cube2_all_faces() -> Puzzle {
    corners_with("URFDLB", [0, 1, 2, 3, 4, 5, 6, 7], false)
}

/// The 2x2x2 with U, R, F turning clockwise only.
pub fn cube2_clockwise() -> Puzzle {
    corners_with("URF", [0, 1, 2, 3, 4, 5, 6, 7], true)
}

/// The tipless Pyraminx: vertices 0..4 (U L R B); six edges on the tetrahedron's edges
/// (pairs of vertices), four three-coloured centres on its vertices. Turning vertex v
/// rotates the tetrahedron about v, cycling the other three vertices, and carries every
/// piece that touches v. A piece's stickers lie on the faces opposite the vertices it
/// does not touch; its orientation is the slot (in sorted face order) of the sticker
/// that is first at home.
pub fn pyraminx() -> Puzzle {
    let edges: Vec<[u16; 2]> = vec![[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];
    let others = |p: &[u16]| -> Vec<u16> { (0..4).filter(|v| !p.contains(v)).collect() };
    let sets = vec![
        SetDef {
            name: "EDGES".into(),
            size: 6,
            orientations: 2,
        },
        SetDef {
            name: "CENTERS".into(),
            size: 4,
            orientations: 3,
        },
    ];
    let mut moves = Vec::new();
    for v in 0..4u16 {
        let rest = others(&[v]);
        let sigma = |x: u16| -> u16 {
            match rest.iter().position(|&r| r == x) {
                Some(k) => rest[(k + 1) % 3],
                None => x,
            }
        };
        // Edges: the piece at {a,b} goes to {σa,σb}; its sticker on face ¬c goes to ¬σc.
        let mut ep = vec![0u16; 6];
        let mut eo = vec![0u8; 6];
        for (src, e) in edges.iter().enumerate() {
            if !e.contains(&v) {
                ep[src] = src as u16;
                continue;
            }
            let mut img = [sigma(e[0]), sigma(e[1])];
            img.sort();
            let dst = edges.iter().position(|x| *x == img).unwrap();
            let slot0 = others(e)[0];
            let t = others(&img)
                .iter()
                .position(|&f| f == sigma(slot0))
                .unwrap();
            ep[dst] = src as u16;
            eo[dst] = t as u8;
        }
        // The centre at v turns in place: its first sticker's face ¬w0 goes to ¬σw0.
        let mut cp: Vec<u16> = (0..4).collect();
        let mut co = vec![0u8; 4];
        let faces = others(&[v]);
        co[v as usize] = faces.iter().position(|&f| f == sigma(faces[0])).unwrap() as u8;
        cp[v as usize] = v;
        let internal = Transform {
            sets: vec![
                SetState { perm: ep, ori: eo },
                SetState { perm: cp, ori: co },
            ],
        };
        let name = ["U", "L", "R", "B"][v as usize].to_string();
        moves.push((name, internal.to_ksolve(), false));
    }
    Puzzle::new(
        Some("tipless Pyraminx".into()),
        sets.clone(),
        Transform::identity(&sets),
        moves,
        vec![IgnoreMask::default(); 2],
        vec![],
    )
}

/// The 2x2x2 (U, R, F) with corners URF and UBR bandaged together, and corner DFR
/// bandaged to a one-piece "centre" set that only R marks as moved (the way ksolve+
/// definitions bandage pieces to centres).
pub fn bandaged_cube2() -> Puzzle {
    let sets = vec![
        SetDef {
            name: "CORNERS".into(),
            size: 8,
            orientations: 3,
        },
        SetDef {
            name: "RCENTER".into(),
            size: 1,
            orientations: 1,
        },
    ];
    let moves = "URF"
        .chars()
        .map(|f| {
            let mut file = corner_turn(f).to_ksolve();
            file.sets.push(SetState {
                perm: vec![0],
                ori: vec![u8::from(f == 'R')],
            });
            (f.to_string(), file, false)
        })
        .collect();
    Puzzle::new(
        Some("bandaged 2x2x2".into()),
        sets.clone(),
        Transform::identity(&sets),
        moves,
        vec![IgnoreMask::default(); 2],
        vec![
            Block {
                pieces: vec![(0, 0), (0, 3)],
            },
            Block {
                pieces: vec![(0, 4), (1, 0)],
            },
        ],
    )
}
