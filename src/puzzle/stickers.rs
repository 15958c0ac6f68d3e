//! A definition's sticker map: which sticker of which face shows which piece face, and
//! where it sits on a flat net, with the colours a state shows. The map is part of the
//! model ([`super::Puzzle::stickers`]); reading a position from its colours and drawing
//! the net stay above it, in `sticker`.
//!
//! A sticker either shows a piece face, named by the slot `(set, position, slot)` it
//! looks at, or is fixed (a centre that no move turns). Slot `k` of a position holds
//! the piece face `k - o (mod n)` of the piece there, where `o` is its orientation: so
//! slot 0 shows the face that orientation 0 puts there, and the solved state fixes which
//! face of every piece carries which colour. Nothing here knows a file; `def::stickers`
//! reads the `Stickers ... End` block and locates the errors of [`MapError`] in it.

use super::{Puzzle, SetDef, State, Transform};

/// The piece face a sticker looks at: a slot of a position of a set (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    pub set: usize,
    pub pos: usize,
    pub slot: u8,
}

/// One sticker of the net: its face (a single character, the face's name and its
/// colour in the solved state), its cell on the net (row and column, 0-based) and what
/// it shows (`None` for a fixed sticker).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sticker {
    pub face: char,
    pub row: u16,
    pub col: u16,
    pub piece: Option<Slot>,
}

/// Why a list of stickers is not a sticker map of a puzzle. `sticker` fields are
/// indices into the list, so that the reader can point at the line that gave it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("slot {slot} of position {pos} of {set} is shown by a sticker already (sticker {first}): expected each piece face once")]
    DuplicateSlot {
        sticker: usize,
        first: usize,
        set: String,
        pos: usize,
        slot: u8,
    },
    #[error("net cell row {row}, column {col} holds a sticker already (sticker {first}): expected one sticker per cell")]
    DuplicateCell {
        sticker: usize,
        first: usize,
        row: u16,
        col: u16,
    },
    #[error("no sticker shows slot {slot} of position {pos} of {set}: expected every slot of every position of every set exactly once")]
    MissingSlot { set: String, pos: usize, slot: u8 },
    #[error("piece {piece} of {set} would carry face {face} twice in the solved state: expected the stickers of one position on different faces")]
    FaceTwice {
        sticker: usize,
        set: String,
        piece: usize,
        face: char,
    },
    #[error("piece {piece} of {set} appears more than once in the solved state with different colours: expected interchangeable pieces to look alike")]
    UnlikeCopies {
        sticker: usize,
        set: String,
        piece: usize,
    },
    #[error("move {mv} sends the stickers of face {face} to faces {to}: a turn carries a face's moving stickers together onto one face, so a slot order is probably reversed")]
    NotRigid {
        sticker: usize,
        mv: String,
        face: char,
        to: String,
    },
    #[error("the map has no sticker")]
    Empty,
}

impl MapError {
    /// The sticker the error is about, if any.
    pub fn sticker(&self) -> Option<usize> {
        match self {
            MapError::DuplicateSlot { sticker, .. }
            | MapError::DuplicateCell { sticker, .. }
            | MapError::FaceTwice { sticker, .. }
            | MapError::UnlikeCopies { sticker, .. }
            | MapError::NotRigid { sticker, .. } => Some(*sticker),
            MapError::MissingSlot { .. } | MapError::Empty => None,
        }
    }

    /// The message, with the earlier sticker it names called `name(index)` (its line in
    /// the file that gave it) rather than by its index.
    pub fn message_naming(&self, name: impl Fn(usize) -> String) -> String {
        let msg = self.to_string();
        match self {
            MapError::DuplicateSlot { first, .. } | MapError::DuplicateCell { first, .. } => {
                msg.replace(&format!("sticker {first})"), &format!("{})", name(*first)))
            }
            _ => msg,
        }
    }
}

/// A validated sticker map. Its stickers keep the order they were given in, which is
/// the order of a facelet string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StickerMap {
    pub stickers: Vec<Sticker>,
    /// The faces, in the order they first appear.
    pub faces: Vec<char>,
    /// The colours the definition names for faces (its `Colour` lines), as RGB, in the
    /// order given; a face without one is drawn in a colour chosen by its name.
    pub face_colours: Vec<(char, [u8; 3])>,
    /// Per set, `label * n + j`: the face that piece face `j` of piece `label` carries.
    piece_faces: Vec<Vec<char>>,
}

impl StickerMap {
    /// Checks `stickers` against `puzzle`'s sets, solved state and base moves (see
    /// [`StickerMap::new`]), as every reader of a sticker map does.
    pub fn of_puzzle(puzzle: &Puzzle, stickers: Vec<Sticker>) -> Result<StickerMap, MapError> {
        let moves: Vec<(&str, &Transform)> = puzzle
            .base_moves
            .iter()
            .map(|m| (m.name.as_str(), &m.effect))
            .collect();
        StickerMap::new(&puzzle.sets, &puzzle.solved, &moves, stickers)
    }

    /// Checks `stickers` against the puzzle's sets, solved state and moves (given as
    /// `(name, effect)` in the stored, destination-indexed form): every slot shown once,
    /// one sticker per cell, pieces whose faces differ, and moves that carry each face's
    /// moving stickers onto one face.
    pub fn new(
        sets: &[SetDef],
        solved: &State,
        moves: &[(&str, &Transform)],
        stickers: Vec<Sticker>,
    ) -> Result<StickerMap, MapError> {
        if stickers.is_empty() {
            return Err(MapError::Empty);
        }
        let mut by_slot: Vec<Vec<Option<usize>>> = sets
            .iter()
            .map(|s| vec![None; s.size * s.orientations.max(1) as usize])
            .collect();
        let mut cells = std::collections::HashMap::new();
        let mut faces = Vec::new();
        for (i, st) in stickers.iter().enumerate() {
            if !faces.contains(&st.face) {
                faces.push(st.face);
            }
            if let Some(&first) = cells.get(&(st.row, st.col)) {
                return Err(MapError::DuplicateCell {
                    sticker: i,
                    first,
                    row: st.row,
                    col: st.col,
                });
            }
            cells.insert((st.row, st.col), i);
            if let Some(s) = st.piece {
                let n = sets[s.set].orientations.max(1) as usize;
                let cell = &mut by_slot[s.set][s.pos * n + s.slot as usize];
                if let Some(first) = *cell {
                    return Err(MapError::DuplicateSlot {
                        sticker: i,
                        first,
                        set: sets[s.set].name.clone(),
                        pos: s.pos + 1,
                        slot: s.slot,
                    });
                }
                *cell = Some(i);
            }
        }
        for (k, set) in sets.iter().enumerate() {
            let n = set.orientations.max(1) as usize;
            if let Some(at) = by_slot[k].iter().position(Option::is_none) {
                return Err(MapError::MissingSlot {
                    set: set.name.clone(),
                    pos: at / n + 1,
                    slot: (at % n) as u8,
                });
            }
        }
        // Each piece face's colour comes from where the solved state puts it.
        let mut piece_faces: Vec<Vec<char>> = sets
            .iter()
            .map(|s| vec!['\0'; s.size * s.orientations.max(1) as usize])
            .collect();
        for (i, st) in stickers.iter().enumerate() {
            let Some(s) = st.piece else { continue };
            let n = sets[s.set].orientations.max(1) as usize;
            let label = solved.sets[s.set].perm[s.pos] as usize;
            let o = solved.sets[s.set].ori[s.pos] as usize % n;
            let j = (s.slot as usize + n - o) % n;
            let cell = &mut piece_faces[s.set][label * n + j];
            if *cell != '\0' && *cell != st.face {
                return Err(MapError::UnlikeCopies {
                    sticker: i,
                    set: sets[s.set].name.clone(),
                    piece: label + 1,
                });
            }
            *cell = st.face;
            let mine = &piece_faces[s.set][label * n..label * n + n];
            if mine.iter().filter(|&&f| f == st.face).count() > 1 {
                return Err(MapError::FaceTwice {
                    sticker: i,
                    set: sets[s.set].name.clone(),
                    piece: label + 1,
                    face: st.face,
                });
            }
        }
        let map = StickerMap {
            stickers,
            faces,
            face_colours: Vec::new(),
            piece_faces,
        };
        for (name, effect) in moves {
            map.check_rigid(sets, name, effect)?;
        }
        Ok(map)
    }

    /// A turn is a rigid motion of part of the puzzle, so the stickers of one face that
    /// it moves land on one face together. A reversed slot order breaks this (a corner's
    /// sticker would leave its face's neighbours), which is how the check catches it.
    fn check_rigid(&self, sets: &[SetDef], name: &str, effect: &Transform) -> Result<(), MapError> {
        let from = self.induced(sets, effect);
        let mut target: Vec<Option<(char, usize)>> = vec![None; self.faces.len()];
        for (dst, &src) in from.iter().enumerate() {
            if src == dst {
                continue;
            }
            let (sf, df) = (self.stickers[src].face, self.stickers[dst].face);
            let fi = self.faces.iter().position(|&f| f == sf).unwrap_or(0);
            match target[fi] {
                None => target[fi] = Some((df, src)),
                Some((g, _)) if g == df => {}
                Some((g, _)) => {
                    return Err(MapError::NotRigid {
                        sticker: src,
                        mv: name.to_string(),
                        face: sf,
                        to: format!("{g} and {df}"),
                    })
                }
            }
        }
        Ok(())
    }

    /// The sticker permutation a move makes: after the move, sticker `i` shows what
    /// sticker `out[i]` showed before. `effect` is in the stored form (orientation at
    /// the destination).
    pub fn induced(&self, sets: &[SetDef], effect: &Transform) -> Vec<usize> {
        let index = self.slot_index(sets);
        self.stickers
            .iter()
            .enumerate()
            .map(|(i, st)| match st.piece {
                None => i,
                Some(s) => {
                    let n = sets[s.set].orientations.max(1) as usize;
                    let m = &effect.sets[s.set];
                    let q = m.perm[s.pos] as usize;
                    let k = (s.slot as usize + n - m.ori[s.pos] as usize % n) % n;
                    index[s.set][q * n + k]
                }
            })
            .collect()
    }

    /// Per set, `position * n + slot`: the sticker that shows it.
    fn slot_index(&self, sets: &[SetDef]) -> Vec<Vec<usize>> {
        let mut index: Vec<Vec<usize>> = sets
            .iter()
            .map(|s| vec![0; s.size * s.orientations.max(1) as usize])
            .collect();
        for (i, st) in self.stickers.iter().enumerate() {
            if let Some(s) = st.piece {
                let n = sets[s.set].orientations.max(1) as usize;
                index[s.set][s.pos * n + s.slot as usize] = i;
            }
        }
        index
    }

    /// The face of piece face `j` of piece `label` of set `set` (its solved colour).
    pub fn piece_face(&self, sets: &[SetDef], set: usize, label: usize, j: usize) -> char {
        let n = sets[set].orientations.max(1) as usize;
        self.piece_faces[set][label * n + j % n]
    }

    /// The colour (face letter) each sticker shows in `state`, in map order.
    pub fn colours(&self, sets: &[SetDef], state: &State) -> Vec<char> {
        self.stickers
            .iter()
            .map(|st| match st.piece {
                None => st.face,
                Some(s) => {
                    let n = sets[s.set].orientations.max(1) as usize;
                    let label = state.sets[s.set].perm[s.pos] as usize;
                    let o = state.sets[s.set].ori[s.pos] as usize % n;
                    self.piece_faces[s.set][label * n + (s.slot as usize + n - o) % n]
                }
            })
            .collect()
    }

    /// The size of the net: rows and columns.
    pub fn extent(&self) -> (usize, usize) {
        let rows = self.stickers.iter().map(|s| s.row as usize + 1).max();
        let cols = self.stickers.iter().map(|s| s.col as usize + 1).max();
        (rows.unwrap_or(0), cols.unwrap_or(0))
    }
}
