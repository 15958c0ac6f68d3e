//! Positions by their colours on the shipped 3x3x3 (with face turns only, and with
//! Block Buster's slices and whole-cube rotations) and 2x2x2: facelet strings made by a
//! sticker-level simulation written here (independent of the code under test) must
//! read as the positions the same algorithms make, solve at the same optimal length,
//! and impossible colourings must each get their own reason.

use assert_cmd::Command;
use ksolve::def::{load_puzzle, parse_scrambles};
use ksolve::progress::Silent;
use ksolve::puzzle::{Puzzle, ScrambleSource, SolveSettings, State};
use ksolve::search::{SolveOptions, Solver};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::path::Path;

/// A cube of side `n` as stickers in URFDLB order, each face row by row as seen in the
/// usual net (U seen from above with B at the top, side faces with U at the top, D seen
/// from below with F at the top). Each sticker is its cubie's coordinates (x towards R,
/// y towards U, z towards F; from -h to h in steps of 2) and its outward normal.
fn stickers(n: i32) -> Vec<([i32; 3], [i32; 3])> {
    let h = n - 1;
    let mut out = Vec::new();
    for face in "URFDLB".chars() {
        for r in 0..n {
            for c in 0..n {
                let (a, b) = (2 * c - h, 2 * r - h);
                let st = match face {
                    'U' => ([a, h, b], [0, 1, 0]),
                    'R' => ([h, -b, -a], [1, 0, 0]),
                    'F' => ([a, -b, h], [0, 0, 1]),
                    'D' => ([a, -h, -b], [0, -1, 0]),
                    'L' => ([-h, -b, a], [-1, 0, 0]),
                    _ => ([-a, -b, -h], [0, 0, -1]),
                };
                out.push(st);
            }
        }
    }
    out
}

/// The rotation by a quarter turn clockwise seen from outside along `axis`:
/// v -> -(axis x v) + axis (axis . v).
fn quarter(axis: [i32; 3], v: [i32; 3]) -> [i32; 3] {
    let cross = [
        axis[1] * v[2] - axis[2] * v[1],
        axis[2] * v[0] - axis[0] * v[2],
        axis[0] * v[1] - axis[1] * v[0],
    ];
    let dot = axis[0] * v[0] + axis[1] * v[1] + axis[2] * v[2];
    [
        -cross[0] + axis[0] * dot,
        -cross[1] + axis[1] * dot,
        -cross[2] + axis[2] * dot,
    ]
}

/// Which layers along a turn's axis turn: the outer one (a face), the ones strictly
/// inside (the middle slice of a 3x3x3) or all of them (a whole-cube rotation).
#[derive(Clone, Copy)]
enum Layers {
    Outer,
    Inner,
    All,
}

/// The axis (the direction of the face a plain turn turns like, clockwise seen from
/// outside) and the layers of one move name. Block Buster's slices and rotations turn as
/// `3x3x3_slices.def` documents: V and LVR as R, H and UHD as U, M and FMB as F.
fn turn_of(name: &str) -> ([i32; 3], Layers) {
    match name {
        "U" => ([0, 1, 0], Layers::Outer),
        "D" => ([0, -1, 0], Layers::Outer),
        "R" => ([1, 0, 0], Layers::Outer),
        "L" => ([-1, 0, 0], Layers::Outer),
        "F" => ([0, 0, 1], Layers::Outer),
        "B" => ([0, 0, -1], Layers::Outer),
        "V" => ([1, 0, 0], Layers::Inner),
        "H" => ([0, 1, 0], Layers::Inner),
        "M" => ([0, 0, 1], Layers::Inner),
        "LVR" => ([1, 0, 0], Layers::All),
        "UHD" => ([0, 1, 0], Layers::All),
        "FMB" => ([0, 0, 1], Layers::All),
        _ => panic!("not a move: {name}"),
    }
}

/// The facelet string an algorithm (`R`, `U2`, `F'`, and Block Buster's `V`, `LVR2`,
/// ...) makes from solved.
fn simulate(n: i32, alg: &str) -> String {
    let st = stickers(n);
    let mut colours: Vec<char> = "URFDLB"
        .chars()
        .flat_map(|f| std::iter::repeat_n(f, (n * n) as usize))
        .collect();
    for word in alg.split_whitespace() {
        let (name, turns) = if let Some(name) = word.strip_suffix('2') {
            (name, 2)
        } else if let Some(name) = word.strip_suffix('\'') {
            (name, 3)
        } else {
            (word, 1)
        };
        let (axis, layers) = turn_of(name);
        for _ in 0..turns {
            let mut next = colours.clone();
            for (i, &(pos, normal)) in st.iter().enumerate() {
                let dot = axis[0] * pos[0] + axis[1] * pos[1] + axis[2] * pos[2];
                let turns = match layers {
                    Layers::Outer => dot == n - 1,
                    Layers::Inner => dot.abs() < n - 1,
                    Layers::All => true,
                };
                if turns {
                    let to = (quarter(axis, pos), quarter(axis, normal));
                    let j = st.iter().position(|&s| s == to).unwrap();
                    next[j] = colours[i];
                }
            }
            colours = next;
        }
    }
    colours.into_iter().collect()
}

fn puzzle(file: &str) -> Puzzle {
    load_puzzle(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(file),
    )
    .unwrap()
    .0
}

/// The position a facelet string reads as, through a `ScrambleFacelets` block.
fn read(p: &Puzzle, facelets: &str) -> ScrambleSource {
    let text = format!("ScrambleFacelets x\n{facelets}\nEnd\n");
    parse_scrambles(text.as_bytes(), "s.txt", p).unwrap()[0]
        .source
        .clone()
}

fn by_alg(p: &Puzzle, alg: &str) -> State {
    let seq: Vec<_> = alg
        .split_whitespace()
        .map(|m| p.move_by_name(m).unwrap())
        .collect();
    p.apply_sequence(&p.solved, &seq)
}

const ALGS: &[&str] = &["R", "U F'", "R U R' U'", "F2 B L' D", "R U2 D' B D'"];

#[test]
fn simulated_facelets_read_as_the_algorithms_positions() {
    for (file, n, algs) in [
        ("3x3x3.def", 3, ALGS),
        ("2x2x2.def", 2, &["R", "U F'", "R U R' U'", "F2 U' R F"][..]),
    ] {
        let p = puzzle(file);
        for alg in algs {
            let got = read(&p, &simulate(n, alg));
            let ScrambleSource::Position(t) = got else {
                panic!("{file} {alg}: {got:?}");
            };
            assert_eq!(t.state, by_alg(&p, alg), "{file} {alg}");
        }
    }
}

#[test]
fn any_distinct_letters_work_with_the_centres_giving_the_faces() {
    let p = puzzle("3x3x3.def");
    let plain = simulate(3, "R U F");
    let coloured: String = plain
        .chars()
        .map(|c| match c {
            'U' => 'W',
            'R' => 'R',
            'F' => 'G',
            'D' => 'Y',
            'L' => 'O',
            _ => 'B',
        })
        .collect();
    assert_eq!(read(&p, &coloured), read(&p, &plain));
    let ScrambleSource::Position(t) = read(&p, &plain) else {
        panic!()
    };
    assert_eq!(t.state, by_alg(&p, "R U F"));
    // The 2x2x2 has no centres: its fixed DBL corner gives D, L and B, the pieces the rest.
    let p2 = puzzle("2x2x2.def");
    let plain = simulate(2, "R U F2");
    let coloured: String = plain
        .chars()
        .map(|c| match c {
            'U' => 'w',
            'R' => 'r',
            'F' => 'g',
            'D' => 'y',
            'L' => 'o',
            _ => 'b',
        })
        .collect();
    let ScrambleSource::Position(t) = read(&p2, &coloured) else {
        panic!()
    };
    assert_eq!(t.state, by_alg(&p2, "R U F2"));
}

#[test]
fn the_superflip_string_is_the_superflip() {
    let p = puzzle("3x3x3.def");
    let got = read(&p, "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB");
    let ScrambleSource::Position(t) = got else {
        panic!("{got:?}")
    };
    let alg = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
    assert_eq!(t.state, by_alg(&p, alg));
    assert_eq!(
        simulate(3, alg),
        "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB"
    );
}

/// Algorithms on the 3x3x3 with slices and rotations, each with a slice move or a
/// whole-cube rotation (or both), in every power.
const SLICE_ALGS: &[&str] = &[
    "V",
    "H",
    "M",
    "V' R",
    "M2 U H'",
    "R V' L' F M B",
    "V H M LVR",
    "LVR",
    "UHD'",
    "FMB2",
    "LVR U FMB' D2",
    "UHD R M' LVR2 F",
];

#[test]
fn simulated_facelets_read_as_the_positions_of_slices_and_rotations() {
    let p = puzzle("3x3x3_slices.def");
    for alg in SLICE_ALGS {
        let got = read(&p, &simulate(3, alg));
        let ScrambleSource::Position(t) = got else {
            panic!("{alg}: {got:?}");
        };
        assert_eq!(t.state, by_alg(&p, alg), "{alg}");
    }
}

/// With moving centres no sticker is fixed, so the letters are matched to faces by
/// trying every assignment; a string in the faces' own letters whose centres are turned
/// away (a rotated cube) must still read as the rotated position, not as solved.
#[test]
fn a_rotated_cube_reads_as_rotated_on_the_slices_def() {
    let p = puzzle("3x3x3_slices.def");
    let centres = p.sets.iter().position(|s| s.name == "CENTRES").unwrap();
    for alg in ["LVR", "UHD FMB'", "LVR R U"] {
        let ScrambleSource::Position(t) = read(&p, &simulate(3, alg)) else {
            panic!("{alg}")
        };
        assert_ne!(
            t.state.sets[centres], p.solved.sets[centres],
            "{alg}: the centres moved"
        );
        assert_eq!(t.state, by_alg(&p, alg), "{alg}");
    }
    // The same from the command line: `show --facelets` draws what `show --alg` draws.
    let facelets = simulate(3, "LVR R U");
    let by_colours = ksolve()
        .args(["show", "puzzles/3x3x3_slices.def", "--color", "never"])
        .args(["--facelets", &facelets])
        .output()
        .unwrap();
    let by_moves = ksolve()
        .args(["show", "puzzles/3x3x3_slices.def", "--color", "never"])
        .args(["--alg", "LVR R U"])
        .output()
        .unwrap();
    assert_eq!(by_colours.status.code(), Some(0));
    assert_eq!(by_moves.status.code(), Some(0));
    let net = String::from_utf8(by_colours.stdout).unwrap();
    assert_eq!(net, String::from_utf8(by_moves.stdout).unwrap());
    let solved = ksolve()
        .args(["show", "puzzles/3x3x3_slices.def", "--color", "never"])
        .output()
        .unwrap();
    assert_ne!(net, String::from_utf8(solved.stdout).unwrap());
}

#[test]
fn the_superflip_string_reads_on_the_slices_def() {
    let p = puzzle("3x3x3_slices.def");
    let got = read(&p, "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB");
    let ScrambleSource::Position(t) = got else {
        panic!("{got:?}")
    };
    let alg = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
    assert_eq!(t.state, by_alg(&p, alg));
    // Turned whole, the superflip still reads, as the turned position.
    let turned = format!("{alg} LVR UHD'");
    let ScrambleSource::Position(t) = read(&p, &simulate(3, &turned)) else {
        panic!("{turned}")
    };
    assert_eq!(t.state, by_alg(&p, &turned));
}

fn ksolve() -> Command {
    let mut c = crate::common::ksolve();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

#[test]
fn facelets_solve_at_the_algorithms_optimal_length() {
    let p = puzzle("3x3x3.def");
    // A small budget keeps the pruning tables quick to build in a debug build; these
    // positions are close to solved.
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 100 << 20));
    for alg in ALGS {
        let ScrambleSource::Position(t) = read(&p, &simulate(3, alg)) else {
            panic!("{alg}")
        };
        let options = SolveOptions {
            count: Some(1),
            ..SolveOptions::default()
        };
        let o = solver
            .solve(
                &t.state,
                &[],
                &SolveSettings::default(),
                options,
                &Silent,
                |_, _| {},
            )
            .unwrap();
        // Each of these algorithms is optimal, so the position solves at its length.
        assert_eq!(
            o.length,
            Some(alg.split_whitespace().count() as u32),
            "{alg}"
        );
    }
}

/// Solves one facelet string from the command line: exit code and standard output.
fn solve_facelets(facelets: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = ksolve()
        .args([
            "solve",
            "puzzles/3x3x3.def",
            "--facelets",
            facelets,
            "--tables",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Replaces the stickers at `at` (indices into the string) by `by`.
fn recolour(s: &str, at: &[(usize, char)]) -> String {
    let mut v: Vec<char> = s.chars().collect();
    for &(i, c) in at {
        v[i] = c;
    }
    v.into_iter().collect()
}

#[test]
fn impossible_colourings_each_get_their_reason_and_exit_1() {
    let solved = simulate(3, "");
    // Sticker indices, face by face from 0: U7 = 6 (UFL's U), U9 = 8 (URF's U), U8 = 7
    // (UF's U), R1 = 9 (URF's R), R2 = 10 (UR's R), F1 = 18 (UFL's F), F2 = 19 (UF's F),
    // F3 = 20 (URF's F), D2 = 28 (DF's D), L3 = 38 (UFL's L).
    let cases: Vec<(String, &str)> = vec![
        (
            recolour(&solved, &[(0, 'R')]),
            "colour R is used 10 times, not 9; colour U is used 8 times, not 9",
        ),
        (
            // URF's F sticker painted U (and UFL's U sticker F, to keep the counts).
            recolour(&solved, &[(20, 'U'), (6, 'F')]),
            "the corner at URF has colours U-R-U, and no corner does: two of its stickers are U",
        ),
        (
            recolour(&solved, &[(19, 'D'), (28, 'F')]),
            "the edge at UF has colours U-D, and no edge does: U and D are on opposite faces",
        ),
        (
            // UFL painted as URF, and UR as UL, so that every piece is real.
            recolour(&solved, &[(18, 'R'), (38, 'F'), (10, 'L')]),
            "the corner U-R-F is given twice (at URF and UFL)",
        ),
        (
            // URF turned clockwise in place: its U sticker shows on R, R on F, F on U.
            recolour(&solved, &[(8, 'F'), (9, 'U'), (20, 'R')]),
            "the corner U-R-F is twisted",
        ),
        (
            recolour(&solved, &[(7, 'F'), (19, 'U')]),
            "the edge U-F is flipped",
        ),
        (
            recolour(&solved, &[(19, 'R'), (10, 'F')]),
            "the edges U-R and U-F are swapped",
        ),
    ];
    let mut reasons = Vec::new();
    for (facelets, want) in cases {
        let (code, stdout, stderr) = solve_facelets(&facelets);
        assert_eq!(code, Some(1), "{facelets}: {stdout}{stderr}");
        assert!(
            stdout.contains(want),
            "{facelets}: expected `{want}` in {stdout}"
        );
        reasons.push(stdout);
    }
    reasons.sort();
    reasons.dedup();
    assert_eq!(reasons.len(), 7);
}

#[test]
fn malformed_strings_exit_2_with_the_place() {
    let solved = simulate(3, "");
    for (facelets, want) in [
        (&solved[..53], "53 colours given: expected 54"),
        (&recolour(&solved, &[(3, 'X')])[..], "unknown colour `X`"),
    ] {
        let (code, _, stderr) = solve_facelets(facelets);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(want), "{stderr}");
    }
    let dir = tempfile::tempdir().unwrap();
    let scr = dir.path().join("s.txt");
    std::fs::write(
        &scr,
        format!(
            "ScrambleFacelets bad\n{}\nEnd\n",
            recolour(&solved, &[(3, 'X')])
        ),
    )
    .unwrap();
    let out = ksolve()
        .args(["check", "puzzles/3x3x3.def"])
        .arg(&scr)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("s.txt:2:4"), "{stderr}");
}

/// Every shipped sticker map reads back what it draws: the colours of a position, as a
/// facelet string, are that position again.
#[test]
fn shipped_maps_read_back_what_they_draw() {
    for (file, algs) in [
        ("2x2x2.def", &["R U2 F'", "F R"][..]),
        ("3x3x3.def", &["R U2 F' L D B2"][..]),
        (
            "3x3x3_slices.def",
            &["V H' M2 R", "LVR U FMB' V2", "UHD2 M B'"][..],
        ),
        ("skewb.def", &["R U", "L B' R U'", "B"][..]),
        ("pyraminx.def", &["U L'", "R B U' L", "B'"][..]),
        ("megaminx.def", &["R U2' F", "DBL D BR2 L'"][..]),
    ] {
        let p = puzzle(file);
        let map = p.stickers.as_ref().unwrap();
        for alg in algs {
            let state = by_alg(&p, alg);
            let colours: String = map.colours(&p.sets, &state).into_iter().collect();
            let ScrambleSource::Position(t) = read(&p, &colours) else {
                panic!("{file} {alg}")
            };
            assert_eq!(t.state, state, "{file} {alg}");
        }
    }
}

/// The colour initials of the standard scheme, by face.
fn initial(face: char) -> char {
    match face {
        'U' => 'W',
        'R' => 'R',
        'F' => 'G',
        'D' => 'Y',
        'L' => 'O',
        'B' => 'B',
        other => other,
    }
}

/// A position typed with the user's own colour letters is drawn with them, by `show`
/// (after a further algorithm too) and by `solve --steps` at every step.
#[test]
fn pictures_show_the_users_own_letters() {
    let typed: String = simulate(3, "F").chars().map(initial).collect();
    let by_faces = ksolve()
        .args([
            "show",
            "puzzles/3x3x3.def",
            "--alg",
            "F R U",
            "--color",
            "never",
        ])
        .output()
        .unwrap();
    let want: String = String::from_utf8(by_faces.stdout)
        .unwrap()
        .chars()
        .map(initial)
        .collect();
    let out = ksolve()
        .args(["show", "puzzles/3x3x3.def", "--facelets", &typed])
        .args(["--alg", "R U", "--color", "never"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);
    // In colour, the user's W is drawn on the U face's white.
    let out = ksolve()
        .args(["show", "puzzles/3x3x3.def", "--facelets", &typed])
        .args(["--color", "always"])
        .output()
        .unwrap();
    let coloured = String::from_utf8(out.stdout).unwrap();
    assert!(coloured.contains("[48;2;255;255;255mW "), "{coloured:?}");
    let dir = tempfile::tempdir().unwrap();
    let out = ksolve()
        .args([
            "solve",
            "puzzles/3x3x3.def",
            "--facelets",
            &typed,
            "--steps",
        ])
        .args(["--color", "never", "--quiet", "--tables"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Step 1: F'"), "{text}");
    let pictures: String = text.lines().filter(|l| !l.contains(':')).collect();
    assert!(pictures.contains('W') && !pictures.contains('U'), "{text}");
}
