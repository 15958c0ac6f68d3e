//! `ksolve solve --database FILE`: the database method from the command line. A table
//! saved by `ksolve god --save` answers random 2x2x2 positions with solutions as short
//! as IDA*'s; a missing, damaged or foreign table is rebuilt with a warning; scrambles
//! the table cannot answer are searched.

use std::path::{Path, PathBuf};

struct Files {
    dir: tempfile::TempDir,
    def: PathBuf,
}

impl Files {
    fn new() -> Files {
        let dir = tempfile::tempdir().unwrap();
        let def = dir.path().join("cube2.def");
        std::fs::write(&def, crate::common::CUBE2).unwrap();
        Files { dir, def }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

fn ksolve(args: &[&std::ffi::OsStr]) -> std::process::Output {
    crate::common::ksolve().args(args).output().unwrap()
}

fn save(f: &Files, db: &Path, qtm: bool) {
    let mut args = vec![
        "god".as_ref(),
        f.def.as_os_str(),
        "--save".as_ref(),
        db.as_os_str(),
    ];
    if qtm {
        args.push("--qtm".as_ref());
    }
    let out = ksolve(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Solves `scr` with `--json`: (exit code, one object per scramble, stderr).
fn solve_json(f: &Files, scr: &Path, extra: &[&str]) -> (i32, Vec<serde_json::Value>, String) {
    let mut args = vec![
        "solve".as_ref(),
        f.def.as_os_str(),
        scr.as_os_str(),
        "--json".as_ref(),
    ];
    args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
    let out = ksolve(&args);
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (
        out.status.code().unwrap_or(-1),
        lines,
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn randoms(n: usize) -> String {
    (0..n)
        .map(|i| format!("RandomScramble r{i}\nEnd\n"))
        .collect()
}

#[test]
fn database_lengths_equal_search_lengths() {
    let f = Files::new();
    let db = f.path("cube2.gods");
    save(&f, &db, false);
    let scr = f.write("r.txt", &randoms(300));
    let db_arg = db.to_str().unwrap();
    let (code, by_db, err) = solve_json(&f, &scr, &["--seed", "11", "--database", db_arg]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("warning"), "{err}");
    let (code, by_search, _) =
        solve_json(&f, &scr, &["--seed", "11", "--count", "1", "--no-cache"]);
    assert_eq!(code, 0);
    assert_eq!(by_db.len(), 300);
    for (a, b) in by_db.iter().zip(&by_search) {
        assert_eq!(a["name"], b["name"]);
        assert_eq!(a["length"], b["length"], "{a} {b}");
        let sols = a["solutions"].as_array().unwrap();
        assert_eq!(sols.len(), 1);
        let words = sols[0].as_str().unwrap().split_whitespace().count();
        assert_eq!(words as u64, a["length"].as_u64().unwrap());
    }
    // Uniform draws over 3,674,160 positions: most lie at distance 9.
    let nines = by_db.iter().filter(|a| a["length"] == 9).count();
    assert!((100..200).contains(&nines), "{nines}");
}

#[test]
fn qtm_table_answers_qtm_scrambles() {
    let f = Files::new();
    let db = f.path("cube2-qtm.gods");
    save(&f, &db, true);
    let scr = f.write(
        "q.txt",
        "QTM\nScrambleAlg sexy\nR U R' U'\nEnd\nScrambleAlg half\nR2 U2\nEnd\n",
    );
    let (code, lines, err) = solve_json(&f, &scr, &["--database", db.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("warning"), "{err}");
    assert_eq!(lines[0]["length"], 4);
    assert_eq!(lines[0]["solutions"][0], "U R U' R'");
    assert_eq!(lines[1]["length"], 4);
    assert_eq!(lines[1]["metric"], "qtm");
}

#[test]
fn what_the_table_cannot_answer_is_searched() {
    let f = Files::new();
    let db = f.path("cube2.gods");
    save(&f, &db, false);
    // Slack asks for every near-optimal solution and QTM for another metric: both are
    // searched; a twisted corner is refused before either.
    let scr = f.write(
        "s.txt",
        "Slack 2\nScrambleAlg slack\nR U\nEnd\nSlack 0\nQTM\nScrambleAlg qtm\nR2\nEnd\n\
         Scramble twisted\nCORNERS\n1 2 3 4 5 6 7\n1 0 0 0 0 0 0\nEnd\n",
    );
    let (code, lines, err) = solve_json(
        &f,
        &scr,
        &["--database", db.to_str().unwrap(), "--no-cache"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("slack: the distance table answers only"),
        "{err}"
    );
    assert!(
        err.contains("qtm: the distance table answers only"),
        "{err}"
    );
    // Slack 2 over R U: U' R' is the only solution within 4 moves (<U, R, F> has no
    // relation that short), which the search, not the table, has to establish.
    assert_eq!(lines[0]["length"], 2);
    assert_eq!(lines[0]["solutions"], serde_json::json!(["U' R'"]));
    assert_eq!(lines[1]["length"], 2);
    assert_eq!(lines[2]["status"], "unreachable");
}

/// Damages the table file in place with `damage`, then checks that the next run warns
/// with `expect`, rebuilds the table and still answers; and that the run after is quiet.
fn rebuilt_after(damage: impl FnOnce(&Path), expect: &str) {
    let f = Files::new();
    let db = f.path("cube2.gods");
    save(&f, &db, false);
    let scr = f.write("s.txt", "ScrambleAlg sune\nR U R' U R U2 R'\nEnd\n");
    let (_, before, _) = solve_json(&f, &scr, &["--database", db.to_str().unwrap()]);
    damage(&db);
    let (code, after, err) = solve_json(&f, &scr, &["--database", db.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning") && err.contains(expect), "{err}");
    assert_eq!(before[0]["solutions"], after[0]["solutions"]);
    assert_eq!(after[0]["length"], 7);
    let (_, _, err) = solve_json(&f, &scr, &["--database", db.to_str().unwrap()]);
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn truncated_database_is_rebuilt() {
    rebuilt_after(
        |p| {
            let len = std::fs::metadata(p).unwrap().len();
            let f = std::fs::OpenOptions::new().write(true).open(p).unwrap();
            f.set_len(len / 3).unwrap();
        },
        "truncated",
    );
}

#[test]
fn corrupted_database_is_rebuilt() {
    rebuilt_after(
        |p| {
            let mut bytes = std::fs::read(p).unwrap();
            let at = bytes.len() / 2;
            bytes[at] ^= 0x5a;
            std::fs::write(p, bytes).unwrap();
        },
        "corrupt",
    );
}

#[test]
fn deleted_database_is_rebuilt() {
    rebuilt_after(|p| std::fs::remove_file(p).unwrap(), "does not exist");
}

#[test]
fn foreign_database_is_rebuilt() {
    rebuilt_after(
        |p| {
            // A table saved for another puzzle (the 2x2x2 with U and R only) at the path.
            let dir = tempfile::tempdir().unwrap();
            let other = dir.path().join("ur.def");
            let text = crate::common::CUBE2;
            let cut = text.find("Move F").unwrap();
            std::fs::write(&other, &text[..cut]).unwrap();
            let out = ksolve(&[
                "god".as_ref(),
                other.as_os_str(),
                "--save".as_ref(),
                p.as_os_str(),
            ]);
            assert_eq!(out.status.code(), Some(0));
        },
        "another definition",
    );
}
