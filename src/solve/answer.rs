//! [`Answerer`]: one position in, one [`Report`] out. It asks the one reachability
//! verdict first ([`Reachability`]), answers from the distance table when one is open
//! and can answer what is asked, and searches otherwise; solutions are handed out as
//! they are confirmed.

use super::reach::{Origin, Reach, Reachability};
use super::Status;
use crate::gods::database::{self, Database};
use crate::progress::Progress;
use crate::puzzle::{IgnoreMask, MoveId, Puzzle, SolveSettings, State};
use crate::search::{Outcome, SearchError, SolveOptions, Solver};

/// Why a position could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error("distance table: {0}")]
    Database(#[from] database::DatabaseError),
}
use crate::table::Tables;
use std::time::{Duration, Instant};

/// One position to answer.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The position.
    pub start: &'a State,
    /// What the position leaves free (`?` marks), per set; empty for none.
    pub ignore: &'a [IgnoreMask],
    /// Whether it was typed or made by moves (what the verdict must check).
    pub origin: Origin,
    /// Why a position typed as colours is none at all.
    pub impossible: Option<&'a str>,
}

/// How a position was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Not at all: the verdict says it cannot be reached.
    Refused,
    /// By stepping down the distance table.
    Database,
    /// By the optimal search.
    Search,
}

/// What answering one position did and found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The reachability verdict, made before anything else.
    pub reach: Reach,
    /// How it was answered.
    pub method: Method,
    /// Why the open distance table could not answer it (it was then searched).
    pub database_refused: Option<String>,
    /// The search's (or the table's) outcome; its solutions were streamed, not kept.
    pub outcome: Outcome,
    /// The answer's status.
    pub status: Status,
    /// Time spent building or loading tables (and the groups they need) for this
    /// position.
    pub tables: Duration,
    /// The whole time of this answer, tables included.
    pub total: Duration,
}

/// Answers positions of one puzzle, keeping its tables and groups between them.
pub struct Answerer<'p> {
    solver: Solver<'p>,
    reach: Reachability<'p>,
    database: Option<Database>,
}

impl<'p> Answerer<'p> {
    /// An answerer for `puzzle` that builds or loads its tables in `tables`.
    pub fn new(puzzle: &'p Puzzle, tables: Tables) -> Answerer<'p> {
        Answerer {
            solver: Solver::new(puzzle, tables),
            reach: Reachability::new(puzzle),
            database: None,
        }
    }

    /// Uses `reach` for the verdicts (a group already built, or another name for what
    /// limits the moves).
    pub fn with_reachability(mut self, reach: Reachability<'p>) -> Self {
        self.reach = reach;
        self
    }

    /// Answers from `db` what it can answer.
    pub fn with_database(mut self, db: Option<Database>) -> Self {
        self.database = db;
        self
    }

    /// The solver, for what only it knows (its plan, its tables).
    pub fn solver(&mut self) -> &mut Solver<'p> {
        &mut self.solver
    }

    /// The distance table answers come from, when one is open.
    pub fn database(&self) -> Option<&Database> {
        self.database.as_ref()
    }

    /// The reachability checks.
    pub fn reachability(&mut self) -> &mut Reachability<'p> {
        &mut self.reach
    }

    /// Answers `position` under `settings`: the verdict first, then the distance table
    /// or the search. Each solution goes to `on_solution` with its cost as soon as it is
    /// confirmed (replayed), shortest first and in ksolve+'s order within a length.
    pub fn answer(
        &mut self,
        position: &Position<'_>,
        settings: &SolveSettings,
        options: SolveOptions,
        progress: &dyn Progress,
        on_solution: &mut (dyn FnMut(u32, &[MoveId]) + Send),
    ) -> Result<Report, AnswerError> {
        let timer = Instant::now();
        let reach = self.reach.verdict(
            position.start,
            position.ignore,
            position.origin,
            settings,
            position.impossible,
        );
        // The groups behind the verdict are built once, like tables.
        let mut tables = timer.elapsed();
        if let Reach::Unreachable(_) = reach {
            let outcome = Outcome::unreachable();
            return Ok(Report {
                reach,
                method: Method::Refused,
                database_refused: None,
                status: Status::Unreachable,
                outcome,
                tables,
                total: timer.elapsed(),
            });
        }
        let mut database_refused = None;
        if let Some(db) = &self.database {
            let puzzle = self.solver.puzzle();
            match database::solve_scramble(db, puzzle, position.start, position.ignore, settings) {
                Some(answer) => {
                    let outcome = from_answer(answer?);
                    if let (Some(moves), Some(cost)) = (outcome.solutions.first(), outcome.length) {
                        on_solution(cost, moves);
                    }
                    return Ok(Report {
                        reach,
                        method: Method::Database,
                        database_refused: None,
                        status: outcome.status.into(),
                        outcome: Outcome {
                            solutions: Vec::new(),
                            ..outcome
                        },
                        tables,
                        total: timer.elapsed(),
                    });
                }
                None => {
                    database_refused = Some(if settings.goal.is_some() {
                        "the distance table holds distances to the definition's Solved \
                         state, not to the scramble file's goal"
                            .to_string()
                    } else {
                        format!(
                            "the distance table answers only whole positions in {}, with no \
                             Slack, MoveCosts or MoveLimits",
                            db.metric().name().to_uppercase()
                        )
                    })
                }
            }
        }
        let before = self.solver.table_time();
        let outcome = self.solver.solve_each(
            position.start,
            position.ignore,
            settings,
            options,
            progress,
            on_solution,
        )?;
        tables += self.solver.table_time() - before;
        Ok(Report {
            reach,
            method: Method::Search,
            database_refused,
            status: outcome.status.into(),
            outcome,
            tables,
            total: timer.elapsed(),
        })
    }
}

/// The distance table's answer as an outcome: one solution, found without a search, so
/// its `nodes` are the moves read off the table.
fn from_answer(a: database::Answer) -> Outcome {
    use crate::search::Status as S;
    let (status, length, solutions) = match a {
        database::Answer::Solved { cost, moves } => (S::Solved, Some(cost), vec![moves]),
        database::Answer::MaxDepth => (S::MaxDepth, None, Vec::new()),
        database::Answer::Unreachable => (S::Unreachable, None, Vec::new()),
    };
    Outcome {
        status,
        length,
        nodes: solutions.first().map_or(0, |s| s.len() as u64),
        solutions,
        ..Outcome::unreachable()
    }
}
