//! The one-line summary `solve` writes to stderr after each scramble in text mode
//! (`r2: 16 moves, 1 solution, 0.41 s`), so that a long run can be followed even when
//! standard output goes to a file. `--quiet` and `--json` leave it out.

use ksolve::puzzle::{Metric, SolveSettings};
use ksolve::search::{Outcome, Status};

/// The summary of one scramble: its name, the optimal length in the scramble's metric
/// (or why there is none; with `MoveCosts` weights, `weighted`, the optimal cost), how
/// many solutions were printed and how long it took.
pub fn line(
    name: &str,
    settings: &SolveSettings,
    weighted: bool,
    outcome: &Outcome,
    printed: u64,
    seconds: f64,
    tables: f64,
) -> String {
    let what = match (outcome.status, outcome.length) {
        (Status::Solved, Some(n)) => {
            let unit = match (settings.metric, n) {
                (Metric::Htm, 1) => "move",
                (Metric::Htm, _) => "moves",
                (Metric::Qtm, 1) => "quarter turn",
                (Metric::Qtm, _) => "quarter turns",
            };
            let plural = if printed == 1 { "" } else { "s" };
            match weighted {
                // A weighted length is a cost, not a number of moves.
                true => format!("cost {n}, {printed} solution{plural}"),
                false => format!("{n} {unit}, {printed} solution{plural}"),
            }
        }
        // A solved outcome always has a length; say so plainly if it ever has not.
        (Status::Solved, None) => format!("solved, {printed} solutions"),
        (Status::MaxDepth, _) => format!("no solution within MaxDepth {}", settings.max_depth),
        (Status::Unreachable, _) => "cannot be solved".to_string(),
        (Status::LimitsUnreachable, _) => "no solution within the limits".to_string(),
        (Status::LimitsBound(d), _) => format!("no solution within the limits up to depth {d}"),
    };
    with_time(name, &what, seconds, tables)
}

/// `NAME: WHAT, TIME`, the time split when tables took some of it.
fn with_time(name: &str, what: &str, seconds: f64, tables: f64) -> String {
    // Tables built or loaded for this scramble (the first, mostly) are told apart
    // from the search, so that a slow first answer says where its time went.
    if tables >= 0.005 {
        let search = (seconds - tables).max(0.0);
        format!("{name}: {what}, {seconds:.2} s ({tables:.2} s tables, {search:.2} s search)")
    } else {
        format!("{name}: {what}, {seconds:.2} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(status: Status, length: Option<u32>) -> Outcome {
        Outcome {
            status,
            length,
            solutions: Vec::new(),
            nodes: 0,
            probes: 0,
            reduced: false,
            checks: Vec::new(),
            timed_out: false,
            symmetric: 0,
        }
    }

    #[test]
    fn lines_say_length_count_and_time() {
        let htm = SolveSettings::default();
        let qtm = SolveSettings {
            metric: Metric::Qtm,
            max_depth: 7,
            ..SolveSettings::default()
        };
        let solved = outcome(Status::Solved, Some(16));
        assert_eq!(
            line("r2", &htm, false, &solved, 1, 0.412, 0.0),
            "r2: 16 moves, 1 solution, 0.41 s"
        );
        assert_eq!(
            line("r2", &qtm, false, &solved, 3, 2.0, 0.0),
            "r2: 16 quarter turns, 3 solutions, 2.00 s"
        );
        let one = outcome(Status::Solved, Some(1));
        assert_eq!(
            line("x", &htm, false, &one, 2, 0.0, 0.0),
            "x: 1 move, 2 solutions, 0.00 s"
        );
        let deep = outcome(Status::MaxDepth, None);
        assert_eq!(
            line("x", &qtm, false, &deep, 0, 0.0, 0.0),
            "x: no solution within MaxDepth 7, 0.00 s"
        );
        let never = outcome(Status::Unreachable, None);
        assert_eq!(
            line("x", &htm, false, &never, 0, 0.0, 0.0),
            "x: cannot be solved, 0.00 s"
        );
        // Table time is told apart from the search once it counts.
        assert_eq!(
            line("r1", &htm, false, &solved, 1, 2.5, 2.0),
            "r1: 16 moves, 1 solution, 2.50 s (2.00 s tables, 0.50 s search)"
        );
        // With MoveCosts weights the length is a cost.
        assert_eq!(
            line("w", &htm, true, &solved, 2, 0.0, 0.0),
            "w: cost 16, 2 solutions, 0.00 s"
        );
    }
}
