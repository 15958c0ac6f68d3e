//! `ksolve solve --memory` from the outside: budgets too small to solve with are refused
//! with the smallest that works, and a puzzle whose move tables do not fit the budget is
//! refused at once, with what it needs, without using more memory than the budget.

use crate::common::ksolve;
use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn shipped(dir: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(dir)
        .join(name)
}

#[test]
fn budgets_too_small_to_solve_with_are_refused() {
    let def = shipped("puzzles", "2x2x2.def");
    let scr = shipped("scrambles", "2x2x2.txt");
    for budget in ["0", "1", "1B", "64K"] {
        let out = ksolve()
            .args(["solve", "--no-cache", "--memory", budget])
            .arg(&def)
            .arg(&scr)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{budget}: {err}");
        assert!(out.stdout.is_empty(), "{budget}");
        assert!(
            err.contains("too small: expected at least 16M"),
            "{budget}: {err}"
        );
    }
    // The help says so too.
    let out = ksolve().args(["solve", "--help"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("At least 16M"));
}

/// A definition with one set of `n` distinct pieces, a cyclic shift (directed, so that
/// it has one power) and a swap.
fn big_def(dir: &Path, n: usize) -> (PathBuf, PathBuf) {
    let shift: Vec<String> = (0..n).map(|i| ((i + 1) % n + 1).to_string()).collect();
    let mut swap: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    swap.swap(0, 1);
    let def = dir.join("big.def");
    std::fs::write(
        &def,
        format!(
            "Set A {n} 1\nMove C noinverse\nA\n{}\nEnd\nMove S\nA\n{}\nEnd\n",
            shift.join(" "),
            swap.join(" ")
        ),
    )
    .unwrap();
    let scr = dir.join("big.txt");
    std::fs::write(&scr, "ScrambleAlg x\nS C S\nEnd\n").unwrap();
    (def, scr)
}

#[test]
fn a_twenty_thousand_piece_set_over_budget_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (def, scr) = big_def(dir.path(), 20_000);
    // Peak memory through GNU time where it is installed; the time bound otherwise.
    let time = Path::new("/usr/bin/time");
    let mut cmd = if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "peak %M KB"]).arg(crate::common::bin());
        c
    } else {
        ksolve()
    };
    cmd.args(["solve", "--no-cache", "--memory", "100M"])
        .arg(&def)
        .arg(&scr)
        .timeout(Duration::from_secs(60));
    let start = Instant::now();
    let out = cmd.output().unwrap();
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    crate::common::assert_quick(took, Duration::from_secs(10), &err);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("move tables need") && err.contains("more than the memory budget of 100 MiB"),
        "{err}"
    );
    // The message names a budget that would hold them: far more than the one given.
    let wanted: u64 = err
        .split("expected --memory ")
        .nth(1)
        .and_then(|rest| rest.split('M').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no budget suggested: {err}"));
    assert!(wanted > 1000, "{err}");
    if let Some(kb) = err.lines().find_map(|l| {
        l.strip_prefix("peak ")?
            .strip_suffix(" KB")?
            .parse::<u64>()
            .ok()
    }) {
        assert!(kb < 100 << 10, "peak memory {kb} KB over the 100M budget");
    }
}
