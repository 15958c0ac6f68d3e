//! A puzzle seen from inside a subgroup ([`Split`]): each set split into the orbits of
//! the subgroup's moves (pieces never leave the orbit of their home), orientation kept
//! only where the parts say, labels numbered from 0 within each part. A phase searched
//! on it has tables over the positions its group can reach (the 3x3x3's second phase:
//! eight corners, eight edges and four slice edges, none of them turned) instead of over
//! the whole puzzle's; and the exact counts of the group machinery are taken on it.
//!
//! A phase whose lower group moves pieces of two orbits in pairs ([`Split::linked`]:
//! the 4x4x4's wings under the reduced cube's moves) keeps the two orbits in one set,
//! each position beside its partner's, so that the tables the planner cuts from the set
//! see pieces of both orbits together: how the pieces pair up is what such a phase
//! solves, and no table of one orbit sees it.

use super::parity::is_parity;
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
    /// Per position of the set: its number within the part.
    index: Vec<u16>,
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
        Split::linked(puzzle, moves, &[], solved, free, oriented)
    }

    /// [`Split::new`], with two orbits of distinct pieces kept in one set where the
    /// group `lower` generates moves their pieces in pairs ([`slot_groups`]).
    pub fn linked(
        puzzle: &Puzzle,
        moves: &[MoveId],
        lower: &[MoveId],
        solved: &State,
        free: &[IgnoreMask],
        oriented: impl Fn(usize, &[usize]) -> bool,
    ) -> Split {
        let groups = slot_groups(puzzle, moves, lower, solved);
        let mut parts = Vec::new();
        for (k, set) in puzzle.sets.iter().enumerate() {
            for (slots, joined) in groups[k].iter().cloned() {
                let mut distinct: Vec<u16> =
                    slots.iter().map(|&i| solved.sets[k].perm[i]).collect();
                // A joined part numbers its pieces in the order of its positions, so
                // that partners are neighbours; another part in label order.
                if !joined {
                    distinct.sort_unstable();
                    distinct.dedup();
                }
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
                let mut index = vec![0u16; set.size];
                for (n, &i) in slots.iter().enumerate() {
                    index[i] = n as u16;
                }
                parts.push(Part {
                    set: k,
                    slots,
                    oriented,
                    labels,
                    index,
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
                            p.take(&e.sets[p.set], |q| p.index[q as usize])
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

/// Per set, the orbit each position is in under `moves` (an id per orbit, its smallest
/// position).
pub fn orbits(puzzle: &Puzzle, moves: &[MoveId]) -> Vec<Vec<usize>> {
    (0..puzzle.sets.len())
        .map(|k| puzzle.orbit_roots(k, moves))
        .collect()
}

/// The representative of `i`'s class in the union-find forest `parent`, halving the
/// path on the way.
pub(super) fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Per set, its parts as positions in order, each with whether it joins two orbits:
/// the orbits of `moves`, positions ascending; but two orbits of the same size whose
/// pieces are distinct are joined where the group `lower` generates moves them in
/// pairs (wherever it takes the piece at a position of the first, it takes the piece at
/// one same position of the second beside it), each position then followed by its
/// partner.
fn slot_groups(
    puzzle: &Puzzle,
    moves: &[MoveId],
    lower: &[MoveId],
    solved: &State,
) -> Vec<Vec<(Vec<usize>, bool)>> {
    let orbit = orbits(puzzle, moves);
    (0..puzzle.sets.len())
        .map(|k| {
            let size = puzzle.sets[k].size;
            let mut ids: Vec<usize> = orbit[k].clone();
            ids.sort_unstable();
            ids.dedup();
            let mut plain: Vec<Vec<usize>> = ids
                .iter()
                .map(|&id| (0..size).filter(|&i| orbit[k][i] == id).collect())
                .collect();
            let labels = &solved.sets[k].perm;
            let distinct = |slots: &[usize]| {
                let mut l: Vec<u16> = slots.iter().map(|&i| labels[i]).collect();
                l.sort_unstable();
                l.dedup();
                l.len() == slots.len()
            };
            // Where each move of `lower` takes each position.
            let to: Vec<Vec<usize>> = lower
                .iter()
                .map(|&m| {
                    let perm = &puzzle.mv(m).effect.sets[k].perm;
                    let mut t = vec![0; size];
                    for (j, &from) in perm.iter().enumerate() {
                        t[from as usize] = j;
                    }
                    t
                })
                .collect();
            let mut out = Vec::new();
            let mut used = vec![false; plain.len()];
            for a in 0..plain.len() {
                if used[a] {
                    continue;
                }
                used[a] = true;
                let partner = (a + 1..plain.len())
                    .filter(|&b| !used[b] && plain[b].len() == plain[a].len() && plain[a].len() > 1)
                    .filter(|&b| distinct(&plain[a]) && distinct(&plain[b]))
                    .find_map(|b| pairing(&plain[a], &plain[b], &to).map(|p| (b, p)));
                match partner {
                    Some((b, p)) => {
                        used[b] = true;
                        let slots = plain[a].iter().flat_map(|&x| [x, p[&x]]).collect();
                        out.push((slots, true));
                    }
                    None => out.push((std::mem::take(&mut plain[a]), false)),
                }
            }
            out
        })
        .collect()
}

/// The partner in `b` of each position of `a`, when the moves `to` (where each takes
/// each position) always take a position of `a` and its partner together.
fn pairing(
    a: &[usize],
    b: &[usize],
    to: &[Vec<usize>],
) -> Option<std::collections::HashMap<usize, usize>> {
    if to.is_empty() {
        return None;
    }
    b.iter().find_map(|&q| {
        let mut partner = std::collections::HashMap::from([(a[0], q)]);
        let mut queue = vec![(a[0], q)];
        while let Some((x, y)) = queue.pop() {
            for t in to {
                let (x2, y2) = (t[x], t[y]);
                match partner.get(&x2) {
                    Some(&known) if known != y2 => return None,
                    Some(_) => {}
                    None => {
                        partner.insert(x2, y2);
                        queue.push((x2, y2));
                    }
                }
            }
        }
        let covered = partner.len() == a.len() && a.iter().all(|x| partner.contains_key(x));
        let onto: std::collections::HashSet<usize> = partner.values().copied().collect();
        (covered && onto.len() == b.len() && b.iter().all(|y| onto.contains(y))).then_some(partner)
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::parse_puzzle;

    /// Four pieces in two orbits ({1, 3} and {2, 4}): `A` swaps the first pair of
    /// places, `B` the second, and `C` both at once, so that under `C` alone pieces 1
    /// and 2 (and 3 and 4) always travel together.
    fn pairs() -> Puzzle {
        let def = "Set W 4 1\nSolved\nW\n1 2 3 4\nEnd\n\
                   Move A\nW\n3 2 1 4\nEnd\n\
                   Move B\nW\n1 4 3 2\nEnd\n\
                   Move C\nW\n3 4 1 2\nEnd\n";
        parse_puzzle(def.as_bytes(), "pairs.def").unwrap().0
    }

    #[test]
    fn orbits_whose_pieces_travel_in_pairs_share_a_set() {
        let p = pairs();
        let mv = |n: &str| p.move_by_name(n).unwrap();
        let upper = [mv("A"), mv("B")];
        let free = vec![IgnoreMask {
            perm: vec![false; 4],
            ori: vec![false; 4],
        }];
        let apart = Split::new(&p, &upper, &p.solved, &free, |_, _| false);
        assert_eq!(apart.puzzle.sets.len(), 2);
        let joined = Split::linked(&p, &upper, &[mv("C")], &p.solved, &free, |_, _| false);
        assert_eq!(joined.puzzle.sets.len(), 1);
        // Each position is followed by its partner's: 1 2 3 4 in that order.
        assert_eq!(joined.parts[0].slots, vec![0, 1, 2, 3]);
        // The joined puzzle's moves are the upper group's: A swaps pieces 1 and 3.
        let a = joined.puzzle.move_by_name("A").unwrap();
        let after = joined.puzzle.apply_sequence(&joined.puzzle.solved, &[a]);
        assert_eq!(after.sets[0].perm, vec![2, 1, 0, 3]);
        // Under A alone the second orbit stays put: no pairs.
        let not = Split::linked(&p, &upper, &[mv("A")], &p.solved, &free, |_, _| false);
        assert_eq!(not.puzzle.sets.len(), 2);
    }
}
