//! The session state machine: the position, the moves made since the game started,
//! the solution being shown, the macros, and the commands that change them.

mod macro_commands;
mod positions;
mod solving;

use super::command::{self, Command, HELP, WORDS};
use super::macros::Macros;
use super::rules::{self, Allowance};
use super::{PlayError, Reply};
use crate::alg::{self, AlgLine, MoveNames};
use crate::def::{DefError, ErrorKind};
use crate::group::Group;
use crate::progress::Progress;
use crate::puzzle::{Goal, MoveId, Puzzle, Scramble, SolveSettings, State};
use crate::rng::Rng;
use crate::solve::{Answerer, Reachability};
use crate::sticker::lettering::Lettering;
use crate::table::Tables;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most moves one line may make (after macros and repeats are expanded), as
/// `scramble N` is capped: a short line such as `(R U)268435456` would otherwise ask
/// for gigabytes and minutes.
pub const MAX_LINE_MOVES: u64 = 100_000;

/// The most moves one game may hold, so that a script repeating long lines cannot fill
/// memory with the history that `undo` and the move limits read.
pub const MAX_GAME_MOVES: usize = 10_000_000;

/// A solution being shown move by move.
pub(super) struct Showing {
    moves: Vec<MoveId>,
    next: usize,
    /// What it solves to: `None` for the session's goal, else a pattern's name.
    pattern: Option<String>,
}

/// How the game's start position was made, for `answer` and the comparison at the end.
#[derive(Default)]
pub(super) struct Origin {
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
    /// The solver and the reachability verdict, through the library's one entry point.
    answerer: Answerer<'p>,
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
    /// The letters the player used for the faces when entering a position, which the
    /// pictures of this session show again.
    lettering: Option<Lettering>,
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
                    let one = Goal::new(vec![p.clone()]);
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
            answerer: Answerer::new(puzzle, setup.tables)
                .with_reachability(Reachability::with_group(puzzle, Group::new(puzzle).ok())),
            settings,
            scrambles: setup.scrambles,
            patterns,
            state: start.clone(),
            start,
            history: Vec::new(),
            impossible: None,
            lettering: None,
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

    /// The letters the player used for the faces, once a position was entered.
    pub fn lettering(&self) -> Option<&Lettering> {
        self.lettering.as_ref()
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
        let too_many = |n: String| {
            DefError::new(
                file,
                line_no,
                from,
                line,
                ErrorKind::Invalid(format!(
                    "these moves expand to {n} moves: expected at most {MAX_LINE_MOVES} on \
                     one line; nothing on this line was done"
                )),
            )
        };
        let cap = MAX_LINE_MOVES as usize;
        let (text, cols) = match self
            .macros
            .substitute(self.puzzle, &masked, cap, |w| names.get(w).is_some())
        {
            Ok(Some((t, c))) => (t, Some(c)),
            Ok(None) => (masked, None),
            Err(n) => return Err(too_many(format!("at least {n}")).into()),
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
        let n = parsed.len(false);
        if n > MAX_LINE_MOVES {
            return Err(too_many(n.to_string()).into());
        }
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
        if self.history.len().saturating_add(moves.len()) > MAX_GAME_MOVES {
            return Err(PlayError::Refused(format!(
                "a game holds at most {MAX_GAME_MOVES} moves and {} are made: `reset`, \
                 `undo` or start another game first",
                self.history.len()
            )));
        }
        let mut state = self.state.clone();
        // What each limit has counted, kept up to date move by move rather than counted
        // again over the whole game for every move of a long line.
        let limits = &self.settings.limits;
        let mut allowances = rules::allowances(self.puzzle, limits, &self.history);
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
                rules::refusal(self.puzzle, limits, &allowances, m)
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
            for (l, a) in limits.iter().zip(&mut allowances) {
                if l.matches(self.puzzle, m) {
                    a.used += 1;
                }
            }
        }
        self.state = state;
        self.history.extend_from_slice(moves);
        Ok(())
    }
}

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
