//! Answering positions: the room that decides how each position is answered and
//! reports what it did. Every front end (`solve`, `check`, `play`, `stats`, a batch's
//! shards) goes through it, so they agree on what can be reached and on what an answer
//! says.
//!
//! The main types:
//! - [`Answerer`] holds a puzzle's solver, its reachability checks and an optional
//!   distance table, and answers one position at a time ([`Answerer::answer`]), streaming
//!   solutions and returning a [`Report`]: the verdict, the method used, the outcome,
//!   and the time spent on tables apart from the time spent searching.
//! - [`Reachability`] is the one reachability verdict ([`Reach`]).
//! - [`Starts`] turns a scramble into the position to answer (drawing random ones).
//! - [`Status`] is an answer's status as `--json` and a batch's records write it.
//!
//! ```no_run
//! use ksolve::solve::{Answerer, Origin, Position};
//! # fn demo(puzzle: &ksolve::puzzle::Puzzle, tables: ksolve::table::Tables) {
//! let mut answerer = Answerer::new(puzzle, tables);
//! let start = puzzle.solved.clone();
//! let position = Position { start: &start, ignore: &[], origin: Origin::Made, impossible: None };
//! let settings = ksolve::puzzle::SolveSettings::default();
//! let report = answerer
//!     .answer(&position, &settings, Default::default(), &ksolve::progress::Silent, &mut |_, _| {})
//!     .unwrap();
//! assert_eq!(report.outcome.length, Some(0));
//! # }
//! ```

mod answer;
mod narrow;
mod pre_auf;
pub mod reach;
mod start;
mod step;

pub use answer::{AnswerError, Answerer, Method, Position, Report};
pub use narrow::{narrow, Narrowed};
pub use pre_auf::answer_pre_auf;
pub use reach::{Origin, Reach, ReachStatus, Reachability};
pub use start::{Start, Starts};
pub use step::{classes_refused, step, Step};

/// How the answer to one position ended, as `--json` and a batch's records write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// At least one solution.
    Solved,
    /// None within the limits in force (`MaxDepth`, or depths the move limits bound).
    NoSolution,
    /// The position cannot reach the goal.
    Unreachable,
}

impl Status {
    /// The status as written in JSON (`solved`, `no_solution`, `unreachable`).
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::NoSolution => "no_solution",
            Status::Unreachable => "unreachable",
        }
    }
}

impl From<crate::search::Status> for Status {
    fn from(s: crate::search::Status) -> Status {
        use crate::search::Status as S;
        match s {
            S::Solved => Status::Solved,
            S::MaxDepth | S::LimitsBound(_) => Status::NoSolution,
            S::Unreachable | S::LimitsUnreachable => Status::Unreachable,
        }
    }
}
