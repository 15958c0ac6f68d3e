//! Components: the integer coordinates that the search and the pruning tables work in.
//!
//! A component describes one facet of one piece set: the arrangement of its pieces seen
//! through a relabelling (pieces the component does not tell apart share a label), the
//! orientation at every position, the position of a single piece (for `Block`), or an
//! arrangement together with the twists of the pieces it tracks (for sets whose whole
//! orientation vector has too many values). Each
//! component has a move table, `table[v * nmoves + m]` = the value after move `m`, so the
//! search never touches piece arrays.
//!
//! Invariants: a component's value is a function of the state alone, and every move acts
//! on that value (the value after a move depends only on the value before it). Hence a
//! product of components is a valid abstraction of the puzzle, and distances measured in
//! it never exceed true distances.

use crate::coord::{Arrangement, CoordError, OriCoord};
use crate::puzzle::{Puzzle, SetState, State};

pub(crate) mod goal;
mod moves;
pub use goal::next_permutation;

/// The largest number of values a component may have: its move table must stay small
/// enough to build in well under a second per million entries and to keep in memory.
pub const MAX_COMPONENT_VALUES: u64 = 1 << 24;

/// A coordinate value of one component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord(pub u32);

/// Which facet of one set a component describes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CompKind {
    /// The arrangement of the set's pieces after relabelling: `relabel[label]` is the
    /// label the coordinate sees. Labels are compact, `0..k`.
    Perm { relabel: Vec<u16> },
    /// The orientation at every position. With `sum: Some(s)` every move keeps the sum
    /// of the set's orientations, only vectors summing to `s` (mod n) are represented,
    /// and the last digit is implied.
    Ori { sum: Option<u8> },
    /// The position of one piece; the value is the position index.
    Pos,
    /// The arrangement after relabelling, as `Perm`, together with the orientation of
    /// every tracked piece (labels below `tracked`), listed in position order. Used for
    /// sets whose orientation vector has too many values for one component: each part
    /// then carries the orientations of its own pieces.
    Pieces { relabel: Vec<u16>, tracked: u16 },
}

/// A component: a set and a facet of it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CompSpec {
    pub set: usize,
    pub kind: CompKind,
}

impl CompSpec {
    /// Bytes that identify this component, for cache keys and file names.
    pub fn key_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(self.set as u32).to_le_bytes());
        match &self.kind {
            CompKind::Perm { relabel } => {
                out.push(b'P');
                for &l in relabel {
                    out.extend_from_slice(&l.to_le_bytes());
                }
            }
            CompKind::Ori { sum } => {
                out.push(b'O');
                out.push(sum.map_or(255, |s| s));
            }
            CompKind::Pos => out.push(b'X'),
            CompKind::Pieces { relabel, tracked } => {
                out.push(b'K');
                out.extend_from_slice(&tracked.to_le_bytes());
                for &l in relabel {
                    out.extend_from_slice(&l.to_le_bytes());
                }
            }
        }
        out
    }

    /// A short human-readable tag: `p` (full arrangement), `p1` (a partial one), `o`, `x`.
    pub fn tag(&self) -> String {
        match &self.kind {
            CompKind::Perm { relabel } => {
                let distinct = relabel
                    .iter()
                    .collect::<std::collections::BTreeSet<_>>()
                    .len();
                if distinct == relabel.len() {
                    "p".into()
                } else {
                    format!("p{distinct}")
                }
            }
            CompKind::Ori { .. } => "o".into(),
            CompKind::Pos => "x".into(),
            CompKind::Pieces { tracked, .. } => format!("k{tracked}"),
        }
    }
}

/// Ranks and unranks one component's values.
#[derive(Clone, Debug)]
pub(super) enum Coder {
    Perm {
        coord: Arrangement,
        relabel: Vec<u16>,
    },
    Ori {
        coord: OriCoord,
        n: u8,
        sum: Option<u8>,
    },
    Pos,
    Pieces {
        coord: Arrangement,
        relabel: Vec<u16>,
        tracked: u16,
        n: u8,
        /// n^(number of tracked pieces).
        oris: u64,
    },
}

/// Why a component could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompError {
    #[error("set {set}: {source}")]
    Coord { set: String, source: CoordError },
    #[error("set {set}: {count} values are too many for a move table")]
    TooLarge { set: String, count: u64 },
    /// The tables a search needs do not fit the memory budget.
    #[error(
        "{what} need {}, more than the memory budget of {}: expected --memory {} or more",
        crate::memory::human(*needed),
        crate::memory::human(*budget),
        crate::memory::suggest((*needed).max(crate::memory::MIN_BUDGET))
    )]
    OverBudget {
        what: String,
        needed: u64,
        budget: u64,
    },
}

/// A component with its coder and its move table.
#[derive(Clone, Debug)]
pub struct Component {
    pub spec: CompSpec,
    /// How many values the component has.
    pub count: u32,
    /// Positions of the set.
    pub(super) len: usize,
    pub(super) coder: Coder,
    /// `table[v * nmoves + m]`: the value after move `m`. Empty until built.
    pub table: Vec<u32>,
}

/// The number of values a spec's coordinate has, without building anything.
pub fn spec_count(puzzle: &Puzzle, spec: &CompSpec) -> Result<u64, CoordError> {
    let set = &puzzle.sets[spec.set];
    match &spec.kind {
        CompKind::Perm { relabel } => Ok(arrangement(puzzle, spec.set, relabel)?.count()),
        CompKind::Ori { sum } => {
            Ok(OriCoord::new(set.orientations.max(1), set.size, sum.is_some())?.count())
        }
        CompKind::Pos => Ok(set.size as u64),
        CompKind::Pieces { relabel, tracked } => {
            let t = puzzle.solved.sets[spec.set]
                .perm
                .iter()
                .filter(|&&l| relabel[l as usize] < *tracked)
                .count() as u32;
            let perms = arrangement(puzzle, spec.set, relabel)?.count();
            (set.orientations.max(1) as u64)
                .checked_pow(t)
                .and_then(|o| o.checked_mul(perms))
                .ok_or_else(|| CoordError::TooLarge(format!("{} pieces'", set.size)))
        }
    }
}

/// The ranking of set `set`'s arrangements seen through `relabel`: orbit by orbit
/// where the moves split the set's positions into several ([`Arrangement`]), since
/// no piece leaves its orbit.
fn arrangement(puzzle: &Puzzle, set: usize, relabel: &[u16]) -> Result<Arrangement, CoordError> {
    let labels: Vec<u16> = puzzle.solved.sets[set]
        .perm
        .iter()
        .map(|&l| relabel[l as usize])
        .collect();
    Arrangement::new(&labels, &puzzle.position_orbits(set))
}

impl Component {
    /// The component's coder, with an empty move table.
    pub fn new(puzzle: &Puzzle, spec: CompSpec) -> Result<Component, CompError> {
        let set = &puzzle.sets[spec.set];
        let err = |source| CompError::Coord {
            set: set.name.clone(),
            source,
        };
        let coder = match &spec.kind {
            CompKind::Perm { relabel } => Coder::Perm {
                coord: arrangement(puzzle, spec.set, relabel).map_err(err)?,
                relabel: relabel.clone(),
            },
            CompKind::Ori { sum } => Coder::Ori {
                coord: OriCoord::new(set.orientations.max(1), set.size, sum.is_some())
                    .map_err(err)?,
                n: set.orientations.max(1),
                sum: *sum,
            },
            CompKind::Pos => Coder::Pos,
            CompKind::Pieces { relabel, tracked } => {
                let labels: Vec<u16> = puzzle.solved.sets[spec.set]
                    .perm
                    .iter()
                    .map(|&l| relabel[l as usize])
                    .collect();
                let t = labels.iter().filter(|&&l| l < *tracked).count() as u32;
                let n = set.orientations.max(1);
                Coder::Pieces {
                    coord: arrangement(puzzle, spec.set, relabel).map_err(err)?,
                    relabel: relabel.clone(),
                    tracked: *tracked,
                    n,
                    oris: (n as u64).checked_pow(t).unwrap_or(u64::MAX),
                }
            }
        };
        let count = match &coder {
            Coder::Perm { coord, .. } => coord.count(),
            Coder::Ori { coord, .. } => coord.count(),
            Coder::Pos => set.size as u64,
            Coder::Pieces { coord, oris, .. } => coord.count().saturating_mul(*oris),
        };
        if count > MAX_COMPONENT_VALUES {
            return Err(CompError::TooLarge {
                set: set.name.clone(),
                count,
            });
        }
        Ok(Component {
            spec,
            count: count as u32,
            len: set.size,
            coder,
            table: Vec::new(),
        })
    }

    /// The component's value in `state`, or `None` when the state cannot be represented
    /// (its labels are not the solved multiset, or its orientation sum differs from the
    /// one every reachable state keeps): such a state is unreachable.
    pub fn value_of(&self, state: &State) -> Option<Coord> {
        let s = &state.sets[self.spec.set];
        match &self.coder {
            Coder::Perm { coord, relabel } => {
                let mut labels = Vec::with_capacity(self.len);
                for &l in &s.perm {
                    labels.push(*relabel.get(l as usize)?);
                }
                if !coord.holds(&labels) {
                    return None;
                }
                Some(Coord(coord.rank(&labels) as u32))
            }
            Coder::Ori { coord, n, sum } => {
                if let Some(sum) = sum {
                    let total: u32 = s.ori.iter().map(|&o| o as u32).sum();
                    if total % *n as u32 != *sum as u32 {
                        return None;
                    }
                }
                Some(Coord(coord.rank(&s.ori) as u32))
            }
            Coder::Pos => None,
            Coder::Pieces {
                coord,
                relabel,
                tracked,
                n,
                oris,
            } => {
                let mut labels = Vec::with_capacity(self.len);
                for &l in &s.perm {
                    labels.push(*relabel.get(l as usize)?);
                }
                if !coord.holds(&labels) {
                    return None;
                }
                let ori = labels
                    .iter()
                    .zip(&s.ori)
                    .filter(|(&l, _)| l < *tracked)
                    .fold(0u64, |acc, (_, &o)| acc * *n as u64 + o as u64);
                Some(Coord((coord.rank(&labels) * oris + ori) as u32))
            }
        }
    }

    /// Writes value `v` into the facet of `out` this component describes: the relabelled
    /// arrangement into `out.perm`, or the orientations into `out.ori`.
    pub(crate) fn decode(&self, v: u32, out: &mut SetState) {
        match &self.coder {
            Coder::Perm { coord, .. } => coord.unrank(v as u64, &mut out.perm),
            Coder::Ori { coord, n, sum } => {
                coord.unrank(v as u64, &mut out.ori);
                if let (Some(s), Some(last)) = (sum, out.ori.last_mut()) {
                    *last = (*last + s) % n;
                }
            }
            Coder::Pos => {}
            Coder::Pieces {
                coord,
                tracked,
                n,
                oris,
                ..
            } => {
                coord.unrank(v as u64 / oris, &mut out.perm);
                let mut r = v as u64 % oris;
                for i in (0..self.len).rev() {
                    if out.perm[i] < *tracked {
                        out.ori[i] = (r % *n as u64) as u8;
                        r /= *n as u64;
                    } else {
                        out.ori[i] = 0;
                    }
                }
            }
        }
    }

    /// The value of a decoded facet (inverse of `decode`).
    fn encode(&self, s: &SetState) -> u32 {
        match &self.coder {
            Coder::Perm { coord, .. } => coord.rank(&s.perm) as u32,
            Coder::Ori { coord, .. } => coord.rank(&s.ori) as u32,
            Coder::Pos => 0,
            Coder::Pieces {
                coord,
                tracked,
                n,
                oris,
                ..
            } => {
                let ori = s
                    .perm
                    .iter()
                    .zip(&s.ori)
                    .filter(|(&l, _)| l < *tracked)
                    .fold(0u64, |acc, (_, &o)| acc * *n as u64 + o as u64);
                (coord.rank(&s.perm) * oris + ori) as u32
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::IgnoreMask;
    use crate::table::relabel::mask_relabel;
    use crate::table::testing::{cube2, transform};

    #[test]
    fn move_tables_agree_with_the_model() {
        let p = cube2();
        let (relabel, wild) = mask_relabel(&p, 0, None);
        assert_eq!(wild, None);
        let mut perm = Component::new(
            &p,
            CompSpec {
                set: 0,
                kind: CompKind::Perm { relabel },
            },
        )
        .unwrap();
        let mut ori = Component::new(
            &p,
            CompSpec {
                set: 0,
                kind: CompKind::Ori { sum: Some(0) },
            },
        )
        .unwrap();
        assert_eq!((perm.count, ori.count), (5040, 729));
        perm.build_table(&p);
        ori.build_table(&p);
        let nm = p.moves.len();
        let mut s = p.solved.clone();
        for step in 0..200usize {
            let m = (step * 7 + step / 3) % nm;
            let (pv, ov) = (perm.value_of(&s).unwrap(), ori.value_of(&s).unwrap());
            s = s.then(&p.moves[m].effect, &p.sets);
            assert_eq!(
                perm.table[pv.0 as usize * nm + m],
                perm.value_of(&s).unwrap().0
            );
            assert_eq!(
                ori.table[ov.0 as usize * nm + m],
                ori.value_of(&s).unwrap().0
            );
        }
    }

    /// A part that carries its pieces' orientations moves like the model, and its goal
    /// values match the solved state where the mask says so.
    #[test]
    fn pieces_components_agree_with_the_model() {
        let p = cube2();
        let spec = CompSpec {
            set: 0,
            kind: CompKind::Pieces {
                relabel: vec![0, 1, 2, 3, 3, 3, 3],
                tracked: 3,
            },
        };
        let mut c = Component::new(&p, spec.clone()).unwrap();
        assert_eq!(c.count as u64, spec_count(&p, &spec).unwrap());
        assert_eq!(c.count, 7 * 6 * 5 * 27);
        c.build_table(&p);
        let nm = p.moves.len();
        let mut s = p.solved.clone();
        for step in 0..300usize {
            let m = (step * 5 + step / 7) % nm;
            let v = c.value_of(&s).unwrap();
            s = s.then(&p.moves[m].effect, &p.sets);
            assert_eq!(c.table[v.0 as usize * nm + m], c.value_of(&s).unwrap().0);
        }
        let solved = c.value_of(&p.solved).unwrap().0;
        assert_eq!(c.goal_values(&p, None), vec![solved]);
        let mask = IgnoreMask {
            perm: vec![false; 7],
            ori: vec![false, true, false, false, false, false, false],
        };
        assert_eq!(c.goal_values(&p, Some(&mask)).len(), 3);
    }

    /// A set whose moves keep two orbits apart (positions 1-4 and 5-8, pieces swapped
    /// across by no move) is ranked orbit by orbit: every value is reachable, the move
    /// table follows the model, a goal that puts a piece in the other orbit gets no
    /// value, and a state that does is unreachable.
    #[test]
    fn a_set_of_two_orbits_is_ranked_orbit_by_orbit() {
        let p = crate::table::testing::puzzle(
            "two orbits",
            &[("S", 8, 1)],
            vec![
                ("A", transform(&[(&[2, 3, 4, 1, 6, 5, 7, 8], &[])])),
                ("B", transform(&[(&[2, 1, 3, 4, 5, 7, 8, 6], &[])])),
            ],
        );
        assert_eq!(
            p.position_orbits(0),
            vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]
        );
        // Pieces 1, 2, 5 and 6 told apart, the rest one wildcard: 4*3 * 4*3 values,
        // where ranked over all eight positions they would be 8*7*6*5.
        let spec = CompSpec {
            set: 0,
            kind: CompKind::Perm {
                relabel: vec![0, 1, 4, 4, 2, 3, 4, 4],
            },
        };
        assert_eq!(spec_count(&p, &spec).unwrap(), 144);
        let mut c = Component::new(&p, spec).unwrap();
        assert_eq!(c.count, 144);
        c.build_table(&p);
        let nm = p.moves.len();
        // Every state the moves reach: the move table agrees with it on every move, and
        // the values reached through the table are those of the states.
        let mut states = vec![p.solved.clone()];
        let mut seen = std::collections::HashSet::from([p.solved.clone()]);
        let mut values = std::collections::BTreeSet::new();
        while let Some(s) = states.pop() {
            let v = c.value_of(&s).unwrap();
            values.insert(v.0);
            for m in 0..nm {
                let t = s.then(&p.moves[m].effect, &p.sets);
                assert_eq!(c.table[v.0 as usize * nm + m], c.value_of(&t).unwrap().0);
                if seen.insert(t.clone()) {
                    states.push(t);
                }
            }
        }
        let mut by_table = std::collections::BTreeSet::from([c.value_of(&p.solved).unwrap().0]);
        let mut frontier: Vec<u32> = by_table.iter().copied().collect();
        while let Some(v) = frontier.pop() {
            for m in 0..nm {
                let w = c.table[v as usize * nm + m];
                if by_table.insert(w) {
                    frontier.push(w);
                }
            }
        }
        assert_eq!(by_table, values);
        assert!(values.iter().all(|&v| v < 144));
        // Pieces 1 and 5 exchanged: no move does that.
        let mut across = p.solved.clone();
        across.sets[0].perm.swap(0, 4);
        assert_eq!(c.value_of(&across), None);
        let mask = IgnoreMask {
            perm: vec![true, false, false, false, true, false, false, false],
            ori: vec![false; 8],
        };
        // Positions 1 and 5 free: only the arrangement that keeps each piece in its
        // orbit is a goal value (the solved one).
        let solved = c.value_of(&p.solved).unwrap().0;
        assert_eq!(c.goal_values(&p, Some(&mask)), vec![solved]);
        // The planner counts parts the same way: the first orbit's four pieces and one
        // of the second take 4! * 4 = 96 values (over all eight positions, 6,720).
        let identity: Vec<u16> = (0..8).collect();
        let groups = crate::table::relabel::split_groups(&p, 0, &identity, None, 1, 144).unwrap();
        assert_eq!(groups[0].labels, vec![0, 1, 2, 3, 4]);
        assert_eq!(groups[0].values, 96);
    }

    #[test]
    fn a_masked_arrangement_has_one_goal_value() {
        let p = cube2();
        let mask = IgnoreMask {
            perm: vec![false, true, true, false, false, false, true],
            ori: vec![false; 7],
        };
        let c = Component::new(
            &p,
            CompSpec {
                set: 0,
                kind: CompKind::Perm {
                    relabel: vec![0, 4, 4, 1, 2, 3, 4],
                },
            },
        )
        .unwrap();
        assert_eq!(c.count, 7 * 6 * 5 * 4);
        assert_eq!(c.goal_values(&p, Some(&mask)).len(), 1);
    }

    #[test]
    fn ori_goals_with_ignores() {
        let p = cube2();
        let mask = IgnoreMask {
            perm: vec![false; 7],
            ori: vec![true, true, false, false, false, false, false],
        };
        let c = Component::new(
            &p,
            CompSpec {
                set: 0,
                kind: CompKind::Ori { sum: None },
            },
        )
        .unwrap();
        assert_eq!(c.goal_values(&p, Some(&mask)).len(), 9);
        let c = Component::new(
            &p,
            CompSpec {
                set: 0,
                kind: CompKind::Ori { sum: Some(0) },
            },
        )
        .unwrap();
        assert_eq!(c.goal_values(&p, None), vec![0]);
    }
}
