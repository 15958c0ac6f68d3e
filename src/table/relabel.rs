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
/// (no move takes them from their positions), which none needs to; together the parts
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
    let size = |group: &[u16]| {
        let mut per: std::collections::BTreeMap<usize, Vec<u64>> = Default::default();
        for l in group {
            for &(o, c) in held.get(l).into_iter().flatten() {
                per.entry(o).or_default().push(c);
            }
        }
        let mut total = 1u64;
        let mut tracked = 0u64;
        for (o, mut c) in per {
            let here: u64 = c.iter().sum();
            tracked += here;
            c.push(orbits[o].len() as u64 - here);
            total = total.checked_mul(multinomial(&c)?)?;
        }
        total.checked_mul(ori_n.checked_pow(tracked as u32)?)
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
        });
        start = end;
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
    use crate::table::testing::cube2;

    /// A set of 30,000 pieces of which 20 move: the parts track those 20, in pairs
    /// (20 * 19 values each under a limit of 1,000), and the pieces that never move are
    /// in none; the split takes well under the time a group grown over them would.
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
        let start = std::time::Instant::now();
        let groups = split_groups(&p, 0, &identity, None, 1, 1000).unwrap();
        assert!(start.elapsed() < std::time::Duration::from_secs(3));
        assert_eq!(groups.len(), 10);
        for g in &groups {
            assert_eq!(g.labels.len(), 2);
            assert!(g.labels.iter().all(|&l| l < 20));
            assert_eq!(g.values, 20 * 19);
        }
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
    }
}
