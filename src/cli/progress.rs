//! The indicatif drawing of library progress, hidden when stderr is not a terminal, and
//! warnings printed to stderr.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ksolve::progress::Progress;
use std::io::IsTerminal;
use std::sync::Mutex;

/// Draws progress on stderr. When stderr is not a terminal (a pipe, a file, CI) bars
/// are hidden, but warnings are still printed.
pub struct Bars {
    bar: Mutex<Option<ProgressBar>>,
    visible: bool,
}

impl Bars {
    pub fn new(quiet: bool) -> Bars {
        Bars {
            bar: Mutex::new(None),
            visible: !quiet && std::io::stderr().is_terminal(),
        }
    }
}

impl Progress for Bars {
    fn start(&self, what: &str, total: Option<u64>) {
        if !self.visible {
            return;
        }
        let bar = match total {
            Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr())
                .with_style(
                    ProgressStyle::with_template("{msg:>24} [{bar:40}] {percent:>3}% {elapsed}")
                        .expect("static template")
                        .progress_chars("=> "),
                ),
            None => ProgressBar::new_spinner(),
        };
        bar.set_message(what.to_string());
        if let Some(old) = self.bar.lock().expect("progress lock").replace(bar) {
            old.finish_and_clear();
        }
    }

    fn inc(&self, n: u64) {
        if let Some(bar) = self.bar.lock().expect("progress lock").as_ref() {
            bar.inc(n);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.lock().expect("progress lock").take() {
            bar.finish_and_clear();
        }
    }

    fn warn(&self, message: &str) {
        let guard = self.bar.lock().expect("progress lock");
        match guard.as_ref() {
            Some(bar) => bar.suspend(|| eprintln!("warning: {message}")),
            None => eprintln!("warning: {message}"),
        }
    }
}
