//! Hostile use of the command line (issue 23): endless or enormous input, streams that
//! cannot be written, definitions whose rules leave nothing, and messages that must come
//! before any output or name the line at fault. Each test ran against the build before
//! its fix and failed there (a panic, an abort, a hang bounded by a timeout, or a
//! message that did not say what happened).

mod common;

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

fn ksolve() -> Command {
    let mut c = Command::cargo_bin("ksolve").unwrap();
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
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("ksolve"))
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
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("ksolve"))
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
