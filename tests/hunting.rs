//! Algorithm hunting as cubers do it: `--post-auf` (a case solved up to a last turn of
//! the top face, each algorithm once with the turn it needs), each solution's length in
//! every metric, and `--sort-by`.
//!
//! `--post-auf` is checked against the form a user writes without it: one `GoalAlg`
//! block per turn of the face, whose every solution the search prints, including the
//! ones that only add that turn to a shorter one.

use ksolve::def::load_puzzle;
use ksolve::puzzle::{MoveId, Puzzle};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `ksolve solve` in the repository root with `--json`, tables in `tables`; the
/// one JSON object it prints.
fn solve_json(tables: &Path, args: &[&str]) -> Value {
    let mut all: Vec<&std::ffi::OsStr> = vec!["solve".as_ref()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    all.extend(["--json", "-q", "--tables"].map(std::ffi::OsStr::new));
    all.push(tables.as_os_str());
    serde_json::from_str(&crate::common::stdout_of(&all)).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn seq(p: &Puzzle, alg: &str) -> Vec<MoveId> {
    alg.split_whitespace()
        .map(|n| p.move_by_name(n).unwrap())
        .collect()
}

/// Whether the first of `moves` that does not commute with `face` is a turn of it.
fn turn_first(p: &Puzzle, moves: impl Iterator<Item = MoveId>, face: &str) -> bool {
    let face = p.base_by_name(face).unwrap();
    for m in moves {
        let b = p.mv(m).base;
        if b == face {
            return true;
        }
        if !p.commute(b, face) {
            return false;
        }
    }
    false
}

/// Whether `alg` ends with a turn of `face` followed only by moves that commute with it.
fn ends_with_turn_of(p: &Puzzle, alg: &str, face: &str) -> bool {
    turn_first(p, seq(p, alg).into_iter().rev(), face)
}

/// `--post-auf U` against four `GoalAlg` blocks: the same algorithms, each once, none
/// that merely adds a U turn to another, and each with the turn that solves the cube.
fn post_auf_matches_four_goals(def: &str, case: &str, moves: &str, slack: &str) {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let p = load_puzzle(root().join(def)).unwrap().0;
    let auf = solve_json(
        &tables,
        &[
            def,
            "--alg",
            case,
            "--moves",
            moves,
            "--post-auf",
            "U",
            "--slack",
            slack,
        ],
    );
    let file = dir.path().join("goals.txt");
    let goals: String = ["", "U", "U2", "U'"]
        .iter()
        .map(|t| format!("GoalAlg AUF {t}\n{t}\nEnd\n"))
        .collect();
    std::fs::write(&file, format!("{goals}ScrambleAlg case\n{case}\nEnd\n")).unwrap();
    let four = solve_json(
        &tables,
        &[
            def,
            file.to_str().unwrap(),
            "--moves",
            moves,
            "--slack",
            slack,
        ],
    );
    let found = strings(&auf["solutions"]);
    let expected: Vec<String> = strings(&four["solutions"])
        .into_iter()
        .filter(|s| !ends_with_turn_of(&p, s, "U"))
        .collect();
    assert!(!found.is_empty());
    assert_eq!(found, expected, "{case}");
    // Each algorithm once, and the four-goal form had the repeats `--post-auf` leaves out.
    let mut distinct = found.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), found.len());
    assert!(strings(&four["solutions"]).len() > found.len());
    assert_eq!(auf["length"], four["length"]);
    // The turn each needs solves the cube after it, and no other turn does.
    let start = p.apply_sequence(&p.solved, &seq(&p, case));
    let needed = strings(&auf["post_auf"]);
    assert_eq!(needed.len(), found.len());
    for (alg, turn) in found.iter().zip(&needed) {
        let end = p.apply_sequence(&start, &seq(&p, &format!("{alg} {turn}")));
        assert!(p.is_solved(&end, &[]), "{alg} then {turn:?}");
    }
    assert!(needed.iter().any(|t| t.is_empty()) && needed.iter().any(|t| !t.is_empty()));
}

#[test]
fn post_auf_prints_each_algorithm_once_with_its_turn() {
    // The Sune on the 2x2x2, in <R, U>.
    post_auf_matches_four_goals("puzzles/2x2x2.def", "R U R' U R U2 R'", "R,U", "2");
}

#[test]
fn post_auf_on_the_t_perm() {
    // The T-perm on the WCA-notation cube, in <R, U, F> with two moves of slack: tens of
    // seconds, so only with KSOLVE_SLOW_TESTS=1.
    if std::env::var_os("KSOLVE_SLOW_TESTS").is_none() {
        return;
    }
    post_auf_matches_four_goals(
        "puzzles/3x3x3_wca.def",
        "R U R' U' R' F R2 U' R' U' R U R' F'",
        "R,U,F",
        "2",
    );
}

#[test]
fn every_solution_has_its_length_in_every_metric_and_sorts_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let args = [
        "puzzles/3x3x3_wca.def",
        "--alg",
        "M2 U M2 U2 M2 U M2",
        "--moves",
        "U,M",
        "--slack",
        "2",
    ];
    let plain = solve_json(&tables, &args);
    let sorted = solve_json(&tables, &[&args[..], &["--sort-by", "qtm"]].concat());
    let lengths = |v: &Value, metric: &str| -> Vec<u64> {
        v["lengths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l[metric].as_u64().unwrap())
            .collect()
    };
    let n = plain["solutions"].as_array().unwrap().len();
    assert_eq!(plain["solution_moves"].as_array().unwrap().len(), n);
    // In the search's order the solutions go by moves; slices count 1 in STM and ETM.
    assert_eq!(lengths(&plain, "stm"), lengths(&plain, "etm"));
    let stm = lengths(&plain, "stm");
    assert!(stm.windows(2).all(|w| w[0] <= w[1]));
    // The H-perm itself: 7 moves, 11 in HTM, 20 in QTM.
    assert_eq!(plain["solutions"][0], "M2 U M2 U2 M2 U M2");
    assert_eq!(
        (lengths(&plain, "htm")[0], lengths(&plain, "qtm")[0]),
        (11, 20)
    );
    // Sorted by QTM: the same solutions, ordered by it, ties in the search's order.
    let qtm = lengths(&sorted, "qtm");
    assert!(qtm.windows(2).all(|w| w[0] <= w[1]), "{qtm:?}");
    let mut a = strings(&plain["solutions"]);
    let mut b = strings(&sorted["solutions"]);
    assert_ne!(a, b, "a QTM order that differs from the move count's");
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn text_gives_the_lengths_and_the_turn() {
    let out = crate::common::ksolve()
        .current_dir(root())
        .args([
            "solve",
            "puzzles/2x2x2.def",
            "--alg",
            "R U R' U R U2 R'",
            "--moves",
            "R,U",
            "--post-auf",
            "U",
            "--metrics",
            "--count",
            "1",
            "-q",
            "--no-cache",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  R U2 R' U' R U' R'  (no AUF; 7 htm, 8 qtm, 7 stm, 7 etm)\n"),
        "{text}"
    );
}

/// `--pre-auf U` against the case solved from each turn of U by hand: the same
/// algorithms (none starting with a U turn, each once), each with its turn.
fn pre_auf_matches_the_variants(def: &str, case: &str, moves: &str, slack: u32) {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let p = load_puzzle(root().join(def)).unwrap().0;
    let slack_text = slack.to_string();
    let pre = solve_json(
        &tables,
        &[
            def,
            "--alg",
            case,
            "--moves",
            moves,
            "--pre-auf",
            "U",
            "--slack",
            &slack_text,
        ],
    );
    let mut expected: Vec<(u64, usize, String)> = Vec::new();
    let turns = ["", "U", "U2", "U'"];
    for (j, turn) in turns.iter().enumerate() {
        let variant = format!("{case} {turn}");
        let v = solve_json(
            &tables,
            &[
                def,
                "--alg",
                &variant,
                "--moves",
                moves,
                "--slack",
                &slack_text,
            ],
        );
        let lengths = v["solution_moves"].as_array().unwrap();
        for (s, n) in strings(&v["solutions"]).into_iter().zip(lengths) {
            let first_u = turn_first(&p, seq(&p, &s).into_iter(), "U");
            if !first_u {
                expected.push((n.as_u64().unwrap(), j, s));
            }
        }
    }
    let best = expected.iter().map(|e| e.0).min().unwrap();
    expected.retain(|e| e.0 <= best + slack as u64);
    expected.sort_by_key(|e| (e.0, e.1));
    let mut seen = std::collections::HashSet::new();
    expected.retain(|e| seen.insert(e.2.clone()));
    let found = strings(&pre["solutions"]);
    let want: Vec<String> = expected.iter().map(|e| e.2.clone()).collect();
    assert_eq!(found, want, "{case}");
    let turns_found = strings(&pre["pre_auf"]);
    let turns_want: Vec<String> = expected.iter().map(|e| turns[e.1].to_string()).collect();
    assert_eq!(turns_found, turns_want);
    assert!(turns_found.iter().any(|t| !t.is_empty()));
    assert_eq!(pre["length"], best);
}

#[test]
fn pre_auf_solves_the_case_from_every_turn_of_u() {
    pre_auf_matches_the_variants("puzzles/2x2x2.def", "R U R' U R U2 R'", "R,U", 1);
    pre_auf_matches_the_variants("puzzles/2x2x2.def", "R U2 R' U' R U' R'", "R,U,F", 2);
}

#[test]
fn stm_searches_the_slices_too() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let h = "M2 U M2 U2 M2 U M2";
    // Face turns only (the WCA cube's SearchMoves): ten moves.
    let faces = solve_json(
        &tables,
        &["puzzles/3x3x3_wca.def", "--alg", h, "--count", "1"],
    );
    assert_eq!(faces["length"], 10);
    assert_eq!(faces["metric"], "htm");
    // In STM the slices are searched and count 1: the H-perm as typed, seven turns.
    let stm = solve_json(
        &tables,
        &["puzzles/3x3x3_wca.def", "--alg", h, "--stm", "--count", "1"],
    );
    assert_eq!(stm["length"], 7);
    assert_eq!(stm["metric"], "stm");
    assert_eq!(stm["lengths"][0]["stm"], 7);
    // Block Buster's cube names its slices otherwise; they are found all the same, and
    // its rotations are left out.
    let bb = solve_json(
        &tables,
        &[
            "puzzles/3x3x3_slices.def",
            "--alg",
            "V2 U V2 U2 V2 U V2",
            "--stm",
            "--count",
            "1",
        ],
    );
    assert_eq!(bb["length"], 7);
    // A rotation cannot be searched in STM.
    let out = crate::common::ksolve()
        .current_dir(root())
        .args([
            "solve",
            "puzzles/3x3x3_wca.def",
            "--alg",
            "R",
            "--stm",
            "--moves",
            "R,y",
            "--no-cache",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`y` turns the whole puzzle"));
}
