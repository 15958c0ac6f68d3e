//! Where a game starts: a level or uniform scramble, a scramble of the scramble file,
//! or a position entered by its stickers.

use super::{plural, Origin, Session};
use crate::alg::inverse_sequence;
use crate::play::rules;
use crate::play::{PlayError, Reply};
use crate::puzzle::{ScrambleSource, State};
use crate::search::random::{random_position, random_state, WALK_STEPS};
use crate::sticker::lettering::Lettering;
use crate::sticker::read::{self, Reading};
use std::time::Instant;

impl Session<'_> {
    /// Starts a new game at `start`.
    pub(super) fn new_game(&mut self, start: State, origin: Origin) {
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

    pub(super) fn scramble(&mut self, n: Option<usize>) -> Result<Reply, PlayError> {
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
                } else if !self.puzzle.blocks.is_empty() || self.group().is_none() {
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
    pub(super) fn random(&mut self) -> State {
        if self.puzzle.has_guards() || self.puzzle.goal_is_set() {
            random_state(self.puzzle, &mut self.rng)
        } else {
            random_position(
                self.puzzle,
                self.answerer.reachability().group(),
                &mut self.rng,
            )
        }
    }

    pub(super) fn load(&mut self, name: &str) -> Result<Reply, PlayError> {
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

    pub(super) fn enter(&mut self, letters: &str) -> Result<Reply, PlayError> {
        let letters: Vec<char> = letters.chars().collect();
        let reading = read::read(self.puzzle, &letters, self.group())
            .map_err(|e| PlayError::Refused(format!("cannot read the colours: {e}")))?;
        let origin = Origin {
            no_answer: "the position was entered",
            ..Origin::default()
        };
        Ok(match reading {
            Reading::Position(s) => {
                // A position was read, so the puzzle has a sticker map.
                if let Some(map) = &self.puzzle.stickers {
                    self.lettering = Some(Lettering::new(map, &self.puzzle.sets, &s, &letters));
                }
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
}
