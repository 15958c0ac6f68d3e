//! What every move preserves, read off the moves themselves: which positions a piece
//! can reach (position orbits), which orientations it can have there (point orbits),
//! orientation sums, and the linear relations between permutation parities. These give
//! the plain-words reasons a position cannot be reached, and an upper bound on the group
//! order that lets the chain builder stop as soon as it is met.

use super::abelian::{gcd_all, Subgroup};
use super::bigint::BigUint;
use super::points::{Layout, Perm};
use super::reason::{PieceCount, Reason};
use crate::puzzle::{IgnoreMask, SetDef, State, Transform};

/// A set of positions of one set that the moves permute among themselves.
#[derive(Clone, Debug)]
pub(crate) struct PosOrbit {
    pub set: usize,
    pub positions: Vec<usize>,
    /// Orientation sums over these positions are invariant modulo this (1: no rule).
    pub twist_mod: u64,
}

/// The invariants of the group the moves generate.
#[derive(Clone, Debug)]
pub(crate) struct Invariants {
    pub orbits: Vec<PosOrbit>,
    /// Per point: a representative point of its orbit under the group.
    point_orbit: Vec<u32>,
    /// Per generator and orbit: the twist the move adds to the orbit's orientation sum.
    gen_twist: Vec<Vec<u64>>,
    /// Per generator and orbit: the parity of the move's permutation of the orbit.
    gen_parity: Vec<Vec<u64>>,
    /// A proven upper bound on the group order.
    pub upper: Option<BigUint>,
}

fn find(parent: &mut [u32], x: u32) -> u32 {
    let mut r = x;
    while parent[r as usize] != r {
        r = parent[r as usize];
    }
    let mut x = x;
    while parent[x as usize] != r {
        let next = parent[x as usize];
        parent[x as usize] = r;
        x = next;
    }
    r
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
}

/// The parity (0 even, 1 odd) of the permutation `pos -> map(pos)` of `positions`,
/// which `map` must send onto themselves. `local` is scratch indexed by position.
fn parity_on(positions: &[usize], map: impl Fn(usize) -> usize, local: &mut [usize]) -> u64 {
    for (k, &p) in positions.iter().enumerate() {
        local[p] = k;
    }
    let mut seen = vec![false; positions.len()];
    let mut cycles = 0;
    for start in 0..positions.len() {
        if seen[start] {
            continue;
        }
        cycles += 1;
        let mut k = start;
        while !seen[k] {
            seen[k] = true;
            k = local[map(positions[k])];
        }
    }
    ((positions.len() - cycles) % 2) as u64
}

impl Invariants {
    /// Reads the invariants off the generators (`moves`, destination-indexed, and their
    /// point permutations `perms`).
    pub fn new(
        sets: &[SetDef],
        layout: &Layout,
        moves: &[Transform],
        perms: &[Perm],
    ) -> Invariants {
        let mut orbits = Vec::new();
        for (k, set) in sets.iter().enumerate() {
            let mut parent: Vec<u32> = (0..set.size as u32).collect();
            for m in moves {
                for (i, &p) in m.sets[k].perm.iter().enumerate() {
                    union(&mut parent, i as u32, p as u32);
                }
            }
            let mut groups: Vec<Vec<usize>> = vec![Vec::new(); set.size];
            for i in 0..set.size {
                let r = find(&mut parent, i as u32) as usize;
                groups[r].push(i);
            }
            for positions in groups.into_iter().filter(|g| !g.is_empty()) {
                orbits.push(PosOrbit {
                    set: k,
                    positions,
                    twist_mod: 1,
                });
            }
        }
        let mut point_orbit: Vec<u32> = (0..layout.total as u32).collect();
        for p in perms {
            for (x, &y) in p.iter().enumerate() {
                union(&mut point_orbit, x as u32, y as u32);
            }
        }
        for x in 0..layout.total as u32 {
            point_orbit[x as usize] = find(&mut point_orbit, x);
        }
        let max_size = sets.iter().map(|s| s.size).max().unwrap_or(0);
        let mut local = vec![0usize; max_size];
        let mut gen_twist = Vec::with_capacity(moves.len());
        let mut gen_parity = Vec::with_capacity(moves.len());
        for m in moves {
            let mut tw = Vec::with_capacity(orbits.len());
            let mut par = Vec::with_capacity(orbits.len());
            for o in &orbits {
                let n = layout.n[o.set] as u64;
                let s = &m.sets[o.set];
                tw.push(o.positions.iter().map(|&i| s.ori[i] as u64).sum::<u64>() % n);
                par.push(parity_on(&o.positions, |i| s.perm[i] as usize, &mut local));
            }
            gen_twist.push(tw);
            gen_parity.push(par);
        }
        for (j, o) in orbits.iter_mut().enumerate() {
            let n = layout.n[o.set] as u64;
            o.twist_mod = gcd_all(n, gen_twist.iter().map(|t| t[j]));
        }
        let mut inv = Invariants {
            orbits,
            point_orbit,
            gen_twist,
            gen_parity,
            upper: None,
        };
        inv.upper = inv.upper_bound(layout);
        inv
    }

    /// `|W| / [A : phi(G)]`, where `W` is every arrangement that keeps pieces within
    /// their position orbits (which contains the group), and `phi` maps an arrangement
    /// to its orientation sums and permutation parities per orbit. `phi` maps `W` onto
    /// all of `A` (a single twist or swap changes one coordinate), so the group, whose
    /// image is the subgroup its moves generate, has at most this many elements.
    fn upper_bound(&self, layout: &Layout) -> Option<BigUint> {
        let mut w = BigUint::one();
        let (mut mods, mut cols): (Vec<u64>, Vec<(usize, bool)>) = (Vec::new(), Vec::new());
        for (j, o) in self.orbits.iter().enumerate() {
            let n = layout.n[o.set] as u64;
            for k in 2..=o.positions.len() as u64 {
                w.mul_u64(k);
            }
            for _ in 0..o.positions.len() {
                w.mul_u64(n);
            }
            if n >= 2 {
                mods.push(n);
                cols.push((j, true));
            }
            if o.positions.len() >= 2 {
                mods.push(2);
                cols.push((j, false));
            }
        }
        let gens: Vec<Vec<u64>> = (0..self.gen_twist.len())
            .map(|g| {
                cols.iter()
                    .map(|&(j, twist)| {
                        if twist {
                            self.gen_twist[g][j]
                        } else {
                            self.gen_parity[g][j]
                        }
                    })
                    .collect()
            })
            .collect();
        let h = Subgroup::new(&mods, &gens);
        for f in h.index_factors() {
            let (q, r) = w.div_rem_u64(f)?;
            if r != 0 {
                return None;
            }
            w = q;
        }
        Some(w)
    }

    fn part_name(&self, sets: &[SetDef], j: usize) -> String {
        let o = &self.orbits[j];
        if o.positions.len() == sets[o.set].size {
            sets[o.set].name.clone()
        } else {
            let list: Vec<String> = o.positions.iter().map(|p| (p + 1).to_string()).collect();
            format!("{} positions {}", sets[o.set].name, list.join(", "))
        }
    }

    /// The first invariant `state` breaks, in the order of how simply it can be said:
    /// the wrong shape, an orientation out of range, pieces missing or repeated, a piece
    /// where it can never go, a piece twisted in a way it can never be, an orientation
    /// sum, a permutation parity, and last a combination of sums and parities. `None`
    /// when the state passes them all.
    pub fn explain(
        &self,
        sets: &[SetDef],
        layout: &Layout,
        solved: &State,
        state: &State,
    ) -> Option<Reason> {
        if let Some(r) = shape_reason(sets, state) {
            return Some(r);
        }
        for (k, set) in sets.iter().enumerate() {
            let n = layout.n[k];
            if let Some(i) = state.sets[k].ori.iter().position(|&o| o as usize >= n) {
                return Some(Reason::OrientationRange {
                    set: set.name.clone(),
                    position: i + 1,
                    value: state.sets[k].ori[i],
                    orientations: n as u8,
                });
            }
        }
        for (k, set) in sets.iter().enumerate() {
            let problems = piece_counts(&solved.sets[k].perm, &state.sets[k].perm);
            if !problems.is_empty() {
                return Some(Reason::PieceCounts {
                    set: set.name.clone(),
                    problems,
                });
            }
        }
        // Position orbits: each must hold the same labels as in the solved state.
        for o in &self.orbits {
            let (s, t) = (&solved.sets[o.set], &state.sets[o.set]);
            let mut remaining = std::collections::HashMap::new();
            for &i in &o.positions {
                *remaining.entry(s.perm[i]).or_insert(0u32) += 1;
            }
            for &i in &o.positions {
                match remaining.get_mut(&t.perm[i]) {
                    Some(c) if *c > 0 => *c -= 1,
                    _ => {
                        return Some(Reason::OutOfOrbit {
                            set: sets[o.set].name.clone(),
                            position: i + 1,
                            piece: t.perm[i] as usize + 1,
                        })
                    }
                }
            }
        }
        // Point orbits: the piece's reference facet must be able to reach the facet
        // position it shows at, from some solved home of that label.
        for o in &self.orbits {
            let k = o.set;
            let n = layout.n[k];
            if n < 2 {
                continue;
            }
            let (s, t) = (&solved.sets[k], &state.sets[k]);
            for &i in &o.positions {
                let (l, ori) = (t.perm[i], t.ori[i] as usize);
                let ok = o.positions.iter().any(|&p| {
                    s.perm[p] == l && {
                        let q = (ori + n - s.ori[p] as usize % n) % n;
                        self.point_orbit[layout.point(k, i, q)]
                            == self.point_orbit[layout.point(k, p, 0)]
                    }
                });
                if !ok {
                    return Some(Reason::TwistedInPlace {
                        set: sets[k].name.clone(),
                        position: i + 1,
                        piece: l as usize + 1,
                    });
                }
            }
        }
        if let Some(r) = self.orientation_sum_reason(sets, solved, state, &[]) {
            return Some(r);
        }
        self.parity_reason(sets, layout, solved, state)
    }

    /// The orientation-sum rule, over each position orbit none of whose orientations
    /// `ignore` marks (an empty `ignore` marks nothing). The sum does not depend on
    /// which pieces sit where, so ignored permutation entries do not matter.
    pub fn orientation_sum_reason(
        &self,
        sets: &[SetDef],
        solved: &State,
        state: &State,
        ignore: &[IgnoreMask],
    ) -> Option<Reason> {
        for (j, o) in self.orbits.iter().enumerate() {
            let d = o.twist_mod;
            let ignored = ignore
                .get(o.set)
                .is_some_and(|m| o.positions.iter().any(|&i| m.ori.get(i) == Some(&true)));
            if d < 2 || ignored {
                continue;
            }
            let sum = |st: &State| {
                o.positions
                    .iter()
                    .map(|&i| st.sets[o.set].ori[i] as u64)
                    .sum::<u64>()
                    % d
            };
            let (have, want) = (sum(state), sum(solved));
            if have != want {
                return Some(Reason::OrientationSum {
                    part: self.part_name(sets, j),
                    sum: have,
                    modulus: d,
                    expected: want,
                });
            }
        }
        None
    }

    /// Parity relations, then the joint relations of sums and parities.
    fn parity_reason(
        &self,
        sets: &[SetDef],
        layout: &Layout,
        solved: &State,
        state: &State,
    ) -> Option<Reason> {
        // Parities are only defined on orbits whose solved labels are distinct there.
        let max_size = sets.iter().map(|s| s.size).max().unwrap_or(0);
        let mut local = vec![0usize; max_size];
        let mut par_cols = Vec::new();
        let mut state_par = Vec::new();
        for (j, o) in self.orbits.iter().enumerate() {
            if o.positions.len() < 2 {
                continue;
            }
            let s = &solved.sets[o.set];
            let mut home = std::collections::HashMap::new();
            if !o
                .positions
                .iter()
                .all(|&p| home.insert(s.perm[p], p).is_none())
            {
                continue;
            }
            let t = &state.sets[o.set];
            par_cols.push(j);
            state_par.push(parity_on(&o.positions, |i| home[&t.perm[i]], &mut local));
        }
        let gens: Vec<Vec<u64>> = self
            .gen_parity
            .iter()
            .map(|g| par_cols.iter().map(|&j| g[j]).collect())
            .collect();
        if let Some(rel) = violated_relation(&gens, &state_par) {
            let parts: Vec<String> = rel
                .iter()
                .map(|&c| self.part_name(sets, par_cols[c]))
                .collect();
            return Some(Reason::Parity { parts });
        }
        // Joint: orientation sums (mod the set's orientation count) with parities.
        let mut mods = Vec::new();
        let mut v = Vec::new();
        let mut cols: Vec<(usize, bool)> = Vec::new();
        for (j, o) in self.orbits.iter().enumerate() {
            let n = layout.n[o.set] as u64;
            if n >= 2 {
                let sum = |st: &State| {
                    o.positions
                        .iter()
                        .map(|&i| st.sets[o.set].ori[i] as u64)
                        .sum::<u64>()
                };
                mods.push(n);
                v.push((sum(state) % n + n - sum(solved) % n) % n);
                cols.push((j, true));
            }
        }
        for (c, &j) in par_cols.iter().enumerate() {
            mods.push(2);
            v.push(state_par[c]);
            cols.push((j, false));
        }
        let gens: Vec<Vec<u64>> = (0..self.gen_twist.len())
            .map(|g| {
                cols.iter()
                    .map(|&(j, tw)| {
                        if tw {
                            self.gen_twist[g][j]
                        } else {
                            self.gen_parity[g][j]
                        }
                    })
                    .collect()
            })
            .collect();
        if !Subgroup::new(&mods, &gens).contains(&v) {
            return Some(Reason::SumsAndParities);
        }
        None
    }
}

/// Whether the state has the puzzle's shape; the reason when not.
pub(crate) fn shape_reason(sets: &[SetDef], state: &State) -> Option<Reason> {
    if state.sets.len() != sets.len() {
        return Some(Reason::Malformed(format!(
            "it has {} sets, the puzzle {}",
            state.sets.len(),
            sets.len()
        )));
    }
    for (set, s) in sets.iter().zip(&state.sets) {
        if s.perm.len() != set.size || s.ori.len() != set.size {
            return Some(Reason::Malformed(format!(
                "{} has {} positions, the puzzle {}",
                set.name,
                s.perm.len(),
                set.size
            )));
        }
    }
    None
}

/// The labels whose count in `state` differs from `solved` (labels 1-based).
fn piece_counts(solved: &[u16], state: &[u16]) -> Vec<PieceCount> {
    let mut counts = std::collections::BTreeMap::new();
    for &l in solved {
        counts.entry(l).or_insert((0u32, 0u32)).0 += 1;
    }
    for &l in state {
        counts.entry(l).or_insert((0u32, 0u32)).1 += 1;
    }
    counts
        .into_iter()
        .filter(|(_, (want, have))| want != have)
        .map(|(l, (expected, found))| PieceCount {
            piece: l as usize + 1,
            found,
            expected,
        })
        .collect()
}

/// A set of parity coordinates whose sum is the same (zero) for every generator but
/// odd for `v`, preferring one coordinate, then two, then any relation; `None` when
/// `v` is in the span of the generators' parity vectors.
fn violated_relation(gens: &[Vec<u64>], v: &[u64]) -> Option<Vec<usize>> {
    let c = v.len();
    for i in 0..c {
        if v[i] == 1 && gens.iter().all(|g| g[i] == 0) {
            return Some(vec![i]);
        }
    }
    for i in 0..c {
        for j in i + 1..c {
            if v[i] != v[j] && gens.iter().all(|g| g[i] == g[j]) {
                return Some(vec![i, j]);
            }
        }
    }
    // Row-reduce the generators; the null space holds every relation they satisfy.
    let mut rows: Vec<Vec<u64>> = gens.to_vec();
    let mut pivot_cols = Vec::new();
    let mut r = 0;
    for col in 0..c {
        let Some(p) = (r..rows.len()).find(|&k| rows[k][col] == 1) else {
            continue;
        };
        rows.swap(r, p);
        for k in 0..rows.len() {
            if k != r && rows[k][col] == 1 {
                let pr = rows[r].clone();
                for (x, y) in rows[k].iter_mut().zip(&pr) {
                    *x ^= y;
                }
            }
        }
        pivot_cols.push(col);
        r += 1;
    }
    for free in (0..c).filter(|x| !pivot_cols.contains(x)) {
        // The null vector with this free column set: each pivot column takes the value
        // that cancels its row.
        let mut rel = vec![0u64; c];
        rel[free] = 1;
        for (k, &pc) in pivot_cols.iter().enumerate() {
            rel[pc] = rows[k][free];
        }
        let dot = rel.iter().zip(v).map(|(a, b)| a * b).sum::<u64>() % 2;
        if dot == 1 {
            return Some((0..c).filter(|&x| rel[x] == 1).collect());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::violated_relation;

    #[test]
    fn parity_relations_prefer_the_simplest_wording() {
        // Generators flip coordinates 0 and 1 together; coordinate 2 never changes.
        let gens = vec![vec![1, 1, 0], vec![0, 0, 0]];
        assert_eq!(violated_relation(&gens, &[0, 0, 1]), Some(vec![2]));
        assert_eq!(violated_relation(&gens, &[1, 0, 0]), Some(vec![0, 1]));
        assert_eq!(violated_relation(&gens, &[1, 1, 0]), None);
        // Three coordinates that only ever change in pairs.
        let gens = vec![vec![1, 1, 0], vec![0, 1, 1]];
        assert_eq!(violated_relation(&gens, &[1, 0, 0]), Some(vec![0, 1, 2]));
        assert_eq!(violated_relation(&gens, &[1, 0, 1]), None);
    }
}
