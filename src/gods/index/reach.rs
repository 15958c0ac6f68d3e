//! The values a small coordinate space takes on the positions the moves reach.
//!
//! Orbit-by-orbit coordinates describe more than the moves can reach whenever a rule
//! ties them together: the Skewb's twists of one corner tetrad follow the arrangement of
//! the other, the Pyraminx's tips ride with their centres, orientation sums and
//! parities may be linked across orbits. Rather than recognise each rule, the index
//! groups its small coordinates and walks, breadth-first, the values of their product
//! that the transforms reach from the solved value. That set is exact whatever the rule
//! (it is the projection of the reachable positions onto those coordinates) and closed
//! under every transform, so ranking within it keeps the index a bijection.

use super::component::{Component, Kind, Scratch};
use crate::puzzle::State;

/// Components of at most this many values may join the group.
const PART_LIMIT: u64 = 1 << 16;

/// A group's product of values stays within this many (one bit each while walking).
const GROUP_LIMIT: u64 = 1 << 24;

/// Replaces the smallest components (smallest first, while their product stays within
/// `GROUP_LIMIT`) by one `Reach` component over the combinations the transforms reach
/// from `solved`, when that is fewer than all of them; otherwise returns `comps` as is.
pub(super) fn group(
    comps: Vec<Component>,
    solved: &State,
    ntrans: usize,
    sc: &mut Scratch,
) -> Vec<Component> {
    let mut order: Vec<usize> = (0..comps.len())
        .filter(|&c| comps[c].count <= PART_LIMIT)
        .collect();
    order.sort_by_key(|&c| comps[c].count);
    let mut product = 1u64;
    let mut chosen = Vec::new();
    for c in order {
        if product * comps[c].count > GROUP_LIMIT {
            break;
        }
        product *= comps[c].count;
        chosen.push(c);
    }
    if chosen.is_empty() {
        return comps;
    }
    // Parts keep definition order, so the layout does not depend on ties in size.
    chosen.sort_unstable();
    let mut parts: Vec<Component> = chosen.iter().map(|&c| comps[c].clone()).collect();
    for part in &mut parts {
        part.build_table();
    }
    let start = parts
        .iter()
        .fold(0, |acc, c| acc * c.count + c.rank_state(solved, sc));
    let tuples = orbit(product, start, ntrans, |v, t| {
        let (mut rem, mut mult, mut out) = (v, 1u64, 0u64);
        for c in parts.iter().rev() {
            out += c.next(rem % c.count, t, sc) * mult;
            rem /= c.count;
            mult *= c.count;
        }
        out
    });
    if tuples.len() as u64 == product {
        return comps;
    }
    let mut out: Vec<Component> = comps
        .into_iter()
        .enumerate()
        .filter(|(c, _)| chosen.binary_search(c).is_err())
        .map(|(_, comp)| comp)
        .collect();
    out.push(Component {
        set: 0,
        positions: Vec::new(),
        count: tuples.len() as u64,
        kind: Kind::Reach { parts, tuples },
        src: Vec::new(),
        twist: Vec::new(),
        ntrans,
        table: None,
    });
    out
}

/// The values of `0..size` (`size <= 2^32`) reached from `start` by repeatedly applying
/// `step(value, t)` for `t` in `0..ntrans`, in ascending order.
pub(super) fn orbit(
    size: u64,
    start: u64,
    ntrans: usize,
    mut step: impl FnMut(u64, usize) -> u64,
) -> Vec<u32> {
    debug_assert!(size <= 1 << 32 && start < size);
    let mut seen = vec![0u64; size.div_ceil(64) as usize];
    let mut list = vec![start as u32];
    seen[(start >> 6) as usize] |= 1 << (start & 63);
    let mut next = 0;
    while next < list.len() {
        let v = list[next] as u64;
        next += 1;
        for t in 0..ntrans {
            let w = step(v, t);
            let (word, bit) = ((w >> 6) as usize, 1u64 << (w & 63));
            if seen[word] & bit == 0 {
                seen[word] |= bit;
                list.push(w as u32);
            }
        }
    }
    list.sort_unstable();
    list
}

#[cfg(test)]
mod tests {
    use super::orbit;

    #[test]
    fn orbits_are_the_values_reached_in_order() {
        // Adding 4 or 6 mod 20 from 3 reaches the odd values only.
        let odd = orbit(20, 3, 2, |v, t| (v + [4, 6][t]) % 20);
        assert_eq!(odd, (0..10).map(|k| 2 * k + 1).collect::<Vec<u32>>());
        // Doubling mod 7 from 1 reaches 1, 2, 4.
        assert_eq!(orbit(7, 1, 1, |v, _| v * 2 % 7), vec![1, 2, 4]);
        // No transforms: only the start.
        assert_eq!(orbit(5, 4, 0, |v, _| v), vec![4]);
    }
}
