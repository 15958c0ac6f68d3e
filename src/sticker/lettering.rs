//! The user's own colour letters. A position given by its colours (`--facelets`, `play`'s
//! `enter`) may use any letters, `W` for white rather than the face name `U`; pictures
//! of it, and of the positions that follow from it, show those letters again.
//! [`Lettering`] remembers which letter was typed for which face.

use super::StickerMap;
use crate::puzzle::{SetDef, State};

/// Which letter stands for which face, as a user typed them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lettering {
    /// `(face, letter)`, one pair per face that was typed.
    pairs: Vec<(char, char)>,
}

impl Lettering {
    /// The letters of a colouring that was read as `state`: sticker `i` was typed as
    /// `letters[i]` and shows the face `map.colours(state)[i]`.
    pub fn new(map: &StickerMap, sets: &[SetDef], state: &State, letters: &[char]) -> Lettering {
        let mut pairs: Vec<(char, char)> = Vec::new();
        for (face, &letter) in map.colours(sets, state).into_iter().zip(letters) {
            if !pairs.iter().any(|&(f, _)| f == face) {
                pairs.push((face, letter));
            }
        }
        Lettering { pairs }
    }

    /// The letter shown for `face`: the one typed for it, or the face's own name.
    pub fn letter(&self, face: char) -> char {
        self.pairs
            .iter()
            .find(|&&(f, _)| f == face)
            .map_or(face, |&(_, l)| l)
    }
}
