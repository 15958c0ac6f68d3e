//! Backtrack search through the stabiliser chain for group elements that carry one
//! colouring of the points onto another. With interchangeable pieces a state is a
//! colouring rather than a group element, so "is this state reachable" becomes "does
//! some element map the solved colouring onto it", and the number of reachable states
//! is the group order divided by the order of the colouring's stabiliser.
//!
//! An element is built one level at a time, as a product of coset representatives.
//! After choosing the representatives of levels `0..=j`, the rest of the element lies
//! in the stabiliser of those base points, which keeps each of its orbits on the
//! points; so on every such orbit the colours still to be matched must agree as
//! multisets. That test prunes nearly every wrong branch at once. A node budget bounds
//! the work: the caller learns when the answer is not known rather than waiting.

use super::bigint::BigUint;
use super::chain::Chain;
use super::points::{compose, Perm};

/// Per depth `d` (0 = the whole group, `d = j + 1` = the stabiliser of the base points
/// of levels `0..=j`): the points grouped by orbit.
pub(crate) struct OrbitTables {
    groups: Vec<Vec<Vec<u16>>>,
}

impl OrbitTables {
    pub fn new(chain: &Chain) -> OrbitTables {
        let n = chain.n;
        let k = chain.levels.len();
        let mut groups = Vec::with_capacity(k + 1);
        for d in 0..=k {
            let gens: &[u32] = if d < k { &chain.levels[d].gens } else { &[] };
            let mut orbit_of = vec![u32::MAX; n];
            let mut out: Vec<Vec<u16>> = Vec::new();
            for start in 0..n {
                if orbit_of[start] != u32::MAX {
                    continue;
                }
                let id = out.len() as u32;
                orbit_of[start] = id;
                let mut members = vec![start as u16];
                let mut q = 0;
                while q < members.len() {
                    let x = members[q] as usize;
                    for &g in gens {
                        let y = chain.strong[g as usize][x];
                        if orbit_of[y as usize] == u32::MAX {
                            orbit_of[y as usize] = id;
                            members.push(y);
                        }
                    }
                    q += 1;
                }
                out.push(members);
            }
            groups.push(out);
        }
        OrbitTables { groups }
    }
}

/// The result of a bounded search.
pub(crate) enum Outcome {
    Found(Perm),
    NotFound,
    OutOfBudget,
}

/// The search state: the colouring every point must keep (`src`: the solved state's),
/// scratch colourings per depth, and the node budget.
pub(crate) struct Searcher<'a> {
    chain: &'a Chain,
    tables: &'a OrbitTables,
    src: &'a [u32],
    bufs: Vec<Vec<u32>>,
    chosen: Vec<usize>,
    cnt: Vec<i32>,
    nodes: u64,
    budget: u64,
}

impl<'a> Searcher<'a> {
    pub fn new(
        chain: &'a Chain,
        tables: &'a OrbitTables,
        src: &'a [u32],
        colors: usize,
        budget: u64,
    ) -> Self {
        Searcher {
            chain,
            tables,
            src,
            bufs: vec![vec![0; chain.n]; chain.levels.len() + 1],
            chosen: vec![0; chain.levels.len()],
            cnt: vec![0; colors],
            nodes: 0,
            budget,
        }
    }

    /// Whether colouring `c` can still be turned into `src` by an element of the
    /// depth-`d` stabiliser: on each of its orbits the colour multisets agree.
    fn consistent(&mut self, d: usize, c: &[u32]) -> bool {
        for group in &self.tables.groups[d] {
            if let [x] = group.as_slice() {
                if c[*x as usize] != self.src[*x as usize] {
                    return false;
                }
                continue;
            }
            for &x in group {
                self.cnt[self.src[x as usize] as usize] += 1;
            }
            let mut ok = true;
            for &x in group {
                let slot = &mut self.cnt[c[x as usize] as usize];
                *slot -= 1;
                if *slot < 0 {
                    ok = false;
                }
            }
            for &x in group {
                self.cnt[self.src[x as usize] as usize] = 0;
                self.cnt[c[x as usize] as usize] = 0;
            }
            if !ok {
                return false;
            }
        }
        true
    }

    /// Depth-first search from level `j`, with `bufs[j]` holding the target colouring
    /// pulled back through the representatives chosen above.
    fn dfs(&mut self, j: usize) -> Result<bool, ()> {
        let k = self.chain.levels.len();
        if j == k {
            return Ok(true);
        }
        let n = self.chain.n;
        let chain = self.chain;
        let level = &chain.levels[j];
        let want = self.src[level.base as usize];
        for idx in 0..level.orbit.len() {
            let gamma = level.orbit[idx] as usize;
            if self.bufs[j][gamma] != want {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.budget {
                return Err(());
            }
            let rep = level.rep(idx, n);
            let (head, tail) = self.bufs.split_at_mut(j + 1);
            let (cur, next) = (&head[j], &mut tail[0]);
            for x in 0..n {
                next[x] = cur[rep[x] as usize];
            }
            let next = std::mem::take(&mut self.bufs[j + 1]);
            let ok = self.consistent(j + 1, &next);
            self.bufs[j + 1] = next;
            if !ok {
                continue;
            }
            self.chosen[j] = idx;
            if self.dfs(j + 1)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Searches levels `depth..` for an element `r` of the stabiliser of the base points
    /// above `depth` with `start(r(x)) = src(x)` for every point, where `start` is the
    /// target colouring pulled back through whatever prefix the caller fixed.
    fn find_from(&mut self, depth: usize, start: &[u32]) -> Outcome {
        if !self.consistent(depth, start) {
            return Outcome::NotFound;
        }
        self.bufs[depth].copy_from_slice(start);
        match self.dfs(depth) {
            Err(()) => Outcome::OutOfBudget,
            Ok(false) => Outcome::NotFound,
            Ok(true) => {
                let n = self.chain.n;
                let mut g: Perm = (0..n as u16).collect();
                for j in (depth..self.chain.levels.len()).rev() {
                    g = compose(&g, self.chain.levels[j].rep(self.chosen[j], n));
                }
                Outcome::Found(g)
            }
        }
    }

    /// An element `g` of the group with `target(g(x)) = src(x)` for every point: the
    /// state coloured `target` is the solved state followed by `g`.
    pub fn find(&mut self, target: &[u32]) -> Outcome {
        self.find_from(0, target)
    }

    /// The order of the stabiliser of `src`: exact, or (when the budget ran out) a
    /// lower bound, with `false`.
    ///
    /// Works bottom level up. At level `j`, every element of the stabiliser that fixes
    /// the earlier base points sends `b_j` somewhere in its orbit; each candidate image
    /// not yet reached by the generators found so far is searched for, and either a new
    /// generator turns up or the candidate is proven impossible, together with its whole
    /// orbit under the deeper part of the stabiliser (if some element reached a point of
    /// it, composing with a deeper element would reach the candidate too). The level's
    /// factor in the order is then the size of `b_j`'s orbit under the generators.
    pub fn stabiliser_order(&mut self) -> (BigUint, bool) {
        let n = self.chain.n;
        let k = self.chain.levels.len();
        let mut gens: Vec<Perm> = Vec::new();
        let mut order = BigUint::one();
        let mut c = vec![0u32; n];
        for j in (0..k).rev() {
            let deeper = gens.len();
            let chain = self.chain;
            let level = &chain.levels[j];
            let base = level.base;
            let mut in_orbit = vec![false; n];
            in_orbit[base as usize] = true;
            let mut orbit_len = 1u64;
            let mut failed = vec![false; n];
            for idx in 1..level.orbit.len() {
                let gamma = level.orbit[idx];
                if in_orbit[gamma as usize]
                    || failed[gamma as usize]
                    || self.src[gamma as usize] != self.src[base as usize]
                {
                    continue;
                }
                let rep = level.rep(idx, n);
                for x in 0..n {
                    c[x] = self.src[rep[x] as usize];
                }
                match self.find_from(j + 1, &c) {
                    Outcome::Found(g) => {
                        gens.push(compose(&g, rep));
                        orbit_len = mark_orbit(&mut in_orbit, base, &gens);
                    }
                    Outcome::NotFound => {
                        mark_orbit(&mut failed, gamma, &gens[..deeper]);
                    }
                    Outcome::OutOfBudget => {
                        order.mul_u64(orbit_len);
                        return (order, false);
                    }
                }
            }
            order.mul_u64(orbit_len);
        }
        (order, true)
    }
}

/// Marks the orbit of `start` under `gens` in `mark`; returns its size.
fn mark_orbit(mark: &mut [bool], start: u16, gens: &[Perm]) -> u64 {
    let mut todo = vec![start];
    mark[start as usize] = true;
    let mut size = 0u64;
    let mut seen = vec![false; mark.len()];
    seen[start as usize] = true;
    while let Some(x) = todo.pop() {
        size += 1;
        for g in gens {
            let y = g[x as usize];
            if !seen[y as usize] {
                seen[y as usize] = true;
                mark[y as usize] = true;
                todo.push(y);
            }
        }
    }
    size
}
