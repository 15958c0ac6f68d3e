//! Pictures of a sticker map's net: text (one letter per sticker, optionally on ANSI
//! colour backgrounds) and SVG. Both take the colours a state shows
//! ([`StickerMap::colours`]) and return a string; the command line decides where it
//! goes.

use super::StickerMap;
use anstyle::{AnsiColor, RgbColor, Style};
use std::fmt::Write;

/// The colours of faces, by the face's place in [`StickerMap::faces`]: the first six
/// are a cube's in URFDLB order (white, red, green, yellow, orange, blue), the rest make
/// twelve for the Megaminx.
const PALETTE: [(u8, u8, u8); 12] = [
    (0xff, 0xff, 0xff),
    (0xd0, 0x10, 0x10),
    (0x10, 0xa0, 0x30),
    (0xff, 0xd5, 0x00),
    (0xff, 0x80, 0x00),
    (0x10, 0x40, 0xd0),
    (0x90, 0x40, 0xc0),
    (0xff, 0x90, 0xc0),
    (0x80, 0xd0, 0xff),
    (0xa0, 0xff, 0x60),
    (0xc0, 0xc0, 0xc0),
    (0x80, 0x60, 0x30),
];

/// The RGB colour of face `face` of the map (grey for a face beyond the palette).
fn rgb(map: &StickerMap, face: char) -> (u8, u8, u8) {
    map.faces
        .iter()
        .position(|&f| f == face)
        .and_then(|i| PALETTE.get(i).copied())
        .unwrap_or((0x60, 0x60, 0x60))
}

/// The net as text: each sticker is its letter and a blank, cells without a sticker
/// are blanks, one line per net row (trailing blanks trimmed). With `ansi`, each
/// sticker is drawn on its face's colour.
pub fn text(map: &StickerMap, colours: &[char], ansi: bool) -> String {
    let (rows, cols) = map.extent();
    let mut grid: Vec<Vec<Option<char>>> = vec![vec![None; cols]; rows];
    for (st, &c) in map.stickers.iter().zip(colours) {
        grid[st.row as usize][st.col as usize] = Some(c);
    }
    let mut out = String::new();
    for row in grid {
        let mut line = String::new();
        for cell in row {
            match cell {
                None => line.push_str("  "),
                Some(c) if ansi => {
                    let (r, g, b) = rgb(map, c);
                    let style = Style::new()
                        .bg_color(Some(RgbColor(r, g, b).into()))
                        .fg_color(Some(AnsiColor::Black.into()));
                    let _ = write!(line, "{}{c} {}", style.render(), style.render_reset());
                }
                Some(c) => {
                    line.push(c);
                    line.push(' ');
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The size of one sticker in the SVG, in pixels, and the gap around it.
const CELL: usize = 30;
const GAP: usize = 2;

/// The net as an SVG picture: one rounded square per sticker in its face's colour, with
/// the letter in it so that the picture reads without colour too.
pub fn svg(map: &StickerMap, colours: &[char]) -> String {
    let (rows, cols) = map.extent();
    let (w, h) = (cols * CELL + 2 * GAP, rows * CELL + 2 * GAP);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
    );
    for (st, &c) in map.stickers.iter().zip(colours) {
        let (r, g, b) = rgb(map, c);
        let (x, y) = (
            st.col as usize * CELL + 2 * GAP,
            st.row as usize * CELL + 2 * GAP,
        );
        let size = CELL - 2 * GAP;
        let _ = writeln!(
            out,
            "  <rect x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\" rx=\"3\" fill=\"#{r:02x}{g:02x}{b:02x}\" stroke=\"#000\" stroke-width=\"1\"/>"
        );
        let _ = writeln!(
            out,
            "  <text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\" fill=\"#000\" fill-opacity=\"0.35\">{c}</text>",
            x + size / 2,
            y + size / 2 + 4
        );
    }
    out.push_str("</svg>\n");
    out
}
