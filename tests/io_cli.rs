//! Files, devices, pipes and messages from the command line: ksolve reads only regular
//! files and never blocks opening one, writes only regular files it may replace, stops
//! promptly and quietly when its standard output is closed, says why a write failed,
//! and keeps its messages true and short.

use assert_cmd::Command;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Long enough for a debug build on a loaded machine, far shorter than the for-ever a
/// blocked open or an unstopped search takes.
const PROMPT: Duration = Duration::from_secs(60);

struct Files {
    dir: tempfile::TempDir,
    def: PathBuf,
    tables: PathBuf,
}

impl Files {
    fn new() -> Files {
        let dir = tempfile::tempdir().unwrap();
        let def = dir.path().join("cube2.def");
        std::fs::write(&def, crate::common::CUBE2).unwrap();
        let tables = dir.path().join("tables");
        Files { dir, def, tables }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    /// A named pipe, made with the system's `mkfifo`.
    fn fifo(&self, name: &str) -> PathBuf {
        let p = self.path(name);
        mkfifo(&p);
        p
    }

    /// A `solve` command that caches its tables in this test's folder.
    fn solve(&self, scrambles: &Path) -> Command {
        let mut c = ksolve();
        c.arg("solve")
            .arg(&self.def)
            .arg(scrambles)
            .arg("--tables")
            .arg(&self.tables);
        c
    }
}

fn mkfifo(p: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkfifo {}", p.display());
}

fn ksolve() -> Command {
    let mut c = crate::common::ksolve();
    c.timeout(PROMPT);
    c
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Asserts the exit code, with stderr in the message when it differs.
fn assert_code(out: &std::process::Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// A character device node that is not the system's: as root a copy of /dev/null made
/// in `dir`, so that a regression cannot destroy the real one; otherwise /dev/null
/// itself, which only root could replace.
fn device(dir: &Path) -> PathBuf {
    let p = dir.join("null");
    let made = std::process::Command::new("mknod")
        .arg(&p)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if made {
        p
    } else {
        PathBuf::from("/dev/null")
    }
}

fn is_char_device(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_char_device())
}

#[test]
fn god_save_refuses_devices_fifos_and_directories() {
    let f = Files::new();
    let dev = device(f.dir.path());
    let pipe = f.fifo("pipe.db");
    let folder = f.path("folder.db");
    std::fs::create_dir(&folder).unwrap();
    for (target, what) in [
        (&dev, "character device"),
        (&pipe, "named pipe"),
        (&folder, "a directory"),
    ] {
        let out = ksolve()
            .arg("god")
            .arg(&f.def)
            .arg("--save")
            .arg(target)
            .output()
            .unwrap();
        assert_code(&out, 2);
        let err = text(&out.stderr);
        assert!(err.contains("cannot save the distance table"), "{err}");
        assert!(err.contains(what), "{err}");
        // Refused up front: no table was computed or printed.
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    }
    assert!(is_char_device(&dev));
    assert!(std::fs::symlink_metadata(&pipe)
        .unwrap()
        .file_type()
        .is_fifo());
    assert!(folder.is_dir());
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
}

#[test]
fn database_that_is_a_directory_fifo_or_device_is_refused_promptly() {
    let f = Files::new();
    let scr = f.write("s.txt", "ScrambleAlg one\nR U\nEnd\n");
    let folder = f.path("folder.db");
    std::fs::create_dir(&folder).unwrap();
    let pipe = f.fifo("pipe.db");
    let dev = device(f.dir.path());
    for (target, what) in [
        (&folder, "a directory"),
        (&pipe, "named pipe"),
        (&dev, "character device"),
    ] {
        let out = f
            .solve(&scr)
            .arg("--database")
            .arg(target)
            .output()
            .unwrap();
        assert_code(&out, 2);
        let err = text(&out.stderr);
        assert!(err.contains(what), "{err}");
        assert!(!err.contains("No such device"), "{err}");
    }
    assert!(is_char_device(&dev));
}

#[test]
fn database_that_cannot_be_written_is_used_from_memory() {
    let f = Files::new();
    let scr = f.write("s.txt", "ScrambleAlg one\nR U\nEnd\n");
    // Root may write anywhere in a read-only folder, but not below a regular file.
    let plain = f.write("plain", "not a folder");
    let out = f
        .solve(&scr)
        .arg("--database")
        .arg(plain.join("cube2.db"))
        .output()
        .unwrap();
    assert_code(&out, 0);
    let err = text(&out.stderr);
    assert!(err.contains("cannot write the distance table"), "{err}");
    assert!(err.contains("Not a directory"), "{err}");
    assert!(
        text(&out.stdout).ends_with("\n  U' R'\n\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn definitions_and_scrambles_must_be_regular_files() {
    let f = Files::new();
    let pipe = f.fifo("pipe.def");
    let scr = f.write("s.txt", "ScrambleAlg one\nR U\nEnd\n");
    let cases: Vec<(Vec<&std::ffi::OsStr>, &str)> = vec![
        (vec!["check".as_ref(), pipe.as_os_str()], "named pipe"),
        (
            vec!["check".as_ref(), f.dir.path().as_os_str()],
            "a directory",
        ),
        (
            vec!["check".as_ref(), "/dev/zero".as_ref()],
            "character device",
        ),
        (
            vec!["check".as_ref(), f.def.as_os_str(), pipe.as_os_str()],
            "named pipe",
        ),
        (vec!["god".as_ref(), pipe.as_os_str()], "named pipe"),
        (
            vec!["solve".as_ref(), pipe.as_os_str(), scr.as_os_str()],
            "named pipe",
        ),
    ];
    for (args, what) in cases {
        let out = ksolve().args(&args).output().unwrap();
        assert_code(&out, 2);
        let err = text(&out.stderr);
        assert!(err.contains(what), "{args:?}: {err}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
    }
}

#[test]
fn a_fifo_in_the_tables_folder_is_built_around() {
    let f = Files::new();
    let scr = f.write("s.txt", "ScrambleAlg one\nR U\nEnd\n");
    let first = f.solve(&scr).output().unwrap();
    assert_code(&first, 0);
    // Every table file becomes a named pipe: opening one would block for ever.
    let mut pipes = Vec::new();
    for entry in std::fs::read_dir(&f.tables).unwrap() {
        let p = entry.unwrap().path();
        std::fs::remove_file(&p).unwrap();
        mkfifo(&p);
        pipes.push(p);
    }
    assert!(!pipes.is_empty());
    let out = f.solve(&scr).output().unwrap();
    assert_code(&out, 0);
    assert_eq!(out.stdout, first.stdout);
    let err = text(&out.stderr);
    assert!(err.contains("named pipe"), "{err}");
    for p in &pipes {
        assert!(std::fs::symlink_metadata(p).unwrap().file_type().is_fifo());
    }
}

#[test]
fn cache_warnings_give_the_reason() {
    let f = Files::new();
    let scr = f.write("s.txt", "ScrambleAlg one\nR U\nEnd\n");
    let plain = f.write("plain", "not a folder");
    let out = ksolve()
        .arg("solve")
        .arg(&f.def)
        .arg(&scr)
        .arg("--tables")
        .arg(plain.join("tables"))
        .output()
        .unwrap();
    assert_code(&out, 0);
    let err = text(&out.stderr);
    assert!(err.contains("cannot cache a table"), "{err}");
    // The reason, not only that something went wrong.
    assert!(
        err.contains("Not a directory") || err.contains("File exists"),
        "{err}"
    );
}

/// Runs ksolve with `args`, reads `lines` lines of its standard output and closes it;
/// returns the exit code, stderr and how long the process took after the close.
fn close_after(args: &[&std::ffi::OsStr], lines: usize) -> (Option<i32>, String, Duration) {
    let mut child = std::process::Command::new(crate::common::bin())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
    }
    drop(reader);
    let closed = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
            return (status.code(), err, closed.elapsed());
        }
        if closed.elapsed() > PROMPT {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("ksolve {args:?} still running {PROMPT:?} after its output was closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn solve_stops_when_its_reader_leaves() {
    let f = Files::new();
    // Every solution up to 14 moves past optimal: hours of searching, printed as each
    // length is done, so the first print after the reader left must end the run. A
    // position (not an algorithm) so that nothing but solutions follows `Solving`.
    let scr = f.write(
        "s.txt",
        "Slack 14\nScramble one\nCORNERS\n1 5 2 3 7 6 4\n1 2 0 0 1 0 2\nEnd\n",
    );
    let tables = f.tables.as_os_str();
    let args = [
        "solve".as_ref(),
        f.def.as_os_str(),
        scr.as_os_str(),
        "--tables".as_ref(),
        tables,
    ];
    let (code, err, _) = close_after(&args, 1);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("error"), "{err}");
}

#[test]
fn check_and_god_stop_quietly_on_a_closed_output() {
    let f = Files::new();
    let scr = f.write("s.txt", "ScrambleAlg one\nR U\nEnd\n");
    for args in [
        vec!["check".as_ref(), f.def.as_os_str(), scr.as_os_str()],
        vec!["god".as_ref(), f.def.as_os_str()],
    ] {
        let (code, err, _) = close_after(&args, 0);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        // Off a terminal, stderr holds one line per finished stage of work, and
        // nothing else: no error, no warning.
        assert!(
            err.lines().all(|l| l.contains(": done in ")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_full_output_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let f = Files::new();
    let scr = f.write("s.txt", "ScrambleAlg one\nR U\nEnd\n");
    for args in [
        vec!["check".as_ref(), f.def.as_os_str()],
        vec!["god".as_ref(), f.def.as_os_str()],
        vec![
            "solve".as_ref(),
            f.def.as_os_str(),
            scr.as_os_str(),
            "--tables".as_ref(),
            f.tables.as_os_str(),
        ],
        // The chain's answers and scrambles are written as they come.
        vec![
            "solve".as_ref(),
            f.def.as_os_str(),
            scr.as_os_str(),
            "--fast".as_ref(),
            "--tables".as_ref(),
            f.tables.as_os_str(),
        ],
        vec![
            "scramble".as_ref(),
            f.def.as_os_str(),
            "--tables".as_ref(),
            f.tables.as_os_str(),
        ],
        vec!["chain".as_ref(), f.def.as_os_str()],
    ] {
        let out = std::process::Command::new(crate::common::bin())
            .args(&args)
            .stdout(full.try_clone().unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_code(&out, 2);
        let err = text(&out.stderr);
        assert!(err.contains("cannot write to standard output"), "{err}");
        assert!(err.contains("No space left on device"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn long_lines_are_quoted_short() {
    let f = Files::new();
    // A scramble of 200,000 moves on one line, with an unknown move in the middle.
    let mut moves = vec!["R"; 200_000];
    moves[100_000] = "Q";
    let scr = f.write(
        "s.txt",
        &format!("ScrambleAlg long\n{}\nEnd\n", moves.join(" ")),
    );
    let out = ksolve()
        .arg("check")
        .arg(&f.def)
        .arg(&scr)
        .output()
        .unwrap();
    assert_code(&out, 2);
    let err = text(&out.stderr);
    assert!(err.len() < 1000, "{} bytes of error", err.len());
    assert!(err.contains("unknown move `Q`"), "{err}");
    assert!(err.contains('…'), "{err}");
    // The caret sits under the Q.
    let lines: Vec<&str> = err.lines().collect();
    let quote = lines.iter().position(|l| l.contains(" | ")).unwrap();
    let q = lines[quote].chars().position(|c| c == 'Q').unwrap();
    let caret = lines[quote + 1].chars().position(|c| c == '^').unwrap();
    assert_eq!(q, caret, "{err}");
}

#[test]
fn orders_past_u32_are_printed_exactly() {
    // One directed move made of cycles of the primes 2 to 47: its order, their product,
    // is far past u32.
    let primes = [2usize, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47];
    let size: usize = primes.iter().sum();
    let mut perm = Vec::new();
    let mut at = 0;
    for &len in &primes {
        perm.extend((0..len).map(|k| (at + (k + 1) % len + 1).to_string()));
        at += len;
    }
    let solved: Vec<String> = (1..=size).map(|i| i.to_string()).collect();
    let def = format!(
        "Set A {size} 1\nSolved\nA\n{}\nEnd\nMove M noinverse\nA\n{}\nEnd\n",
        solved.join(" "),
        perm.join(" ")
    );
    let f = Files::new();
    let path = f.write("big.def", &def);
    let out = ksolve()
        .arg("check")
        .arg(&path)
        .arg("--json")
        .output()
        .unwrap();
    assert_code(&out, 0);
    let want: u64 = primes.iter().map(|&p| p as u64).product();
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!("order {want}, directed")),
        "{stdout}"
    );
    assert!(!stdout.contains("4294967295"), "{stdout}");
    let json: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(json["base_moves"][0]["order"], want);
}
