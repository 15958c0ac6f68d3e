//! Unit tests of the readers and printers: the samples' quirks, each error kind, and
//! round trips.

use super::*;
use std::path::PathBuf;

/// ksolve+'s sample folder, when this checkout sits beside it.
fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/ksolve-samples");
    dir.is_dir().then_some(dir)
}

#[test]
fn every_sample_reads_except_the_one_without_end() {
    let Some(dir) = samples() else { return };
    let mut defs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "def"))
        .collect();
    defs.sort();
    assert!(defs.len() >= 20);
    for p in defs {
        let res = load_puzzle(&p);
        if p.ends_with("3x3x3_3color.def") {
            let e = res.unwrap_err();
            assert_eq!(e.line, 57);
            assert!(matches!(&e.kind, ErrorKind::MissingEnd { block, .. } if block == "Move B"));
        } else {
            let (_, warnings) = res.unwrap_or_else(|e| panic!("{e}"));
            assert!(warnings.is_empty(), "{}", p.display());
        }
    }
    for (d, s, n) in [
        ("2x2x2.def", "2x2x2.txt", 3),
        ("3x3x3_RFU.def", "3x3x3_RFU.txt", 3),
        ("Megaminx_RU.def", "Megaminx_RU.txt", 3),
        ("Bicube.def", "bicube.txt", 2),
    ] {
        let (puz, _) = load_puzzle(dir.join(d)).unwrap();
        let v = load_scrambles(dir.join(s), &puz).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v.len(), n, "{s}");
    }
}
