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
//! The listing is made on first use and shared by every clone of the goal. Each
//! position is kept as its bytes with the goal's free entries left out, one byte per
//! label where labels fit one and a twist only in sets with orientations, so a million
//! positions of a 4x4x4 phase take under a hundred megabytes. It is walked from the
//! moves' first powers alone (they generate the others) under a fast hash: with every
//! power and SipHash, listing the 4x4x4 pairing phase's 967,680 positions made a warm
//! first answer take 17 s, where it now takes 6.9 s.

use super::{IgnoreMask, Puzzle, SetDef, State};
use rustc_hash::FxHashMap;
use std::sync::{Arc, OnceLock};

/// The most positions a closure may list: a chain refuses a phase whose goal would
/// hold more.
pub const MAX_CLOSURE: u64 = 1 << 21;

/// The listed closure of a goal, made on first use (shared by the goal's clones, and
/// no part of what the goal is: two goals that differ only here are equal).
#[derive(Clone, Default)]
pub struct Closure(Arc<OnceLock<Listing>>);

/// Every position of the closure by its key, with the goal position it was reached
/// from.
struct Listing {
    members: FxHashMap<Box<[u8]>, u32>,
}

impl std::fmt::Debug for Closure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.get() {
            Some(l) => write!(f, "Closure({} positions)", l.members.len()),
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
        let listing = self.0.get_or_init(|| Listing::new(puzzle, starts, moves));
        listing.find(puzzle, state, starts)
    }
}

impl Listing {
    /// Lists every position `moves` reach from each start, by breadth-first search,
    /// stopping at [`MAX_CLOSURE`] positions (a goal made by a chain never has more).
    fn new(
        puzzle: &Puzzle,
        starts: &[(&State, Vec<IgnoreMask>)],
        moves: &[super::MoveId],
    ) -> Listing {
        let mut members: FxHashMap<Box<[u8]>, u32> = FxHashMap::default();
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
            let mut queue: Vec<State> = vec![(*start).clone()];
            // The position a move makes, written over rather than allocated per move.
            let mut next = (*start).clone();
            write_key(sets, start, masks, &mut key);
            if members.contains_key(&key[..]) {
                continue;
            }
            members.insert(key.clone().into_boxed_slice(), i as u32);
            while let Some(s) = queue.pop() {
                for &m in moves {
                    s.then_into(&puzzle.mv(m).effect, sets, &mut next);
                    write_key(sets, &next, masks, &mut key);
                    if members.contains_key(&key[..]) {
                        continue;
                    }
                    if members.len() as u64 >= MAX_CLOSURE {
                        return Listing { members };
                    }
                    members.insert(key.clone().into_boxed_slice(), i as u32);
                    queue.push(next.clone());
                }
            }
        }
        Listing { members }
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
            self.members
                .get(&key[..])
                .filter(|&&from| starts.len() == 1 || from as usize == i)
                .map(|&from| from as usize)
        })
    }
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
