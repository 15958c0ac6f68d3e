//! The canonical-sequence automaton: which move may follow which, as a small state
//! machine built once per puzzle and set of move limits.
//!
//! A sequence is accepted when no rearrangement or merge that keeps its effect, its cost
//! bound and its move limits would make it shorter or earlier in move order:
//! - Moves that commute are taken in ascending base-move order. The state remembers the
//!   *clump*: the base moves played since the last move that did not commute with them,
//!   so `q` is refused after `p ... ` when `q < p` commutes with `p` and with every move
//!   in between (the lexicographic normal form of the commutation classes). Swapping
//!   commuting moves keeps every move count, so this holds under any `MoveLimits`.
//! - Two powers of one base move in a clump merge into one power, or into nothing. The
//!   merge removes moves from every family count, but adds one move of power `c` (the
//!   sum of the powers); it is only sure to stay within the limits when no per-move limit
//!   names that power. So a base move whose powers are named by a limit (`F2 1`, or all
//!   of `F2 0`, `F' 0` for clockwise turns only), or that is directed, may repeat, and the
//!   state counts the power gathered so far: the repeat is refused only when the run
//!   comes to nothing, or to a power that no limit names. A shared limit (several names
//!   on one `MoveLimits` line) counts a move when any of its names does, so the same
//!   holds: the merged power is counted by it only through a family name, which counted
//!   both merged moves too, or through naming that power, which makes the base
//!   repeatable.
//! - `MoveCosts` weights can make a merge dearer than the run it replaces (`R2 5`, where
//!   R R costs 2); a base where some two powers cost less than their product is
//!   repeatable in the same way, with every power counted as named.
//! - The user's `ForbiddenPairs` and `ForbiddenGroups` hold between adjacent moves, so
//!   the state also remembers the last move.
//!
//! With no limits this accepts a subset of what the pairwise rule
//! ([`Puzzle::canonical_successor`]) accepts: on the 3x3x3 in HTM it gives the known
//! counts 18, 243, 3240, 43254 for lengths 1 to 4. When the clumps would make too many
//! states (puzzles with many mutually commuting moves), the automaton falls back to the
//! pairwise rule (state = last move), with the same limit-aware merge test.

use crate::puzzle::{LimitKey, Metric, MoveId, MoveLimit, Puzzle};
use std::collections::HashMap;

/// The transition to a refused move.
pub const DEAD: u32 = u32::MAX;

/// The most transition entries the clump automaton may have before the pairwise
/// fallback is used (16 MiB of `u32`).
const MAX_ENTRIES: usize = 1 << 22;

/// A state while building: the last move and the clump, as (base, gathered power)
/// pairs sorted by base. The gathered power is only tracked for repeatable bases.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    last: Option<u16>,
    clump: Vec<(u32, u32)>,
}

/// The automaton: `step(state, m)` is the state after move `m`, or [`DEAD`].
#[derive(Clone, Debug)]
pub struct Canon {
    nm: usize,
    next: Vec<u32>,
    states: usize,
    /// Whether the clump automaton was too large and the pairwise rule is used.
    pairwise: bool,
}

/// What the rules need to know about the puzzle and the limits, computed once.
struct Rules<'p> {
    puzzle: &'p Puzzle,
    commute: Vec<bool>,
    nb: usize,
    /// Base moves that may follow themselves (directed, or a power is named by a limit).
    repeatable: Vec<bool>,
    /// `named[m]`: a per-move limit names move `m`.
    named: Vec<bool>,
}

impl Rules<'_> {
    /// Whether a run of base `b` gathering power `c` (mod its order) may stand: not the
    /// identity, and not a single power that a merge could use without breaking a limit.
    fn run_allowed(&self, b: usize, c: u64) -> bool {
        let base = &self.puzzle.base_moves[b];
        let c = c % base.order.max(1) as u64;
        if c == 0 {
            return false;
        }
        if base.directed {
            // Only power 1 exists as a move, so no run of two or more can be merged.
            return true;
        }
        match base.powers.get(c as usize - 1) {
            Some(m) => self.named[m.index()],
            None => true,
        }
    }

    /// The state after move `q` from `key`, or `None` when `q` is refused.
    fn step(&self, key: &Key, q: usize, pairwise: bool) -> Option<Key> {
        let puzzle = self.puzzle;
        let nm = puzzle.moves.len();
        let mv = &puzzle.moves[q];
        let (b, power) = (mv.base, mv.power as u64);
        if let Some(last) = key.last {
            let last = last as usize;
            if puzzle.forbidden[last * nm + q] {
                return None;
            }
            let lm = &puzzle.moves[last];
            if lm.base == b && !(self.repeatable[b] && self.run_allowed(b, lm.power as u64 + power))
            {
                return None;
            }
        }
        let mut gathered = power;
        for &(p, acc) in &key.clump {
            let p = p as usize;
            if p == b {
                if !self.repeatable[b] || !self.run_allowed(b, acc as u64 + power) {
                    return None;
                }
                gathered = (acc as u64 + power) % puzzle.base_moves[b].order.max(1) as u64;
            } else if b < p && self.commute[b * self.nb + p] {
                return None;
            }
        }
        let own = if self.repeatable[b] {
            gathered as u32
        } else {
            0
        };
        let clump = if pairwise {
            vec![(b as u32, mv.power * self.repeatable[b] as u32)]
        } else {
            let mut c: Vec<(u32, u32)> = key
                .clump
                .iter()
                .copied()
                .filter(|&(p, _)| p as usize != b && self.commute[b * self.nb + p as usize])
                .collect();
            c.push((b as u32, own));
            c.sort_unstable();
            c
        };
        Some(Key {
            last: Some(q as u16),
            clump,
        })
    }
}

/// Whether every two powers of `b` cost at least as much as the power they make, in
/// both metrics (then, pair by pair, so does every run).
fn merges_are_cheaper(puzzle: &Puzzle, b: &crate::puzzle::BaseMove) -> bool {
    let n = b.powers.len();
    let order = b.order as usize;
    if b.directed || n < 2 {
        return true;
    }
    [Metric::Htm, Metric::Qtm].iter().all(|&metric| {
        let cost = |i: usize| puzzle.move_cost(metric, b.powers[i]);
        (0..n).all(|i| {
            (0..n).all(|j| {
                let c = (i + 1 + j + 1) % order;
                c == 0 || cost(c - 1) <= cost(i) + cost(j)
            })
        })
    })
}

impl Canon {
    /// The automaton for `puzzle` under `limits` (only per-move limits change it).
    pub fn new(puzzle: &Puzzle, limits: &[MoveLimit]) -> Canon {
        let nb = puzzle.base_moves.len();
        let mut commute = vec![false; nb * nb];
        for a in 0..nb {
            for b in a + 1..nb {
                let c = puzzle.commute(a, b);
                commute[a * nb + b] = c;
                commute[b * nb + a] = c;
            }
        }
        let mut named = vec![false; puzzle.moves.len()];
        for k in limits.iter().flat_map(|l| &l.keys) {
            if let LimitKey::Move(m) = *k {
                named[m.index()] = true;
            }
        }
        // With `MoveCosts` weights a merge may cost more than the moves it replaces
        // (`R2 5`: R R is cheaper): such a base's runs are kept as if a limit named
        // every power, so only runs that gather to nothing are refused.
        for b in &puzzle.base_moves {
            if !merges_are_cheaper(puzzle, b) {
                for m in &b.powers {
                    named[m.index()] = true;
                }
            }
        }
        let repeatable = puzzle
            .base_moves
            .iter()
            .map(|b| b.directed || b.powers.iter().any(|m| named[m.index()]))
            .collect();
        let rules = Rules {
            puzzle,
            commute,
            nb,
            repeatable,
            named,
        };
        Canon::build(&rules, false).unwrap_or_else(|| {
            Canon::build(&rules, true)
                .expect("the pairwise automaton has at most one state per move")
        })
    }

    /// Breadth-first construction from the empty sequence; `None` when the states
    /// would exceed [`MAX_ENTRIES`].
    fn build(rules: &Rules, pairwise: bool) -> Option<Canon> {
        let nm = rules.puzzle.moves.len();
        let cap = (MAX_ENTRIES / nm.max(1)).max(nm + 1);
        let start = Key {
            last: None,
            clump: Vec::new(),
        };
        let mut ids: HashMap<Key, u32> = HashMap::new();
        let mut keys = vec![start.clone()];
        ids.insert(start, 0);
        let mut next = Vec::new();
        let mut i = 0;
        while i < keys.len() {
            let key = keys[i].clone();
            for q in 0..nm {
                let to = match rules.step(&key, q, pairwise) {
                    None => DEAD,
                    Some(k) => match ids.get(&k) {
                        Some(&id) => id,
                        None => {
                            if keys.len() >= cap {
                                return None;
                            }
                            let id = keys.len() as u32;
                            ids.insert(k.clone(), id);
                            keys.push(k);
                            id
                        }
                    },
                };
                next.push(to);
            }
            i += 1;
        }
        Some(Canon {
            nm,
            next,
            states: keys.len(),
            pairwise,
        })
    }

    /// The state of the empty sequence.
    pub const START: u32 = 0;

    /// The state after move `m` from `state`, or [`DEAD`] when `m` may not follow.
    #[inline]
    pub fn step(&self, state: u32, m: usize) -> u32 {
        self.next[state as usize * self.nm + m]
    }

    /// Whether the automaton accepts the whole sequence.
    pub fn accepts(&self, seq: &[MoveId]) -> bool {
        let mut s = Canon::START;
        for m in seq {
            s = self.step(s, m.index());
            if s == DEAD {
                return false;
            }
        }
        true
    }

    /// The number of states.
    pub fn states(&self) -> usize {
        self.states
    }

    /// Whether the clumps made too many states and the pairwise rule is in use.
    pub fn is_pairwise(&self) -> bool {
        self.pairwise
    }

    /// The number of accepted sequences of each length `0..=depth` (for tests and
    /// `check`): a dynamic programme over the states.
    pub fn counts(&self, depth: usize) -> Vec<u64> {
        let mut cur = vec![0u64; self.states];
        cur[0] = 1;
        let mut out = vec![1];
        for _ in 0..depth {
            let mut nxt = vec![0u64; self.states];
            for (s, &n) in cur.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                for &t in &self.next[s * self.nm..(s + 1) * self.nm] {
                    if t != DEAD {
                        nxt[t as usize] = nxt[t as usize].saturating_add(n);
                    }
                }
            }
            out.push(nxt.iter().fold(0u64, |a, &b| a.saturating_add(b)));
            cur = nxt;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::parse_puzzle;

    fn shipped(bytes: &[u8]) -> Puzzle {
        parse_puzzle(bytes, "test.def").unwrap().0
    }

    fn limit(p: &Puzzle, name: &str, max: u32) -> MoveLimit {
        MoveLimit::single(LimitKey::Move(p.move_by_name(name).unwrap()), max)
    }

    /// The published numbers of canonical 3x3x3 sequences in the half-turn metric.
    #[test]
    fn cube3_canonical_counts() {
        let p = shipped(include_bytes!("../../puzzles/3x3x3.def"));
        let c = Canon::new(&p, &[]);
        assert!(!c.is_pairwise());
        assert_eq!(c.counts(5), vec![1, 18, 243, 3240, 43254, 577368]);
    }

    /// Everything the automaton accepts, the pairwise rule accepts too, on every
    /// shipped puzzle with more than one move family.
    #[test]
    fn at_least_as_strong_as_the_pairwise_rule() {
        for bytes in [
            &include_bytes!("../../puzzles/3x3x3.def")[..],
            include_bytes!("../../puzzles/4x4x4_centres.def"),
            include_bytes!("../../puzzles/megaminx.def"),
            include_bytes!("../../puzzles/skewb.def"),
            include_bytes!("../../puzzles/2x2x2_directed.def"),
        ] {
            let p = shipped(bytes);
            let c = Canon::new(&p, &[]);
            let nm = p.moves.len();
            // Every reachable state with the last move that led there, three moves deep.
            let mut frontier = vec![(Canon::START, None::<usize>)];
            for _ in 0..3 {
                let mut next = Vec::new();
                for &(s, last) in &frontier {
                    for m in 0..nm {
                        let t = c.step(s, m);
                        if t == DEAD {
                            continue;
                        }
                        if let Some(l) = last {
                            assert!(p.canonical_successor(MoveId(l as u16), MoveId(m as u16)));
                        }
                        next.push((t, Some(m)));
                    }
                }
                next.sort_unstable();
                next.dedup();
                frontier = next;
            }
        }
    }

    /// Limits on a move's powers let it repeat, but never into a run that merges
    /// into nothing or into a power no limit names.
    #[test]
    fn limits_decide_which_repeats_are_canonical() {
        let p = shipped(include_bytes!("../../puzzles/3x3x3.def"));
        let seq =
            |s: &str| -> Vec<MoveId> { s.split(' ').map(|n| p.move_by_name(n).unwrap()).collect() };
        let free = Canon::new(&p, &[]);
        assert!(!free.accepts(&seq("R R")));
        let cw = Canon::new(&p, &[limit(&p, "R2", 0), limit(&p, "R'", 0)]);
        assert!(cw.accepts(&seq("R R")));
        assert!(cw.accepts(&seq("R R R")));
        assert!(!cw.accepts(&seq("R R R R")));
        // L commutes with R: R L R gathers to R R L, which is the canonical order.
        assert!(cw.accepts(&seq("R R L")));
        assert!(!cw.accepts(&seq("R L R")));
        assert!(!cw.accepts(&seq("R R'")));
        // With only R2 named, R R is needed (R2 may be used up), R' R' is not (it is R2
        // too, but R R' is nothing and R' R gathers to nothing).
        let half = Canon::new(&p, &[limit(&p, "R2", 1)]);
        assert!(half.accepts(&seq("R R")));
        assert!(half.accepts(&seq("R' R'")));
        assert!(!half.accepts(&seq("R R'")));
        // R R R is R', which no limit names: R R R is never needed.
        assert!(!half.accepts(&seq("R R R")));
        assert!(!half.accepts(&seq("R2 R")));
    }
}
