//! `ksolve god` and ksolve+'s `DEF !` / `DEF !q` from the outside: the table, the
//! antipodes and their format, JSON on the last line, the memory refusal, and saving
//! the distance table.

use crate::common::ksolve;
use predicates::prelude::*;
use std::path::PathBuf;

fn puzzle(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(name)
}

fn stdout(args: &[&str]) -> String {
    let out = ksolve().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn prints_ksolve_plus_table_and_antipodes() {
    let def = puzzle("2x2x2.def");
    let text = stdout(&[def.to_str().unwrap(), "!"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Moves\tPositions");
    let rows = [
        1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
    ];
    for (d, n) in rows.iter().enumerate() {
        assert_eq!(lines[1 + d], format!("{d}\t{n}"));
    }
    assert_eq!(lines[13], "Total positions: 3674160");
    assert_eq!(lines[14], "");
    assert_eq!(lines[15], "Printing 5 antipodes:");
    assert_eq!(lines[16], "");
    // Each antipode: its solution line, the position set by set, a blank line.
    let heads: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("Antipode solved by "))
        .collect();
    assert_eq!(heads.len(), 5);
    for h in heads {
        assert!(h.ends_with(':'));
        assert_eq!(h.trim_end_matches(':').split(' ').count() - 3, 11, "{h}");
    }
    assert_eq!(lines[17 + 1], "CORNERS");
    // The subcommand form prints the same.
    assert_eq!(stdout(&["god", def.to_str().unwrap()]), text);
}

#[test]
fn quarter_turn_metric_and_antipode_count() {
    let def = puzzle("2x2x2.def");
    let text = stdout(&[def.to_str().unwrap(), "!q", "--antipodes", "2"]);
    assert!(text.contains("\n14\t276\nTotal positions: 3674160\n"));
    assert!(text.contains("Printing 2 antipodes:"));
    assert_eq!(text.matches("Antipode solved by").count(), 2);
}

#[test]
fn json_on_the_last_line() {
    let def = puzzle("2x2x2_directed.def");
    let text = stdout(&["god", def.to_str().unwrap(), "--json", "--antipodes", "3"]);
    let last = text.lines().last().unwrap();
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(v["metric"], "htm");
    assert_eq!(v["total"], 3_674_160);
    let counts = v["counts"].as_array().unwrap();
    assert_eq!(counts.len(), 20, "clockwise turns only: 19 deep");
    assert_eq!(counts[19], 1192);
    let antipodes = v["antipodes"].as_array().unwrap();
    assert_eq!(antipodes.len(), 3);
    for a in antipodes {
        assert_eq!(a["solution"].as_str().unwrap().split(' ').count(), 19);
        assert_eq!(a["state"]["CORNERS"]["perm"].as_array().unwrap().len(), 7);
        assert_eq!(a["state"]["CORNERS"]["ori"].as_array().unwrap().len(), 7);
    }
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn refuses_tables_over_the_memory_budget() {
    let def = puzzle("2x2x2.def");
    ksolve()
        .args([
            "god",
            def.to_str().unwrap(),
            "--memory",
            "64K",
            "--method",
            "indexed",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--memory"));
    ksolve()
        .args(["god", def.to_str().unwrap(), "--memory", "lots"])
        .assert()
        .code(2);
}

#[test]
fn saves_the_distance_table() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cube2.dist");
    let def = puzzle("2x2x2.def");
    ksolve()
        .args([
            "god",
            def.to_str().unwrap(),
            "--save",
            file.to_str().unwrap(),
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "saved the distances of 3674160 positions",
        ));
    // 4-bit distances for 3,674,160 positions, plus the headers.
    let len = std::fs::metadata(&file).unwrap().len();
    assert_eq!(len, 64 + 64 + 3_674_160 / 2);
}

#[test]
fn missing_definition_is_an_error() {
    ksolve()
        .args(["no-such-file.def", "!"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("error:"));
}

/// `MoveCosts` weights do not change God's algorithm, which counts moves; a warning says
/// so, and the table is the unweighted one.
#[test]
fn weights_are_ignored_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("w.def");
    let text = std::fs::read_to_string(puzzle("2x2x2.def")).unwrap();
    std::fs::write(&def, format!("{text}\nMoveCosts\nU* 0\nR2 3\nEnd\n")).unwrap();
    let out = ksolve()
        .args(["god", def.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("MoveCosts weights are ignored here"), "{err}");
    let weighted = String::from_utf8(out.stdout).unwrap();
    let plain = stdout(&["god", puzzle("2x2x2.def").to_str().unwrap()]);
    assert_eq!(weighted, plain);
}
