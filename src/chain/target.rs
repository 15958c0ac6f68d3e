//! What a phase aims for: the solved state as the next subgroup sees it ([`Target`]).
//!
//! A subgroup `H` cannot tell apart pieces it moves among each other, nor (in a part of
//! the puzzle where its moves never twist a piece away from how it sits when solved)
//! lose track of orientation. So the coarsest picture `H` keeps of the solved state has
//! one label for all the pieces whose home positions one orbit of `H` holds, and keeps
//! orientation exactly where every generator leaves the solved orientation in place.
//! Every position of `H` looks solved in that picture; a phase searches until the
//! position does.
//!
//! The picture is right (every position that looks solved is in `H`) exactly when the
//! number of pictures the upper group reaches times the positions of `H` is the number
//! of positions of the upper group ([`Target::exact_within`]): that is how a chain is
//! checked, by exact counts from the stabiliser chain, never by trust.
//!
//! Where the coarsest picture is not right (`H` keeps something it cannot show, as the
//! 4x4x4's reduction keeps its centres in some arrangements of the colours that share
//! an orbit and not in others), [`Target::exact`] tells apart again the labels of a few
//! merged classes, one class at a time, until it is: the phase's goal is then every
//! picture `H`'s positions show ([`Target::goals`] of them, at most [`MAX_CLOSURE`]):
//! the solved picture with every picture `H`'s moves reach from it, which the search
//! takes as a goal closed under those moves ([`crate::puzzle::Goal::within`]). The
//! check is the same with that count: pictures of the upper group times `|H|` equal
//! the upper group's positions times the goal pictures.

use super::parity::is_parity;
use super::split::{find, orbits, Split};
use crate::group::{BigUint, Count, Group};
use std::collections::HashSet;

use crate::puzzle::{IgnoreMask, MoveId, Puzzle, State};

/// Pictures are listed one by one (rather than counted through the group) up to this
/// many.
const LIST_PICTURES: u64 = 200_000;

/// The most pictures a phase's goal may have: a goal test looks a position up among
/// them once its tables all say it is there.
pub use crate::puzzle::MAX_CLOSURE;

/// The most goal pictures of a phase the chain finder chooses. A user's chain may have
/// up to [`MAX_CLOSURE`]; the finder stays lower, since it descends to the smallest
/// subgroup a phase can reach, and phases of many goal pictures it has no tables for
/// (their goal lies in how pieces sit together, which tables of single orbits do not
/// see) would be chosen over ones it can search.
pub const FOUND_GOALS: u64 = 20_000;

/// A phase's two groups: their generators and their positions.
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    pub upper: &'a [MoveId],
    pub lower: &'a [MoveId],
    pub upper_count: &'a BigUint,
    pub lower_count: &'a BigUint,
    /// The most goal pictures the phase may have ([`FOUND_GOALS`] or [`MAX_CLOSURE`]).
    pub max_goals: u64,
}

/// The solved state as a subgroup sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The solved state with the labels merged.
    pub state: State,
    /// Per set: each label's new label.
    pub relabel: Vec<Vec<u16>>,
    /// Per set: the positions whose orientation the subgroup does not keep.
    pub free: Vec<IgnoreMask>,
    /// How many pictures the subgroup's positions show: 1 (`state`) unless
    /// [`Target::exact`] refined the picture.
    pub goals: u64,
}

impl Target {
    /// The solved state as the group `moves` generate sees it.
    pub fn of(puzzle: &Puzzle, moves: &[MoveId]) -> Target {
        let mut orbit = orbits(puzzle, moves);
        // A parity is shown only where it makes a phase exact ([`Target::exact`]):
        // the coarsest picture merges its two pieces.
        for (k, o) in orbit.iter_mut().enumerate() {
            if is_parity(puzzle, k) {
                o.iter_mut().for_each(|i| *i = 0);
            }
        }
        let solved = &puzzle.solved;
        let mut state = solved.clone();
        let mut relabel = Vec::with_capacity(puzzle.sets.len());
        let mut free = Vec::with_capacity(puzzle.sets.len());
        for (k, set) in puzzle.sets.iter().enumerate() {
            let n = set.orientations.max(1);
            let home = &solved.sets[k];
            // Orientation is kept on an orbit when no generator turns a solved piece
            // there away from the solved orientation of the position it lands on.
            let mut kept = vec![true; set.size];
            for &m in moves {
                let e = &puzzle.mv(m).effect.sets[k];
                for i in 0..set.size {
                    let from = e.perm[i] as usize;
                    if (home.ori[from] + e.ori[i]) % n != home.ori[i] % n {
                        kept[orbit[k][i]] = false;
                    }
                }
            }
            // Labels whose home positions share an orbit become one label (the smallest).
            let max = home.perm.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
            let mut parent: Vec<usize> = (0..max.max(set.size)).collect();
            let mut first: Vec<Option<usize>> = vec![None; set.size];
            for i in 0..set.size {
                let l = home.perm[i] as usize;
                match first[orbit[k][i]] {
                    None => first[orbit[k][i]] = Some(l),
                    Some(f) => {
                        let (a, b) = (find(&mut parent, f), find(&mut parent, l));
                        parent[a.max(b)] = a.min(b);
                    }
                }
            }
            let map: Vec<u16> = (0..parent.len())
                .map(|l| find(&mut parent, l) as u16)
                .collect();
            let mut mask = IgnoreMask {
                perm: vec![false; set.size],
                ori: vec![false; set.size],
            };
            for i in 0..set.size {
                state.sets[k].perm[i] = map[home.perm[i] as usize];
                if n > 1 && !kept[orbit[k][i]] {
                    mask.ori[i] = true;
                    state.sets[k].ori[i] = 0;
                }
            }
            relabel.push(map);
            free.push(mask);
        }
        Target {
            goals: 1,
            state,
            relabel,
            free,
        }
    }

    /// The picture that tells the positions of `step`'s lower group apart from the
    /// rest of its upper group, with the coset count: the coarsest picture when it
    /// does, else one with the labels of some merged classes told apart again and
    /// several goal pictures; `None` when no such picture of at most [`MAX_CLOSURE`]
    /// goals was found.
    pub fn exact(puzzle: &Puzzle, step: &Step) -> Option<(Target, BigUint)> {
        let coarsest = Target::of(puzzle, step.lower);
        let Step {
            upper,
            upper_count,
            lower_count,
            ..
        } = *step;
        if let Some(cosets) = coarsest.exact_within(puzzle, upper, upper_count, lower_count) {
            return Some((coarsest, cosets));
        }
        coarsest.refined(puzzle, step)
    }

    /// Tells apart again the labels of merged classes, one at a time (or two, where no
    /// one alone helps), each time those that bring the picture closest to exact: the
    /// fewest positions of `upper` per picture for each position of `lower` it stands
    /// for, and of equals the fewest goal pictures; until it is exact.
    fn refined(&self, puzzle: &Puzzle, step: &Step) -> Option<(Target, BigUint)> {
        let Step {
            upper,
            lower,
            upper_count,
            lower_count,
            max_goals,
        } = *step;
        // How far `t` is from exact, with its goal pictures: the positions of `upper`
        // that look solved over those of `lower`, |upper| |goals| / (|pictures|
        // |lower|) as a fraction (interchangeable pieces make it one), 1 when exact;
        // `None` past the goal limit.
        let far = |t: &Target| -> Option<(Fraction, BigUint)> {
            let goals = t.count_pictures(puzzle, lower, 0)?;
            if goals > BigUint::from(max_goals.min(MAX_CLOSURE)) {
                return None;
            }
            let pictures = t.count_pictures(puzzle, upper, 0)?;
            let f = Fraction(upper_count.mul(&goals), pictures.mul(lower_count));
            Some((f, goals))
        };
        let classes = self.merged_classes(puzzle);
        let mut current = self.clone();
        let mut used = vec![false; classes.len()];
        let (mut now, mut goals) = far(&current)?;
        while !now.is_one() {
            let free: Vec<usize> = (0..classes.len()).filter(|&j| !used[j]).collect();
            let mut best: Option<(Fraction, BigUint, Vec<usize>, Target)> = None;
            let singles = free.iter().map(|&j| vec![j]);
            let pairs = free
                .iter()
                .enumerate()
                .flat_map(|(n, &a)| free[n + 1..].iter().map(move |&b| vec![a, b]));
            for group in [singles.collect::<Vec<_>>(), pairs.collect()] {
                for chosen in group {
                    let candidate = chosen
                        .iter()
                        .fold(current.clone(), |t, &j| t.told_apart(puzzle, &classes[j]));
                    let Some((f, goals)) = far(&candidate) else {
                        continue;
                    };
                    if f < now && best.as_ref().is_none_or(|b| (&f, &goals) < (&b.0, &b.1)) {
                        best = Some((f, goals, chosen, candidate));
                    }
                }
                if best.is_some() {
                    break;
                }
            }
            let (f, g, chosen, picture) = best?;
            chosen.iter().for_each(|&j| used[j] = true);
            current = picture;
            now = f;
            goals = g;
        }
        current.goals = goals.to_u64()?;
        let cosets = current.exact_within(puzzle, upper, upper_count, lower_count)?;
        Some((current, cosets))
    }

    /// Per set, the classes of positions whose home labels this picture merged (more
    /// than one label) or whose orientation it leaves free: what [`Target::refined`]
    /// may tell apart again. A class takes every position of its labels, so that a
    /// picture stays a function of the position (interchangeable pieces cannot say
    /// which orbit their home is in).
    fn merged_classes(&self, puzzle: &Puzzle) -> Vec<(usize, Vec<usize>)> {
        let mut out = Vec::new();
        for (k, set) in puzzle.sets.iter().enumerate() {
            let home = &puzzle.solved.sets[k].perm;
            let mut classes: Vec<u16> = self.state.sets[k].perm.clone();
            classes.sort_unstable();
            classes.dedup();
            for c in classes {
                let slots: Vec<usize> = (0..set.size)
                    .filter(|&i| self.state.sets[k].perm[i] == c)
                    .collect();
                let merged = slots.iter().any(|&i| home[i] != home[slots[0]]);
                let freed = slots.iter().any(|&i| self.free[k].ori[i]);
                if merged || freed {
                    out.push((k, slots));
                }
            }
        }
        out
    }

    /// This picture with the class `slots` of set `k` shown as solved shows it: its
    /// labels told apart and its orientation kept.
    fn told_apart(&self, puzzle: &Puzzle, (k, slots): &(usize, Vec<usize>)) -> Target {
        let mut out = self.clone();
        let home = &puzzle.solved.sets[*k];
        for &i in slots {
            let l = home.perm[i];
            out.relabel[*k][l as usize] = l;
            out.state.sets[*k].perm[i] = l;
            out.state.sets[*k].ori[i] = home.ori[i];
            out.free[*k].ori[i] = false;
        }
        out.goals = 1;
        out
    }

    /// The target that merges labels as `relabel` says and leaves free the twists
    /// `free` marks, with `goals` pictures (as a stored chain keeps it); `None` when
    /// their shapes do not fit `puzzle` or a label's image is not a label.
    pub fn from_parts(
        puzzle: &Puzzle,
        relabel: Vec<Vec<u16>>,
        free: Vec<IgnoreMask>,
        goals: u64,
    ) -> Option<Target> {
        let fits = relabel.len() == puzzle.sets.len()
            && free.len() == puzzle.sets.len()
            && puzzle.sets.iter().enumerate().all(|(k, set)| {
                let labels = &puzzle.solved.sets[k].perm;
                let r = &relabel[k];
                free[k].perm.len() == set.size
                    && free[k].ori.len() == set.size
                    && labels.iter().all(|&l| (l as usize) < r.len())
                    && r.iter().all(|&l| (l as usize) < r.len())
            })
            && goals >= 1;
        if !fits {
            return None;
        }
        let mut target = Target {
            state: puzzle.solved.clone(),
            relabel,
            free,
            goals,
        };
        target.state = target.picture(&puzzle.solved);
        Some(target)
    }

    /// `state`, a position of the puzzle, as this target pictures it: labels merged,
    /// orientation zero where it is not kept.
    pub fn picture(&self, state: &State) -> State {
        let mut out = state.clone();
        for (k, s) in out.sets.iter_mut().enumerate() {
            for l in s.perm.iter_mut() {
                *l = self.relabel[k][*l as usize];
            }
            for (o, &free) in s.ori.iter_mut().zip(&self.free[k].ori) {
                if free {
                    *o = 0;
                }
            }
        }
        out
    }

    /// `state` with its labels merged as this target merges them, every twist kept
    /// (where the picture leaves a twist free, the phase's goal test ignores it).
    pub fn relabelled(&self, state: &State) -> State {
        let mut out = state.clone();
        for (k, s) in out.sets.iter_mut().enumerate() {
            for l in s.perm.iter_mut() {
                *l = self.relabel[k][*l as usize];
            }
        }
        out
    }

    /// The number of pictures the group `upper` generates reaches from this target's
    /// solved picture, when known exactly.
    pub fn pictures_within(&self, puzzle: &Puzzle, upper: &[MoveId]) -> Option<BigUint> {
        self.count_pictures(puzzle, upper, 0)
    }

    /// [`Target::pictures_within`], listing the pictures one by one when there are at
    /// most `list` of them (a picture of one piece among many interchangeable ones is
    /// quick to list but slow for the stabiliser search of `group`).
    fn count_pictures(&self, puzzle: &Puzzle, upper: &[MoveId], list: u64) -> Option<BigUint> {
        if list > 0 {
            if let Some(all) = self.list_pictures(puzzle, upper, list) {
                return Some(BigUint::from(all.len() as u64));
            }
        }
        // Each set split into the orbits of `upper`, oriented where this target keeps
        // some orientation; the positions where it keeps none are coloured alike in all
        // their orientations, so the stabiliser the group searches is the picture's.
        // That needs a label never to be both where orientation is kept and where it is
        // not (else the count would tell the two apart where the picture does not):
        // such a part counts as unoriented, which can only make the check fail.
        let mixed = |k: usize, slots: &[usize]| {
            let labels = |kept: bool| -> HashSet<u16> {
                slots
                    .iter()
                    .filter(|&&i| self.free[k].ori[i] != kept)
                    .map(|&i| self.state.sets[k].perm[i])
                    .collect()
            };
            !labels(true).is_disjoint(&labels(false))
        };
        let counted = Split::new(puzzle, upper, &self.state, &self.free, |k, slots| {
            slots.iter().any(|&i| !self.free[k].ori[i]) && !mixed(k, slots)
        });
        let group = Group::new(&counted.puzzle).ok()?;
        let count = match counted.puzzle.ignore.iter().any(|m| m.any()) {
            true => group.reachable_ignoring_twists(
                &counted.puzzle.ignore,
                crate::group::DEFAULT_COUNT_BUDGET,
            ),
            false => group.reachable(),
        };
        match count {
            Count::Exact(n) => Some(n),
            Count::UpperBound(_) => None,
        }
    }

    /// The pictures `upper`'s moves reach from the solved picture, the solved picture
    /// first, by a search, when there are at most `cap`.
    fn list_pictures(&self, puzzle: &Puzzle, upper: &[MoveId], cap: u64) -> Option<Vec<State>> {
        // The generators alone reach every picture (in a finite group a move's inverse
        // is a power of it), searched depth first: only the set of pictures matters.
        let moves = upper;
        let mut seen: HashSet<State> = HashSet::from([self.state.clone()]);
        let mut all = vec![self.state.clone()];
        let mut next = 0;
        while let Some(s) = all.get(next).cloned() {
            next += 1;
            for &m in moves {
                let t = self.picture(&s.then(&puzzle.mv(m).effect, &puzzle.sets));
                if !seen.contains(&t) {
                    if seen.len() as u64 >= cap {
                        return None;
                    }
                    seen.insert(t.clone());
                    all.push(t);
                }
            }
        }
        Some(all)
    }

    /// Whether a position of the group `upper` generates that looks solved is always a
    /// position of the group `lower` generates (whose positions number `lower_count`):
    /// the pictures `upper` reaches times `lower_count` must be all of `upper`'s
    /// positions, `upper_count`, times the goal pictures. Returns the coset count (the
    /// pictures over the goal pictures) then.
    pub fn exact_within(
        &self,
        puzzle: &Puzzle,
        upper: &[MoveId],
        upper_count: &BigUint,
        lower_count: &BigUint,
    ) -> Option<BigUint> {
        // The pictures never outnumber the index (the lower group keeps the picture), so
        // a small index is listed.
        let index = upper_count.div_rem(lower_count)?.0;
        let goals = self.goals;
        let list = index
            .to_u64()
            .and_then(|i| i.checked_mul(goals))
            .filter(|&i| i <= LIST_PICTURES)
            .unwrap_or(0);
        let pictures = self.count_pictures(puzzle, upper, list)?;
        let mut all = upper_count.clone();
        all.mul_u64(goals);
        // The cosets: the pictures each goal picture stands for.
        let cosets = pictures.div_rem_u64(goals)?.0;
        (pictures.mul(lower_count) == all).then_some(cosets)
    }
}

/// A positive fraction, compared by value.
#[derive(Clone, Debug)]
struct Fraction(BigUint, BigUint);

impl Fraction {
    fn is_one(&self) -> bool {
        self.0 == self.1
    }
}

impl PartialEq for Fraction {
    fn eq(&self, other: &Self) -> bool {
        self.0.mul(&other.1) == other.0.mul(&self.1)
    }
}

impl PartialOrd for Fraction {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.0.mul(&other.1).cmp(&other.0.mul(&self.1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::Subgroup;
    use crate::def::parse_puzzle;

    #[test]
    fn domino_target_keeps_orientation_and_the_slice() {
        let p = parse_puzzle(include_bytes!("../../puzzles/3x3x3.def"), "3x3x3.def")
            .unwrap()
            .0;
        let top = Subgroup::searched(&p);
        let mut dr = top.clone();
        for name in ["R", "L", "F", "B"] {
            dr.steps[p.base_by_name(name).unwrap()] = 2;
        }
        let t = Target::of(&p, &dr.generators(&p));
        assert!(t.free.iter().all(|m| !m.any()));
        let upper = top.positions(&p).unwrap();
        let lower = dr.positions(&p).unwrap();
        let cosets = t
            .exact_within(&p, &top.generators(&p), &upper, &lower)
            .unwrap();
        // 3^7 twists, 2^11 flips, 12 choose 4 places of the slice edges.
        assert_eq!(cosets.to_string(), "2217093120");
        // The coarsest picture is the goal: R2 keeps it, R does not.
        let r2 = p.apply_sequence(&p.solved, &[p.move_by_name("R2").unwrap()]);
        assert_eq!(t.picture(&r2), t.state);
        let r = p.apply_sequence(&p.solved, &[p.move_by_name("R").unwrap()]);
        assert_ne!(t.picture(&r), t.state);
    }
}
