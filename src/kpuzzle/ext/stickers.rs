//! The extension's sticker map (`stickers`, ksolve+'s `Stickers ... End`): one object
//! per sticker, in the order a facelet string lists them, checked by
//! [`StickerMap::new`] with each refusal at the sticker concerned.
//!
//! ```text
//! { "face": "U", "row": 0, "col": 3, "orbit": "CORNERS", "position": 2, "slot": 0 }
//! { "face": "U", "row": 1, "col": 4 }        a fixed sticker (a centre no move turns)
//! ```
//!
//! `colours` (ksolve+'s `Colour` lines) names faces' colours as `#RRGGBB`, in order:
//! `{ "U": "#ffffff", "F": "#00a000" }`.

use super::{object_of, orbit, position, Ext};
use crate::kpuzzle::json::{get, props, unique, Doc};
use crate::located::DefError;
use crate::puzzle::limits::MAX_NET_CELL;
use crate::puzzle::stickers::{Slot, Sticker, StickerMap};
use crate::puzzle::Puzzle;
use jsonc_parser::ast::Value;

const FORM: &str = "a sticker (`face`, `row`, `col`, and `orbit`, `position`, `slot` unless fixed)";

/// Reads `stickers` into the assembled puzzle's sticker map.
pub(super) fn read(doc: &Doc<'_>, ext: &Ext<'_, '_>, puzzle: &mut Puzzle) -> Result<(), DefError> {
    let Some(v) = ext.get("stickers") else {
        return match ext.get("colours") {
            Some(c) => Err(doc.err(
                doc.at(c),
                "faces' colours without a sticker map: expected `stickers` beside `colours`",
            )),
            None => Ok(()),
        };
    };
    let list = doc.array(v, "the sticker map, one sticker per entry")?;
    let stickers = list
        .elements
        .iter()
        .map(|e| sticker(doc, e, puzzle))
        .collect::<Result<Vec<_>, _>>()?;
    let mut map = StickerMap::of_puzzle(puzzle, stickers).map_err(|e| {
        let at = e.sticker().map_or(doc.at(v), |i| doc.at(&list.elements[i]));
        // Stickers are named by their lines in messages, not by their indices.
        let msg = e.message_naming(|i| format!("line {}", doc.place(doc.at(&list.elements[i])).0));
        doc.err(at, msg)
    })?;
    if let Some(c) = ext.get("colours") {
        let o = doc.object(c, "the faces' colours, by face")?;
        unique(doc, o, "face")?;
        for (face, at, value) in props(o) {
            let mut chars = face.chars();
            let face = match (chars.next(), chars.next()) {
                (Some(f), None) if map.faces.contains(&f) => f,
                _ => {
                    let known: String = map.faces.iter().collect();
                    return Err(doc.err(
                        at,
                        format!(
                            "`{face}` has a colour: expected a face of the map, one of {known}"
                        ),
                    ));
                }
            };
            map.face_colours.push((face, rgb(doc, value)?));
        }
    }
    puzzle.stickers = Some(map);
    Ok(())
}

/// A colour, `"#RRGGBB"` in hexadecimal.
fn rgb(doc: &Doc<'_>, v: &Value<'_>) -> Result<[u8; 3], DefError> {
    let text = doc.string(v, "a colour, `#RRGGBB`")?;
    let hex = text
        .strip_prefix('#')
        .filter(|h| h.len() == 6 && h.chars().all(|c| c.is_ascii_hexdigit()));
    match hex {
        Some(h) => {
            let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).unwrap_or(0);
            Ok([byte(0), byte(2), byte(4)])
        }
        None => Err(doc.err(
            doc.at(v),
            format!("{text:?} is no colour: expected `#RRGGBB` (hexadecimal)"),
        )),
    }
}

fn sticker(doc: &Doc<'_>, v: &Value<'_>, puzzle: &Puzzle) -> Result<Sticker, DefError> {
    let known = ["face", "row", "col", "orbit", "position", "slot"];
    let o = object_of(doc, v, FORM, &known)?;
    let face_v = doc.field(o, "face", FORM)?;
    let word = doc.string(face_v, "a face")?;
    let mut chars = word.chars();
    let face = match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphanumeric() => c,
        _ => {
            return Err(doc.err(
                doc.at(face_v),
                format!("`{word}` names a face: expected one letter or digit (the face's colour in facelet strings)"),
            ))
        }
    };
    let row = doc.number(doc.field(o, "row", FORM)?, "a net row", MAX_NET_CELL)? as u16;
    let col = doc.number(doc.field(o, "col", FORM)?, "a net column", MAX_NET_CELL)? as u16;
    let piece = match get(o, "orbit") {
        None => {
            if let Some(extra) = get(o, "position").or_else(|| get(o, "slot")) {
                return Err(doc.err(
                    doc.at(extra),
                    "a position or slot without an orbit: expected `orbit`, `position` and `slot` together, or none for a fixed sticker",
                ));
            }
            None
        }
        Some(name) => {
            let set = orbit(doc, name, &puzzle.sets)?;
            let def = &puzzle.sets[set];
            let pos = position(doc, doc.field(o, "position", FORM)?, def)?;
            let what = format!("a slot (an orientation of orbit `{}`)", def.name);
            let slot = doc.number(
                doc.field(o, "slot", FORM)?,
                &what,
                def.orientations.max(1) as u64 - 1,
            )?;
            Some(Slot {
                set,
                pos,
                slot: slot as u8,
            })
        }
    };
    Ok(Sticker {
        face,
        row,
        col,
        piece,
    })
}
