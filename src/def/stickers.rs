//! The `Stickers ... End` block, our extension to the definition language: one line per
//! sticker, in the order a facelet string lists them.
//!
//! ```text
//! Stickers
//! U 0 3 CORNERS 3 0     # face, net row, net column, set, position (1-based), slot
//! U 1 4 -               # a fixed sticker (a centre no move turns)
//! Colour C #8040c0       # the colour a picture gives face C (or a name: `purple`)
//! End
//! ```
//!
//! ksolve+ has no such command, so no ksolve+ file reads differently. The block is read
//! once the whole definition is (it needs the sets, the solved state and the moves), and
//! the checks of [`StickerMap::new`] are reported at the line of the sticker concerned.
//! `Colour` lines may stand anywhere in the block; they are no stickers, so a facelet
//! string does not see them.

use super::lex::{Line, Source};
use crate::located::{DefError, ErrorKind};
use crate::puzzle::stickers::{Slot, Sticker, StickerMap};
use crate::puzzle::Puzzle;

fn invalid(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Invalid(msg.into())
}

// The largest net row or column belongs to the model, which every reader holds maps to.
use crate::puzzle::limits::MAX_NET_CELL;

/// A number in `lo..=hi` at word `t`.
fn number(
    src: &Source,
    line: &Line,
    t: usize,
    lo: u64,
    hi: u64,
    what: &str,
) -> Result<u64, DefError> {
    let word = &line.toks[t].s;
    match word.parse::<u64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(src.err(
            line,
            t,
            invalid(format!(
                "`{word}` in a sticker line: expected {what} from {lo} to {hi}"
            )),
        )),
    }
}

/// Reads one sticker line.
fn sticker(src: &Source, puzzle: &Puzzle, line: &Line) -> Result<Sticker, DefError> {
    const FORM: &str =
        "`FACE ROW COLUMN SET POSITION SLOT`, or `FACE ROW COLUMN -` for a fixed sticker";
    let n = line.toks.len();
    let fixed = n == 4 && line.toks[3].s == "-";
    if n != 6 && !fixed {
        // Point at the first word too many, the word that should be `-`, or where the
        // missing words were expected.
        let at = match n {
            _ if n > 6 => 6,
            4 => 3,
            _ => n,
        };
        return Err(src.err(
            line,
            at,
            invalid(format!("{n} words in a sticker line: expected {FORM}")),
        ));
    }
    let face_word = &line.toks[0].s;
    let mut chars = face_word.chars();
    let face = match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphanumeric() => c,
        _ => {
            return Err(src.err(
                line,
                0,
                invalid(format!(
                    "`{face_word}` names a face: expected one letter or digit (the face's colour in facelet strings)"
                )),
            ))
        }
    };
    let row = number(src, line, 1, 0, MAX_NET_CELL, "a net row")? as u16;
    let col = number(src, line, 2, 0, MAX_NET_CELL, "a net column")? as u16;
    if fixed {
        return Ok(Sticker {
            face,
            row,
            col,
            piece: None,
        });
    }
    let set_word = &line.toks[3].s;
    let Some(set) = puzzle.set_by_name(set_word) else {
        let known: Vec<&str> = puzzle.sets.iter().map(|s| s.name.as_str()).collect();
        return Err(src.err(
            line,
            3,
            invalid(format!(
                "unknown set `{set_word}`: expected one of {} or `-` for a fixed sticker",
                known.join(", ")
            )),
        ));
    };
    let def = &puzzle.sets[set];
    let pos = number(
        src,
        line,
        4,
        1,
        def.size as u64,
        &format!("a position of {}", def.name),
    )?;
    let slot = number(
        src,
        line,
        5,
        0,
        def.orientations.max(1) as u64 - 1,
        &format!("a slot (an orientation of {})", def.name),
    )?;
    Ok(Sticker {
        face,
        row,
        col,
        piece: Some(Slot {
            set,
            pos: pos as usize - 1,
            slot: slot as u8,
        }),
    })
}

/// The colour names a `Colour` line may use, with their RGB values (those of cubing.js's
/// colour schemes, so that a puzzle named after them looks as it does there).
pub const COLOUR_NAMES: [(&str, [u8; 3]); 16] = [
    ("white", [0xff, 0xff, 0xff]),
    ("grey", [0x88, 0x88, 0x88]),
    ("yellow", [0xf4, 0xf4, 0x00]),
    ("cream", [0xe8, 0xd0, 0xa0]),
    ("orange", [0xff, 0x80, 0x00]),
    ("red", [0xff, 0x00, 0x00]),
    ("pink", [0xff, 0x66, 0xcc]),
    ("purple", [0x88, 0x00, 0xdd]),
    ("brown", [0x7d, 0x3b, 0x11]),
    ("green", [0x44, 0xee, 0x00]),
    ("darkgreen", [0x00, 0x88, 0x00]),
    ("lime", [0x99, 0xff, 0x00]),
    ("teal", [0x00, 0x7a, 0x89]),
    ("lightblue", [0x33, 0x99, 0xff]),
    ("blue", [0x22, 0x66, 0xff]),
    ("darkblue", [0x00, 0x00, 0xff]),
];

/// The colour `word` names: `#RRGGBB` in hexadecimal digits, or a name of
/// [`COLOUR_NAMES`] in any case.
fn colour_value(word: &str) -> Option<[u8; 3]> {
    if let Some(hex) = word.strip_prefix('#') {
        if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        return Some([byte(0)?, byte(2)?, byte(4)?]);
    }
    COLOUR_NAMES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(word))
        .map(|&(_, rgb)| rgb)
}

/// Reads a `Colour FACE VALUE` line of a map whose faces are `faces`.
fn colour(src: &Source, faces: &[char], line: &Line) -> Result<(char, [u8; 3]), DefError> {
    let n = line.toks.len();
    if n != 3 {
        return Err(src.err(
            line,
            n.min(3),
            invalid(format!(
                "{n} words in a `Colour` line: expected `Colour FACE VALUE`"
            )),
        ));
    }
    let word = &line.toks[1].s;
    let mut chars = word.chars();
    let face = match (chars.next(), chars.next()) {
        (Some(c), None) if faces.contains(&c) => c,
        _ => {
            let known: String = faces.iter().collect();
            return Err(src.err(
                line,
                1,
                invalid(format!(
                    "`{word}` in a `Colour` line: expected a face of the map, one of {known}"
                )),
            ));
        }
    };
    let value = &line.toks[2].s;
    let rgb = colour_value(value).ok_or_else(|| {
        let names: Vec<&str> = COLOUR_NAMES.iter().map(|(n, _)| *n).collect();
        src.err(
            line,
            2,
            invalid(format!(
                "`{value}` is no colour: expected #RRGGBB (hexadecimal) or one of {}",
                names.join(", ")
            )),
        )
    })?;
    Ok((face, rgb))
}

/// Reads and validates the block into the puzzle's sticker map.
pub(crate) fn read(
    src: &Source,
    puzzle: &Puzzle,
    opener: &Line,
    lines: &[Line],
) -> Result<StickerMap, DefError> {
    let (colour_lines, rows): (Vec<&Line>, Vec<&Line>) =
        lines.iter().partition(|l| l.first() == "Colour");
    let stickers = rows
        .iter()
        .map(|r| sticker(src, puzzle, r))
        .collect::<Result<Vec<_>, _>>()?;
    let mut map = StickerMap::of_puzzle(puzzle, stickers).map_err(|e| {
        let line = e.sticker().map_or(opener, |i| rows[i]);
        // Stickers are named by their lines in messages, not by their indices.
        let msg = e.message_naming(|i| format!("line {}", rows[i].no));
        src.err(line, 0, invalid(msg))
    })?;
    let mut given: Vec<&Line> = Vec::new();
    for line in colour_lines {
        let (face, rgb) = colour(src, &map.faces, line)?;
        if let Some(k) = map.face_colours.iter().position(|&(f, _)| f == face) {
            return Err(src.err(
                line,
                1,
                invalid(format!(
                    "a second colour for face {face}: expected one `Colour` line a face (the first is at line {})",
                    given[k].no
                )),
            ));
        }
        map.face_colours.push((face, rgb));
        given.push(line);
    }
    Ok(map)
}
