//! A perfect index of packed keys ([`Packer`]) for boards of cells holding labels with
//! repeats: per set, the multiset-permutation rank of its labels (`crate::coord`), the
//! sets combined mixed-radix. Sliding-block boards have one such set (interchangeable
//! pieces and several empty cells are repeated labels), and its rank counts each
//! arrangement once, so the index space is the number of arrangements of the labels,
//! reachable or not.
//!
//! Invariant: `rank` is a bijection from the keys holding each set's multiset of labels
//! (and no orientations) onto `0..space`, and `unrank` is its inverse. Ranking allocates
//! nothing (the search ranks every predecessor it makes).

use crate::coord::PermCoord;
use crate::keys::Packer;

/// The most positions one set may have (labels are gathered on the stack).
const MAX_SET: usize = 128;

/// One set's part of the index.
struct Part {
    /// The flat positions of the set, in order: (label shift, label mask) in the key.
    fields: Vec<(u32, u128)>,
    coord: PermCoord,
    /// The set's labels, sorted (its multiset).
    sorted: Vec<u16>,
    stride: u64,
}

/// The index (see the module documentation).
pub(crate) struct FlatIndex {
    parts: Vec<Part>,
    space: u64,
}

impl FlatIndex {
    /// The index for keys of `packer` whose sets hold the labels of `solved_key`, or
    /// `None` when keys carry orientations or the space passes 64 bits.
    pub(crate) fn new(packer: &Packer, solved_key: u128) -> Option<FlatIndex> {
        if packer.has_orientations() {
            return None;
        }
        let mut parts: Vec<Part> = Vec::new();
        for p in 0..packer.npos() {
            let set = packer.set_of(p);
            if parts.len() <= set {
                parts.resize_with(set + 1, || Part {
                    fields: Vec::new(),
                    coord: PermCoord::new(&[]).expect("an empty set has one arrangement"),
                    sorted: Vec::new(),
                    stride: 1,
                });
            }
            let (shift, bits) = packer.label_field(p);
            parts[set].fields.push((shift, (1u128 << bits) - 1));
        }
        let mut space = 1u64;
        for part in parts.iter_mut().rev() {
            if part.fields.len() > MAX_SET {
                return None;
            }
            let labels: Vec<u16> = part
                .fields
                .iter()
                .map(|&(s, m)| ((solved_key >> s) & m) as u16)
                .collect();
            part.coord = PermCoord::new(&labels).ok()?;
            part.sorted = labels;
            part.sorted.sort_unstable();
            part.stride = space;
            space = space.checked_mul(part.coord.count())?;
        }
        Some(FlatIndex { parts, space })
    }

    /// How many indices there are.
    pub(crate) fn space(&self) -> u64 {
        self.space
    }

    /// Whether key `k` holds every set's multiset of labels (so that it has a rank).
    pub(crate) fn fits(&self, k: u128) -> bool {
        self.parts.iter().all(|part| {
            let mut labels: Vec<u16> = part
                .fields
                .iter()
                .map(|&(s, m)| ((k >> s) & m) as u16)
                .collect();
            labels.sort_unstable();
            labels == part.sorted
        })
    }

    /// The rank of key `k`, which must [`fit`](FlatIndex::fits).
    #[inline]
    pub(crate) fn rank(&self, k: u128) -> u64 {
        let mut labels = [0u16; MAX_SET];
        let mut r = 0;
        for part in &self.parts {
            let n = part.fields.len();
            for (l, &(s, m)) in labels.iter_mut().zip(&part.fields) {
                *l = ((k >> s) & m) as u16;
            }
            r += part.coord.rank(&labels[..n]) * part.stride;
        }
        r
    }

    /// The key of rank `i` (< space). This allocates (`PermCoord::unrank`), so it is for
    /// the few keys read back after the search, never for its inner loop.
    pub(crate) fn unrank(&self, mut i: u64) -> u128 {
        let mut labels = [0u16; MAX_SET];
        let mut k = 0u128;
        for part in &self.parts {
            let n = part.fields.len();
            part.coord.unrank(i / part.stride, &mut labels[..n]);
            i %= part.stride;
            for (&l, &(s, _)) in labels.iter().zip(&part.fields) {
                k |= (l as u128) << s;
            }
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::parse_puzzle;
    use crate::gods::MoveInfo;
    use crate::puzzle::{Metric, Puzzle};

    fn board(solved: &str) -> Puzzle {
        let text = format!(
            "Name t\nSet A 5 1\nSet B 3 1\nSolved\nA\n{solved}\nB\n1 1 2\nEnd\n\
             Move X\nA\n2 1 3 4 5\nB\n2 3 1\nEnd\n"
        );
        parse_puzzle(text.as_bytes(), "t.def").unwrap().0
    }

    #[test]
    fn ranks_are_a_bijection_onto_the_space() {
        // Two sets, repeated labels in both: 5!/(2!2!) * 3 = 90 keys.
        let p = board("1 1 2 2 3");
        let info = MoveInfo::new(&p, Metric::Htm);
        let packer = Packer::new(&p, &info.transforms, &info.base_of).unwrap();
        let solved = packer.key(&p.solved);
        let ix = FlatIndex::new(&packer, solved).unwrap();
        assert_eq!(ix.space(), 30 * 3);
        let mut seen = vec![false; ix.space() as usize];
        for i in 0..ix.space() {
            let k = ix.unrank(i);
            assert!(ix.fits(k));
            assert_eq!(ix.rank(k), i);
            assert!(!std::mem::replace(&mut seen[i as usize], true));
        }
        // Every arrangement of the labels is some rank: enumerate them by brute force.
        let mut count = 0;
        for a in 0..3u16.pow(5) {
            let cells: Vec<u16> = (0..5).map(|j| a / 3u16.pow(j) % 3).collect();
            let mut s = p.solved.clone();
            s.sets[0].perm = cells;
            let k = packer.key(&s);
            if ix.fits(k) {
                count += 1;
                assert_eq!(ix.unrank(ix.rank(k)), k);
            }
        }
        assert_eq!(count * 3, ix.space());
    }

    #[test]
    fn keys_with_other_labels_do_not_fit() {
        let p = board("1 1 2 2 3");
        let info = MoveInfo::new(&p, Metric::Htm);
        let packer = Packer::new(&p, &info.transforms, &info.base_of).unwrap();
        let ix = FlatIndex::new(&packer, packer.key(&p.solved)).unwrap();
        let mut s = p.solved.clone();
        s.sets[0].perm = vec![0, 0, 0, 1, 2];
        assert!(!ix.fits(packer.key(&s)));
    }

    #[test]
    fn orientations_have_no_flat_index() {
        let text = "Name t\nSet A 3 2\nSolved\nA\n1 2 3\nEnd\nMove X\nA\n2 3 1\n1 0 1\nEnd\n";
        let p = parse_puzzle(text.as_bytes(), "t.def").unwrap().0;
        let info = MoveInfo::new(&p, Metric::Htm);
        let packer = Packer::new(&p, &info.transforms, &info.base_of).unwrap();
        assert!(FlatIndex::new(&packer, packer.key(&p.solved)).is_none());
    }
}
