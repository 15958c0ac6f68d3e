//! The positions some moves reach from a goal's positions, listed once for exact
//! membership ([`Closure`]): what a goal that holds a subgroup's positions
//! ([`super::Goal::within`]) is checked against.
//!
//! A chain's phase ends in a subgroup `H`. Where `H` keeps something no picture of
//! labels shows (the 4x4x4's reduction pairs its wings), the phase's goal is the
//! solved picture together with every picture `H`'s moves reach from it: up to a few
//! million positions, far too many to give one by one. The search's tables start from
//! the closure in their own small spaces, and its goal test sees each table's part of
//! the closure; a position that passes is then checked here, exactly, once.
//!
//! The listing is made on first use (or earlier, [`Closure::list`]) and shared by every
//! clone of the goal. Each position is kept as its bytes with the goal's free entries
//! left out, one byte per label where labels fit one and a twist only in sets with
//! orientations, all in one buffer, so a million positions of a 4x4x4 phase take about
//! sixty megabytes. It is walked from the moves' first powers alone (they generate the
//! others) under a fast hash, and where no entry is free by moving the keys themselves
//! ([`KeyMoves`]): listing the 4x4x4 pairing phase's 967,680 positions made a warm first
//! answer take 17 s with every power, SipHash and a position moved per key, 6.7 s with
//! boxed keys, and now takes under 2 s.

use super::{IgnoreMask, Puzzle, SetDef, State};
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;
use std::sync::{Arc, OnceLock};

/// The most positions a closure may list: a chain refuses a phase whose goal would
/// hold more.
pub const MAX_CLOSURE: u64 = 1 << 21;

/// The listed closure of a goal, made on first use (shared by the goal's clones, and
/// no part of what the goal is: two goals that differ only here are equal).
#[derive(Clone, Default)]
pub struct Closure(Arc<OnceLock<Listing>>);

/// Every position of the closure by its key, with the goal position it was reached
/// from. The keys lie one after another in one buffer and the table holds their
/// indices, so a million positions take two allocations rather than a million.
struct Listing {
    /// The keys, one after another: key `i` is `bytes[bounds[i]..bounds[i + 1]]`.
    bytes: Vec<u8>,
    bounds: Vec<usize>,
    /// Per key: the start it was reached from.
    from: Vec<u32>,
    /// The keys' indices, hashed by their bytes.
    table: HashTable<u32>,
}

impl std::fmt::Debug for Closure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.get() {
            Some(l) => write!(f, "Closure({} positions)", l.from.len()),
            None => write!(f, "Closure(not listed)"),
        }
    }
}

impl PartialEq for Closure {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Closure {}

impl Closure {
    /// The goal position whose closure under `moves` holds `state` (seen through
    /// `masks`), listing the closure from `starts` on first use. With `extra` masks (a
    /// scramble's `?`) the closure is listed again under them, not kept.
    pub fn holds(
        &self,
        puzzle: &Puzzle,
        starts: &[(&State, Vec<IgnoreMask>)],
        moves: &[super::MoveId],
        state: &State,
        extra: &[IgnoreMask],
    ) -> Option<usize> {
        if extra.iter().any(IgnoreMask::any) {
            let starts: Vec<(&State, Vec<IgnoreMask>)> = starts
                .iter()
                .map(|(s, m)| (*s, super::union_masks(puzzle, m, extra)))
                .collect();
            let listing = Listing::new(puzzle, &starts, moves);
            return listing.find(puzzle, state, &starts);
        }
        self.listing(puzzle, starts, moves)
            .find(puzzle, state, starts)
    }

    /// Lists the closure now, if it is not listed yet: a caller with a core to spare
    /// lists it before the first goal test needs it.
    pub fn list(
        &self,
        puzzle: &Puzzle,
        starts: &[(&State, Vec<IgnoreMask>)],
        moves: &[super::MoveId],
    ) {
        self.listing(puzzle, starts, moves);
    }

    /// The listing, made from `starts` under `moves` on first use.
    fn listing(
        &self,
        puzzle: &Puzzle,
        starts: &[(&State, Vec<IgnoreMask>)],
        moves: &[super::MoveId],
    ) -> &Listing {
        self.0.get_or_init(|| Listing::new(puzzle, starts, moves))
    }
}

impl Listing {
    /// Lists every position `moves` reach from each start, by depth-first search,
    /// stopping at [`MAX_CLOSURE`] positions (a goal made by a chain never has more).
    fn new(
        puzzle: &Puzzle,
        starts: &[(&State, Vec<IgnoreMask>)],
        moves: &[super::MoveId],
    ) -> Listing {
        Listing::made(puzzle, starts, moves, true)
    }

    /// [`Listing::new`], moving keys alone where it can (`by_keys`) or always moving
    /// positions (which the tests compare it with).
    fn made(
        puzzle: &Puzzle,
        starts: &[(&State, Vec<IgnoreMask>)],
        moves: &[super::MoveId],
        by_keys: bool,
    ) -> Listing {
        let mut listing = Self {
            bytes: Vec::new(),
            bounds: vec![0],
            from: Vec::new(),
            table: HashTable::new(),
        };
        let mut key = Vec::new();
        let sets = &puzzle.sets;
        // A finite group's closure needs only generators: where a base move's first
        // power is among the moves, its other powers add nothing (the reduced 4x4x4's
        // six turns instead of ten moves).
        let moves: Vec<super::MoveId> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let first = puzzle.base_moves[puzzle.mv(m).base].powers[0];
                m == first || !moves.contains(&first)
            })
            .collect();
        let moves = &moves[..];
        for (i, (start, masks)) in starts.iter().enumerate() {
            if let Some(map) = KeyMoves::new(puzzle, start, masks, moves).filter(|_| by_keys) {
                if !listing.walk_keys(&map, start, masks, sets, i as u32) {
                    return listing;
                }
                continue;
            }
            // The positions still to expand, packed one after another (a label and a
            // twist per position), and the position taken from them and the one a move
            // makes, both written over rather than allocated per move.
            let mut stack: Vec<u16> = Vec::new();
            let mut here = (*start).clone();
            let mut next = (*start).clone();
            write_key(sets, start, masks, &mut key);
            if listing.add(&key, i as u32) != Added::New {
                continue;
            }
            pack(start, &mut stack);
            while unpack(&mut stack, &mut here) {
                for &m in moves {
                    here.then_into(&puzzle.mv(m).effect, sets, &mut next);
                    write_key(sets, &next, masks, &mut key);
                    match listing.add(&key, i as u32) {
                        Added::Known => {}
                        Added::Full => return listing,
                        Added::New => pack(&next, &mut stack),
                    }
                }
            }
        }
        listing
    }

    /// Lists what `map`'s moves reach from `start` by moving keys alone: each listed
    /// key is expanded in turn, the listing its own queue. False when the listing is
    /// full.
    fn walk_keys(
        &mut self,
        map: &KeyMoves,
        start: &State,
        masks: &[IgnoreMask],
        sets: &[SetDef],
        from: u32,
    ) -> bool {
        let mut key = Vec::new();
        write_key(sets, start, masks, &mut key);
        let mut at = self.from.len();
        if self.add(&key, from) != Added::New {
            return true;
        }
        let mut here = vec![0u8; key.len()];
        while at < self.from.len() {
            here.copy_from_slice(key_at(&self.bytes, &self.bounds, at));
            at += 1;
            for m in 0..map.moves() {
                map.apply(m, &here, &mut key);
                if self.add(&key, from) == Added::Full {
                    return false;
                }
            }
        }
        true
    }

    /// Lists `key`, reached from start `from`, unless it is listed or the listing is
    /// full.
    fn add(&mut self, key: &[u8], from: u32) -> Added {
        let hash = Self::hash(key);
        if self.find_hashed(hash, key).is_some() {
            return Added::Known;
        }
        if self.from.len() as u64 >= MAX_CLOSURE {
            return Added::Full;
        }
        let index = self.from.len() as u32;
        self.bytes.extend_from_slice(key);
        self.bounds.push(self.bytes.len());
        self.from.push(from);
        let Listing {
            bytes,
            bounds,
            table,
            ..
        } = self;
        table.insert_unique(hash, index, |&i| {
            Self::hash(key_at(bytes, bounds, i as usize))
        });
        Added::New
    }

    /// The key's hash.
    fn hash(key: &[u8]) -> u64 {
        FxBuildHasher.hash_one(key)
    }

    /// The start the position with this key (whose hash is `hash`) was reached from, if
    /// it is listed.
    fn find_hashed(&self, hash: u64, key: &[u8]) -> Option<u32> {
        self.table
            .find(hash, |&i| {
                key_at(&self.bytes, &self.bounds, i as usize) == key
            })
            .map(|&i| self.from[i as usize])
    }

    /// The start whose closure holds `state`, seen through that start's masks.
    fn find(
        &self,
        puzzle: &Puzzle,
        state: &State,
        starts: &[(&State, Vec<IgnoreMask>)],
    ) -> Option<usize> {
        let mut key = Vec::new();
        starts.iter().enumerate().find_map(|(i, (_, masks))| {
            write_key(&puzzle.sets, state, masks, &mut key);
            self.find_hashed(Self::hash(&key), &key)
                .filter(|&from| starts.len() == 1 || from as usize == i)
                .map(|from| from as usize)
        })
    }
}

/// What [`Listing::add`] did with a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Added {
    New,
    Known,
    Full,
}

/// Key `i` of the keys `bytes` holds between `bounds`.
fn key_at<'a>(bytes: &'a [u8], bounds: &[usize], i: usize) -> &'a [u8] {
    &bytes[bounds[i]..bounds[i + 1]]
}

/// The moves as maps of key bytes, where a key can be moved without its position:
/// byte `j` of a key after move `m` is byte `src[m][j]` before it, plus `add[m][j]`
/// modulo `modulus[j]` where `j` is a twist (`modulus` 0 for label bytes). Keys of the
/// 4x4x4's pairing phase are moved this way four times faster than positions are
/// moved and written as keys.
struct KeyMoves {
    src: Vec<Vec<u32>>,
    add: Vec<Vec<u8>>,
    modulus: Vec<u8>,
}

impl KeyMoves {
    /// The maps of `moves` for keys laid out as `start`'s; `None` where `masks` leave
    /// anything free (a free entry is written as 255 whatever the move brings there).
    fn new(
        puzzle: &Puzzle,
        start: &State,
        masks: &[IgnoreMask],
        moves: &[super::MoveId],
    ) -> Option<KeyMoves> {
        if masks.iter().any(IgnoreMask::any) {
            return None;
        }
        // Where each set's bytes begin, and how many bytes a label takes: as
        // `write_key` lays them out, fixed for every position a move reaches, since
        // moves carry labels and never change them.
        let mut layout = Vec::with_capacity(start.sets.len());
        let mut modulus = Vec::new();
        for (k, s) in start.sets.iter().enumerate() {
            let wide = s.perm.iter().any(|&l| l >= 255);
            let n = puzzle.sets.get(k).map_or(1, |d| d.orientations);
            let twists = puzzle.sets.get(k).is_none_or(|d| d.orientations > 1);
            let label = if wide { 2 } else { 1 };
            layout.push((modulus.len(), label, twists));
            for _ in 0..s.perm.len() {
                modulus.extend(std::iter::repeat_n(0u8, label));
                if twists {
                    modulus.push(n.max(1));
                }
            }
        }
        let mut src = Vec::with_capacity(moves.len());
        let mut add = Vec::with_capacity(moves.len());
        for &m in moves {
            let effect = &puzzle.mv(m).effect;
            let mut s_m = vec![0u32; modulus.len()];
            let mut a_m = vec![0u8; modulus.len()];
            for (k, &(begin, label, twists)) in layout.iter().enumerate() {
                let width = label + twists as usize;
                let e = &effect.sets[k];
                for i in 0..e.perm.len() {
                    let (to, from) = (begin + i * width, begin + e.perm[i] as usize * width);
                    for b in 0..width {
                        s_m[to + b] = (from + b) as u32;
                    }
                    if twists {
                        a_m[to + label] = e.ori[i];
                    }
                }
            }
            src.push(s_m);
            add.push(a_m);
        }
        Some(KeyMoves { src, add, modulus })
    }

    fn moves(&self) -> usize {
        self.src.len()
    }

    /// The key `key` becomes under move `m`, written into `out`.
    fn apply(&self, m: usize, key: &[u8], out: &mut Vec<u8>) {
        out.clear();
        out.extend(self.src[m].iter().zip(&self.add[m]).zip(&self.modulus).map(
            |((&from, &add), &n)| match n {
                0 => key[from as usize],
                n => ((key[from as usize] as u16 + add as u16) % n as u16) as u8,
            },
        ));
    }
}

/// Appends `state` to `stack`: per set, its labels, then its twists.
fn pack(state: &State, stack: &mut Vec<u16>) {
    for s in &state.sets {
        stack.extend_from_slice(&s.perm);
        stack.extend(s.ori.iter().map(|&o| o as u16));
    }
}

/// Takes the last position [`pack`] appended off `stack` into `state` (which has its
/// shape); false when the stack is empty.
fn unpack(stack: &mut Vec<u16>, state: &mut State) -> bool {
    if stack.is_empty() {
        return false;
    }
    let width: usize = state.sets.iter().map(|s| s.perm.len() * 2).sum();
    let mut at = stack.len() - width;
    for s in &mut state.sets {
        let n = s.perm.len();
        s.perm.copy_from_slice(&stack[at..at + n]);
        for (o, &v) in s.ori.iter_mut().zip(&stack[at + n..at + 2 * n]) {
            *o = v as u8;
        }
        at += 2 * n;
    }
    stack.truncate(stack.len() - width);
    true
}

/// The bytes of `state` with what `masks` leave free written as 255: per position, its
/// label (two bytes when some label passes 254) and, in a set with orientations, its
/// twist.
fn write_key(sets: &[SetDef], state: &State, masks: &[IgnoreMask], out: &mut Vec<u8>) {
    out.clear();
    for (k, s) in state.sets.iter().enumerate() {
        let mask = masks.get(k);
        let wide = s.perm.iter().any(|&l| l >= 255);
        let twists = sets.get(k).is_none_or(|d| d.orientations > 1);
        for i in 0..s.perm.len() {
            let free_perm = mask.is_some_and(|m| m.perm.get(i) == Some(&true));
            let l = if free_perm { u16::MAX } else { s.perm[i] };
            match wide {
                true => out.extend_from_slice(&l.to_le_bytes()),
                false => out.push(l.min(255) as u8),
            }
            if twists {
                let free_ori = mask.is_some_and(|m| m.ori.get(i) == Some(&true));
                out.push(if free_ori { u8::MAX } else { s.ori[i] });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::parse_puzzle;

    /// Moving keys lists the same positions as moving positions: the closures of the
    /// 3x3x3 under `<U, R2>` and of the 2x2x2 under `<U, R>` (which twists corners),
    /// from a start off the solved state.
    #[test]
    fn keys_move_as_positions_do() {
        for (bytes, name, moves) in [
            (
                &include_bytes!("../../puzzles/3x3x3.def")[..],
                "3x3x3.def",
                &["U", "R2"][..],
            ),
            (
                &include_bytes!("../../puzzles/2x2x2.def")[..],
                "2x2x2.def",
                &["U", "R"][..],
            ),
        ] {
            let p = parse_puzzle(bytes, name).unwrap().0;
            let moves: Vec<_> = moves.iter().map(|m| p.move_by_name(m).unwrap()).collect();
            let start = p.apply_sequence(&p.solved, &[p.move_by_name("F").unwrap()]);
            let masks = vec![IgnoreMask::default(); p.sets.len()];
            let starts = [(&start, masks)];
            let fast = Listing::made(&p, &starts, &moves, true);
            let slow = Listing::made(&p, &starts, &moves, false);
            assert!(KeyMoves::new(&p, &start, &starts[0].1, &moves).is_some());
            assert_eq!(fast.from.len(), slow.from.len(), "{name}");
            assert!(fast.from.len() > 1000, "{name}: {}", fast.from.len());
            for i in 0..slow.from.len() as u32 {
                let key = key_at(&slow.bytes, &slow.bounds, i as usize);
                assert_eq!(fast.find_hashed(Listing::hash(key), key), Some(0), "{name}");
            }
            // A position outside the closure is not found.
            let out = p.apply_sequence(&start, &[p.move_by_name("F").unwrap()]);
            assert_eq!(fast.find(&p, &out, &starts), None);
            assert_eq!(fast.find(&p, &start, &starts), Some(0));
        }
    }
}
