//! The puzzle model: piece sets, states, moves with their generated powers, and the
//! rules (ignores, blocks, forbidden pairs) that a validated definition carries.
//!
//! Conventions follow ksolve+ exactly. A state gives, per set, the label of the piece
//! at each position (`perm[i]`, 0-based) and its orientation (`ori[i]`). A move is
//! stored as the state it makes from the identity, with orientation already moved to
//! the destination position, so that applying a move and composing two moves are the
//! same operation: `out.perm[i] = s.perm[m.perm[i]]`,
//! `out.ori[i] = (s.ori[m.perm[i]] + m.ori[i]) mod n`. The definition file gives a
//! move's orientation by *source* position (ksolve+'s convention); [`Transform::from_ksolve`]
//! converts once at load time so the hot paths never see the other form.

mod auf;
pub mod board;
mod closure;
mod goal;
mod guard;
mod keep;
pub mod limits;
pub mod modulo;
pub(crate) mod moves;
pub(crate) mod names;
mod orbits;
mod relabel;
pub mod stickers;
mod target;
mod turns;

pub use auf::Auf;
pub use closure::MAX_CLOSURE;
pub use goal::{union_masks, Classes, Goal, GoalPosition};
pub use guard::{Cond, Guard, Rule};
pub use moves::{order, power_name, qtm_cost, MoveId};
pub use relabel::Relabel;
pub use target::{LimitKey, Metric, MoveLimit, Scramble, ScrambleSource, SolveSettings, Target};
pub use turns::{Lengths, TurnKind, TurnKinds, TurnMetric};

use std::fmt;

/// One kind of piece: how many there are and how many orientations each has.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetDef {
    pub name: String,
    pub size: usize,
    pub orientations: u8,
}

/// Permutation and orientation of one set. `perm[i]` is the 0-based label of the piece
/// at position `i`; labels may repeat when pieces are interchangeable.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SetState {
    pub perm: Vec<u16>,
    pub ori: Vec<u8>,
}

impl SetState {
    /// The identity arrangement of `size` pieces, all unoriented.
    pub fn identity(size: usize) -> SetState {
        SetState {
            perm: (0..size as u16).collect(),
            ori: vec![0; size],
        }
    }
}

/// A whole-puzzle state (or, read as a transformation, a move): one [`SetState`] per set,
/// in the definition's set order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transform {
    pub sets: Vec<SetState>,
}

/// A position of the puzzle. It has the same shape as a move, and the same composition.
pub type State = Transform;

impl Transform {
    /// The solved-looking identity: every piece home and unoriented.
    pub fn identity(sets: &[SetDef]) -> Transform {
        Transform {
            sets: sets.iter().map(|s| SetState::identity(s.size)).collect(),
        }
    }

    /// Builds a move from ksolve+'s file form, where `ori[j]` is the twist given to the
    /// piece that leaves position `j` (source-indexed).
    pub fn from_ksolve(sets: &[SetDef], file_form: &Transform) -> Transform {
        let mut out = file_form.clone();
        for ((set, src), dst) in sets.iter().zip(&file_form.sets).zip(&mut out.sets) {
            let n = set.orientations.max(1);
            for i in 0..set.size {
                dst.ori[i] = src.ori[src.perm[i] as usize] % n;
            }
        }
        out
    }

    /// The inverse of [`Transform::from_ksolve`]: the source-indexed orientation form that a
    /// definition file would hold for this move.
    pub fn to_ksolve(&self) -> Transform {
        let mut out = self.clone();
        for (src, dst) in self.sets.iter().zip(&mut out.sets) {
            for i in 0..src.perm.len() {
                dst.ori[src.perm[i] as usize] = src.ori[i];
            }
        }
        out
    }

    /// `self` followed by `m`. When `self` is a state this applies move `m` to it; when
    /// both are moves it is their composition.
    pub fn then(&self, m: &Transform, sets: &[SetDef]) -> Transform {
        let mut out = self.clone();
        self.then_into(m, sets, &mut out);
        out
    }

    /// Like [`Transform::then`] but writes into `out`, which must have the same shape;
    /// used in loops that must not allocate.
    pub fn then_into(&self, m: &Transform, sets: &[SetDef], out: &mut Transform) {
        for (k, set) in sets.iter().enumerate() {
            let n = set.orientations.max(1) as u32;
            let (s, mv, o) = (&self.sets[k], &m.sets[k], &mut out.sets[k]);
            for i in 0..set.size {
                let from = mv.perm[i] as usize;
                o.perm[i] = s.perm[from];
                // Twists are below n, so one subtraction reduces the sum: a division
                // per piece cost more than the rest of this, which the search runs per
                // child at its inverse.
                let v = s.ori[from] as u32 + mv.ori[i] as u32;
                let v = if v >= n { v - n } else { v };
                o.ori[i] = (if v < n { v } else { v % n }) as u8;
            }
        }
    }

    /// The inverse transformation: `m.then(&m.inverse())` is the identity.
    /// Only meaningful for moves (distinct labels).
    pub fn inverse(&self, sets: &[SetDef]) -> Transform {
        let mut out = self.clone();
        for (k, set) in sets.iter().enumerate() {
            let n = set.orientations.max(1);
            let (m, o) = (&self.sets[k], &mut out.sets[k]);
            for i in 0..set.size {
                let j = m.perm[i] as usize;
                o.perm[j] = i as u16;
                o.ori[j] = (n - m.ori[i] % n) % n;
            }
        }
        out
    }

    /// Whether this transformation is the identity.
    pub fn is_identity(&self) -> bool {
        self.sets.iter().all(|s| {
            s.perm.iter().enumerate().all(|(i, &p)| p as usize == i)
                && s.ori.iter().all(|&o| o == 0)
        })
    }
}

/// A move as the user defined it, with the powers generated from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseMove {
    pub name: String,
    /// The order of the move: the smallest k > 0 with move^k = identity.
    pub order: u32,
    /// When set, the move is used only as given: no powers are generated (our extension,
    /// written `Move NAME noinverse`, for puzzles whose parts turn one way only).
    pub directed: bool,
    /// The effect of one application.
    pub effect: Transform,
    /// Per set and position: whether this move moves or twists the piece there. Kept
    /// apart from `effect` because a move may "twist" a piece of a one-orientation set,
    /// which changes nothing in the state but counts as moving it for `Block`.
    pub touched: Vec<Vec<bool>>,
    /// The moves (powers 1, 2, ..., order-1, or just 1 when directed) in [`Puzzle::moves`].
    pub powers: Vec<MoveId>,
}

/// One concrete move the search may make: a base move raised to a power.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub name: String,
    /// Index of the base move in [`Puzzle::base_moves`].
    pub base: usize,
    /// The exponent, 1 ..= order-1.
    pub power: u32,
    /// The cost of this move in the quarter-turn metric: `min(power, order - power)`.
    pub qtm: u32,
    /// The definition's `MoveCosts` weight (1 when none is given): the search counts
    /// this move as `weight` times its cost in the metric ([`Puzzle::move_cost`]).
    pub weight: u32,
    pub effect: Transform,
}

/// What a definition allows scrambles to ignore, per set, by position.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct IgnoreMask {
    pub perm: Vec<bool>,
    pub ori: Vec<bool>,
}

impl IgnoreMask {
    /// Whether the mask ignores anything at all.
    pub fn any(&self) -> bool {
        self.perm.iter().chain(&self.ori).any(|&b| b)
    }
}

/// A group of pieces bandaged together: every move moves all of them or none.
/// Pieces are named by set index and 0-based piece label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub pieces: Vec<(usize, u16)>,
}

/// A validated puzzle: everything the solver and the God's-algorithm mode need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub name: Option<String>,
    pub sets: Vec<SetDef>,
    pub solved: State,
    pub base_moves: Vec<BaseMove>,
    /// Every move, grouped by base move in definition order, powers ascending; this is
    /// the order in which ksolve+ tries moves, and so the order of printed solutions.
    pub moves: Vec<Move>,
    /// Per set; all false where the definition ignores nothing.
    pub ignore: Vec<IgnoreMask>,
    pub blocks: Vec<Block>,
    /// `forbidden[a * moves.len() + b]`: move `b` may not follow move `a`, because the
    /// user said so (`ForbiddenPairs`, `ForbiddenGroups`). The automatic rules (same base
    /// move, commuting order) are in [`Puzzle::canonical_successor`].
    pub forbidden: Vec<bool>,
    /// Other names for moves (twsearch's `MoveAlias`, powers included): accepted
    /// wherever a move is named, never searched as moves of their own.
    pub aliases: Vec<(String, MoveId)>,
    /// The sticker map (our `Stickers ... End` block), when the definition has one: how
    /// positions look, and how they are read from their colours.
    pub stickers: Option<stickers::StickerMap>,
    /// The board (our `Board ... End` block), when the definition has one: a set drawn
    /// as a grid of cells.
    pub board: Option<board::Board>,
    /// Per base move: the condition on the position it is made from (a sliding block
    /// needs empty cells to slide into), if any. See [`Guard`].
    pub guards: Vec<Option<Guard>>,
    /// Per set and position: whether the goal leaves it free (`?` in `Solved`), so
    /// that the goal is the set of positions agreeing with `solved` elsewhere. Empty
    /// rows when the goal is one position.
    pub free: Vec<Vec<bool>>,
    /// Per set and position: the modulus the goal knows the orientation there by (the
    /// set's orientation count where it is known exactly, 1 where it is free), so that
    /// the goal is the set of positions agreeing with `solved` modulo it; see
    /// [`modulo`]. Empty when every orientation is known exactly.
    pub known_mod: Vec<Vec<u8>>,
    /// Which positions are well formed (see [`Rule`]); empty when all are.
    pub rules: Vec<Rule>,
    /// Per base move: whether searches use it unless told otherwise (our `SearchMoves`
    /// line; empty when it is absent and every move is searched). A move left out is
    /// still a move: scrambles, goals and algorithms may use it, and `--moves` or a
    /// `MoveLimits` block that names it lets a search use it (see
    /// [`Puzzle::default_limits`]).
    pub searched: Vec<bool>,
    /// Per set, the orbits of positions this puzzle ranks in, where they are not those
    /// of its own moves (empty otherwise): a puzzle narrowed to fewer moves
    /// ([`Puzzle::keeping`]) keeps the whole puzzle's, since it is asked to solve
    /// positions its own moves do not reach from its solved state (a start and a goal
    /// elsewhere in one coset). See [`Puzzle::position_orbits`].
    pub orbits: Vec<Vec<Vec<usize>>>,
}

impl Puzzle {
    /// Assembles a puzzle from its parts, generating the powers of every base move.
    /// `base` holds, per move: name, effect in file form (source-indexed orientation),
    /// touched mask and directed flag. Used by the definition loader and by tests.
    pub fn new(
        name: Option<String>,
        sets: Vec<SetDef>,
        solved: State,
        base: Vec<(String, Transform, bool)>,
        ignore: Vec<IgnoreMask>,
        blocks: Vec<Block>,
    ) -> Puzzle {
        let mut base_moves = Vec::with_capacity(base.len());
        let mut moves = Vec::new();
        for (b, (name, file_form, directed)) in base.into_iter().enumerate() {
            let touched = moves::touched_mask(&sets, &file_form);
            let effect = Transform::from_ksolve(&sets, &file_form);
            let order = moves::order(&effect, &sets);
            let mut powers = Vec::new();
            let mut acc = effect.clone();
            let last = if directed {
                1
            } else {
                order.saturating_sub(1).max(1)
            };
            for j in 1..=last {
                powers.push(MoveId(moves.len() as u16));
                moves.push(Move {
                    name: if directed {
                        name.clone()
                    } else {
                        power_name(&name, j, order)
                    },
                    base: b,
                    power: j,
                    qtm: if directed { 1 } else { qtm_cost(j, order) },
                    weight: 1,
                    effect: acc.clone(),
                });
                acc = acc.then(&effect, &sets);
            }
            base_moves.push(BaseMove {
                name,
                order,
                directed,
                effect,
                touched,
                powers,
            });
        }
        let n = moves.len();
        let nbase = base_moves.len();
        Puzzle {
            name,
            sets,
            solved,
            base_moves,
            moves,
            ignore,
            blocks,
            forbidden: vec![false; n * n],
            aliases: Vec::new(),
            stickers: None,
            board: None,
            guards: vec![None; nbase],
            free: Vec::new(),
            known_mod: Vec::new(),
            rules: Vec::new(),
            searched: Vec::new(),
            orbits: Vec::new(),
        }
    }

    /// Finds a move (a base move, a generated power or an alias) by name.
    pub fn move_by_name(&self, name: &str) -> Option<MoveId> {
        self.moves
            .iter()
            .position(|m| m.name == name)
            .map(|i| MoveId(i as u16))
            .or_else(|| {
                self.aliases
                    .iter()
                    .find(|(a, _)| a == name)
                    .map(|&(_, id)| id)
            })
    }

    /// The names an alias `alias` of move `id` brings: the alias for `id` itself and,
    /// unless the move is directed, a power name for each further power of the alias's
    /// own order, naming the move of the same effect among the powers of `id`'s base
    /// move (an alias `Rw` of `r` also names `Rw2` and `Rw'`).
    pub fn alias_names(&self, alias: &str, id: MoveId) -> Vec<(String, MoveId)> {
        let (b, p) = (self.mv(id).base, self.mv(id).power);
        let bm = &self.base_moves[b];
        let mut names = vec![(alias.to_string(), id)];
        if !bm.directed {
            // The alias's own order: the base's order over gcd(power, order).
            let k = order(&self.mv(id).effect, &self.sets);
            for j in 2..k {
                let q = (p as u64 * j as u64 % bm.order as u64) as usize;
                if let Some(&pid) = q.checked_sub(1).and_then(|q| bm.powers.get(q)) {
                    names.push((power_name(alias, j, k), pid));
                }
            }
        }
        names
    }

    /// The aliases as they were given, each once with the move it names: the power
    /// names an alias brings ([`Puzzle::alias_names`]) are left out, since giving the
    /// alias again brings them back.
    pub fn alias_roots(&self) -> Vec<(String, MoveId)> {
        let mut covered: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut roots = Vec::new();
        for (name, id) in &self.aliases {
            if covered.contains(name) {
                continue;
            }
            covered.extend(self.alias_names(name, *id).into_iter().map(|(n, _)| n));
            roots.push((name.clone(), *id));
        }
        roots
    }

    /// Finds a base move by name.
    pub fn base_by_name(&self, name: &str) -> Option<usize> {
        self.base_moves.iter().position(|m| m.name == name)
    }

    /// Finds a set by name.
    pub fn set_by_name(&self, name: &str) -> Option<usize> {
        self.sets.iter().position(|s| s.name == name)
    }

    /// The move with this id.
    pub fn mv(&self, id: MoveId) -> &Move {
        &self.moves[id.index()]
    }

    /// Whether base moves `a` and `b` commute (their effects compose the same both ways).
    /// A guarded move commutes with nothing: one move may open or close the cells the
    /// other needs, so the order of the two is never free.
    pub fn commute(&self, a: usize, b: usize) -> bool {
        let guarded = |i: usize| self.guards.get(i).is_some_and(Option::is_some);
        if guarded(a) || guarded(b) {
            return false;
        }
        let (x, y) = (&self.base_moves[a].effect, &self.base_moves[b].effect);
        x.then(y, &self.sets) == y.then(x, &self.sets)
    }

    /// The pairs (a, b), a < b, of base moves that commute.
    pub fn commuting_pairs(&self) -> Vec<(usize, usize)> {
        let n = self.base_moves.len();
        let mut out = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if self.commute(a, b) {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// Marks `b` after `a` as forbidden (user rule).
    pub fn forbid(&mut self, a: MoveId, b: MoveId) {
        let n = self.moves.len();
        self.forbidden[a.index() * n + b.index()] = true;
    }

    /// Whether move `next` may follow move `prev` in a canonical sequence, as ksolve+
    /// decides it: never a power of the same base move (unless the move is directed,
    /// whose repeats are the only way to reach its powers), only the ascending order of
    /// two commuting base moves, and never a pair the user forbade.
    pub fn canonical_successor(&self, prev: MoveId, next: MoveId) -> bool {
        let (p, q) = (self.mv(prev), self.mv(next));
        if self.forbidden[prev.index() * self.moves.len() + next.index()] {
            return false;
        }
        if p.base == q.base {
            return self.base_moves[p.base].directed;
        }
        !(q.base < p.base && self.commute(p.base, q.base))
    }

    /// Applies a sequence of moves to a state.
    pub fn apply_sequence(&self, start: &State, seq: &[MoveId]) -> State {
        seq.iter().fold(start.clone(), |s, &m| {
            s.then(&self.mv(m).effect, &self.sets)
        })
    }

    /// The names of a sequence of moves, joined by spaces.
    pub fn format_sequence(&self, seq: &[MoveId]) -> String {
        let names: Vec<&str> = seq.iter().map(|&m| self.mv(m).name.as_str()).collect();
        names.join(" ")
    }

    /// Whether `state` may make move `m`: its guard holds, and it splits no block (for
    /// every block, the positions holding its pieces are either all touched by the move
    /// or none are).
    pub fn block_allows(&self, state: &State, m: MoveId) -> bool {
        if !self.guard_allows(state, m) {
            return false;
        }
        if self.blocks.is_empty() {
            return true;
        }
        let touched = &self.base_moves[self.mv(m).base].touched;
        self.blocks.iter().all(|block| {
            let mut moved = None;
            for &(set, label) in &block.pieces {
                let perm = &state.sets[set].perm;
                for (pos, &l) in perm.iter().enumerate() {
                    if l == label {
                        let t = touched[set][pos];
                        match moved {
                            None => moved = Some(t),
                            Some(prev) if prev != t => return false,
                            _ => {}
                        }
                    }
                }
            }
            true
        })
    }

    /// The number of arrangements of each set ignoring any constraint: permutations
    /// (as a multiset when labels repeat in the solved state) times orientations. An
    /// upper bound on the reachable positions of that set.
    pub fn set_upper_bound(&self, set: usize) -> u128 {
        let def = &self.sets[set];
        let mut counts = std::collections::BTreeMap::new();
        for &l in &self.solved.sets[set].perm {
            *counts.entry(l).or_insert(0u32) += 1;
        }
        let mut perms: u128 = 1;
        let mut k: u128 = 0;
        for (_, c) in counts {
            // multinomial built one binomial at a time keeps intermediates small.
            for i in 1..=c as u128 {
                k += 1;
                perms = perms.saturating_mul(k) / i;
            }
        }
        let mut oris: u128 = 1;
        for _ in 0..def.size {
            oris = oris.saturating_mul(def.orientations.max(1) as u128);
        }
        perms.saturating_mul(oris)
    }
}

impl fmt::Display for MoveId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

#[cfg(test)]
mod tests;
