//! `--pre-auf`: a case solved from each turn of a face before the algorithm, as
//! algorithm hunters list a last-layer case's algorithms whatever the top layer's angle.
//! Each variant ([`Auf::variants`]) is answered in turn; the solutions are merged: up to
//! the best variant's optimum plus the slack, none that starts with a turn of the face
//! (the rest solves another variant in fewer moves), each algorithm once, shortest
//! first and then by the turn before it.

use super::{AnswerError, Answerer, Position, Report, Status};
use crate::progress::Progress;
use crate::puzzle::{Auf, MoveId, SolveSettings};
use crate::search::SolveOptions;

/// Where each kept solution goes: its cost, its moves and the turn before it.
pub type PreAufSink<'a> = dyn FnMut(u32, &[MoveId], Option<&str>) + 'a;

/// Answers `position` from every turn of `auf` before it, handing each solution kept to
/// `on_solution` with its cost and the turn before it (`None` for none), and returns
/// one report for them all: the best variant's length, every variant's nodes and time.
pub fn answer_pre_auf(
    answerer: &mut Answerer,
    position: &Position<'_>,
    settings: &SolveSettings,
    options: SolveOptions,
    progress: &dyn Progress,
    auf: &Auf,
    on_solution: &mut PreAufSink<'_>,
) -> Result<Report, AnswerError> {
    let puzzle = answerer.solver().puzzle();
    let mut found: Vec<(u32, usize, Vec<MoveId>)> = Vec::new();
    let mut reports: Vec<Report> = Vec::new();
    for (j, start) in auf.variants(puzzle, position.start).iter().enumerate() {
        let variant = Position { start, ..*position };
        let mut mine = Vec::new();
        let report = answerer.answer(&variant, settings, options, progress, &mut |c, s| {
            mine.push((c, j, s.to_vec()));
        })?;
        found.extend(mine);
        reports.push(report);
    }
    let best = reports
        .iter()
        .filter(|r| r.status == Status::Solved)
        .filter_map(|r| r.outcome.length)
        .min();
    let mut kept: Vec<(u32, usize, Vec<MoveId>)> = match best {
        Some(best) => found
            .into_iter()
            .filter(|(c, _, s)| {
                *c <= best.saturating_add(settings.slack) && !auf.pre_dominated(puzzle, s)
            })
            .collect(),
        None => Vec::new(),
    };
    // Shortest first, then by the turn before; the search's order within both.
    kept.sort_by_key(|(c, j, _)| (*c, *j));
    let mut seen = std::collections::HashSet::new();
    kept.retain(|(_, _, s)| seen.insert(s.clone()));
    for (c, j, s) in &kept {
        on_solution(*c, s, auf.before(*j));
    }
    // One report: the variant that solved best (else the case itself), with every
    // variant's nodes and time.
    let nodes: u64 = reports.iter().map(|r| r.outcome.nodes).sum();
    let tables = reports.iter().map(|r| r.tables).sum();
    let total = reports.iter().map(|r| r.total).sum();
    let lead = reports
        .iter()
        .position(|r| r.status == Status::Solved && r.outcome.length == best)
        .unwrap_or(0);
    let mut report = reports.swap_remove(lead);
    report.outcome.nodes = nodes;
    report.outcome.solutions = kept.into_iter().map(|(_, _, s)| s).collect();
    report.tables = tables;
    report.total = total;
    Ok(report)
}
