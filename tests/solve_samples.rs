//! ksolve+'s sample scramble files give solutions of the same lengths, in the same
//! numbers, as ksolve+ (figures from `shared/reference/ksolve-timings.md`). The samples
//! are read from `../shared/ksolve-samples` and the test is skipped when that folder is
//! absent. The 3x3x3 <R,F,U> and Megaminx <R,U> files build tables of ~90 million
//! entries, too slow for the default suite: they run when the binary under test is named
//! (`.ci/run` runs
//! `KSOLVE_TEST_BIN=target/debug/ksolve cargo test --test integration solve_samples::`)
//! or with `KSOLVE_SLOW_TESTS=1`.

use std::collections::BTreeMap;
use std::path::PathBuf;

fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/ksolve-samples");
    dir.is_dir().then_some(dir)
}

/// Per scramble: its name, optimal length, and how many solutions of each length
/// (`None` for a random position: then only "solved, every solution of one length, at
/// most this long" is checked, with the length being God's number of the puzzle).
type Expected<'a> = &'a [(&'a str, u32, Option<&'a [(usize, usize)]>)];

/// Solves `def` + `scr` with `--json` and compares every scramble with `expected`.
/// Solutions are counted by their number of moves.
fn check(def: &str, scr: &str, expected: Expected) {
    let Some(dir) = samples() else {
        eprintln!("skipped: ../shared/ksolve-samples is absent");
        return;
    };
    let tables = tempfile::tempdir().unwrap();
    let out = crate::common::ksolve()
        .arg(dir.join(def))
        .arg(dir.join(scr))
        .args(["--json", "--seed", "7", "--tables"])
        .arg(tables.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), expected.len());
    for (got, &(name, length, counts)) in lines.iter().zip(expected) {
        assert_eq!(got["name"], name);
        assert_eq!(got["status"], "solved");
        let Some(counts) = counts else {
            let n = got["length"].as_u64().unwrap();
            assert!(n <= length as u64, "{name}");
            for s in got["solutions"].as_array().unwrap() {
                assert_eq!(s.as_str().unwrap().split_whitespace().count() as u64, n);
            }
            continue;
        };
        assert_eq!(got["length"], length, "{name}");
        let mut by_len = BTreeMap::new();
        for s in got["solutions"].as_array().unwrap() {
            let n = s.as_str().unwrap().split_whitespace().count();
            *by_len.entry(n).or_insert(0usize) += 1;
        }
        let by_len: Vec<(usize, usize)> = by_len.into_iter().collect();
        assert_eq!(by_len, counts, "{name}");
    }
}

#[test]
fn cube2_sample() {
    check(
        "2x2x2.def",
        "2x2x2.txt",
        &[
            ("2-flip", 10, Some(&[(10, 12)])),
            ("Jperm", 10, Some(&[(10, 20)])),
            ("random!", 11, None),
        ],
    );
}

#[test]
fn bicube_sample() {
    check(
        "Bicube.def",
        "bicube.txt",
        &[
            (
                "all short algs",
                0,
                Some(&[(0, 1), (7, 8), (8, 6), (9, 12)]),
            ),
            ("3-cycle", 16, Some(&[(16, 2)])),
        ],
    );
}

#[test]
fn cube3_rfu_sample() {
    if !crate::common::large_tables() {
        return;
    }
    check(
        "3x3x3_RFU.def",
        "3x3x3_RFU.txt",
        &[
            ("Aperm", 12, Some(&[(12, 1), (13, 4), (14, 3)])),
            ("Tperm", 14, Some(&[(14, 2), (15, 10), (16, 44)])),
            ("Yperm", 13, Some(&[(13, 4)])),
        ],
    );
}

#[test]
fn megaminx_ru_sample() {
    if !crate::common::large_tables() {
        return;
    }
    // The QTM scramble's one solution has 17 moves and costs 20 quarter turns.
    check(
        "Megaminx_RU.def",
        "Megaminx_RU.txt",
        &[
            ("Aperm", 16, Some(&[(16, 12)])),
            ("Uperm", 14, Some(&[(14, 1)])),
            ("Aperm (QTM)", 20, Some(&[(17, 1)])),
        ],
    );
}
