//! The bound checks a worker makes on a batch of children ([`super::super::checks`]):
//! each fills the batch's bounds a table at a time, asking for every entry before
//! reading any ([`crate::table::prefetch`]), so that the reads of different children
//! overlap; the checks at the inverse position, made the same way on the children the
//! batch checks keep (each child's inverse made once); and the sampling that lets the
//! search choose which checks pay.

use super::Worker;
use crate::search::checks::Check;

impl Worker<'_, '_, '_> {
    /// Advances the probe slots and the whole position (when the inverse is probed)
    /// from the node at `level` by move `m` into the next row, every slot whether the
    /// plan reads it or not: for the moves of a prefix and for replaying the path to a
    /// sampled node.
    pub(super) fn advance_probes(&mut self, level: usize, m: usize) {
        let ctx = self.ctx;
        let pw = ctx.sym.slots.len();
        if pw > 0 {
            let nm = ctx.nm;
            let (cur, next) = self.probe.path.split_at_mut((level + 1) * pw);
            let cur = &cur[level * pw..];
            for ((n, &c), slot) in next[..pw].iter_mut().zip(cur).zip(&ctx.sym.slots) {
                *n = slot.table[c as usize * nm + slot.map[m] as usize];
            }
        }
        self.advance_full(level, m);
    }

    /// The inverse of the whole position after move `m` from the node at `level`, when
    /// the inverse is probed.
    #[inline]
    pub(super) fn advance_full(&mut self, level: usize, m: usize) {
        if let Some(ip) = &self.ctx.inverse {
            let (cur, next) = self.inverse.full.split_at_mut(level + 1);
            ip.premove_into(m, &cur[level], &mut next[0]);
        }
    }

    /// The probe slots `slots` of the first `alive` children (from row `kbase`), from
    /// the node's at `level`.
    fn probe_rows(
        &mut self,
        level: usize,
        kbase: usize,
        alive: usize,
        slots: impl Iterator<Item = usize> + Clone,
    ) {
        let ctx = self.ctx;
        let (pw, nm) = (ctx.sym.slots.len(), ctx.nm);
        let cur = &self.probe.path[level * pw..(level + 1) * pw];
        for i in 0..alive {
            let m = self.kids.moves[kbase + i] as usize;
            let row = &mut self.probe.kids[(kbase + i) * pw..(kbase + i + 1) * pw];
            for s in slots.clone() {
                let slot = &ctx.sym.slots[s];
                row[s] = slot.table[cur[s] as usize * nm + slot.map[m] as usize];
            }
        }
    }

    /// Fills `h[i]` with check `c`'s bound for each of the first `alive` children (from
    /// row `kbase`), whose probe rows are in place if `c` reads them. The probes leave a
    /// child with nothing left to the goal test (bound 0); the tables at the child
    /// itself also cut one that free moves would otherwise expand.
    pub(super) fn bounds(&mut self, c: Check, kbase: usize, alive: usize) {
        let ctx = self.ctx;
        let (w, pw) = (ctx.width, ctx.sym.slots.len());
        let left = &self.kids.left[kbase..kbase + alive];
        match c {
            Check::Table(t) => {
                let (slots, table) = &ctx.prune[t];
                let table = table.reader();
                for (i, h) in self.kids.h[..alive].iter_mut().enumerate() {
                    let row = &self.kids.vals[(kbase + i) * w..(kbase + i + 1) * w];
                    let idx: u64 = slots.iter().map(|&(s, st)| row[s] as u64 * st).sum();
                    *h = table.get(idx);
                }
            }
            Check::Probe(p) => {
                let (t, pairs) = &ctx.sym.probes[p];
                let table = ctx.prune[*t].1.reader();
                for (i, h) in self.kids.h[..alive].iter_mut().enumerate() {
                    let row = &self.probe.kids[(kbase + i) * pw..(kbase + i + 1) * pw];
                    let idx: u64 = pairs.iter().map(|&(s, st)| row[s] as u64 * st).sum();
                    *h = if left[i] == 0 { 0 } else { table.get(idx) };
                }
            }
            Check::Reduced | Check::ReducedProbe(_) => {
                let (r, rows, width) = match c {
                    Check::Reduced => (ctx.reduced.as_ref().expect("planned"), &self.kids.vals, w),
                    Check::ReducedProbe(p) => (&ctx.sym.reduced[p], &self.probe.kids, pw),
                    _ => unreachable!("matched above"),
                };
                // Every class is asked for before any is read, then every entry, so
                // that the misses of a batch (in a class table of hundreds of
                // megabytes, then a table of gigabytes) overlap instead of each
                // waiting behind the one before.
                let all = c == Check::Reduced;
                let entries = r.table.reader();
                let row = |i: usize| &rows[(kbase + i) * width..(kbase + i + 1) * width];
                for i in (0..alive).filter(|&i| all || left[i] > 0) {
                    let raw = r.raw(row(i));
                    r.prefetch_class(raw);
                    self.kids.idx[i] = raw;
                }
                for i in (0..alive).filter(|&i| all || left[i] > 0) {
                    let at = r.index_of(self.kids.idx[i], row(i));
                    entries.prefetch(at);
                    self.kids.idx[i] = at;
                }
                for (i, h) in self.kids.h[..alive].iter_mut().enumerate() {
                    *h = if all || left[i] > 0 {
                        entries.get(self.kids.idx[i])
                    } else {
                        0
                    };
                }
            }
            Check::InverseTable(_) | Check::InverseReduced | Check::InverseReducedProbe(_) => {
                unreachable!("checks at the inverse are made by `inverse_bounds`")
            }
        }
    }

    /// Makes the plan's batch checks on the first `alive` children (from row `kbase`) of
    /// the node at `level`; returns how many are kept (in order, their rows with them).
    pub(super) fn check_batch(&mut self, level: usize, kbase: usize, mut alive: usize) -> usize {
        let plan = self.checks.plan;
        let mut rows = false;
        for &c in &plan.batch {
            if alive == 0 {
                return 0;
            }
            if c.reads_slots() && !rows {
                self.probe_rows(level, kbase, alive, plan.live.iter().copied());
                rows = true;
            }
            self.bounds(c, kbase, alive);
            let fix = self.ctx.tight.of(c);
            if fix != 0 {
                self.tighten(fix, kbase, alive);
            }
            alive = self.keep_bounded(kbase, alive);
        }
        alive
    }

    /// Adds the fixing set `fix` of the check just made to the children whose bound it
    /// left tight, and raises by one the bound of those whose tight lookups now rule out
    /// every last move ([`crate::search`]'s tight-bound rule).
    fn tighten(&mut self, fix: u64, kbase: usize, alive: usize) {
        let all = self.ctx.tight.all;
        for (i, h) in self.kids.h[..alive].iter_mut().enumerate() {
            let left = self.kids.left[kbase + i];
            if left > 0 && *h == left {
                let t = &mut self.kids.tight[kbase + i];
                *t |= fix;
                if *t == all {
                    *h = left + 1;
                }
            }
        }
    }

    /// Keeps, in order, the first `alive` children (from row `kbase`) whose bound in
    /// `h` fits the cost left after them; returns how many are kept.
    fn keep_bounded(&mut self, kbase: usize, alive: usize) -> usize {
        let w = self.ctx.width;
        let mut kept = 0;
        for i in 0..alive {
            let (h, left) = (self.kids.h[i], self.kids.left[kbase + i]);
            if h > left {
                self.refused_by(h - left);
            } else {
                if kept != i {
                    let (a, b) = ((kbase + kept) * w, (kbase + i) * w);
                    self.kids.vals.copy_within(b..b + w, a);
                    self.kids.moves[kbase + kept] = self.kids.moves[kbase + i];
                    self.kids.states[kbase + kept] = self.kids.states[kbase + i];
                    self.kids.left[kbase + kept] = self.kids.left[kbase + i];
                    self.kids.tight[kbase + kept] = self.kids.tight[kbase + i];
                    if self.ctx.guards.is_some() {
                        self.guard.kids[kbase + kept] = self.guard.kids[kbase + i];
                    }
                    // Only the probe slots the plan reads were made.
                    let pw = self.ctx.sym.slots.len();
                    let (a, b) = ((kbase + kept) * pw, (kbase + i) * pw);
                    for &s in &self.checks.plan.live {
                        self.probe.kids[a + s] = self.probe.kids[b + s];
                    }
                    if !self.inverse.kids.is_empty() {
                        self.inverse.kids.swap(kept, i);
                    }
                }
                kept += 1;
            }
        }
        kept
    }

    /// The bound of check `c` at the inverse position, which is in `self.inverse.inv`:
    /// for the sample, a child at a time.
    fn inverse_bound(&mut self, c: Check) -> u32 {
        let ctx = self.ctx;
        let ip = ctx.inverse.as_ref().expect("planned");
        match c {
            Check::InverseTable(i) => {
                let (t, comps) = &ip.tables[i];
                let mut idx = 0u64;
                for &(c, stride) in comps {
                    idx +=
                        c.rank_state(&self.inverse.inv, &mut self.inverse.scratch) as u64 * stride;
                }
                ctx.prune[*t].1.get(idx)
            }
            Check::InverseReduced => ip.reduced_bound(
                &self.inverse.inv,
                &mut self.inverse.rrow,
                &mut self.inverse.scratch,
            ),
            Check::InverseReducedProbe(p) => ip.reduced_probe_bound(
                p,
                &self.inverse.inv,
                &mut self.inverse.conj,
                &mut self.inverse.rrow,
                &mut self.inverse.scratch,
            ),
            _ => unreachable!("only checks at the inverse"),
        }
    }

    /// Makes the plan's checks at the inverse on the first `alive` children (from row
    /// `kbase`) of the node at `level`, whose whole position is at that level; returns
    /// how many are kept (in order, their rows with them). A child with nothing left is
    /// decided by the goal test alone and always kept.
    ///
    /// Like the batch checks, each check ranks every child's inverse first and asks for
    /// the entries it will read, then reads them: the misses of a batch overlap.
    pub(super) fn check_inverse(&mut self, level: usize, kbase: usize, mut alive: usize) -> usize {
        let plan = self.checks.plan;
        if plan.inverse.is_empty() {
            // The forward masks are spent; none rules out a first move.
            self.kids.tight[kbase..kbase + alive].fill(0);
            return alive;
        }
        let ip = self.ctx.inverse.as_ref().expect("planned");
        for i in 0..alive {
            // From here on a child's tight mask gathers the moves its lookups at the
            // inverse rule out as its first move (the forward masks are spent).
            self.kids.tight[kbase + i] = 0;
            if self.kids.left[kbase + i] > 0 {
                let m = self.kids.moves[kbase + i] as usize;
                ip.premove_into(m, &self.inverse.full[level], &mut self.inverse.kids[i]);
            }
        }
        for &c in &plan.inverse {
            if alive == 0 {
                return 0;
            }
            self.inverse_bounds(c, kbase, alive);
            let fix = self.ctx.tight.of(c);
            if fix != 0 {
                self.tighten(fix, kbase, alive);
            }
            alive = self.keep_bounded(kbase, alive);
        }
        alive
    }

    /// Fills `h[i]` with check `c`'s bound at the inverse of each of the first `alive`
    /// children (from row `kbase`), whose inverses are in `self.inverse.kids`; 0 for a
    /// child with nothing left.
    fn inverse_bounds(&mut self, c: Check, kbase: usize, alive: usize) {
        let ctx = self.ctx;
        let ip = ctx.inverse.as_ref().expect("planned");
        let left = &self.kids.left[kbase..kbase + alive];
        let inv = &mut self.inverse;
        match c {
            Check::InverseTable(t) => {
                let (ti, comps) = &ip.tables[t];
                let table = ctx.prune[*ti].1.reader();
                for i in (0..alive).filter(|&i| left[i] > 0) {
                    let mut at = 0u64;
                    for &(c, stride) in comps {
                        at += c.rank_state(&inv.kids[i], &mut inv.scratch) as u64 * stride;
                    }
                    table.prefetch(at);
                    self.kids.idx[i] = at;
                }
                for (i, h) in self.kids.h[..alive].iter_mut().enumerate() {
                    *h = if left[i] > 0 {
                        table.get(self.kids.idx[i])
                    } else {
                        0
                    };
                }
            }
            Check::InverseReduced | Check::InverseReducedProbe(_) => {
                let (comps, r) = ip.reduced.as_ref().expect("planned");
                let n = comps.len();
                let entries = r.table.reader();
                let conj = match c {
                    Check::InverseReducedProbe(p) => Some(&ip.conj[p]),
                    _ => None,
                };
                for i in (0..alive).filter(|&i| left[i] > 0) {
                    let at = match conj {
                        Some(s) => {
                            s.conjugate_into(&inv.kids[i], &mut inv.conj);
                            &inv.conj
                        }
                        None => &inv.kids[i],
                    };
                    let row = &mut inv.rows[i * n..(i + 1) * n];
                    for (v, c) in row.iter_mut().zip(comps) {
                        *v = c.rank_state(at, &mut inv.scratch);
                    }
                    let raw = r.raw(row);
                    r.prefetch_class(raw);
                    self.kids.idx[i] = raw;
                }
                for i in (0..alive).filter(|&i| left[i] > 0) {
                    let at = r.index_of(self.kids.idx[i], &inv.rows[i * n..(i + 1) * n]);
                    entries.prefetch(at);
                    self.kids.idx[i] = at;
                }
                for (i, h) in self.kids.h[..alive].iter_mut().enumerate() {
                    *h = if left[i] > 0 {
                        entries.get(self.kids.idx[i])
                    } else {
                        0
                    };
                }
            }
            _ => unreachable!("only checks at the inverse"),
        }
    }

    /// Whether the children of the node at `level` are one of the sample: about one
    /// node in the plan's `every` (by default [`crate::search::checks::SAMPLE_EVERY`]),
    /// picked by a hash of its position, so that the sample is spread over every depth
    /// and prefix and does not depend on which thread searched which prefix. (The top
    /// of the tree, above the prefixes, is not sampled; its depth grows with the
    /// threads, so a close choice can differ between thread counts: never a solution.)
    #[inline]
    pub(super) fn sampled(&self, level: usize) -> bool {
        let plan = self.checks.plan;
        plan.sampling && {
            // The slots the plan makes (the others need not be in the row); the moves
            // of the path when it makes none.
            let mix = |h: u64, v: u64| (h ^ v).wrapping_mul(0xff51_afd7_ed55_8ccd);
            let seed = 0x9e37_79b9_7f4a_7c15u64;
            let h = if plan.rows.is_empty() {
                self.path.moves.iter().fold(seed, |h, &m| mix(h, m as u64))
            } else {
                let row = self.row(level);
                plan.rows.iter().fold(seed, |h, &s| mix(h, row[s] as u64))
            };
            (h >> 32) % plan.every == 0
        }
    }

    /// Makes every check of the plan on the first `alive` children (from row `kbase`) of
    /// the node at `level` and keeps, per child with cost left, which would cut it. The
    /// probe slots and whole position of the node are first rebuilt from the path, since
    /// the plan need not keep them.
    pub(super) fn sample(&mut self, level: usize, kbase: usize, alive: usize) {
        let ctx = self.ctx;
        let plan = self.checks.plan;
        for l in 0..level {
            self.advance_probes(l, self.path.moves[l] as usize);
        }
        // Every check is made, so the children's rows are made whole.
        self.fill(level);
        let w = ctx.width;
        for i in 0..alive {
            let k = kbase + i;
            let cur = &self.path.states[level * w..(level + 1) * w];
            let m = self.kids.moves[k] as usize;
            ctx.step_row(cur, m, &mut self.kids.vals[k * w..(k + 1) * w]);
        }
        self.probe_rows(level, kbase, alive, 0..ctx.sym.slots.len());
        self.checks.mask[..alive].fill(0);
        for (bit, info) in plan.all.iter().enumerate() {
            if info.check.at_inverse() {
                continue;
            }
            self.bounds(info.check, kbase, alive);
            for i in 0..alive {
                if self.kids.h[i] > self.kids.left[kbase + i] {
                    self.checks.mask[i] |= 1 << bit;
                }
            }
        }
        if let Some(ip) = &ctx.inverse {
            for i in 0..alive {
                let m = self.kids.moves[kbase + i] as usize;
                ip.premove_into(m, &self.inverse.full[level], &mut self.inverse.inv);
                for (bit, info) in plan.all.iter().enumerate() {
                    if info.check.at_inverse()
                        && self.inverse_bound(info.check) > self.kids.left[kbase + i]
                    {
                        self.checks.mask[i] |= 1 << bit;
                    }
                }
            }
        }
        // Children with nothing left are decided by the goal test and not weighed; a
        // batch counts only with children that are.
        let mut any = false;
        for i in 0..alive {
            if self.kids.left[kbase + i] > 0 {
                self.checks.samples.add(self.checks.mask[i]);
                any = true;
            }
        }
        self.checks.samples.batches += u64::from(any);
    }
}
