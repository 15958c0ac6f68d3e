//! Writing to standard output, and what a failed write means.
//!
//! Every command writes through [`stdout`], whose errors propagate (`writeln!(out, ..)?`)
//! instead of panicking as `println!` does, and say that standard output could not be
//! written. A closed standard output (`ksolve ... | head -1`) is not an error: the
//! reader has what it wanted, so the command stops at once, prints nothing more and
//! exits with status 0, as ripgrep and other Rust tools do (a C tool would die of
//! SIGPIPE, which the shell reports only under `pipefail`). Any other write error (a
//! full disk, `> /dev/full`) exits with status 2 and says why.
//!
//! Standard error is written through [`err_line`] (the `errln!` macro), never
//! `eprintln!`, which panics when the write fails: with stderr full (`2>/dev/full`) or
//! a closed pipe (`2>&1 | head` after `head` is gone) the message is lost, but the exit
//! code still says what happened.

use super::EXIT_ERROR;
use std::fmt;
use std::io::{self, StdoutLock, Write};

/// The locked standard output, with write errors that name it.
pub struct Out(StdoutLock<'static>);

/// Locks standard output for a run of writes. The lock is reentrant, so a callback on
/// the same thread may take it again.
pub fn stdout() -> Out {
    Out(io::stdout().lock())
}

/// Gives a write error the context of where it happened, keeping its kind so that a
/// broken pipe can still be recognised.
fn tag(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot write to standard output: {e}"))
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(tag)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(tag)
    }
}

/// Whether an error comes from writing to a closed pipe: the reader is gone, and the
/// command should stop quietly.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes one line to standard error. A failed write is ignored: there is nowhere left
/// to say so, and the exit code still tells the caller the outcome.
pub fn err_line(args: fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{args}");
}

/// For output written from inside library callbacks, which cannot return an error:
/// a failed write ends the process here, with the exit code `main` would give, rather
/// than letting a search or a table computation run on for minutes with nobody reading.
pub fn or_exit(result: io::Result<()>) {
    if let Err(e) = result {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        err_line(format_args!("error: {e}"));
        std::process::exit(EXIT_ERROR.into());
    }
}

/// The error and its causes on one line, each cause once: a message that already ends
/// with its cause's text (an io error quoted in its context) does not repeat it.
pub fn chain(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_already_quoted_are_not_repeated() {
        let io = io::Error::new(io::ErrorKind::PermissionDenied, "denied");
        #[derive(Debug, thiserror::Error)]
        #[error("cannot access x: {0}")]
        struct Quoting(#[source] io::Error);
        let e = anyhow::Error::new(Quoting(io)).context("saving");
        assert_eq!(chain(&e), "saving: cannot access x: denied");
        let e = anyhow::anyhow!("inner").context("outer");
        assert_eq!(chain(&e), "outer: inner");
    }

    #[test]
    fn broken_pipes_are_recognised_through_context() {
        let e =
            anyhow::Error::new(tag(io::Error::from(io::ErrorKind::BrokenPipe))).context("printing");
        assert!(is_broken_pipe(&e));
        let e = anyhow::Error::new(tag(io::Error::from(io::ErrorKind::WriteZero)));
        assert!(!is_broken_pipe(&e));
    }
}
