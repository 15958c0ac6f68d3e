//! Which moves may apply at a packed key, found without testing every guard: moves are
//! grouped by the position their guard's first condition reads, so one read of that
//! position's label lists the moves whose first condition holds, and only those test
//! the rest of their guard. On a sliding board, where every move asks for an empty cell,
//! this reads a few cells per position instead of testing every move's guard.

use crate::keys::Packer;

/// A guard as [`Packer::guard_before`] gives it: (label shift, label mask, allowed
/// labels as a bit set) per condition.
type Guard = Vec<(u32, u128, u128)>;

/// The moves (indices into the list it was built from) grouped by their guards.
pub(crate) struct Dispatch {
    /// Moves without a guard: always tried.
    free: Vec<usize>,
    /// Per position read first: its label's shift and mask, and per label the moves
    /// whose first condition allows it.
    groups: Vec<(u32, u128, Vec<Vec<usize>>)>,
    /// Per move: the conditions after its first.
    rest: Vec<Guard>,
}

impl Dispatch {
    pub(crate) fn new(guards: &[Guard]) -> Dispatch {
        let mut free = Vec::new();
        let mut groups: Vec<(u32, u128, Vec<Vec<usize>>)> = Vec::new();
        let mut rest = Vec::with_capacity(guards.len());
        for (i, g) in guards.iter().enumerate() {
            let Some(&(shift, mask, allowed)) = g.first() else {
                free.push(i);
                rest.push(Vec::new());
                continue;
            };
            rest.push(g[1..].to_vec());
            let at = match groups.iter().position(|&(s, _, _)| s == shift) {
                Some(at) => at,
                None => {
                    // A label field is at most 16 bits wide (labels are u16).
                    groups.push((shift, mask, vec![Vec::new(); mask as usize + 1]));
                    groups.len() - 1
                }
            };
            for (label, moves) in groups[at].2.iter_mut().enumerate() {
                if label < 128 && allowed >> label & 1 == 1 {
                    moves.push(i);
                }
            }
        }
        Dispatch { free, groups, rest }
    }

    /// Calls `f` with every move whose guard holds in `y`, unguarded moves first, then
    /// by the position read.
    #[inline]
    pub(crate) fn each(&self, y: u128, mut f: impl FnMut(usize)) {
        for &i in &self.free {
            f(i);
        }
        for (shift, mask, by_label) in &self.groups {
            let label = ((y >> shift) & mask) as usize;
            for &i in &by_label[label] {
                if Packer::holds(&self.rest[i], y) {
                    f(i);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_exactly_the_moves_whose_guards_hold() {
        // Labels of 2 bits at shifts 0, 2 and 4; move 0 unguarded, 1 and 2 read shift 0,
        // 3 reads shift 2 and then shift 4.
        let guards: Vec<Guard> = vec![
            vec![],
            vec![(0, 3, 0b0010)],
            vec![(0, 3, 0b0110)],
            vec![(2, 3, 0b1000), (4, 3, 0b0001)],
        ];
        let d = Dispatch::new(&guards);
        for y in 0u128..64 {
            let mut got = Vec::new();
            d.each(y, |i| got.push(i));
            got.sort_unstable();
            let want: Vec<usize> = (0..guards.len())
                .filter(|&i| Packer::holds(&guards[i], y))
                .collect();
            assert_eq!(got, want, "{y:06b}");
        }
    }
}
