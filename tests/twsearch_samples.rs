//! twsearch's sample files (`.tws` definitions, `.scr` scramble files) read as they do
//! in twsearch: every definition passes `ksolve check`, alone and with each scramble
//! file made for it, and a small `.tws` using twsearch's constructs solves optimally.
//!
//! The samples are read from `../shared/twsearch-samples` beside the checkout, else
//! from `/work/shared/twsearch-samples`; the tests that need them are skipped when
//! neither exists. Solving the sample 2x2x2 (88 million positions, no corner fixed)
//! builds a 44 MB table: it runs when the binary under test is named (`.ci/run` runs
//! `KSOLVE_TEST_BIN=target/debug/ksolve cargo test --test integration twsearch_samples::`)
//! or with `KSOLVE_SLOW_TESTS=1`.

use std::path::{Path, PathBuf};

fn samples() -> Option<PathBuf> {
    let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/twsearch-samples");
    [beside, PathBuf::from("/work/shared/twsearch-samples")]
        .into_iter()
        .find(|d| d.is_dir())
}

/// Which scramble files go with which definition (from the samples' SOURCE.txt).
const PAIRS: &[(&str, &[&str])] = &[
    (
        "3x3x3.tws",
        &[
            "superflip.scr",
            "tperm.scr",
            "cornertwist2.scr",
            "m14-333.scr",
            "rand333-5.scr",
        ],
    ),
    ("4x4x4.tws", &["4x4x4dedge.scr", "flip.scr"]),
    ("2x2x2.tws", &["rand222-100.scr"]),
];

fn check(def: &Path, scr: Option<&Path>) {
    let mut cmd = crate::common::ksolve();
    cmd.arg("check").arg(def);
    if let Some(s) = scr {
        cmd.arg(s);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "ksolve check {} {}:\n{}",
        def.display(),
        scr.map(|s| s.display().to_string()).unwrap_or_default(),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn files(dir: &Path, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(ext))
        .collect();
    out.sort();
    out
}

#[test]
fn every_tws_sample_passes_check_with_its_scramble_files() {
    let Some(dir) = samples() else {
        eprintln!("skipped: no twsearch-samples folder");
        return;
    };
    let defs = files(&dir, ".tws");
    assert!(defs.len() >= 7, "{defs:?}");
    for def in &defs {
        check(&dir.join(def), None);
    }
    // Every scramble file is paired with its definition, so none is left unchecked.
    let mut paired: Vec<String> = PAIRS
        .iter()
        .flat_map(|(_, s)| s.iter().map(|s| s.to_string()))
        .collect();
    paired.sort();
    assert_eq!(paired, files(&dir, ".scr"));
    for (def, scrs) in PAIRS {
        for scr in *scrs {
            check(&dir.join(def), Some(&dir.join(scr)));
        }
    }
}

/// Solves `scr` (text) against `def` and returns the JSON lines.
fn solve(def: &Path, scr: &str) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("s.scr");
    std::fs::write(&s, scr).unwrap();
    let out = crate::common::ksolve()
        .arg(def)
        .arg(&s)
        .args(["--json", "--no-cache", "-q"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The samples folder, for a test that builds the 88 M-entry 2x2x2 table: `None` (and
/// a word why) without the folder or in a debug build with no binary named.
fn large_samples() -> Option<PathBuf> {
    let Some(dir) = samples() else {
        eprintln!("skipped: no twsearch-samples folder");
        return None;
    };
    if !crate::common::large_tables() {
        eprintln!("skipped in debug builds: set KSOLVE_SLOW_TESTS=1");
        return None;
    }
    Some(dir)
}

#[test]
fn sample_2x2x2_tws_solves_an_alg_and_a_zero_based_state() {
    let Some(dir) = large_samples() else {
        return;
    };
    // The second scramble is the sample's `U` in twsearch's 0-based `ScrambleState`.
    let got = solve(
        &dir.join("2x2x2.tws"),
        "ScrambleAlg t\nR U F'\nEnd\nScrambleState u\nCORNER\n2 1 5 3 4 6 0 7\nEnd\n",
    );
    assert_eq!(got[0]["status"], "solved");
    assert_eq!(got[0]["length"], 3);
    assert_eq!(got[1]["length"], 1);
    assert_eq!(got[1]["solutions"][0], "U'");
}

/// A 2x2x2 with one corner fixed, written with twsearch's constructs: a 0-based
/// `StartState` and `MoveTransformation`, a digit-led name, an alias and a sequence.
const CUBE_TWS: &str = "\
Name Cube2
Set CORNERS 7 3
StartState
CORNERS
0 1 2 3 4 5 6
End
Move 1U
CORNERS
4 1 2 3 5 6 7
End
MoveTransformation R
CORNERS
0 2 5 3 1 4 6
0 2 1 0 1 2 0
End
Move F
CORNERS
1 2 4 7 5 3 6
0 0 2 1 0 1 2
End
MoveAlias U 1U
MoveSequence Sexy R U R' U'
";

#[test]
fn twsearch_constructs_solve() {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("cube.tws");
    std::fs::write(&def, CUBE_TWS).unwrap();
    let got = solve(
        &def,
        "ScrambleAlg a\nSexy\nEnd\nScrambleAlg b\nU2 R\nEnd\nScrambleState c\nCORNERS\n1 2 3 0 4 5 6\nEnd\n",
    );
    assert_eq!(got.len(), 3);
    // The sequence is a move of its own: one move undoes it.
    assert_eq!(got[0]["length"], 1);
    assert_eq!(got[0]["solutions"][0], "Sexy'");
    // Solutions use the moves' own names, not the alias.
    assert_eq!(got[1]["length"], 2);
    assert_eq!(got[1]["solutions"][0], "R' 1U2");
    // `ScrambleState` numbers pieces from 0: this is one turn of the top.
    assert_eq!(got[2]["length"], 1);
}

/// The six-face 2x2x2's whole-puzzle table (88 M entries) is replaced by the same
/// abstraction reduced by symmetry (its corners' arrangements by 16 symmetries, times
/// their twists): every position of `rand222-100.scr` gets the same optimal solutions,
/// in the same order, as with the whole table (`--no-symmetry` builds it).
#[test]
fn the_2x2x2_reduced_table_answers_as_the_whole_table() {
    let Some(dir) = large_samples() else {
        return;
    };
    let run = |extra: &[&str]| {
        let tables = tempfile::tempdir().unwrap();
        let (code, out, err) = crate::common::output(
            crate::common::ksolve()
                .arg("solve")
                .arg(dir.join("2x2x2.tws"))
                .arg(dir.join("rand222-100.scr"))
                .arg("--tables")
                .arg(tables.path())
                .arg("-v")
                .args(extra),
        );
        assert_eq!(code, 0, "{err}");
        (out, err)
    };
    let (reduced, plan) = run(&[]);
    assert!(
        plan.contains("reduced table CORNER.po: 88179840 positions by 16 symmetries"),
        "{plan}"
    );
    let (whole, plan) = run(&["--no-symmetry"]);
    assert!(plan.contains("table CORNER.po: 88179840 entries"), "{plan}");
    assert_eq!(reduced.lines().count(), whole.lines().count());
    assert_eq!(reduced, whole);
}
