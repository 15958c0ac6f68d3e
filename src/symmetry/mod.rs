//! The symmetries of a puzzle, found from its definition alone.
//!
//! A symmetry is a permutation `S` of the (set, position, orientation) points of
//! `group::points` that
//! - keeps the piece structure: a position's points go to one position of a set of the
//!   same size and orientation count, with an orientation offset per position,
//!   `(k, p, o) -> (k', σ(p), o + t_p)`, or for a mirror `(k', σ(p), t_p - o)` (a mirror
//!   reverses the sense of every twist);
//! - keeps the solved state up to interchangeable labels: it carries the points that show
//!   one colour when solved onto points that show one colour (`conjugate.rs`);
//! - conjugates every move onto a move of the same cost: `S ∘ M ∘ S⁻¹` is in the move
//!   list (a mirror turns clockwise moves into anticlockwise ones, so it maps moves to
//!   inverses); forbidden pairs and what each move touches are carried along;
//! - keeps the definition's `Ignore` masks and maps each `Block` onto a `Block`.
//!
//! Nothing is puzzle-specific: a 3x3x3 has 48 symmetries (24 rotations and their
//! mirror images); a definition that holds a piece still has only those that fix it.
//!
//! The search (`search.rs`) assigns images of points and of base moves together and
//! propagates `S(B(x)) = M(S(x))`; one point and the moves through it fix a whole orbit,
//! so the groups (at most a few hundred elements) are found in a few thousand nodes.
//! Permutations that differ by one commuting with every move (twisting every corner at
//! once) act alike on positions; the group counts actions, one element per distinct
//! action on the moves, and `lift.rs` chooses the point permutations so that they are
//! closed under products.
//!
//! A symmetry conjugates positions: `conjugate(apply(X, m)) == apply(conjugate(X), σ(m))`
//! where `σ(m)` is [`Symmetry::move_image`], so positions related by a symmetry are the
//! same distance from solved.

mod build;
mod conjugate;
mod lift;
mod search;

use crate::group::points::{Layout, Perm};
use crate::puzzle::{MoveId, Puzzle, State, Transform};
use build::Context;
use std::collections::HashMap;

/// The node budget of the search; a few thousand suffice for every shipped puzzle.
pub const DEFAULT_BUDGET: u64 = 2_000_000;

/// Why the symmetries of a puzzle could not be found.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SymmetryError {
    #[error("the puzzle has {0} (set, position, orientation) points; at most 65535 are supported")]
    TooLarge(usize),
    #[error("the puzzle is malformed: {0}")]
    Malformed(String),
    #[error("the search for symmetries gave up after {0} steps")]
    Budget(u64),
}

/// One symmetry: its point permutation, its action on the moves, and what conjugating
/// positions by it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    points: Perm,
    inverse: Perm,
    moves: Vec<MoveId>,
    mirror: bool,
    tables: conjugate::ConjugationTables,
}

impl Symmetry {
    /// The image of every point: `points()[x]` is `S(x)`, with points numbered as in the
    /// group module (set blocks in definition order, then `position * n + orientation`).
    pub fn points(&self) -> &[u16] {
        &self.points
    }

    /// `σ(m)`: the move `S ∘ m ∘ S⁻¹`.
    pub fn move_image(&self, m: MoveId) -> MoveId {
        self.moves[m.index()]
    }

    /// The image of every move, indexed like `Puzzle::moves`.
    pub fn move_map(&self) -> &[MoveId] {
        &self.moves
    }

    /// Whether this symmetry reverses orientation (a reflection: it maps moves to
    /// inverses).
    pub fn is_mirror(&self) -> bool {
        self.mirror
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> bool {
        crate::group::points::is_identity(&self.points)
    }

    /// The conjugate `S ∘ X ∘ S⁻¹` of a position `X` (any valid state of the puzzle,
    /// interchangeable pieces included).
    pub fn conjugate(&self, state: &State) -> State {
        let mut out = state.clone();
        self.tables.conjugate_into(state, &mut out);
        out
    }

    /// The set and position of a position `X` that position `pos` of set `set` of its
    /// conjugate shows (the conjugate reads it through a relabelling).
    pub fn source(&self, set: usize, pos: usize) -> (usize, usize) {
        self.tables.source(set, pos)
    }

    /// The label a piece with label `label` of set `set` carries in a conjugate (`None`
    /// for labels the solved state does not use).
    pub fn label_image(&self, set: usize, label: u16) -> Option<u16> {
        self.tables.label_image(set, label)
    }

    /// The facet offset a piece with label `label` of set `set` gets in a conjugate
    /// (`None` for labels the solved state does not use): the conjugate's twist at a
    /// position is the source's twist, reversed for a mirror, plus a per-position term,
    /// plus this offset.
    pub fn label_offset(&self, set: usize, label: u16) -> Option<u8> {
        self.tables.label_offset(set, label)
    }

    /// Like [`Symmetry::conjugate`], writing into `out` (same shape) without allocating.
    pub fn conjugate_into(&self, state: &State, out: &mut State) {
        self.tables.conjugate_into(state, out);
    }
}

/// The symmetry group of a puzzle. Element 0 is the identity.
#[derive(Clone, Debug)]
pub struct SymmetryGroup {
    layout: Layout,
    elements: Vec<Symmetry>,
    index: HashMap<Vec<MoveId>, usize>,
    points_closed: bool,
}

impl SymmetryGroup {
    /// Finds every symmetry of `puzzle` with the default budget.
    pub fn find(puzzle: &Puzzle) -> Result<SymmetryGroup, SymmetryError> {
        Self::find_with_budget(puzzle, DEFAULT_BUDGET)
    }

    /// Finds every symmetry of `puzzle`, giving up after `budget` search nodes.
    pub fn find_with_budget(puzzle: &Puzzle, budget: u64) -> Result<SymmetryGroup, SymmetryError> {
        let ctx = Context::new(puzzle, layout(puzzle)?);
        let accept = |s: &[u16]| ctx.build(s);
        let mut finder =
            search::Finder::new(puzzle, &ctx.layout, ctx.move_perms.clone(), budget, &accept);
        finder.run()?;
        let mut elements = std::mem::take(&mut finder.found);
        elements.sort_by(|a, b| a.moves.cmp(&b.moves));
        let lifted = lift::lift(&ctx, &elements).and_then(|perms| {
            perms
                .iter()
                .map(|p| ctx.build(p))
                .collect::<Option<Vec<_>>>()
        });
        let points_closed = lifted.is_some();
        if let Some(l) = lifted {
            elements = l;
        }
        if ctx.chiral_set.is_none() {
            classify_mirrors(puzzle, &mut elements);
        }
        // Rotations first, then mirrors, each by move map: the identity (whose move map
        // is the smallest) comes first.
        elements.sort_by(|a, b| (a.mirror, &a.moves).cmp(&(b.mirror, &b.moves)));
        Ok(Self::from_elements(ctx.layout, elements, points_closed))
    }

    /// The group of the identity alone: what `--no-symmetry` uses.
    pub fn trivial(puzzle: &Puzzle) -> Result<SymmetryGroup, SymmetryError> {
        let ctx = Context::new(puzzle, layout(puzzle)?);
        let id = crate::group::points::identity(ctx.layout.total);
        let e = ctx
            .build(&id)
            .ok_or_else(|| SymmetryError::Malformed("the identity is refused".into()))?;
        Ok(Self::from_elements(ctx.layout, vec![e], true))
    }

    fn from_elements(layout: Layout, elements: Vec<Symmetry>, points_closed: bool) -> Self {
        let index = elements
            .iter()
            .enumerate()
            .map(|(i, e)| (e.moves.clone(), i))
            .collect();
        SymmetryGroup {
            layout,
            elements,
            index,
            points_closed,
        }
    }

    /// The number of symmetries (mirrors included).
    pub fn order(&self) -> usize {
        self.elements.len()
    }

    /// The number of mirror symmetries.
    pub fn mirrors(&self) -> usize {
        self.elements.iter().filter(|e| e.mirror).count()
    }

    /// The number of symmetries that are not mirrors.
    pub fn rotations(&self) -> usize {
        self.order() - self.mirrors()
    }

    /// Every symmetry, the identity first, then the other rotations, then mirrors.
    pub fn elements(&self) -> &[Symmetry] {
        &self.elements
    }

    /// Whether the stored point permutations are closed under products (always for
    /// the shipped puzzles). When false, a product equals the stored element only up to
    /// a permutation that commutes with every move, which conjugates positions alike.
    pub fn points_closed(&self) -> bool {
        self.points_closed
    }

    /// The index of the element with this action on the moves.
    pub fn find_by_moves(&self, moves: &[MoveId]) -> Option<usize> {
        self.index.get(moves).copied()
    }

    /// The index of `a` followed by `b`: conjugating by it is conjugating by `a`, then
    /// by `b`.
    pub fn product(&self, a: usize, b: usize) -> usize {
        let (x, y) = (&self.elements[a].moves, &self.elements[b].moves);
        let m: Vec<MoveId> = x.iter().map(|&m| y[m.index()]).collect();
        self.index[&m]
    }

    /// The index of the inverse of `a`.
    pub fn inverse(&self, a: usize) -> usize {
        let x = &self.elements[a].moves;
        let mut m = x.clone();
        for (i, &y) in x.iter().enumerate() {
            m[y.index()] = MoveId(i as u16);
        }
        self.index[&m]
    }

    /// `S ∘ t ∘ S⁻¹` for a transformation with distinct labels (a move, or a state read
    /// as the transformation that makes it from the identity), on points.
    pub fn conjugate_transform(&self, a: usize, t: &Transform) -> Transform {
        let e = &self.elements[a];
        conjugate::conjugate_transform(&self.layout, &e.points, &e.inverse, t)
    }
}

/// Marks the mirrors of a puzzle without a set of three or more orientations, where
/// reversed twists cannot show them. A mirror turns moves the other way: it maps a move
/// to the inverse of its image. Which moves of a definition turn "the same way" is not
/// known (a 4x4x4's inner slice `u` and the opposite `d'` turn alike), so this takes the
/// first class of base moves that the symmetries carry onto one another (such as the
/// outer faces) on which every symmetry is consistent, sending all of them to images or
/// all to inverses; then "sends them to inverses" is a sign that multiplies, and the
/// mirrors are the elements with sign -1. Without such a class no element is a mirror.
fn classify_mirrors(p: &Puzzle, elements: &mut [Symmetry]) {
    let image = |e: &Symmetry, b: usize| p.mv(e.moves[p.base_moves[b].powers[0].index()]);
    let mut done = vec![false; p.base_moves.len()];
    for b0 in 0..p.base_moves.len() {
        if done[b0] || p.base_moves[b0].order <= 2 || p.base_moves[b0].directed {
            continue;
        }
        let class: std::collections::BTreeSet<usize> =
            elements.iter().map(|e| image(e, b0).base).collect();
        for &b in &class {
            done[b] = true;
        }
        let signs: Option<Vec<bool>> = elements
            .iter()
            .map(|e| {
                let first = image(e, b0).power != 1;
                class
                    .iter()
                    .all(|&b| (image(e, b).power != 1) == first)
                    .then_some(first)
            })
            .collect();
        if let Some(signs) = signs {
            for (e, m) in elements.iter_mut().zip(signs) {
                e.mirror = m;
            }
            return;
        }
    }
}

/// The point layout, after checking that the puzzle's parts have the shapes the points
/// need (a puzzle from the definition loader always does).
fn layout(p: &Puzzle) -> Result<Layout, SymmetryError> {
    let bad = |what: String| Err(SymmetryError::Malformed(what));
    let shaped = |t: &Transform, perm_ok: bool| {
        t.sets.len() == p.sets.len()
            && t.sets.iter().zip(&p.sets).all(|(s, d)| {
                let mut seen = vec![false; d.size];
                s.perm.len() == d.size
                    && s.ori.len() == d.size
                    && s.ori.iter().all(|&o| o < d.orientations.max(1))
                    && (!perm_ok
                        || s.perm.iter().all(|&x| {
                            (x as usize) < d.size && !std::mem::replace(&mut seen[x as usize], true)
                        }))
            })
    };
    if !shaped(&p.solved, false) {
        return bad("the solved state does not fit the sets".into());
    }
    for m in &p.moves {
        if !shaped(&m.effect, true) {
            return bad(format!("move {} does not permute the positions", m.name));
        }
    }
    if p.ignore.iter().zip(&p.sets).any(|(m, d)| {
        (!m.perm.is_empty() && m.perm.len() != d.size)
            || (!m.ori.is_empty() && m.ori.len() != d.size)
    }) || p.base_moves.iter().any(|b| {
        b.powers.is_empty()
            || b.touched.len() != p.sets.len()
            || b.touched
                .iter()
                .zip(&p.sets)
                .any(|(t, d)| t.len() != d.size)
    }) {
        return bad("an ignore mask or a move's touched mask does not fit the sets".into());
    }
    let n = p.moves.len();
    if p.forbidden.len() != n * n
        || p.blocks
            .iter()
            .any(|b| b.pieces.iter().any(|&(k, _)| k >= p.sets.len()))
    {
        return bad("the forbidden pairs or a block do not fit the puzzle".into());
    }
    let total = p
        .sets
        .iter()
        .map(|s| s.size * s.orientations.max(1) as usize)
        .sum();
    Layout::new(&p.sets, &p.solved).ok_or(SymmetryError::TooLarge(total))
}

#[cfg(test)]
mod tests;
