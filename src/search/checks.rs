//! Which bound checks a search makes on a child, and in what order, chosen from what
//! the checks cut on a sample of the search's own nodes.
//!
//! A child can be checked against every ordinary table, the symmetry-reduced table, the
//! tables at conjugates of the child (symmetry probes) and the tables at its inverse.
//! Every check costs about one memory miss in a large table, but they are far from
//! equally useful: once a strong table has cut a child, a weaker table would mostly cut
//! the same children again. On the 3x3x3 with corners × flips reduced, the two six-edge
//! tables and their six probes together cut a few percent of what the reduced table and
//! its probes let through, at three times their cost, and the search ran faster without
//! them (BENCHMARKS.md, round 6).
//!
//! So the search samples. At about one node in [`SAMPLE_EVERY`] below the top of the
//! tree that the threads share out (picked by a hash of its position, so the sample
//! does not depend on which thread searched which prefix), every check is made on every
//! child with cost left, and the set of checks that would cut the child
//! is kept as a bit mask. After each depth with enough samples, [`Plan::adapt`] orders
//! the checks greedily, as filters in a pipeline: next is the check that cuts the most
//! of what the earlier ones let through per unit of cost, as long as what it cuts is
//! worth more than it costs. A child let through wrongly costs its own children (a
//! batch of them, each generated and checked once at least).
//!
//! Leaving a check out only weakens the bound: every check is a lower bound, so the
//! solutions and their order are the same whatever the plan; only the nodes differ.

/// One check of a child's bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Check {
    /// Ordinary table `i` (in the search's list), at the child.
    Table(usize),
    /// The symmetry-reduced table at the child.
    Reduced,
    /// Symmetry probe `i` of an ordinary table.
    Probe(usize),
    /// Lookup `i` of the reduced table at a conjugate it does not absorb.
    ReducedProbe(usize),
    /// The inverse probe's ordinary table `i`, at the inverse position.
    InverseTable(usize),
    /// The reduced table at the inverse position.
    InverseReduced,
    /// The reduced table at conjugate `i` of the inverse position (the conjugates of
    /// [`Check::ReducedProbe`], in the same order).
    InverseReducedProbe(usize),
}

impl Check {
    /// Whether the check reads the inverse position, which is made per child as it is
    /// searched rather than for the whole batch.
    pub fn at_inverse(self) -> bool {
        matches!(
            self,
            Check::InverseTable(_) | Check::InverseReduced | Check::InverseReducedProbe(_)
        )
    }

    /// Whether the check reads the probe slots.
    pub fn reads_slots(self) -> bool {
        matches!(self, Check::Probe(_) | Check::ReducedProbe(_))
    }
}

/// About one node in this many has its children sampled.
pub const SAMPLE_EVERY: u64 = 256;

/// Fewest sampled children that change the plan.
pub const MIN_SAMPLES: u64 = 2048;

/// The cost of generating a child (its move-table reads and legality), in the unit of
/// the checks' costs: one miss in a large table.
const GENERATE: f64 = 0.3;

/// What a check is and costs, as the plan weighs it.
#[derive(Clone, Debug)]
pub(super) struct CheckInfo {
    pub check: Check,
    /// A name for reports, such as `EDGE.p0o` or `CORNER.po+EDGE.o at symmetry 5`.
    pub name: String,
    /// Roughly the memory misses it costs: about 1 per lookup in a table too large for
    /// the caches, less in smaller ones.
    pub cost: f64,
    /// The probe slots it reads (empty unless [`Check::reads_slots`]).
    pub slots: Vec<usize>,
    /// The slots of the node's own row it reads ([`Check::Table`] and
    /// [`Check::Reduced`]; empty for the others).
    pub rows: Vec<usize>,
}

/// The cost of a read in a table of `bytes`: a miss once it is far larger than the
/// caches, a hit in the last-level cache for mid-sized tables, nearly free for small.
pub(super) fn read_cost(bytes: u64) -> f64 {
    if bytes <= 1 << 20 {
        0.1
    } else if bytes <= 32 << 20 {
        0.4
    } else {
        1.0
    }
}

/// The children sampled in one depth: how many children (with cost left after them)
/// each set of checks would cut, the set as a bit mask over [`Plan::all`]; and the
/// batches they came from. Counts rather than a list, so that a long search samples all
/// along without its sample growing: a handful of distinct sets turn up.
#[derive(Default, Debug, Clone)]
pub(super) struct Samples {
    pub counts: std::collections::HashMap<u64, u64>,
    pub batches: u64,
}

impl Samples {
    /// Counts one sampled child that the checks `mask` would cut.
    #[inline]
    pub fn add(&mut self, mask: u64) {
        *self.counts.entry(mask).or_insert(0) += 1;
    }

    /// Adds another worker's samples.
    pub fn merge(&mut self, other: Samples) {
        for (m, c) in other.counts {
            *self.counts.entry(m).or_insert(0) += c;
        }
        self.batches += other.batches;
    }

    /// The sampled children.
    pub fn children(&self) -> u64 {
        self.counts.values().sum()
    }

    /// The distinct sets with their counts, in a fixed order.
    fn groups(&self) -> Vec<(u64, f64)> {
        let mut g: Vec<(u64, f64)> = self.counts.iter().map(|(&m, &c)| (m, c as f64)).collect();
        g.sort_unstable_by_key(|x| x.0);
        g
    }
}

/// How one check was used, for reports.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckUse {
    pub name: String,
    /// Whether the last depth searched made it.
    pub used: bool,
    /// The share of sampled children it cuts by itself (whatever the others say), in
    /// the last sample that set the plan; `None` before any did.
    pub cuts: Option<f64>,
}

/// The checks of one search and the order they are made in.
pub(super) struct Plan {
    /// Every check the search can make; bit `i` of a sample is `all[i]`.
    pub all: Vec<CheckInfo>,
    /// The checks made on a whole batch of children, in order.
    pub batch: Vec<Check>,
    /// The checks at the inverse position, made on each child the batch checks keep.
    pub inverse: Vec<Check>,
    /// The probe slots the checks in use read (the others need not be kept).
    pub live: Vec<usize>,
    /// The slots of a node's own row that the checks in use and the moves' legality
    /// read: a worker makes only these for a child, and the others from its parent's
    /// when something needs the whole row (the goal test, a sample).
    pub rows: Vec<usize>,
    /// The row slots kept whatever the checks ([`Plan::keep_rows`]).
    kept_rows: Vec<usize>,
    /// The checks in use, in order.
    order: Vec<usize>,
    /// Whether workers sample: there are checks to choose between, and few enough for
    /// a mask.
    pub sampling: bool,
    /// About one node in `every` is sampled; `min` sampled children change the plan.
    pub every: u64,
    min: u64,
    /// Per check, the share of sampled children it cut alone at the last adaptation.
    cuts: Option<Vec<f64>>,
    /// Checks always made, first ([`Plan::pin`]).
    pinned: Vec<usize>,
}

/// The cost of a lookup of the reduced table `r`: its class-table read, its entry read
/// and the minor components' conjugation.
fn reduced_cost(r: &super::reduced::SymLookup<'_>) -> f64 {
    read_cost(r.classes.raw.len() as u64 * 4) + read_cost(r.table.memory()) + 0.1
}

/// The cost of reading probe slots `slots` through their move tables.
fn slots_cost(ctx: &super::Ctx<'_>, slots: &[usize]) -> f64 {
    slots
        .iter()
        .map(|&s| read_cost(ctx.sym.slots[s].table.len() as u64 * 4))
        .sum()
}

/// The cost of making the inverse position and ranking `comps` components there.
fn inverse_cost(comps: usize) -> f64 {
    0.5 + 0.2 * comps as f64
}

/// `names` with tables of one kind over different pieces (`EDGES.p7` twice) numbered,
/// so that reports tell them apart.
pub(super) fn numbered(mut names: Vec<String>) -> Vec<String> {
    for i in 0..names.len() {
        let same: Vec<usize> = (0..names.len()).filter(|&j| names[j] == names[i]).collect();
        if same.len() > 1 {
            for (k, &j) in same.iter().enumerate() {
                names[j] = format!("{} #{}", names[j], k + 1);
            }
        }
    }
    names
}

/// Every check a search with context `ctx` can make, in the order made until samples
/// say otherwise: the reduced table, which is the strongest when the planner gave it
/// most of the memory, and its probes; the ordinary tables and theirs; then those at
/// the inverse. `names` names the ordinary tables, `reduced` the reduced one.
pub(super) fn checks_of(
    ctx: &super::Ctx<'_>,
    names: &[String],
    reduced: Option<&str>,
) -> Vec<CheckInfo> {
    let rname = reduced.unwrap_or("reduced");
    let mut all = Vec::new();
    if let Some(r) = &ctx.reduced {
        all.push(CheckInfo {
            check: Check::Reduced,
            name: rname.to_string(),
            cost: reduced_cost(r),
            slots: Vec::new(),
            rows: r
                .major
                .iter()
                .map(|m| m.0)
                .chain(r.minor.iter().map(|m| m.0))
                .collect(),
        });
    }
    for (i, r) in ctx.sym.reduced.iter().enumerate() {
        let slots: Vec<usize> = r
            .major
            .iter()
            .map(|m| m.0)
            .chain(r.minor.iter().map(|m| m.0))
            .collect();
        all.push(CheckInfo {
            check: Check::ReducedProbe(i),
            name: format!("{rname} at symmetry {}", ctx.sym.reduced_used[i]),
            cost: reduced_cost(r) + slots_cost(ctx, &slots),
            slots,
            rows: Vec::new(),
        });
    }
    for (t, (rows, table)) in ctx.prune.iter().enumerate() {
        all.push(CheckInfo {
            check: Check::Table(t),
            name: names[t].clone(),
            cost: read_cost(table.memory()),
            slots: Vec::new(),
            rows: rows.iter().map(|r| r.0).collect(),
        });
    }
    for (p, (t, pairs)) in ctx.sym.probes.iter().enumerate() {
        let slots: Vec<usize> = pairs.iter().map(|x| x.0).collect();
        all.push(CheckInfo {
            check: Check::Probe(p),
            name: format!("{} at symmetry {}", names[*t], ctx.sym.used[p].1),
            cost: read_cost(ctx.prune[*t].1.memory()) + slots_cost(ctx, &slots),
            slots,
            rows: Vec::new(),
        });
    }
    if let Some(ip) = &ctx.inverse {
        if let Some((comps, r)) = &ip.reduced {
            all.push(CheckInfo {
                check: Check::InverseReduced,
                name: format!("{rname} at the inverse"),
                cost: inverse_cost(comps.len()) + reduced_cost(r),
                slots: Vec::new(),
                rows: Vec::new(),
            });
            for (i, &s) in ctx.sym.reduced_used.iter().enumerate().take(ip.conj.len()) {
                all.push(CheckInfo {
                    check: Check::InverseReducedProbe(i),
                    name: format!("{rname} at the inverse, symmetry {s}"),
                    // Conjugating the whole inverse position costs about as much as
                    // making it.
                    cost: 2.0 * inverse_cost(comps.len()) + reduced_cost(r),
                    slots: Vec::new(),
                    rows: Vec::new(),
                });
            }
        }
        for (i, (t, comps)) in ip.tables.iter().enumerate() {
            all.push(CheckInfo {
                check: Check::InverseTable(i),
                name: format!("{} at the inverse", names[*t]),
                cost: inverse_cost(comps.len()) + read_cost(ctx.prune[*t].1.memory()),
                slots: Vec::new(),
                rows: Vec::new(),
            });
        }
    }
    all
}

impl Plan {
    /// A plan that makes every check of `all`, in their order (the batch checks, then
    /// those at the inverse), until samples say otherwise.
    /// `sampling`: one node in how many is sampled and how many sampled children change
    /// the plan; without it, the plan stays so.
    pub fn new(all: Vec<CheckInfo>, sampling: Option<(u64, u64)>) -> Plan {
        let order: Vec<usize> = (0..all.len()).collect();
        let (every, min) = sampling.unwrap_or((1, 0));
        let mut plan = Plan {
            sampling: sampling.is_some() && all.len() > 1 && all.len() <= 64,
            every: every.max(1),
            min,
            all,
            batch: Vec::new(),
            inverse: Vec::new(),
            live: Vec::new(),
            rows: Vec::new(),
            kept_rows: Vec::new(),
            order: Vec::new(),
            cuts: None,
            pinned: Vec::new(),
        };
        plan.set_order(&order);
        plan
    }

    /// Makes the checks `which` selects always, whatever the samples say: the reduced
    /// table's lookups when their tight bounds cut together ([`super::tight`]), which
    /// the samples, counting what each check cuts alone, do not see; nor do they see
    /// the first moves that tight lookups at the inverse rule out.
    pub fn pin(&mut self, which: impl Fn(Check) -> bool) {
        self.pinned = (0..self.all.len())
            .filter(|&i| which(self.all[i].check))
            .collect();
    }

    /// Keeps the row slots `rows` whatever checks are made: those the moves' legality
    /// reads (a block's pieces).
    pub fn keep_rows(&mut self, rows: impl IntoIterator<Item = usize>) {
        self.kept_rows = rows.into_iter().collect();
        let order = std::mem::take(&mut self.order);
        self.set_order(&order);
    }

    /// Whether whole positions must be kept along the path.
    pub fn keeps_full(&self) -> bool {
        !self.inverse.is_empty()
    }

    fn set_order(&mut self, order: &[usize]) {
        let checks = order.iter().map(|&i| self.all[i].check);
        self.batch = checks.clone().filter(|c| !c.at_inverse()).collect();
        self.inverse = checks.filter(|c| c.at_inverse()).collect();
        let mut live: Vec<usize> = order
            .iter()
            .flat_map(|&i| self.all[i].slots.iter().copied())
            .collect();
        live.sort_unstable();
        live.dedup();
        self.live = live;
        let mut rows: Vec<usize> = order
            .iter()
            .flat_map(|&i| self.all[i].rows.iter().copied())
            .chain(self.kept_rows.iter().copied())
            .collect();
        rows.sort_unstable();
        rows.dedup();
        self.rows = rows;
        self.order = order.to_vec();
    }

    /// Chooses the checks and their order from one depth's samples (unchanged with too
    /// few of them).
    pub fn adapt(&mut self, samples: &Samples) {
        let n = samples.children();
        if !self.sampling || n < self.min.max(1) || samples.batches == 0 {
            return;
        }
        let groups = samples.groups();
        let n = n as f64;
        let cuts: Vec<f64> = (0..self.all.len())
            .map(|i| {
                let cut = groups
                    .iter()
                    .filter(|g| g.0 >> i & 1 == 1)
                    .fold(0.0, |a, g| a + g.1);
                cut / n
            })
            .collect();
        let per_batch = n / samples.batches as f64;
        // A child let through wrongly has its children generated, and each of them
        // meets the first check at least: the one that cuts the most per cost, which
        // every child meets (not merely the cheapest check, which may be a tiny table
        // that the plan will not even make first).
        let first = self
            .all
            .iter()
            .zip(&cuts)
            .filter(|(c, _)| !c.check.at_inverse())
            .map(|(c, &cut)| (cut / c.cost.max(1e-9), c.cost))
            .fold(
                (f64::NEG_INFINITY, 0.0),
                |a, b| if b.0 > a.0 { b } else { a },
            )
            .1;
        let penalty = per_batch * (GENERATE + first);
        let costs: Vec<f64> = self.all.iter().map(|c| c.cost).collect();
        let inverse: Vec<bool> = self.all.iter().map(|c| c.check.at_inverse()).collect();
        let order = choose(groups, &costs, &inverse, penalty, &self.pinned);
        self.cuts = Some(cuts);
        // Nothing cut any sampled child with cost left: the sample says nothing about
        // the checks (they may still cut children with nothing left, or unreachable
        // positions), so the plan stays.
        if !order.is_empty() {
            self.set_order(&order);
        }
    }

    /// How each check was used, for reports.
    pub fn report(&self) -> Vec<CheckUse> {
        self.all
            .iter()
            .enumerate()
            .map(|(i, c)| CheckUse {
                name: c.name.clone(),
                used: self.batch.contains(&c.check) || self.inverse.contains(&c.check),
                cuts: self.cuts.as_ref().map(|v| v[i]),
            })
            .collect()
    }
}

/// The order of checks (indices) for sampled children `groups` (distinct sets of the
/// checks that cut a child, with their counts): greedily, among the
/// checks not yet chosen, the one that cuts the most of what the chosen ones let through
/// per unit of `cost`, while what it cuts (`penalty` each) is worth more than making it
/// on everything that reaches it. Checks at the inverse (`inverse[i]`) come after the
/// others, since they are made per child after the batch. At least one check is made
/// when any cuts anything. The `pinned` checks come first in their phase, whatever they
/// cut.
pub(super) fn choose(
    mut groups: Vec<(u64, f64)>,
    cost: &[f64],
    inverse: &[bool],
    penalty: f64,
    pinned: &[usize],
) -> Vec<usize> {
    let mut order = Vec::new();
    for phase in [false, true] {
        for &i in pinned.iter().filter(|&&i| inverse[i] == phase) {
            order.push(i);
            groups.retain(|g| g.0 >> i & 1 == 0);
        }
        loop {
            let left = groups.iter().fold(0.0, |a, g| a + g.1);
            let mut best: Option<(f64, usize, f64)> = None;
            for i in 0..cost.len() {
                if inverse[i] != phase || order.contains(&i) {
                    continue;
                }
                let cut = groups
                    .iter()
                    .filter(|g| g.0 >> i & 1 == 1)
                    .fold(0.0, |a, g| a + g.1);
                if cut == 0.0 {
                    continue;
                }
                let ratio = cut / cost[i].max(1e-9);
                if best.is_none_or(|(r, _, _)| ratio > r) {
                    best = Some((ratio, i, cut));
                }
            }
            let Some((_, i, cut)) = best else { break };
            if cut * penalty <= left * cost[i] && !order.is_empty() {
                break;
            }
            order.push(i);
            groups.retain(|g| g.0 >> i & 1 == 0);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(masks: &[u64], batches: u64) -> Samples {
        let mut s = Samples {
            batches,
            ..Samples::default()
        };
        masks.iter().for_each(|&m| s.add(m));
        s
    }

    fn groups(masks: &[u64]) -> Vec<(u64, f64)> {
        sample(masks, 1).groups()
    }

    fn info(check: Check, cost: f64) -> CheckInfo {
        CheckInfo {
            rows: Vec::new(),
            check,
            name: format!("{check:?}"),
            cost,
            slots: match check {
                Check::Probe(i) => vec![i],
                _ => Vec::new(),
            },
        }
    }

    /// A strong check that cuts everything a weak one cuts makes the weak one useless;
    /// a check that cuts what nothing else does stays, after the stronger one.
    #[test]
    fn a_check_whose_cuts_the_others_already_make_is_left_out() {
        // Check 0 (weak) cuts 10% of children, all of which check 1 (strong) cuts too;
        // check 1 cuts 60%; check 2 cuts 20% of its own.
        let mut masks = Vec::new();
        for i in 0..1000u32 {
            let mut m = 0u64;
            if i < 100 {
                m |= 0b011;
            } else if i < 600 {
                m |= 0b010;
            } else if i < 800 {
                m |= 0b100;
            }
            masks.push(m);
        }
        let order = choose(groups(&masks), &[1.0, 1.0, 1.0], &[false; 3], 10.0, &[]);
        assert_eq!(order, vec![1, 2]);
        // With a tiny penalty only the best check is worth making.
        assert_eq!(
            choose(groups(&masks), &[1.0, 1.0, 1.0], &[false; 3], 0.5, &[]),
            vec![1]
        );
        // Nothing cuts: nothing to make.
        assert!(choose(groups(&[0; 50]), &[1.0], &[false], 10.0, &[]).is_empty());
    }

    /// Cheap checks go first when they cut as much per unit of cost, and checks at the
    /// inverse come last even when they cut more.
    #[test]
    fn cost_and_the_inverse_order_the_checks() {
        let masks: Vec<u64> = (0..1000u32)
            .map(|i| match i % 10 {
                0..=3 => 0b001,
                4..=5 => 0b010,
                6..=8 => 0b100,
                _ => 0,
            })
            .collect();
        // Check 1 cuts 20% at cost 0.1: better per cost than check 0's 40% at 1.
        let order = choose(
            groups(&masks),
            &[1.0, 0.1, 1.0],
            &[false, false, true],
            50.0,
            &[],
        );
        assert_eq!(order, vec![1, 0, 2]);
        // A pinned check comes first in its phase, even one that cuts nothing.
        let order = choose(
            groups(&masks),
            &[1.0, 0.1, 1.0, 1.0],
            &[false, false, true, true],
            50.0,
            &[0, 3],
        );
        assert_eq!(order, vec![0, 1, 3, 2]);
    }

    #[test]
    fn tables_of_one_name_are_numbered() {
        let names = ["E", "C", "E"].map(String::from).to_vec();
        assert_eq!(numbered(names), ["E #1", "C", "E #2"]);
    }

    #[test]
    fn adapting_sets_the_batch_the_inverse_and_the_live_slots() {
        let all = vec![
            info(Check::Table(0), 1.0),
            info(Check::Probe(3), 1.0),
            info(Check::Reduced, 2.0),
            info(Check::InverseReduced, 2.5),
        ];
        let mut plan = Plan::new(all, Some((SAMPLE_EVERY, MIN_SAMPLES)));
        assert_eq!(
            plan.batch,
            vec![Check::Table(0), Check::Probe(3), Check::Reduced]
        );
        assert_eq!(plan.inverse, vec![Check::InverseReduced]);
        assert_eq!(plan.live, vec![3]);
        assert!(plan.sampling && plan.keeps_full());
        // The reduced table cuts 70%, the table 10% of the same, the probe nothing, the
        // inverse 15% more.
        let masks: Vec<u64> = (0..10_000u32)
            .map(|i| match i % 100 {
                0..=9 => 0b0101,
                10..=69 => 0b0100,
                70..=84 => 0b1000,
                _ => 0,
            })
            .collect();
        plan.adapt(&sample(&masks, 800));
        assert_eq!(plan.batch, vec![Check::Reduced]);
        assert_eq!(plan.inverse, vec![Check::InverseReduced]);
        assert!(plan.live.is_empty());
        let report = plan.report();
        assert_eq!(report[2].cuts, Some(0.7));
        assert!(report[2].used && !report[0].used && !report[1].used && report[3].used);
        // Too few samples leave the plan as it is.
        let mut fresh = Plan::new(plan.all.clone(), Some((SAMPLE_EVERY, MIN_SAMPLES)));
        fresh.adapt(&sample(&[0b0100; 10], 1));
        assert_eq!(fresh.batch.len(), 3);
        assert!(fresh.report().iter().all(|u| u.cuts.is_none()));
        // A sample in which nothing cuts says nothing about the checks: all stay.
        fresh.adapt(&sample(&[0; 5000], 500));
        assert_eq!(fresh.batch.len(), 3);
        assert_eq!(fresh.inverse.len(), 1);
    }
}
