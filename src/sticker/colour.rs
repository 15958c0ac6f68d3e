//! The colour a picture gives each face: the one the definition names (its `Colour`
//! lines), else the standard cube scheme by the face's letter, else one of a fallback
//! palette. A face's colour depends on its name and never on where the face stands in
//! the `Stickers` block, so reordering a block does not repaint the puzzle.

use super::StickerMap;

/// An RGB colour.
pub type Rgb = (u8, u8, u8);

/// The standard colour scheme of the cube, by face letter: U white, R red, F green,
/// D yellow, L orange, B blue.
const CUBE: [(char, Rgb); 6] = [
    ('U', (0xff, 0xff, 0xff)),
    ('R', (0xd0, 0x10, 0x10)),
    ('F', (0x10, 0xa0, 0x30)),
    ('D', (0xff, 0xd5, 0x00)),
    ('L', (0xff, 0x80, 0x00)),
    ('B', (0x10, 0x40, 0xd0)),
];

/// The colours of the faces that neither a `Colour` line nor a cube letter colours, in
/// the order those faces first appear (purple, pink, light blue, light green, light
/// grey, brown); none is a cube colour, so that they stay apart from those.
const FALLBACK: [Rgb; 6] = [
    (0x90, 0x40, 0xc0),
    (0xff, 0x90, 0xc0),
    (0x80, 0xd0, 0xff),
    (0xa0, 0xff, 0x60),
    (0xc0, 0xc0, 0xc0),
    (0x80, 0x60, 0x30),
];

/// The colour of a face past the fallback palette.
const GREY: Rgb = (0x60, 0x60, 0x60);

/// The colour given to `face`, a face of the map, without falling back.
fn named(map: &StickerMap, face: char) -> Option<Rgb> {
    if let Some(&(_, [r, g, b])) = map.face_colours.iter().find(|(f, _)| *f == face) {
        return Some((r, g, b));
    }
    CUBE.iter().find(|(f, _)| *f == face).map(|&(_, rgb)| rgb)
}

/// The RGB colour of face `face` of the map.
pub fn rgb(map: &StickerMap, face: char) -> Rgb {
    named(map, face).unwrap_or_else(|| {
        // The faces without a colour of their own share the fallback palette in their
        // order of appearance.
        map.faces
            .iter()
            .filter(|&&f| named(map, f).is_none())
            .position(|&f| f == face)
            .and_then(|i| FALLBACK.get(i).copied())
            .unwrap_or(GREY)
    })
}
