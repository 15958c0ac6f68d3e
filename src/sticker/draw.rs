//! Pictures of a sticker map's net: text (one letter per sticker, optionally on ANSI
//! colour backgrounds) and SVG. Both take the faces a state shows
//! ([`StickerMap::colours`]), which give each sticker its colour, and the letters to
//! print on them (the faces' names, or a user's own colour letters), and return a
//! string; the command line decides where it goes. A map whose faces unfold as pentagons ([`Net::unfold`]) is drawn as that net,
//! with real pentagons in SVG; any other is drawn cell by cell as its definition lays
//! it out.

use super::colour::rgb;
use super::net::{Net, Point};
use super::pentagon;
use super::StickerMap;
use anstyle::{AnsiColor, RgbColor, Style};
use std::fmt::Write;

/// The net as text: each sticker is its letter and a blank, cells without a sticker
/// are blanks, one line per net row (trailing blanks trimmed). With `ansi`, each
/// sticker is drawn on its face's colour (`faces[i]`) with its letter (`letters[i]`).
pub fn text(map: &StickerMap, faces: &[char], letters: &[char], ansi: bool) -> String {
    // Every sticker as (line, character column, sticker), two columns wide.
    let placed: Vec<(usize, usize, usize)> = match Net::unfold(map) {
        Some(net) => pentagon::text_cells(&net),
        None => map
            .stickers
            .iter()
            .enumerate()
            .map(|(i, st)| (st.row as usize, 2 * st.col as usize, i))
            .collect(),
    };
    let lines = placed.iter().map(|p| p.0 + 1).max().unwrap_or(0);
    let width = placed.iter().map(|p| p.1 + 2).max().unwrap_or(0);
    let mut grid: Vec<Vec<Option<usize>>> = vec![vec![None; width]; lines];
    for &(line, col, i) in &placed {
        grid[line][col] = Some(i);
    }
    let mut out = String::new();
    for row in grid {
        let mut line = String::new();
        let mut cells = row.into_iter();
        while let Some(cell) = cells.next() {
            let Some(i) = cell else {
                line.push(' ');
                continue;
            };
            let c = letters[i];
            // A sticker takes its column and the next.
            cells.next();
            if ansi {
                let (r, g, b) = rgb(map, faces[i]);
                let style = Style::new()
                    .bg_color(Some(RgbColor(r, g, b).into()))
                    .fg_color(Some(AnsiColor::Black.into()));
                let _ = write!(line, "{}{c} {}", style.render(), style.render_reset());
            } else {
                line.push(c);
                line.push(' ');
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

/// The opening tag of an SVG picture of `w` by `h` pixels.
fn svg_open(w: impl std::fmt::Display, h: impl std::fmt::Display) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
    )
}

/// A sticker's letter, faint, centred at `(x, y)`, so that the picture reads without
/// colour too.
fn letter(out: &mut String, x: impl std::fmt::Display, y: impl std::fmt::Display, c: char) {
    let _ = writeln!(
        out,
        "  <text x=\"{x}\" y=\"{y}\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\" fill=\"#000\" fill-opacity=\"0.35\">{c}</text>"
    );
}

/// The net as an SVG picture: one shape per sticker in its face's colour (a rounded
/// square on a grid net; a rhombus, trapezium or pentagon on a pentagon net), with the
/// letter in it.
pub fn svg(map: &StickerMap, faces: &[char], letters: &[char]) -> String {
    if let Some(net) = Net::unfold(map) {
        return pentagon_svg(map, &net, faces, letters);
    }
    let (rows, cols) = map.extent();
    let mut out = svg_open(cols * CELL + 2 * GAP, rows * CELL + 2 * GAP);
    for (i, st) in map.stickers.iter().enumerate() {
        let (c, (r, g, b)) = (letters[i], rgb(map, faces[i]));
        let (x, y) = (
            st.col as usize * CELL + 2 * GAP,
            st.row as usize * CELL + 2 * GAP,
        );
        let size = CELL - 2 * GAP;
        let _ = writeln!(
            out,
            "  <rect x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\" rx=\"3\" fill=\"#{r:02x}{g:02x}{b:02x}\" stroke=\"#000\" stroke-width=\"1\"/>"
        );
        letter(&mut out, x + size / 2, y + size / 2 + 4, c);
    }
    out.push_str("</svg>\n");
    out
}

/// The pentagon net as SVG: every sticker a polygon in its colour, outlined in black.
fn pentagon_svg(map: &StickerMap, net: &Net, faces: &[char], letters: &[char]) -> String {
    let (polygons, (w, h)) = pentagon::svg_polygons(net);
    let mut out = svg_open(w, h);
    for (i, pts) in polygons {
        let (c, (r, g, b)) = (letters[i], rgb(map, faces[i]));
        let points: Vec<String> = pts
            .iter()
            .map(|p| format!("{:.1},{:.1}", p.0, p.1))
            .collect();
        let _ = writeln!(
            out,
            "  <polygon points=\"{}\" fill=\"#{r:02x}{g:02x}{b:02x}\" stroke=\"#000\" stroke-width=\"1\" stroke-linejoin=\"round\"/>",
            points.join(" ")
        );
        let (x, y) = centroid(&pts);
        letter(&mut out, format!("{x:.1}"), format!("{:.1}", y + 4.0), c);
    }
    out.push_str("</svg>\n");
    out
}

/// The mean of a polygon's corners: inside it, since every sticker is convex.
pub fn centroid(pts: &[Point]) -> Point {
    let n = pts.len().max(1) as f64;
    let (x, y) = pts.iter().fold((0.0, 0.0), |(x, y), p| (x + p.0, y + p.1));
    (x / n, y / n)
}
