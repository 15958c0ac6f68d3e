//! The cursor that walks the perfect index in order.

use super::{Indexer, Scratch};

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
                let r = comp.next(self.ranks[c], t, &mut self.sc);
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
