//! Which values of a component count as the goal: the solved (or a goal block's)
//! arrangement and orientations seen through the component, with every arrangement of
//! the labels at ignored positions. Kept apart from the coordinates and their move
//! tables because it is read once per table build, never in the search.

use super::{Coder, Component};
use crate::puzzle::{IgnoreMask, Puzzle, SetState, State};

impl Component {
    /// The values that satisfy `mask`'s goal on this facet: the solved labels (seen
    /// through the relabelling) at every position whose permutation is not ignored, or
    /// the solved orientation at every position whose orientation is not ignored.
    /// Ascending. Empty when no value can be solved (an orientation sum that cannot
    /// match).
    pub fn goal_values(&self, puzzle: &Puzzle, mask: Option<&IgnoreMask>) -> Vec<u32> {
        self.goal_values_at(&puzzle.solved, mask)
    }

    /// [`Component::goal_values`] for another goal position: the values that match
    /// `goal` at every position `mask` does not ignore. `goal` holds the solved state's
    /// pieces (a goal block is checked for that when it is read).
    pub fn goal_values_at(&self, goal: &State, mask: Option<&IgnoreMask>) -> Vec<u32> {
        let solved = &goal.sets[self.spec.set];
        let ignored = |v: &Option<&IgnoreMask>, perm: bool, i: usize| {
            v.is_some_and(|m| {
                if perm {
                    m.perm.get(i) == Some(&true)
                } else {
                    m.ori.get(i) == Some(&true)
                }
            })
        };
        let mut out = Vec::new();
        match &self.coder {
            Coder::Perm { coord, relabel } => {
                // A goal may put a piece where no move takes it (an unreachable goal
                // position): such an arrangement has no rank and no search reaches it.
                for_each_perm_goal(self.len, solved, relabel, &mask, |arr| {
                    if coord.whole().is_some() || coord.holds(arr) {
                        out.push(coord.rank(arr) as u32);
                    }
                });
            }
            Coder::Pieces {
                coord,
                relabel,
                tracked,
                n,
                oris,
            } => {
                for_each_perm_goal(self.len, solved, relabel, &mask, |arr| {
                    if coord.whole().is_none() && !coord.holds(arr) {
                        return;
                    }
                    let base = coord.rank(arr) * oris;
                    // The tracked positions' orientations: solved where the mask keeps
                    // them, anything where it ignores them.
                    let slots: Vec<usize> = (0..arr.len()).filter(|&i| arr[i] < *tracked).collect();
                    let mut digits = vec![0u8; slots.len()];
                    loop {
                        let ori = slots.iter().zip(&digits).fold(0u64, |acc, (&i, &d)| {
                            let o = if ignored(&mask, false, i) {
                                d
                            } else {
                                solved.ori[i]
                            };
                            acc * *n as u64 + o as u64
                        });
                        out.push((base + ori) as u32);
                        let mut k = 0;
                        while k < digits.len() {
                            if ignored(&mask, false, slots[k]) && digits[k] + 1 < *n {
                                digits[k] += 1;
                                break;
                            }
                            digits[k] = 0;
                            k += 1;
                        }
                        if k == digits.len() {
                            break;
                        }
                    }
                });
            }
            Coder::Ori { coord, n, sum } => {
                let free: Vec<usize> = (0..self.len)
                    .filter(|&i| ignored(&mask, false, i))
                    .collect();
                let mut arr = solved.ori.clone();
                let mut digits = vec![0u8; free.len()];
                loop {
                    for (k, &i) in free.iter().enumerate() {
                        arr[i] = digits[k];
                    }
                    let total: u32 = arr.iter().map(|&o| o as u32).sum();
                    let keeps_sum = match sum {
                        Some(s) => total % *n as u32 == *s as u32,
                        None => true,
                    };
                    if keeps_sum {
                        out.push(coord.rank(&arr) as u32);
                    }
                    // Odometer over the free digits.
                    let mut k = 0;
                    while k < digits.len() {
                        digits[k] += 1;
                        if digits[k] < *n {
                            break;
                        }
                        digits[k] = 0;
                        k += 1;
                    }
                    if k == digits.len() {
                        break;
                    }
                }
            }
            Coder::Pos => {}
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Calls `f` with every relabelled arrangement that matches the solved one at the
/// positions `mask` does not ignore (the ignored positions take every arrangement of
/// the labels left over).
fn for_each_perm_goal(
    len: usize,
    solved: &SetState,
    relabel: &[u16],
    mask: &Option<&IgnoreMask>,
    mut f: impl FnMut(&[u16]),
) {
    let labels: Vec<u16> = solved.perm.iter().map(|&l| relabel[l as usize]).collect();
    let free: Vec<usize> = (0..len)
        .filter(|&i| mask.is_some_and(|m| m.perm.get(i) == Some(&true)))
        .collect();
    let mut pool: Vec<u16> = free.iter().map(|&i| labels[i]).collect();
    pool.sort_unstable();
    let mut arr = labels.clone();
    loop {
        for (k, &i) in free.iter().enumerate() {
            arr[i] = pool[k];
        }
        f(&arr);
        if !next_permutation(&mut pool) {
            break;
        }
    }
}

/// Rearranges `v` into the next lexicographic permutation; false (and `v` sorted) when
/// `v` was the last one. Handles repeated values (multiset permutations).
pub fn next_permutation(v: &mut [u16]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let mut i = v.len() - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        v.reverse();
        return false;
    }
    let mut j = v.len() - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// Calls `f` with every tuple that takes one value from each list (the last list
/// varying fastest), the goal tuples a table build starts from. Stops early, returning
/// false, when `f` does; no tuple at all when a list is empty.
pub(crate) fn for_each_goal_tuple(lists: &[Vec<u32>], mut f: impl FnMut(&[u32]) -> bool) -> bool {
    if lists.iter().any(|l| l.is_empty()) {
        return true;
    }
    let mut digit = vec![0usize; lists.len()];
    let mut tuple: Vec<u32> = lists.iter().map(|l| l[0]).collect();
    loop {
        if !f(&tuple) {
            return false;
        }
        // Advance the mixed-radix counter; wrapping every digit back to 0 ends it.
        let mut j = lists.len();
        loop {
            if j == 0 {
                return true;
            }
            j -= 1;
            digit[j] += 1;
            if digit[j] < lists[j].len() {
                tuple[j] = lists[j][digit[j]];
                break;
            }
            digit[j] = 0;
            tuple[j] = lists[j][0];
        }
    }
}

#[cfg(test)]
mod tuple_tests {
    use super::for_each_goal_tuple;

    #[test]
    fn every_tuple_once_last_fastest() {
        let mut seen = Vec::new();
        for_each_goal_tuple(&[vec![1, 2], vec![5, 6, 7]], |t| {
            seen.push(t.to_vec());
            true
        });
        let want: Vec<Vec<u32>> = [1, 2]
            .iter()
            .flat_map(|&a| [5, 6, 7].iter().map(move |&b| vec![a, b]))
            .collect();
        assert_eq!(seen, want);
        assert!(for_each_goal_tuple(&[vec![1], vec![]], |_| panic!(
            "no tuple"
        )));
        let mut n = 0;
        assert!(!for_each_goal_tuple(&[vec![1, 2, 3]], |_| {
            n += 1;
            n < 2
        }));
        assert_eq!(n, 2);
    }
}
