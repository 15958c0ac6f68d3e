//! Hostile use of the command line (issue 23): endless or enormous input, streams that
//! cannot be written, definitions whose rules leave nothing, and messages that must come
//! before any output or name the line at fault. Each test ran against the build before
//! its fix and failed there (a panic, an abort, a hang bounded by a timeout, or a
//! message that did not say what happened).

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

/// Far longer than any of these runs takes on a loaded machine in a debug build, far
/// shorter than the minutes an unbounded one ran for.
const PROMPT: Duration = Duration::from_secs(60);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `common::ksolve`, stopped after [`PROMPT`].
fn ksolve() -> Command {
    let mut c = crate::common::ksolve();
    c.timeout(PROMPT);
    c
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Asserts the exit code, with both streams in the message when it differs.
fn assert_code(out: &std::process::Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// A file of `/dev`, opened for writing, where the system has it.
fn dev(name: &str) -> Option<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(Path::new("/dev").join(name))
        .ok()
}

/// The write end of a pipe whose read end is already closed: every write fails with
/// "broken pipe", as stderr does in `ksolve ... 2>&1 | head` once `head` has gone.
fn widowed_pipe() -> std::os::fd::OwnedFd {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: `pipe` fills both descriptors on success; each is owned exactly once.
    let (read, write) = unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        (
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    };
    drop(read);
    write
}

#[test]
fn an_error_with_stderr_full_or_gone_still_exits_2() {
    let mut streams: Vec<(&str, Stdio)> = vec![("a widowed pipe", widowed_pipe().into())];
    if let Some(full) = dev("full") {
        streams.push(("/dev/full", full.into()));
    }
    for (what, stream) in streams {
        let out = std::process::Command::new(crate::common::bin())
            .args(["check", "/nonexistent/x.def"])
            .stdout(Stdio::null())
            .stderr(stream)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "stderr to {what}");
    }
}

#[test]
fn completions_to_a_full_disk_say_so() {
    let Some(full) = dev("full") else {
        return;
    };
    let out = std::process::Command::new(crate::common::bin())
        .args(["completions", "bash"])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_code(&out, 2);
    let err = text(&out.stderr);
    assert!(err.contains("cannot write to standard output"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Runs ksolve under a shell with its address space capped at 1 GiB (so that a
/// regression fails with an abort instead of taking the machine's memory), with
/// standard input from `stdin`: a file the shell opens (this process never reads it:
/// `/dev/zero` is endless), or bytes written to it.
fn capped(args: &[&str], stdin: Input) -> std::process::Output {
    let bin = crate::common::bin();
    let mut script = String::from("ulimit -v 1048576; exec \"$0\"");
    for k in 1..=args.len() {
        script.push_str(&format!(" \"${k}\""));
    }
    let bytes = match stdin {
        Input::File(p) => {
            script.push_str(&format!(" < {p}"));
            Vec::new()
        }
        Input::Bytes(b) => b,
    };
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin)
        .args(args)
        .timeout(PROMPT)
        .write_stdin(bytes)
        .output()
        .unwrap()
}

enum Input<'a> {
    File(&'a str),
    Bytes(Vec<u8>),
}

#[test]
fn an_endless_line_to_alg_is_refused_where_it_is() {
    let def = root().join("puzzles/2x2x2.def");
    let def = def.to_str().unwrap();
    for action in ["show", "invert"] {
        let out = capped(&["alg", def, action], Input::File("/dev/zero"));
        assert_code(&out, 2);
        let err = text(&out.stderr);
        assert!(
            err.contains("error: <stdin>:1: the line goes on past"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn an_endless_line_ends_a_play_script_where_it_is() {
    let def = root().join("puzzles/2x2x2.def");
    let out = capped(
        &["play", def.to_str().unwrap(), "--no-clock"],
        Input::File("/dev/zero"),
    );
    assert_code(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains("error: <stdin>:1: the line goes on past"),
        "{err}"
    );
}

#[test]
fn a_play_line_that_expands_past_the_cap_is_refused_and_the_session_goes_on() {
    let def = root().join("puzzles/3x3x3.def");
    let out = capped(
        &["play", def.to_str().unwrap(), "--no-clock"],
        Input::Bytes(b"(R U)268435456\n(R U)100000000\nR\n".to_vec()),
    );
    assert_code(&out, 2);
    let said = text(&out.stdout);
    assert!(
        said.contains("error: <stdin>:1:1: these moves expand to 536870912 moves"),
        "{said}"
    );
    assert!(
        said.contains("error: <stdin>:2:1: these moves expand to 200000000 moves"),
        "{said}"
    );
    // The line after them is played.
    assert!(said.contains("> R\n"), "{said}");
    assert!(said.trim_end().ends_with("Moves: 1"), "{said}");
}

#[test]
fn a_play_line_of_many_uses_of_a_long_macro_is_refused_before_it_is_written_out() {
    // A thousand uses of a 10,000-move macro: written out as text before the line's cap
    // looked at it, this took 68 s and 776 MB.
    let def = root().join("puzzles/3x3x3.def");
    let mut script = b"def LONG (R U)5000\n".to_vec();
    script.extend(vec!["LONG"; 1000].join(" ").bytes());
    script.extend(b"\nR\n");
    let out = capped(
        &["play", def.to_str().unwrap(), "--no-clock"],
        Input::Bytes(script),
    );
    assert_code(&out, 2);
    let said = text(&out.stdout);
    assert!(
        said.contains("error: <stdin>:2:1: these moves expand to at least 110000 moves"),
        "{said}"
    );
    assert!(said.trim_end().ends_with("Moves: 1"), "{said}");
}

#[test]
fn a_play_line_that_is_not_utf8_is_refused_at_its_line_and_the_session_goes_on() {
    let def = root().join("puzzles/2x2x2.def");
    let out = ksolve()
        .args(["play", def.to_str().unwrap(), "--no-clock"])
        .write_stdin(b"R\nR\xff U\nU\n".to_vec())
        .output()
        .unwrap();
    assert_code(&out, 2);
    let said = text(&out.stdout);
    assert!(
        said.contains("error: <stdin>:2:2: byte 0xff is not UTF-8 text"),
        "{said}"
    );
    assert!(said.contains("> U\n"), "{said}");
    assert!(said.trim_end().ends_with("Moves: 2"), "{said}");
}

#[test]
fn a_goal_without_positions_is_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("none.def");
    std::fs::write(
        &def,
        "Set Cells 4 1\nSolved\nCells\n?1 ?1 ?2 ?2\nRequire Cells 1 1 never\n\
         Require Cells 1 2 never\nEnd\nMove M\nCells\n2 1 3 4\nEnd\n",
    )
    .unwrap();
    let scr = dir.path().join("r.txt");
    std::fs::write(&scr, "RandomScramble r\nEnd\n").unwrap();
    let def = def.to_str().unwrap();
    for args in [
        vec!["check", def],
        vec!["god", def],
        vec!["solve", def, scr.to_str().unwrap(), "--seed", "1"],
    ] {
        let out = ksolve().args(&args).output().unwrap();
        assert_code(&out, 2);
        let err = text(&out.stderr);
        assert!(
            err.contains("none.def:2:1: no filling of the free positions (`?`) keeps the `Require` rules (lines 5-6)"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn free_moves_that_cannot_be_bounded_are_refused_before_any_output() {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("free.def");
    let base = std::fs::read_to_string(root().join("puzzles/2x2x2.def")).unwrap();
    std::fs::write(&def, format!("{base}\nMoveCosts\nU* 0\nR* 0\nF* 0\nEnd\n")).unwrap();
    let scr = dir.path().join("s.txt");
    std::fs::write(&scr, "ScrambleAlg s\nR U\nEnd\n").unwrap();
    let tables = dir.path().join("tables");
    let (def, scr) = (def.to_str().unwrap(), scr.to_str().unwrap());
    for json in [true, false] {
        let mut c = ksolve();
        c.args(["solve", def, scr, "--tables", tables.to_str().unwrap()]);
        if json {
            c.arg("--json");
        }
        let out = c.output().unwrap();
        assert_code(&out, 2);
        assert_eq!(text(&out.stdout), "", "--json {json}");
        assert!(
            text(&out.stderr).contains("the moves of cost 0"),
            "{}",
            text(&out.stderr)
        );
    }
    let out = ksolve().args(["check", def, scr]).output().unwrap();
    let err = text(&out.stderr);
    assert!(
        err.contains("warning: `solve` cannot search this definition: the moves of cost 0"),
        "{err}"
    );
}

#[test]
fn a_checkpoint_folder_that_is_a_file_is_refused_before_any_layer() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ck");
    std::fs::write(&file, "").unwrap();
    let def = root().join("puzzles/2x2x2.def");
    for ck in [file.clone(), file.join("sub")] {
        let out = ksolve()
            .arg("god")
            .arg(&def)
            .arg("--checkpoint")
            .arg(&ck)
            .output()
            .unwrap();
        assert_code(&out, 2);
        // Refused up front: not one row of the table was printed.
        assert_eq!(text(&out.stdout), "", "{}", ck.display());
        let err = text(&out.stderr);
        assert!(err.contains("ot a directory"), "{err}");
        assert!(!err.contains("done in"), "{err}");
    }
}

#[test]
fn cache_list_says_when_a_temporary_s_writer_is_gone() {
    let tables = tempfile::tempdir().unwrap();
    // A writer killed a moment ago: its process has exited, its file is fresh (within
    // the grace period that keeps it from being swept).
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let name = format!(".cube.pt-htm.ktb.ksolve-tmp.{dead}.1.0");
    std::fs::write(tables.path().join(&name), vec![0u8; 4096]).unwrap();
    let out = ksolve()
        .args(["cache", "list", "--tables"])
        .arg(tables.path())
        .output()
        .unwrap();
    assert_code(&out, 0);
    let said = text(&out.stdout);
    let row = said.lines().find(|l| l.contains(&name)).unwrap_or_default();
    assert!(
        row.contains(&format!("process {dead}, its owner is gone")),
        "{said}"
    );
    assert!(!row.contains("being written"), "{said}");
    let out = ksolve()
        .args(["cache", "list", "--json", "--tables"])
        .arg(tables.path())
        .output()
        .unwrap();
    let said = text(&out.stdout);
    assert!(said.contains("\"owner_alive\":false"), "{said}");
}
