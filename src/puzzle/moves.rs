//! Move identifiers, the names and costs of generated powers, and the properties of a
//! base move that are computed once when a definition is loaded.

use super::{SetDef, Transform};

/// Index of a move in [`super::Puzzle::moves`]. Kept small so move sequences and
/// per-move tables stay compact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveId(pub u16);

impl MoveId {
    /// The index as a `usize`, for slicing.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The name ksolve+ gives power `j` of base move `name` of order `k`: the base name for
/// j = 1; `Xj` while j-1 < k/2; otherwise `X` + (k-j when above 1) + `'`.
/// Order 4 gives X, X2, X'; order 5 gives X, X2, X2', X'.
pub fn power_name(name: &str, j: u32, k: u32) -> String {
    if j == 1 {
        name.to_string()
    } else if j - 1 < k / 2 {
        format!("{name}{j}")
    } else if k - j > 1 {
        format!("{name}{}'", k - j)
    } else {
        format!("{name}'")
    }
}

/// The quarter-turn cost of power `j` of a move of order `k`: the shorter way round.
pub fn qtm_cost(j: u32, k: u32) -> u32 {
    j.min(k - j)
}

/// The positions a move changes, per set, from its file form (orientation indexed by the
/// source position): a position is touched when its piece leaves or is twisted there.
pub(super) fn touched_mask(sets: &[SetDef], file_form: &Transform) -> Vec<Vec<bool>> {
    sets.iter()
        .zip(&file_form.sets)
        .map(|(set, s)| {
            (0..set.size)
                .map(|j| s.perm[j] as usize != j || s.ori[j] != 0)
                .collect()
        })
        .collect()
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The order of each cycle of a move (destination-indexed form): the cycle's length
/// times the order of the twist a piece gathers going round it. A move's order is the
/// least common multiple of these.
pub fn cycle_orders<'a>(
    effect: &'a Transform,
    sets: &'a [SetDef],
) -> impl Iterator<Item = u64> + 'a {
    sets.iter().zip(&effect.sets).flat_map(|(set, s)| {
        let n = set.orientations.max(1) as u64;
        let mut seen = vec![false; set.size];
        (0..set.size).filter_map(move |start| {
            if seen[start] {
                return None;
            }
            let (mut len, mut twist, mut i) = (0u64, 0u64, start);
            while !seen[i] {
                seen[i] = true;
                twist += s.ori[i] as u64;
                len += 1;
                i = s.perm[i] as usize;
            }
            Some(len * (n / gcd(twist % n, n)))
        })
    })
}

/// The order of a move (destination-indexed form): the least common multiple of its
/// [`cycle_orders`]. Saturates at `u32::MAX` for absurd inputs rather than overflowing.
pub fn order(effect: &Transform, sets: &[SetDef]) -> u32 {
    let mut acc: u64 = 1;
    for cycle in cycle_orders(effect, sets) {
        acc = acc / gcd(acc, cycle) * cycle;
        if acc > u32::MAX as u64 {
            return u32::MAX;
        }
    }
    acc as u32
}

/// The move names, powers included, for messages; only the first few, since a
/// definition may have thousands.
pub(crate) fn known_moves(puzzle: &super::Puzzle) -> String {
    let mut names: Vec<&str> = puzzle
        .moves
        .iter()
        .take(25)
        .map(|m| m.name.as_str())
        .collect();
    if names.len() > 24 {
        names.truncate(24);
        names.push("...");
    }
    names.join(" ")
}
