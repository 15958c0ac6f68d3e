//! Mirror images of a guarded board: the second lookup of Korf's 15-puzzle search.
//!
//! A [`Mirror`] renumbers the board's positions (`σ`) and, through the solved state, its
//! labels (`τ`), so that the goal is its own image and every move's image is a move of
//! the definition: the same effect carried over by `σ`, the guard carried over by `σ`
//! and `τ`, the same cost, searched alike. Then the image of a position is exactly as far
//! from the goal as the position, so a family's bound of the image bounds the position
//! too, and the larger of the two may be used. The 15-puzzle's reflection in its main
//! diagonal is one: with tables of blocks of two by three, its image is bounded as if by
//! blocks of three by two.
//!
//! Mirrors are found from the definition alone: renumberings that keep which positions
//! one move changes together (a depth-first search over positions, checked as it goes)
//! are candidates, and each candidate is kept only when every move passes the check
//! above. Puzzles with more than one set get none.

use crate::puzzle::{MoveId, Puzzle};
use std::collections::HashMap;

/// One mirror image: `pos[i]` is where position `i`'s piece goes, `label[l]` the label
/// piece `l` carries there (`u16::MAX` for labels the solved state does not hold).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mirror {
    pub pos: Vec<u16>,
    pub label: Vec<u16>,
}

impl Mirror {
    /// Writes into `out` the labels of the image of the position whose set shows
    /// `labels` (`u16::MAX` for a label the solved state does not hold).
    #[inline]
    pub fn image(&self, labels: &[u16], out: &mut [u16]) {
        for (i, &l) in labels.iter().enumerate() {
            out[self.pos[i] as usize] = self.label.get(l as usize).copied().unwrap_or(u16::MAX);
        }
    }
}

/// The most search steps spent looking for mirrors: a board's neighbour graph pins a
/// renumbering down after a few positions, so this is only a guard against odd graphs.
const BUDGET: usize = 200_000;

/// Every mirror of `puzzle`'s set `set` other than the identity.
pub fn mirrors(puzzle: &Puzzle, set: usize) -> Vec<Mirror> {
    if puzzle.sets.len() != 1 || set != 0 {
        return Vec::new();
    }
    let size = puzzle.sets[set].size;
    let near = super::neighbours(puzzle, set);
    let solved = &puzzle.solved.sets[set].perm;
    let mut found = Vec::new();
    let mut sigma = vec![usize::MAX; size];
    let mut used = vec![false; size];
    let mut steps = 0;
    extend(
        &near,
        solved,
        size,
        0,
        &mut sigma,
        &mut used,
        &mut steps,
        &mut |sigma| {
            if let Some(m) = check(puzzle, set, sigma) {
                found.push(m);
            }
        },
    );
    found.retain(|m: &Mirror| m.pos.iter().enumerate().any(|(i, &p)| p as usize != i));
    found
}

/// Assigns `sigma[i]` and onwards, keeping neighbours neighbours and the solved labels'
/// pattern (two positions hold one label exactly when their images do), and calls `done`
/// with every complete renumbering.
#[allow(clippy::too_many_arguments)]
fn extend(
    near: &[bool],
    solved: &[u16],
    size: usize,
    i: usize,
    sigma: &mut [usize],
    used: &mut [bool],
    steps: &mut usize,
    done: &mut dyn FnMut(&[usize]),
) {
    if i == size {
        done(sigma);
        return;
    }
    for p in 0..size {
        *steps += 1;
        if *steps > BUDGET {
            return;
        }
        if used[p] {
            continue;
        }
        let fits = (0..i).all(|j| {
            near[j * size + i] == near[sigma[j] * size + p]
                && (solved[j] == solved[i]) == (solved[sigma[j]] == solved[p])
        });
        if !fits {
            continue;
        }
        sigma[i] = p;
        used[p] = true;
        extend(near, solved, size, i + 1, sigma, used, steps, done);
        used[p] = false;
        sigma[i] = usize::MAX;
    }
}

/// The mirror `sigma` makes, if the goal and every move are their own images under it.
fn check(puzzle: &Puzzle, set: usize, sigma: &[usize]) -> Option<Mirror> {
    let size = sigma.len();
    let solved = &puzzle.solved.sets[set].perm;
    let max = solved.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
    let mut label = vec![u16::MAX; max];
    for i in 0..size {
        label[solved[i] as usize] = solved[sigma[i]];
    }
    let ignored = |i: usize| {
        puzzle
            .ignore
            .get(set)
            .is_some_and(|m| m.perm.get(i) == Some(&true) || m.ori.get(i) == Some(&true))
    };
    if (0..size).any(|i| ignored(i) != ignored(sigma[i])) || !puzzle.free.iter().all(Vec::is_empty)
    {
        return None;
    }
    // A move as the search sees it: its effect on the set and its guard's conditions.
    type Shape = (Vec<u16>, Vec<(usize, Vec<u16>)>);
    let shape_of = |m: MoveId| -> Shape {
        let mut conds: Vec<(usize, Vec<u16>)> = puzzle
            .guard_of(m)
            .map(|g| g.conds.iter().map(|c| (c.pos, c.labels.clone())).collect())
            .unwrap_or_default();
        conds.sort();
        (puzzle.mv(m).effect.sets[set].perm.clone(), conds)
    };
    let ids = (0..puzzle.moves.len()).map(|m| MoveId(m as u16));
    let by_shape: HashMap<Shape, MoveId> = ids.clone().map(|m| (shape_of(m), m)).collect();
    for m in ids {
        let (src, conds) = shape_of(m);
        // Position σ(i) of the image takes its piece from σ(src[i]).
        let mut image_src = vec![0u16; size];
        for i in 0..size {
            image_src[sigma[i]] = sigma[src[i] as usize] as u16;
        }
        let mut image_conds = Vec::with_capacity(conds.len());
        for (pos, labels) in conds {
            let mut l: Vec<u16> = labels
                .iter()
                .map(|&x| label.get(x as usize).copied().unwrap_or(u16::MAX))
                .collect();
            if l.contains(&u16::MAX) {
                return None;
            }
            l.sort_unstable();
            image_conds.push((sigma[pos], l));
        }
        image_conds.sort();
        let image = *by_shape.get(&(image_src, image_conds))?;
        let (a, b) = (puzzle.mv(m), puzzle.mv(image));
        let searched = |x: MoveId| puzzle.searched.get(puzzle.mv(x).base).copied();
        if a.weight != b.weight || a.qtm != b.qtm || searched(m) != searched(image) {
            return None;
        }
    }
    Some(Mirror {
        pos: sigma.iter().map(|&p| p as u16).collect(),
        label,
    })
}
