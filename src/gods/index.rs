//! The perfect index of positions: a position is cut into independent coordinates
//! ("components"), each ranked by `crate::coord`, and the index is their mixed-radix
//! combination.
//!
//! The cuts follow what moves can do. Positions of a set split into orbits (positions
//! that moves can carry a piece between); pieces never leave their orbit, so each
//! orbit's arrangement is one multiset-permutation coordinate over the solved labels
//! found there. Orientation is stored by position and a move's new orientations depend
//! only on the old orientations, never on which piece is where, so an orbit's
//! orientations form a coordinate of their own: base-n digits, with the last digit
//! implied when every move keeps the orbit's orientation sum. An orbit that no move
//! ever twists carries its orientations along with its pieces, so they are folded into
//! the labels instead (label * n + ori), which keeps such puzzles dense. Components with
//! a single value are constant and left out.
//!
//! Invariants: `index_of` is a bijection from the states these components can describe
//! onto `0..space`, `state_of` is its inverse, and every transform maps that set into
//! itself. Components are ordered largest first (outermost), so the innermost ones
//! change fastest along the index and a run of consecutive indices touches few outer
//! values: this is what keeps the breadth-first scan cache-friendly.

use crate::coord::{OriCoord, PermCoord};
use crate::puzzle::{Puzzle, SetDef, State, Transform};
use rayon::prelude::*;

/// What one component ranks.
#[derive(Clone, Debug)]
enum Kind {
    /// The arrangement of labels on an orbit. With `ride > 1`, each label is combined
    /// with its orientation (`label * ride + ori`) because no move twists the orbit.
    Perm {
        coord: PermCoord,
        ride: u8,
        sorted: Vec<u16>,
        /// All labels differ (and there are at most 20): ranks are Lehmer codes computed
        /// in 64-bit arithmetic, the same lexicographic ranks `PermCoord` gives.
        distinct: bool,
    },
    /// The orientations on an orbit; with the sum rule the last digit is implied and
    /// equals `offset` minus the others (mod n).
    Ori { coord: OriCoord, n: u8, offset: u8 },
    /// Several small components ranked together (mixed radix, outer part first), so
    /// that the innermost coordinate is large enough to make the blocks of the
    /// block-by-block expansion worth their bookkeeping.
    Product { parts: Vec<Component> },
}

/// One coordinate of the index, with the local effect of every transform on it and,
/// when affordable, its move table.
#[derive(Clone, Debug)]
pub(crate) struct Component {
    set: usize,
    /// The positions (within the set) this component covers.
    positions: Vec<usize>,
    kind: Kind,
    count: u64,
    /// Per transform: for each local position, the local position its content comes from.
    src: Vec<Vec<u16>>,
    /// Per transform: the twist added at each local position (orientation components).
    twist: Vec<Vec<u8>>,
    /// `table[r * ntrans + t]`: the rank after transform `t` from rank `r`.
    table: Option<Vec<u32>>,
}

/// Scratch buffers for ranking without allocation.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    a: Vec<u16>,
    b: Vec<u16>,
    oa: Vec<u8>,
    ob: Vec<u8>,
}

impl Scratch {
    fn sized(n: usize) -> Scratch {
        Scratch {
            a: vec![0; n],
            b: vec![0; n],
            oa: vec![0; n],
            ob: vec![0; n],
        }
    }
}

impl Component {
    /// How many values this coordinate takes.
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// Whether the move table was built.
    #[cfg(test)]
    pub(crate) fn has_table(&self) -> bool {
        self.table.is_some()
    }

    fn rank_state(&self, s: &State, sc: &mut Scratch) -> u64 {
        let set = &s.sets[self.set];
        let k = self.positions.len();
        match &self.kind {
            Kind::Perm { ride, .. } => {
                for (slot, &p) in sc.a[..k].iter_mut().zip(&self.positions) {
                    *slot = set.perm[p] * *ride as u16 + (set.ori[p] % *ride) as u16;
                }
                self.rank_perm(&sc.a[..k])
            }
            Kind::Ori { coord, .. } => {
                for (slot, &p) in sc.oa[..k].iter_mut().zip(&self.positions) {
                    *slot = set.ori[p];
                }
                coord.rank(&sc.oa[..k])
            }
            Kind::Product { parts } => parts
                .iter()
                .fold(0, |acc, c| acc * c.count + c.rank_state(s, sc)),
        }
    }

    /// The longest scratch this component needs.
    fn scratch_len(&self) -> usize {
        match &self.kind {
            Kind::Product { parts } => parts.iter().map(Component::scratch_len).max().unwrap_or(0),
            _ => self.positions.len(),
        }
    }

    fn write_state(&self, r: u64, s: &mut State, sc: &mut Scratch) {
        if let Kind::Product { parts } = &self.kind {
            let mut r = r;
            for c in parts.iter().rev() {
                c.write_state(r % c.count, s, sc);
                r /= c.count;
            }
            return;
        }
        let k = self.positions.len();
        let set = &mut s.sets[self.set];
        match &self.kind {
            Kind::Perm { ride, .. } => {
                self.unrank_perm(r, &mut sc.a[..k]);
                for (&v, &p) in sc.a[..k].iter().zip(&self.positions) {
                    set.perm[p] = v / *ride as u16;
                    if *ride > 1 {
                        set.ori[p] = (v % *ride as u16) as u8;
                    }
                }
            }
            Kind::Ori { coord, n, offset } => {
                unrank_ori(coord, *n, *offset, r, &mut sc.oa[..k]);
                for (&v, &p) in sc.oa[..k].iter().zip(&self.positions) {
                    set.ori[p] = v;
                }
            }
            Kind::Product { .. } => {}
        }
    }

    /// Whether `s` holds, on this component's positions, values the rank can describe:
    /// the orbit's own multiset of labels and orientations in range.
    fn admits(&self, s: &State, sc: &mut Scratch) -> bool {
        let set = &s.sets[self.set];
        let k = self.positions.len();
        match &self.kind {
            Kind::Perm { ride, sorted, .. } => {
                for (slot, &p) in sc.a[..k].iter_mut().zip(&self.positions) {
                    *slot = set.perm[p].saturating_mul(*ride as u16) + (set.ori[p] % *ride) as u16;
                }
                sc.a[..k].sort_unstable();
                sc.a[..k] == sorted[..]
            }
            Kind::Ori { n, .. } => self.positions.iter().all(|&p| set.ori[p] < *n),
            Kind::Product { parts } => parts.iter().all(|c| c.admits(s, sc)),
        }
    }

    fn rank_perm(&self, a: &[u16]) -> u64 {
        match &self.kind {
            Kind::Perm { distinct: true, .. } => {
                let n = a.len();
                let mut r = 0u64;
                for i in 0..n {
                    let smaller = a[i + 1..].iter().filter(|&&x| x < a[i]).count() as u64;
                    r = r * (n - i) as u64 + smaller;
                }
                r
            }
            Kind::Perm { coord, .. } => coord.rank(a),
            Kind::Ori { .. } | Kind::Product { .. } => 0,
        }
    }

    fn unrank_perm(&self, mut r: u64, out: &mut [u16]) {
        match &self.kind {
            Kind::Perm {
                distinct: true,
                sorted,
                ..
            } => {
                let n = out.len();
                let mut used = 0u32;
                for (i, slot) in out.iter_mut().enumerate() {
                    let f = FACTORIAL[n - 1 - i];
                    let mut d = r / f;
                    r %= f;
                    // The d-th smallest label not used yet.
                    for (j, &label) in sorted.iter().enumerate() {
                        if used >> j & 1 == 0 {
                            if d == 0 {
                                *slot = label;
                                used |= 1 << j;
                                break;
                            }
                            d -= 1;
                        }
                    }
                }
            }
            Kind::Perm { coord, .. } => coord.unrank(r, out),
            Kind::Ori { .. } | Kind::Product { .. } => {}
        }
    }

    /// The rank after transform `t`, computed from the coordinates (no table).
    fn step(&self, r: u64, t: usize, sc: &mut Scratch) -> u64 {
        let k = self.positions.len();
        match &self.kind {
            Kind::Perm { .. } => self.unrank_perm(r, &mut sc.a[..k]),
            Kind::Ori { coord, n, offset } => unrank_ori(coord, *n, *offset, r, &mut sc.oa[..k]),
            Kind::Product { parts } => {
                let (mut rem, mut mult, mut out) = (r, 1u64, 0u64);
                for c in parts.iter().rev() {
                    // Parts are leaves with one source row per transform.
                    out += c.next(rem % c.count, t, c.src.len(), sc) * mult;
                    rem /= c.count;
                    mult *= c.count;
                }
                return out;
            }
        }
        self.step_loaded(t, sc)
    }

    /// The rank after transform `t` of the value already unranked into the scratch.
    fn step_loaded(&self, t: usize, sc: &mut Scratch) -> u64 {
        let k = self.positions.len();
        let src = &self.src[t];
        match &self.kind {
            Kind::Perm { .. } => {
                for (o, &f) in sc.b[..k].iter_mut().zip(src) {
                    *o = sc.a[f as usize];
                }
                self.rank_perm(&sc.b[..k])
            }
            Kind::Ori { coord, n, .. } => {
                for ((o, &f), &tw) in sc.ob[..k].iter_mut().zip(src).zip(&self.twist[t]) {
                    *o = (sc.oa[f as usize] + tw) % n;
                }
                coord.rank(&sc.ob[..k])
            }
            Kind::Product { .. } => 0,
        }
    }

    /// The rank after transform `t` (of `ntrans`), by table when there is one.
    #[inline]
    fn next(&self, r: u64, t: usize, ntrans: usize, sc: &mut Scratch) -> u64 {
        match &self.table {
            Some(tab) => tab[r as usize * ntrans + t] as u64,
            None => self.step(r, t, sc),
        }
    }

    fn build_table(&mut self, ntrans: usize) {
        // A product's table is composed from its parts' tables, which are small.
        if let Kind::Product { parts } = &mut self.kind {
            for c in parts.iter_mut() {
                c.build_table(ntrans);
            }
        }
        let len = self.scratch_len();
        let mut table = vec![0u32; self.count as usize * ntrans];
        let this = &*self;
        table.par_chunks_mut(ntrans).enumerate().for_each_init(
            || Scratch::sized(len),
            |sc, (r, row)| {
                match &this.kind {
                    Kind::Perm { .. } => this.unrank_perm(r as u64, &mut sc.a[..len]),
                    Kind::Ori { coord, n, offset } => {
                        unrank_ori(coord, *n, *offset, r as u64, &mut sc.oa[..len])
                    }
                    Kind::Product { .. } => {
                        for (t, slot) in row.iter_mut().enumerate() {
                            *slot = this.step(r as u64, t, sc) as u32;
                        }
                        return;
                    }
                }
                for (t, slot) in row.iter_mut().enumerate() {
                    *slot = this.step_loaded(t, sc) as u32;
                }
            },
        );
        self.table = Some(table);
    }
}

/// Trailing components are merged while their product stays within this many values.
const MERGE_LIMIT: u64 = 1 << 16;

/// n! for n <= 20.
const FACTORIAL: [u64; 21] = {
    let mut f = [1u64; 21];
    let mut i = 1;
    while i < 21 {
        f[i] = f[i - 1] * i as u64;
        i += 1;
    }
    f
};

fn unrank_ori(coord: &OriCoord, n: u8, offset: u8, r: u64, out: &mut [u8]) {
    coord.unrank(r, out);
    if coord.sum_rule() {
        if let Some(last) = out.last_mut() {
            *last = (*last + offset) % n;
        }
    }
}

/// Why a perfect index cannot be built for a puzzle.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum IndexError {
    #[error("the index space has about 10^{0:.0} positions, past 2^64")]
    TooLarge(f64),
}

/// The perfect index of a puzzle's positions under a list of transforms.
#[derive(Clone, Debug)]
pub(crate) struct Indexer {
    comps: Vec<Component>,
    strides: Vec<u64>,
    space: u64,
    ntrans: usize,
    sets: Vec<SetDef>,
    solved: State,
    max_len: usize,
    /// The innermost component's move table transposed, `[t * count + r]`, when it has
    /// one: the search walks one transform at a time over many inner ranks.
    inner_t: Option<Vec<u32>>,
}

/// Positions of `set` grouped into orbits under the moves: each orbit sorted, orbits
/// ordered by their smallest position.
fn orbits(puzzle: &Puzzle, set: usize) -> Vec<Vec<usize>> {
    let size = puzzle.sets[set].size;
    let mut parent: Vec<usize> = (0..size).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for b in &puzzle.base_moves {
        for (i, &src) in b.effect.sets[set].perm.iter().enumerate() {
            let (x, y) = (find(&mut parent, i), find(&mut parent, src as usize));
            if x != y {
                parent[x.max(y)] = x.min(y);
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut slot = vec![usize::MAX; size];
    for i in 0..size {
        let r = find(&mut parent, i);
        if slot[r] == usize::MAX {
            slot[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[slot[r]].push(i);
    }
    groups
}

impl Indexer {
    /// Lays out the components of `puzzle` under `transforms` (which must map the
    /// puzzle's orbits into themselves: its moves, their powers and inverses). Builds no
    /// move table yet.
    /// With `merge`, the smallest components are merged into one innermost coordinate
    /// (the layout saved tables use); without, every component stays separate.
    pub(crate) fn new(
        puzzle: &Puzzle,
        transforms: &[Transform],
        merge: bool,
    ) -> Result<Indexer, IndexError> {
        let mut comps = Vec::new();
        let mut log10 = 0.0f64;
        let mut max_len = 0;
        for (si, def) in puzzle.sets.iter().enumerate() {
            let n = def.orientations.max(1);
            for orbit in orbits(puzzle, si) {
                max_len = max_len.max(orbit.len());
                let mut local = vec![usize::MAX; def.size];
                for (k, &p) in orbit.iter().enumerate() {
                    local[p] = k;
                }
                let src: Vec<Vec<u16>> = transforms
                    .iter()
                    .map(|t| {
                        orbit
                            .iter()
                            .map(|&p| local[t.sets[si].perm[p] as usize] as u16)
                            .collect()
                    })
                    .collect();
                let twist: Vec<Vec<u8>> = transforms
                    .iter()
                    .map(|t| orbit.iter().map(|&p| t.sets[si].ori[p] % n).collect())
                    .collect();
                let twisted = n > 1
                    && puzzle
                        .base_moves
                        .iter()
                        .any(|b| orbit.iter().any(|&p| b.effect.sets[si].ori[p] % n != 0));
                let solved = &puzzle.solved.sets[si];
                let ride = if n > 1 && !twisted { n } else { 1 };
                let labels: Vec<u16> = orbit
                    .iter()
                    .map(|&p| solved.perm[p] * ride as u16 + (solved.ori[p] % ride) as u16)
                    .collect();
                let coord = PermCoord::new(&labels)
                    .map_err(|_| IndexError::TooLarge(log10 + orbit.len() as f64))?;
                let count = coord.count();
                if count > 1 {
                    log10 += (count as f64).log10();
                    let mut sorted = labels;
                    sorted.sort_unstable();
                    let distinct = sorted.len() <= 20 && sorted.windows(2).all(|w| w[0] < w[1]);
                    comps.push(Component {
                        set: si,
                        positions: orbit.clone(),
                        kind: Kind::Perm {
                            coord,
                            ride,
                            sorted,
                            distinct,
                        },
                        count,
                        src: src.clone(),
                        twist: twist.clone(),
                        table: None,
                    });
                }
                if twisted {
                    let sum_rule = puzzle.base_moves.iter().all(|b| {
                        orbit
                            .iter()
                            .map(|&p| (b.effect.sets[si].ori[p] % n) as u32)
                            .sum::<u32>()
                            % n as u32
                            == 0
                    });
                    let offset =
                        (orbit.iter().map(|&p| solved.ori[p] as u32).sum::<u32>() % n as u32) as u8;
                    let coord = OriCoord::new(n, orbit.len(), sum_rule)
                        .map_err(|_| IndexError::TooLarge(log10 + orbit.len() as f64))?;
                    let count = coord.count();
                    if count > 1 {
                        log10 += (count as f64).log10();
                        comps.push(Component {
                            set: si,
                            positions: orbit,
                            kind: Kind::Ori { coord, n, offset },
                            count,
                            src,
                            twist,
                            table: None,
                        });
                    }
                }
            }
        }
        // Largest outermost; ties keep definition order so the layout is deterministic.
        comps.sort_by_key(|c| std::cmp::Reverse(c.count));
        // The smallest ones are merged into one innermost coordinate of useful size.
        while merge && comps.len() >= 2 {
            let n = comps.len();
            let product = comps[n - 2].count.saturating_mul(comps[n - 1].count);
            if product > MERGE_LIMIT {
                break;
            }
            let inner = comps.pop().expect("two components");
            let outer = comps.pop().expect("two components");
            let mut parts = Vec::new();
            for c in [outer, inner] {
                match c.kind {
                    Kind::Product { parts: p } => parts.extend(p),
                    _ => parts.push(c),
                }
            }
            comps.push(Component {
                set: 0,
                positions: Vec::new(),
                kind: Kind::Product { parts },
                count: product,
                src: Vec::new(),
                twist: Vec::new(),
                table: None,
            });
        }
        let mut space: u64 = 1;
        let mut strides = vec![0u64; comps.len()];
        for (c, comp) in comps.iter().enumerate().rev() {
            strides[c] = space;
            space = space
                .checked_mul(comp.count)
                .ok_or(IndexError::TooLarge(log10))?;
        }
        Ok(Indexer {
            comps,
            strides,
            space,
            ntrans: transforms.len(),
            sets: puzzle.sets.clone(),
            solved: puzzle.solved.clone(),
            max_len,
            inner_t: None,
        })
    }

    /// The number of indices.
    pub(crate) fn space(&self) -> u64 {
        self.space
    }

    /// The components, outermost first.
    pub(crate) fn components(&self) -> &[Component] {
        &self.comps
    }

    /// Number of transforms (columns of the move tables).
    #[cfg(test)]
    pub(crate) fn ntrans(&self) -> usize {
        self.ntrans
    }

    /// Bytes the move table of component `c` would take.
    pub(crate) fn table_bytes(&self, c: usize) -> u64 {
        self.comps[c].count * self.ntrans as u64 * 4
    }

    /// Builds move tables for the components whose table fits `limit` bytes (and whose
    /// ranks fit 32 bits); returns the bytes used. The others are computed on the fly.
    pub(crate) fn build_tables(&mut self, limit: u64) -> u64 {
        let (chosen, used) = self.plan_tables(limit);
        for (c, build) in chosen.into_iter().enumerate() {
            if build {
                self.comps[c].build_table(self.ntrans);
            }
        }
        if let Some(inner) = self.comps.last() {
            if let Some(tab) = &inner.table {
                let (n, nt) = (inner.count as usize, self.ntrans);
                let mut t = vec![0u32; n * nt];
                for r in 0..n {
                    for u in 0..nt {
                        t[u * n + r] = tab[r * nt + u];
                    }
                }
                self.inner_t = Some(t);
            }
        }
        used
    }

    /// Which components get a move table within `limit` bytes, and the bytes used.
    /// Innermost first: its table (kept twice, once transposed) is read for every entry,
    /// the outer ones only when an outer rank changes.
    pub(crate) fn plan_tables(&self, limit: u64) -> (Vec<bool>, u64) {
        let mut used = 0;
        let mut chosen = vec![false; self.comps.len()];
        for c in (0..self.comps.len()).rev() {
            let copies = if c + 1 == self.comps.len() { 2 } else { 1 };
            let bytes = self.table_bytes(c) * copies;
            if self.comps[c].count <= u32::MAX as u64 && used + bytes <= limit {
                chosen[c] = true;
                used += bytes;
            }
        }
        (chosen, used)
    }

    /// The number of values of the innermost component (1 when there is none).
    pub(crate) fn inner_count(&self) -> u64 {
        self.comps.last().map_or(1, |c| c.count)
    }

    /// The innermost component's ranks after transform `t`, indexed by its rank, when
    /// its table was built.
    #[inline]
    pub(crate) fn inner_column(&self, t: usize) -> Option<&[u32]> {
        let n = self.inner_count() as usize;
        self.inner_t.as_ref().map(|v| &v[t * n..(t + 1) * n])
    }

    /// Scratch buffers big enough for any component.
    pub(crate) fn scratch(&self) -> Scratch {
        Scratch::sized(self.max_len)
    }

    /// The index of `state` (which must be describable: reachable states always are).
    pub(crate) fn index_of(&self, state: &State, sc: &mut Scratch) -> u64 {
        self.comps
            .iter()
            .zip(&self.strides)
            .map(|(c, &s)| c.rank_state(state, sc) * s)
            .sum()
    }

    /// Whether `state` agrees with the solved state wherever the index does not look
    /// (constant components), so that `index_of` describes it faithfully.
    pub(crate) fn describes(&self, state: &State, sc: &mut Scratch) -> bool {
        if state.sets.len() != self.sets.len()
            || state
                .sets
                .iter()
                .zip(&self.sets)
                .any(|(s, d)| s.perm.len() != d.size || s.ori.len() != d.size)
        {
            return false;
        }
        if !self.comps.iter().all(|c| c.admits(state, sc)) {
            return false;
        }
        let i = self.index_of(state, sc);
        self.state_of(i, sc) == *state
    }

    /// The state with index `i`.
    pub(crate) fn state_of(&self, mut i: u64, sc: &mut Scratch) -> State {
        let mut s = self.solved.clone();
        for (c, &stride) in self.comps.iter().zip(&self.strides) {
            c.write_state(i / stride, &mut s, sc);
            i %= stride;
        }
        // Orientations of one-orientation sets are always 0.
        for (set, def) in s.sets.iter_mut().zip(&self.sets) {
            if def.orientations <= 1 {
                set.ori.iter_mut().for_each(|o| *o = 0);
            }
        }
        s
    }

    /// The index reached from index `i` by transform `t`, computed without a cursor.
    pub(crate) fn neighbour(&self, mut i: u64, t: usize, sc: &mut Scratch) -> u64 {
        let mut out = 0;
        for (c, &stride) in self.comps.iter().zip(&self.strides) {
            out += c.next(i / stride, t, self.ntrans, sc) * stride;
            i %= stride;
        }
        out
    }
}

/// Walks the index in increasing order and gives each index's neighbours cheaply: the
/// contributions of all but the innermost component are summed once per change of an
/// outer rank, so a step along the innermost component costs one table load per
/// transform.
pub(crate) struct Cursor<'a> {
    ix: &'a Indexer,
    idx: u64,
    fresh: bool,
    ranks: Vec<u64>,
    /// `sums[c * ntrans + t]`: the summed, stride-scaled neighbour ranks of components
    /// 0..=c under transform t, for every component but the innermost.
    sums: Vec<u64>,
    /// The innermost component's neighbours, when it has no table.
    inner: Vec<u64>,
    inner_rank: u64,
    sc: Scratch,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(ix: &'a Indexer) -> Cursor<'a> {
        let k = ix.comps.len();
        Cursor {
            ix,
            idx: 0,
            fresh: true,
            ranks: vec![0; k],
            sums: vec![0; k.saturating_sub(1) * ix.ntrans],
            inner: vec![0; ix.ntrans],
            inner_rank: u64::MAX,
            sc: ix.scratch(),
        }
    }

    /// Moves the cursor to index `i`.
    #[inline]
    pub(crate) fn seek(&mut self, i: u64) {
        let k = self.ix.comps.len();
        if k == 0 {
            return;
        }
        if !self.fresh && i >= self.idx {
            let r = self.ranks[k - 1] + (i - self.idx);
            if r < self.ix.comps[k - 1].count {
                self.ranks[k - 1] = r;
                self.idx = i;
                return;
            }
        }
        self.decode(i);
    }

    fn decode(&mut self, i: u64) {
        let ix = self.ix;
        let k = ix.comps.len();
        let nt = ix.ntrans;
        let mut rem = i;
        let mut first_changed = if self.fresh { 0 } else { k };
        for c in 0..k {
            let r = rem / ix.strides[c];
            rem %= ix.strides[c];
            if r != self.ranks[c] && first_changed > c {
                first_changed = c;
            }
            self.ranks[c] = r;
        }
        for c in first_changed..k.saturating_sub(1) {
            let comp = &ix.comps[c];
            let stride = ix.strides[c];
            for t in 0..nt {
                let prev = if c == 0 {
                    0
                } else {
                    self.sums[(c - 1) * nt + t]
                };
                let r = comp.next(self.ranks[c], t, nt, &mut self.sc);
                self.sums[c * nt + t] = prev + r * stride;
            }
        }
        self.idx = i;
        self.fresh = false;
    }

    /// The contribution of every component but the innermost to the index reached by
    /// transform `t` (0 when there is at most one component).
    #[inline]
    pub(crate) fn outer(&self, t: usize) -> u64 {
        let k = self.ix.comps.len();
        if k >= 2 {
            self.sums[(k - 2) * self.ix.ntrans + t]
        } else {
            0
        }
    }

    /// The indices reached from the cursor's index by the transforms `cols`, written
    /// into `out` (same length). The per-entry work is one load and one add each.
    #[inline]
    pub(crate) fn fill(&mut self, cols: &[usize], out: &mut [u64]) {
        let ix = self.ix;
        let k = ix.comps.len();
        if k == 0 {
            out.iter_mut().for_each(|o| *o = 0);
            return;
        }
        let nt = ix.ntrans;
        let inner = &ix.comps[k - 1];
        let r = self.ranks[k - 1];
        let row: &[u32] = match &inner.table {
            Some(tab) => &tab[r as usize * nt..(r as usize + 1) * nt],
            None => {
                if self.inner_rank != r {
                    for u in 0..nt {
                        self.inner[u] = inner.step(r, u, &mut self.sc);
                    }
                    self.inner_rank = r;
                }
                for (o, &c) in out.iter_mut().zip(cols) {
                    *o = self.inner[c];
                }
                if k >= 2 {
                    let base = &self.sums[(k - 2) * nt..(k - 1) * nt];
                    for (o, &c) in out.iter_mut().zip(cols) {
                        *o += base[c];
                    }
                }
                return;
            }
        };
        if k >= 2 {
            let base = &self.sums[(k - 2) * nt..(k - 1) * nt];
            for (o, &c) in out.iter_mut().zip(cols) {
                *o = base[c] + row[c] as u64;
            }
        } else {
            for (o, &c) in out.iter_mut().zip(cols) {
                *o = row[c] as u64;
            }
        }
    }

    /// The index reached from the cursor's index by transform `t`.
    #[cfg(test)]
    pub(crate) fn neighbour(&mut self, t: usize) -> u64 {
        let ix = self.ix;
        let k = ix.comps.len();
        if k == 0 {
            return 0;
        }
        let nt = ix.ntrans;
        let base = if k >= 2 {
            self.sums[(k - 2) * nt + t]
        } else {
            0
        };
        let inner = &ix.comps[k - 1];
        let r = self.ranks[k - 1];
        match &inner.table {
            Some(tab) => base + tab[r as usize * nt + t] as u64,
            None => {
                if self.inner_rank != r {
                    for u in 0..nt {
                        self.inner[u] = inner.step(r, u, &mut self.sc);
                    }
                    self.inner_rank = r;
                }
                base + self.inner[t]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{IgnoreMask, SetState};

    /// A small puzzle with one twisted orbit, one untwisted orbit holding oriented
    /// solved pieces, repeated labels and a fixed position.
    fn mixed() -> Puzzle {
        let sets = vec![
            SetDef {
                name: "A".into(),
                size: 4,
                orientations: 3,
            },
            SetDef {
                name: "B".into(),
                size: 4,
                orientations: 2,
            },
        ];
        let solved = Transform {
            sets: vec![
                SetState {
                    perm: vec![0, 1, 2, 3],
                    ori: vec![0, 0, 0, 1],
                },
                SetState {
                    perm: vec![0, 0, 1, 2],
                    ori: vec![1, 0, 0, 0],
                },
            ],
        };
        let m1 = Transform {
            sets: vec![
                SetState {
                    perm: vec![1, 2, 0, 3],
                    ori: vec![1, 2, 0, 0],
                },
                SetState {
                    perm: vec![1, 2, 0, 3],
                    ori: vec![0, 0, 0, 0],
                },
            ],
        };
        let m2 = Transform {
            sets: vec![
                SetState {
                    perm: vec![0, 1, 2, 3],
                    ori: vec![0, 0, 0, 2],
                },
                SetState {
                    perm: vec![0, 1, 2, 3],
                    ori: vec![0, 0, 0, 0],
                },
            ],
        };
        Puzzle::new(
            None,
            sets,
            solved,
            vec![("X".into(), m1, false), ("Y".into(), m2, false)],
            vec![IgnoreMask::default(), IgnoreMask::default()],
            vec![],
        )
    }

    #[test]
    fn index_round_trips_and_tables_agree_with_states() {
        let p = mixed();
        let transforms: Vec<Transform> = p.moves.iter().map(|m| m.effect.clone()).collect();
        let mut ix = Indexer::new(&p, &transforms, false).unwrap();
        // Unmerged: A: orbit {0,1,2} perm 3! and ori with sum rule 3^2; position 3's ori is twisted
        // alone: 3 values. B: orbit {0,1,2} untwisted with ori riding: labels
        // (0,1),(0,0),(1,0) distinct: 3!; position 3 constant.
        assert_eq!(ix.space(), 6 * 9 * 3 * 6);
        let mut sc = ix.scratch();
        for i in 0..ix.space() {
            let s = ix.state_of(i, &mut sc);
            assert_eq!(ix.index_of(&s, &mut sc), i);
        }
        let computed: Vec<Vec<u64>> = (0..ix.space())
            .map(|i| {
                (0..ix.ntrans())
                    .map(|t| ix.neighbour(i, t, &mut sc))
                    .collect()
            })
            .collect();
        ix.build_tables(u64::MAX);
        assert!(ix.components().iter().all(|c| c.has_table()));
        let mut cur = Cursor::new(&ix);
        for i in 0..ix.space() {
            cur.seek(i);
            let s = ix.state_of(i, &mut sc);
            for (t, tr) in transforms.iter().enumerate() {
                let want = ix.index_of(&s.then(tr, &p.sets), &mut sc);
                assert_eq!(cur.neighbour(t), want);
                assert_eq!(computed[i as usize][t], want);
            }
        }
        assert!(ix.describes(&p.solved, &mut sc));
    }

    #[test]
    fn lehmer_ranks_are_the_coordinate_ranks() {
        let labels = [2u16, 5, 7, 9, 11];
        let coord = PermCoord::new(&labels).unwrap();
        let mut sorted = labels.to_vec();
        sorted.sort_unstable();
        let c = Component {
            set: 0,
            positions: (0..5).collect(),
            kind: Kind::Perm {
                coord: coord.clone(),
                ride: 1,
                sorted,
                distinct: true,
            },
            count: coord.count(),
            src: vec![],
            twist: vec![],
            table: None,
        };
        let mut out = [0u16; 5];
        let mut back = [0u16; 5];
        for r in 0..coord.count() {
            coord.unrank(r, &mut out);
            assert_eq!(c.rank_perm(&out), r);
            c.unrank_perm(r, &mut back);
            assert_eq!(back, out);
        }
    }
}
