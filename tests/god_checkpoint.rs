//! `ksolve god --checkpoint DIR [--resume]`: a run stopped after some layers and resumed
//! prints the same table and saves the same distance file as an uninterrupted run, and a
//! checkpoint made for another metric or definition is refused.

use crate::common::ksolve;
use std::path::{Path, PathBuf};

fn puzzle(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(name)
        .display()
        .to_string()
}

/// Runs ksolve and returns (exit code, stdout, stderr).
fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (i32, String, String) {
    crate::common::output(ksolve().args(args))
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn stopped_and_resumed_run_matches_an_uninterrupted_one() {
    let tmp = tempfile::tempdir().unwrap();
    let def = puzzle("2x2x2.def");
    let ck = s(&tmp.path().join("ck"));
    let (whole, resumed) = (
        tmp.path().join("whole.dist"),
        tmp.path().join("resumed.dist"),
    );
    for metric in [None, Some("--qtm")] {
        let mut base = vec!["god", def.as_str(), "-q"];
        base.extend(metric);
        let with = |extra: &[&str]| -> Vec<String> {
            base.iter().chain(extra).map(|s| s.to_string()).collect()
        };
        let (code, full, err) = run(&with(&["--save", &s(&whole)]));
        assert_eq!(code, 0, "{err}");
        // A fresh run with --checkpoint starts over, whatever the folder held.
        // --save keeps exact distances (a wider table), so the stopped run has it too.
        let (code, part, err) = run(&with(&[
            "--checkpoint",
            &ck,
            "--stop-after-layer",
            "4",
            "--save",
            &s(&resumed),
        ]));
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("stopped after layer 4"), "{err}");
        assert_eq!(part.lines().count(), 6, "{part}");
        assert!(full.starts_with(&part));
        let (code, again, err) = run(&with(&[
            "--checkpoint",
            &ck,
            "--resume",
            "--save",
            &s(&resumed),
        ]));
        assert_eq!(code, 0, "{err}");
        assert_eq!(again, full);
        assert_eq!(
            std::fs::read(&whole).unwrap(),
            std::fs::read(&resumed).unwrap()
        );
    }
}

#[test]
fn resume_after_the_last_layer_prints_the_same_antipodes() {
    let tmp = tempfile::tempdir().unwrap();
    let def = puzzle("2x2x2.def");
    let ck = s(&tmp.path().join("ck"));
    let (_, full, _) = run(&["god", &def, "-q"]);
    let (code, _, err) = run(&[
        "god",
        &def,
        "-q",
        "--checkpoint",
        &ck,
        "--stop-after-layer",
        "11",
    ]);
    assert_eq!(code, 1, "{err}");
    let (code, again, err) = run(&["god", &def, "-q", "--checkpoint", &ck, "--resume"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, full);
}

#[test]
fn a_checkpoint_of_another_metric_or_definition_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let ck = s(&tmp.path().join("ck"));
    let cube = puzzle("2x2x2.def");
    let (code, _, err) = run(&[
        "god",
        &cube,
        "-q",
        "--checkpoint",
        &ck,
        "--stop-after-layer",
        "3",
    ]);
    assert_eq!(code, 1, "{err}");
    for args in [
        vec!["god", cube.as_str(), "-q", "--qtm"],
        vec![
            "god",
            &puzzle("2x2x2_directed.def"),
            "-q",
            "--method",
            "indexed",
        ],
    ] {
        let (code, out, err) = run(&[args, vec!["--checkpoint", &ck, "--resume"]].concat());
        assert_eq!(code, 2, "{out}{err}");
        assert!(
            err.contains("checkpoint of another definition, metric"),
            "{err}"
        );
        assert!(out.is_empty(), "{out}");
    }
}

#[test]
fn the_hashed_search_refuses_checkpoints() {
    let tmp = tempfile::tempdir().unwrap();
    let ck = s(&tmp.path().join("ck"));
    let (code, _, err) = run(&[
        "god",
        &puzzle("2x2x2.def"),
        "-q",
        "--method",
        "hashed",
        "--checkpoint",
        &ck,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("checkpoints need the indexed search"), "{err}");
}

#[test]
fn resume_without_a_checkpoint_starts_from_the_beginning() {
    let tmp = tempfile::tempdir().unwrap();
    let ck = s(&tmp.path().join("empty"));
    let def = puzzle("2x2x2.def");
    let (code, out, err) = run(&["god", &def, "-q", "--checkpoint", &ck, "--resume"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("no checkpoint to resume"), "{err}");
    assert!(out.contains("Total positions: 3674160"), "{out}");
}
