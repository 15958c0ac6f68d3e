//! Steps as named goals (`--goal cross`): the shipped goal files, the step puzzle that
//! searches them (`solve::step`), and `stats --goal` over random positions and over a
//! file of scrambles, checked against a plain breadth-first search over every cross.

use ksolve::def::load_puzzle;
use ksolve::puzzle::{MoveId, Puzzle, State};
use ksolve::stats::Distribution;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `ksolve ARGS --json -q --tables DIR` in the repository root: the JSON it prints.
fn json(tables: &Path, args: &[&str]) -> Value {
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    all.extend(["--json", "-q", "--tables"].map(std::ffi::OsStr::new));
    all.push(tables.as_os_str());
    let text = crate::common::stdout_of(&all);
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

/// Where the four D edges (labels 4 to 7) are and how they are turned.
fn cross_key(s: &State) -> [(usize, u8); 4] {
    let edges = &s.sets[1];
    let mut key = [(0, 0); 4];
    for (i, &l) in edges.perm.iter().enumerate() {
        if (4..8).contains(&l) {
            key[l as usize - 4] = (i, edges.ori[i]);
        }
    }
    key
}

/// The number of cross positions at each distance from solved, by a breadth-first
/// search over the face turns of the WCA cube.
fn cross_distribution(p: &Puzzle) -> Vec<u64> {
    assert_eq!(p.sets[1].name, "EDGES");
    let faces: Vec<MoveId> = (0..p.moves.len())
        .map(|m| MoveId(m as u16))
        .filter(|&m| "UDRLFB".contains(p.base_moves[p.mv(m).base].name.as_str()))
        .collect();
    assert_eq!(faces.len(), 18);
    let mut seen: HashMap<[(usize, u8); 4], u32> = HashMap::new();
    seen.insert(cross_key(&p.solved), 0);
    let mut layer = vec![p.solved.clone()];
    let mut counts = vec![1u64];
    while !layer.is_empty() {
        let d = counts.len() as u32;
        let mut next = Vec::new();
        for s in &layer {
            for &m in &faces {
                let t = s.then(&p.mv(m).effect, &p.sets);
                let key = cross_key(&t);
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(key) {
                    e.insert(d);
                    next.push(t);
                }
            }
        }
        if !next.is_empty() {
            counts.push(next.len() as u64);
        }
        layer = next;
    }
    counts
}

/// The chi-square critical value at the 0.1% level for `degrees` (up to 10).
fn critical(degrees: usize) -> f64 {
    [
        10.83, 10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59,
    ][degrees.min(10)]
}

fn distribution(v: &Value) -> Distribution {
    let mut d = Distribution::default();
    for l in v["lengths"].as_array().unwrap() {
        for _ in 0..l["count"].as_u64().unwrap() {
            d.add(l["length"].as_u64().unwrap() as u32);
        }
    }
    d
}

#[test]
fn the_cross_distribution_is_the_published_one() {
    let p = load_puzzle(root().join("puzzles/3x3x3_wca.def")).unwrap().0;
    let counts = cross_distribution(&p);
    // Every cross position, by distance (half-turn metric).
    assert_eq!(counts, [1, 15, 158, 1394, 9809, 46381, 97254, 34966, 102]);
    assert_eq!(counts.iter().sum::<u64>(), 190_080);
}

#[test]
fn stats_of_random_crosses_match_every_cross() {
    let p = load_puzzle(root().join("puzzles/3x3x3_wca.def")).unwrap().0;
    let exact = cross_distribution(&p);
    let n = if std::env::var_os("KSOLVE_SLOW_TESTS").is_some() {
        "100000"
    } else {
        "3000"
    };
    let dir = tempfile::tempdir().unwrap();
    let v = json(
        dir.path(),
        &[
            "stats",
            "puzzles/3x3x3_wca.def",
            "--goal",
            "cross",
            "--random",
            n,
            "--seed",
            "27",
        ],
    );
    assert_eq!(v["goal"], "cross");
    assert_eq!(v["positions"].as_u64().unwrap().to_string(), n);
    let d = distribution(&v);
    let chi = d.chi_square(&exact);
    assert!(
        chi.statistic < critical(chi.degrees),
        "chi-square {chi:?} against {exact:?}: {v}"
    );
}

#[test]
fn stats_read_a_file_of_scrambles_and_count_each_step() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scrambles.txt");
    // Three scrambles, a comment and a blank line. `R` moves the DR cross edge (one
    // move back); `R L'` moves two cross edges, and `U R2 U'` takes DR to UB (two
    // moves each).
    std::fs::write(&file, "# crosses\nU R2 U'\n\nR\nR L'\n// end\n").unwrap();
    let v = json(
        dir.path(),
        &[
            "stats",
            "puzzles/3x3x3_wca.def",
            "--goal",
            "cross",
            file.to_str().unwrap(),
            "--threads",
            "2",
        ],
    );
    assert_eq!(v["sampling"], "file");
    let d = distribution(&v);
    assert_eq!((d.count(0), d.count(1), d.count(2)), (0, 1, 2), "{v}");
    assert_eq!(d.solved(), 3);
}

#[test]
fn every_shipped_goal_solves_a_scramble_and_the_solution_reaches_it() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("puzzles/3x3x3_wca.def", "cross", 7),
        ("puzzles/3x3x3_wca.def", "xcross", 9),
        ("puzzles/3x3x3_wca.def", "xxcross", 11),
        ("puzzles/3x3x3_wca.def", "eo", 5),
        ("puzzles/3x3x3_wca.def", "eocross", 9),
        ("puzzles/3x3x3_wca.def", "f2l", 11),
        ("puzzles/3x3x3_wca.def", "oll", 11),
        ("puzzles/3x3x3_wca.def", "pll", 11),
    ];
    let alg = "R U F' L2 D B' R2 U' F D2 L";
    for (def, goal, length) in cases {
        let v = json(
            dir.path(),
            &["solve", def, "--goal", goal, "--alg", alg, "--count", "1"],
        );
        assert_eq!(v["status"], "solved", "{goal}");
        assert_eq!(v["length"], length, "{goal}: {v}");
    }
    for def in ["puzzles/2x2x2.def", "puzzles/pyraminx.def"] {
        let v = json(
            dir.path(),
            &[
                "solve",
                def,
                "--goal",
                "first-layer",
                "--alg",
                "R U' R'",
                "--count",
                "1",
            ],
        );
        assert_eq!(v["status"], "solved", "{def}");
    }
}

#[test]
fn an_unknown_goal_names_the_shipped_ones() {
    let out = crate::common::ksolve()
        .current_dir(root())
        .args([
            "solve",
            "puzzles/3x3x3_wca.def",
            "--goal",
            "crosss",
            "--alg",
            "R",
            "--no-cache",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(
            "cross, cross-B, cross-F, cross-L, cross-R, cross-U, dr, eo, eocross, f2l, oll, pll"
        ),
        "{err}"
    );
}

/// The solutions `ksolve solve ARGS -q` prints, and its exit code.
fn solutions(args: &[&str]) -> (Option<i32>, Vec<String>) {
    let out = crate::common::ksolve()
        .current_dir(root())
        .arg("solve")
        .args(args)
        .args(["-q", "--no-cache"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines = text
        .lines()
        .filter(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect();
    (out.status.code(), lines)
}

#[test]
fn ignore_frees_pieces_as_a_goal_would() {
    // The 2x2x2's U layer ignored is its first-layer goal.
    for alg in ["R U R' U'", "F R U2 R' F'", "R2 U F' R U2"] {
        let ignored = solutions(&[
            "puzzles/2x2x2.def",
            "--alg",
            alg,
            "--ignore",
            "CORNERS:1,2,3,4",
        ]);
        let goal = solutions(&["puzzles/2x2x2.def", "--alg", alg, "--goal", "first-layer"]);
        assert_eq!(ignored.0, Some(0));
        assert!(!ignored.1.is_empty());
        assert_eq!(ignored, goal, "{alg}");
    }
    // Edge orientation and the corners ignored: every solution places the edges,
    // turned either way.
    let p = load_puzzle(root().join("puzzles/3x3x3.def")).unwrap().0;
    let alg = "R U R' U' R' F R F'";
    let (code, found) = solutions(&[
        "puzzles/3x3x3.def",
        "--alg",
        alg,
        "--ignore",
        "EDGES:orientation",
        "--ignore",
        "CORNERS",
        "--slack",
        "1",
    ]);
    assert_eq!(code, Some(0));
    assert!(!found.is_empty());
    let seq = |a: &str| -> Vec<MoveId> {
        a.split_whitespace()
            .map(|n| p.move_by_name(n).unwrap())
            .collect()
    };
    let start = p.apply_sequence(&p.solved, &seq(alg));
    for s in &found {
        let end = p.apply_sequence(&start, &seq(s));
        assert_eq!(end.sets[1].perm, p.solved.sets[1].perm, "{s}");
    }
}

#[test]
fn ignore_is_refused_where_it_cannot_hold() {
    for (def, spec, says) in [
        ("puzzles/3x3x3.def", "FOO", "no set `FOO`"),
        ("puzzles/3x3x3.def", "EDGES:13", "positions from 1 to 12"),
        (
            "puzzles/3x3x3_wca.def",
            "CENTRES:orientation",
            "no orientation",
        ),
        ("puzzles/3x3x3_bandaged.def", "CORNERS", "blocks"),
        ("puzzles/15puzzle.def", "Cells", "guarded moves"),
    ] {
        let out = crate::common::ksolve()
            .current_dir(root())
            .args(["solve", def, "--ignore", spec, "--no-cache"])
            .args(match def.contains("puzzle") {
                // A sliding puzzle's move from solved: the blank goes up.
                true => ["--alg", "U16"],
                false => ["--alg", "R"],
            })
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{def} {spec}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{def} {spec}: {err}");
    }
}

#[test]
fn a_distance_table_is_never_rebuilt_for_a_step() {
    // The table is the whole puzzle's: a goal is searched beside it, and the file is
    // left as it was (a step puzzle would not match it and would replace it).
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("222.ktb");
    let db_text = db.to_str().unwrap();
    crate::common::stdout_of(
        &["god", "puzzles/2x2x2.def", "--save", db_text, "-q"].map(std::ffi::OsStr::new),
    );
    let before = std::fs::read(&db).unwrap();
    let (code, found) = solutions(&[
        "puzzles/2x2x2.def",
        "--goal",
        "first-layer",
        "--alg",
        "R U R'",
        "--database",
        db_text,
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(found, ["R U' R'"]);
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// Whether `s` is in domino reduction on U/D: every piece oriented (this definition
/// orients corners and edges by U/D, and edges by F/B) and the E-slice edges (labels
/// 8 to 11) in the E slice.
fn in_dr(s: &State) -> bool {
    let (corners, edges) = (&s.sets[0], &s.sets[1]);
    corners.ori.iter().all(|&o| o == 0)
        && edges.ori.iter().all(|&o| o == 0)
        && (8..12).all(|i| (8..12).contains(&edges.perm[i]))
}

/// The fewest face turns that take `start` into domino reduction, by brute force.
fn dr_depth(p: &Puzzle, start: &State, faces: &[MoveId], limit: u32) -> Option<u32> {
    fn search(p: &Puzzle, s: &State, faces: &[MoveId], depth: u32) -> bool {
        if depth == 0 {
            return in_dr(s);
        }
        faces
            .iter()
            .any(|&m| search(p, &s.then(&p.mv(m).effect, &p.sets), faces, depth - 1))
    }
    (0..=limit).find(|&d| search(p, start, faces, d))
}

#[test]
fn domino_reduction_is_a_goal_of_classes() {
    let p = load_puzzle(root().join("puzzles/3x3x3_wca.def")).unwrap().0;
    assert_eq!(p.sets[0].name, "CORNERS");
    let faces: Vec<MoveId> = (0..p.moves.len())
        .map(|m| MoveId(m as u16))
        .filter(|&m| "UDRLFB".contains(p.base_moves[p.mv(m).base].name.as_str()))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let seq = |a: &str| -> Vec<MoveId> {
        a.split_whitespace()
            .map(|n| p.move_by_name(n).unwrap())
            .collect()
    };
    for alg in [
        "R2 U F2 D' L2",
        "R",
        "F U",
        "R F U2 L",
        "F' R U' B",
        "L D' F2 R B'",
    ] {
        let v = json(
            dir.path(),
            &[
                "solve",
                "puzzles/3x3x3_wca.def",
                "--goal",
                "dr",
                "--alg",
                alg,
                "--slack",
                "1",
            ],
        );
        let start = p.apply_sequence(&p.solved, &seq(alg));
        let want = dr_depth(&p, &start, &faces, 4);
        let length = v["length"].as_u64().map(|l| l as u32);
        match want {
            Some(d) => assert_eq!(length, Some(d), "{alg}"),
            None => assert!(length.is_some_and(|l| l > 4), "{alg}: {v}"),
        }
        for s in v["solutions"].as_array().unwrap() {
            let end = p.apply_sequence(&start, &seq(s.as_str().unwrap()));
            assert!(in_dr(&end), "{alg}: {s} does not reach DR");
        }
    }
    // Only a step can search classes: with --post-auf the goal is four positions.
    let out = crate::common::ksolve()
        .current_dir(root())
        .args([
            "solve",
            "puzzles/3x3x3_wca.def",
            "--goal",
            "dr",
            "--post-auf",
            "U",
            "--alg",
            "R",
            "--no-cache",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("goal with classes"));
}

#[test]
fn stats_shards_merge_to_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let file = dir.path().join("s.txt");
    std::fs::write(&file, "R\nR L'\nU R2 U'\nF D\nB2 R\nL U' F\nD2 F'\n").unwrap();
    let tables_text = tables.to_str().unwrap();
    let file_text = file.to_str().unwrap();
    for source in [vec![file_text], vec!["--random", "500", "--seed", "8"]] {
        let mut common: Vec<&str> = vec!["stats", "puzzles/3x3x3_wca.def", "--goal", "cross"];
        common.extend(&source);
        common.extend(["--tables", tables_text, "-q"]);
        let out = dir.path().join(format!("out-{}", source.len()));
        let out_text = out.to_str().unwrap();
        for k in ["0/3", "1/3", "2/3"] {
            let args: Vec<&str> = [&common[..], &["--shard", k, "--out", out_text]].concat();
            crate::common::stdout_of(&args.iter().map(std::ffi::OsStr::new).collect::<Vec<_>>());
        }
        let whole: Vec<&str> = [&common[..], &["--json"]].concat();
        let one: Value = serde_json::from_str(&crate::common::stdout_of(
            &whole.iter().map(std::ffi::OsStr::new).collect::<Vec<_>>(),
        ))
        .unwrap();
        let merged: Value = serde_json::from_str(&crate::common::stdout_of(
            &["merge", out_text, "--json"].map(std::ffi::OsStr::new),
        ))
        .unwrap();
        assert_eq!(merged["lengths"], one["lengths"], "{source:?}");
        assert_eq!(merged["positions"], one["positions"]);
        // A shard gone is named, with exit code 1.
        std::fs::remove_file(out.join("shard-1-of-3.jsonl")).unwrap();
        let gone = crate::common::ksolve()
            .args(["merge", out_text])
            .output()
            .unwrap();
        assert_eq!(gone.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&gone.stderr).contains("shard-1-of-3.jsonl"));
    }
}
