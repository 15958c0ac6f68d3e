//! Table caching through the command line: a second run reuses the cached pruning
//! table; a deleted, truncated or corrupted table file makes the next run rebuild the
//! table with a warning and still print the right solutions; an edited definition, a
//! same-named definition elsewhere and same-named tables of one definition never share
//! a file.

use std::path::{Path, PathBuf};
use std::time::Instant;

const SCRAMBLES: &str = "Scramble twist\nCORNERS\n1 2 3 4 5 6 7\n2 0 1 0 0 0 0\nEnd\n\
                         ScrambleAlg sune\nR U R' U R U2 R'\nEnd\n";

struct Run {
    stdout: String,
    stderr: String,
}

fn run(def: &Path, scr: &Path, tables: &Path) -> Run {
    let t = Instant::now();
    let out = crate::common::ksolve()
        .arg(def)
        .arg(scr)
        .arg("--tables")
        .arg(tables)
        .output()
        .unwrap();
    eprintln!("run took {:.3} s", t.elapsed().as_secs_f64());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Run {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// The one pruning table file in `dir`.
fn table_file(dir: &Path) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".pt-"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

struct Setup {
    _dir: tempfile::TempDir,
    def: PathBuf,
    scr: PathBuf,
    tables: PathBuf,
    first: Run,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("cube2.def");
    let scr = dir.path().join("cube2.txt");
    let tables = dir.path().join("tables");
    std::fs::write(&def, crate::common::CUBE2).unwrap();
    std::fs::write(&scr, SCRAMBLES).unwrap();
    let first = run(&def, &scr, &tables);
    assert!(!first.stderr.contains("warning"), "{}", first.stderr);
    assert!(first.stdout.starts_with("Solving twist\n"));
    Setup {
        _dir: dir,
        def,
        scr,
        tables,
        first,
    }
}

#[test]
fn second_run_reuses_the_table() {
    let s = setup();
    let file = table_file(&s.tables);
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    let second = run(&s.def, &s.scr, &s.tables);
    assert_eq!(second.stdout, s.first.stdout);
    assert!(!second.stderr.contains("warning"), "{}", second.stderr);
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );
}

#[test]
fn deleted_table_is_rebuilt_with_a_warning() {
    let s = setup();
    let file = table_file(&s.tables);
    std::fs::remove_file(&file).unwrap();
    let again = run(&s.def, &s.scr, &s.tables);
    assert!(
        again.stderr.contains("warning") && again.stderr.contains("does not exist"),
        "{}",
        again.stderr
    );
    assert_eq!(again.stdout, s.first.stdout);
    assert!(file.exists());
    assert!(!run(&s.def, &s.scr, &s.tables).stderr.contains("warning"));
}

#[test]
fn a_fresh_cache_folder_builds_quietly() {
    // The manifest that makes a deleted table worth a warning belongs to the
    // definition: another definition's first run in the same folder is not warned.
    let s = setup();
    let other = s.def.with_file_name("other.def");
    std::fs::write(
        &other,
        crate::common::CUBE2.replace("Move F", "# no F\nMove F"),
    )
    .unwrap();
    let first = run(&other, &s.scr, &s.tables);
    assert!(!first.stderr.contains("warning"), "{}", first.stderr);
    assert_eq!(first.stdout, s.first.stdout);
}

#[test]
fn truncated_table_is_rebuilt_with_a_warning() {
    let s = setup();
    let file = table_file(&s.tables);
    let len = std::fs::metadata(&file).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&file)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let again = run(&s.def, &s.scr, &s.tables);
    assert!(
        again.stderr.contains("warning") && again.stderr.contains("truncated"),
        "{}",
        again.stderr
    );
    assert_eq!(again.stdout, s.first.stdout);
    assert_eq!(std::fs::metadata(&file).unwrap().len(), len);
    assert!(!run(&s.def, &s.scr, &s.tables).stderr.contains("warning"));
}

#[test]
fn corrupted_table_is_rebuilt_with_a_warning() {
    let s = setup();
    let file = table_file(&s.tables);
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(&file, &bytes).unwrap();
    let again = run(&s.def, &s.scr, &s.tables);
    assert!(
        again.stderr.contains("warning") && again.stderr.contains("corrupt"),
        "{}",
        again.stderr
    );
    assert_eq!(again.stdout, s.first.stdout);
}

#[test]
fn edited_definition_gets_tables_of_its_own() {
    let s = setup();
    let old = table_file(&s.tables);
    // The same puzzle with its F move renamed G: its tables are keyed by other
    // definition bytes, so they get other files and the old table is never read.
    std::fs::write(&s.def, crate::common::CUBE2.replace("Move F", "Move G")).unwrap();
    let again = run(&s.def, &s.scr.clone(), &s.tables);
    assert!(!again.stderr.contains("warning"), "{}", again.stderr);
    let tables: Vec<PathBuf> = std::fs::read_dir(&s.tables)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".pt-") && *p != old)
        .collect();
    assert_eq!(tables.len(), 1, "{tables:?}");
    let renamed: String = s
        .first
        .stdout
        .lines()
        .map(|l| {
            let words: Vec<String> = l
                .split(' ')
                .map(|w| {
                    if w.starts_with('F') && w.len() <= 2 {
                        w.replacen('F', "G", 1)
                    } else {
                        w.to_string()
                    }
                })
                .collect();
            words.join(" ") + "\n"
        })
        .collect();
    // The sune scramble is written with R and U only, so it still parses.
    assert_eq!(again.stdout, renamed);
}

/// Runs `ksolve solve` from the repository root (where `puzzles/` and `scrambles/` are)
/// with extra arguments and returns stderr, asserting success.
fn solve_stderr(args: &[&str], tables: &Path) -> String {
    let out = crate::common::ksolve()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("solve")
        .args(args)
        .arg("--tables")
        .arg(tables)
        .arg("--quiet")
        .timeout(std::time::Duration::from_secs(240))
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    stderr
}

#[test]
fn warm_run_of_the_bandaged_cube_rebuilds_nothing() {
    // Under this budget the planner splits the two edge arrangements (the bar's edge
    // and the others) into two pruning tables with the same readable name; they must
    // still get distinct files, or each run overwrites the other's table.
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "puzzles/3x3x3_bandaged.def",
        "scrambles/3x3x3_bandaged.txt",
        "--memory",
        "200M",
    ];
    let cold = solve_stderr(&args, dir.path());
    assert!(!cold.contains("warning"), "{cold}");
    let warm = solve_stderr(&args, dir.path());
    assert!(!warm.contains("warning"), "{warm}");
}

#[test]
fn same_named_definitions_share_a_cache_folder_and_both_stay_warm() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let scr = dir.path().join("cube2.txt");
    std::fs::write(&scr, SCRAMBLES).unwrap();
    let a = dir.path().join("a/cube2.def");
    let b = dir.path().join("b/cube2.def");
    for (def, text) in [
        (&a, crate::common::CUBE2.to_string()),
        (
            &b,
            crate::common::CUBE2.replace("Move F", "# not the same bytes\nMove F"),
        ),
    ] {
        std::fs::create_dir_all(def.parent().unwrap()).unwrap();
        std::fs::write(def, text).unwrap();
    }
    let first_a = run(&a, &scr, &tables);
    let first_b = run(&b, &scr, &tables);
    assert_eq!(first_a.stdout, first_b.stdout);
    let files = |d: &Path| {
        let mut v: Vec<(PathBuf, std::time::SystemTime)> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| {
                (
                    p.clone(),
                    std::fs::metadata(&p).unwrap().modified().unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = files(&tables);
    for def in [&a, &b, &a] {
        let again = run(def, &scr, &tables);
        assert!(!again.stderr.contains("warning"), "{}", again.stderr);
        assert_eq!(again.stdout, first_a.stdout);
    }
    // Warm runs rewrite nothing: every file keeps its modification time.
    assert_eq!(files(&tables), before);
}
