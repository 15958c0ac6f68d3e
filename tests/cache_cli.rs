//! `ksolve cache list` / `ksolve cache clear`, and what a solve run does with the cache
//! folder besides its own tables: temporaries left by killed runs are removed, a
//! running writer's are kept, and a FIFO where a table should be is left alone
//! instead of hanging the run.

use crate::common::ksolve;
use ksolve::storage::temp::{temp_path, Owner};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

const SCRAMBLES: &str = "ScrambleAlg sune\nR U R' U R U2 R'\nEnd\n";

struct Setup {
    dir: tempfile::TempDir,
    tables: PathBuf,
    scr: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let tables = dir.path().join("tables");
        let scr = dir.path().join("s.txt");
        std::fs::write(&scr, SCRAMBLES).unwrap();
        Setup { dir, tables, scr }
    }

    /// Writes the definition `NAME.def` (the test 2x2x2 with `Name` changed) in folder
    /// `sub`.
    fn def(&self, sub: &str, name: &str) -> PathBuf {
        let path = self.dir.path().join(sub).join(format!("{name}.def"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text =
            crate::common::CUBE2.replace("Name 2x2x2 (tests)", &format!("Name {sub} {name}"));
        std::fs::write(&path, text).unwrap();
        path
    }

    fn solve(&self, def: &Path) -> String {
        let out = ksolve()
            .arg("solve")
            .arg(def)
            .arg(&self.scr)
            .arg("--tables")
            .arg(&self.tables)
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success(), "{stderr}");
        assert!(String::from_utf8(out.stdout).unwrap().contains("sune"));
        stderr
    }

    fn cache(&self, args: &[&str]) -> String {
        let out = ksolve()
            .arg("cache")
            .args(args)
            .arg("--tables")
            .arg(&self.tables)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.tables)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }

    /// The one pruning table file of the definition named `stem`.
    fn table(&self, stem: &str) -> PathBuf {
        let found: Vec<String> = self
            .names()
            .into_iter()
            .filter(|n| n.starts_with(&format!("{stem}.pt-")))
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        self.tables.join(&found[0])
    }
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn list_names_each_table_its_definition_size_and_use() {
    let s = Setup::new();
    let a = s.def("a", "cube");
    let b = s.def("b", "other");
    s.solve(&a);
    s.solve(&b);
    std::fs::write(s.tables.join("README"), "not ksolve's").unwrap();

    let text = s.cache(&["list"]);
    assert!(text.contains("a cube ("), "{text}");
    let a_path = a.canonicalize().unwrap().display().to_string();
    assert!(text.contains(&a_path), "{text}");
    assert!(text.contains("b other ("), "{text}");
    assert!(text.contains(s.table("cube").file_name().unwrap().to_str().unwrap()));
    assert!(text.contains("used just now"), "{text}");
    assert!(text.contains("Total: 4 file(s)"), "{text}");
    assert!(!text.contains("README"), "{text}");

    let v = json(&s.cache(&["list", "--json"]));
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 4);
    assert_eq!(v["total_files"], 4);
    let sum: u64 = files.iter().map(|f| f["bytes"].as_u64().unwrap()).sum();
    assert_eq!(v["total_bytes"], sum);
    let table = s.table("cube");
    let entry = files
        .iter()
        .find(|f| f["file"] == table.file_name().unwrap().to_str().unwrap())
        .unwrap();
    assert_eq!(entry["kind"], "ksolve-prune");
    assert_eq!(entry["bytes"], std::fs::metadata(&table).unwrap().len());
    assert_eq!(entry["definition"]["name"], "a cube");
    assert_eq!(entry["definition"]["paths"][0], a_path);
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    assert!(now - entry["last_used"].as_u64().unwrap() < 60);
}

#[test]
fn clear_removes_one_definitions_tables_or_all_of_ksolves_files() {
    let s = Setup::new();
    let a = s.def("a", "cube");
    let b = s.def("b", "other");
    s.solve(&a);
    s.solve(&b);
    let outside = s.dir.path().join("keep.ktb");
    std::fs::copy(s.table("cube"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, s.tables.join("link.ktb")).unwrap();
    std::fs::write(s.tables.join("notes.ktb"), "KSOLVE? no").unwrap();

    let out = s.cache(&["clear", a.to_str().unwrap()]);
    assert!(out.contains("Removed 2 file(s)"), "{out}");
    let left = s.names();
    assert!(left.iter().all(|n| !n.starts_with("cube.")), "{left:?}");
    assert!(left.iter().filter(|n| n.starts_with("other.")).count() == 2);
    // The other definition is still warm.
    assert!(!s.solve(&b).contains("warning"));

    let out = s.cache(&["clear"]);
    assert!(out.contains("Removed 2 file(s)"), "{out}");
    assert_eq!(s.names(), ["link.ktb", "notes.ktb"]);
    assert!(outside.exists());
    let v = json(&s.cache(&["list", "--json"]));
    assert_eq!(v["total_files"], 0);
}

#[test]
fn clear_of_an_unreadable_definition_is_an_error() {
    let s = Setup::new();
    ksolve()
        .args(["cache", "clear", "no/such.def", "--tables"])
        .arg(&s.tables)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no/such.def"));
}

#[test]
fn a_run_removes_temporaries_of_dead_runs_and_keeps_live_ones() {
    let s = Setup::new();
    let a = s.def("a", "cube");
    s.solve(&a);
    let target = s.table("cube");
    // A writer that was killed: its process has exited.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead_pid = child.id();
    child.wait().unwrap();
    let dead = temp_path(
        &target,
        Owner {
            pid: dead_pid,
            start: 1,
        },
        0,
    );
    // A writer still running: this test process.
    let live = temp_path(&target, Owner::current(), 0);
    for t in [&dead, &live] {
        std::fs::write(t, vec![0u8; 4096]).unwrap();
        let f = std::fs::File::options().write(true).open(t).unwrap();
        f.set_modified(SystemTime::now() - Duration::from_secs(3600))
            .unwrap();
    }
    let listed = json(&s.cache(&["list", "--json"]));
    let temps = listed["temporaries"].as_array().unwrap();
    assert_eq!(temps.len(), 2);
    assert_eq!(listed["total_files"], 4);

    let stderr = s.solve(&a);
    assert!(stderr.contains("removed 1 temporary file"), "{stderr}");
    assert!(!dead.exists());
    assert!(live.exists());
    // `cache clear` also keeps the live one.
    let out = s.cache(&["clear"]);
    assert!(out.contains("Kept"), "{out}");
    assert!(live.exists());
}

#[test]
fn a_fifo_in_place_of_a_table_is_left_alone() {
    let s = Setup::new();
    let a = s.def("a", "cube");
    s.solve(&a);
    let table = s.table("cube");
    std::fs::remove_file(&table).unwrap();
    let c = std::ffi::CString::new(table.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo reads a NUL-terminated path and touches no Rust memory.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let stderr = s.solve(&a);
    assert!(stderr.contains("not a regular file"), "{stderr}");
    use std::os::unix::fs::FileTypeExt;
    assert!(table.symlink_metadata().unwrap().file_type().is_fifo());
    // Listing and clearing do not open it either.
    s.cache(&["list"]);
    s.cache(&["clear"]);
    assert!(table.symlink_metadata().unwrap().file_type().is_fifo());
}

#[test]
fn listing_does_not_count_as_use() {
    let s = Setup::new();
    let a = s.def("a", "cube");
    s.solve(&a);
    let day = Duration::from_secs(86_400);
    for name in s.names() {
        let f = std::fs::File::open(s.tables.join(name)).unwrap();
        let times = std::fs::FileTimes::new()
            .set_modified(SystemTime::now() - 3 * day)
            .set_accessed(SystemTime::now() - 2 * day);
        f.set_times(times).unwrap();
    }
    // Reading headers to list them must not move the access time that says when a
    // table was last used (the file system would: relatime updates day-old times).
    for _ in 0..2 {
        let text = s.cache(&["list"]);
        assert!(!text.contains("just now"), "{text}");
        assert!(text.contains("used 2 days ago"), "{text}");
    }
    // A run that loads the table does count.
    s.solve(&a);
    let text = s.cache(&["list"]);
    assert!(text.contains("used just now"), "{text}");
}

/// `tables build` prints the plan before building, and builds every file a later solve
/// reads: the solve (in either metric) then writes nothing new to the folder.
#[test]
fn tables_build_makes_every_table_a_solve_then_reads() {
    for qtm in [false, true] {
        let s = Setup::new();
        let def = s.def("b", "cube");
        let mut cmd = ksolve();
        cmd.args(["tables", "build"])
            .arg(&def)
            .arg("--tables")
            .arg(&s.tables);
        if qtm {
            cmd.arg("--qtm");
            std::fs::write(&s.scr, format!("QTM\n{SCRAMBLES}")).unwrap();
        }
        let out = cmd.timeout(Duration::from_secs(120)).output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{stdout}");
        let (plan, ready) = (
            stdout.find("Tables for").expect("the plan"),
            stdout.find("Ready in").expect("the summary"),
        );
        assert!(plan < ready, "{stdout}");
        let metric = if qtm { "pt-qtm-" } else { "pt-htm-" };
        assert!(stdout.contains(metric), "{stdout}");
        let stamp = |names: &[String]| -> Vec<(String, SystemTime)> {
            names
                .iter()
                .map(|n| {
                    let m = std::fs::metadata(s.tables.join(n)).unwrap();
                    (n.clone(), m.modified().unwrap())
                })
                .collect()
        };
        let built = s.names();
        assert!(built.iter().any(|n| n.contains(metric)), "{built:?}");
        let before = stamp(&built);
        s.solve(&def);
        // The manifest records each use; the tables themselves are neither rebuilt
        // nor joined by new ones.
        let after: Vec<_> = stamp(&s.names())
            .into_iter()
            .filter(|(n, _)| !n.ends_with(".manifest.ktb"))
            .collect();
        let before: Vec<_> = before
            .into_iter()
            .filter(|(n, _)| !n.ends_with(".manifest.ktb"))
            .collect();
        assert_eq!(before, after, "qtm {qtm}");
    }
    // `cache` is still the same command.
    let s = Setup::new();
    s.solve(&s.def("b", "cube"));
    assert!(s.cache(&["list"]).contains("b cube"));
}
