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
//! Two rules keep the index to the positions the moves reach. An orbit of distinct
//! labels that every move permutes evenly keeps its parity, so only half its
//! arrangements are ranked (`even`); interchangeable pieces have no parity and keep all
//! of theirs. The smallest components are then grouped and only the combinations the
//! moves reach from solved are ranked (`reach`), which captures whatever ties them
//! together: linked parities, orientation sums across orbits, twists that follow an
//! arrangement (the Skewb), pieces that move in lockstep (the Pyraminx's tips and
//! centres). Not captured: ties between large components (beyond the grouping limit),
//! and symmetry.
//!
//! Invariants: `index_of` is a bijection from the states these components can describe
//! onto `0..space`, `state_of` is its inverse, and every transform maps that set into
//! itself. Components are ordered largest first (outermost), so the innermost ones
//! change fastest along the index and a run of consecutive indices touches few outer
//! values: this is what keeps the breadth-first scan cache-friendly.

mod component;
mod cursor;
mod even;
mod reach;
#[cfg(test)]
mod tests;

use component::Kind;
pub(crate) use component::{Component, Scratch};
pub(crate) use cursor::Cursor;

use crate::coord::{OriCoord, PermCoord};
use crate::puzzle::{Puzzle, SetDef, State, Transform};

/// Trailing components are merged while their product stays within this many values.
const MERGE_LIMIT: u64 = 1 << 16;

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
            for orbit in puzzle.position_orbits(si) {
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
                let mut count = coord.count();
                if count > 1 {
                    let mut sorted = labels.clone();
                    sorted.sort_unstable();
                    let distinct = sorted.len() <= 20 && sorted.windows(2).all(|w| w[0] < w[1]);
                    // With distinct labels and only even transforms on the orbit, the
                    // arrangement keeps the solved one's parity: half the ranks suffice.
                    // (Interchangeable pieces have no parity, so no rule applies there.)
                    let even = (distinct && src.iter().all(|m| even::cycle_parity(m) == 0))
                        .then(|| even::rank(&labels).1);
                    if even.is_some() {
                        count /= 2;
                    }
                    log10 += (count as f64).log10();
                    comps.push(Component {
                        set: si,
                        positions: orbit.clone(),
                        kind: Kind::Perm {
                            coord,
                            ride,
                            sorted,
                            distinct,
                            even,
                        },
                        count,
                        src: src.clone(),
                        twist: twist.clone(),
                        ntrans: transforms.len(),
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
                            ntrans: transforms.len(),
                            table: None,
                        });
                    }
                }
            }
        }
        // Constant components (an even orbit of two) carry nothing.
        comps.retain(|c| c.count > 1);
        let mut sc = Scratch::sized(max_len);
        let mut comps = reach::group(comps, &puzzle.solved, transforms.len(), &mut sc);
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
                ntrans: transforms.len(),
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
                self.comps[c].build_table();
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
            out += c.next(i / stride, t, sc) * stride;
            i %= stride;
        }
        out
    }
}
