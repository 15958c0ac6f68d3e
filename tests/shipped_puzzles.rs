//! The puzzle and scramble files we ship: each passes `ksolve check`, each move has the
//! order its geometry says, each puzzle generates the group of the published size, and
//! known sequences give the known positions.

use ksolve::def::{load_puzzle, load_scrambles, parse_scrambles};
use ksolve::group::Group;
use ksolve::puzzle::{Puzzle, ScrambleSource, State};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn puzzle(name: &str) -> Puzzle {
    let (p, warnings) =
        load_puzzle(root().join("puzzles").join(name)).unwrap_or_else(|e| panic!("{e}"));
    assert!(warnings.is_empty(), "{name}: {warnings:?}");
    p
}

/// Every shipped definition, and the scramble file of the same name beside it in
/// `scrambles/`, passes `ksolve check`.
#[test]
fn every_shipped_file_passes_check() {
    let defs = crate::common::definitions_in(&root().join("puzzles"));
    assert!(defs.len() >= 8, "{defs:?}");
    let mut with_scrambles = 0;
    for def in &defs {
        let stem = def.file_stem().unwrap().to_str().unwrap();
        let scr = root().join("scrambles").join(format!("{stem}.txt"));
        let mut cmd = crate::common::ksolve();
        cmd.arg("check").arg(def);
        if scr.exists() {
            cmd.arg(&scr);
            with_scrambles += 1;
        }
        cmd.assert().success().stderr("");
        // Further scramble files of the puzzle: `scrambles/STEM.WHAT.txt`.
        for e in std::fs::read_dir(root().join("scrambles")).unwrap() {
            let more = e.unwrap().path();
            let name = more.file_name().unwrap().to_str().unwrap().to_string();
            if name.starts_with(&format!("{stem}.")) && name.ends_with(".txt") && more != scr {
                crate::common::ksolve()
                    .arg("check")
                    .arg(def)
                    .arg(&more)
                    .assert()
                    .success()
                    .stderr("");
                with_scrambles += 1;
            }
        }
    }
    // Every scramble file belongs to a puzzle.
    let scrambles = std::fs::read_dir(root().join("scrambles")).unwrap().count();
    assert_eq!(scrambles, with_scrambles);
}

#[test]
fn moves_have_the_orders_of_their_geometry() {
    for (file, order, count) in [
        ("2x2x2.def", 4, 3),
        ("3x3x3.def", 4, 6),
        ("3x3x3_ll.def", 4, 6),
        ("3x3x3_bandaged.def", 4, 6),
        ("pyraminx.def", 3, 4),
        ("skewb.def", 3, 4),
        ("megaminx.def", 5, 12),
        ("4x4x4_centres.def", 4, 12),
        ("3x3x3_slices.def", 4, 12),
    ] {
        let p = puzzle(file);
        assert_eq!(p.base_moves.len(), count, "{file}");
        for m in &p.base_moves {
            assert_eq!(m.order, order, "{file} {}", m.name);
            assert!(!m.directed);
        }
        assert_eq!(p.moves.len(), count * (order as usize - 1), "{file}");
    }
    let d = puzzle("2x2x2_directed.def");
    assert!(d.base_moves.iter().all(|m| m.directed && m.order == 4));
    assert_eq!(d.moves.len(), 3);
    let u = d.move_by_name("U").unwrap();
    assert!(d.canonical_successor(u, u));
}

/// Applies a `ScrambleAlg` written as text.
fn alg_state(p: &Puzzle, alg: &str) -> State {
    let text = format!("ScrambleAlg a\n{alg}\nEnd\n");
    let v = parse_scrambles(text.as_bytes(), "alg", p).unwrap_or_else(|e| panic!("{e}"));
    let ScrambleSource::Alg(seq) = &v[0].source else {
        panic!("not an alg")
    };
    p.apply_sequence(&p.solved, seq)
}

#[test]
fn superflip_flips_every_edge_in_place() {
    let p = puzzle("3x3x3.def");
    let s = alg_state(&p, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
    assert_eq!(s.sets[0], p.solved.sets[0]);
    assert_eq!(s.sets[1].perm, p.solved.sets[1].perm);
    assert_eq!(s.sets[1].ori, vec![1; 12]);
}

#[test]
fn known_sequences_give_known_positions() {
    let p = puzzle("3x3x3.def");
    // The T-permutation swaps URF with UBR and UL with UR, orienting nothing.
    let t = alg_state(&p, "R U R' U' R' F R2 U' R' U' R U R' F'");
    assert_eq!(t.sets[0].perm, [3, 1, 2, 0, 4, 5, 6, 7]);
    assert_eq!(t.sets[1].perm, [0, 3, 2, 1, 4, 5, 6, 7, 8, 9, 10, 11]);
    assert!(t.sets.iter().all(|s| s.ori.iter().all(|&o| o == 0)));
    // The shipped T-perm scramble is that position.
    let v = load_scrambles(root().join("scrambles/3x3x3.txt"), &p).unwrap();
    let ScrambleSource::Position(target) = &v[2].source else {
        panic!()
    };
    assert_eq!(target.state, t);
    // R U R' U' six times is the identity; the Sune twists three corners clockwise.
    let six = "R U R' U' ".repeat(6);
    assert_eq!(alg_state(&p, &six), p.solved);
    let sune = alg_state(&p, "R U R' U R U2 R'");
    assert_eq!(sune.sets[0].ori, [1, 1, 1, 0, 0, 0, 0, 0]);
    // On the Pyraminx a move and its inverse cancel, and a commutator leaves the
    // centres alone.
    let py = puzzle("pyraminx.def");
    assert_eq!(alg_state(&py, "U U'"), py.solved);
    let comm = alg_state(&py, "R U' R' U");
    assert_eq!(comm.sets[1], py.solved.sets[1]);
    // The bandaged cube refuses F while the bar sits at URF/UR.
    let b = puzzle("3x3x3_bandaged.def");
    let e = parse_scrambles(b"ScrambleAlg a\nF\nEnd\n", "s", &b).unwrap_err();
    assert!(e.to_string().contains("blocked"), "{e}");
}

/// Group orders of the shipped puzzles (the library's Schreier-Sims on the (piece,
/// orientation) points). These sizes are the published ones (see the reference tables);
/// the Megaminx size is 20!/2 * 30!/2 * 3^19 * 2^29.
#[test]
fn puzzles_generate_groups_of_the_published_sizes() {
    let check = |file: &str, expected: &str| {
        let p = puzzle(file);
        let g = Group::new(&p).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(g.order().to_string(), expected, "{file}");
    };
    check("2x2x2.def", "3674160");
    check("pyraminx.def", "933120");
    check("skewb.def", "3149280");
    check("3x3x3.def", "43252003274489856000");
    // Centres move with slices and rotations: 24 orientations of the cube times its
    // positions.
    check("3x3x3_slices.def", "1038048078587756544000");
    check(
        "megaminx.def",
        "100669616553523347122516032313645505168688116411019768627200000000000",
    );
}

/// The WCA-notation big cubes and megaminx have rotations (or moves that carry the
/// centres), so their groups are the published counts times the puzzle's orientations:
/// 24 for a cube, 60 for the megaminx.
#[test]
fn wca_puzzles_generate_their_groups_times_their_orientations() {
    for (file, order) in [
        // 7,401,196,841,564,901,869,874,093,974,498,574,336,000,000,000 positions, x 24.
        (
            "4x4x4.def",
            "177628724197557644876978255387965784064000000000",
        ),
        // 282,870,942,277,741,856,536,180,333,107,150,328,293,127,731,985,672,134,721,536,
        // 000,000,000,000,000 positions, x 24.
        (
            "5x5x5.def",
            "6788902614665804556868327994571607879035065567656131233316864000000000000000",
        ),
        // megaminx.def's group, x 60.
        (
            "megaminx_wca.def",
            "6040176993211400827350961938818730310121286984661186117632000000000000",
        ),
    ] {
        let p = puzzle(file);
        let g = Group::new(&p).unwrap_or_else(|e| panic!("{file}: {e}"));
        // Positions, not permutations: the cubes' centres of one colour are alike.
        let count = g.reachable();
        assert!(count.is_exact(), "{file}");
        assert_eq!(count.value().to_string(), order, "{file}");
    }
}

/// Block Buster's rotations are its three layers turned together, and its slices are a
/// rotation with the two faces turned back.
#[test]
fn rotations_are_their_three_layers() {
    let p = puzzle("3x3x3_slices.def");
    for (rotation, layers) in [
        ("LVR", "R V L'"),
        ("UHD", "U H D'"),
        ("FMB", "F M B'"),
        ("V", "LVR R' L"),
    ] {
        assert_eq!(alg_state(&p, rotation), alg_state(&p, layers), "{rotation}");
    }
}
