//! Move limits that may leave a position with no solution at all. Without limits a
//! position the pruning tables (or the group) do not refuse has a solution, so deepening
//! ends; with `MoveLimits` above 0 (`C* 2`, shared limits `A B C 1`) it may have none,
//! and deepening alone would run to `MaxDepth` (for ever with the default 999).
//!
//! This module is the one place that decides, before the search, what limits do to it:
//! - a breadth-first search over (position, counters of every limit), when the puzzle
//!   is small enough ([`SETTLE_PAIRS`]), settles the question: unreachable within the
//!   limits, or reachable (then deepening finds the optimum as usual);
//! - otherwise, when the moves no limit names reach the position by themselves (the
//!   group they generate contains it), the limits cannot stop a solution either;
//! - otherwise the search is bounded: it stops [`UNSETTLED_DEPTHS`] past its first bound
//!   (or at `MaxDepth`, whichever comes first) and warns after [`WARN_AFTER`] depths
//!   without a solution that the limits may make the position unreachable.

use crate::group::{Group, Verdict};
use crate::keys::Packer;
use crate::puzzle::{IgnoreMask, MoveId, Puzzle, SolveSettings, State};
use std::collections::{HashSet, VecDeque};

/// The most (position, limit counters) pairs the breadth-first search visits; it is
/// tried only when the puzzle's positions times the counters' combinations are at most
/// this many, so that it settles the question (about 64 MiB at most).
pub const SETTLE_PAIRS: u128 = 1 << 21;

/// How many depths past its first bound an unsettled search goes before it stops with
/// "no solution within the limits".
pub const UNSETTLED_DEPTHS: u32 = 20;

/// After how many depths past the first bound without a solution an unsettled search
/// warns that the limits may make the position unreachable.
pub const WARN_AFTER: u32 = 3;

/// What the move limits do to a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reach {
    /// A solution within the limits exists (or there are no limits that could prevent
    /// one): search as usual.
    Free,
    /// No sequence within the limits reaches the goal (proven by breadth-first search).
    Unreachable,
    /// Unknown: the search stops [`UNSETTLED_DEPTHS`] past its first bound.
    Bounded,
}

/// What the search keeps between scrambles for [`settle`]: the puzzle's group (for its
/// size) and the group of the moves no limit names, for the last such moves seen (a game
/// of `play` changes the numbers of its limits, not which moves they name).
#[derive(Default)]
pub(super) struct LimitGroups {
    whole: Option<Option<Group>>,
    unlimited: Option<(Vec<MoveId>, Option<Group>)>,
}

/// Decides what the limits of `settings` do to the search from `start` (`ignore` already
/// holds the goal's free positions); the breadth-first search is tried when at most
/// `max_pairs` (normally [`SETTLE_PAIRS`]) pairs may need visiting.
pub(super) fn settle(
    puzzle: &Puzzle,
    start: &State,
    ignore: &[IgnoreMask],
    settings: &SolveSettings,
    groups: &mut LimitGroups,
    max_pairs: u128,
) -> Reach {
    let limits = &settings.limits;
    if limits.is_empty() {
        return Reach::Free;
    }
    let combos = limits
        .iter()
        .try_fold(1u128, |acc, l| acc.checked_mul(l.max as u128 + 1));
    // The group's count of positions is exact for distinct pieces and an upper bound
    // with blocks; the arrangements of each set bound it too.
    let guarded = puzzle.has_guards();
    let whole = groups
        .whole
        .get_or_insert_with(|| (!guarded).then(|| Group::new(puzzle).ok()).flatten());
    let arrangements =
        (0..puzzle.sets.len()).try_fold(1u128, |acc, k| acc.checked_mul(puzzle.set_upper_bound(k)));
    let group_count = whole.as_ref().and_then(|g| g.reachable().value().to_u128());
    let positions = match (arrangements, group_count) {
        (Some(a), Some(g)) => Some(a.min(g)),
        (a, g) => a.or(g),
    };
    let pairs = positions.zip(combos).and_then(|(p, c)| p.checked_mul(c));
    if pairs.is_some_and(|p| p <= max_pairs) {
        match breadth_first(puzzle, start, ignore, settings, max_pairs) {
            Some(true) => return Reach::Free,
            Some(false) => return Reach::Unreachable,
            None => {}
        }
    }
    // The moves no limit names, on their own, reach the position: a solution within the
    // limits exists. (The group knows nothing of guards, a goal or ignored positions.)
    if guarded || settings.goal.is_some() || ignore.iter().any(IgnoreMask::any) {
        return Reach::Bounded;
    }
    let free: Vec<MoveId> = (0..puzzle.moves.len())
        .map(|m| MoveId(m as u16))
        .filter(|&m| !limits.iter().any(|l| l.matches(puzzle, m)))
        .collect();
    if !matches!(&groups.unlimited, Some((f, _)) if *f == free) {
        let group = Group::generated_by(puzzle, &free).ok();
        groups.unlimited = Some((free, group));
    }
    match groups.unlimited.as_ref().and_then(|(_, g)| g.as_ref()) {
        Some(g) if g.check(start) == Verdict::Reachable => Reach::Free,
        _ => Reach::Bounded,
    }
}

/// Breadth-first search from `start` over (position, counters): `Some(true)` when a goal
/// position is reached within the limits, `Some(false)` when none is, `None` when the
/// positions cannot be packed or more than `max_pairs` pairs were seen.
fn breadth_first(
    puzzle: &Puzzle,
    start: &State,
    ignore: &[IgnoreMask],
    settings: &SolveSettings,
    max_pairs: u128,
) -> Option<bool> {
    let limits = &settings.limits;
    let transforms: Vec<_> = puzzle.moves.iter().map(|m| m.effect.clone()).collect();
    let base_of: Vec<usize> = puzzle.moves.iter().map(|m| m.base).collect();
    let packer = Packer::new(puzzle, &transforms, &base_of).ok()?;
    if !packer.fits(start) {
        return None;
    }
    // The counters as one mixed-radix number above the position's bits.
    let shift = packer.key_bits();
    let mut strides = Vec::with_capacity(limits.len());
    let mut span = 1u128;
    for l in limits {
        strides.push(span);
        span = span.checked_mul(l.max as u128 + 1)?;
    }
    if shift >= 128 || (span - 1) >> (128 - shift) != 0 {
        return None;
    }
    let counted: Vec<Vec<usize>> = (0..puzzle.moves.len())
        .map(|m| {
            (0..limits.len())
                .filter(|&i| limits[i].matches(puzzle, MoveId(m as u16)))
                .collect()
        })
        .collect();
    let mask = if shift == 0 {
        0
    } else {
        u128::MAX >> (128 - shift)
    };
    let solved = |s: &State| match settings.goal.as_deref() {
        None => puzzle.is_solved(s, ignore),
        Some(goal) => goal.reached_by(puzzle, s, ignore).is_some(),
    };
    let first = packer.key(start);
    let mut seen: HashSet<u128> = HashSet::from([first]);
    let mut queue = VecDeque::from([first]);
    while let Some(x) = queue.pop_front() {
        let state = packer.state(x & mask);
        if solved(&state) {
            return Some(true);
        }
        let used = x >> shift;
        'moves: for (m, counts) in counted.iter().enumerate() {
            let id = MoveId(m as u16);
            if !puzzle.block_allows(&state, id) {
                continue;
            }
            let mut next_used = used;
            for &i in counts {
                if (used / strides[i]) % (limits[i].max as u128 + 1) == limits[i].max as u128 {
                    continue 'moves;
                }
                next_used += strides[i];
            }
            let y = packer.step(m, x & mask) | next_used << shift;
            if seen.insert(y) {
                if seen.len() as u128 > max_pairs {
                    return None;
                }
                queue.push_back(y);
            }
        }
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::{parse_puzzle, parse_scrambles};

    /// Three pieces cycled by A and swapped (first two) by B: reaching the odd
    /// arrangement needs B an odd number of times.
    const SWAP: &str = "Name swap\nSet P 3 1\nSolved\nP\n1 2 3\nEnd\n\
        Move A\nP\n2 3 1\nEnd\nMove B\nP\n2 1 3\nEnd\n";

    fn reach(limits: &str, position: &str) -> Reach {
        let p = parse_puzzle(SWAP.as_bytes(), "swap.def").unwrap().0;
        let text = format!("MoveLimits\n{limits}\nEnd\nScramble s\nP\n{position}\nEnd\n");
        let s = &parse_scrambles(text.as_bytes(), "s.txt", &p).unwrap()[0];
        let crate::puzzle::ScrambleSource::Position(t) = &s.source else {
            panic!("a position")
        };
        settle(
            &p,
            &t.state,
            &[],
            &s.settings,
            &mut LimitGroups::default(),
            SETTLE_PAIRS,
        )
    }

    #[test]
    fn small_puzzles_are_settled_by_breadth_first_search() {
        // An odd arrangement needs B at least once.
        assert_eq!(reach("B 0", "2 1 3"), Reach::Unreachable);
        assert_eq!(reach("B 1", "2 1 3"), Reach::Free);
        // Shared limits: A and B together at most once, and this needs two moves.
        assert_eq!(reach("A* B* 1", "3 2 1"), Reach::Unreachable);
        assert_eq!(reach("A* B* 2", "3 2 1"), Reach::Free);
        // An even arrangement needs no B.
        assert_eq!(reach("B 0", "2 3 1"), Reach::Free);
    }
}
