//! The backtracking search that finds the symmetries of a definition.
//!
//! A symmetry `S` is a permutation of the (set, position, orientation) points that keeps
//! the piece structure: all points of a position go to the points of one position of a
//! set of the same shape, `(k, p, o) -> (k', σ(p), ε·o + t_p)`, where `ε` is +1 for a
//! rotation and -1 for a mirror (one sign for the whole puzzle; it only matters for sets
//! with three or more orientations). It must conjugate every base move `B` onto a move
//! `M` of the puzzle: `S ∘ B = M ∘ S`, so `S` carries each cycle of `B` onto a cycle of
//! `M`. `M` has quarter-turn cost 1 (a power 1 or an inverse of a base move of the same
//! order), so the metric is kept.
//!
//! The search assigns images of points and images of base moves together, propagating
//! the rule `S(B(x)) = M(S(x))` after every choice, so that one point and the moves
//! through it determine a whole orbit. At each node it takes the most constrained
//! choice: a base move whose image is unknown but which moves a point whose image is
//! known (when the image of that point's successor is known too, at most one move
//! fits); failing that, it chooses the image of one point ("seed") that an unassigned
//! move touches. Once every base move has an image, the remaining points (orbits the
//! moves already placed do not reach) are seeded the same way, and the first complete
//! assignment that passes the caller's final checks is kept. Symmetries that differ
//! only by a permutation commuting with every move (for instance twisting every corner
//! at once) conjugate positions alike, so the search records one symmetry per distinct
//! assignment of base-move images and cuts every later branch that reaches an
//! assignment already recorded.

use super::SymmetryError;
use crate::group::points::{Layout, Perm};
use crate::puzzle::Puzzle;
use std::collections::HashSet;

/// "Not assigned yet", for point and move images.
const NONE: u16 = u16::MAX;
const NO_MOVE: usize = usize::MAX;

/// What the search knows at one node. Cloned at each branch: the groups are small and
/// the points few, so copying is cheaper and simpler than an undo trail.
#[derive(Clone)]
struct Partial {
    img: Vec<u16>,
    pre: Vec<u16>,
    set_img: Vec<usize>,
    set_pre: Vec<usize>,
    /// Per base move, the index in `Puzzle::moves` of its image, or `NO_MOVE`.
    mimg: Vec<usize>,
    /// Points whose image is new and not yet pushed through the known moves.
    queue: Vec<u16>,
}

/// The search over one puzzle. `accept` does the final checks on a complete point
/// permutation (labels, blocks, ignores, the whole move list) and builds the result.
pub(super) struct Finder<'a, T> {
    layout: &'a Layout,
    base: Vec<Perm>,
    moves: Vec<Perm>,
    /// Per base move, the moves that may be its image.
    candidates: Vec<Vec<usize>>,
    /// Per point: its set, position and orientation.
    at: Vec<(usize, usize, usize)>,
    /// Per point: whether the definition ignores its position's permutation (bit 0)
    /// and orientation (bit 1).
    ignored: Vec<u8>,
    eps: i64,
    budget: u64,
    nodes: u64,
    seen: HashSet<Vec<usize>>,
    accept: &'a dyn Fn(&[u16]) -> Option<T>,
    pub found: Vec<T>,
}

impl<'a, T> Finder<'a, T> {
    /// Prepares a search; `move_perms[m]` is the point permutation of `puzzle.moves[m]`.
    pub fn new(
        puzzle: &'a Puzzle,
        layout: &'a Layout,
        move_perms: Vec<Perm>,
        budget: u64,
        accept: &'a dyn Fn(&[u16]) -> Option<T>,
    ) -> Self {
        // The search assigns images to the moves searches use (`SearchMoves`; all moves
        // without it): the others (wide turns, rotations, moves defined as sequences of
        // these) follow from the point permutation, and `accept` checks that the whole
        // move list maps onto moves. Assigning them too made the search branch on every
        // family of composite moves (a 4x4x4 with both `Rw` and `3Rw` ran out of budget).
        // Of those, a move that touches every piece another searched move touches, and
        // more, is left to follow too: the 4x4x4's wide turns, searched beside its faces,
        // are fixed by the faces (assigning them as well made the search run out of
        // budget). Moves that merely cover each other's pieces together (faces and inner
        // slices) stay assigned: left to follow, their pieces are seeded one by one.
        let searched: Vec<&crate::puzzle::BaseMove> = puzzle
            .base_moves
            .iter()
            .enumerate()
            .filter(|&(b, _)| puzzle.searched.get(b) != Some(&false))
            .map(|(_, m)| m)
            .collect();
        let contains = |a: &crate::puzzle::BaseMove, b: &crate::puzzle::BaseMove| {
            a.touched != b.touched
                && a.touched
                    .iter()
                    .zip(&b.touched)
                    .all(|(ta, tb)| ta.iter().zip(tb).all(|(&x, &y)| x || !y))
        };
        let larger = |m: &crate::puzzle::BaseMove| searched.iter().any(|&o| contains(m, o));
        // Only where the moves kept touch all its pieces: the Megaminx's `R++` alone
        // moves its centres, which no search could place one by one.
        let mut covered: Vec<Vec<bool>> = puzzle.sets.iter().map(|s| vec![false; s.size]).collect();
        for m in searched.iter().filter(|&&m| !larger(m)) {
            for (t, c) in m.touched.iter().zip(covered.iter_mut()) {
                for (&t, c) in t.iter().zip(c.iter_mut()) {
                    *c |= t;
                }
            }
        }
        let assigned: Vec<&crate::puzzle::BaseMove> = searched
            .iter()
            .copied()
            .filter(|&m| {
                !larger(m)
                    || m.touched
                        .iter()
                        .zip(&covered)
                        .any(|(t, c)| t.iter().zip(c).any(|(&t, &c)| t && !c))
            })
            .collect();
        let base: Vec<Perm> = assigned
            .iter()
            .map(|b| move_perms[b.powers[0].index()].clone())
            .collect();
        let candidates = assigned
            .iter()
            .map(|b| {
                (0..puzzle.moves.len())
                    .filter(|&m| {
                        let mv = &puzzle.moves[m];
                        let other = &puzzle.base_moves[mv.base];
                        other.order == b.order && other.directed == b.directed && mv.qtm == 1
                    })
                    .collect()
            })
            .collect();
        let at: Vec<_> = (0..layout.total).map(|x| layout.locate(x)).collect();
        let ignored = at
            .iter()
            .map(|&(k, p, _)| {
                let m = puzzle.ignore.get(k);
                let bit = |v: Option<&Vec<bool>>| {
                    v.and_then(|v| v.get(p)).copied().unwrap_or(false) as u8
                };
                bit(m.map(|m| &m.perm)) | bit(m.map(|m| &m.ori)) << 1
            })
            .collect();
        Finder {
            at,
            ignored,
            layout,
            base,
            moves: move_perms,
            candidates,
            eps: 1,
            budget,
            nodes: 0,
            seen: HashSet::new(),
            accept,
            found: Vec::new(),
        }
    }

    /// Runs the search for rotations and, when some set has three or more orientations
    /// (so that reversing them differs from keeping them), for mirrors.
    pub fn run(&mut self) -> Result<(), SymmetryError> {
        let l = self.layout;
        let signs: &[i64] = if l.n.iter().any(|&n| n >= 3) {
            &[1, -1]
        } else {
            &[1]
        };
        let sets = self.layout.size.len();
        let root = Partial {
            img: vec![NONE; l.total],
            pre: vec![NONE; l.total],
            set_img: vec![usize::MAX; sets],
            set_pre: vec![usize::MAX; sets],
            mimg: vec![NO_MOVE; self.base.len()],
            queue: Vec::new(),
        };
        for &eps in signs {
            self.eps = eps;
            self.explore(root.clone())?;
        }
        Ok(())
    }

    /// Sends point `x` to point `y`, and with it every orientation of `x`'s position.
    /// False when that contradicts what is known or the structure.
    fn assign(&self, st: &mut Partial, x: usize, y: usize) -> bool {
        let l = self.layout;
        let ((k, p, o), (k2, p2, o2)) = (self.at[x], self.at[y]);
        if l.size[k] != l.size[k2] || l.n[k] != l.n[k2] {
            return false;
        }
        if st.set_img[k] != k2 {
            if st.set_img[k] != usize::MAX || st.set_pre[k2] != usize::MAX {
                return false;
            }
            st.set_img[k] = k2;
            st.set_pre[k2] = k;
        }
        // The definition's Ignore masks must be kept: a symmetry may not carry a
        // position the scrambles may ignore onto one they may not.
        if self.ignored[x] != self.ignored[y] {
            return false;
        }
        let n = l.n[k] as i64;
        for d in 0..n {
            let xs = l.point(k, p, ((o as i64 + d) % n) as usize);
            let ys = l.point(k2, p2, (o2 as i64 + self.eps * d).rem_euclid(n) as usize);
            if st.img[xs] == NONE && st.pre[ys] == NONE {
                st.img[xs] = ys as u16;
                st.pre[ys] = xs as u16;
                st.queue.push(xs as u16);
            } else if st.img[xs] as usize != ys {
                return false;
            }
        }
        true
    }

    /// Applies `S(B(x)) = M(S(x))` for every known move image until nothing changes.
    fn propagate(&self, st: &mut Partial) -> bool {
        while let Some(x) = st.queue.pop() {
            let x = x as usize;
            for b in 0..self.base.len() {
                let m = st.mimg[b];
                if m == NO_MOVE {
                    continue;
                }
                let (y, y2) = (self.base[b][x], self.moves[m][st.img[x] as usize]);
                if !self.assign(st, y as usize, y2 as usize) {
                    return false;
                }
            }
        }
        true
    }

    /// Sets the image of base move `b` and pushes every known point through it.
    fn set_move(&self, st: &mut Partial, b: usize, m: usize) -> bool {
        st.mimg[b] = m;
        for x in 0..st.img.len() {
            if st.img[x] != NONE {
                let (y, y2) = (self.base[b][x], self.moves[m][st.img[x] as usize]);
                if !self.assign(st, y as usize, y2 as usize) {
                    return false;
                }
            }
        }
        true
    }

    fn explore(&mut self, mut st: Partial) -> Result<(), SymmetryError> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(SymmetryError::Budget(self.budget));
        }
        if !self.propagate(&mut st) {
            return Ok(());
        }
        let (pick, any_unknown) = self.pick_move(&st);
        if let Some((b, x)) = pick {
            let sx = st.img[x] as usize;
            let next = st.img[self.base[b][x] as usize];
            for i in 0..self.candidates[b].len() {
                let m = self.candidates[b][i];
                let t = self.moves[m][sx];
                if t as usize == sx || (next != NONE && t != next) {
                    continue;
                }
                let mut child = st.clone();
                if self.set_move(&mut child, b, m) {
                    self.explore(child)?;
                }
            }
            return Ok(());
        }
        if let Some(b) = any_unknown {
            match (0..st.img.len()).find(|&x| self.base[b][x] as usize != x) {
                Some(x) => return self.seed(&st, x),
                None => {
                    // A move that moves nothing can only be the image of such a move.
                    for i in 0..self.candidates[b].len() {
                        let m = self.candidates[b][i];
                        let mut child = st.clone();
                        if crate::group::points::is_identity(&self.moves[m])
                            && self.set_move(&mut child, b, m)
                        {
                            self.explore(child)?;
                        }
                    }
                    return Ok(());
                }
            }
        }
        // Every base move has an image: the move map is decided.
        if self.seen.contains(&st.mimg) {
            return Ok(());
        }
        if let Some(x) = st.img.iter().position(|&y| y == NONE) {
            return self.seed(&st, x);
        }
        if let Some(t) = (self.accept)(&st.img) {
            self.seen.insert(st.mimg.clone());
            self.found.push(t);
        }
        Ok(())
    }

    /// The most constrained base move to decide next, with a point it moves whose image
    /// is known; and otherwise any base move still undecided.
    fn pick_move(&self, st: &Partial) -> (Option<(usize, usize)>, Option<usize>) {
        let mut loose = None;
        let mut unknown = None;
        for b in 0..self.base.len() {
            if st.mimg[b] != NO_MOVE {
                continue;
            }
            unknown.get_or_insert(b);
            for x in 0..st.img.len() {
                let y = self.base[b][x] as usize;
                if st.img[x] == NONE || y == x {
                    continue;
                }
                if st.img[y] != NONE {
                    return (Some((b, x)), unknown);
                }
                loose.get_or_insert((b, x));
            }
        }
        (loose, unknown)
    }

    /// Branches on the image of point `x`: any orientation of any free position of a set
    /// of the same shape.
    fn seed(&mut self, st: &Partial, x: usize) -> Result<(), SymmetryError> {
        let l = self.layout;
        let (k, _, _) = l.locate(x);
        for k2 in 0..l.size.len() {
            let free = st.set_img[k] == k2
                || (st.set_img[k] == usize::MAX && st.set_pre[k2] == usize::MAX);
            if !free || l.size[k2] != l.size[k] || l.n[k2] != l.n[k] {
                continue;
            }
            for p2 in 0..l.size[k2] {
                if st.pre[l.point(k2, p2, 0)] != NONE {
                    continue;
                }
                // Twisting every piece of a set by one amount commutes with every move
                // and keeps every check, so the first point placed in a set may take
                // orientation 0: the other choices give the same action on the moves.
                let fresh = st.set_pre[k2] == usize::MAX;
                for o2 in 0..if fresh { 1 } else { l.n[k2] } {
                    let y = l.point(k2, p2, o2);
                    // A point moved by a base move must go to one its image moves, and a
                    // point it fixes to one its image fixes.
                    let fits = (0..self.base.len()).all(|b| {
                        let m = st.mimg[b];
                        m == NO_MOVE
                            || (self.base[b][x] as usize == x) == (self.moves[m][y] as usize == y)
                    });
                    if !fits {
                        continue;
                    }
                    let mut child = st.clone();
                    if self.assign(&mut child, x, y) {
                        self.explore(child)?;
                    }
                }
            }
        }
        Ok(())
    }
}
