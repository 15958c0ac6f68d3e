//! Where one scramble's output goes while `solve` works on it: standard output in the
//! form asked for (ksolve+'s text or `--json`), or, for a shard of a batch
//! (`--out DIR`), both forms into buffers that become the scramble's record. Every
//! piece of output is written through a [`Sink`], so the two forms a shard stores are
//! byte for byte what a single run prints; and solutions go out through the
//! [`Emitter`] as the solver confirms them.

use super::output;
use ksolve::puzzle::{Goal, IgnoreMask, Metric, MoveId, Puzzle, State};
use std::io::{self, Write};

/// The destination of a scramble's output.
pub enum Sink {
    /// Standard output, in text or (when `json`) as the JSON object.
    Stdout { json: bool },
    /// Both forms, kept for a shard record.
    Record { text: Vec<u8>, json: Vec<u8> },
}

impl Sink {
    /// Writes ksolve+'s text form, when it is wanted.
    pub fn text(&mut self, f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        match self {
            // Standard output is locked per write, never across a search: solutions are
            // written from the search's threads.
            Sink::Stdout { json: false } => {
                let mut out = output::stdout();
                f(&mut out)?;
                out.flush()
            }
            Sink::Stdout { json: true } => Ok(()),
            Sink::Record { text, .. } => f(text),
        }
    }

    /// Writes a piece of the `--json` object, when it is wanted.
    pub fn json(&mut self, f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        match self {
            Sink::Stdout { json: true } => {
                let mut out = output::stdout();
                f(&mut out)?;
                out.flush()
            }
            Sink::Stdout { json: false } => Ok(()),
            Sink::Record { json, .. } => f(json),
        }
    }
}

/// Writes solutions as they are confirmed: ksolve+'s indented lines, or the elements of
/// the `--json` object's `solutions` array. It is called from the solver's callback,
/// which cannot return an error, so a failed write ends the process there rather than
/// letting the search run on for minutes with nobody reading.
pub struct Emitter<'p> {
    pub sink: Sink,
    pub puzzle: &'p Puzzle,
    pub written: u64,
    /// The first solution, kept for `--steps`.
    pub first: Option<Vec<MoveId>>,
    /// The scramble's metric, and with `MoveCosts` weights the moves of each solution
    /// written (for `--json`'s `solution_moves`).
    pub metric: Metric,
    pub moves: Option<Vec<usize>>,
    /// With a goal: the position solved from, its `?` marks, and the name of the goal
    /// position the first solution ends in (for `--json`).
    pub goal: Option<(&'p Goal, &'p State, &'p [IgnoreMask])>,
    pub reached: Option<String>,
}

impl Emitter<'_> {
    pub fn emit(&mut self, seq: &[MoveId]) {
        if let (Some((goal, start, ignore)), None) = (self.goal, &self.reached) {
            let end = self.puzzle.apply_sequence(start, seq);
            self.reached = goal
                .reached_by(&end, ignore)
                .map(|i| goal.positions[i].name.clone());
        }
        let (puzzle, metric, weighted, written) =
            (self.puzzle, self.metric, self.moves.is_some(), self.written);
        let json = self.sink.json(|out| {
            let sep = if written == 0 { "" } else { "," };
            let s = serde_json::to_string(&puzzle.format_sequence(seq))?;
            write!(out, "{sep}{s}")
        });
        output::or_exit(json);
        let text = self.sink.text(|out| {
            if weighted {
                // Weighted moves: the cost and the move count differ, so print both.
                let cost: u32 = seq.iter().map(|&m| puzzle.move_cost(metric, m)).sum();
                let n = seq.len();
                writeln!(
                    out,
                    "{}  ({n} move{}, cost {cost})",
                    solution_line(puzzle, seq),
                    if n == 1 { "" } else { "s" }
                )
            } else {
                writeln!(out, "{}", solution_line(puzzle, seq))
            }
        });
        output::or_exit(text);
        if let Some(moves) = &mut self.moves {
            moves.push(seq.len());
        }
        self.written += 1;
        if self.first.is_none() {
            self.first = Some(seq.to_vec());
        }
    }
}

/// A solution as ksolve+ prints it: two spaces, then the moves; the empty solution is a
/// single space.
fn solution_line(puzzle: &Puzzle, seq: &[MoveId]) -> String {
    if seq.is_empty() {
        " ".to_string()
    } else {
        format!("  {}", puzzle.format_sequence(seq))
    }
}
