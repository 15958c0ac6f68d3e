//! The symmetry group from the outside: `ksolve check` reports its size in text and
//! JSON, `--no-symmetry` turns it off, and `ksolve solve` accepts `--no-symmetry`.

use predicates::prelude::*;
use std::path::{Path, PathBuf};

fn shipped(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join(name)
}

fn check(def: &str, extra: &[&str]) -> String {
    let out = crate::common::ksolve()
        .arg("check")
        .arg(shipped("puzzles", def))
        .args(extra)
        .assert()
        .success()
        .stderr("");
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout.lines().last().unwrap()).unwrap()
}

#[test]
fn check_reports_the_symmetries() {
    let text = check("3x3x3.def", &[]);
    assert!(
        text.contains("Symmetries: 48 (24 rotations, mirrors included)\n"),
        "{text}"
    );
    let text = check("2x2x2_directed.def", &[]);
    assert!(text.contains("Symmetries: 3 (rotations only)\n"), "{text}");
    let v = json(&check("megaminx.def", &["--json"]));
    assert_eq!(v["symmetries"], 120);
    assert_eq!(v["mirror_symmetries"], 60);
    assert_eq!(v["symmetry"], "on");
}

#[test]
fn no_symmetry_reports_the_group_off() {
    let out = check("3x3x3.def", &["--no-symmetry", "--json"]);
    assert!(out.contains("Symmetries: off (--no-symmetry)\n"), "{out}");
    let v = json(&out);
    assert_eq!(v["symmetries"], 1);
    assert_eq!(v["mirror_symmetries"], 0);
    assert_eq!(v["symmetry"], "off");
}

#[test]
fn solve_accepts_no_symmetry() {
    let dir = tempfile::tempdir().unwrap();
    let scr = dir.path().join("s.txt");
    std::fs::write(&scr, "ScrambleAlg A\nR U F\nEnd\n").unwrap();
    crate::common::ksolve()
        .arg("solve")
        .arg(shipped("puzzles", "2x2x2.def"))
        .arg(&scr)
        .args(["--no-symmetry", "--no-cache", "--quiet"])
        .assert()
        .success()
        .stdout(
            predicate::str::starts_with("Solving A\n")
                .and(predicate::str::contains("\n  F' U' R'\n")),
        );
}
