//! The drawing of library progress on stderr. On a terminal: a bar with the time left
//! for each stage of work (a table build, a God's-algorithm depth) and a ticking
//! spinner with the depth, nodes, rate and solutions so far for a search. Off a terminal
//! (a pipe, a file, CI): one plain line per finished stage, never a bar or a carriage
//! return, and nothing for searches, whose output is the solutions themselves. Notes
//! and warnings are printed either way; `--quiet` hides everything but them.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use ksolve::progress::{eta, format_count, format_duration, Progress};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the search spinner redraws (and so turns) while nodes are counted.
const TICK: Duration = Duration::from_millis(120);

/// What is being drawn.
enum Phase {
    /// A stage of work: its description and when it started.
    Stage {
        what: String,
        started: Instant,
        bar: Option<ProgressBar>,
    },
    /// A search of one depth.
    Search {
        depth: u32,
        bar: Option<ProgressBar>,
    },
}

impl Phase {
    fn bar(&self) -> Option<&ProgressBar> {
        match self {
            Phase::Stage { bar, .. } | Phase::Search { bar, .. } => bar.as_ref(),
        }
    }
}

/// Draws progress on stderr (see the module documentation).
pub struct Bars {
    phase: Mutex<Option<Phase>>,
    /// Bars and spinners are drawn (stderr is a terminal and not `--quiet`).
    live: bool,
    /// Finished stages are written one line each (stderr is not a terminal, not
    /// `--quiet`).
    lines: bool,
}

impl Bars {
    pub fn new(quiet: bool) -> Bars {
        let terminal = std::io::stderr().is_terminal();
        Bars {
            phase: Mutex::new(None),
            live: !quiet && terminal,
            lines: !quiet && !terminal,
        }
    }

    /// Ends the phase being drawn, if any, writing its line when it was a stage drawn
    /// off a terminal.
    fn end(&self, phase: Option<Phase>) {
        match phase {
            Some(Phase::Stage { what, started, bar }) => {
                if let Some(bar) = bar {
                    bar.finish_and_clear();
                }
                if self.lines {
                    errln!("{}", stage_line(&what, started.elapsed()));
                }
            }
            Some(Phase::Search { bar: Some(bar), .. }) => bar.finish_and_clear(),
            Some(Phase::Search { bar: None, .. }) | None => {}
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Phase>> {
        // A panic while drawing leaves nothing half-done that matters here.
        self.phase.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Prints a line above whatever is being drawn.
    fn say(&self, line: &str) {
        let guard = self.lock();
        match guard.as_ref().and_then(Phase::bar) {
            Some(bar) => bar.suspend(|| errln!("{line}")),
            None => errln!("{line}"),
        }
    }
}

/// The line written for a finished stage off a terminal.
pub fn stage_line(what: &str, took: Duration) -> String {
    format!("{what}: done in {}", format_duration(took))
}

/// The time left, in words, for indicatif's `{left}` key.
fn left(state: &ProgressState, w: &mut dyn std::fmt::Write) {
    let text = match (
        state.len(),
        eta(state.pos(), state.len().unwrap_or(0), state.elapsed()),
    ) {
        (Some(_), Some(d)) => format!("{} left", format_duration(d)),
        _ => String::new(),
    };
    let _ = w.write_str(&text);
}

/// Nodes so far, in words, for the spinner's `{nodes}` key.
fn nodes(state: &ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = write!(w, "{} nodes", format_count(state.pos()));
}

/// Nodes per second, in words, for the spinner's `{rate}` key.
fn rate(state: &ProgressState, w: &mut dyn std::fmt::Write) {
    let secs = state.elapsed().as_secs_f64();
    let per_sec = if secs > 0.0 {
        (state.pos() as f64 / secs) as u64
    } else {
        0
    };
    let _ = write!(w, "{}/s", format_count(per_sec));
}

/// The search spinner's message: depth and solutions so far.
fn search_message(depth: u32, solutions: u64) -> String {
    let s = if solutions == 1 { "" } else { "s" };
    format!("searching depth {depth}, {solutions} solution{s}")
}

impl Progress for Bars {
    fn start(&self, what: &str, total: Option<u64>) {
        let bar = self.live.then(|| {
            let bar = match total {
                Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr())
                    .with_style(
                        ProgressStyle::with_template(
                            "{msg} [{bar:30}] {percent:>3}% {elapsed} {left}",
                        )
                        .expect("static template")
                        .with_key("left", left)
                        .progress_chars("=> "),
                    ),
                None => {
                    let bar = ProgressBar::new_spinner();
                    bar.enable_steady_tick(TICK);
                    bar
                }
            };
            bar.set_message(what.to_string());
            bar
        });
        let old = self.lock().replace(Phase::Stage {
            what: what.to_string(),
            started: Instant::now(),
            bar,
        });
        self.end(old);
    }

    fn inc(&self, n: u64) {
        if let Some(bar) = self.lock().as_ref().and_then(Phase::bar) {
            bar.inc(n);
        }
    }

    fn finish(&self) {
        let old = self.lock().take();
        self.end(old);
    }

    fn warn(&self, message: &str) {
        self.say(&format!("warning: {message}"));
    }

    fn note(&self, message: &str) {
        self.say(&format!("note: {message}"));
    }

    fn searching(&self, depth: u32) {
        let bar = self.live.then(|| {
            let bar = ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template("{spinner} {msg}, {nodes}, {rate}, {elapsed}")
                    .expect("static template")
                    .with_key("nodes", nodes)
                    .with_key("rate", rate),
            );
            bar.set_message(search_message(depth, 0));
            // The glyph turns on its own, so a deep search still looks alive between
            // the workers' node reports.
            bar.enable_steady_tick(TICK);
            bar
        });
        let old = self.lock().replace(Phase::Search { depth, bar });
        self.end(old);
    }

    fn solutions(&self, total: u64) {
        if let Some(Phase::Search {
            depth,
            bar: Some(bar),
        }) = self.lock().as_ref()
        {
            bar.set_message(search_message(*depth, total));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_lines_read_as_words() {
        assert_eq!(
            stage_line(
                "pruning table 2 of 3: EDGES positions and twists, 92.9 M entries",
                Duration::from_secs(185)
            ),
            "pruning table 2 of 3: EDGES positions and twists, 92.9 M entries: done in 3 min 05 s"
        );
        assert_eq!(search_message(9, 1), "searching depth 9, 1 solution");
        assert_eq!(search_message(9, 0), "searching depth 9, 0 solutions");
    }
}
