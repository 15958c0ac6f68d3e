//! How a piece set is seen by permutation components: which labels a component tells
//! apart (`mask_relabel`, from the definition's `Ignore`), and how a set too large for
//! one coordinate is split into tracked groups (`split_relabel`, `split_groups`), counted
//! before anything is built so that the planner can hold them to the memory budget.

use crate::puzzle::{IgnoreMask, Puzzle};

/// Whether every move keeps the sum of set `set`'s orientations (mod n); then the
/// orientation coordinate can imply its last digit.
pub fn moves_keep_ori_sum(puzzle: &Puzzle, set: usize) -> bool {
    let n = puzzle.sets[set].orientations.max(1) as u32;
    puzzle.base_moves.iter().all(|b| {
        b.effect.sets[set]
            .ori
            .iter()
            .map(|&o| o as u32)
            .sum::<u32>()
            % n
            == 0
    })
}

/// The relabelling that sees the pieces of set `set` as `mask` allows: a label whose
/// pieces all sit at ignored positions of the solved state becomes the shared wildcard
/// (the last label, returned too when some label became it); the other labels keep their
/// order. With no mask this is the identity on the solved labels (compacted).
pub fn mask_relabel(
    puzzle: &Puzzle,
    set: usize,
    mask: Option<&IgnoreMask>,
) -> (Vec<u16>, Option<u16>) {
    let solved = &puzzle.solved.sets[set].perm;
    let size = puzzle.sets[set].size;
    let max = solved
        .iter()
        .copied()
        .max()
        .map_or(0, |m| m as usize + 1)
        .max(size);
    let mut kept = vec![false; max];
    for (i, &l) in solved.iter().enumerate() {
        if mask.is_none_or(|m| m.perm.get(i) != Some(&true)) {
            kept[l as usize] = true;
        }
    }
    let mut relabel = vec![0u16; max];
    let mut next = 0u16;
    for l in 0..max {
        if kept[l] {
            relabel[l] = next;
            next += 1;
        }
    }
    let mut wildcard = None;
    for l in 0..max {
        if !kept[l] {
            relabel[l] = next;
            if solved.contains(&(l as u16)) {
                wildcard = Some(next);
            }
        }
    }
    (relabel, wildcard)
}

/// Splits a relabelling whose arrangement count is too large for one component into
/// several that each track some of its distinct labels (the rest become a shared
/// wildcard), at most `limit` values each. Every label tracked by `relabel` other than
/// the wildcard is tracked by exactly one part, but for labels whose pieces never move
/// (no move takes them from their positions) and, where `relabel` has no wildcard, the
/// parts carry no twists and it saves a part, the label with the most pieces (which
/// fills the positions the others leave): none needs to track those. Together the parts
/// determine every arrangement the moves reach. Returns the relabelling itself when it
/// fits.
pub fn split_relabel(
    puzzle: &Puzzle,
    set: usize,
    relabel: &[u16],
    wildcard: Option<u16>,
    ori_n: u64,
    limit: u64,
) -> Vec<(Vec<u16>, u16)> {
    let Some(groups) = split_groups(puzzle, set, relabel, wildcard, ori_n, limit) else {
        let tracked = wildcard.unwrap_or_else(|| distinct_labels(puzzle, set, relabel) as u16);
        return vec![(relabel.to_vec(), tracked)];
    };
    // Each label's group and its place there; labels in no group are wildcards.
    let mut group_of = vec![None; relabel.iter().map(|&l| l as usize + 1).max().unwrap_or(0)];
    for (gi, g) in groups.iter().enumerate() {
        for (k, &l) in g.labels.iter().enumerate() {
            group_of[l as usize] = Some((gi, k as u16));
        }
    }
    groups
        .iter()
        .enumerate()
        .map(|(gi, g)| {
            let wild = g.labels.len() as u16;
            let part = relabel
                .iter()
                .map(|&l| match group_of[l as usize] {
                    Some((h, k)) if h == gi => k,
                    _ => wild,
                })
                .collect();
            (part, wild)
        })
        .collect()
}

/// One part of a split relabelling: the labels it tracks (ascending) and its number of
/// values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitGroup {
    pub labels: Vec<u16>,
    pub values: u64,
    /// The values of its factors orbit by orbit ([`orbit_factors`]), when it has
    /// several (each tracked label's pieces in one orbit); empty otherwise.
    pub factors: Vec<u64>,
}

/// A relabelled arrangement seen orbit by orbit: per orbit of positions that holds
/// labels no other orbit holds, a relabelling that tells those labels apart and sees
/// everything else as one wildcard. No piece leaves its orbit, so each is a component
/// of its own, and together they see what `relabel` sees, provided at most one label
/// has pieces in several orbits (in each orbit, the positions its own labels leave are
/// that label's). Their move tables are the orbits' apart: two orbits of 1,680
/// arrangements take two tables of 1,680 values where one component takes 2.8 M (a
/// 4x4x4 chain's wings: 180 MB of move table against 215 KB). `None` when fewer than
/// two orbits would have a factor of more than one value, or two labels span orbits.
pub fn orbit_factors(puzzle: &Puzzle, set: usize, relabel: &[u16]) -> Option<Vec<Vec<u16>>> {
    let solved = &puzzle.solved.sets[set].perm;
    let orbits = puzzle.position_orbits(set);
    if orbits.len() < 2 {
        return None;
    }
    let labels = relabel.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
    // Per label, the one orbit that holds its pieces (`Some(None)`: several).
    let mut home: Vec<Option<Option<usize>>> = vec![None; labels];
    for (o, orbit) in orbits.iter().enumerate() {
        for &i in orbit {
            let l = relabel[solved[i] as usize] as usize;
            home[l] = match home[l] {
                None => Some(Some(o)),
                Some(Some(h)) if h == o => Some(Some(o)),
                _ => Some(None),
            };
        }
    }
    if home.iter().filter(|h| matches!(h, Some(None))).count() > 1 {
        return None;
    }
    let mut factors = Vec::new();
    for (o, orbit) in orbits.iter().enumerate() {
        let own: Vec<u16> = (0..labels as u16)
            .filter(|&l| home[l as usize] == Some(Some(o)))
            .collect();
        // One label filling the whole orbit has one arrangement: nothing to see.
        if own.is_empty()
            || (own.len() == 1 && orbit.iter().all(|&i| relabel[solved[i] as usize] == own[0]))
        {
            continue;
        }
        let wild = own.len() as u16;
        let factor = relabel
            .iter()
            .map(|&l| own.iter().position(|&x| x == l).map_or(wild, |k| k as u16))
            .collect();
        factors.push(factor);
    }
    (factors.len() >= 2).then_some(factors)
}

fn distinct_labels(puzzle: &Puzzle, set: usize, relabel: &[u16]) -> usize {
    let mut seen = vec![false; relabel.len() + 1];
    let mut n = 0;
    for &l in &puzzle.solved.sets[set].perm {
        let r = relabel[l as usize] as usize;
        if !seen[r] {
            seen[r] = true;
            n += 1;
        }
    }
    n
}

/// The parts [`split_relabel`] makes, without building their relabellings (which take
/// two bytes per label each): `None` when the relabelling fits one component as it is.
/// This is what the planner counts memory with before anything is built.
pub fn split_groups(
    puzzle: &Puzzle,
    set: usize,
    relabel: &[u16],
    wildcard: Option<u16>,
    ori_n: u64,
    limit: u64,
) -> Option<Vec<SplitGroup>> {
    let solved = &puzzle.solved.sets[set].perm;
    let mut counts: std::collections::BTreeMap<u16, u64> = Default::default();
    for &l in solved {
        *counts.entry(relabel[l as usize]).or_insert(0) += 1;
    }
    // Per orbit of positions (which no piece leaves, and which a component ranks on
    // its own: `coord::Arrangement`), its size; per label, the orbits that hold its
    // pieces and how many. An orbit a part tracks nothing in adds no arrangements, so
    // a part is counted over the orbits of its own labels only (a set of thousands of
    // pieces that never move has as many orbits).
    let orbits = puzzle.position_orbits(set);
    let mut held: std::collections::BTreeMap<u16, Vec<(usize, u64)>> = Default::default();
    for (o, orbit) in orbits.iter().enumerate() {
        for &i in orbit {
            let at = held.entry(relabel[solved[i] as usize]).or_default();
            match at.last_mut() {
                Some((last, c)) if *last == o => *c += 1,
                _ => at.push((o, 1)),
            }
        }
    }
    // Values of a part tracking these labels (the rest wildcard): per orbit, the
    // arrangements of the tracked pieces it holds among its positions.
    let per_orbit = |group: &[u16]| {
        let mut per: std::collections::BTreeMap<usize, Vec<u64>> = Default::default();
        for l in group {
            for &(o, c) in held.get(l).into_iter().flatten() {
                per.entry(o).or_default().push(c);
            }
        }
        per.into_iter()
            .map(|(o, mut c)| {
                let here: u64 = c.iter().sum();
                c.push(orbits[o].len() as u64 - here);
                Some((multinomial(&c)?, here))
            })
            .collect::<Option<Vec<(u64, u64)>>>()
    };
    let size = |group: &[u16]| {
        let mut total = 1u64;
        let mut tracked = 0u64;
        for (values, here) in per_orbit(group)? {
            tracked += here;
            total = total.checked_mul(values)?;
        }
        total.checked_mul(ori_n.checked_pow(tracked as u32)?)
    };
    // A part of arrangements alone whose labels each stay in one orbit is ranked as
    // one component per orbit ([`orbit_factors`]).
    let factors = |group: &[u16]| -> Vec<u64> {
        let confined = group.iter().all(|l| held[l].len() == 1);
        let values: Vec<u64> = match (ori_n, confined, per_orbit(group)) {
            (1, true, Some(v)) => v.into_iter().map(|(v, _)| v).filter(|&v| v > 1).collect(),
            _ => Vec::new(),
        };
        if values.len() >= 2 {
            values
        } else {
            Vec::new()
        }
    };
    let kept: Vec<u16> = counts
        .keys()
        .copied()
        .filter(|&l| Some(l) != wildcard)
        .collect();
    if size(&kept).is_some_and(|t| t <= limit) {
        return None;
    }
    // The wildcard of `relabel` stays a wildcard everywhere: no goal looks at it. The
    // other labels are tracked in groups, but for those whose pieces never move (every
    // orbit of theirs one position): they have one arrangement, and would let a group
    // grow over thousands of them, one count per label.
    let moves = |l: &u16| held[l].iter().any(|&(o, _)| orbits[o].len() > 1);
    let labels: Vec<u16> = counts
        .keys()
        .copied()
        .filter(|&l| Some(l) != wildcard && moves(&l))
        .collect();
    let grouped = |labels: &[u16]| {
        let mut parts = Vec::new();
        let mut start = 0;
        while start < labels.len() {
            let mut end = start + 1;
            let mut values = size(&labels[start..end]).unwrap_or(u64::MAX);
            // Grow the group while the part's value count stays within the limit.
            while end < labels.len() {
                match size(&labels[start..=end]) {
                    Some(t) if t <= limit => {
                        values = t;
                        end += 1;
                    }
                    _ => break,
                }
            }
            parts.push(SplitGroup {
                labels: labels[start..end].to_vec(),
                values,
                factors: factors(&labels[start..end]),
            });
            start = end;
        }
        parts
    };
    let parts = grouped(&labels);
    // Without a wildcard, the pieces of one label fill, orbit by orbit, the positions
    // the other labels leave. Where the other labels all fit one part, that part alone
    // tells where they are: a part of their own would see the same thing through a
    // move table of its own (a chain phase's two colours of centres, 16 and 8), so
    // the label with the most pieces is left out. With more parts it is tracked: a
    // table of it (or of it with another part) sees what no single other part does.
    // A part that carries its pieces' twists (`ori_n` above 1) must track every label,
    // or some twists would go unseen.
    if wildcard.is_none() && ori_n == 1 && parts.len() == 2 {
        let total = |l: &u16| held[l].iter().map(|&(_, c)| c).sum::<u64>();
        if let Some(most) = (0..labels.len()).max_by_key(|&k| total(&labels[k])) {
            let mut fewer = labels.clone();
            fewer.remove(most);
            let without = grouped(&fewer);
            if without.len() == 1 {
                return Some(without);
            }
        }
    }
    Some(parts)
}

/// n! / prod(c!) for counts summing to n, or None past u64. The largest count is
/// divided out first, in one step, so that the work is linear in the other counts: a
/// part tracking two pieces of 20,000 takes two steps, not 20,000.
fn multinomial(counts: &[u64]) -> Option<u64> {
    let Some((big, _)) = counts.iter().enumerate().max_by_key(|&(_, &c)| c) else {
        return Some(1);
    };
    let mut acc: u128 = 1;
    let mut k: u128 = counts[big] as u128;
    for (j, &c) in counts.iter().enumerate() {
        if j == big {
            continue;
        }
        for i in 1..=c as u128 {
            k += 1;
            acc = acc.checked_mul(k)? / i;
            if acc > u64::MAX as u128 {
                return None;
            }
        }
    }
    Some(acc as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::comp::{CompKind, CompSpec, Component};
    use crate::table::testing::cube2;

    /// A set of 30,000 pieces of which 20 move: the parts track those 20, in pairs
    /// (20 * 19 values each under a limit of 1,000), and the pieces that never move are
    /// in none (a group grown over them would take one count per label: quadratic).
    #[test]
    fn pieces_that_never_move_are_in_no_part() {
        use crate::table::testing::{puzzle, transform};
        let n = 30_000u16;
        let mut swap: Vec<u16> = (1..=n).collect();
        swap.swap(0, 1);
        let mut cycle: Vec<u16> = (1..=n).collect();
        cycle[..20].rotate_left(1);
        let p = puzzle(
            "mostly fixed",
            &[("S", n as usize, 1)],
            vec![
                ("X", transform(&[(&swap, &[])])),
                ("Y", transform(&[(&cycle, &[])])),
            ],
        );
        let identity: Vec<u16> = (0..n).collect();
        let groups = split_groups(&p, 0, &identity, None, 1, 1000).unwrap();
        // Leaving the twentieth out (it stands where the others leave room) would save
        // no part, so it is tracked too.
        assert_eq!(groups.len(), 10);
        for g in &groups {
            assert_eq!(g.labels.len(), 2);
            assert!(g.labels.iter().all(|&l| l < 20));
            assert_eq!(g.values, 20 * 19);
        }
    }

    /// A set of two orbits (positions 1-4 and 5-8): a relabelling that tells pieces
    /// 1, 2, 5 and 6 apart is ranked as two components of 12 values, whose values
    /// together tell every arrangement the whole component tells (and no more), and the
    /// planner's estimate counts their move tables as the plan builds them.
    #[test]
    fn a_part_over_two_orbits_is_two_components() {
        use crate::table::testing::{puzzle, transform};
        let p = puzzle(
            "two orbits",
            &[("S", 8, 1)],
            vec![
                ("A", transform(&[(&[2, 3, 4, 1, 6, 5, 7, 8], &[])])),
                ("B", transform(&[(&[2, 1, 3, 4, 5, 7, 8, 6], &[])])),
            ],
        );
        let whole = vec![0, 1, 4, 4, 2, 3, 4, 4];
        let factors = orbit_factors(&p, 0, &whole).unwrap();
        assert_eq!(
            factors,
            vec![vec![0, 1, 2, 2, 2, 2, 2, 2], vec![2, 2, 2, 2, 0, 1, 2, 2]]
        );
        let comp = |relabel: Vec<u16>| {
            let spec = CompSpec {
                set: 0,
                kind: CompKind::Perm { relabel },
            };
            Component::new(&p, spec).unwrap()
        };
        let one = comp(whole);
        let parts: Vec<Component> = factors.into_iter().map(comp).collect();
        assert_eq!(parts.iter().map(|c| c.count).collect::<Vec<_>>(), [12, 12]);
        let mut by_whole = std::collections::HashMap::new();
        let mut by_parts = std::collections::HashMap::new();
        // Every reachable state, breadth first.
        let mut states = vec![p.solved.clone()];
        let mut seen: std::collections::HashSet<_> = states.iter().cloned().collect();
        let mut k = 0;
        while k < states.len() {
            for mv in &p.moves {
                let t = states[k].then(&mv.effect, &p.sets);
                if seen.insert(t.clone()) {
                    states.push(t);
                }
            }
            k += 1;
        }
        for s in &states {
            let w = one.value_of(s).unwrap().0;
            let f: Vec<u32> = parts.iter().map(|c| c.value_of(s).unwrap().0).collect();
            assert_eq!(*by_whole.entry(w).or_insert_with(|| f.clone()), f);
            assert_eq!(*by_parts.entry(f).or_insert(w), w);
        }
        assert_eq!(by_whole.len(), 144);
        // Labels of one kind in both orbits (the wildcard) and a second such label
        // (pieces 1 and 5 share a label): not ranked apart.
        assert_eq!(orbit_factors(&p, 0, &[0, 1, 3, 3, 0, 2, 3, 3]), None);
        // The planner's tables read the two components, as the goal test does, and its
        // estimate of their move tables is theirs.
        let planned = crate::table::plan::plan(&p, u64::MAX).unwrap();
        assert_eq!(planned.len(), 1);
        assert_eq!(planned[0].comps.len(), 2);
        assert_eq!(planned[0].len, 576);
        let (parts, _) = crate::table::plan::set_specs(&p, 0, None);
        assert_eq!(parts, planned[0].comps);
        assert_eq!(
            crate::table::plan::goal_bytes(&p, &p.ignore),
            2 * (24 * 4 * p.moves.len() as u64 + 8 * 4)
        );
    }

    #[test]
    fn relabelling_by_mask_and_splitting() {
        let p = cube2();
        let mask = IgnoreMask {
            perm: vec![false, true, true, false, false, false, true],
            ori: vec![false; 7],
        };
        // Labels 1, 2 and 6 sit at ignored positions only: they become the wildcard 4.
        assert_eq!(
            mask_relabel(&p, 0, Some(&mask)),
            (vec![0, 4, 4, 1, 2, 3, 4], Some(4))
        );
        let parts: Vec<Vec<u16>> = split_relabel(&p, 0, &[0, 1, 2, 3, 4, 5, 6], None, 1, 7 * 6 * 5)
            .into_iter()
            .map(|(r, _)| r)
            .collect();
        assert_eq!(
            parts,
            vec![
                vec![0, 1, 2, 3, 3, 3, 3],
                vec![3, 3, 3, 0, 1, 2, 3],
                vec![1, 1, 1, 1, 1, 1, 0]
            ]
        );
        // Two labels over two parts: the second fills what the first leaves, so one
        // part sees it all, but for a part that carries twists.
        let parts = split_relabel(&p, 0, &[0, 0, 0, 1, 1, 1, 1], None, 1, 20);
        assert_eq!(parts, vec![(vec![0, 0, 0, 1, 1, 1, 1], 1)]);
        assert_eq!(
            split_relabel(&p, 0, &[0, 0, 0, 1, 1, 1, 1], None, 3, 1000).len(),
            2
        );
        // Together the parts tell every arrangement apart.
        let parts = split_relabel(&p, 0, &[0, 1, 2, 3, 4, 5, 6], None, 1, 7 * 6 * 5);
        let comps: Vec<Component> = parts
            .into_iter()
            .map(|(relabel, _)| {
                let spec = CompSpec {
                    set: 0,
                    kind: CompKind::Perm { relabel },
                };
                Component::new(&p, spec).unwrap()
            })
            .collect();
        let mut seen = std::collections::HashMap::new();
        let mut s = p.solved.clone();
        for step in 0..2000usize {
            let m = (step * 7 + step / 5) % p.moves.len();
            s = s.then(&p.moves[m].effect, &p.sets);
            let values: Vec<u32> = comps.iter().map(|c| c.value_of(&s).unwrap().0).collect();
            let perm = s.sets[0].perm.clone();
            assert_eq!(*seen.entry(values).or_insert_with(|| perm.clone()), perm);
        }
    }
}
