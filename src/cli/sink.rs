//! Where one scramble's output goes while `solve` works on it: standard output in the
//! form asked for (ksolve+'s text or `--json`), or, for a shard of a batch
//! (`--out DIR`), both forms into buffers that become the scramble's record. Every
//! piece of output is written through a [`Sink`], so the two forms a shard stores are
//! byte for byte what a single run prints; and solutions go out through the
//! [`Emitter`] as the solver confirms them.

use super::output;
use ksolve::puzzle::{Auf, TurnKinds, TurnMetric};
use ksolve::puzzle::{Goal, IgnoreMask, Lengths, Metric, MoveId, Puzzle, State};
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
    /// The scramble's metric, and whether the definition weighs moves (`MoveCosts`:
    /// the text then gives each solution's moves and cost).
    pub metric: Metric,
    pub weighted: bool,
    /// The kinds of turn, for each solution's length in every metric.
    pub kinds: &'p TurnKinds,
    /// The moves and the lengths of each solution written, in order (for `--json`'s
    /// `solution_moves` and `lengths`).
    pub moves: Vec<usize>,
    pub lengths: Vec<Lengths>,
    /// Whether the text gives each solution's length in every metric (`--metrics`).
    pub show_lengths: bool,
    /// With `--sort-by`: the metric solutions are ordered by, and the solutions held
    /// until the search ends ([`Emitter::finish`] writes them).
    pub sort_by: Option<TurnMetric>,
    pub held: Vec<(Vec<MoveId>, Option<String>)>,
    /// With `--pre-auf`: each solution's turn before it is noted, and kept for
    /// `--json`'s `pre_auf`.
    pub pre_auf: bool,
    pub pre_turns: Vec<String>,
    /// With `--post-auf`: the adjusting move (solutions that merely add it to a shorter
    /// one are left out, the others say which turn they need), and the turn each
    /// solution written needs (for `--json`'s `post_auf`).
    pub auf: Option<Auf>,
    pub auf_needed: Vec<String>,
    /// With a goal: the position solved from, its `?` marks, and the name of the goal
    /// position the first solution ends in (for `--json`).
    pub goal: Option<(&'p Goal, &'p State, &'p [IgnoreMask])>,
    pub reached: Option<String>,
}

impl<'p> Emitter<'p> {
    /// An emitter to `sink` for a scramble solved in `metric`, printing nothing extra.
    pub fn new(sink: Sink, puzzle: &'p Puzzle, kinds: &'p TurnKinds, metric: Metric) -> Self {
        Emitter {
            sink,
            puzzle,
            written: 0,
            first: None,
            metric,
            weighted: puzzle.has_weights(),
            kinds,
            moves: Vec::new(),
            lengths: Vec::new(),
            show_lengths: false,
            sort_by: None,
            held: Vec::new(),
            pre_auf: false,
            pre_turns: Vec::new(),
            auf: None,
            auf_needed: Vec::new(),
            goal: None,
            reached: None,
        }
    }

    /// Takes a confirmed solution: written at once, or held for `--sort-by`.
    pub fn emit(&mut self, seq: &[MoveId]) {
        self.emit_after(seq, None);
    }

    /// Takes a confirmed solution that `--pre-auf` found after the turn `pre`.
    pub fn emit_after(&mut self, seq: &[MoveId], pre: Option<&str>) {
        if self
            .auf
            .as_ref()
            .is_some_and(|a| a.dominated(self.puzzle, seq))
        {
            return;
        }
        if let (Some((goal, start, ignore)), None) = (self.goal, &self.reached) {
            let end = self.puzzle.apply_sequence(start, seq);
            self.reached = goal
                .reached_by(self.puzzle, &end, ignore)
                .map(|i| goal.positions[i].name.clone());
        }
        match self.sort_by {
            Some(_) => self.held.push((seq.to_vec(), pre.map(str::to_string))),
            None => self.write(seq, pre),
        }
    }

    /// Writes the solutions held for `--sort-by`, shortest in its metric first (a stable
    /// sort: ties keep the search's order).
    pub fn finish(&mut self) {
        let Some(metric) = self.sort_by else {
            return;
        };
        let mut held = std::mem::take(&mut self.held);
        held.sort_by_cached_key(|(seq, _)| self.kinds.lengths(self.puzzle, seq).get(metric));
        for (seq, pre) in &held {
            self.write(seq, pre.as_deref());
        }
    }

    fn write(&mut self, seq: &[MoveId], pre: Option<&str>) {
        let lengths = self.kinds.lengths(self.puzzle, seq);
        let (puzzle, metric, weighted, written) =
            (self.puzzle, self.metric, self.weighted, self.written);
        let show = self.show_lengths || self.sort_by.is_some();
        // The turn of the adjusting move this solution still needs.
        let needed = match (&self.auf, self.goal) {
            (Some(auf), Some((goal, start, ignore))) => {
                let end = puzzle.apply_sequence(start, seq);
                let turn = goal
                    .reached_by(self.puzzle, &end, ignore)
                    .and_then(|i| auf.needed(i));
                Some(turn.unwrap_or_default().to_string())
            }
            _ => None,
        };
        let json = self.sink.json(|out| {
            let sep = if written == 0 { "" } else { "," };
            let s = serde_json::to_string(&puzzle.format_sequence(seq))?;
            write!(out, "{sep}{s}")
        });
        output::or_exit(json);
        let text = self.sink.text(|out| {
            let mut notes = Vec::new();
            if weighted {
                // Weighted moves: the cost and the move count differ, so print both.
                let cost: u32 = seq.iter().map(|&m| puzzle.move_cost(metric, m)).sum();
                let n = seq.len();
                notes.push(format!(
                    "{n} move{}, cost {cost}",
                    if n == 1 { "" } else { "s" }
                ));
            }
            if self.pre_auf {
                notes.push(match pre {
                    Some(turn) => format!("pre-AUF {turn}"),
                    None => "no pre-AUF".to_string(),
                });
            }
            if let Some(turn) = &needed {
                notes.push(match turn.is_empty() {
                    true => "no AUF".to_string(),
                    false => format!("AUF {turn}"),
                });
            }
            if show {
                let each: Vec<String> = TurnMetric::ALL
                    .iter()
                    .map(|&m| format!("{} {}", lengths.get(m), m.name()))
                    .collect();
                notes.push(each.join(", "));
            }
            match notes.is_empty() {
                true => writeln!(out, "{}", solution_line(puzzle, seq)),
                false => writeln!(
                    out,
                    "{}  ({})",
                    solution_line(puzzle, seq),
                    notes.join("; ")
                ),
            }
        });
        output::or_exit(text);
        self.moves.push(seq.len());
        if self.pre_auf {
            self.pre_turns.push(pre.unwrap_or_default().to_string());
        }
        if let Some(turn) = needed {
            self.auf_needed.push(turn);
        }
        self.lengths.push(lengths);
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
