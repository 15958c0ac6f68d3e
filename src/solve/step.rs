//! A goal of one position that leaves pieces free (a cross, a first layer, F2L), or
//! puts classes of pieces anywhere among their positions (a domino reduction), is
//! searched as a puzzle of its own: the [`Step`] puzzle, whose solved state is the goal
//! with every free piece of a set given one shared label (interchangeable pieces) and
//! whose `Ignore` frees the goal's free positions. The tables, the goal test and the
//! symmetries then see only the pieces the goal fixes: a cross's table is over where its
//! four edges are and how they are turned (exact, so a cross takes a few hundred nodes),
//! instead of the whole cube's tables searched towards a goal they barely bound.
//!
//! Positions are carried over by relabelling ([`Step::position`]); the moves, their
//! names and order are the puzzle's own, so solutions read the same.

use crate::puzzle::{
    union_masks, Goal, IgnoreMask, Puzzle, Scramble, ScrambleSource, State, Target,
};

/// A puzzle whose solved state is one goal position, with what it leaves free.
#[derive(Clone, Debug)]
pub struct Step {
    /// The puzzle: the same sets and moves, the goal as its solved state.
    pub puzzle: Puzzle,
    /// Per set, the label each piece takes (the free ones share one).
    relabel: Vec<Vec<u16>>,
    /// What the goal leaves free, per set.
    free: Vec<IgnoreMask>,
    /// The goal's bytes, to key the step's cached tables.
    key: Vec<u8>,
}

impl Step {
    /// The step for `goal`, when it is one position that leaves something free on a
    /// puzzle this applies to (no blocks, guards or goal of its own, whose rules read
    /// the pieces' labels); `None` otherwise.
    pub fn new(puzzle: &Puzzle, goal: &Goal) -> Option<Step> {
        let [position] = &goal.positions[..] else {
            return None;
        };
        let target = &position.target;
        if !(target.has_ignores() || position.has_classes())
            || !puzzle.blocks.is_empty()
            || puzzle.has_guards()
            || puzzle.goal_is_set()
            || !puzzle.rules.is_empty()
        {
            return None;
        }
        let mut solved = target.state.clone();
        let mut relabel = Vec::with_capacity(puzzle.sets.len());
        for (k, set) in puzzle.sets.iter().enumerate() {
            let mask = target.ignore.get(k);
            let free_at = |i: usize| mask.is_some_and(|m| m.perm.get(i) == Some(&true));
            let labels = &target.state.sets[k].perm;
            let max = labels.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
            let mut map: Vec<u16> = (0..max.max(set.size) as u16).collect();
            // The free pieces of the set share the smallest of their labels, and so do
            // the pieces of each class.
            let class_at = |i: usize| {
                position
                    .classes
                    .get(k)
                    .and_then(|c| c.get(i).copied().flatten())
            };
            let mut groups: Vec<Vec<usize>> = vec![(0..set.size).filter(|&i| free_at(i)).collect()];
            let mut ids: Vec<u16> = (0..set.size).filter_map(class_at).collect();
            ids.sort_unstable();
            ids.dedup();
            for id in ids {
                groups.push((0..set.size).filter(|&i| class_at(i) == Some(id)).collect());
            }
            for group in groups {
                if let Some(shared) = group.iter().map(|&i| labels[i]).min() {
                    for &i in &group {
                        map[labels[i] as usize] = shared;
                    }
                }
            }
            for i in 0..set.size {
                solved.sets[k].perm[i] = map[labels[i] as usize];
                if mask.is_some_and(|m| m.ori.get(i) == Some(&true)) {
                    solved.sets[k].ori[i] = 0;
                }
            }
            relabel.push(map);
        }
        let free = union_masks(puzzle, &target.ignore, &[]);
        let mut step = puzzle.clone();
        step.solved = solved;
        step.ignore = union_masks(puzzle, &puzzle.ignore, &free);
        let mut key = b"\0step ".to_vec();
        key.extend(goal.key_bytes());
        Some(Step {
            puzzle: step,
            relabel,
            free,
            key,
        })
    }

    /// `state`, a position of the whole puzzle, as a position of the step.
    pub fn position(&self, state: &State) -> State {
        let mut out = state.clone();
        for (k, map) in self.relabel.iter().enumerate() {
            for l in out.sets[k].perm.iter_mut() {
                *l = map[*l as usize];
            }
        }
        out
    }

    /// What the goal leaves free, per set: the ignore masks of every position solved.
    pub fn free(&self) -> &[IgnoreMask] {
        &self.free
    }

    /// Bytes that key the step's cached tables apart from the puzzle's.
    pub fn key_bytes(&self) -> &[u8] {
        &self.key
    }

    /// `scrambles` of `whole` (the puzzle the step was made from; narrowed, perhaps),
    /// as scrambles of the step: positions relabelled and freed where the goal is, the
    /// goal itself gone (it is the step's solved state).
    pub fn scrambles(&self, whole: &Puzzle, scrambles: &[Scramble]) -> Vec<Scramble> {
        scrambles
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.settings.goal = None;
                s.source = match &s.source {
                    ScrambleSource::Position(t) => ScrambleSource::Position(Target {
                        state: self.position(&t.state),
                        ignore: union_masks(whole, &t.ignore, &self.free),
                    }),
                    ScrambleSource::Alg(seq) => ScrambleSource::Position(Target {
                        state: self.position(&whole.apply_sequence(&whole.solved, seq)),
                        ignore: self.free.clone(),
                    }),
                    other => other.clone(),
                };
                s
            })
            .collect()
    }
}

/// The step every scramble of `scrambles` asks for, when they all have the same goal of
/// one position and none is drawn at random (a random position's `?`s would not be
/// known): the step puzzle and the scrambles in its terms.
pub fn step(puzzle: &Puzzle, scrambles: &[Scramble]) -> Option<(Step, Vec<Scramble>)> {
    let goal = scrambles.first()?.settings.goal.clone()?;
    let same = scrambles.iter().all(|s| {
        s.settings.goal.as_deref() == Some(&*goal) && !matches!(s.source, ScrambleSource::Random)
    });
    if !same {
        return None;
    }
    let step = Step::new(puzzle, &goal)?;
    let scrambles = step.scrambles(puzzle, scrambles);
    Some((step, scrambles))
}

/// Why `goals` cannot be searched when no [`Step`] was made for them but one has
/// classes, which only a step can search; `None` when nothing stands in the way.
pub fn classes_refused<'a>(goals: impl IntoIterator<Item = &'a Goal>) -> Option<&'static str> {
    goals.into_iter().any(Goal::has_classes).then_some(
        "a goal with classes (letters in a permutation) is searched as a puzzle of its own, \
             which needs the goal to be one position, the same for every scramble, no scramble \
             drawn at random, no --post-auf, and a puzzle without blocks or guarded moves",
    )
}
