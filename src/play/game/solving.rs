//! Solving from a session's position: the goal test and the end-of-game comparison,
//! optimal solutions shown step by step, hints and the reachability check.

use super::{plural, Session, Showing};
use crate::group::Verdict;
use crate::play::rules;
use crate::play::{PlayError, Reply};
use crate::progress::Progress;
use crate::puzzle::{Goal, MoveId, SolveSettings, State};
use crate::search::{SolveOptions, Status};
use crate::solve::{AnswerError, Origin, Position};
use std::sync::Arc;

/// The deepest end-of-game search for the optimal count that runs unasked: depth 14 takes
/// well under a second on the 3x3x3 with warm tables, depth 18 can take minutes.
const END_SEARCH_DEPTH: u32 = 14;

impl Session<'_> {
    /// Whether the position is the session's goal.
    pub(super) fn at_goal(&self) -> bool {
        self.impossible.is_none()
            && match &self.settings.goal {
                Some(g) => g.reached_by(self.puzzle, &self.state, &[]).is_some(),
                None => self.puzzle.is_solved(&self.state, &[]),
            }
    }

    /// Adds the end-of-game message to `reply` when the moves just made reached the
    /// goal.
    pub(super) fn after_moves(&mut self, mut reply: Reply) -> Reply {
        if !self.at_goal() {
            self.announced = false;
            return reply;
        }
        if self.announced || self.history.is_empty() {
            return reply;
        }
        self.announced = true;
        let metric = self.settings.metric;
        let used: u32 = self
            .history
            .iter()
            .map(|&m| self.puzzle.move_cost(metric, m))
            .sum();
        let what = match self.settings.goal {
            Some(_) => "Reached the goal",
            None => "Solved",
        };
        let mut text = format!("{what} in {used} move{}", plural(used as usize));
        if self.helped {
            text.push_str(", with the solver's help");
        }
        text.push('.');
        // The optimal count is at most the player's count and the scrambler's; a search
        // bounded by that is quick when it is small, but after a uniform scramble of a big
        // puzzle it could take hours, so beyond END_SEARCH_DEPTH the session says how to
        // ask rather than stall.
        let bound = self
            .origin
            .scramble_len
            .map_or(used, |len| used.min(len as u32));
        if self.start_optimal.is_none() && bound > END_SEARCH_DEPTH {
            text.push_str(" (`reset` then `solve` shows the optimal count from the start.)");
        } else {
            match self.optimal_from_start(bound) {
                Some(best) if best == used => text.push_str(&format!(" Optimal: {best}.")),
                Some(best) => text.push_str(&format!(
                    " The optimal solution has {best}: {} more than optimal.",
                    used - best.min(used)
                )),
                None => {}
            }
        }
        if let Some(len) = self.origin.scramble_len {
            let len = len as u32;
            let cmp = match used.cmp(&len) {
                std::cmp::Ordering::Less => format!("{} fewer than the scrambler", len - used),
                std::cmp::Ordering::Equal => "as many as the scrambler".to_string(),
                std::cmp::Ordering::Greater => format!("{} more than the scrambler", used - len),
            };
            text.push_str(&format!(" The scrambler used {len}: {cmp}."));
        }
        reply.lines.push(text);
        reply
    }

    /// The optimal cost from the game's start to the goal (searched once per game;
    /// `None` when the search cannot say).
    /// `bound` is a cost known to be reachable (the player's or the scrambler's), so the
    /// search never looks deeper.
    pub(super) fn optimal_from_start(&mut self, bound: u32) -> Option<u32> {
        if self.start_optimal.is_none() {
            let start = self.start.clone();
            let goal = self.settings.goal.clone();
            let limits = self.settings.limits.clone();
            let max_depth = self.settings.max_depth;
            self.settings.max_depth = max_depth.min(bound);
            let found = self.search(&start, goal, limits, &crate::progress::Silent);
            self.settings.max_depth = max_depth;
            self.start_optimal = found.ok().map(|s| {
                s.iter()
                    .map(|&m| self.puzzle.move_cost(self.settings.metric, m))
                    .sum()
            });
        }
        self.start_optimal
    }

    /// An optimal solution from `from` to `goal` (`None`: the definition's Solved)
    /// under `limits`, after checking that one can exist.
    pub(super) fn search(
        &mut self,
        from: &State,
        goal: Option<Arc<Goal>>,
        limits: Vec<crate::puzzle::MoveLimit>,
        progress: &dyn Progress,
    ) -> Result<Vec<MoveId>, PlayError> {
        let settings = SolveSettings {
            limits,
            goal,
            slack: 0,
            ..self.settings.clone()
        };
        let options = SolveOptions {
            count: Some(1),
            ..SolveOptions::default()
        };
        let impossible = self.impossible.as_ref().map(|(why, _)| why.clone());
        let position = Position {
            start: from,
            ignore: &[],
            origin: Origin::Given,
            impossible: impossible.as_deref(),
        };
        let mut first = None;
        let report = self
            .answerer
            .answer(&position, &settings, options, progress, &mut |_, s| {
                first.get_or_insert_with(|| s.to_vec());
            })
            .map_err(|e| match e {
                AnswerError::Search(e) => PlayError::Search(e),
                e => PlayError::Refused(e.to_string()),
            })?;
        match (report.outcome.status, report.reach.reason()) {
            (_, Some(why)) => Err(PlayError::Refused(format!(
                "this position cannot be solved: {why}"
            ))),
            (Status::Solved, None) => Ok(first.unwrap_or_default()),
            (Status::MaxDepth, None) => Err(PlayError::Refused(format!(
                "no solution within MaxDepth {}",
                settings.max_depth
            ))),
            (Status::Unreachable | Status::LimitsUnreachable, None) => Err(PlayError::Refused(
                "this position cannot be solved with the moves left".into(),
            )),
            (Status::LimitsBound(d), None) => Err(PlayError::Refused(format!(
                "no solution within the moves left up to depth {d}; they may not allow one"
            ))),
        }
    }

    /// Why `from` cannot reach `goal` with the moves left, when the group proves it
    /// cannot: the verdict `solve` and `check` make.
    pub(super) fn unsolvable(&mut self, from: &State, goal: Option<Arc<Goal>>) -> Option<String> {
        let settings = SolveSettings {
            limits: rules::remaining(self.puzzle, &self.settings.limits, &self.history),
            goal,
            ..self.settings.clone()
        };
        let impossible = self.impossible.as_ref().map(|(why, _)| why.clone());
        self.answerer
            .reachability()
            .verdict(from, &[], Origin::Given, &settings, impossible.as_deref())
            .reason()
            .map(str::to_string)
    }

    /// The group of every move (`None`: too large to build).
    pub(super) fn group(&mut self) -> Option<&crate::group::Group> {
        self.answerer.reachability().group()
    }

    /// The goal `solve PATTERN` names (`None` inside: the definition's Solved), and its
    /// name as written in the file.
    pub(super) fn pattern(&self, name: &str) -> Result<(String, Option<Arc<Goal>>), PlayError> {
        self.patterns
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .cloned()
            .ok_or_else(|| {
                let known: Vec<&str> = self.patterns.iter().map(|(n, _)| n.as_str()).collect();
                PlayError::Refused(format!(
                    "unknown goal `{name}`: expected one of {} (goals come from the scramble \
                     file's `Goal` and `GoalAlg` blocks)",
                    known.join(", ")
                ))
            })
    }

    pub(super) fn solve(
        &mut self,
        pattern: Option<&str>,
        progress: &dyn Progress,
    ) -> Result<Reply, PlayError> {
        let (label, goal) = match pattern {
            Some(p) => {
                let (name, goal) = self.pattern(p)?;
                (Some(name), goal)
            }
            None => (None, self.settings.goal.clone()),
        };
        let limits = rules::remaining(self.puzzle, &self.settings.limits, &self.history);
        let state = self.state.clone();
        let moves = self.search(&state, goal, limits, progress)?;
        let to = label.as_deref().unwrap_or("the goal");
        if moves.is_empty() {
            return Ok(Reply::say(format!("This position is {to} already.")));
        }
        let n = moves.len();
        let reply = Reply {
            lines: vec![
                format!(
                    "An optimal solution to {to}: {} ({n} move{}).",
                    self.puzzle.format_sequence(&moves),
                    plural(n)
                ),
                "Enter for the next move, `go` for the rest, any other command to stop."
                    .to_string(),
            ],
            ..Reply::default()
        };
        self.showing = Some(Showing {
            moves,
            next: 0,
            pattern: label,
        });
        Ok(reply.drawn())
    }

    /// Makes up to `count` more moves of the solution being shown.
    pub(super) fn step(&mut self, count: usize) -> Result<Reply, PlayError> {
        let Some(mut showing) = self.showing.take() else {
            return Ok(Reply::default());
        };
        let end = showing.moves.len().min(showing.next.saturating_add(count));
        let moves = showing.moves[showing.next..end].to_vec();
        self.play(&moves, None)?;
        self.helped = true;
        let mut reply = Reply::default();
        for (i, &m) in moves.iter().enumerate() {
            reply.lines.push(format!(
                "Step {} of {}: {}",
                showing.next + i + 1,
                showing.moves.len(),
                self.puzzle.mv(m).name
            ));
        }
        showing.next = end;
        let done = end == showing.moves.len();
        if done {
            if let Some(p) = &showing.pattern {
                reply.lines.push(format!("Reached {p}."));
            }
        } else {
            self.showing = Some(showing);
        }
        Ok(self.after_moves(reply).drawn())
    }

    pub(super) fn hint(&mut self, progress: &dyn Progress) -> Result<Reply, PlayError> {
        let limits = rules::remaining(self.puzzle, &self.settings.limits, &self.history);
        let state = self.state.clone();
        let goal = self.settings.goal.clone();
        let moves = self.search(&state, goal, limits, progress)?;
        Ok(match moves.first() {
            None => Reply::say("This position is the goal already."),
            Some(&m) => Reply::say(format!(
                "Hint: {} (an optimal solution has {} move{}).",
                self.puzzle.mv(m).name,
                moves.len(),
                plural(moves.len())
            )),
        })
    }

    pub(super) fn check(&mut self) -> Result<Reply, PlayError> {
        if let Some((why, _)) = &self.impossible {
            return Ok(Reply::say(format!("Impossible: {why}.")));
        }
        let state = self.state.clone();
        let goal = self.settings.goal.clone();
        if let Some(why) = self.unsolvable(&state, goal) {
            return Ok(Reply::say(format!("Unreachable: {why}.")));
        }
        let guarded = self.puzzle.has_guards();
        let blocks = !self.puzzle.blocks.is_empty();
        let text = match (self.group(), guarded) {
            (None, _) => "Cannot tell: the puzzle is too large for the group check.".to_string(),
            (Some(_), true) => "The group finds nothing against it, and every position made \
                                by legal moves can be solved (the group ignores `When` guards)."
                .to_string(),
            (Some(g), false) => match g.check(&state) {
                Verdict::Unknown(s) => format!("Cannot tell: {s}."),
                _ if blocks => "The group finds nothing against it \
                     (with Blocks the group cannot tell more)."
                    .to_string(),
                _ => "Reachable: this position can be solved.".to_string(),
            },
        };
        Ok(Reply::say(text))
    }
}
