//! cubing.js's KPuzzle JSON: the definitions cubing.js ships read (from
//! `../shared/kpuzzle-samples`, else `/work/shared/kpuzzle-samples`; skipped when
//! neither exists) with the moves and group orders of the same puzzles' other
//! definitions, every shipped puzzle is written and read back to the same puzzle (what
//! KPuzzle cannot say in ksolve's extension object), and a KPuzzle and a KPattern are
//! solved from the command line like a `.def` and a scramble file.

use crate::common::{ksolve, output};
use ksolve::def::load_puzzle;
use ksolve::group::Group;
use ksolve::kpuzzle::{read_definition, write_definition};
use ksolve::puzzle::Puzzle;
use std::path::PathBuf;

fn samples() -> Option<PathBuf> {
    let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/kpuzzle-samples");
    [beside, PathBuf::from("/work/shared/kpuzzle-samples")]
        .into_iter()
        .find(|d| d.is_dir())
}

fn twsearch_samples() -> Option<PathBuf> {
    let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/twsearch-samples");
    [beside, PathBuf::from("/work/shared/twsearch-samples")]
        .into_iter()
        .find(|d| d.is_dir())
}

fn order_of(p: &Puzzle, name: &str) -> u32 {
    p.base_moves[p
        .base_by_name(name)
        .unwrap_or_else(|| panic!("no move {name}"))]
    .order
}

fn group_order(p: &Puzzle) -> String {
    Group::new(p).unwrap().order().to_string()
}

#[test]
fn every_sample_reads_and_checks() {
    let Some(dir) = samples() else {
        return;
    };
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".kpuzzle.json") {
            continue;
        }
        let (p, warnings) = load_puzzle(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        assert!(!p.base_moves.is_empty(), "{name}");
        let (code, _, err) = output(ksolve().arg("check").arg(&path));
        assert_eq!(code, 0, "{name}: {err}");
        read += 1;
    }
    assert_eq!(read, 7, "the corpus's seven KPuzzle definitions");
}

/// cubing.js's 2x2x2 turns U and the whole cube (x, y); its derived face turns make the
/// same group as twsearch's six-face 2x2x2, and each turn has the same order.
#[test]
fn the_2x2x2_matches_twsearch_s() {
    let (Some(dir), Some(tws)) = (samples(), twsearch_samples()) else {
        return;
    };
    let (k, _) = load_puzzle(dir.join("2x2x2.kpuzzle.json")).unwrap();
    let (t, _) = load_puzzle(tws.join("2x2x2.tws")).unwrap();
    assert_eq!(group_order(&k), "88179840");
    assert_eq!(group_order(&k), group_order(&t));
    for face in ["U", "F", "R", "B", "L", "D"] {
        assert_eq!(order_of(&k, face), order_of(&t, face), "{face}");
    }
    // `Rv` is `x` under another name: an alias, with its powers, not a second move.
    assert_eq!(k.mv(k.move_by_name("Rv").unwrap()).name, "x");
    assert_eq!(k.mv(k.move_by_name("Lv2").unwrap()).name, "x2");
}

/// cubing.js's 3x3x3 has centres whose orientation is known modulo 1 (dropped), slices,
/// wide turns and rotations. Its face turns generate exactly the group of ksolve's
/// 3x3x3 (the centres stay put and have no twists), each face turn of order
/// 4, and the wide turns `Rw` and `2R` are aliases of `r` and of a slice.
#[test]
fn the_3x3x3_matches_ksolve_s() {
    let Some(dir) = samples() else {
        return;
    };
    let (k, _) = load_puzzle(dir.join("3x3x3.kpuzzle.json")).unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (ours, _) = load_puzzle(root.join("puzzles/3x3x3.def")).unwrap();
    for face in ["U", "D", "F", "B", "L", "R"] {
        assert_eq!(order_of(&k, face), 4, "{face}");
        assert_eq!(order_of(&k, face), order_of(&ours, face), "{face}");
    }
    // The centres' twists are known modulo 1 in cubing.js's goal: not looked at.
    assert_eq!(k.sets[2].orientations, 1, "centre orientations dropped");
    assert_eq!(k.mv(k.move_by_name("Rw").unwrap()).name, "r");
    // Face turns only: exactly the group of ksolve's 3x3x3 (no supercube's twists).
    let faces: Vec<_> = ["U", "D", "F", "B", "L", "R"]
        .iter()
        .map(|f| k.move_by_name(f).unwrap())
        .collect();
    let by_faces = Group::generated_by(&k, &faces).unwrap().order().to_string();
    assert_eq!(group_order(&ours), "43252003274489856000");
    assert_eq!(by_faces, "43252003274489856000");
    // All its moves (slices and rotations too): the group of ksolve's 3x3x3 with slices
    // and rotations, which `check` prints for both.
    let (slices, _) = load_puzzle(root.join("puzzles/3x3x3_slices.def")).unwrap();
    assert_eq!(group_order(&k), group_order(&slices));
    assert_eq!(group_order(&k), "1038048078587756544000");
}

/// Every shipped puzzle, written as a KPuzzle and read back, is the same puzzle (moves,
/// solved state, guards, rules, blocks, masks, costs, searched moves, sticker map: the
/// whole model), and `ksolve check` says the same of the JSON as of the `.def`. What
/// KPuzzle cannot say is in the `"ksolve"` extension object, which a puzzle that needs
/// none of it does not get, so that cubing.js users get a plain file.
#[test]
fn every_shipped_puzzle_round_trips_and_checks_the_same() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let dir = tempfile::tempdir().unwrap();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "def"))
        .collect();
    names.sort();
    let mut plain = Vec::new();
    for path in &names {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let (p, _) = load_puzzle(path).unwrap();
        let export = write_definition(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (back, warnings) = read_definition(export.json.as_bytes(), &name)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        assert_eq!(back, p, "{name}:\n{}", export.json);
        if !export.json.contains("\"ksolve\"") {
            plain.push(name.clone());
        }
        let json = dir.path().join(format!("{name}.kpuzzle.json"));
        std::fs::write(&json, &export.json).unwrap();
        let check = |file: &std::path::Path| output(ksolve().arg("check").arg(file));
        let (code, out, err) = check(path);
        let (json_code, json_out, json_err) = check(&json);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(json_code, code, "{name}: {json_err}");
        // The summary names the file it read.
        let json_out = json_out.replace(&json.display().to_string(), &path.display().to_string());
        assert_eq!(json_out, out, "{name}");
    }
    assert!(names.len() >= 19, "{names:?}");
    // The features each puzzle needs are in the extension; only the 4x4x4's centres
    // (no sticker map, nothing left out of searches) need none.
    assert_eq!(plain, ["4x4x4_centres"]);
}

/// A definition exported as KPuzzle solves every scramble as the `.def` does (same
/// solutions, same order), and a KPattern file is a position to solve.
#[test]
fn exported_kpuzzles_and_patterns_solve_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("2x2x2.kpuzzle.json");
    let (code, _, err) = output(
        ksolve()
            .args(["export", "puzzles/2x2x2.def", "--kpuzzle", "-o"])
            .arg(&json),
    );
    assert_eq!(code, 0, "{err}");
    let solve = |def: &std::path::Path, scr: &str| {
        let (code, out, err) = output(
            ksolve()
                .arg("solve")
                .arg(def)
                .arg(scr)
                .arg("--tables")
                .arg(dir.path().join("tables")),
        );
        assert_eq!(code, 0, "{err}");
        out
    };
    // The fixed scrambles of the shipped file (a random draw depends on the file's bytes).
    let fixed = dir.path().join("fixed.txt");
    let text = std::fs::read_to_string("scrambles/2x2x2.txt").unwrap();
    std::fs::write(&fixed, text.split("RandomScramble").next().unwrap()).unwrap();
    let fixed = fixed.to_str().unwrap();
    let want = solve(std::path::Path::new("puzzles/2x2x2.def"), fixed);
    assert!(want.contains("Solving nine moves"), "{want}");
    assert_eq!(solve(&json, fixed), want);
    // U R' as a KPattern: the position two moves from solved.
    let (p, _) = load_puzzle(&json).unwrap();
    let moves = [p.move_by_name("U").unwrap(), p.move_by_name("R'").unwrap()];
    let at = p.apply_sequence(&p.solved, &moves);
    let set = &at.sets[0];
    let pattern = dir.path().join("two.json");
    std::fs::write(
        &pattern,
        format!(
            r#"{{ "{}": {{ "pieces": {:?}, "orientation": {:?} }} }}"#,
            p.sets[0].name, set.perm, set.ori
        ),
    )
    .unwrap();
    let out = solve(&json, pattern.to_str().unwrap());
    assert!(out.contains("R U'"), "{out}");
}

/// Four pieces with four orientations, two of them interchangeable (label 2), turned by
/// a twisting 4-cycle `A` and a swap `B` that half-turns the last piece.
const MODULI: &str = r#"{
  "name": "moduli",
  "orbits": [{ "orbitName": "P", "numPieces": 4, "numOrientations": 4 }],
  "defaultPattern": { "P": { "pieces": [0, 1, 2, 2], "orientation": [0, 0, 0, 0] } },
  "moves": {
    "A": { "P": { "permutation": [1, 2, 3, 0], "orientationDelta": [1, 0, 0, 0] } },
    "B": { "P": { "permutation": [1, 0, 2, 3], "orientationDelta": [0, 0, 0, 2] } }
  }
}"#;

/// A KPattern whose `orientationMod` knows some pieces' twists modulo 2 only solves at
/// the length a breadth-first search written here finds: from the given position to
/// the first one where every piece is home with its twist right modulo its piece's
/// modulus (the modulus travels with the piece, as in cubing.js).
#[test]
fn orientation_known_modulo_a_divisor_solves_optimally() {
    use ksolve::kpuzzle::read_pattern;
    use ksolve::progress::Silent;
    use ksolve::puzzle::{ScrambleSource, State};
    use ksolve::search::{SolveOptions, Solver, Status};
    use ksolve::storage::cache::TableCache;
    use ksolve::table::Tables;
    use std::collections::{HashSet, VecDeque};
    let (p, _) = read_definition(MODULI.as_bytes(), "moduli.json").unwrap();
    let moves: Vec<_> = (0..p.moves.len())
        .map(|m| ksolve::puzzle::MoveId(m as u16))
        .collect();
    // Every reachable position, in the order found.
    let mut all = vec![p.solved.clone()];
    let mut seen: HashSet<State> = all.iter().cloned().collect();
    let mut i = 0;
    while i < all.len() {
        for &m in &moves {
            let next = all[i].then(&p.mv(m).effect, &p.sets);
            if seen.insert(next.clone()) {
                all.push(next);
            }
        }
        i += 1;
    }
    assert_eq!(all.len(), 3072, "4!/2 arrangements times 4^4 twists");
    // Per label, its modulus (0: known).
    let solved_mod = |s: &State, by_label: &[u8; 3]| {
        (0..4).all(|h| {
            let m = match by_label[p.solved.sets[0].perm[h] as usize] {
                0 => 4,
                m => m,
            };
            s.sets[0].perm[h] == p.solved.sets[0].perm[h] && s.sets[0].ori[h].is_multiple_of(m)
        })
    };
    let bfs = |start: &State, by_label: &[u8; 3]| {
        let mut queue = VecDeque::from([(start.clone(), 0u32)]);
        let mut seen = HashSet::from([start.clone()]);
        while let Some((s, d)) = queue.pop_front() {
            if solved_mod(&s, by_label) {
                return d;
            }
            for &m in &moves {
                let next = s.then(&p.mv(m).effect, &p.sets);
                if seen.insert(next.clone()) {
                    queue.push_back((next, d + 1));
                }
            }
        }
        panic!("no goal reached");
    };
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 1 << 26));
    let mut shorter = 0;
    for by_label in [[2, 0, 2], [0, 2, 0], [2, 2, 2]] {
        for start in all.iter().step_by(41) {
            let s = &start.sets[0];
            let mods: Vec<u8> = s.perm.iter().map(|&l| by_label[l as usize]).collect();
            let json = format!(
                r#"{{ "P": {{ "pieces": {:?}, "orientation": {:?}, "orientationMod": {mods:?} }} }}"#,
                s.perm, s.ori
            );
            let scramble = read_pattern(json.as_bytes(), "p.json", "p", &p).unwrap();
            let ScrambleSource::Position(t) = &scramble.source else {
                panic!("{scramble:?}")
            };
            let o = solver
                .solve(
                    &t.state,
                    &t.ignore,
                    &scramble.settings,
                    SolveOptions::default(),
                    &Silent,
                    |_, _| {},
                )
                .unwrap();
            let want = bfs(start, &by_label);
            assert_eq!(o.status, Status::Solved, "{json}");
            assert_eq!(o.length, Some(want), "{json}");
            for sol in &o.solutions {
                assert!(
                    solved_mod(&p.apply_sequence(start, sol), &by_label),
                    "{json}"
                );
            }
            // Knowing less shortens some solutions.
            if want < bfs(start, &[0, 0, 0]) {
                shorter += 1;
            }
        }
    }
    assert!(shorter > 10, "{shorter}");
}
