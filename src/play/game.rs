//! The session state machine: the position, the moves made since the game started,
//! the solution being shown, the macros, and the commands that change them.

use super::command::{self, Command, HELP, WORDS};
use super::macros::{self, Defined, Macros, MAX_MACRO_MOVES};
use super::rules::{self, Allowance};
use super::{PlayError, Reply};
use crate::alg::{self, inverse_sequence, AlgLine, MoveNames};
use crate::def::{DefError, ErrorKind};
use crate::group::goal::{GoalGroups, GoalVerdict};
use crate::group::{Group, Verdict};
use crate::progress::Progress;
use crate::puzzle::{Goal, MoveId, Puzzle, Scramble, ScrambleSource, SolveSettings, State};
use crate::rng::Rng;
use crate::search::random::{random_position, random_state, WALK_STEPS};
use crate::search::{SolveOptions, Solver, Status};
use crate::sticker::read::{self, Reading};
use crate::table::Tables;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A solution being shown move by move.
struct Showing {
    moves: Vec<MoveId>,
    next: usize,
    /// What it solves to: `None` for the session's goal, else a pattern's name.
    pattern: Option<String>,
}

/// How the game's start position was made, for `answer` and the comparison at the end.
#[derive(Default)]
struct Origin {
    /// Moves the scrambler made (a level scramble, a `ScrambleAlg`).
    scramble_len: Option<usize>,
    /// The moves that undo the scramble, when known.
    answer: Option<Vec<MoveId>>,
    /// Why there is no answer, when there is none.
    no_answer: &'static str,
}

/// One play session on one puzzle.
pub struct Session<'p> {
    puzzle: &'p Puzzle,
    names: MoveNames<'p>,
    solver: Solver<'p>,
    group: Option<Group>,
    goal_groups: GoalGroups,
    /// The settings in force: the scramble file's first scramble's, or those of the
    /// scramble loaded last (its move limits and goal).
    settings: SolveSettings,
    scrambles: Vec<Scramble>,
    /// Named goals (`solve PATTERN`): the scramble file's goal positions by name, and
    /// `solved` for the definition's `Solved` state (`None`).
    patterns: Vec<(String, Option<Arc<Goal>>)>,
    start: State,
    history: Vec<MoveId>,
    state: State,
    /// An entered colouring that is no position of the puzzle: why, and its letters.
    impossible: Option<(String, Vec<char>)>,
    origin: Origin,
    /// The optimal cost from `start` to the goal, once computed.
    start_optimal: Option<u32>,
    /// Some move of this game came from `solve`.
    helped: bool,
    /// The goal was reached and said so; not again until it is left.
    announced: bool,
    showing: Option<Showing>,
    macros: Macros,
    macro_path: Option<PathBuf>,
    def_name: String,
    rng: Rng,
    started: Instant,
}

/// What a session starts from.
pub struct Setup<'p> {
    pub puzzle: &'p Puzzle,
    /// The definition's file name, for messages and the macro file's comment.
    pub def_name: String,
    pub scrambles: Vec<Scramble>,
    pub tables: Tables,
    /// Seed of the random scrambles (`None`: from entropy).
    pub seed: Option<u64>,
    /// Where macros are loaded from at the start and saved to (`None`: no file).
    pub macro_path: Option<PathBuf>,
}

impl<'p> Session<'p> {
    /// A session at the definition's solved state (or the scramble file's goal), with
    /// the macros of `setup.macro_path` when that file exists.
    pub fn new(setup: Setup<'p>) -> Result<Session<'p>, PlayError> {
        let puzzle = setup.puzzle;
        let settings = setup
            .scrambles
            .first()
            .map(|s| s.settings.clone())
            .unwrap_or_default();
        let mut patterns: Vec<(String, Option<Arc<Goal>>)> = vec![("solved".into(), None)];
        for s in &setup.scrambles {
            let Some(goal) = &s.settings.goal else {
                continue;
            };
            for p in &goal.positions {
                if let Some((_, Some(g))) = patterns.iter_mut().find(|(n, _)| *n == p.name) {
                    if !g.positions.contains(p) {
                        Arc::make_mut(g).positions.push(p.clone());
                    }
                } else if !patterns.iter().any(|(n, _)| *n == p.name) {
                    let one = Goal {
                        positions: vec![p.clone()],
                    };
                    patterns.push((p.name.clone(), Some(Arc::new(one))));
                }
            }
        }
        // A game starts at the definition's solved state even when the scramble file
        // sets another goal, so that `solve` shows the way to it.
        let start = puzzle.solved.clone();
        let mut session = Session {
            puzzle,
            names: MoveNames::new(puzzle),
            solver: Solver::new(puzzle, setup.tables),
            group: Group::new(puzzle).ok(),
            goal_groups: GoalGroups::default(),
            settings,
            scrambles: setup.scrambles,
            patterns,
            state: start.clone(),
            start,
            history: Vec::new(),
            impossible: None,
            origin: Origin {
                no_answer: "nothing has been scrambled",
                ..Origin::default()
            },
            start_optimal: None,
            helped: false,
            announced: false,
            showing: None,
            macros: Macros::default(),
            macro_path: setup.macro_path,
            def_name: setup.def_name,
            rng: setup.seed.map_or_else(Rng::from_entropy, Rng::new),
            started: Instant::now(),
        };
        session.announced = session.at_goal();
        session.load_macros()?;
        Ok(session)
    }

    /// The position now.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The letters of an entered colouring that is no position, to draw instead of
    /// [`Session::state`].
    pub fn entered_letters(&self) -> Option<&[char]> {
        self.impossible.as_ref().map(|(_, l)| &l[..])
    }

    /// Time since the game started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The macros, in the order defined (for completion).
    pub fn macros(&self) -> &Macros {
        &self.macros
    }

    /// Names a front end may complete: the moves, the macros and the command words.
    pub fn completions(&self) -> Vec<String> {
        let mut out: Vec<String> = self.puzzle.moves.iter().map(|m| m.name.clone()).collect();
        out.extend(self.macros.iter().map(|m| m.name.clone()));
        out.extend(WORDS.iter().map(|w| w.to_string()));
        out
    }

    /// The move limits in force, with what is left of each.
    pub fn allowances(&self) -> Vec<Allowance> {
        rules::allowances(self.puzzle, &self.settings.limits, &self.history)
    }

    /// The status lines drawn under the position: the move count, the limits and the
    /// solution being shown.
    pub fn status(&self) -> Vec<String> {
        let n = self.history.len();
        let mut out = vec![format!("Moves: {n}")];
        for a in self.allowances() {
            out.push(format!(
                "Limit on {}: {} of {} left",
                a.names,
                a.left(),
                a.max
            ));
        }
        if let Some(s) = &self.showing {
            out.push(format!(
                "Solution: {} of {} moves made; Enter for the next, `go` for the rest",
                s.next,
                s.moves.len()
            ));
        }
        out
    }

    /// Runs one line of input; `file` and `line_no` locate errors in it.
    pub fn command(
        &mut self,
        line: &str,
        file: &str,
        line_no: usize,
        progress: &dyn Progress,
    ) -> Result<Reply, PlayError> {
        let cmd = command::parse(line)?;
        // Anything but the next step ends the showing of a solution.
        if !matches!(cmd, Command::Empty | Command::Go | Command::Help) {
            self.showing = None;
        }
        match cmd {
            Command::Empty => self.step(1),
            Command::Go => {
                if self.showing.is_none() {
                    return Err(PlayError::Refused(
                        "no solution is being shown: `solve` first".into(),
                    ));
                }
                self.step(usize::MAX)
            }
            Command::Moves(text) => {
                let (moves, cols) = self.parse_moves(file, line_no, &text, 1)?;
                self.play(&moves, Some((file, line_no, &text, &cols)))?;
                Ok(self.after_moves(Reply::default()).drawn())
            }
            Command::Undo => match self.history.pop() {
                Some(m) => {
                    self.state = self.puzzle.apply_sequence(&self.start, &self.history);
                    self.announced = self.at_goal();
                    Ok(Reply::say(format!("Took back {}.", self.puzzle.mv(m).name)).drawn())
                }
                None => Err(PlayError::Refused("no move to take back".into())),
            },
            Command::Reset => {
                self.history.clear();
                self.state = self.start.clone();
                self.announced = self.at_goal();
                self.helped = false;
                self.started = Instant::now();
                Ok(Reply::say("Back to the start of this game.").drawn())
            }
            Command::Scramble(n) => self.scramble(n),
            Command::Solve(pattern) => self.solve(pattern.as_deref(), progress),
            Command::Hint => self.hint(progress),
            Command::Check => self.check(),
            Command::Answer => Ok(match &self.origin.answer {
                Some(a) => Reply::say(format!(
                    "The scrambler's answer: {} ({} move{}).",
                    self.puzzle.format_sequence(a),
                    a.len(),
                    plural(a.len())
                )),
                None => Reply::say(format!("No answer is known: {}.", self.origin.no_answer)),
            }),
            Command::Load(name) => self.load(&name),
            Command::Enter(letters) => self.enter(&letters),
            Command::Def { name, moves_at } => self.define(&name, moves_at, line, file, line_no),
            Command::List => Ok(self.list()),
            Command::Forget(name) => self.forget(&name),
            Command::Save => self.save(),
            Command::Help => Ok(Reply {
                lines: HELP.lines().map(str::to_string).collect(),
                ..Reply::default()
            }),
            Command::Quit => Ok(Reply {
                quit: true,
                ..Reply::default()
            }),
        }
    }

    /// Parses the moves of `line` from column `from` on (macros substituted), as the
    /// moves they stand for. Errors point into `line` as typed.
    fn parse_moves(
        &self,
        file: &str,
        line_no: usize,
        line: &str,
        from: usize,
    ) -> Result<(Vec<MoveId>, Vec<usize>), PlayError> {
        // What comes before the moves (`def NAME`) is blanked, so columns stay those of
        // the line as typed.
        let masked: String = line
            .chars()
            .enumerate()
            .map(|(i, c)| if i + 1 < from { ' ' } else { c })
            .collect();
        let names = &self.names;
        let (text, cols) = match self
            .macros
            .substitute(self.puzzle, &masked, |w| names.get(w).is_some())
        {
            Some((t, c)) => (t, Some(c)),
            None => (masked, None),
        };
        let lines = [AlgLine {
            no: line_no,
            text: &text,
        }];
        let fix = |mut e: DefError| {
            if let Some(cols) = &cols {
                e.col = cols
                    .get(e.col.saturating_sub(1))
                    .copied()
                    .unwrap_or(line.chars().count() + 1);
            }
            e.text = line.to_string();
            e
        };
        let parsed = alg::parse(file, &lines, names).map_err(fix)?;
        let mut moves = Vec::with_capacity(parsed.len(false) as usize);
        let mut at = Vec::with_capacity(moves.capacity());
        let _ = parsed.expand::<()>(self.puzzle, false, &mut |m, pos| {
            moves.push(m);
            let col = pos.col as usize;
            at.push(match &cols {
                Some(cols) => cols.get(col.saturating_sub(1)).copied().unwrap_or(col),
                None => col,
            });
            Ok(())
        });
        Ok((moves, at))
    }

    /// Makes `moves` from the position now, all or none: each must be allowed there by
    /// the `Block`s and guards, and within the move limits. `at` locates errors.
    fn play(
        &mut self,
        moves: &[MoveId],
        at: Option<(&str, usize, &str, &[usize])>,
    ) -> Result<(), PlayError> {
        if let Some((why, _)) = &self.impossible {
            return Err(PlayError::Refused(format!(
                "the position entered is impossible: {why}; enter another, load or scramble"
            )));
        }
        let mut state = self.state.clone();
        let mut history = self.history.clone();
        for (k, &m) in moves.iter().enumerate() {
            let why = if !self.puzzle.block_allows(&state, m) {
                let what = if self.puzzle.guard_allows(&state, m) {
                    "it would split a Block"
                } else {
                    "its `When` condition does not hold here"
                };
                Some(format!(
                    "move `{}` is blocked here: {what}",
                    self.puzzle.mv(m).name
                ))
            } else {
                rules::refusal(self.puzzle, &self.settings.limits, &history, m)
            };
            if let Some(why) = why {
                return Err(match at {
                    Some((file, no, text, cols)) => {
                        let col = cols.get(k).copied().unwrap_or(1);
                        PlayError::Moves(DefError::new(
                            file,
                            no,
                            col,
                            text,
                            ErrorKind::Invalid(format!("{why}; no move of this line was made")),
                        ))
                    }
                    None => PlayError::Refused(why),
                });
            }
            state = state.then(&self.puzzle.mv(m).effect, &self.puzzle.sets);
            history.push(m);
        }
        self.state = state;
        self.history = history;
        Ok(())
    }

    /// Whether the position is the session's goal.
    fn at_goal(&self) -> bool {
        self.impossible.is_none()
            && match &self.settings.goal {
                Some(g) => g.reached_by(&self.state, &[]).is_some(),
                None => self.puzzle.is_solved(&self.state, &[]),
            }
    }

    /// Adds the end-of-game message to `reply` when the moves just made reached the
    /// goal.
    fn after_moves(&mut self, mut reply: Reply) -> Reply {
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
        match self.optimal_from_start() {
            Some(best) if best == used => text.push_str(&format!(" Optimal: {best}.")),
            Some(best) => text.push_str(&format!(
                " The optimal solution has {best}: {} more than optimal.",
                used - best.min(used)
            )),
            None => {}
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
    fn optimal_from_start(&mut self) -> Option<u32> {
        if self.start_optimal.is_none() {
            let start = self.start.clone();
            let goal = self.settings.goal.clone();
            let limits = self.settings.limits.clone();
            self.start_optimal = self
                .search(&start, goal, limits, &crate::progress::Silent)
                .ok()
                .map(|s| {
                    s.iter()
                        .map(|&m| self.puzzle.move_cost(self.settings.metric, m))
                        .sum()
                });
        }
        self.start_optimal
    }

    /// An optimal solution from `from` to `goal` (`None`: the definition's Solved)
    /// under `limits`, after checking that one can exist.
    fn search(
        &mut self,
        from: &State,
        goal: Option<Arc<Goal>>,
        limits: Vec<crate::puzzle::MoveLimit>,
        progress: &dyn Progress,
    ) -> Result<Vec<MoveId>, PlayError> {
        if let Some(why) = self.unsolvable(from, goal.as_deref()) {
            return Err(PlayError::Refused(format!(
                "this position cannot be solved: {why}"
            )));
        }
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
        let outcome = self
            .solver
            .solve(from, &[], &settings, options, progress, |_, _| {})?;
        match outcome.status {
            Status::Solved => Ok(outcome.solutions.into_iter().next().unwrap_or_default()),
            Status::MaxDepth => Err(PlayError::Refused(format!(
                "no solution within MaxDepth {}",
                settings.max_depth
            ))),
            Status::Unreachable => Err(PlayError::Refused(
                "this position cannot be solved with the moves left".into(),
            )),
        }
    }

    /// Why `from` cannot reach `goal`, when the group proves it cannot.
    fn unsolvable(&mut self, from: &State, goal: Option<&Goal>) -> Option<String> {
        if let Some((why, _)) = &self.impossible {
            return Some(why.clone());
        }
        self.group.as_ref()?;
        match goal {
            Some(g) => match self.goal_groups.verdict(self.puzzle, g, from, &[], None) {
                GoalVerdict::Unreachable(r) => Some(r),
                _ => None,
            },
            None => match self.group.as_ref()?.check(from) {
                Verdict::Unreachable(r) => Some(r.to_string()),
                _ => None,
            },
        }
    }

    /// The goal `solve PATTERN` names (`None` inside: the definition's Solved), and its
    /// name as written in the file.
    fn pattern(&self, name: &str) -> Result<(String, Option<Arc<Goal>>), PlayError> {
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

    fn solve(
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
    fn step(&mut self, count: usize) -> Result<Reply, PlayError> {
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

    fn hint(&mut self, progress: &dyn Progress) -> Result<Reply, PlayError> {
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

    fn check(&mut self) -> Result<Reply, PlayError> {
        if let Some((why, _)) = &self.impossible {
            return Ok(Reply::say(format!("Impossible: {why}.")));
        }
        let state = self.state.clone();
        let goal = self.settings.goal.clone();
        if let Some(why) = self.unsolvable(&state, goal.as_deref()) {
            return Ok(Reply::say(format!("Unreachable: {why}.")));
        }
        let text = match (&self.group, self.puzzle.has_guards()) {
            (None, _) => "Cannot tell: the puzzle is too large for the group check.".to_string(),
            (Some(_), true) => "The group finds nothing against it, and every position made \
                                by legal moves can be solved (the group ignores `When` guards)."
                .to_string(),
            (Some(g), false) => match g.check(&state) {
                Verdict::Unknown(s) => format!("Cannot tell: {s}."),
                _ if !self.puzzle.blocks.is_empty() => "The group finds nothing against it \
                     (with Blocks the group cannot tell more)."
                    .to_string(),
                _ => "Reachable: this position can be solved.".to_string(),
            },
        };
        Ok(Reply::say(text))
    }

    /// Starts a new game at `start`.
    fn new_game(&mut self, start: State, origin: Origin) {
        self.start = start.clone();
        self.state = start;
        self.history.clear();
        self.impossible = None;
        self.origin = origin;
        self.start_optimal = None;
        self.helped = false;
        self.announced = self.at_goal();
        self.started = Instant::now();
    }

    fn scramble(&mut self, n: Option<usize>) -> Result<Reply, PlayError> {
        let mut reply = Reply::default();
        match n {
            Some(n) => {
                let goal = match &self.settings.goal {
                    Some(g) => g.positions[0].target.state.clone(),
                    None => self.puzzle.solved.clone(),
                };
                let (state, answer) = rules::level_scramble(
                    self.puzzle,
                    &self.settings.limits,
                    &goal,
                    n,
                    &mut self.rng,
                );
                if answer.len() < n {
                    reply.warnings.push(format!(
                        "only {} moves could be made backwards from the goal",
                        answer.len()
                    ));
                }
                reply.lines.push(format!(
                    "Scrambled with {} random move{} backwards: {} move{} will solve it.",
                    answer.len(),
                    plural(answer.len()),
                    answer.len(),
                    plural(answer.len())
                ));
                self.new_game(
                    state,
                    Origin {
                        scramble_len: Some(answer.len()),
                        answer: Some(answer),
                        no_answer: "",
                    },
                );
            }
            None => {
                let state = self.random();
                if self.puzzle.has_guards() || self.puzzle.goal_is_set() {
                    reply.warnings.push(format!(
                        "moves here are guarded, so the group cannot draw a position: this is \
                         a random walk of {WALK_STEPS} moves from solved, as RandomScramble \
                         uses on such puzzles when it cannot list them, not uniform"
                    ));
                } else if !self.puzzle.blocks.is_empty() || self.group.is_none() {
                    reply.warnings.push(format!(
                        "the group cannot draw a position here: this is a random walk of \
                         {WALK_STEPS} moves, as RandomScramble uses, not uniform"
                    ));
                }
                reply.lines.push("Scrambled to a random position.".into());
                self.new_game(
                    state,
                    Origin {
                        no_answer: "a random position has no scrambler's moves; `solve` finds \
                                    an optimal solution",
                        ..Origin::default()
                    },
                );
            }
        }
        Ok(reply.drawn())
    }

    /// A random position: uniform through the group, or a random walk where the group
    /// cannot draw one (guards, Blocks, a puzzle too large for it).
    fn random(&mut self) -> State {
        if self.puzzle.has_guards() || self.puzzle.goal_is_set() {
            random_state(self.puzzle, &mut self.rng)
        } else {
            random_position(self.puzzle, self.group.as_ref(), &mut self.rng)
        }
    }

    fn load(&mut self, name: &str) -> Result<Reply, PlayError> {
        let found = self
            .scrambles
            .iter()
            .position(|s| s.name == name)
            .or_else(|| {
                name.parse::<usize>()
                    .ok()
                    .filter(|&i| (1..=self.scrambles.len()).contains(&i))
                    .map(|i| i - 1)
            });
        let Some(i) = found else {
            let names: Vec<String> = self
                .scrambles
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{} `{}`", i + 1, s.name))
                .collect();
            return Err(PlayError::Refused(if names.is_empty() {
                format!("no scramble `{name}`: there is no scramble file, or it has none")
            } else {
                format!(
                    "no scramble `{name}`: expected a name or number ({})",
                    names.join(", ")
                )
            }));
        };
        let scramble = self.scrambles[i].clone();
        self.settings = scramble.settings.clone();
        let mut reply = Reply::say(format!("Loaded scramble {}: {}.", i + 1, scramble.name));
        match scramble.source {
            ScrambleSource::Position(t) => {
                if t.has_ignores() {
                    reply.warnings.push(
                        "the scramble leaves parts unknown (`?`); they are filled in and play \
                         judges the whole position"
                            .into(),
                    );
                }
                self.new_game(
                    t.state,
                    Origin {
                        no_answer: "the scramble file gives a position, not moves",
                        ..Origin::default()
                    },
                );
            }
            ScrambleSource::Alg(moves) => {
                let goal = match &self.settings.goal {
                    Some(g) => g.positions[0].target.state.clone(),
                    None => self.puzzle.solved.clone(),
                };
                let state = self.puzzle.apply_sequence(&goal, &moves);
                self.new_game(
                    state,
                    Origin {
                        scramble_len: Some(moves.len()),
                        answer: Some(inverse_sequence(self.puzzle, &moves)),
                        no_answer: "",
                    },
                );
            }
            ScrambleSource::Random => {
                let state = self.random();
                self.new_game(
                    state,
                    Origin {
                        no_answer: "a random position has no scrambler's moves",
                        ..Origin::default()
                    },
                );
            }
            ScrambleSource::Impossible(why) => {
                self.new_game(self.puzzle.solved.clone(), Origin::default());
                self.impossible = Some((why, Vec::new()));
                reply
                    .lines
                    .push("This scramble is no position of the puzzle: `check` says why.".into());
            }
        }
        Ok(reply.drawn())
    }

    fn enter(&mut self, letters: &str) -> Result<Reply, PlayError> {
        let letters: Vec<char> = letters.chars().collect();
        let reading = read::read(self.puzzle, &letters, self.group.as_ref())
            .map_err(|e| PlayError::Refused(format!("cannot read the colours: {e}")))?;
        let origin = Origin {
            no_answer: "the position was entered",
            ..Origin::default()
        };
        Ok(match reading {
            Reading::Position(s) => {
                self.new_game(s, origin);
                Reply::say("Entered.").drawn()
            }
            Reading::Impossible(p) => {
                self.new_game(self.state.clone(), origin);
                self.impossible = Some((p.to_string(), letters));
                Reply::say(
                    "Entered, but no sequence of moves makes this position: `check` says why.",
                )
                .drawn()
            }
        })
    }

    fn define(
        &mut self,
        name: &str,
        moves_at: usize,
        line: &str,
        file: &str,
        line_no: usize,
    ) -> Result<Reply, PlayError> {
        if !macros::valid_name(name) {
            return Err(PlayError::Refused(format!(
                "`{name}` cannot name a macro: expected a letter, then letters, digits or `_`"
            )));
        }
        if self.names.get(name).is_some() || WORDS.contains(&name) {
            return Err(PlayError::Refused(format!(
                "`{name}` is a {}: a macro needs a name of its own",
                if WORDS.contains(&name) {
                    "command"
                } else {
                    "move"
                }
            )));
        }
        let (moves, _) = self.parse_moves(file, line_no, line, moves_at)?;
        if moves.len() > MAX_MACRO_MOVES {
            return Err(PlayError::Refused(format!(
                "`{name}` would stand for {} moves: expected at most {MAX_MACRO_MOVES}",
                moves.len()
            )));
        }
        let typed: String = line.chars().skip(moves_at - 1).collect();
        let text = self.puzzle.format_sequence(&moves);
        let n = moves.len();
        let mut reply = Reply::say(format!("Defined {name}: {text} ({n} move{}).", plural(n)));
        if let Defined::Replaced(old) = self.macros.define(name, moves, &typed) {
            reply.warnings.push(format!(
                "{name} was already defined (as {}); it is redefined",
                self.puzzle.format_sequence(&old)
            ));
        }
        Ok(reply)
    }

    fn list(&self) -> Reply {
        let mut reply = Reply::default();
        for m in self.macros.iter() {
            reply.lines.push(format!(
                "{} = {} ({} move{})",
                m.name,
                self.puzzle.format_sequence(&m.moves),
                m.moves.len(),
                plural(m.moves.len())
            ));
        }
        if reply.lines.is_empty() {
            reply.lines.push("No macros.".into());
        }
        reply
    }

    fn forget(&mut self, name: &str) -> Result<Reply, PlayError> {
        let gone = self.macros.forget(name);
        match gone.split_first() {
            None => Err(PlayError::Refused(format!("no macro called `{name}`"))),
            Some((first, [])) => Ok(Reply::say(format!("Forgot {first}."))),
            Some((first, rest)) => Ok(Reply::say(format!(
                "Forgot {first}, and {} defined after it: {}.",
                if rest.len() == 1 {
                    "the macro"
                } else {
                    "the macros"
                },
                rest.join(", ")
            ))),
        }
    }

    fn save(&self) -> Result<Reply, PlayError> {
        let Some(path) = &self.macro_path else {
            return Err(PlayError::Refused(
                "there is no macro file to save to".into(),
            ));
        };
        // Only a file this command wrote is replaced: a file of that name that is
        // something else is left alone.
        if let Ok(bytes) = crate::fsutil::read_regular(path, 1 << 20) {
            if !bytes.starts_with(macros::HEADER.as_bytes()) {
                return Err(PlayError::Refused(format!(
                    "{} exists and was not written by `ksolve play`: not replaced",
                    path.display()
                )));
            }
        }
        let text = self.macros.to_text(self.puzzle, &self.def_name);
        crate::fsutil::write_atomic(path, text.as_bytes()).map_err(|source| PlayError::Io {
            what: "save the macros to",
            path: path.clone(),
            source,
        })?;
        let n = self.macros.iter().count();
        Ok(Reply::say(format!(
            "Saved {n} macro{} to {}.",
            plural(n),
            path.display()
        )))
    }

    /// Reads the macro file, when there is one: `def` lines, blank lines and comments.
    fn load_macros(&mut self) -> Result<(), PlayError> {
        let Some(path) = self.macro_path.clone() else {
            return Ok(());
        };
        if !path.exists() {
            return Ok(());
        }
        let file = path.display().to_string();
        let bytes =
            crate::fsutil::read_regular(&path, 1 << 20).map_err(|source| PlayError::Io {
                what: "read the macros from",
                path: path.clone(),
                source,
            })?;
        let text = String::from_utf8_lossy(&bytes);
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            match command::parse(line) {
                Ok(Command::Def { name, moves_at }) => {
                    self.define(&name, moves_at, line, &file, i + 1)?;
                }
                _ => {
                    let col = line.len() - line.trim_start().len() + 1;
                    return Err(PlayError::Moves(DefError::new(
                        &file,
                        i + 1,
                        col,
                        line,
                        ErrorKind::Invalid(
                            "expected `def NAME MOVES`, a comment (#) or a blank line".into(),
                        ),
                    )));
                }
            }
        }
        Ok(())
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
