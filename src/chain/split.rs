//! A puzzle seen from inside a subgroup ([`Split`]): each set split into the orbits of
//! the subgroup's moves (pieces never leave the orbit of their home), orientation kept
//! only where the parts say, labels numbered from 0 within each part. A phase searched
//! on it has tables over the positions its group can reach (the 3x3x3's second phase:
//! eight corners, eight edges and four slice edges, none of them turned) instead of over
//! the whole puzzle's; and the exact counts of the group machinery are taken on it.

use super::parity::is_parity;
use super::target::orbits;
use crate::puzzle::{IgnoreMask, MoveId, Puzzle, SetDef, SetState, State, Transform};

/// One part: the set it comes from, its positions in order, and whether its
/// orientation is kept.
#[derive(Clone, Debug)]
struct Part {
    set: usize,
    slots: Vec<usize>,
    oriented: bool,
    /// Per label of the set (after any relabelling): its number within the part.
    labels: Vec<u16>,
}

impl Part {
    /// The part's positions of `s` (a state's labels or a move's sources, renamed by
    /// `name`), with orientation only where the part keeps it.
    fn take(&self, s: &SetState, name: impl Fn(u16) -> u16) -> SetState {
        SetState {
            perm: self.slots.iter().map(|&i| name(s.perm[i])).collect(),
            ori: self
                .slots
                .iter()
                .map(|&i| if self.oriented { s.ori[i] } else { 0 })
                .collect(),
        }
    }
}

/// The puzzle split along the orbits of a subgroup.
#[derive(Clone, Debug)]
pub struct Split {
    pub puzzle: Puzzle,
    parts: Vec<Part>,
}

impl Split {
    /// The puzzle of `moves` (of `puzzle`) acting on `solved`, a picture of the solved
    /// state (labels possibly merged): `oriented(set, slots)` says whether a part keeps
    /// its orientation, and `free` marks positions whose orientation the solved picture
    /// leaves free (kept only in an oriented part, as an ignore mask).
    pub fn new(
        puzzle: &Puzzle,
        moves: &[MoveId],
        solved: &State,
        free: &[IgnoreMask],
        oriented: impl Fn(usize, &[usize]) -> bool,
    ) -> Split {
        let orbit = orbits(puzzle, moves);
        let mut parts = Vec::new();
        for (k, set) in puzzle.sets.iter().enumerate() {
            let mut ids: Vec<usize> = orbit[k].clone();
            ids.sort_unstable();
            ids.dedup();
            for id in ids {
                let slots: Vec<usize> = (0..set.size).filter(|&i| orbit[k][i] == id).collect();
                let mut distinct: Vec<u16> =
                    slots.iter().map(|&i| solved.sets[k].perm[i]).collect();
                distinct.sort_unstable();
                distinct.dedup();
                // A parity the picture does not show says nothing.
                if distinct.len() == 1 && is_parity(puzzle, k) {
                    continue;
                }
                let top = solved.sets[k]
                    .perm
                    .iter()
                    .map(|&l| l as usize + 1)
                    .max()
                    .unwrap_or(0);
                let mut labels = vec![0u16; top];
                for (n, &l) in distinct.iter().enumerate() {
                    labels[l as usize] = n as u16;
                }
                let oriented = set.orientations > 1 && oriented(k, &slots);
                parts.push(Part {
                    set: k,
                    slots,
                    oriented,
                    labels,
                });
            }
        }
        let sets: Vec<SetDef> = parts
            .iter()
            .enumerate()
            .map(|(j, p)| SetDef {
                name: format!("{}{}", puzzle.sets[p.set].name, j + 1),
                size: p.slots.len(),
                orientations: if p.oriented {
                    puzzle.sets[p.set].orientations
                } else {
                    1
                },
            })
            .collect();
        let base = moves
            .iter()
            .map(|&m| {
                let e = &puzzle.mv(m).effect;
                let t = Transform {
                    sets: parts
                        .iter()
                        .map(|p| {
                            // A move's entries are positions: numbered within the part.
                            p.take(&e.sets[p.set], |q| {
                                p.slots.binary_search(&(q as usize)).unwrap_or(0) as u16
                            })
                        })
                        .collect(),
                };
                let directed = puzzle.base_moves[puzzle.mv(m).base].directed;
                (puzzle.mv(m).name.clone(), t.to_ksolve(), directed)
            })
            .collect();
        let ignore = parts
            .iter()
            .map(|p| IgnoreMask {
                perm: vec![false; p.slots.len()],
                ori: p
                    .slots
                    .iter()
                    .map(|&i| p.oriented && free[p.set].ori[i])
                    .collect(),
            })
            .collect();
        let solved = picture(&parts, solved);
        Split {
            puzzle: Puzzle::new(puzzle.name.clone(), sets, solved, base, ignore, Vec::new()),
            parts,
        }
    }

    /// `state` (a picture with the labels the split was made with) as a position of the
    /// split puzzle.
    pub fn position(&self, state: &State) -> State {
        picture(&self.parts, state)
    }
}

/// `state` seen through `parts`.
fn picture(parts: &[Part], state: &State) -> State {
    State {
        sets: parts
            .iter()
            .map(|p| {
                p.take(&state.sets[p.set], |l| {
                    p.labels.get(l as usize).copied().unwrap_or(0)
                })
            })
            .collect(),
    }
}
